//! `wait --for`: podrun's states (`running`, `ready`, `complete`) and kubectl's forms
//! (`condition=TYPE[=STATUS]`, `delete`, `jsonpath='{PATH}'[=VALUE]`), parsed as kubectl parses
//! them (staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go `conditionFuncFor`): the keyword and
//! the condition are matched without regard to case; a jsonpath condition is read by
//! `report::jsonpath::condition`.

use clap::ValueEnum;

use crate::report::jsonpath::condition::JsonPathCondition;

/// What `podrun wait --for` waits for: `--wait-for`'s states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WaitUntilArg {
    /// Every container running (or completed with exit 0 where it is not restarted)
    Running,
    /// Every container ready: its readiness probe passes, as podrun's prober last said (running,
    /// without one)
    Ready,
    /// Every container terminated for good; success when all exited 0
    Complete,
}

/// The pod conditions podrun reports, as the API names them.
pub const CONDITIONS: [&str; 5] =
    ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"];

/// What `wait --for` asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum WaitForSpec {
    /// One of podrun's states, as apply's `--wait-for` waits for it.
    State(WaitUntilArg),
    /// A pod condition (its API name) with this status (`True`, `False` or `Unknown`).
    Condition { type_: &'static str, status: &'static str },
    /// The pod gone: none of its containers left.
    Delete,
    /// The Pod object (as `get POD -o json` prints it) has this value at this path, or any
    /// value there when none is given.
    JsonPath(JsonPathCondition),
}

/// Why a `--for` value was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WaitForError {
    #[error("unrecognized condition: {0:?} (running, ready, complete, delete or condition=TYPE[=STATUS])")]
    Unrecognized(String),
    #[error("podrun reports no pod condition {0:?} (it reports {list})", list = CONDITIONS.join(", "))]
    UnknownCondition(String),
    #[error("a condition's status is True, False or Unknown, not {0:?}")]
    Status(String),
    /// kubectl's words for a jsonpath condition it would not take.
    #[error("{0}")]
    JsonPath(String),
}

/// Parses `--for`'s value.
///
/// # Errors
/// A value that is none of the forms, a condition podrun does not report, a status that is
/// none of a condition's.
pub fn parse(s: &str) -> Result<WaitForSpec, WaitForError> {
    if let Some(rest) = s.strip_prefix("jsonpath=") {
        return JsonPathCondition::parse(rest).map(WaitForSpec::JsonPath).map_err(WaitForError::JsonPath);
    }
    let lower = s.to_ascii_lowercase();
    if lower == "delete" {
        return Ok(WaitForSpec::Delete);
    }
    if let Some(rest) = lower.strip_prefix("condition=") {
        let (name, status) = rest.split_once('=').unwrap_or((rest, "true"));
        let original = &s["condition=".len()..];
        let type_ = CONDITIONS
            .iter()
            .find(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| WaitForError::UnknownCondition(original.split('=').next().unwrap_or("").to_owned()))?;
        let status = match status {
            "true" => "True",
            "false" => "False",
            "unknown" => "Unknown",
            _ => return Err(WaitForError::Status(original.split_once('=').map_or("", |(_, v)| v).to_owned())),
        };
        return Ok(WaitForSpec::Condition { type_, status });
    }
    WaitUntilArg::from_str(s, true).map(WaitForSpec::State).map_err(|_| WaitForError::Unrecognized(s.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_s_forms_are_taken_without_regard_to_case() {
        let cond = |type_, status| Ok(WaitForSpec::Condition { type_, status });
        assert_eq!(parse("condition=Ready"), cond("Ready", "True"));
        assert_eq!(parse("condition=ready"), cond("Ready", "True"));
        assert_eq!(parse("Condition=READY=false"), cond("Ready", "False"));
        assert_eq!(parse("condition=Ready=False"), cond("Ready", "False"));
        assert_eq!(parse("condition=containersready=unknown"), cond("ContainersReady", "Unknown"));
        assert_eq!(parse("condition=PodReadyToStartContainers"), cond("PodReadyToStartContainers", "True"));
        assert_eq!(parse("condition=Initialized=true"), cond("Initialized", "True"));
        assert_eq!(parse("condition=PodScheduled"), cond("PodScheduled", "True"));
        assert_eq!(parse("delete"), Ok(WaitForSpec::Delete));
        assert_eq!(parse("DELETE"), Ok(WaitForSpec::Delete));
        assert_eq!(parse("ready"), Ok(WaitForSpec::State(WaitUntilArg::Ready)));
        assert_eq!(parse("Running"), Ok(WaitForSpec::State(WaitUntilArg::Running)));
        assert_eq!(parse("complete"), Ok(WaitForSpec::State(WaitUntilArg::Complete)));
        assert!(matches!(parse("jsonpath={.status.phase}=Succeeded"), Ok(WaitForSpec::JsonPath(_))));
        assert!(matches!(parse("jsonpath={.status.podIP}"), Ok(WaitForSpec::JsonPath(_))));
    }

    #[test]
    fn other_values_are_refused_with_what_was_said() {
        assert_eq!(parse("none"), Err(WaitForError::Unrecognized("none".into())));
        assert_eq!(parse("condition="), Err(WaitForError::UnknownCondition(String::new())));
        assert_eq!(parse("condition=Redy"), Err(WaitForError::UnknownCondition("Redy".into())));
        assert_eq!(parse("condition=Ready=yes"), Err(WaitForError::Status("yes".into())));
        assert_eq!(parse("condition=Ready=true=x"), Err(WaitForError::Status("true=x".into())));
        assert!(parse("").is_err());
    }
}
