//! `podrun wait`'s loop: watch pods podrun already runs until each is where it was asked to be
//! (`status::waited`), has failed for good, is deleted, or the deadline comes; never acting on
//! them. Each pod is read as `podrun get` reads it (the engine, and the record podrun's runs
//! keep). It looks again on each engine event for the pod, else after a wait that starts at
//! 250 ms and doubles up to 2 s; an engine that goes away is waited for within the deadline,
//! and SIGINT or SIGTERM end the wait, as they end apply. When no podrun drives the pod, wait
//! runs its startup and readiness probes itself (`own_probes`), and looks again at each result.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use futures_util::StreamExt;
use tokio::time::Instant;

use crate::pod::deletion::Deletion;
use crate::pod::files::PodFiles;
use crate::report::{Ended, PodKey, Reporter};
use crate::runtime::labels;
use crate::runtime::{Observed, Runtime, Selector};
use crate::status::engine_pods::{self, ListedPod};
use crate::status::failed::FailedContainer;
use crate::status::{waited, Uptime, Verdict, WaitFor};

use super::awaited::not_converged;
use super::drive::POLL as MAX_POLL;
use super::own_probes::OwnProbes;
use super::wait_goal::Goal;
use super::{deleted, outage, Interrupt, PodFailure};

/// The first wait between looks; it doubles up to the driver's own poll.
const FIRST_POLL: Duration = Duration::from_millis(250);
/// How long a container must have been up to count as running: apply's `--min-uptime` default.
pub const MIN_UPTIME: Duration = Duration::from_millis(200);

/// What to wait for, and until when.
#[derive(Debug, Clone)]
pub struct WaitOptions {
    /// A state (`None`: as apply's default, by the pod's restart policy, its record's; without
    /// one, running), a condition, or the pod's deletion.
    pub goal: Goal,
    pub deadline: Instant,
    /// podrun's files on the host (records, termination messages), when the engine is local.
    pub files: Option<PodFiles>,
    /// A condition on the Pod object that decides the end instead (`--for=jsonpath=...`).
    pub until: Option<super::wait_until::Until>,
}

/// The end of the wait for one pod: the pod as last seen, and the outcome.
#[derive(Debug, Clone)]
pub struct Waited {
    pub key: PodKey,
    pub pod: Option<ListedPod>,
    pub outcome: Result<(), PodFailure>,
    /// On a failure, each container that failed the wait, with its last output.
    pub failed: Vec<FailedContainer>,
}

/// Waits for every pod of `pods` (each found before: see `find`) concurrently.
pub async fn wait_all<R: Runtime>(
    rt: &Arc<R>,
    pods: Vec<ListedPod>,
    opts: &WaitOptions,
    reporter: &Arc<dyn Reporter>,
    interrupt: &Interrupt,
) -> Vec<Waited> {
    let waits = pods.into_iter().map(|pod| {
        let (rt, reporter, mut interrupt) = (rt.clone(), reporter.clone(), interrupt.clone());
        async move {
            let mut waited = wait_one(&rt, pod, opts, &*reporter, &mut interrupt).await;
            // The containers' output says why they failed.
            let st = waited.pod.as_ref().map(|p| &p.status);
            waited.failed = super::explain::explain(&*rt, st, &waited.outcome, &BTreeMap::new()).await;
            reporter.done(&Ended {
                key: waited.key.clone(),
                status: waited.pod.as_ref().map(|p| &p.status),
                outcome: &waited.outcome,
                failed: &waited.failed,
            });
            waited
        }
    });
    join_all(waits).await
}

/// The pod `key` names among `observed`, as `get` shows it: the newest of that name (an
/// earlier one may linger beside it), with podrun's files read.
pub fn find(observed: &[Observed], key: &PodKey, files: Option<&PodFiles>) -> Option<ListedPod> {
    let mine = observed
        .iter()
        .filter(|c| {
            c.label(labels::POD_NAMESPACE) == Some(key.namespace.as_str())
                && c.label(labels::POD_NAME) == Some(key.name.as_str())
        })
        .cloned()
        .collect();
    Some(engine_pods::newest(mine)?.with_files(files))
}

/// The failure of a wait at its deadline: apply's words for a state, else the goal and where
/// the pod stands.
fn short_of(pod: &ListedPod, goal: Goal, wait_for: WaitFor, start: Instant) -> Result<(), PodFailure> {
    let Some((goal, detail)) = goal.short_of(pod) else {
        return not_converged(pod.status.clone(), wait_for, &waited::restarting_always(pod), 0, start).1;
    };
    let elapsed = humantime::format_duration(Duration::from_secs(start.elapsed().as_secs())).to_string();
    Err(PodFailure::NotConverged { goal, retries: 0, elapsed, detail, crash_loop: false })
}

