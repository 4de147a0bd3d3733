//! Pods as the engine shows them, without their manifests: for `podrun get` and `podrun logs`,
//! which find pods by podrun's labels alone. Everything here comes from the containers' labels
//! and states: the container names (`io.kubernetes.container.name`), their role
//! (`io.podrun.role`) and their attempt numbers (`io.podrun.attempt`, the restart count).

use std::collections::BTreeMap;
use std::path::Path;

use crate::manifest::types::RestartPolicy;
use crate::pod::files::PodFiles;
use crate::pod::observed::{attempt_of, Instances};
use crate::pod::record::{PodRecord, RecordedContainer};
use crate::runtime::labels;
use crate::runtime::{Observed, State};

use super::compute::{container_status, phase};
use super::reason::Reason;
use super::{ContainerStatus, Notes, Phase, PodStatus};

/// One pod found in the engine, with its containers sorted out and its status.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedPod {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub infra: Instances,
    /// Init containers, in the order they ran (by the start of their current instance: the
    /// labels do not carry the manifest's order).
    pub init: Vec<(String, Instances)>,
    /// App containers, by name (the manifest's order is not known without the manifest).
    pub containers: Vec<(String, Instances)>,
    pub status: PodStatus,
    /// The pod's restartPolicy, as its record keeps it (`with_record`); unknown without one.
    pub restart_policy: Option<RestartPolicy>,
    /// The record its last run left (`with_record`): each container's own restart settings.
    pub record: Option<PodRecord>,
}

/// Whether the instances are a sidecar's (its sealed label says so).
fn is_sidecar(inst: &Instances) -> bool {
    inst.current.as_ref().and_then(|c| c.label(labels::SIDECAR)).is_some_and(|i| !i.is_empty())
}

impl ListedPod {
    /// Which of the init containers (in `init`'s order, as the status has them) are sidecars.
    pub fn sidecars(&self) -> Vec<bool> {
        self.init.iter().map(|(_, i)| is_sidecar(i)).collect()
    }

    /// A container's instances by name, init containers included.
    pub fn instances(&self, name: &str) -> Option<&Instances> {
        self.init.iter().chain(&self.containers).find(|(n, _)| n == name).map(|(_, i)| i)
    }

