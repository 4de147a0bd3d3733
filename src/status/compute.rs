//! Computing a pod's Kubernetes status from what the engine shows, with the kubelet's rules
//! for container states, reasons and the pod phase (kubelet_pods.go: getPhase), and deciding
//! whether a run has reached what the user asked to wait for.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use crate::clock::parse_time;
use crate::plan::{BackOff, Plan};
use crate::pod::observed::{attempt_of, Instances, PodObservation};
use crate::pod::{DesiredContainer, DesiredPod};
use crate::runtime::{Observed, State};

use super::ids::{container_id, image_id};
use super::reason::Reason;
use super::types::{
    ContainerResources, ContainerState, ContainerStatus, Phase, PodStatus, Running, Terminated, Waiting,
};

/// What the driver knows beyond what the engine shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notes {
    /// By container name: the last failure podrun met acting on it (pull, create, start),
    /// shown as its waiting reason until an instance of it runs: `ErrImagePull`, ...
    pub waiting: BTreeMap<String, Waiting>,
    /// By engine container id: the termination message of an instance that has terminated.
    pub messages: BTreeMap<String, String>,
    /// By engine container id: what the probes say.
    pub probes: BTreeMap<String, ProbeState>,
    /// Images already reported as served from the local copy because the registry was
    /// unreachable: said once per run, not at every restart.
    pub offline_images: std::collections::BTreeSet<String>,
}

/// What a container instance's probes say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeState {
    /// The startup probe has passed (or there is none).
    pub started: bool,
    /// The readiness probe passes (or there is none, once started).
    pub ready: bool,
    /// Why the container must be killed: its liveness (or startup) probe failed for good.
    pub unhealthy: Option<String>,
    /// The grace period of that kill, where the failed probe sets its own
    /// `terminationGracePeriodSeconds` (it overrides the pod's).
    pub kill_grace: Option<std::time::Duration>,
}

impl Notes {
    pub fn new() -> Notes {
        Notes::default()
    }
}

fn terminated(c: &Observed, messages: &BTreeMap<String, String>) -> Option<Terminated> {
    let State::Exited { exit_code, started_at, finished_at, oom_killed, error } = &c.state else {
        return match c.state {
            State::Dead => Some(Terminated {
                exit_code: 137,
                reason: Reason::Error.as_str().into(),
                message: Some("the engine reports the container dead".into()),
                started_at: None,
                finished_at: None,
                container_id: Some(container_id(c)),
            }),
            _ => None,
        };
    };
    let reason = if *oom_killed {
        Reason::OOMKilled
    } else if error.is_some() {
        // The runtime could not start it (containerd's CRI says StartError, exit code 128).
        Reason::StartError
    } else if *exit_code == 0 {
        Reason::Completed
    } else {
        Reason::Error
    };
    // The container's own termination message, else why the engine could not run it.
    let message = messages.get(&c.id).filter(|m| !m.is_empty()).cloned().or_else(|| error.clone());
    Some(Terminated {
        exit_code: *exit_code,
        reason: reason.as_str().into(),
        message,
        started_at: started_at.clone(),
        finished_at: finished_at.clone(),
        container_id: Some(container_id(c)),
    })
}

/// How a container that is not running waits: a failure podrun met acting on it, else
/// `default` (ContainerCreating, or PodInitializing while init containers run).
fn waiting(note: Option<&Waiting>, default: &str) -> ContainerState {
    let w = note.cloned().unwrap_or(Waiting { reason: default.into(), message: None });
    ContainerState { waiting: Some(w), ..Default::default() }
}

fn state_of(
    current: Option<&Observed>,
    note: Option<&Waiting>,
    messages: &BTreeMap<String, String>,
    default: &str,
) -> ContainerState {
    let Some(c) = current else { return waiting(note, default) };
    match &c.state {
        State::Created => waiting(note, Reason::ContainerCreating.as_str()),
        State::Running { started_at } => {
            ContainerState { running: Some(Running { started_at: started_at.clone() }), ..Default::default() }
        }
        State::Exited { .. } | State::Dead => {
            ContainerState { terminated: terminated(c, messages), ..Default::default() }
        }
        State::Other(s) => ContainerState::waiting(&format!("Container{}", capitalise(s)), None),
    }
}

