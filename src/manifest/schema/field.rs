//! What the schema says of one field: its name, the shape of its value and how far podrun
//! honours it.

/// How far podrun honours a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// podrun acts on the field.
    Implemented,
    /// Kubernetes has the field; podrun does not act on it yet.
    NotYet,
    /// The field only matters to a cluster (scheduler, API server, service accounts);
    /// podrun accepts it and ignores it.
    ClusterOnly,
    /// podrun cannot provide the feature on one host and refuses a manifest that asks for it.
    /// The refusal is validation's (`validate/refused.rs`), which knows the feature and says
    /// why; the walk reports nothing for the field or below it except typos and wrong shapes.
    /// A field whose harmless value podrun does honour (`hostUsers: true`) is marked so too:
    /// only validation sees values.
    Refused,
    /// A field of a feature whose gate (named) is off by default in the Kubernetes release
    /// podrun follows: a default API server drops it before validation, and podrun drops it too,
    /// with a warning; never refused, even under `--strict`.
    Gated(&'static str),
}

/// What a value must look like.
#[derive(Debug, Clone, Copy)]
pub(super) enum Shape {
    /// A string, number or boolean (Kubernetes quantities and int-or-string included).
    Scalar,
    /// A list of scalars.
    Scalars,
    /// A free-form string map (labels, resource lists): keys are the user's, never checked.
    Map,
    /// Not checked below this point.
    Any,
    /// A mapping with exactly these fields.
    Object(&'static [Field]),
    /// A list of such mappings.
    Objects(&'static [Field]),
}

#[derive(Debug)]
pub(super) struct Field {
    pub(super) name: &'static str,
    pub(super) shape: Shape,
    pub(super) support: Support,
}

pub(super) const fn implemented(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::Implemented }
}

pub(super) const fn not_yet(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::NotYet }
}

pub(super) const fn cluster_only(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::ClusterOnly }
}

pub(super) const fn gated(name: &'static str, shape: Shape, gate: &'static str) -> Field {
    Field { name, shape, support: Support::Gated(gate) }
}

pub(super) const fn refused(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::Refused }
}
