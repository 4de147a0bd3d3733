//! `apply --supervise`: after the first pass, each pod is driven again with no goal to reach
//! (`WaitFor::Forever`), no deadline and no retry budget, so the driver keeps repairing it as a
//! kubelet keeps a static pod: crashed containers restarted with CrashLoopBackOff, lost ones
//! recreated, probes run. Until SIGINT or SIGTERM, which leave the pods as they are.
//!
//! The driver waits out an engine that goes away mid-run itself (`outage`); one that finds the
//! engine away at its first look ends, and is started again as soon as the engine answers,
//! found with the same waits. A driver that stops for any other reason (a pull failed) is
//! started again after a doubling delay, and so is one that cannot be configured now (a volume
//! whose files cannot be made, a hostPath of the wrong type), as the kubelet retries a
//! CreateContainerConfigError: the host may be mended meanwhile, and the reason is said at
//! each try. A pod that has finished for good (Succeeded or Failed: no container of it will be
//! restarted) is left alone: nothing podrun could do would change it.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::Runtime;
use crate::status::{Phase, WaitFor};

use super::{outage, run_pod, DriveOptions, Interrupt, PodFailure, PodResult};

/// The longest wait before a stopped driver is started again.
const MAX_RESTART_DELAY: Duration = Duration::from_secs(300);
/// A driver that ran this long had the pod in hand: the delay starts over after it.
const STEADY: Duration = Duration::from_secs(600);

/// Whether a pod, as the first pass left it, has anything left to supervise.
pub fn needs_supervision(r: &PodResult) -> bool {
    // The phase asks each container whether it restarts (its rules, its policy, the pod's).
    let finished = r.status.as_ref().is_some_and(|s| matches!(s.phase, Phase::Succeeded | Phase::Failed));
    !finished
        && !matches!(
            r.outcome,
            Err(PodFailure::Interrupted(_) | PodFailure::DeadlineExceeded { .. } | PodFailure::Deleted { .. })
        )
}

/// The drive options of supervision: the first pass's, with no goal, deadline or budget.
pub fn forever(first_pass: &DriveOptions) -> DriveOptions {
    DriveOptions {
        wait_for: Some(WaitFor::Forever),
        retries: u32::MAX,
        // Far enough never to come, near enough not to overflow the clock.
        deadline: Instant::now() + Duration::from_secs(100 * 365 * 24 * 3600),
        abort_on_exit: false,
        ..first_pass.clone()
    }
}

/// Keeps every pod of `first_pass` that needs it until `interrupt` fires. Returns (once no
/// pod is supervised any more) whether one ended past its activeDeadlineSeconds. For the
/// driver's tests: `apply --supervise` keeps each pod by a worker of its own (`apply::workers`),
/// which a re-read of the manifests can stop or replace alone.
#[cfg(test)]
pub async fn supervise<R: Runtime>(
    rt: Arc<R>,
    first_pass: Vec<PodResult>,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    interrupt: Interrupt,
) -> bool {
    let runs = first_pass
        .into_iter()
        .filter(needs_supervision)
        .map(|r| keep(rt.clone(), r.desired, opts.clone(), reporter.clone(), interrupt.clone()));
    futures_util::future::join_all(runs).await.into_iter().any(|past_deadline| past_deadline)
}

/// Keeps one pod (`opts` those of `forever`) until `interrupt` fires (false) or it has finished
/// for good (true when past its activeDeadlineSeconds): one pod's worker under supervision.
pub async fn keep<R: Runtime>(
    rt: Arc<R>,
    desired: DesiredPod,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    mut interrupt: Interrupt,
) -> bool {
    let key = PodKey::of(&desired);
    let base = opts.retry_delay.max(Duration::from_secs(1));
    let mut delay = base;
    let mut desired = desired;
    loop {
        let started = Instant::now();
        let last = run_pod(rt.clone(), desired, opts.clone(), reporter.clone(), interrupt.clone()).await;
        let why = match &last.outcome {
            Err(PodFailure::Interrupted(_)) => return false,
            _ if !needs_supervision(&last) => {
                let how = match &last.outcome {
                    Err(e) => e.to_string(),
                    Ok(()) => last.status.as_ref().map_or_else(|| "done".to_owned(), |s| format!("{:?}", s.phase)),
                };
                reporter.event(&key, &format!("finished for good ({how}): no longer supervised"));
                return matches!(last.outcome, Err(PodFailure::DeadlineExceeded { .. }));
            }
            Err(PodFailure::Runtime(e)) if outage::away(e, true) => {
                reporter.warning(&format!("pod {key}: engine unreachable, retrying ({e})"));
                let sel = crate::runtime::Selector::pod(&key.namespace, &key.name);
                match outage::wait_for_engine(&*rt, &sel, e.clone(), None, &mut interrupt).await {
                    Ok(()) => {
                        reporter.event(&key, "the engine answers again; supervising the pod again");
                        desired = last.desired;
                        continue;
                    }
                    Err(PodFailure::Interrupted(_)) => return false,
                    Err(e) => e.to_string(),
                }
            }
            Err(e) => e.to_string(),
            Ok(()) => "the driver stopped".to_owned(),
        };
        desired = last.desired;
        if started.elapsed() >= STEADY {
            delay = base;
        }
        reporter.warning(&format!("pod {key}: {why}; supervising it again in {}", humantime::format_duration(delay)));
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            _ = interrupt.wait() => return false,
        }
        delay = (delay * 2).min(MAX_RESTART_DELAY);
    }
}
