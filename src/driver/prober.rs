//! The prober: runs each running container's startup, liveness and readiness probes on their
//! schedules while podrun waits, with the kubelet's semantics (pkg/kubelet/prober): the
//! initial delay counts from the container's start; a result flips only after threshold
//! consecutive results; readiness starts "not ready" and liveness "alive"; liveness and
//! readiness wait for the startup probe to pass. Results are kept per container instance (by
//! engine id) for the planner (a liveness failure kills the container) and the status (ready,
//! started). Probing stops when the prober is dropped, that is when podrun's run ends.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::clock::parse_time;
use crate::driver::events::Events;
use crate::manifest::types::{Container, Probe};
use crate::pod::events::EventType;
use crate::pod::observed::PodObservation;
use crate::pod::DesiredPod;
use crate::probe::handlers::{self, Outcome, Target};
use crate::runtime::{Observed, Runtime, State};
use crate::status::ProbeState;

/// By engine container id.
pub type ProbeResults = BTreeMap<String, ProbeState>;

#[derive(Default)]
pub struct Prober {
    results: Arc<Mutex<ProbeResults>>,
    workers: Mutex<HashMap<String, JoinHandle<()>>>,
    changed: Arc<Notify>,
    failures: Failures,
    events: Option<ProbeEvents>,
}

/// Where the probes' events go (`Unhealthy`, `ProbeWarning`), for the pod they are about.
#[derive(Clone)]
struct ProbeEvents {
    events: Events,
    pod: Arc<DesiredPod>,
}

/// What each instance's probes said when they last failed (`readiness probe failed: ...`), by
/// engine id, for the report of a failed run. Kept apart from the results, as a failure that
/// changes nothing the planner reads must not wake the driver.
pub type Failures = Arc<Mutex<BTreeMap<String, String>>>;

impl Drop for Prober {
    fn drop(&mut self) {
        for (_, w) in self.workers.lock().unwrap_or_else(|e| e.into_inner()).drain() {
            w.abort();
        }
    }
}

fn has_probes(c: &Container) -> bool {
    c.startup_probe.is_some() || c.liveness_probe.is_some() || c.readiness_probe.is_some()
}

impl Prober {
    pub fn new() -> Prober {
        Prober::default()
    }

    /// A prober that records its failures and warnings as the kubelet's prober does, as
    /// events of `pod`.
    pub fn recording(events: &Events, pod: &DesiredPod) -> Prober {
        let mut prober = Prober::default();
        prober.events = Some(ProbeEvents { events: events.clone(), pod: Arc::new(pod.clone()) });
        prober
    }

    pub fn results(&self) -> ProbeResults {
        self.results.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What the probes said when they last failed; it outlasts the prober.
    pub fn failures(&self) -> Failures {
        self.failures.clone()
    }

    /// Resolves when a probe result changed.
    pub async fn changed(&self) {
        self.changed.notified().await
    }

    /// Starts probing every running container that has probes and is not probed yet, and stops
    /// probing containers that no longer run.
    pub fn sync<R: Runtime>(&self, rt: &Arc<R>, desired: &DesiredPod, obs: &PodObservation) {
        let host_network = desired.network.mode == crate::runtime::NetworkMode::Host;
        let infra_ip = obs.infra.current.as_ref().and_then(|i| i.ip.as_deref());
        let running = desired.init.iter().chain(&desired.containers).filter_map(|c| {
            let m = desired.manifest_container(c)?;
            Some((m, obs.get(&c.name).current.as_ref()?))
        });
        self.sync_running(rt, handlers::pod_address(host_network, infra_ip).unwrap_or_default(), running);
    }

    /// [`Prober::sync`] for `containers`, each with its current instance, whose network probes
    /// go to `pod_ip`: the containers as the manifest gives them, or as a record keeps their
    /// probes (`pod::record::ContainerProbes`).
    pub fn sync_running<'a, R: Runtime>(
        &self,
        rt: &Arc<R>,
        pod_ip: String,
        containers: impl Iterator<Item = (&'a Container, &'a Observed)>,
    ) {
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        let mut running = Vec::new();
        for (m, cur) in containers.filter(|(m, cur)| has_probes(m) && cur.is_running()) {
            running.push(cur.id.clone());
            if workers.contains_key(&cur.id) {
                continue;
            }
            let worker = Worker {
                rt: rt.clone(),
                container: m.clone(),
                id: cur.id.clone(),
                pod_ip: pod_ip.clone(),
                started_at: started_at(cur),
                results: self.results.clone(),
                changed: self.changed.clone(),
                failures: self.failures.clone(),
                events: self.events.clone(),
            };
            workers.insert(cur.id.clone(), tokio::spawn(worker.run()));
        }
        workers.retain(|id, w| {
            let keep = running.contains(id);
            if !keep {
                w.abort();
            }
            keep
        });
    }
}

