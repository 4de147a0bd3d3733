//! One problem at a Kubernetes field path, in the API server's wording: the leaf every check
//! of the manifest layer reports with.

use std::fmt;

use super::yaml::trail::Place;
use crate::escape::Escaped;

/// One problem, at a Kubernetes field path such as `spec.containers[1].name`, and where the
/// text says it when that is known (an unknown key, found by `yaml/locate.rs`). Displayed escaped
/// (`crate::escape`): a path may hold a map's key (`data[key]`), and a message a value.
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
        Self::new(path, FieldProblem::Required.to_string())
    }

    pub(super) fn required_because(path: impl Into<String>, detail: &str) -> Self {
        Self::new(path, FieldProblem::RequiredBecause(detail).to_string())
    }

    /// A string value, quoted as the API server quotes it.
    pub(super) fn invalid(path: impl Into<String>, value: &str, why: &str) -> Self {
        Self::new(path, FieldProblem::Invalid { value, why }.to_string())
    }

    /// A number or boolean, shown bare as the API server shows it.
    pub(super) fn invalid_raw(path: impl Into<String>, value: impl fmt::Display, why: &str) -> Self {
        Self::new(path, FieldProblem::InvalidRaw { value: &value, why }.to_string())
    }

    pub(super) fn unsupported(path: impl Into<String>, value: &str, supported: &[&str]) -> Self {
        Self::new(path, FieldProblem::Unsupported { value, supported }.to_string())
    }

    pub(super) fn duplicate(path: impl Into<String>, value: &str) -> Self {
        Self::new(path, FieldProblem::Duplicate(value).to_string())
    }

    pub(super) fn not_found(path: impl Into<String>, value: &str) -> Self {
        Self::new(path, FieldProblem::NotFound(value).to_string())
    }

    pub(super) fn forbidden(path: impl Into<String>, detail: &str) -> Self {
        Self::new(path, FieldProblem::Forbidden(detail).to_string())
    }

    pub(super) fn too_long(path: impl Into<String>, max: usize) -> Self {
        Self::new(path, FieldProblem::TooLong(max).to_string())
    }
}

/// The kinds of problem the API server reports at a field (apimachinery's `field.ErrorType`),
/// each with the rest of its sentence: the one wording of [`FieldError`] and of the volume
/// planner's refusals, which are the same field errors found later.
#[derive(Clone, Copy)]
pub enum FieldProblem<'a> {
    Required,
    /// `Required value`, with why it is required.
    RequiredBecause(&'a str),
    /// A string value, quoted as the API server quotes it.
    Invalid {
        value: &'a str,
        why: &'a str,
    },
    /// A number or boolean, shown bare as the API server shows it.
    InvalidRaw {
        value: &'a dyn fmt::Display,
        why: &'a str,
    },
    Unsupported {
        value: &'a str,
        supported: &'a [&'a str],
    },
    Duplicate(&'a str),
    NotFound(&'a str),
    Forbidden(&'a str),
    TooLong(usize),
}

impl fmt::Display for FieldProblem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FieldProblem::Required => f.write_str("Required value"),
            FieldProblem::RequiredBecause(detail) => write!(f, "Required value: {detail}"),
            FieldProblem::Invalid { value, why } => write!(f, "Invalid value: {value:?}: {why}"),
            FieldProblem::InvalidRaw { value, why } => write!(f, "Invalid value: {value}: {why}"),
            FieldProblem::Unsupported { value, supported } => {
                let list: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
                write!(f, "Unsupported value: {value:?}: supported values: {}", list.join(", "))
            }
            FieldProblem::Duplicate(value) => write!(f, "Duplicate value: {value:?}"),
            FieldProblem::NotFound(value) => write!(f, "Not found: {value:?}"),
            FieldProblem::Forbidden(detail) => write!(f, "Forbidden: {detail}"),
            FieldProblem::TooLong(max) => write!(f, "Too long: must have at most {max} bytes"),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", Escaped(&self.path), Escaped(&self.message))
    }
}
