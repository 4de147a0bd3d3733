//! `wait --for=jsonpath=...`: the pod's end decided by a condition on its Pod object (which
//! the command builds, as `get` prints it) rather than by its containers' states. The
//! condition holds, or fails to apply (kubectl's errors end the wait at once), or the
//! deadline comes with what the path finds now.

use std::sync::Arc;

use tokio::time::Instant;

use crate::status::engine_pods::ListedPod;

use super::PodFailure;

/// `Ok(None)`: the condition holds; `Ok(Some(now))`: not yet, the path finds `now`; `Err`:
/// it cannot be checked on this pod.
pub type Check = dyn Fn(&ListedPod) -> Result<Option<String>, String> + Send + Sync;

#[derive(Clone)]
pub struct Until(pub Arc<Check>);

impl std::fmt::Debug for Until {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Until")
    }
}

/// What the goal is called in the failure's words.
const GOAL: &str = "at its --for=jsonpath value";

/// The outcome of a look at `pod`, if the wait is over.
pub(super) fn outcome(
    until: &Until,
    pod: &ListedPod,
    deadline: Instant,
    start: Instant,
) -> Option<Result<(), PodFailure>> {
    let failure = |detail: String| {
        let elapsed = humantime::format_duration(std::time::Duration::from_secs(start.elapsed().as_secs())).to_string();
        Err(PodFailure::NotConverged { goal: GOAL, retries: 0, elapsed, detail, crash_loop: false })
    };
    match (until.0)(pod) {
        Ok(None) => Some(Ok(())),
        Ok(Some(now)) if Instant::now() >= deadline => Some(failure(format!("the path finds {now}"))),
        Ok(Some(_)) => None,
        Err(why) => Some(failure(why)),
    }
}