    /// The app containers' names, in the order `containers` has them.
    pub fn container_names(&self) -> Vec<&str> {
        self.containers.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The container a command uses when none is named, as kubectl chooses it: the pod's
    /// default container (the label apply puts on the infra container), else its only app
    /// container, or, while it is still initializing, its only init container. Without one, the
    /// names to choose from.
    pub fn default_container(&self) -> Result<&str, Vec<&str>> {
        let labelled = self.infra.current.as_ref().and_then(|i| i.label(labels::DEFAULT_CONTAINER));
        if let Some(name) = labelled.filter(|n| self.instances(n).is_some()) {
            return Ok(self.init.iter().chain(&self.containers).find(|(c, _)| c == name).map_or(name, |(c, _)| c));
        }
        let candidates: Vec<&str> = if self.containers.is_empty() {
            self.init.iter().map(|(n, _)| n.as_str()).collect()
        } else {
            self.container_names()
        };
        match candidates.as_slice() {
            [one] => Ok(one),
            _ => Err(candidates),
        }
    }

    /// kubectl's note when it chose the default container of a pod with several: "Defaulted
    /// container "a" out of: a, b, setup (init)". None when there was nothing to choose from.
    pub fn defaulted_note(&self, chosen: &str) -> Option<String> {
        let all: Vec<String> = self
            .containers
            .iter()
            .map(|(n, _)| n.clone())
            .chain(self.init.iter().map(|(n, _)| format!("{n} (init)")))
            .collect();
        (all.len() > 1).then(|| format!("Defaulted container {chosen:?} out of: {}", all.join(", ")))
    }

    /// The status again, with what podrun recorded of the pod while it ran it (`pod::record`):
    /// the manifest's containers, including those not created yet, the last readiness its
    /// probes gave, termination messages and the pod's own failure. `notes` holds the
    /// termination messages read from the containers' files since.
    #[must_use]
    pub fn with_record(mut self, record: Option<&PodRecord>, notes: &Notes) -> ListedPod {
        if let Some(r) = record {
            let order = |recorded: &[RecordedContainer], found: &mut Vec<(String, Instances)>| {
                let mut sorted: Vec<(String, Instances)> = recorded
                    .iter()
                    .map(|c| {
                        let i = found.iter().position(|(n, _)| n == &c.name).map(|i| found.remove(i).1);
                        (c.name.clone(), i.unwrap_or_default())
                    })
                    .collect();
                sorted.append(found);
                *found = sorted;
            };
            order(&r.init_containers, &mut self.init);
            order(&r.containers, &mut self.containers);
        }
        self.status = status(&self.infra, &self.init, &self.containers, record, notes);
        self.restart_policy = record.map(|r| r.restart_policy);
        self.record = record.cloned();
        self
    }

    /// The pod with what podrun keeps of it on the host, where the engine is local (`files`):
    /// the record its last run left (`pod::record`), and the termination messages its
    /// terminated containers wrote (as `apply` reads them). As `podrun get` and `podrun wait`
    /// read a pod.
    #[must_use]
    pub fn with_files(self, files: Option<&PodFiles>) -> ListedPod {
        self.with_files_then(files, |_| {})
    }

    /// [`ListedPod::with_files`], the record as `adjust` leaves it: `podrun wait` puts in the
    /// readiness its own probes gave.
    #[must_use]
    pub fn with_files_then(self, files: Option<&PodFiles>, adjust: impl FnOnce(&mut PodRecord)) -> ListedPod {
        let Some(files) = files else { return self };
        let mut notes = Notes::new();
        for (name, inst) in self.init.iter().chain(&self.containers) {
            for o in inst.current.iter().chain(&inst.previous).filter(|o| matches!(o.state, State::Exited { .. })) {
                if let Some(m) = files.read_termination_log(&self.uid, name, attempt_of(o)).filter(|m| !m.is_empty()) {
                    notes.messages.insert(o.id.clone(), m);
                }
            }
        }
        let mut record = files.read_record(&self.uid);
        if let Some(r) = record.as_mut() {
            adjust(r);
        }
        self.with_record(record.as_ref(), &notes)
    }

    /// When the pod started: its infra container's start (RFC 3339), as the kubelet's
    /// `startTime` is when the sandbox came up.
    pub fn started_at(&self) -> Option<&str> {
        self.status.start_time.as_deref()
    }
}

/// The newest instance first, and the newest dead one before it, as `PodObservation` sorts
/// them; older instances are left out (the driver removes them).
fn instances(mut all: Vec<Observed>) -> Instances {
    // The id breaks ties so the order never depends on the engine's.
    all.sort_by(|a, b| attempt_of(b).cmp(&attempt_of(a)).then_with(|| b.id.cmp(&a.id)));
    let mut all = all.into_iter();
    let current = all.next();
    let previous = all.find(Observed::is_dead);
    Instances { current, previous }
}

fn started_at(i: &Instances) -> Option<&str> {
    match &i.current.as_ref()?.state {
        State::Running { started_at } | State::Exited { started_at, .. } => started_at.as_deref(),
        _ => None,
    }
}

/// Pods named at most in a report of the containers podrun leaves alone; the rest are counted.
const UNVERIFIED_PODS_SHOWN: usize = 100;
/// Container names shown at most per pod in that report.
const UNVERIFIED_NAMES_SHOWN: usize = 5;

/// What to say of the containers among `observed` that carry podrun's labels without its seal
/// (`runtime::seal`): made by podrun under another state directory than `state_dir` (another
/// user's, or `PODRUN_STATE_DIR` set otherwise), or by someone else (an image's labels, a
/// forgery). They are never touched; the user is told, one line per pod (as its labels name
/// it), which they are and what to do about them. Everything from the engine is escaped.
pub fn unverified_report(observed: &[Observed], state_dir: &Path) -> Vec<String> {
    let mut pods: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for c in observed.iter().filter(|c| c.is_unverified()) {
        let pod = (c.label(labels::POD_NAMESPACE).unwrap_or("?"), c.label(labels::POD_NAME).unwrap_or("?"));
        pods.entry(pod).or_default().push(&c.name);
    }
    let dir = state_dir.display().to_string().escape_debug().to_string();
    let mut lines: Vec<String> = pods
        .iter()
        .take(UNVERIFIED_PODS_SHOWN)
        .map(|((ns, pod), names)| {
            let mut shown =
                names.iter().take(UNVERIFIED_NAMES_SHOWN).map(|n| n.escape_debug().to_string()).collect::<Vec<_>>();
            if names.len() > UNVERIFIED_NAMES_SHOWN {
                shown.push(format!("and {} more", names.len() - UNVERIFIED_NAMES_SHOWN));
            }
            format!(
                "{} container(s) of pod {}/{} ({}) carry podrun's labels but were not made under this state \
                 directory ({dir}), so podrun leaves them alone: run podrun with PODRUN_STATE_DIR set to the \
                 state directory that made them, or, if no podrun made them, remove them with the engine's \
                 own tool (docker rm -f, podman rm -f, crictl rm -f or crictl rmp -f)",
                names.len(),
                ns.escape_debug(),
                pod.escape_debug(),
                shown.join(", ")
            )
        })
        .collect();
    if pods.len() > UNVERIFIED_PODS_SHOWN {
        lines.push(format!(
            "and the containers of {} more pods carry podrun's labels but were not made under this state directory",
            pods.len() - UNVERIFIED_PODS_SHOWN
        ));
    }
    lines
}

/// The newest pod among `observed` (containers of one pod name): an earlier pod of the same
/// name may linger beside the current one, and the current one wins.
pub fn newest(observed: Vec<Observed>) -> Option<ListedPod> {
    group(observed).into_iter().max_by(|a, b| a.started_at().cmp(&b.started_at()))
}

/// Groups podrun's containers into pods (by namespace, name and uid: an earlier pod of the same
/// name not yet removed is a pod of its own), sorted by namespace and name, each with a status
/// computed from its containers alone. Containers without podrun's labels are ignored.
pub fn group(observed: Vec<Observed>) -> Vec<ListedPod> {
    type Key = (String, String, String);
    // Per pod, per (role, container name), the instances.
    let mut pods: BTreeMap<Key, BTreeMap<(String, String), Vec<Observed>>> = BTreeMap::new();
    for c in observed.into_iter().filter(Observed::is_owned) {
        let (Some(ns), Some(name), Some(container)) =
            (c.label(labels::POD_NAMESPACE), c.label(labels::POD_NAME), c.label(labels::CONTAINER_NAME))
        else {
            continue;
        };
        let key = (ns.to_owned(), name.to_owned(), c.label(labels::POD_UID).unwrap_or("").to_owned());
        let role = c.label(labels::ROLE).unwrap_or("app").to_owned();
        let container = container.to_owned();
        pods.entry(key).or_default().entry((role, container)).or_default().push(c);
    }
    pods.into_iter()
        .map(|((namespace, name, uid), by_container)| {
            let (mut infra, mut init, mut containers) = (Instances::default(), Vec::new(), Vec::new());
            for ((role, container), all) in by_container {
                let inst = instances(all);
                match role.as_str() {
                    "infra" => infra = inst,
                    "init" => init.push((container, inst)),
                    _ => containers.push((container, inst)),
                }
            }
            // Never-started ones last: they run after those that did.
            init.sort_by(|(an, a), (bn, b)| {
                let key = |i| started_at(i).map_or((1, String::new()), |s| (0, s.to_owned()));
                key(a).cmp(&key(b)).then_with(|| an.cmp(bn))
            });
            let status = status(&infra, &init, &containers, None, &Notes::new());
            ListedPod { namespace, name, uid, infra, init, containers, status, restart_policy: None, record: None }
        })
        .collect()
}

/// The pod's status with the kubelet's rules (see `compute`), from what the engine shows, and
/// what podrun recorded when there is a record.
fn status(
    infra: &Instances,
    init: &[(String, Instances)],
    containers: &[(String, Instances)],
    record: Option<&PodRecord>,
    notes: &Notes,
) -> PodStatus {
    let notes = with_recorded_messages(notes, record);
    // podrun creates app containers only once initialization is over, so any app container
    // means the pod is initialized (sidecars may still run: they are init containers too).
    let initialized = init.is_empty() || containers.iter().any(|(_, i)| i.current.is_some());
    let recorded = |name: &str| record.and_then(|r| r.container(name));
    // The image as the manifest names it, as the driver recorded it: a container made from
    // an image id (`--auto-update` pins one) shows the reference, not the id.
    let image = |name: &str, i: &Instances| {
        recorded(name)
            .map(|c| c.image.clone())
            .or_else(|| i.current.as_ref().map(|c| c.image.clone()))
            .unwrap_or_default()
    };
    let status_of = |(name, inst): &(String, Instances), default: &str| {
        let mut st = container_status(name, &image(name, inst), inst, &notes, default, None);
        // Readiness a probe decides is what the probe last said while podrun ran it; without
        // a record of it, not ready: nothing probes once podrun has exited.
        if let (Some(_), Some(cur)) = (recorded(name).filter(|c| c.probed), inst.current.as_ref()) {
            st.ready = st.ready && record.is_some_and(|r| r.ready.get(&cur.id) == Some(&true));
        }
        st
    };
    let init_container_statuses: Vec<ContainerStatus> =
        init.iter().map(|c| status_of(c, Reason::PodInitializing.as_str())).collect();
    let app_default = if initialized { Reason::ContainerCreating } else { Reason::PodInitializing }.as_str();
    let container_statuses: Vec<ContainerStatus> = containers.iter().map(|c| status_of(c, app_default)).collect();
    // A regular init container that failed: nothing retries it once podrun has exited, so
    // the pod has failed, as under restartPolicy Never (kubelet_pods.go: getPhase).
    let init_failed = init.iter().zip(&init_container_statuses).any(|((name, _), s)| {
        !recorded(name).is_some_and(|c| c.sidecar) && s.state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
    });
    let infra_running = infra.current.as_ref().filter(|c| c.is_running());
    let pod_ip = infra_running.and_then(|c| c.ip.clone());
    let start_time = started_at(infra).map(str::to_owned);
    let nothing = |all: &[(String, Instances)]| all.iter().all(|(_, i)| i.current.is_none());
    let phase = if infra.current.is_none() && nothing(init) && nothing(containers) {
        Phase::Unknown
    } else {
        phase_seen(init_failed, initialized, &container_statuses)
    };
    let sidecars: Vec<bool> =
        init.iter().map(|(name, inst)| is_sidecar(inst) || recorded(name).is_some_and(|c| c.sidecar)).collect();
    let st = PodStatus::assemble(
        phase,
        initialized,
        pod_ip,
        start_time,
        (init_container_statuses, &sidecars),
        container_statuses,
    )
    .with_host_ips(super::host_ips::of(infra_running))
    .with_qos_class(
        infra
            .current
            .as_ref()
            .and_then(|c| c.label(labels::QOS_CLASS))
            .filter(|q| ["Guaranteed", "Burstable", "BestEffort"].contains(q)),
    )
    .with_sandbox(infra_running.is_some());
    with_record(st, record)
}

/// `notes` with the messages the pod's record keeps (those `notes` has win).
fn with_recorded_messages(notes: &Notes, record: Option<&PodRecord>) -> Notes {
    let mut notes = notes.clone();
    if let Some(r) = record {
        for (id, m) in &r.messages {
            notes.messages.entry(id.clone()).or_insert_with(|| m.clone());
        }
    }
    notes
}

/// The phase of a pod with a container: as its containers' states say once podrun has exited.
fn phase_seen(init_failed: bool, initialized: bool, container_statuses: &[ContainerStatus]) -> Phase {
    if init_failed {
        Phase::Failed
    } else if !initialized {
        Phase::Pending
    } else {
        // The restart policy is in the manifest only. Once podrun has exited nothing restarts a
        // dead container, so a dead one is final: Never's rules say what the pod ended as.
        phase(container_statuses, |_, _| false)
    }
}

/// `st` with what the pod's record keeps: when each condition took its status, the
/// generation, and the pod's own failure.
fn with_record(mut st: PodStatus, record: Option<&PodRecord>) -> PodStatus {
    // When each condition took its status: as recorded while it stays, else the engine's best.
    st = st
        .with_transitions(record.map_or(&[], |r| r.conditions.as_slice()), super::conditions::engine_time)
        .with_generation(record.and_then(|r| r.generation));
    // The pod's own failure (DeadlineExceeded) outlasts the run that saw it.
    if let Some(reason) = record.and_then(|r| r.reason.clone()) {
        st.phase = Phase::Failed;
        st.reason = Some(reason);
        st.message = record.and_then(|r| r.message.clone());
    }
    st
}

/// The STATUS column of `kubectl get pods`, by the rules of kubectl's printPod
/// (pkg/printers/internalversion/printers.go): the pod's reason, else its phase; overridden by
/// the first init container that has not completed (a started sidecar, `sidecars`, does not
/// hold the pod back), and once initialized by the app containers' reasons, the first
/// container's winning; `Completed` beside a ready running container reads `Running` (or
/// `NotReady` without the pod's Ready condition).
pub fn display_status(st: &PodStatus, sidecars: &[bool]) -> String {
    let mut reason = st.reason.clone().unwrap_or_else(|| format!("{:?}", st.phase));
    let initialized = st.conditions.iter().any(|c| c.type_ == "Initialized" && c.status == "True");
    let mut initializing = false;
    let n = st.init_container_statuses.len();
    for (i, c) in st.init_container_statuses.iter().enumerate() {
        let sidecar = sidecars.get(i).copied().unwrap_or(false);
        if c.state.terminated.as_ref().is_some_and(|t| t.exit_code == 0) || (sidecar && c.started) {
            continue;
        }
        reason = if let Some(t) = &c.state.terminated {
            if t.reason.is_empty() {
                format!("Init:ExitCode:{}", t.exit_code)
            } else {
                format!("Init:{}", t.reason)
            }
        } else if let Some(w) =
            c.state.waiting.as_ref().filter(|w| !w.reason.is_empty() && w.reason != Reason::PodInitializing.as_str())
        {
            format!("Init:{}", w.reason)
        } else {
            format!("Init:{i}/{n}")
        };
        initializing = true;
        break;
    }
    if !initializing || initialized {
        let mut has_running = false;
        // In the kubelet's order (by name), which decides whose reason is shown.
        for c in super::types::sorted_by_name(&st.container_statuses).into_iter().rev() {
            if let Some(w) = c.state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
                reason = w.reason.clone();
            } else if let Some(t) = &c.state.terminated {
                reason = if t.reason.is_empty() { format!("ExitCode:{}", t.exit_code) } else { t.reason.clone() };
            } else if c.ready && c.state.running.is_some() {
                has_running = true;
            }
        }
        if reason == Reason::Completed.as_str() && has_running {
            reason = if st.is_ready() { "Running" } else { "NotReady" }.to_owned();
        }
    }
    reason
}