fn capitalise(s: &str) -> String {
    let mut cs = s.chars();
    cs.next().map(|f| f.to_uppercase().chain(cs).collect()).unwrap_or_default()
}

/// Bytes as the API server writes a quantity of them: in the largest binary unit that divides
/// them (`96Mi`), else plain.
fn bytes_quantity(b: i64) -> String {
    for (shift, unit) in [(40, "Ti"), (30, "Gi"), (20, "Mi"), (10, "Ki")] {
        if b > 0 && b % (1 << shift) == 0 {
            return format!("{}{unit}", b >> shift);
        }
    }
    b.to_string()
}

fn millicores(m: i64) -> String {
    if m % 1000 == 0 {
        (m / 1000).to_string()
    } else {
        format!("{m}m")
    }
}

/// What a running (or created) container has of CPU and memory, as the engine reports it
/// (else as it was created), in the API's terms: the kubelet's `resources` of a container
/// status (in-place resize). Limits from the CFS quota and the memory limit, requests from the
/// CPU shares (SharesToMilliCPU, rounded up) and the memory reservation.
fn applied_resources(c: &Observed) -> Option<ContainerResources> {
    use crate::runtime::labels;
    if !matches!(c.state, State::Running { .. } | State::Created) {
        return None;
    }
    let text = c.label(labels::RESOURCES_NOW).or_else(|| c.label(labels::RESOURCES))?;
    let mut nums = BTreeMap::new();
    for part in text.split(',') {
        let (name, values) = part.split_once('=')?;
        let values: Vec<i64> = values.split('/').map(str::parse).collect::<Result<_, _>>().ok()?;
        nums.insert(name, values);
    }
    let (cpu, memory) = (nums.get("cpu")?, nums.get("memory")?);
    let (quota, period, shares) = (*cpu.first()?, *cpu.get(1)?, *cpu.get(2)?);
    let (limit, reservation) = (*memory.first()?, *memory.get(1)?);
    let mut r = ContainerResources::default();
    if quota > 0 && period > 0 {
        r.limits.insert("cpu".into(), millicores(quota.saturating_mul(1000) / period));
    }
    if limit > 0 {
        r.limits.insert("memory".into(), bytes_quantity(limit));
    }
    // Shares of 2 are the kubelet's floor: no request.
    if shares > 2 {
        r.requests.insert("cpu".into(), millicores((shares.saturating_mul(1000) + 1023) / 1024));
    }
    if reservation > 0 {
        r.requests.insert("memory".into(), bytes_quantity(reservation));
    }
    Some(r)
}

pub(crate) fn container_status(
    name: &str,
    image: &str,
    inst: &Instances,
    notes: &Notes,
    default: &str,
    backoff: Option<&BackOff>,
) -> ContainerStatus {
    let current = inst.current.as_ref();
    let mut state = state_of(current, notes.waiting.get(name), &notes.messages, default);
    let mut last = inst.previous.as_ref().and_then(|p| terminated(p, &notes.messages));
    if let Some(b) = backoff {
        // Waiting out the crash backoff: the exit that caused it becomes the last state.
        last = state.terminated.take();
        let message = format!("back-off {} restarting failed container={name}", humantime::format_duration(b.delay));
        state = ContainerState::waiting(Reason::CrashLoopBackOff.as_str(), Some(message));
    }
    let running = state.running.is_some();
    ContainerStatus {
        name: name.to_owned(),
        last_state: ContainerState { terminated: last, ..Default::default() },
        state,
        ready: running,
        restart_count: current.map_or(0, attempt_of),
        image: image.to_owned(),
        image_id: current.map(image_id).unwrap_or_default(),
        container_id: current.map(container_id),
        started: running,
        resources: current.and_then(applied_resources),
        allocated_resources: current.and_then(applied_resources).map(|r| r.requests).filter(|r| !r.is_empty()),
    }
}

