//! How a load reads what it meets: the namespace, `--strict` and `--validate`.

#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// From `--namespace`; used where the manifest names none.
    pub namespace: Option<String>,
    /// `--strict`: Kubernetes fields podrun does not implement (or only a cluster uses) are
    /// errors, not warnings.
    pub strict: bool,
    /// `--validate`: what becomes of fields Kubernetes does not know.
    pub unknown_fields: FieldValidation,
}

/// What becomes of a field the schema does not know, as kubectl's `--validate` (the API
/// server's field validation) has it: an error, dropped with a warning, or dropped. A
/// kubelet's file source drops them, as `Ignore` does, but says nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FieldValidation {
    #[default]
    Strict,
    Warn,
    Ignore,
}