/// The sidecars among `st`'s init containers (`sidecars`, in the same order).
fn sidecar_statuses<'a>(st: &'a PodStatus, sidecars: &'a [bool]) -> impl Iterator<Item = &'a ContainerStatus> {
    st.init_container_statuses.iter().zip(sidecars).filter(|(_, s)| **s).map(|(c, _)| c)
}

/// READY: ready containers out of all of them (`1/2`), sidecars counted with the app
/// containers once started, as kubectl counts them (`sidecars`: which init containers are).
pub fn display_ready(st: &PodStatus, sidecars: &[bool]) -> String {
    let side: Vec<&ContainerStatus> = sidecar_statuses(st, sidecars).collect();
    let ready =
        st.container_statuses.iter().filter(|c| c.ready).count() + side.iter().filter(|c| c.started && c.ready).count();
    format!("{ready}/{}", st.container_statuses.len() + side.len())
}

/// RESTARTS: the init containers' restarts while the pod initializes, then the app
/// containers' and the sidecars', as kubectl sums them.
pub fn restarts(st: &PodStatus, sidecars: &[bool]) -> u32 {
    let sum = |v: &[ContainerStatus]| v.iter().map(|c| c.restart_count).sum::<u32>();
    if st.container_statuses.is_empty() {
        sum(&st.init_container_statuses)
    } else {
        sum(&st.container_statuses) + sidecar_statuses(st, sidecars).map(|c| c.restart_count).sum::<u32>()
    }
}

