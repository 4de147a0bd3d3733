//! The run-once driver: observe, plan, act, wait, until the pod is where the user asked or the
//! budget runs out. It owns the deadline, the backoff between repairs, and interruption; the
//! planner decides what to do, the runtime does it, the reporter shows it.

mod act;
pub mod apply;
mod creations;
mod deleted;
pub mod manifests;
pub mod outage;
mod prober;
pub mod pulls;
mod record;
pub mod signals;
pub mod supervise;
mod termination;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::time::Instant;

use crate::plan;
use crate::pod::files::PodFiles;
use crate::pod::observed::PodObservation;
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::{Runtime, Selector};
use crate::status::{self, Notes, PodStatus, Verdict, WaitFor};

pub use crate::status::outcome::{PodFailure, PodResult};
pub use act::{ensure_infra_image, remove_engine_volumes, remove_pod, remove_pod_with};
pub use plan::CrashBackoff;
pub use signals::Interrupt;

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
}

fn goal(w: WaitFor) -> &'static str {
    match w {
        WaitFor::Running => "running",
        WaitFor::Complete => "complete",
        WaitFor::Ready => "ready",
        WaitFor::None => "created",
        WaitFor::Forever => "supervised",
    }
}

/// A one-line account of the containers that keep the pod from its goal.
fn blockers(status: &PodStatus) -> String {
    let parts: Vec<String> = status
        .container_statuses
        .iter()
        .filter(|c| c.state.running.is_none())
        .map(|c| format!("{}: {}", c.name, c.state.describe()))
        .collect();
    if parts.is_empty() {
        "the pod's infra container is not running".to_owned()
    } else {
        parts.join("; ")
    }
}

fn crash_looping(status: &PodStatus) -> bool {
    status.container_statuses.iter().any(|c| {
        c.restart_count > 0 && c.state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
            || c.last_state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
    })
}

/// When nothing is to be done but wait, how often to look without an event.
const POLL: Duration = Duration::from_secs(2);
/// The same under `apply --supervise`, while the engine's events come: they say when to look.
const SUPERVISE_POLL: Duration = Duration::from_secs(30);

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
    let created = creations::Creations::new(rt.clone());
    let mut r = drive(rt.clone(), desired, opts.clone(), reporter, interrupt, &created).await;
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

/// How long the end of a run waits for the creates still with the engine.
const SETTLE: Duration = Duration::from_secs(10);

/// The kubelet's limit for a termination message taken from the logs.
const MAX_LOG_MESSAGE_BYTES: usize = 2048;
const MAX_LOG_MESSAGE_LINES: usize = 80;

/// Reads the termination message of every instance that has terminated since the last look:
/// its termination-log file, or under FallbackToLogsOnError, after a failure with an empty
/// file, the end of its logs.
async fn read_messages<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    obs: &PodObservation,
    files: Option<&PodFiles>,
    notes: &mut Notes,
) {
    for c in desired.init.iter().chain(&desired.containers) {
        let inst = obs.get(&c.name);
        for o in inst.current.iter().chain(&inst.previous) {
            let crate::runtime::State::Exited { exit_code, .. } = o.state else { continue };
            if notes.messages.contains_key(&o.id) {
                continue;
            }
            let attempt = crate::pod::observed::attempt_of(o);
            let mut message = match files {
                Some(f) => f.read_termination_log(&desired.uid, &c.name, attempt).unwrap_or_default(),
                // Not on this host: read back through the engine, from the stopped container.
                None => {
                    // Through the infra container, which mounts the pod's termination-log volume
                    // (Podman's archive of a stopped container leaves out its bind mounts), else
                    // from the container itself.
                    let file = format!("{}/{}-{attempt}", crate::pod::volumes::engine::INFRA_TERMINATION_DIR, c.name);
                    let mut m = None;
                    if let Some(infra) = &obs.infra.current {
                        m = read_engine_message(rt, &infra.id, &file).await;
                    }
                    match m {
                        Some(m) => m,
                        None => read_engine_message(rt, &o.id, &c.termination_message_path).await.unwrap_or_default(),
                    }
                }
            };
            if message.is_empty() && exit_code != 0 && c.fallback_to_logs {
                if let Ok(logs) = rt.logs_tail(&o.id, MAX_LOG_MESSAGE_LINES).await {
                    message = tail_bytes(&logs, MAX_LOG_MESSAGE_BYTES).to_owned();
                }
            }
            let per_container = MAX_POD_MESSAGE_BYTES / (desired.init.len() + desired.containers.len()).max(1);
            if message.len() > per_container {
                let mut end = per_container;
                while !message.is_char_boundary(end) {
                    end -= 1;
                }
                message.truncate(end);
            }
            notes.messages.insert(o.id.clone(), message);
        }
    }
}

