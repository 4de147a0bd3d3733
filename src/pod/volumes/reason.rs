//! Why the planner refuses a field, as the API server words it: the leaf of
//! [`VolumeError::Invalid`](super::VolumeError::Invalid), and the reasons a path inside a volume
//! is not one, which a `subPathExpr` shows without its expanded value.

use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::manifest::{volume_paths, FieldProblem};

/// One refusal of a field, in the API server's words (its field.Error kinds). The field itself
/// is the error's; this is the rest of the sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    Required,
    /// `Required value`, with why it is required.
    RequiredBecause(&'static str),
    /// A string value, quoted as the API server quotes it.
    Invalid {
        value: String,
        why: String,
    },
    /// A number, or a value already written as it is shown, bare.
    InvalidRaw {
        value: String,
        why: String,
    },
    Unsupported {
        value: String,
        supported: &'static [&'static str],
    },
    /// A path inside a volume that is not one.
    Path {
        value: PathValue,
        problem: PathProblem,
    },
    /// A sentence of its own, with no kind before it.
    Plain(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let field = match self {
            Reason::Required => FieldProblem::Required,
            Reason::RequiredBecause(why) => FieldProblem::RequiredBecause(why),
            Reason::Invalid { value, why } => FieldProblem::Invalid { value, why },
            Reason::InvalidRaw { value, why } => FieldProblem::InvalidRaw { value, why },
            Reason::Unsupported { value, supported } => FieldProblem::Unsupported { value, supported },
            Reason::Path { value: PathValue::Shown(_), problem: PathProblem::Empty } => FieldProblem::Required,
            Reason::Path { value: PathValue::Shown(s), problem } => {
                return FieldProblem::Invalid { value: s, why: &problem.to_string() }.fmt(f);
            }
            Reason::Path { value: PathValue::Expanded(expr), problem: PathProblem::Empty } => {
                return write!(f, "Required value: {expr:?} expands to nothing");
            }
            Reason::Path { value: PathValue::Expanded(expr), problem } => {
                return write!(f, "Invalid value: {expr:?} (as expanded, not shown): {problem}");
            }
            Reason::Plain(text) => return f.write_str(text),
        };
        field.fmt(f)
    }
}

/// How a refused path is shown: as written, or, for a `subPathExpr`, as the expression alone,
/// since what it expanded to may hold a Secret's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathValue {
    Shown(String),
    Expanded(String),
}

/// Why a path inside a volume (an item path, a key used as a file name, a sub-path) is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PathProblem {
    /// Shown as `Required value`, not as a reason.
    #[error("empty")]
    Empty,
    #[error("must be a relative path")]
    Absolute,
    #[error("must not contain '..'")]
    Backstep,
    /// The kubelet reserves such names for its own entries.
    #[error("must not start with '..'")]
    Reserved,
    #[error("must not contain a NUL character")]
    Nul,
    #[error("too long")]
    TooLong,
    #[error("must name something inside the volume")]
    Nothing,
}

/// `s` as a path inside a volume: relative, without a `..` component, not starting with `..`,
/// within the kubelet's length limits. Returns it with `.` and empty components dropped.
pub fn checked_rel_path(s: &str) -> Result<PathBuf, PathProblem> {
    if s.is_empty() {
        return Err(PathProblem::Empty);
    }
    if s.starts_with('/') {
        return Err(PathProblem::Absolute);
    }
    if volume_paths::has_backstep(s) {
        return Err(PathProblem::Backstep);
    }
    if volume_paths::is_reserved(s) {
        return Err(PathProblem::Reserved);
    }
    if s.contains('\0') {
        return Err(PathProblem::Nul);
    }
    if volume_paths::is_too_long(s) {
        return Err(PathProblem::TooLong);
    }
    let p: PathBuf = Path::new(s).components().filter(|c| matches!(c, Component::Normal(_))).collect();
    if p.as_os_str().is_empty() {
        return Err(PathProblem::Nothing);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_problem_reads_the_same_shown_or_expanded() {
        assert_eq!(checked_rel_path("./a//b"), Ok(PathBuf::from("a/b")));
        for (s, problem) in [
            ("", PathProblem::Empty),
            ("/a", PathProblem::Absolute),
            ("a/../b", PathProblem::Backstep),
            ("..data", PathProblem::Reserved),
            ("a\0b", PathProblem::Nul),
            ("./.", PathProblem::Nothing),
        ] {
            assert_eq!(checked_rel_path(s), Err(problem), "{s:?}");
        }
        let shown = |problem| Reason::Path { value: PathValue::Shown("/a".to_owned()), problem }.to_string();
        let expanded = |problem| Reason::Path { value: PathValue::Expanded("$(D)".to_owned()), problem }.to_string();
        assert_eq!(shown(PathProblem::Empty), "Required value");
        assert_eq!(shown(PathProblem::Absolute), "Invalid value: \"/a\": must be a relative path");
        assert_eq!(expanded(PathProblem::Empty), "Required value: \"$(D)\" expands to nothing");
        assert_eq!(
            expanded(PathProblem::Absolute),
            "Invalid value: \"$(D)\" (as expanded, not shown): must be a relative path"
        );
    }
}