/// An age as kubectl prints it (apimachinery's HumanDuration): `45s`, `3m20s`, `15m`, `5h10m`,
/// `2d3h`, `400d`, `3y20d`: precise while short, coarser as it grows.
pub fn human_age(d: std::time::Duration) -> String {
    let secs = d.as_secs();
    let (mins, hours, days) = (secs / 60, secs / 3600, secs / 86_400);
    let years = days / 365;
    if secs < 120 {
        format!("{secs}s")
    } else if mins < 10 {
        match secs % 60 {
            0 => format!("{mins}m"),
            s => format!("{mins}m{s}s"),
        }
    } else if hours < 3 {
        format!("{mins}m")
    } else if hours < 8 {
        match mins % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        }
    } else if hours < 48 {
        format!("{hours}h")
    } else if days < 8 {
        match hours % 24 {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        }
    } else if days < 2 * 365 {
        format!("{days}d")
    } else if years < 8 {
        match days % 365 {
            0 => format!("{years}y"),
            d => format!("{years}y{d}d"),
        }
    } else {
        format!("{years}y")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn c(ns: &str, pod: &str, container: &str, role: &str, attempt: u32, state: State) -> Observed {
        let labels = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, ns),
            (labels::POD_NAME, pod),
            (labels::POD_UID, "uid-1"),
            (labels::CONTAINER_NAME, container),
            (labels::ROLE, role),
            (labels::ATTEMPT, &attempt.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        Observed {
            id: format!("{ns}-{pod}-{container}-{attempt}"),
            name: format!("podrun_{ns}_{pod}_{container}_{attempt}"),
            labels,
            image: "busybox:1.28".into(),
            image_id: "sha256:abc".into(),
            state,
            ip: (role == "infra").then(|| "172.17.0.5".into()),
            gateway: (role == "infra").then(|| "172.17.0.1".into()),
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    fn running(at: &str) -> State {
        State::Running { started_at: Some(at.into()) }
    }

    fn exited(code: i64) -> State {
        State::Exited { exit_code: code, started_at: None, finished_at: None, oom_killed: false, error: None }
    }

    #[test]
    fn containers_without_the_seal_are_named_and_left_out() {
        let t = "2024-01-01T00:00:00Z";
        let mut forged: Vec<Observed> =
            (0..7).map(|i| c("ns", "web", &format!("x{i}"), "app", 0, running(t))).collect();
        for (i, f) in forged.iter_mut().enumerate() {
            f.sealed = false;
            f.name = format!("forged{i}");
        }
        let mut stranger = c("ns", "web", "y", "app", 0, running(t));
        stranger.sealed = false;
        stranger.labels.remove(labels::MANAGED);
        let mut all = forged.clone();
        all.push(stranger);
        all.push(c("ns", "web", "POD", "infra", 0, running(t)));
        let mut evil = c("ns\x1b[2J", "db\n", "z", "app", 0, running(t));
        evil.sealed = false;
        evil.name = "evil\x07".into();
        all.push(evil);
        let state = Path::new("/var/lib/podrun");
        let report = unverified_report(&all, state);
        assert_eq!(report.len(), 2, "one line per pod: {report:?}");
        let (web, evil) = (&report[0], &report[1]);
        assert!(web.starts_with("7 container(s) of pod ns/web (forged0, forged1"), "{web}");
        assert!(web.contains("and 2 more)") && !web.contains("forged5"), "{web}");
        assert!(web.contains("not made under this state directory (/var/lib/podrun)"), "{web}");
        assert!(web.contains("PODRUN_STATE_DIR") && web.contains("docker rm -f"), "{web}");
        assert!(evil.starts_with("1 container(s) of pod ns\\u{1b}[2J/db\\n (evil\\u{7})"), "{evil}");
        assert!(!evil.chars().any(char::is_control), "escaped: {evil:?}");
        assert!(
            unverified_report(&all[7..9], state).is_empty(),
            "a container without podrun's labels is no one's concern"
        );
        all.pop();
        let pods = group(all);
        assert_eq!(pods.len(), 1);
        assert!(pods[0].containers.is_empty(), "{:?}", pods[0].containers);
    }

    #[test]
    fn containers_are_grouped_into_pods_with_their_status() {
        let t = "2024-01-01T00:00:00Z";
        let mut stranger = c("ns", "web", "x", "app", 0, running(t));
        // podrun's labels, copied whole, without its seal: what an image can carry.
        stranger.sealed = false;
        let pods = group(vec![
            c("ns", "web", "b", "app", 0, running(t)),
            c("other", "db", "POD", "infra", 0, running(t)),
            c("ns", "web", "POD", "infra", 0, running(t)),
            c("ns", "web", "a", "app", 2, running(t)),
            c("ns", "web", "a", "app", 1, exited(1)),
            c("ns", "web", "a", "app", 0, exited(1)),
            stranger,
        ]);
        assert_eq!(
            pods.iter().map(|p| (p.namespace.as_str(), p.name.as_str())).collect::<Vec<_>>(),
            [("ns", "web"), ("other", "db")]
        );
        let web = &pods[0];
        assert_eq!(web.container_names(), ["a", "b"]);
        let a = web.instances("a").expect("a");
        assert_eq!(a.current.as_ref().map(attempt_of), Some(2));
        assert_eq!(a.previous.as_ref().map(attempt_of), Some(1));
        let st = &web.status;
        assert_eq!(st.phase, Phase::Running);
        assert_eq!(st.pod_ip.as_deref(), Some("172.17.0.5"));
        // The node's address: the engine host's on the pod's network.
        assert_eq!(st.host_ip.as_deref(), Some("172.17.0.1"));
        assert_eq!(st.host_ips, [crate::status::PodIp { ip: "172.17.0.1".into() }]);
        assert_eq!(st.start_time.as_deref(), Some(t));
        assert_eq!(st.container_statuses[0].restart_count, 2);
        assert!(st.container_statuses[0].last_state.terminated.is_some());
        assert_eq!(
            (display_ready(st, &[]), display_status(st, &[]), restarts(st, &[])),
            ("2/2".into(), "Running".into(), 2)
        );
        // A pod with only its infra container has nothing to show but its phase.
        assert_eq!(display_ready(&pods[1].status, &[]), "0/0");
    }

    #[test]
    fn ready_and_restarts_count_sidecars_as_kubectl_does() {
        let t = "2024-01-01T00:00:00Z";
        let mut side = c("ns", "web", "proxy", "init", 3, running(t));
        side.labels.insert(labels::SIDECAR.to_owned(), "1".to_owned());
        let mut setup = c("ns", "web", "setup", "init", 0, exited(0));
        setup.labels.insert(labels::SIDECAR.to_owned(), String::new());
        let pods = group(vec![
            c("ns", "web", "POD", "infra", 0, running(t)),
            setup,
            side,
            c("ns", "web", "a", "app", 1, running(t)),
        ]);
        let web = &pods[0];
        let sidecars = web.sidecars();
        assert_eq!(sidecars.iter().filter(|s| **s).count(), 1, "{sidecars:?}");
        assert_eq!(display_ready(&web.status, &sidecars), "2/2");
        assert_eq!(restarts(&web.status, &sidecars), 4, "the app container's 1 and the sidecar's 3");
        assert!(web.status.is_ready());
    }

    #[test]
    fn the_status_column_names_the_telling_reason() {
        let t = "2024-01-01T00:00:00Z";
        let pod =
            |cs: Vec<Observed>| group(cs).pop().map(|p| display_status(&p.status, &p.sidecars())).unwrap_or_default();
        let infra = || c("ns", "p", "POD", "infra", 0, running(t));
        assert_eq!(pod(vec![infra(), c("ns", "p", "a", "app", 1, exited(1))]), "Error");
        assert_eq!(pod(vec![infra(), c("ns", "p", "a", "app", 0, exited(0))]), "Completed");
        assert_eq!(pod(vec![infra(), c("ns", "p", "a", "app", 0, State::Created)]), "ContainerCreating");
        // One completed, one running: not every container is ready, as kubectl says it.
        assert_eq!(
            pod(vec![infra(), c("ns", "p", "a", "app", 0, exited(0)), c("ns", "p", "b", "app", 0, running(t))]),
            "NotReady"
        );
        assert_eq!(pod(vec![infra(), c("ns", "p", "i", "init", 0, running(t))]), "Init:0/1");
        assert_eq!(pod(vec![infra(), c("ns", "p", "i", "init", 0, exited(2))]), "Init:Error");
        // A sidecar still running does not hold the pod back.
        let mut side = c("ns", "p", "i", "init", 0, running(t));
        side.labels.insert(labels::SIDECAR.to_owned(), "1".to_owned());
        assert_eq!(pod(vec![infra(), side, c("ns", "p", "a", "app", 0, running(t))]), "Running");
    }

    #[test]
    fn a_record_fills_in_what_the_engine_cannot_tell() {
        let t = "2024-01-01T00:00:00Z";
        let rc = |name: &str, probed: bool| RecordedContainer {
            name: name.into(),
            image: "busybox:1.28".into(),
            probed,
            ..RecordedContainer::default()
        };
        let record = PodRecord {
            restart_policy: crate::manifest::types::RestartPolicy::Never,
            init_containers: vec![rc("i", false)],
            containers: vec![rc("b", false), rc("a", false)],
            ready: BTreeMap::new(),
            messages: BTreeMap::new(),
            reason: None,
            message: None,
            start_time: None,
            conditions: vec![crate::pod::record::RecordedCondition {
                type_: "Ready".into(),
                status: "False".into(),
                last_transition_time: Some("2026-01-01T00:00:07Z".into()),
            }],
            generation: Some(2),
            spec_digest: None,
            probes: None,
            metadata: None,
            spec: None,
        };
        // A failed init container: the pod failed (getPhase), and the app containers it held
        // back wait with PodInitializing, in the manifest's order.
        let failed = group(vec![c("ns", "p", "POD", "infra", 0, running(t)), c("ns", "p", "i", "init", 0, exited(3))]);
        let p = failed[0].clone().with_record(Some(&record), &Notes::new());
        assert_eq!(p.status.phase, Phase::Failed);
        let waiting: Vec<(&str, &str)> = p
            .status
            .container_statuses
            .iter()
            .map(|s| (s.name.as_str(), s.state.waiting.as_ref().map_or("", |w| w.reason.as_str())))
            .collect();
        assert_eq!(waiting, [("b", "PodInitializing"), ("a", "PodInitializing")]);
        assert_eq!(display_status(&p.status, &[]), "Init:Error");
        // The record's generation is observed, and a condition whose status stayed keeps its time.
        assert_eq!(p.status.observed_generation, Some(2));
        let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready").expect("Ready");
        assert_eq!(
            (ready.status.as_str(), ready.last_transition_time.as_deref()),
            ("False", Some("2026-01-01T00:00:07Z"))
        );
        assert!(p.status.conditions.iter().all(|c| c.observed_generation == Some(2)));
        // Without a record the engine alone tells: failed too, but no app containers to show.
        assert_eq!(failed[0].status.phase, Phase::Failed);

        // A probed container is ready only as its probe last said while podrun ran it.
        let probed = PodRecord { containers: vec![rc("a", true)], init_containers: vec![], ..record.clone() };
        let pods = group(vec![c("ns", "p", "POD", "infra", 0, running(t)), c("ns", "p", "a", "app", 0, running(t))]);
        let ready =
            |r: &PodRecord| pods[0].clone().with_record(Some(r), &Notes::new()).status.container_statuses[0].ready;
        assert!(!ready(&probed), "never seen ready: not ready");
        let id = "ns-p-a-0".to_owned();
        assert!(ready(&PodRecord { ready: BTreeMap::from([(id.clone(), true)]), ..probed.clone() }));
        assert!(!ready(&PodRecord { ready: BTreeMap::from([(id, false)]), ..probed.clone() }));
        assert!(pods[0].status.container_statuses[0].ready, "no probe on record: ready while running");

        // Termination messages, from the record or read since; the pod's own failure.
        let done = group(vec![c("ns", "p", "POD", "infra", 0, exited(0)), c("ns", "p", "a", "app", 0, exited(137))]);
        let mut notes = Notes::new();
        notes.messages.insert("ns-p-a-0".into(), "bye".into());
        let deadline = PodRecord {
            reason: Some("DeadlineExceeded".into()),
            message: Some("Pod was active on the node longer than the specified deadline".into()),
            ..probed
        };
        let st = done[0].clone().with_record(Some(&deadline), &notes).status;
        assert_eq!((st.phase, st.reason.as_deref()), (Phase::Failed, Some("DeadlineExceeded")));
        let t = st.container_statuses[0].state.terminated.as_ref().expect("terminated");
        assert_eq!(t.message.as_deref(), Some("bye"));
    }

    #[test]
    fn ages_read_as_kubectl_prints_them() {
        let s = Duration::from_secs;
        for (secs, want) in [
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (200, "3m20s"),
            (15 * 60 + 5, "15m"),
            (3 * 3600, "3h"),
            (5 * 3600 + 600, "5h10m"),
            (30 * 3600, "30h"),
            (51 * 3600, "2d3h"),
            (400 * 86_400, "400d"),
            (3 * 365 * 86_400 + 20 * 86_400, "3y20d"),
            (9 * 365 * 86_400, "9y"),
        ] {
            assert_eq!(human_age(s(secs)), want, "{secs}s");
        }
    }
}