/// The pod's status as the kubelet would report it. `plan` is what the planner made of the same
/// observation: it says which restarts the crash backoff holds back.
pub fn compute(desired: &DesiredPod, obs: &PodObservation, notes: &Notes, plan: &Plan) -> PodStatus {
    let initialized = obs.initialized(desired);
    let status_of = |c: &DesiredContainer, default: &str| {
        let backoff = plan.backoff.iter().find(|b| b.container == c.name);
        let mut st = container_status(&c.name, &c.image, obs.get(&c.name), notes, default, backoff);
        // Probes decide `started` and `ready` where the container has them.
        if let (Some(m), Some(cur)) = (desired.manifest_container(c), obs.get(&c.name).current.as_ref()) {
            let probed = notes.probes.get(&cur.id);
            if m.startup_probe.is_some() {
                st.started = st.started && probed.is_some_and(|p| p.started);
            }
            if m.readiness_probe.is_some() || m.startup_probe.is_some() {
                st.ready = st.ready && probed.is_some_and(|p| p.started && p.ready);
            }
        }
        st
    };
    // Before the first init container has started the pod is still being set up; later ones
    // wait for their turn, as the app containers wait for initialization.
    let init_container_statuses: Vec<ContainerStatus> = desired
        .init
        .iter()
        .enumerate()
        .map(|(i, c)| status_of(c, if i == 0 { Reason::ContainerCreating } else { Reason::PodInitializing }.as_str()))
        .collect();
    let app_default = if initialized { Reason::ContainerCreating } else { Reason::PodInitializing }.as_str();
    let container_statuses: Vec<ContainerStatus> =
        desired.containers.iter().map(|c| status_of(c, app_default)).collect();
    let infra = obs.infra.current.as_ref().filter(|c| c.is_running());
    let pod_ip = infra.and_then(|c| c.ip.clone());
    let start_time = obs.infra.current.as_ref().and_then(|c| match &c.state {
        State::Running { started_at } | State::Exited { started_at, .. } => started_at.clone(),
        _ => None,
    });
    let init_failed = init_failure(desired, &init_container_statuses).is_some();
    let phase = if init_failed {
        Phase::Failed
    } else if !initialized {
        Phase::Pending
    } else {
        phase(&container_statuses, |i, code| desired.containers.get(i).is_some_and(|c| desired.restarts_after(c, code)))
    };
    // podrun's infra container gets its network before it runs: running, it is networked.
    let sandbox = infra.is_some();
    let sidecars: Vec<bool> = desired.init.iter().map(|c| c.sidecar).collect();
    PodStatus::assemble(
        phase,
        initialized,
        pod_ip,
        start_time,
        (init_container_statuses, &sidecars),
        container_statuses,
    )
    .with_host_ips(super::host_ips::of(infra))
    .with_qos_class(Some(crate::pod::qos::pod_qos(&desired.manifest).as_str()))
    .with_sandbox(sandbox)
}

/// A regular init container that failed for good: one that its restart policy (its own, else
/// the pod's) and rules do not restart fails the pod.
fn init_failure<'a>(desired: &DesiredPod, statuses: &'a [ContainerStatus]) -> Option<&'a ContainerStatus> {
    desired.init.iter().zip(statuses).filter(|(c, _)| !c.sidecar).find_map(|(c, s)| {
        let code = s.state.terminated.as_ref().map(|t| t.exit_code).filter(|&code| code != 0)?;
        (!desired.restarts_after(c, code)).then_some(s)
    })
}

/// kubelet_pods.go getPhase (with ContainerRestartRules), for the app containers.
/// `restarts(i, code)`: whether the `i`th container is restarted after exiting with `code`.
pub fn phase(statuses: &[ContainerStatus], restarts: impl Fn(usize, i64) -> bool) -> Phase {
    let (mut waiting, mut running, mut stopped, mut final_stops, mut succeeded) = (0, 0, 0, 0, 0);
    for (i, s) in statuses.iter().enumerate() {
        // A container waiting to be restarted counts as stopped, by its last exit.
        let exit =
            s.state.terminated.as_ref().or(s.last_state.terminated.as_ref().filter(|_| s.state.waiting.is_some()));
        if s.state.running.is_some() {
            running += 1;
        } else if let Some(t) = exit {
            stopped += 1;
            if !restarts(i, t.exit_code) {
                final_stops += 1;
            }
            if s.state.terminated.is_some() && t.exit_code == 0 {
                succeeded += 1;
            }
        } else {
            waiting += 1;
        }
    }
    match () {
        () if waiting > 0 => Phase::Pending,
        () if running > 0 => Phase::Running,
        // Some container will be started again.
        () if stopped > final_stops => Phase::Running,
        () if stopped > 0 && stopped == succeeded => Phase::Succeeded,
        () if stopped > 0 => Phase::Failed,
        () => Phase::Pending,
    }
}