/// The grace period of a kill this probe asks for: its own `terminationGracePeriodSeconds`
/// when set, which overrides the pod's (kuberuntime_container.go: setTerminationGracePeriod,
/// for the reasons StartupProbe and LivenessProbe); the API server keeps it positive.
fn kill_grace(p: &Probe) -> Option<Duration> {
    p.termination_grace_period_seconds.map(|s| Duration::from_secs(s.max(0).unsigned_abs()))
}

fn started_at(o: &Observed) -> SystemTime {
    match &o.state {
        State::Running { started_at: Some(t) } => parse_time(t).unwrap_or_else(crate::clock::now),
        _ => crate::clock::now(),
    }
}

struct Worker<R> {
    rt: Arc<R>,
    container: Container,
    id: String,
    pod_ip: String,
    started_at: SystemTime,
    results: Arc<Mutex<ProbeResults>>,
    changed: Arc<Notify>,
    failures: Failures,
    events: Option<ProbeEvents>,
}

/// A probe's numbers with the API's defaults.
struct Schedule {
    delay: Duration,
    period: Duration,
    success: u32,
    failure: u32,
}

fn secs(v: Option<i64>, default: i64) -> Duration {
    Duration::from_secs(v.unwrap_or(default).max(0).unsigned_abs())
}

impl Schedule {
    fn of(p: &Probe) -> Schedule {
        Schedule {
            delay: secs(p.initial_delay_seconds, 0),
            // A period of 0 would spin: the API server refuses it, and so does podrun.
            period: secs(p.period_seconds, 10).max(Duration::from_secs(1)),
            // Validation keeps both within 1..=i32::MAX, and a count past u32 is never reached.
            success: u32::try_from(p.success_threshold.unwrap_or(1).max(1)).unwrap_or(u32::MAX),
            failure: u32::try_from(p.failure_threshold.unwrap_or(3).max(1)).unwrap_or(u32::MAX),
        }
    }
}

impl<R: Runtime> Worker<R> {
    fn update(&self, f: impl FnOnce(&mut ProbeState)) {
        let mut results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        let initial = ProbeState {
            started: self.container.startup_probe.is_none(),
            ready: false,
            unhealthy: None,
            kill_grace: None,
        };
        let state = results.entry(self.id.clone()).or_insert(initial);
        let before = state.clone();
        f(state);
        if *state != before {
            self.changed.notify_waiters();
        }
    }

    /// One attempt of the `kind` probe. A warning (an HTTP redirect the kubelet does not
    /// follow) counts as a success, and is said once per container and probe: the kubelet
    /// records a ProbeWarning event for each such attempt, which a log would repeat every
    /// period.
    async fn attempt(&self, kind: &str, probe: &Probe, warned: &mut bool) -> Outcome {
        let target = Target { container_id: &self.id, pod_ip: &self.pod_ip, ports: &self.container.ports };
        let outcome = handlers::run(&*self.rt, probe, &target).await;
        self.record(kind, &outcome);
        match outcome {
            Outcome::Warning(why) => {
                if !std::mem::replace(warned, true) {
                    tracing::warn!("container {}: {kind} probe warning: {why}", self.container.name);
                }
                Outcome::Success
            }
            Outcome::Failure(why) => {
                let said = format!("{kind} probe failed: {why}");
                self.failures.lock().unwrap_or_else(|e| e.into_inner()).insert(self.id.clone(), said);
                Outcome::Failure(why)
            }
            other => other,
        }
    }