/// What a look at the pod came to.
enum Look {
    Seen(Box<ListedPod>),
    /// The engine was away and is back: look again.
    Again,
    Gone(String),
    Ended(Result<(), PodFailure>),
}

/// The pod a wait watches: its uid when the wait began, and the sign of its last removal then
/// (a new one is a deletion).
struct Watched {
    key: PodKey,
    uid: String,
    removal_at_start: Option<Deletion>,
}

/// Waits for one pod until its verdict, a deletion, the deadline or a signal.
async fn wait_one<R: Runtime>(
    rt: &Arc<R>,
    first: ListedPod,
    opts: &WaitOptions,
    reporter: &dyn Reporter,
    interrupt: &mut Interrupt,
) -> Waited {
    let key = PodKey { namespace: first.namespace.clone(), name: first.name.clone() };
    let removal_at_start = opts.files.as_ref().and_then(|f| f.deletion(&first.uid));
    let watched = Watched { key: key.clone(), uid: first.uid.clone(), removal_at_start };
    let mut engine = outage::EngineLink::new(&**rt, key.clone(), Some(opts.deadline));
    engine.answered();
    let wait_for = match opts.goal {
        Goal::State(Some(w)) => w,
        _ => waited::default_for(&first),
    };
    let (start, mut poll, mut pod) = (Instant::now(), FIRST_POLL, first);
    let mut own = OwnProbes::default();
    loop {
        pod = own.judged(rt, pod, opts.files.as_ref(), reporter);
        reporter.status(&key, &pod.status);
        let uptime = Uptime { min: MIN_UPTIME, now: crate::clock::now() };
        let outcome = match &opts.until {
            Some(until) => super::wait_until::outcome(until, &pod, opts.deadline, start),
            None => match opts.goal.verdict(&pod, wait_for, uptime) {
                Verdict::Done => Some(Ok(())),
                Verdict::Failed { container, state } => {
                    Some(Err(PodFailure::ContainerFailed { container, description: state.describe() }))
                }
                Verdict::Pending if Instant::now() >= opts.deadline => Some(short_of(&pod, opts.goal, wait_for, start)),
                Verdict::Pending => None,
            },
        };
        if let Some(outcome) = outcome {
            return Waited { key, pod: Some(pod), outcome, failed: Vec::new() };
        }
        let wake = (Instant::now() + poll).min(opts.deadline);
        poll = (poll * 2).min(MAX_POLL);
        tokio::select! {
            () = tokio::time::sleep_until(wake) => {}
            ev = engine.changes.next(), if engine.events_alive => engine.events_alive = ev.is_some(),
            () = own.changed() => {}
            sig = interrupt.wait() => return Waited { key, pod: Some(pod), outcome: Err(PodFailure::Interrupted(sig)), failed: Vec::new() },
        }
        match look(&**rt, &watched, opts, &mut engine, reporter, interrupt).await {
            Look::Seen(now) => pod = *now,
            Look::Again => {}
            // What a deletion waits for.
            Look::Gone(_) if opts.goal == Goal::Delete => {
                return Waited { key, pod: Some(pod), outcome: Ok(()), failed: Vec::new() }
            }
            Look::Gone(by) => {
                return Waited {
                    key,
                    pod: Some(pod),
                    outcome: Err(PodFailure::Deleted { by, removed: 0 }),
                    failed: Vec::new(),
                }
            }
            Look::Ended(outcome) => return Waited { key, pod: Some(pod), outcome, failed: Vec::new() },
        }
    }
}

/// One look at the pod: as the engine and podrun's files show it now, gone (a removal began
/// since the wait did, or none of its containers is left), or the end of the wait (the engine
/// away past the deadline, a signal).
async fn look<R: Runtime>(
    rt: &R,
    watched: &Watched,
    opts: &WaitOptions,
    engine: &mut outage::EngineLink,
    reporter: &dyn Reporter,
    interrupt: &mut Interrupt,
) -> Look {
    let key = &watched.key;
    let sel = Selector::pod(&key.namespace, &key.name);
    let listed = tokio::select! {
        r = rt.list(&sel) => r,
        sig = interrupt.wait() => return Look::Ended(Err(PodFailure::Interrupted(sig))),
    };
    let observed = match listed {
        Ok(observed) => observed,
        Err(e) => {
            return match engine.ride_out(rt, e, true, reporter, interrupt).await {
                Ok(()) => Look::Again,
                Err(failure) => Look::Ended(Err(failure)),
            };
        }
    };
    let removal = || deleted::begun_since(opts.files.as_ref(), &watched.uid, watched.removal_at_start.as_ref());
    if let Some(d) = (!opts.goal.waits_through_removal()).then(removal).flatten() {
        return Look::Gone(deleted::Sign::Removal(d.id).describe());
    }
    match find(&observed, key, opts.files.as_ref()) {
        Some(pod) => Look::Seen(Box::new(pod)),
        None => Look::Gone("none of its containers is left".to_owned()),
    }
}