/// What the user waits for (`--wait-for`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitFor {
    /// Every app container running, or completed with exit 0 where it will not be restarted.
    Running,
    /// Every app container terminated for good.
    Complete,
    /// Each app container as its restart policy makes it: running where every exit is followed
    /// by a restart, terminated for good elsewhere (the default for a pod with both).
    Each,
    /// Every app container ready: its readiness probe passes (running, without one).
    Ready,
    /// Nothing: the pod is created and started, and podrun returns.
    None,
    /// Never done: the pod is kept as the manifest says until podrun is stopped
    /// (`apply --supervise`, after its first pass).
    Forever,
}

impl WaitFor {
    /// What each container will do, by its effective restart policy (`restarts_always`: for
    /// each app container, whether every exit is followed by a restart): running when all
    /// run for good, complete when none does, each its own way in a pod with both.
    pub fn default_for(restarts_always: &[bool]) -> WaitFor {
        match (restarts_always.iter().all(|a| *a), restarts_always.iter().any(|a| *a)) {
            (true, _) => WaitFor::Running,
            (false, false) => WaitFor::Complete,
            (false, true) => WaitFor::Each,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// What was asked for is reached.
    Done,
    /// Not yet.
    Pending,
    /// It can never be reached: a container failed for good.
    Failed { container: String, state: Box<ContainerState> },
}

/// The exit code of an app container that has terminated and will not be restarted
/// (`restarts(code)`: whether it is restarted after exiting with `code`).
fn final_exit(s: &ContainerStatus, restarts: impl Fn(i64) -> bool) -> Option<i64> {
    s.state.terminated.as_ref().map(|t| t.exit_code).filter(|&code| !restarts(code))
}

/// A container must have been up for `min_uptime` (`--min-uptime`, 200 ms by default) before
/// it counts as running, so that one that exits right after its start (a wrong command, a
/// missing file) is not reported as running just because podrun looked in the first
/// milliseconds. Counted from the start the engine records, so the wait overlaps the rest of
/// the pod's start. A container that crashed before must show more: it is not running just because the last
/// restart has not failed yet (1 s at the default).
const RESTARTED_FACTOR: u32 = 5;

/// When a running container will have been up long enough to count as running.
fn stable_at(s: &ContainerStatus, min_uptime: Duration) -> Option<SystemTime> {
    if min_uptime.is_zero() {
        return None;
    }
    let started = s.state.running.as_ref()?.started_at.as_deref().and_then(parse_time)?;
    Some(started + if s.restart_count == 0 { min_uptime } else { min_uptime * RESTARTED_FACTOR })
}

/// The earliest moment a running but not yet stable container becomes stable, if any.
pub fn settles_at(status: &PodStatus, min_uptime: Duration, now: SystemTime) -> Option<SystemTime> {
    status.container_statuses.iter().filter_map(|s| stable_at(s, min_uptime)).filter(|t| *t > now).min()
}

pub fn verdict(
    desired: &DesiredPod,
    status: &PodStatus,
    infra_running: bool,
    wait_for: WaitFor,
    min_uptime: Duration,
    now: SystemTime,
) -> Verdict {
    if let Some(s) = init_failure(desired, &status.init_container_statuses) {
        return Verdict::Failed { container: s.name.clone(), state: Box::new(s.state.clone()) };
    }
    let restarts = |i: usize, code| desired.containers.get(i).is_some_and(|c| desired.restarts_after(c, code));
    let rules = Restarts { after: &restarts, always: &desired.apps_restarting_always() };
    judge(status, infra_running, wait_for, Uptime { min: min_uptime, now }, &rules)
}

/// How the app containers (in the status's order) are restarted: `after(i, code)`, whether
/// the `i`th is restarted after exiting with `code`; `always[i]`, whether after every exit.
pub struct Restarts<'a> {
    pub after: &'a dyn Fn(usize, i64) -> bool,
    pub always: &'a [bool],
}

/// How long a container must have been up to count as running (`--min-uptime`), as of `now`.
#[derive(Debug, Clone, Copy)]
pub struct Uptime {
    pub min: Duration,
    pub now: SystemTime,
}

/// The verdict on the app containers (`verdict`'s rules once init containers are done with),
/// restarted as `restarts` says. Also for pods podrun does not drive (`podrun wait`), whose
/// rules come from their record.
pub fn judge(
    status: &PodStatus,
    infra_running: bool,
    wait_for: WaitFor,
    uptime: Uptime,
    restarts: &Restarts,
) -> Verdict {
    let apps = || status.container_statuses.iter().enumerate();
    let final_of = |i: usize, s: &ContainerStatus| final_exit(s, |code| (restarts.after)(i, code));
    // A container that failed for good ends a run with a goal; a supervised pod (no goal) is
    // kept as a kubelet keeps it, its other containers going (one whose own policy is Never
    // may fail in a pod that runs on).
    for (i, s) in apps().filter(|_| wait_for != WaitFor::Forever) {
        if final_of(i, s).is_some_and(|code| code != 0) {
            return Verdict::Failed { container: s.name.clone(), state: Box::new(s.state.clone()) };
        }
    }
    let running = |i: usize, s: &ContainerStatus| {
        let stable = stable_at(s, uptime.min).is_none_or(|t| t <= uptime.now);
        infra_running && ((s.state.running.is_some() && stable) || final_of(i, s) == Some(0))
    };
    let done = match wait_for {
        WaitFor::Running => infra_running && apps().all(|(i, s)| running(i, s)),
        WaitFor::Complete => apps().all(|(i, s)| final_of(i, s).is_some()),
        WaitFor::Each => apps().all(|(i, s)| {
            if restarts.always.get(i).copied().unwrap_or(false) {
                running(i, s)
            } else {
                final_of(i, s).is_some()
            }
        }),
        // The pod's Ready condition: its sidecars count too.
        WaitFor::Ready => infra_running && status.is_ready(),
        // The driver returns after its first sync; until then, nothing is done.
        WaitFor::None | WaitFor::Forever => false,
    };
    if done {
        Verdict::Done
    } else {
        Verdict::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT_MIN_UPTIME: Duration = Duration::from_millis(200);

    fn status(name: &str, state: ContainerState, restarts: u32) -> ContainerStatus {
        ContainerStatus {
            name: name.into(),
            state,
            last_state: ContainerState::default(),
            ready: false,
            restart_count: restarts,
            image: "img".into(),
            image_id: String::new(),
            container_id: None,
            started: false,
            resources: None,
            allocated_resources: None,
        }
    }

    fn running() -> ContainerState {
        ContainerState { running: Some(Running { started_at: None }), ..Default::default() }
    }

    fn term(code: i64) -> ContainerState {
        ContainerState {
            terminated: Some(Terminated {
                exit_code: code,
                reason: if code == 0 { "Completed" } else { "Error" }.into(),
                message: None,
                started_at: None,
                finished_at: None,
                container_id: None,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn phase_follows_get_phase() {
        use crate::manifest::types::RestartPolicy::*;
        let w = || ContainerState::waiting("ContainerCreating", None);
        let cases = [
            (Always, vec![running(), w()], Phase::Pending),
            (Always, vec![running(), term(0)], Phase::Running),
            (Always, vec![term(0), term(1)], Phase::Running),
            (OnFailure, vec![term(0), term(0)], Phase::Succeeded),
            (OnFailure, vec![term(0), term(1)], Phase::Running),
            (Never, vec![term(0), term(1)], Phase::Failed),
            (Never, vec![term(0), term(0)], Phase::Succeeded),
        ];
        for (policy, states, want) in cases {
            let ss: Vec<ContainerStatus> = states.into_iter().map(|s| status("c", s, 0)).collect();
            assert_eq!(phase(&ss, |_, code| policy.restarts_after(code)), want, "{policy:?} {ss:?}");
        }
    }

    /// getPhase with ContainerRestartRules: a stopped container counts as restarting when its
    /// own policy or rules restart it, whatever the pod's policy.
    #[test]
    fn phase_asks_each_container_whether_it_restarts() {
        let backing_off = || ContainerStatus {
            last_state: term(42),
            ..status("c", ContainerState::waiting("CrashLoopBackOff", None), 1)
        };
        // (states, which containers restart after any exit, phase)
        let cases = [
            // A Never container that failed in an Always pod stays terminated; the pod runs on.
            (vec![term(1), running()], vec![false, true], Phase::Running),
            // Both stopped, one of them to be restarted: still running.
            (vec![term(1), term(0)], vec![false, true], Phase::Running),
            (vec![term(1), term(0)], vec![false, false], Phase::Failed),
            (vec![term(0), term(0)], vec![false, false], Phase::Succeeded),
            // Waiting out the backoff of a rule's restart (exit 42) counts as restarting.
            (vec![backing_off().state, term(0)], vec![true, false], Phase::Running),
        ];
        for (states, restarting, want) in cases {
            let mut ss: Vec<ContainerStatus> = states.into_iter().map(|s| status("c", s, 0)).collect();
            if ss[0].state.waiting.is_some() {
                ss[0] = backing_off();
            }
            assert_eq!(phase(&ss, |i, _| restarting[i]), want, "{ss:?} {restarting:?}");
        }
    }

    #[test]
    fn the_pod_is_ready_only_with_every_sidecar_ready() {
        let ready = |name: &str| ContainerStatus { ready: true, ..status(name, running(), 0) };
        let unready = |name: &str| status(name, running(), 0);
        let done = |name: &str| status(name, term(0), 0);
        let cases = [
            // (init statuses, which are sidecars, app statuses, Ready)
            (vec![done("i")], vec![false], vec![ready("a")], true),
            (vec![done("i"), ready("s")], vec![false, true], vec![ready("a")], true),
            (vec![done("i"), unready("s")], vec![false, true], vec![ready("a")], false),
            (vec![unready("s")], vec![true], vec![unready("a")], false),
        ];
        for (init, sidecars, apps, want) in cases {
            let st = PodStatus::assemble(Phase::Running, true, None, None, (init.clone(), &sidecars), apps);
            assert_eq!(st.is_ready(), want, "{init:?} {sidecars:?}");
            let cr = st.conditions.iter().find(|c| c.type_ == "ContainersReady").unwrap();
            assert_eq!(cr.status == "True", want);
        }
    }

    #[test]
    fn a_restarted_container_must_settle_before_it_counts() {
        let now = SystemTime::now();
        let started = humantime::format_rfc3339_nanos(now - Duration::from_millis(300)).to_string();
        let mut s = status("c", running(), 2);
        s.state.running = Some(Running { started_at: Some(started) });
        let st = PodStatus {
            phase: Phase::Running,
            conditions: vec![],
            message: None,
            reason: None,
            host_ip: None,
            host_ips: vec![],
            pod_ip: None,
            pod_ips: vec![],
            start_time: None,
            init_container_statuses: vec![],
            container_statuses: vec![s],
            qos_class: None,
            observed_generation: None,
        };
        let settles = settles_at(&st, DEFAULT_MIN_UPTIME, now).expect("not settled yet");
        assert!(settles > now && settles <= now + DEFAULT_MIN_UPTIME * RESTARTED_FACTOR);
        assert_eq!(settles_at(&st, DEFAULT_MIN_UPTIME, now + Duration::from_secs(2)), None);
        assert_eq!(settles_at(&st, Duration::ZERO, now), None, "--min-uptime 0: no guard");
    }

    #[test]
    fn describe_reads_like_kubectl() {
        assert_eq!(running().describe(), "Running");
        assert_eq!(term(1).describe(), "Terminated: Error (exit code 1)");
        assert_eq!(
            ContainerState::waiting("ErrImagePull", Some("not found".into())).describe(),
            "Waiting: ErrImagePull (not found)"
        );
    }
}