/// How much of a termination-log file's archive podrun reads (a container may write more than
/// the 4096 bytes kept; what is beyond this is not looked at).
const MAX_ARCHIVE_BYTES: usize = 1 << 20;

/// The kubelet's budget for all of a pod's termination messages, split evenly between its
/// containers (its status manager's `normalizeStatus`).
const MAX_POD_MESSAGE_BYTES: usize = 12 * 1024;

/// A termination message read through the engine's archive API, at most the kubelet's 4096
/// bytes; `None` when there is no such file.
async fn read_engine_message<R: Runtime>(rt: &R, id: &str, path: &str) -> Option<String> {
    let max = usize::try_from(crate::pod::files::MAX_MESSAGE_BYTES).unwrap_or(4096);
    // Its last 4096 bytes are kept: the archive may be read whole, up to a bound.
    match rt.get_archive(id, path, MAX_ARCHIVE_BYTES).await {
        Ok(Some(tar)) => {
            crate::pod::volumes::engine::file_content(&tar, max).map(|b| String::from_utf8_lossy(&b).into_owned())
        }
        _ => None,
    }
}

/// The last `max` bytes of `s`, cut at a character boundary.
fn tail_bytes(s: &str, max: usize) -> &str {
    let mut start = s.len().saturating_sub(max);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// Running instances whose startup probe has not passed yet.
fn not_started(desired: &DesiredPod, obs: &PodObservation, notes: &Notes) -> BTreeSet<String> {
    desired
        .init
        .iter()
        .chain(&desired.containers)
        .filter(|c| desired.manifest_container(c).is_some_and(|m| m.startup_probe.is_some()))
        .filter_map(|c| obs.get(&c.name).current.as_ref().filter(|o| o.is_running()))
        .filter(|o| !notes.probes.get(&o.id).is_some_and(|p| p.started))
        .map(|o| o.id.clone())
        .collect()
}

/// The pod's status as the engine shows it now.
async fn look<R: Runtime>(rt: &R, desired: &DesiredPod, opts: &DriveOptions) -> Option<PodStatus> {
    let observed = rt.list(&Selector::pod(&desired.namespace, &desired.name)).await.ok()?;
    let obs = PodObservation::new(desired, &observed);
    let healthy = BTreeSet::new();
    let ctx = plan::Context { now: crate::clock::now(), crash: opts.crash, unhealthy: &healthy, not_started: &healthy };
    let plan = plan::plan(desired, &obs, &ctx);
    Some(status::compute(desired, &obs, &Notes::new(), &plan))
}

async fn drive<R: Runtime>(
    rt: Arc<R>,
    desired: DesiredPod,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    mut interrupt: Interrupt,
    created: &creations::Creations<R>,
) -> PodResult {
    let key = PodKey::of(&desired);
    let wait_for = opts.wait_for.unwrap_or_else(|| WaitFor::default_for(desired.restart_policy));
    let sel = Selector::pod(&desired.namespace, &desired.name);
    // Subscribe before the first look, so nothing that happens after it is missed.
    // Supervising for good, there is no deadline to speak of: an outage is waited out.
    let outage_until = (wait_for != WaitFor::Forever).then_some(opts.deadline);
    let mut engine = outage::EngineLink::new(&*rt, key.clone(), outage_until);
    let start = Instant::now();
    let mut notes = Notes::new();
    let mut status: Option<PodStatus> = None;
    let mut delay = opts.retry_delay;
    let mut repairs = 0u32;
    let mut synced = false;
    // Probes run while this run lasts: the prober's workers end when it is dropped.
    let prober = prober::Prober::new();
    let mut hold_until: Option<Instant> = None;
    let mut refreshed = false;
    // The repair that takes up a pod the engine lost is not the pod's failure: not counted.
    let mut after_outage = false;
    // What `podrun get` will read of this pod: the one on disk first (it has the pod's start).
    let mut kept = opts.files.as_ref().and_then(|f| f.read_record(&desired.uid));
    // The pod's infra container as the last look saw it, unless this run removes it itself.
    let mut infra_seen: Option<String> = None;
    // The last whole-pod removal's sign before this run: a new one is a deletion (`deleted`).
    let sign_at_start = opts.files.as_ref().and_then(|f| f.deletion(&desired.uid));

    let result = |status: Option<PodStatus>, outcome| PodResult {
        desired: desired.clone(),
        status,
        outcome,
        created: Vec::new(),
    };
    loop {
        if let Some(sig) = interrupt.fired() {
            return result(status, Err(PodFailure::Interrupted(sig)));
        }
        // A look at an engine that does not answer must not keep a signal waiting.
        let listed = tokio::select! {
            r = rt.list(&sel) => r,
            sig = interrupt.wait() => return result(status, Err(PodFailure::Interrupted(sig))),
        };
        let observed = match listed {
            Ok(o) => o,
            Err(e) => {
                match engine.ride_out(&*rt, e, true, &*reporter, &mut interrupt).await {
                    Ok(()) => after_outage = true,
                    Err(failure) => return result(status, Err(failure)),
                }
                // An engine back from an outage may have lost the pod: that is no deletion.
                infra_seen = None;
                continue;
            }
        };
        engine.answered();
        let obs = PodObservation::new(&desired, &observed);
        // A run with a goal overtaken by a deletion (a removal's sign, or the infra container it
        // had seen gone, not by its own doing): the deletion wins (`deleted`). Supervision
        // instead recreates a lost pod, as a kubelet keeps its static pods.
        let sign = (wait_for != WaitFor::Forever)
            .then(|| {
                let removal = deleted::begun_since(opts.files.as_ref(), &desired.uid, sign_at_start.as_ref());
                removal.map(|d| deleted::Sign::Removal(d.id)).or_else(|| {
                    infra_seen.take_if(|id| !observed.iter().any(|c| c.id == *id)).map(deleted::Sign::InfraGone)
                })
            })
            .flatten();
        if let Some(sign) = sign {
            reporter.event(&key, &format!("the pod was deleted: {}", sign.describe()));
            let wound = deleted::wind_up(
                &*rt,
                &desired,
                opts.files.as_ref(),
                &sign,
                &observed,
                created.settled(SETTLE),
                &mut interrupt,
            )
            .await;
            let removed = match wound {
                Ok(Ok(n)) => n,
                Ok(Err(e)) => {
                    reporter
                        .warning(&format!("{key}: removal of what this run made: {}", crate::error_chain::chain(&e)));
                    0
                }
                Err(sig) => return result(status, Err(PodFailure::Interrupted(sig))),
            };
            return result(status, Err(PodFailure::Deleted { by: sign.describe(), removed }));
        }
        infra_seen = obs.infra.current.as_ref().map(|c| c.id.clone());
        read_messages(&*rt, &desired, &obs, opts.files.as_ref(), &mut notes).await;
        prober.sync(&rt, &desired, &obs);
        notes.probes = prober.results();
        let unhealthy: BTreeSet<String> =
            notes.probes.iter().filter(|(_, p)| p.unhealthy.is_some()).map(|(id, _)| id.clone()).collect();
        for (id, p) in &notes.probes {
            if let Some(why) = &p.unhealthy {
                // The reason the kubelet gives a killed container, kept for its terminated state.
                notes.messages.entry(id.clone()).or_insert_with(|| format!("killed: {why}"));
            }
        }
        let not_started = not_started(&desired, &obs, &notes);
        let ctx = plan::Context {
            now: crate::clock::now(),
            crash: opts.crash,
            unhealthy: &unhealthy,
            not_started: &not_started,
        };
        let plan = plan::plan(&desired, &obs, &ctx);
        let st = status::compute(&desired, &obs, &notes, &plan);
        let began = kept.as_ref().and_then(|r| r.start_time.clone()).or_else(|| st.start_time.clone());
        let deadline = record::deadline_at(&desired, began.as_deref());
        if record::past_deadline(deadline, &st, crate::clock::now()) {
            let seconds = desired.manifest.spec.active_deadline_seconds.unwrap_or_default();
            reporter
                .event(&key, &format!("active for longer than activeDeadlineSeconds ({seconds}s): stopping the pod"));
            if let Err(e) = act::stop_pod(&*rt, &observed).await {
                reporter.warning(&format!("{key}: {e}"));
            }
            let after = match rt.list(&sel).await {
                Ok(now) => {
                    let obs = PodObservation::new(&desired, &now);
                    read_messages(&*rt, &desired, &obs, opts.files.as_ref(), &mut notes).await;
                    let st = status::compute(&desired, &obs, &notes, &plan::Plan::default());
                    keep_record(
                        opts.files.as_ref(),
                        &desired,
                        &obs,
                        &notes,
                        &record::deadline_exceeded(st.clone()),
                        &mut kept,
                    );
                    st
                }
                Err(_) => st,
            };
            let st = record::deadline_exceeded(after);
            reporter.status(&key, &st);
            return result(Some(st), Err(PodFailure::DeadlineExceeded { seconds }));
        }
        keep_record(opts.files.as_ref(), &desired, &obs, &notes, &st, &mut kept);
        reporter.status(&key, &st);
        let infra_running = obs.infra.current.as_ref().is_some_and(|c| c.is_running());
        // Once per run (an apply, a re-apply, a changed manifest under --supervise): the files
        // of a running pod's volumes follow the manifests and the ConfigMaps and Secrets.
        if let (false, Some(infra)) = (refreshed, obs.infra.current.as_ref().filter(|c| c.is_running())) {
            refreshed = true;
            match act::refresh_volumes(&*rt, &desired, opts.files.as_ref(), &infra.id).await {
                Ok(()) => {}
                Err(PodFailure::Runtime(e)) if outage::away(&e, false) => {}
                Err(e) => reporter.warning(&format!("{key}: volumes not updated: {e}")),
            }
        }
        match status::verdict(&desired, &st, infra_running, wait_for, opts.min_uptime, crate::clock::now()) {
            // Done only when nothing is left to do: a changed container still gets replaced,
            // a finished pod's sidecars still get stopped.
            Verdict::Done if plan.is_empty() => return result(Some(st), Ok(())),
            Verdict::Failed { container, state } => {
                let description = state.describe();
                return result(Some(st), Err(PodFailure::ContainerFailed { container, description }));
            }
            // --wait-for none: created and started (the first sync did it, or nothing was to do).
            Verdict::Pending if wait_for == WaitFor::None && (synced || plan.is_empty()) => {
                return result(Some(st), Ok(()));
            }
            Verdict::Done | Verdict::Pending => {}
        }
        let now = Instant::now();
        if now >= opts.deadline {
            return not_converged(result, st, wait_for, repairs, start);
        }
        let may_act = hold_until.is_none_or(|t| now >= t);
        if !plan.is_empty() && may_act {
            // Repairs (restarts, replacements) and retries after a failure use up the budget;
            // a container's first start does not, however many init containers come first.
            let taking_up = std::mem::take(&mut after_outage);
            if (plan.is_repair() || hold_until.is_some()) && !taking_up {
                repairs += 1;
                if repairs > opts.retries {
                    return not_converged(result, st, wait_for, opts.retries, start);
                }
            }
            tracing::debug!(pod = %key, ?plan, "acting");
            synced = true;
            if plan.remove.iter().any(|r| infra_seen.as_ref() == Some(&r.container.id)) {
                infra_seen = None;
            }
            // Creating containers prepares the volumes (act's preflight): nothing left to refresh.
            refreshed |= plan
                .infra
                .iter()
                .chain(&plan.init)
                .chain(&plan.apps)
                .any(|s| matches!(s.step, plan::Step::Create { .. }));
            let acted = tokio::select! {
                r = act::act(
                    act::Scope {
                        rt: &*rt,
                        desired: &desired,
                        files: opts.files.as_ref(),
                        reporter: &*reporter,
                        key: &key,
                        pulls: &opts.pulls,
                        infra: obs.infra.current.as_ref(),
                        created,
                    },
                    &plan,
                    &mut notes,
                ) => r,
                sig = interrupt.wait() => return result(Some(st), Err(PodFailure::Interrupted(sig))),
            };
            match acted {
                // Look again at once: a started pod is usually done now.
                Ok(act::Acted::Clean) => hold_until = None,
                // Something failed (and was noted): retry after the backoff delay.
                Ok(act::Acted::WithErrors) => {
                    hold_until = Some(Instant::now() + delay);
                    delay = delay.mul_f64(opts.backoff.max(1.0));
                }
                Err(PodFailure::Runtime(e)) if outage::away(&e, false) => {
                    let back = engine.ride_out(&*rt, e, false, &*reporter, &mut interrupt).await;
                    status = Some(st);
                    infra_seen = None;
                    match back {
                        Ok(()) => after_outage = true,
                        Err(failure) => return result(status, Err(failure)),
                    }
                    continue;
                }
                Err(PodFailure::Config { container, message, .. }) => {
                    let after = undo_before_refusal(&*rt, &sel, created, opts.files.as_ref(), &*reporter, &key).await;
                    let failure = PodFailure::Config { container, message, after };
                    let st = match rt.list(&sel).await {
                        Ok(now) => status::compute(&desired, &PodObservation::new(&desired, &now), &notes, &plan),
                        Err(_) => status::compute(&desired, &obs, &notes, &plan),
                    };
                    reporter.status(&key, &st);
                    return result(Some(st), Err(failure));
                }
                Err(failure) => {
                    let st = status::compute(&desired, &obs, &notes, &plan);
                    reporter.status(&key, &st);
                    return result(Some(st), Err(failure));
                }
            }
            status = Some(st);
            continue;
        }
        if plan.is_empty() {
            after_outage = false;
        }
        status = Some(st.clone());
        // Wait for held-back work (a retry after a failure, a restart in backoff), or for an
        // engine event or a poll; never past the deadline.
        // Supervising for good with the engine's events flowing, a look now and then suffices.
        let poll = if wait_for == WaitFor::Forever && engine.events_alive { SUPERVISE_POLL } else { POLL };
        let mut wake = now + poll;
        if !plan.is_empty() {
            wake = hold_until.unwrap_or(now);
        }
        let next = plan.next_restart().into_iter().chain(status::compute::settles_at(
            &st,
            opts.min_uptime,
            crate::clock::now(),
        ));
        for t in next.chain(deadline) {
            wake = wake.min(crate::clock::instant_at(t));
        }
        wake = wake.min(opts.deadline);
        tokio::select! {
            () = tokio::time::sleep_until(wake) => {}
            ev = engine.changes.next(), if engine.events_alive => {
                if ev.is_none() {
                    engine.events_alive = false;
                }
            }
            () = prober.changed() => {}
            sig = interrupt.wait() => return result(Some(st), Err(PodFailure::Interrupted(sig))),
        }
    }
}

/// A refusal (exit 2) says nothing was created; one that comes only after earlier syncs made
/// containers (a sub-path an init container turned into a link) makes that true of this run:
/// the pod cannot start as it is, so what this run made is removed. What is left of the pod
/// (made by an earlier run, or one beside it) is named, for `podrun delete`. Returns the note for the refusal.
async fn undo_before_refusal<R: Runtime>(
    rt: &R,
    sel: &Selector,
    created: &creations::Creations<R>,
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> String {
    let made = created.settled(SETTLE).await;
    let removed = if made.is_empty() {
        0
    } else {
        match act::remove_pod(rt, sel, None, Some(&made), files).await {
            Ok(n) => n,
            Err(e) => {
                reporter.warning(&format!("{key}: removal of what this run made: {}", crate::error_chain::chain(&e)));
                0
            }
        }
    };
    let mut left: Vec<String> = rt
        .list(sel)
        .await
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c.label(crate::runtime::labels::CONTAINER_NAME).map(str::to_owned))
        .collect();
    left.sort();
    left.dedup();
    let removed = match removed {
        0 => String::new(),
        n => format!(" (found once {n} of its containers had been made: removed them)"),
    };
    let left = if left.is_empty() {
        String::new()
    } else {
        format!("; left, not made by this run: {} (`podrun delete` removes them)", left.join(", "))
    };
    format!("{removed}{left}")
}

/// Writes the pod's record for `podrun get` when it says something new (see `pod::record`).
/// Best effort: a pod runs without it.
fn keep_record(
    files: Option<&PodFiles>,
    desired: &DesiredPod,
    obs: &PodObservation,
    notes: &Notes,
    st: &PodStatus,
    kept: &mut Option<crate::pod::record::PodRecord>,
) {
    let Some(files) = files else { return };
    let now = record::record_of(desired, obs, notes, st, kept.as_ref());
    if kept.as_ref() == Some(&now) {
        return;
    }
    if let Err(e) = files.write_record(&desired.uid, &now) {
        tracing::warn!(pod = %desired.name, error = %e, "could not write the pod's record");
    }
    *kept = Some(now);
}

fn not_converged(
    result: impl Fn(Option<PodStatus>, Result<(), PodFailure>) -> PodResult,
    st: PodStatus,
    wait_for: WaitFor,
    retries: u32,
    start: Instant,
) -> PodResult {
    let elapsed = humantime::format_duration(Duration::from_secs(start.elapsed().as_secs())).to_string();
    // Out of retries while an image could not be pulled: the image is what is missing (exit 4).
    let pulling = st.all().find_map(|c| {
        let w = c.state.waiting.as_ref()?;
        (w.reason == "ErrImagePull" || w.reason == "ImagePullBackOff").then_some((c, w))
    });
    if let Some((c, w)) = pulling {
        let failure = PodFailure::Image {
            container: c.name.clone(),
            image: c.image.clone(),
            reason: w.reason.clone(),
            message: w.message.clone().unwrap_or_default(),
        };
        return result(Some(st), Err(failure));
    }
    let failure = PodFailure::NotConverged {
        goal: goal(wait_for),
        retries,
        elapsed,
        detail: blockers(&st),
        crash_loop: crash_looping(&st),
    };
    result(Some(st), Err(failure))
}
