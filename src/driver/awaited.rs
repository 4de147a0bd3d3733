//! What a run that reached its deadline (`--timeout`) or its retry budget says it was still
//! waiting for: each container short of the goal, as it is (a failure, a wait, or a container
//! that runs and has yet to finish), or the stops the engine was still carrying out within their
//! grace periods. An engine that answered is never reported as an outage here.

use std::time::Duration;

use tokio::time::Instant;

use crate::status::{PodStatus, Reason, WaitFor};

use super::PodFailure;

/// How a run ended: the pod's last status, and the outcome.
pub(super) type End = (Option<PodStatus>, Result<(), PodFailure>);

/// The words for a container that runs while the run waits for it to end.
pub const STILL_RUNNING: &str = "still running; waiting for completion";

/// The run did not get the pod to its goal in time: what it was waiting for.
/// `restarting_always`: whether each app container is restarted after every exit.
pub(super) fn not_converged(
    st: PodStatus,
    wait_for: WaitFor,
    restarting_always: &[bool],
    retries: u32,
    start: Instant,
) -> End {
    let detail = blockers(&st, wait_for, restarting_always);
    ended(st, wait_for, retries, start, detail)
}

/// The deadline came while the engine was stopping `stopping` (name, grace period) within
/// their grace periods, as the kubelet stops a container whose liveness probe failed: that is
/// what was awaited.
pub(super) fn still_stopping(
    st: PodStatus,
    stopping: &[(String, Duration)],
    wait_for: WaitFor,
    retries: u32,
    start: Instant,
) -> End {
    let detail = stopping
        .iter()
        .map(|(name, grace)| format!("{name}: stopping within its grace period ({}s)", grace.as_secs()))
        .collect::<Vec<_>>()
        .join("; ");
    ended(st, wait_for, retries, start, detail)
}

fn ended(st: PodStatus, wait_for: WaitFor, retries: u32, start: Instant, detail: String) -> End {
    let elapsed = humantime::format_duration(Duration::from_secs(start.elapsed().as_secs())).to_string();
    // Out of retries while an image could not be pulled: the image is what is missing (exit 4).
    let pulling = st.all().find_map(|c| {
        let w = c.state.waiting.as_ref()?;
        Reason::named(&w.reason).is_some_and(Reason::is_pull_failing).then_some((c, w))
    });
    if let Some((c, w)) = pulling {
        let failure = PodFailure::Image {
            container: c.name.clone(),
            image: c.image.clone(),
            reason: w.reason.clone(),
            message: w.message.clone().unwrap_or_default(),
        };
        return (Some(st), Err(failure));
    }
    let failure =
        PodFailure::NotConverged { goal: goal(wait_for), retries, elapsed, detail, crash_loop: crash_looping(&st) };
    (Some(st), Err(failure))
}

fn goal(w: WaitFor) -> &'static str {
    match w {
        WaitFor::Running => "running",
        WaitFor::Complete => "complete",
        WaitFor::Each => "running or complete",
        WaitFor::Ready => "ready",
        WaitFor::None => "created",
        WaitFor::Forever => "supervised",
    }
}

/// A one-line account of the containers that keep the pod from its goal: those not running,
/// and, waiting for completion, those that run; waiting for readiness, those not ready.
fn blockers(status: &PodStatus, wait_for: WaitFor, restarting_always: &[bool]) -> String {
    let completing = |i: usize| !restarting_always.get(i).copied().unwrap_or(false);
    let parts: Vec<String> = status
        .container_statuses
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match (&c.state.running, wait_for) {
            (None, _) => Some(format!("{}: {}", c.name, c.state.describe())),
            (Some(_), WaitFor::Complete) => Some(format!("{}: {STILL_RUNNING}", c.name)),
            (Some(_), WaitFor::Each) if completing(i) => Some(format!("{}: {STILL_RUNNING}", c.name)),
            (Some(_), WaitFor::Ready) if !c.ready => Some(format!("{}: {}", c.name, c.describe())),
            _ => None,
        })
        .collect();
    if !parts.is_empty() {
        return parts.join("; ");
    }
    let sandbox = status.conditions.iter().find(|c| c.type_ == "PodReadyToStartContainers");
    if sandbox.is_some_and(|c| c.status == "True") {
        "every container is where it was asked to be; the pod is not settled yet".to_owned()
    } else {
        "the pod's infra container is not running".to_owned()
    }
}

fn crash_looping(status: &PodStatus) -> bool {
    status.container_statuses.iter().any(|c| {
        c.restart_count > 0 && c.state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
            || c.last_state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{fixtures, ContainerState, ContainerStatus, Phase};

    fn running(ready: bool) -> ContainerStatus {
        ContainerStatus { ready, started: true, ..fixtures::container("c", fixtures::running()) }
    }

    fn pod(c: ContainerStatus, sandbox: bool) -> PodStatus {
        PodStatus::assemble(Phase::Running, true, None, None, (vec![], &[]), vec![c]).with_sandbox(sandbox)
    }

    #[test]
    fn a_running_container_is_what_completion_and_readiness_wait_for() {
        assert_eq!(
            blockers(&pod(running(true), true), WaitFor::Complete, &[]),
            "c: still running; waiting for completion"
        );
        assert_eq!(blockers(&pod(running(false), true), WaitFor::Ready, &[]), "c: Running, not ready");
        let each = |always| blockers(&pod(running(true), true), WaitFor::Each, &[always]);
        assert_eq!(each(false), "c: still running; waiting for completion", "a container that ends, running");
        assert!(!each(true).contains(STILL_RUNNING), "a container that runs for good, running");
        let waiting = ContainerStatus { state: ContainerState::waiting("ErrImagePull", None), ..running(false) };
        assert_eq!(blockers(&pod(waiting, true), WaitFor::Running, &[]), "c: Waiting: ErrImagePull");
        assert_eq!(
            blockers(&pod(running(true), false), WaitFor::Running, &[]),
            "the pod's infra container is not running"
        );
    }

    #[test]
    fn the_deadline_during_a_stop_names_the_grace_period_not_the_engine() {
        let stopping = [("c".to_owned(), Duration::from_secs(30))];
        let (_, end) = still_stopping(pod(running(true), true), &stopping, WaitFor::Running, 0, Instant::now());
        let Err(PodFailure::NotConverged { detail, .. }) = end else { panic!("{end:?}") };
        assert_eq!(detail, "c: stopping within its grace period (30s)");
    }
}
