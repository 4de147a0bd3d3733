//! The loop that runs one pod: look, note what the look says (termination messages, probes,
//! a deletion, the active deadline), plan, act or wait, until the pod is where the user asked
//! or the budget runs out. Each turn's steps are methods of [`Run`], which carries what one
//! turn leaves the next.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use tokio::time::Instant;

use crate::error_chain::chain;
use crate::plan;
use crate::pod::deletion::Deletion;
use crate::pod::files::PodFiles;
use crate::pod::observed::PodObservation;
use crate::pod::record::{PodRecord, RecordedCondition};
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::{Observed, Runtime, Selector};
use crate::status::{self, Notes, PodStatus, Verdict, WaitFor};

use super::awaited::{not_converged, still_stopping, End};
use super::creations::Creations;
use super::messages::read_messages;
use super::{abort, act, deleted, outage, prober, record, status_events, DriveOptions, Interrupt, PodFailure, SETTLE};

/// When nothing is to be done but wait, how often to look without an event.
pub(super) const POLL: Duration = Duration::from_secs(2);
/// The same under `apply --supervise`, while the engine's events come: they say when to look.
const SUPERVISE_POLL: Duration = Duration::from_secs(30);

/// Runs `desired` until it ends (see `run_pod`, which settles what it created after).
pub(super) async fn drive<R: Runtime>(
    rt: Arc<R>,
    desired: DesiredPod,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    mut interrupt: Interrupt,
    created: &Creations<R>,
) -> super::PodResult {
    let run = Run::new(&rt, &desired, &opts, &*reporter, created);
    let probes = run.prober.failures();
    let (status, outcome) = run.turns(&mut interrupt).await;
    // The failure is certain: what the containers that failed it said is read now, before
    // anything removes them.
    let said = probes.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let failed = super::explain::explain(&*rt, status.as_ref(), &outcome, &said).await;
    super::PodResult { desired, status, outcome, created: Vec::new(), failed }
}

/// One pod's run, as each turn of the loop leaves it for the next.
struct Run<'a, R> {
    rt: &'a Arc<R>,
    desired: &'a DesiredPod,
    opts: &'a DriveOptions,
    reporter: &'a dyn Reporter,
    created: &'a Creations<R>,
    key: PodKey,
    sel: Selector,
    wait_for: WaitFor,
    engine: outage::EngineLink,
    start: Instant,
    notes: Notes,
    status: Option<PodStatus>,
    // Probes run while this run lasts: the prober's workers end when it is dropped.
    prober: prober::Prober,
    retries: Retries,
    once: Once,
    signs: DeletionSigns,
    reported: Reported,
    /// Ticks when `--auto-update` asks for an instance to be replaced.
    updated: tokio::sync::watch::Receiver<u64>,
    /// The containers' waiting reasons at the last turn, for the backoff events.
    waited: status_events::Waited,
}

/// The run's budget of repairs and its backoff.
struct Retries {
    /// Repairs and retries so far, against `--retries`.
    repairs: u32,
    /// The wait before the next retry after a failure.
    delay: Duration,
    /// Work held back until then.
    hold_until: Option<Instant>,
    /// The repair that takes up a pod the engine lost is not the pod's failure: not counted.
    after_outage: bool,
}

/// What a run does once.
struct Once {
    /// A plan was acted on (`--wait-for none` is then done).
    synced: bool,
    /// The volumes' files were brought up to date (`refresh_volumes`), or made fresh.
    refreshed: bool,
    /// Containers with the pod's labels that podrun may not touch were said.
    told_unverified: bool,
}

/// What says the pod was deleted under the run (`deleted`).
struct DeletionSigns {
    /// The pod's infra container as the last look saw it, unless this run removes it itself.
    infra_seen: Option<String>,
    /// The last whole-pod removal's sign before this run: a new one is a deletion.
    sign_at_start: Option<Deletion>,
}

/// What `podrun get` will read of this pod.
struct Reported {
    /// The record: the one on disk first (it has the pod's start).
    record: Option<PodRecord>,
    /// The pod's generation (`pod::record::generation`) and its conditions as last reported.
    generation: i64,
    transitions: Vec<RecordedCondition>,
}

/// What a turn made of a look: the plan, the status, and the pod's active deadline.
struct Assessed {
    plan: plan::Plan,
    st: PodStatus,
    deadline: Option<SystemTime>,
}

