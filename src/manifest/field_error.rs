//! One problem at a Kubernetes field path, in the API server's wording: the leaf every check
//! of the manifest layer reports with.

use std::fmt;

use super::trail::Place;

/// One problem, at a Kubernetes field path such as `spec.containers[1].name`, and where the
/// text says it when that is known (an unknown key, found by `locate.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub path: String,
    pub message: String,
    pub at: Option<Place>,
}

impl FieldError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { path: path.into(), message: message.into(), at: None }
    }

    /// The same problem, placed in the text.
    #[must_use]
    pub fn at(self, place: Option<Place>) -> Self {
        FieldError { at: place, ..self }
    }

    pub(super) fn required(path: impl Into<String>) -> Self {
        Self::new(path, "Required value")
    }

    pub(super) fn required_because(path: impl Into<String>, detail: &str) -> Self {
        Self::new(path, format!("Required value: {detail}"))
    }

    /// A string value, quoted as the API server quotes it.
    pub(super) fn invalid(path: impl Into<String>, value: &str, why: &str) -> Self {
        Self::new(path, format!("Invalid value: {value:?}: {why}"))
    }

    /// A number or boolean, shown bare as the API server shows it.
    pub(super) fn invalid_raw(path: impl Into<String>, value: impl fmt::Display, why: &str) -> Self {
        Self::new(path, format!("Invalid value: {value}: {why}"))
    }

    pub(super) fn unsupported(path: impl Into<String>, value: &str, supported: &[&str]) -> Self {
        let list: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
        Self::new(path, format!("Unsupported value: {value:?}: supported values: {}", list.join(", ")))
    }

    pub(super) fn duplicate(path: impl Into<String>, value: &str) -> Self {
        Self::new(path, format!("Duplicate value: {value:?}"))
    }

    pub(super) fn not_found(path: impl Into<String>, value: &str) -> Self {
        Self::new(path, format!("Not found: {value:?}"))
    }

    pub(super) fn forbidden(path: impl Into<String>, detail: &str) -> Self {
        Self::new(path, format!("Forbidden: {detail}"))
    }

    pub(super) fn too_long(path: impl Into<String>, max: usize) -> Self {
        Self::new(path, format!("Too long: must have at most {max} bytes"))
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}
