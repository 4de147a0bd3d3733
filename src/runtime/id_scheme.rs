//! Which runtime runs a container, as a kubelet on it names the container in a pod's status:
//! `containerID` is `<runtime name>://<id>`, the name being the one the runtime gives itself.

use std::sync::Arc;

/// The runtime a container was observed on, which sets the scheme of its status's ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum IdScheme {
    /// Docker Engine: `docker://`, as cri-dockerd (and dockershim before it) reports it.
    #[default]
    Docker,
    /// Podman's Docker-compatible API: `podman://`. No kubelet runs on Podman; this is the
    /// name Podman gives itself.
    Podman,
    /// A CRI runtime, by the `runtime_name` of its Version answer (`containerd`, `cri-o`).
    Cri(Arc<str>),
}

/// The longest runtime name taken as a scheme.
const MAX_NAME: usize = 63;

impl IdScheme {
    /// The scheme of CRI runtime `runtime_name`. A name that cannot be a URI scheme
    /// (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`) would make an id that cannot
    /// be read back, and reads `cri`.
    pub fn cri(runtime_name: &str) -> IdScheme {
        let mut chars = runtime_name.chars();
        let valid = runtime_name.len() <= MAX_NAME
            && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        IdScheme::Cri(Arc::from(if valid { runtime_name } else { "cri" }))
    }

    /// The scheme's name, without `://`.
    pub fn name(&self) -> &str {
        match self {
            IdScheme::Docker => "docker",
            IdScheme::Podman => "podman",
            IdScheme::Cri(name) => name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cri_runtime_is_named_as_it_names_itself() {
        assert_eq!(IdScheme::cri("containerd").name(), "containerd");
        assert_eq!(IdScheme::cri("cri-o").name(), "cri-o");
        assert_eq!(IdScheme::Docker.name(), "docker");
        assert_eq!(IdScheme::Podman.name(), "podman");
    }

    #[test]
    fn a_name_that_is_no_scheme_reads_cri() {
        for bad in ["", "a://b", "1runtime", "run time", "x/y", &"r".repeat(64)] {
            assert_eq!(IdScheme::cri(bad).name(), "cri", "{bad:?}");
        }
    }
}
