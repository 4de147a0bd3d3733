//! The run-once driver: observe, plan, act, wait, until the pod is where the user asked or the
//! budget runs out. It owns the deadline, the backoff between repairs, and interruption; the
//! planner decides what to do, the runtime does it, the reporter shows it.

mod abort;
mod act;
pub mod apply;
pub mod auto_update;
mod awaited;
mod creations;
mod deleted;
mod drive;
pub mod events;
mod explain;
pub mod log_rotation;
pub mod manifests;
mod messages;
pub mod outage;
mod own_probes;
mod prober;
mod pull_credentials;
pub mod pull_verify;
pub mod pulls;
mod record;
pub mod signals;
mod status_events;
pub mod supervise;
mod termination;
#[cfg(test)]
mod tests;
pub mod wait;
pub mod wait_goal;
pub mod wait_until;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::plan;
use crate::pod::files::PodFiles;
use crate::pod::observed::PodObservation;
use crate::pod::DesiredPod;
use crate::report::Reporter;
use crate::runtime::{Runtime, Selector};
use crate::status::{self, Notes, PodStatus, WaitFor};

pub use crate::status::outcome::{PodFailure, PodResult};
pub use act::{ensure_infra_image, remove_engine_volumes, remove_pod, remove_pod_with, stop_wait};
pub use plan::CrashBackoff;
pub use signals::Interrupt;

// What the driver's tests (`tests.rs`, `use super::*`) read beside the driver's own names.
#[cfg(test)]
use crate::report::PodKey;
#[cfg(test)]
use messages::read_engine_message;

/// How long and how often to try.
#[derive(Debug, Clone)]
pub struct DriveOptions {
    /// `None`: the default for the pod's restart policy.
    pub wait_for: Option<WaitFor>,
    /// How many repair rounds (restarts, re-creations) after the first sync.
    pub retries: u32,
    /// The wait after the first repair; multiplied by `backoff` after each.
    pub retry_delay: Duration,
    pub backoff: f64,
    /// The whole run ends here, whatever is left of the retries.
    pub deadline: Instant,
    /// How restarts of a crashing container are spaced (CrashLoopBackOff).
    pub crash: plan::CrashBackoff,
    /// podrun's files on the host (termination messages), when the engine can mount them.
    pub files: Option<PodFiles>,
    /// How long a container must have been up to count as running (`--min-uptime`).
    pub min_uptime: Duration,
    /// The run's image pulls, shared by its pods.
    pub pulls: Arc<pulls::Pulls>,
    /// What `--auto-update` shares with the drivers (empty without it).
    pub updates: Arc<auto_update::Updates>,
    /// `--abort-on-container-exit`: the run ends once an app container has terminated for
    /// good, the others stopped within their grace periods (`abort`).
    pub abort_on_exit: bool,
    /// Where the pod's events go (`events`).
    pub events: events::Events,
}

/// Runs one pod to its goal. Never returns early on a transient engine error: a failed action
/// is retried like any other failed repair, and an engine that goes away after it answered is
/// waited for within the deadline (see `outage`).
pub async fn run_pod<R: Runtime>(
    rt: Arc<R>,
    desired: DesiredPod,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    interrupt: Interrupt,
) -> PodResult {
    // While it runs, `podrun wait` leaves the probes to this run (`pod::files::driving`).
    let _driving = driving(opts.files.as_ref(), &desired.uid).await;
    let created = creations::Creations::new(rt.clone());
    let mut r = drive::drive(rt.clone(), desired, opts.clone(), reporter, interrupt, &created).await;
    // A create the engine was still working on when the run was cut short is the run's too.
    r.created = created.settled(SETTLE).await;
    if matches!(r.outcome, Err(PodFailure::Interrupted(_))) {
        // Show the state as it stands now, not as it was before the interrupted step; but a
        // second look must not delay the exit more than a moment.
        if let Ok(Some(st)) = tokio::time::timeout(Duration::from_secs(2), look(&*rt, &r.desired, &opts)).await {
            r.status = Some(st);
        }
    }
    r
}

/// This process's hold on the pod as its driver; a look holds the lock only for an instant, so
/// a few tries get it. Without podrun's files (a remote engine) nothing is held: no `wait`
/// there reads them either.
async fn driving(files: Option<&PodFiles>, uid: &str) -> Option<crate::pod::files::Driving> {
    for _ in 0..50 {
        match files?.drive(uid) {
            Ok(Some(hold)) => return Some(hold),
            Ok(None) => tokio::time::sleep(Duration::from_millis(10)).await,
            Err(e) => {
                tracing::warn!("{}", crate::error_chain::chain(&e));
                return None;
            }
        }
    }
    None
}

/// How long the end of a run waits for the creates still with the engine.
const SETTLE: Duration = Duration::from_secs(10);

/// The pod's status as the engine shows it now.
async fn look<R: Runtime>(rt: &R, desired: &DesiredPod, opts: &DriveOptions) -> Option<PodStatus> {
    let observed = rt.list(&Selector::pod(&desired.namespace, &desired.name)).await.ok()?;
    let obs = PodObservation::new(desired, &observed);
    let healthy = BTreeSet::new();
    let ctx = plan::Context {
        now: crate::clock::now(),
        crash: opts.crash,
        unhealthy: &healthy,
        not_started: &healthy,
        replace: &healthy,
    };
    let plan = plan::plan(desired, &obs, &ctx);
    let st = status::compute(desired, &obs, &Notes::new(), &plan);
    let kept = opts.files.as_ref().and_then(|f| f.read_record(&desired.uid));
    let (earlier, generation) = kept.map(|r| (r.conditions, r.generation)).unwrap_or_default();
    Some(record::stamp(st, &earlier, generation, crate::clock::now()))
}