impl<'a, R: Runtime> Run<'a, R> {
    fn new(
        rt: &'a Arc<R>,
        desired: &'a DesiredPod,
        opts: &'a DriveOptions,
        reporter: &'a dyn Reporter,
        created: &'a Creations<R>,
    ) -> Self {
        let key = PodKey::of(desired);
        let wait_for = opts.wait_for.unwrap_or_else(|| WaitFor::default_for(&desired.apps_restarting_always()));
        // Subscribe before the first look, so nothing that happens after it is missed.
        // Supervising for good, there is no deadline to speak of: an outage is waited out.
        let outage_until = (wait_for != WaitFor::Forever).then_some(opts.deadline);
        let engine = outage::EngineLink::new(&**rt, key.clone(), outage_until);
        let kept = opts.files.as_ref().and_then(|f| f.read_record(&desired.uid));
        let generation = crate::pod::record::generation(kept.as_ref(), &record::spec_digest(desired));
        let transitions = kept.as_ref().map(|r| r.conditions.clone()).unwrap_or_default();
        Run {
            rt,
            desired,
            opts,
            reporter,
            created,
            sel: Selector::pod(&desired.namespace, &desired.name),
            key,
            wait_for,
            engine,
            start: Instant::now(),
            notes: Notes::new(),
            status: None,
            prober: prober::Prober::recording(&opts.events, desired),
            retries: Retries { repairs: 0, delay: opts.retry_delay, hold_until: None, after_outage: false },
            once: Once { synced: false, refreshed: false, told_unverified: false },
            signs: DeletionSigns {
                infra_seen: None,
                sign_at_start: opts.files.as_ref().and_then(|f| f.deletion(&desired.uid)),
            },
            reported: Reported { record: kept, generation, transitions },
            updated: opts.updates.subscribe(),
            waited: status_events::Waited::default(),
        }
    }

    /// The status with its generation and its conditions' transition times (`record::stamp`).
    fn stamped(&mut self, st: PodStatus) -> PodStatus {
        let st = record::stamp(st, &self.reported.transitions, Some(self.reported.generation), crate::clock::now());
        self.reported.transitions = st.recorded_conditions();
        st
    }

