//! What a pod needs from its namespace (a ConfigMap, a Secret, one of their keys) and does not
//! find there, in the one wording every such refusal uses: volumes, the environment, and the
//! run's report of all of them (`needed_configs`).

/// How to supply a missing ConfigMap, Secret or key, said wherever one is missing.
pub const SUPPLY: &str = "supply it in a file given with --config FILE, or set optional: true to run without it";

/// One missing object or key. Part of the message of the error that names the field (such as
/// `VolumeError::Missing`), not its cause: the field and this are one sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Absent {
    #[error("{kind} {namespace}/{name} not found")]
    Object { kind: &'static str, namespace: String, name: String },
    #[error("{kind} {namespace}/{name} has no key {key:?}")]
    Key { kind: &'static str, namespace: String, name: String, key: String },
}
