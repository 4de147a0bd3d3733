//! `wait --for=WHAT`: `running`, `ready`, `complete`, or kubectl's
//! `jsonpath='{PATH}'=VALUE` / `jsonpath='{PATH}'` (read by `report::jsonpath::condition`).

use crate::report::jsonpath::condition::JsonPathCondition;

/// What `podrun wait --for` waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum WaitUntilArg {
    /// Every container running (or completed with exit 0 where it is not restarted)
    Running,
    /// Every container ready: its readiness probe passes, as podrun's prober last said (running,
    /// without one)
    Ready,
    /// Every container terminated for good; success when all exited 0
    Complete,
    /// The Pod object (as `get POD -o json` prints it) has this value at this path, or any
    /// value there when none is given
    JsonPath(JsonPathCondition),
}

/// # Errors
/// kubectl's words for a condition it would not take.
pub fn parse_wait_for(s: &str) -> Result<WaitUntilArg, String> {
    match s {
        "running" => Ok(WaitUntilArg::Running),
        "ready" => Ok(WaitUntilArg::Ready),
        "complete" => Ok(WaitUntilArg::Complete),
        _ => match s.strip_prefix("jsonpath=") {
            Some(rest) => JsonPathCondition::parse(rest).map(WaitUntilArg::JsonPath),
            None => Err(format!("unrecognized condition: {s:?}")),
        },
    }
}