    fn files(&self) -> Option<&'a PodFiles> {
        self.opts.files.as_ref()
    }

    /// Turns until the run ends. Never returns early on a transient engine error: a failed
    /// action is retried like any other failed repair, and an engine that goes away after it
    /// answered is waited for within the deadline (see `outage`).
    async fn turns(mut self, interrupt: &mut Interrupt) -> End {
        loop {
            if let Some(sig) = interrupt.fired() {
                return (self.status, Err(PodFailure::Interrupted(sig)));
            }
            // A container counts as up only for as long as it was seen up: from before the look,
            // not from when the verdict is reached (a busy host can take longer between the
            // two than a container that exits at once takes to go).
            let looked_at = crate::clock::now();
            let observed = match self.observe(interrupt).await {
                Ok(Some(observed)) => observed,
                Ok(None) => continue,
                Err(failure) => return (self.status, Err(failure)),
            };
            let obs = PodObservation::new(self.desired, &observed);
            if let Some(outcome) = self.deletion(&observed, interrupt).await {
                return (self.status, outcome);
            }
            self.signs.infra_seen = obs.infra.current.as_ref().map(|c| c.id.clone());
            let Assessed { plan, st, deadline } = self.assess(&obs).await;
            if record::past_deadline(deadline, &st, crate::clock::now()) {
                return self.stop_past_deadline(&observed, st).await;
            }
            keep_record(self.files(), self.desired, &obs, &self.notes, &st, &mut self.reported.record);
            self.reporter.status(&self.key, &st);
            self.waited.record(&self.opts.events, self.desired, &st);
            self.opts.updates.seen(&self.desired.uid, &st);
            if let Some(failure) = self.refresh_volumes(&obs).await {
                return (Some(st), Err(failure));
            }
            if let Some(ended) = self.ended_for_good(&st) {
                return self.abort(&observed, st, ended).await;
            }
            if let Some(outcome) = self.verdict(&obs, &plan, &st, looked_at) {
                return (Some(st), outcome);
            }
            let now = Instant::now();
            if now >= self.opts.deadline {
                return not_converged(
                    st,
                    self.wait_for,
                    &self.desired.apps_restarting_always(),
                    self.retries.repairs,
                    self.start,
                );
            }
            if !plan.is_empty() && self.retries.hold_until.is_none_or(|t| now >= t) {
                match self.act(&obs, &plan, st, interrupt).await {
                    Some(end) => return end,
                    None => continue,
                }
            }
            if plan.is_empty() {
                self.retries.after_outage = false;
            }
            self.status = Some(st.clone());
            if let Some(sig) = self.wait(now, &plan, &st, deadline, looked_at, interrupt).await {
                return (Some(st), Err(PodFailure::Interrupted(sig)));
            }
        }
    }

    /// The engine's containers of the pod. `Ok(None)`: the engine was away and is back (or the
    /// look is to be made again); an outage past the deadline, or a signal, ends the run.
    async fn observe(&mut self, interrupt: &mut Interrupt) -> Result<Option<Vec<Observed>>, PodFailure> {
        // A look at an engine that does not answer must not keep a signal waiting.
        let listed = tokio::select! {
            r = self.rt.list(&self.sel) => r,
            sig = interrupt.wait() => return Err(PodFailure::Interrupted(sig)),
        };
        match listed {
            Ok(observed) => {
                self.engine.answered();
                if !self.once.told_unverified && observed.iter().any(Observed::is_unverified) {
                    self.once.told_unverified = true;
                    for w in crate::status::engine_pods::unverified_report(&observed, &PodFiles::default_root()) {
                        self.reporter.warning(&w);
                    }
                }
                Ok(Some(observed))
            }
            Err(e) => {
                self.engine.ride_out(&**self.rt, e, true, self.reporter, interrupt).await?;
                self.retries.after_outage = true;
                // An engine back from an outage may have lost the pod: that is no deletion.
                self.signs.infra_seen = None;
                Ok(None)
            }
        }
    }

    /// A run with a goal overtaken by a deletion (a removal's sign, or the infra container it
    /// had seen gone, not by its own doing): the deletion wins (`deleted`), and this is the
    /// run's outcome. Supervision instead recreates a lost pod, as a kubelet keeps its static
    /// pods.
    async fn deletion(&mut self, observed: &[Observed], interrupt: &mut Interrupt) -> Option<Result<(), PodFailure>> {
        if self.wait_for == WaitFor::Forever {
            return None;
        }
        let removal = deleted::begun_since(self.files(), &self.desired.uid, self.signs.sign_at_start.as_ref());
        let sign = removal.map(|d| deleted::Sign::Removal(d.id)).or_else(|| {
            self.signs.infra_seen.take_if(|id| !observed.iter().any(|c| c.id == *id)).map(deleted::Sign::InfraGone)
        })?;
        self.reporter.event(&self.key, &format!("the pod was deleted: {}", sign.describe()));
        let settled = self.created.settled(SETTLE);
        let wound = deleted::wind_up(&**self.rt, self.desired, self.files(), &sign, observed, settled, interrupt).await;
        let removed = match wound {
            Ok(Ok(n)) => n,
            Ok(Err(e)) => {
                self.reporter.warning(&format!("{}: removal of what this run made: {}", self.key, chain(&e)));
                0
            }
            Err(sig) => return Some(Err(PodFailure::Interrupted(sig))),
        };
        Some(Err(PodFailure::Deleted { by: sign.describe(), removed }))
    }

    /// Reads what the look brings (termination messages, probe results), then plans and
    /// computes the status.
    async fn assess(&mut self, obs: &PodObservation) -> Assessed {
        read_messages(&**self.rt, self.desired, obs, self.files(), &mut self.notes).await;
        self.prober.sync(self.rt, self.desired, obs);
        self.notes.probes = self.prober.results();
        let unhealthy: BTreeSet<String> =
            self.notes.probes.iter().filter(|(_, p)| p.unhealthy.is_some()).map(|(id, _)| id.clone()).collect();
        for (id, p) in &self.notes.probes {
            if let Some(why) = &p.unhealthy {
                // The reason the kubelet gives a killed container, kept for its terminated state.
                self.notes.messages.entry(id.clone()).or_insert_with(|| format!("killed: {why}"));
            }
        }
        let not_started = not_started(self.desired, obs, &self.notes);
        let replace = self.opts.updates.replacements();
        let ctx = plan::Context {
            now: crate::clock::now(),
            crash: self.opts.crash,
            unhealthy: &unhealthy,
            not_started: &not_started,
            replace: &replace,
        };
        let plan = plan::plan(self.desired, obs, &ctx);
        let st = status::compute(self.desired, obs, &self.notes, &plan);
        let st = self.stamped(st);
        let began = self.reported.record.as_ref().and_then(|r| r.start_time.clone()).or_else(|| st.start_time.clone());
        let deadline = record::deadline_at(self.desired, began.as_deref());
        Assessed { plan, st, deadline }
    }

    /// Stops a pod active longer than its activeDeadlineSeconds, as the kubelet does, and ends
    /// the run with its status after the stop.
    async fn stop_past_deadline(&mut self, observed: &[Observed], st: PodStatus) -> End {
        let (desired, key) = (self.desired, &self.key.clone());
        let seconds = desired.manifest.spec.active_deadline_seconds.unwrap_or_default();
        self.reporter
            .event(key, &format!("active for longer than activeDeadlineSeconds ({seconds}s): stopping the pod"));
        let said = "Pod was active on the node longer than the specified deadline";
        self.opts.events.pod(desired, crate::pod::events::EventType::Normal, "DeadlineExceeded", said);
        if let Err(e) = act::stop_pod(&**self.rt, observed).await {
            self.reporter.warning(&format!("{key}: {e}"));
        }
        let after = match self.rt.list(&self.sel).await {
            Ok(now) => {
                let obs = PodObservation::new(desired, &now);
                read_messages(&**self.rt, desired, &obs, self.files(), &mut self.notes).await;
                let st = status::compute(desired, &obs, &self.notes, &plan::Plan::default());
                let st = self.stamped(st);
                let exceeded = record::deadline_exceeded(st.clone());
                keep_record(self.files(), desired, &obs, &self.notes, &exceeded, &mut self.reported.record);
                st
            }
            Err(_) => st,
        };
        let st = record::deadline_exceeded(after);
        self.reporter.status(key, &st);
        (Some(st), Err(PodFailure::DeadlineExceeded { seconds }))
    }

    /// Under `--abort-on-container-exit`: the app container that has terminated for good.
    fn ended_for_good(&self, st: &PodStatus) -> Option<abort::Ended> {
        let desired = self.desired;
        self.opts
            .abort_on_exit
            .then(|| {
                abort::first_ended(st, |i, code| {
                    desired.containers.get(i).is_some_and(|c| desired.restarts_after(c, code))
                })
            })
            .flatten()
    }

    /// Ends the run on `ended`'s exit, as compose's `--abort-on-container-exit` does: the
    /// pod's other containers are stopped as a deletion stops them (preStop, the stop signal,
    /// SIGKILL after the grace period), and the run's outcome is that container's.
    async fn abort(&mut self, observed: &[Observed], st: PodStatus, ended: abort::Ended) -> End {
        let key = &self.key.clone();
        let said = format!(
            "{} exited with code {}: aborting on container exit, stopping the other containers",
            ended.container, ended.exit_code
        );
        self.reporter.event(key, &said);
        if let Err(e) = act::stop_pod(&**self.rt, observed).await {
            self.reporter.warning(&format!("{key}: {}", chain(&e)));
        }
        let after = match self.rt.list(&self.sel).await {
            Ok(now) => {
                let obs = PodObservation::new(self.desired, &now);
                read_messages(&**self.rt, self.desired, &obs, self.files(), &mut self.notes).await;
                let st = status::compute(self.desired, &obs, &self.notes, &plan::Plan::default());
                let st = self.stamped(st);
                keep_record(self.files(), self.desired, &obs, &self.notes, &st, &mut self.reported.record);
                st
            }
            Err(_) => st,
        };
        self.reporter.status(key, &after);
        let state = after.container_statuses.iter().find(|c| c.name == ended.container).map(|c| c.state.describe());
        let outcome = if ended.exit_code == 0 {
            Ok(())
        } else {
            let description = state.unwrap_or_else(|| format!("exit code {}", ended.exit_code));
            Err(PodFailure::ContainerFailed { container: ended.container, description })
        };
        (Some(after), outcome)
    }

    /// Once per run (an apply, a re-apply, a changed manifest under --supervise): the files of
    /// a running pod's volumes follow the manifests and the ConfigMaps and Secrets. Files that
    /// could not be written (a full disk) fail the run as they would fail the pod's creation:
    /// the apply did not do what was asked. The pod runs on with the files it had.
    async fn refresh_volumes(&mut self, obs: &PodObservation) -> Option<PodFailure> {
        let infra = obs.infra.current.as_ref().filter(|c| c.is_running())?;
        if self.once.refreshed {
            return None;
        }
        self.once.refreshed = true;
        match act::refresh_volumes(&**self.rt, self.desired, self.files(), &infra.id).await {
            Ok(()) => None,
            Err(PodFailure::Runtime(e)) if outage::away(&e, false) => None,
            Err(PodFailure::Config { container, cause, .. }) => {
                Some(PodFailure::Config { container, cause, after: NOT_UPDATED.to_owned() })
            }
            Err(e) => Some(e),
        }
    }

    /// The run's outcome, when the status says it is over.
    fn verdict(
        &self,
        obs: &PodObservation,
        plan: &plan::Plan,
        st: &PodStatus,
        looked_at: std::time::SystemTime,
    ) -> Option<Result<(), PodFailure>> {
        let infra_running = obs.infra.current.as_ref().is_some_and(|c| c.is_running());
        let (desired, wait_for) = (self.desired, self.wait_for);
        match status::verdict(desired, st, infra_running, wait_for, self.opts.min_uptime, looked_at) {
            // Done only when nothing is left to do: a changed container still gets replaced,
            // a finished pod's sidecars still get stopped.
            Verdict::Done if plan.is_empty() => Some(Ok(())),
            Verdict::Failed { container, state } => {
                let description = state.describe();
                Some(Err(PodFailure::ContainerFailed { container, description }))
            }
            // --wait-for none: created and started (the first sync did it, or nothing was to do).
            Verdict::Pending if wait_for == WaitFor::None && (self.once.synced || plan.is_empty()) => Some(Ok(())),
            Verdict::Done | Verdict::Pending => None,
        }
    }

    /// Carries out `plan`; `None`: look again (at once, or after the backoff a failure set).
    async fn act(
        &mut self,
        obs: &PodObservation,
        plan: &plan::Plan,
        st: PodStatus,
        interrupt: &mut Interrupt,
    ) -> Option<End> {
        if self.out_of_repairs(plan) {
            return Some(not_converged(
                st,
                self.wait_for,
                &self.desired.apps_restarting_always(),
                self.opts.retries,
                self.start,
            ));
        }
        tracing::debug!(pod = %self.key, ?plan, "acting");
        self.note_acting(plan);
        let scope = act::Scope {
            rt: &**self.rt,
            desired: self.desired,
            files: self.files(),
            reporter: self.reporter,
            key: &self.key,
            pulls: &self.opts.pulls,
            updates: &self.opts.updates,
            infra: obs.infra.current.as_ref(),
            created: self.created,
            events: &self.opts.events,
        };
        let acted = tokio::select! {
            r = act::act(scope, plan, &mut self.notes) => r,
            sig = interrupt.wait() => return Some((Some(st), Err(PodFailure::Interrupted(sig)))),
        };
        match acted {
            // Look again at once: a started pod is usually done now.
            Ok(act::Acted::Clean) => self.retries.hold_until = None,
            // Something failed (and was noted): retry after the backoff delay.
            // The deadline came while the engine was stopping containers within their grace.
            Ok(act::Acted::StillStopping(stopping)) => {
                return Some(still_stopping(st, &stopping, self.wait_for, self.retries.repairs, self.start));
            }
            Ok(act::Acted::WithErrors) => {
                self.retries.hold_until = Some(Instant::now() + self.retries.delay);
                self.retries.delay = self.retries.delay.mul_f64(self.opts.backoff.max(1.0));
            }
            Err(PodFailure::Runtime(e)) if outage::away(&e, false) => {
                let back = self.engine.ride_out(&**self.rt, e, false, self.reporter, interrupt).await;
                self.status = Some(st);
                self.signs.infra_seen = None;
                match back {
                    Ok(()) => self.retries.after_outage = true,
                    Err(failure) => return Some((self.status.take(), Err(failure))),
                }
                return None;
            }
            Err(failure) => return Some(self.failed(failure, obs, plan).await),
        }
        self.status = Some(st);
        None
    }

    /// Whether `plan` takes one repair more than the budget has. Repairs (restarts,
    /// replacements) and retries after a failure use it up; a container's first start does
    /// not, however many init containers come first.
    fn out_of_repairs(&mut self, plan: &plan::Plan) -> bool {
        let taking_up = std::mem::take(&mut self.retries.after_outage);
        if (plan.is_repair() || self.retries.hold_until.is_some()) && !taking_up {
            self.retries.repairs += 1;
            return self.retries.repairs > self.opts.retries;
        }
        false
    }

    /// What acting on `plan` settles before it is done.
    fn note_acting(&mut self, plan: &plan::Plan) {
        self.once.synced = true;
        if plan.remove.iter().any(|r| self.signs.infra_seen.as_ref() == Some(&r.container.id)) {
            self.signs.infra_seen = None;
        }
        // Creating containers prepares the volumes (act's preflight): nothing left to refresh.
        self.once.refreshed |=
            plan.infra.iter().chain(&plan.init).chain(&plan.apps).any(|s| matches!(s.step, plan::Step::Create { .. }));
    }

    /// The end of a run whose action failed for good: a refusal (exit 2) first undoes what
    /// this run made (`undo_before_refusal`); the status is reported as the engine now shows it.
    async fn failed(&mut self, failure: PodFailure, obs: &PodObservation, plan: &plan::Plan) -> End {
        let (st, failure) = match failure {
            PodFailure::Config { container, cause, .. } => {
                let after = self.undo_before_refusal().await;
                let st = match self.rt.list(&self.sel).await {
                    Ok(now) => {
                        status::compute(self.desired, &PodObservation::new(self.desired, &now), &self.notes, plan)
                    }
                    Err(_) => status::compute(self.desired, obs, &self.notes, plan),
                };
                (st, PodFailure::Config { container, cause, after })
            }
            failure => (status::compute(self.desired, obs, &self.notes, plan), failure),
        };
        let st = self.stamped(st);
        self.reporter.status(&self.key, &st);
        (Some(st), Err(failure))
    }

    /// Waits for held-back work (a retry after a failure, a restart in backoff), or for an
    /// engine event or a poll; never past the deadline. `Some`: a signal came.
    async fn wait(
        &mut self,
        now: Instant,
        plan: &plan::Plan,
        st: &PodStatus,
        deadline: Option<SystemTime>,
        looked_at: SystemTime,
        interrupt: &mut Interrupt,
    ) -> Option<i32> {
        // Supervising for good with the engine's events flowing, a look now and then suffices.
        let poll = if self.wait_for == WaitFor::Forever && self.engine.events_alive { SUPERVISE_POLL } else { POLL };
        let mut wake = now + poll;
        if !plan.is_empty() {
            wake = self.retries.hold_until.unwrap_or(now);
        }
        // From the look, as the verdict counts: a container up long enough by now but not at
        // the look gets another look at once.
        let next =
            plan.next_restart().into_iter().chain(status::compute::settles_at(st, self.opts.min_uptime, looked_at));
        for t in next.chain(deadline) {
            wake = wake.min(crate::clock::instant_at(t));
        }
        wake = wake.min(self.opts.deadline);
        tokio::select! {
            () = tokio::time::sleep_until(wake) => {}
            ev = self.engine.changes.next(), if self.engine.events_alive => {
                if ev.is_none() {
                    self.engine.events_alive = false;
                }
            }
            () = self.prober.changed() => {}
            Ok(()) = self.updated.changed() => {}
            sig = interrupt.wait() => return Some(sig),
        }
        None
    }

    /// A refusal (exit 2) says nothing was created; one that comes only after earlier syncs
    /// made containers (a sub-path an init container turned into a link) makes that true of
    /// this run: the pod cannot start as it is, so what this run made is removed. What is left
    /// of the pod (made by an earlier run, or one beside it) is named, for `podrun delete`.
    /// Returns the note for the refusal.
    async fn undo_before_refusal(&mut self) -> String {
        let (rt, sel) = (&**self.rt, &self.sel);
        let made = self.created.settled(SETTLE).await;
        let removed = if made.is_empty() {
            0
        } else {
            match act::remove_pod(rt, sel, None, Some(&made), self.files()).await {
                Ok(n) => n,
                Err(e) => {
                    self.reporter.warning(&format!("{}: removal of what this run made: {}", self.key, chain(&e)));
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
}

/// What became of a running pod whose volumes could not be brought up to date.
const NOT_UPDATED: &str = "; its volumes were not updated: the pod runs on with the files it had";

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