    /// The kubelet's event for an attempt that failed (`Unhealthy`) or warned (`ProbeWarning`).
    fn record(&self, kind: &str, outcome: &Outcome) {
        let Some(ProbeEvents { events, pod }) = &self.events else { return };
        let kind = kind.get(..1).unwrap_or_default().to_uppercase() + kind.get(1..).unwrap_or_default();
        let (reason, message) = match outcome {
            Outcome::Failure(why) => ("Unhealthy", format!("{kind} probe failed: {why}")),
            Outcome::Warning(why) => ("ProbeWarning", format!("{kind} probe warning: {why}")),
            _ => return,
        };
        events.container(pod, &self.container.name, EventType::Warning, reason, message);
    }

    /// Waits until `delay` after the container's start.
    async fn initial_delay(&self, delay: Duration) {
        let at = self.started_at + delay;
        tokio::time::sleep_until(crate::clock::instant_at(at)).await;
    }

    async fn run(self) {
        // Before any result: not ready, alive; started only without a startup probe.
        self.update(|_| {});
        if let Some(p) = self.container.startup_probe.clone() {
            let s = Schedule::of(&p);
            self.initial_delay(s.delay).await;
            let (mut failures, mut warned) = (0, false);
            loop {
                match self.attempt("startup", &p, &mut warned).await {
                    Outcome::Success | Outcome::Warning(_) => break,
                    Outcome::Failure(why) => {
                        failures += 1;
                        if failures >= s.failure {
                            self.update(|st| {
                                st.unhealthy = Some(format!("startup probe failed: {why}"));
                                st.kill_grace = kill_grace(&p);
                            });
                            return;
                        }
                    }
                    Outcome::Error(why) => tracing::debug!("startup probe result thrown away: {why}"),
                }
                tokio::time::sleep(s.period).await;
            }
            self.update(|st| st.started = true);
        }
        let liveness = self.container.liveness_probe.clone().map(|p| self.liveness(p));
        let readiness = self.readiness(self.container.readiness_probe.clone());
        match liveness {
            Some(l) => {
                tokio::join!(l, readiness);
            }
            None => readiness.await,
        }
    }

    async fn liveness(&self, p: Probe) {
        let s = Schedule::of(&p);
        self.initial_delay(s.delay).await;
        let (mut failures, mut warned) = (0, false);
        loop {
            match self.attempt("liveness", &p, &mut warned).await {
                Outcome::Success | Outcome::Warning(_) => failures = 0,
                Outcome::Failure(why) => {
                    failures += 1;
                    if failures >= s.failure {
                        self.update(|st| {
                            st.unhealthy = Some(format!("liveness probe failed: {why}"));
                            st.kill_grace = kill_grace(&p);
                        });
                        return;
                    }
                }
                Outcome::Error(why) => tracing::debug!("liveness probe result thrown away: {why}"),
            }
            tokio::time::sleep(s.period).await;
        }
    }

    async fn readiness(&self, p: Option<Probe>) {
        let Some(p) = p else {
            // No readiness probe: ready as soon as started.
            self.update(|st| st.ready = true);
            return;
        };
        let s = Schedule::of(&p);
        self.initial_delay(s.delay).await;
        let (mut successes, mut failures, mut warned) = (0, 0, false);
        loop {
            match self.attempt("readiness", &p, &mut warned).await {
                Outcome::Success | Outcome::Warning(_) => {
                    failures = 0;
                    successes += 1;
                    if successes >= s.success {
                        self.update(|st| st.ready = true);
                    }
                }
                Outcome::Failure(_) => {
                    successes = 0;
                    failures += 1;
                    if failures >= s.failure {
                        self.update(|st| st.ready = false);
                    }
                }
                Outcome::Error(why) => tracing::debug!("readiness probe result thrown away: {why}"),
            }
            tokio::time::sleep(s.period).await;
        }
    }
}
