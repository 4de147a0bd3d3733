//! Pod status in the shape of the Kubernetes API (`status` of a v1 Pod), so `-o json` output
//! works with the jq recipes people already have for `kubectl get pod -o json`.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Phase {
    Pending,
    Running,
    Succeeded,
    Failed,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    pub phase: Phase,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The node address of the engine's host (of a remote engine's, its network's gateway).
    #[serde(rename = "hostIP", skip_serializing_if = "Option::is_none")]
    pub host_ip: Option<String>,
    #[serde(rename = "hostIPs", skip_serializing_if = "Vec::is_empty")]
    pub host_ips: Vec<PodIp>,
    #[serde(rename = "podIP", skip_serializing_if = "Option::is_none")]
    pub pod_ip: Option<String>,
    #[serde(rename = "podIPs", skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<PodIp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init_container_statuses: Vec<ContainerStatus>,
    /// In the pod's order here; written sorted by name, as the kubelet reports them
    /// (`SortedContainerStatuses`), so `-o json` lists them as a cluster does.
    #[serde(serialize_with = "by_name")]
    pub container_statuses: Vec<ContainerStatus>,
    /// Guaranteed, Burstable or BestEffort (`pod::qos`).
    #[serde(rename = "qosClass", skip_serializing_if = "Option::is_none")]
    pub qos_class: Option<String>,
    /// The pod's `metadata.generation` this status was made for (`status::conditions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// The app containers' statuses sorted by name (init containers keep the pod's order).
pub fn sorted_by_name(statuses: &[ContainerStatus]) -> Vec<&ContainerStatus> {
    let mut sorted: Vec<&ContainerStatus> = statuses.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted
}

fn by_name<S: serde::Serializer>(statuses: &[ContainerStatus], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(sorted_by_name(statuses))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PodIp {
    pub ip: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    /// "True" or "False", as strings, as in the API.
    pub status: String,
    /// The pod's generation when it was last set, as the kubelet writes it on each condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// When its status last changed (RFC 3339, to the second; `status::conditions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<String>,
}

impl Condition {
    pub fn new(type_: &str, ok: bool) -> Condition {
        Condition {
            type_: type_.to_owned(),
            status: if ok { "True" } else { "False" }.to_owned(),
            observed_generation: None,
            last_transition_time: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: String,
    pub state: ContainerState,
    pub last_state: ContainerState,
    pub ready: bool,
    pub restart_count: u32,
    pub image: String,
    #[serde(rename = "imageID")]
    pub image_id: String,
    #[serde(rename = "containerID", skip_serializing_if = "Option::is_none")]
    pub container_id: Option<String>,
    pub started: bool,
    /// The CPU and memory the running container has (in-place resize): absent while a resize
    /// has not reached it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<ContainerResources>,
    /// The CPU and memory requests allocated to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated_resources: Option<std::collections::BTreeMap<String, String>>,
}

/// A container's CPU and memory requests and limits, as its status reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ContainerResources {
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub limits: std::collections::BTreeMap<String, String>,
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub requests: std::collections::BTreeMap<String, String>,
}

/// Exactly one of the three is set, except in `lastState`, which is empty before a restart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ContainerState {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<Running>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminated: Option<Terminated>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiting {
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Running {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Terminated {
    pub exit_code: i64,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    #[serde(rename = "containerID", skip_serializing_if = "Option::is_none")]
    pub container_id: Option<String>,
}

impl ContainerState {
    pub fn waiting(reason: &str, message: Option<String>) -> Self {
        ContainerState { waiting: Some(Waiting { reason: reason.to_owned(), message }), ..Default::default() }
    }

    /// One word for tables: the waiting or terminated reason, or `Running`.
    pub fn summary(&self) -> String {
        if let Some(w) = &self.waiting {
            w.reason.clone()
        } else if self.running.is_some() {
            "Running".to_owned()
        } else if let Some(t) = &self.terminated {
            t.reason.clone()
        } else {
            "Unknown".to_owned()
        }
    }

    /// A line for people: `Running`, `Waiting: ContainerCreating`, `Terminated: Error (exit code 1)`.
    pub fn describe(&self) -> String {
        if let Some(w) = &self.waiting {
            match &w.message {
                Some(m) => format!("Waiting: {} ({m})", w.reason),
                None => format!("Waiting: {}", w.reason),
            }
        } else if self.running.is_some() {
            "Running".to_owned()
        } else if let Some(t) = &self.terminated {
            match t.message.as_deref().map(one_line).filter(|m| !m.is_empty()) {
                Some(m) => format!("Terminated: {} (exit code {}): {m}", t.reason, t.exit_code),
                None => format!("Terminated: {} (exit code {})", t.reason, t.exit_code),
            }
        } else {
            "Unknown".to_owned()
        }
    }
}

/// A message on one line, for reports: its last non-empty line (where a failure's reason
/// usually is), marked when there was more.
fn one_line(m: &str) -> String {
    let lines: Vec<&str> = m.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    match lines.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [.., last] => format!("… {last}"),
    }
}

impl ContainerStatus {
    /// The state as `describe` gives it, and for a running container whether it is ready.
    pub fn describe(&self) -> String {
        match (&self.state.running, self.ready) {
            (Some(_), false) => format!("{}, not ready", self.state.describe()),
            _ => self.state.describe(),
        }
    }
}

impl PodStatus {
    /// A pod status from its parts, with the conditions Kubernetes derives from them: the pod
    /// is Ready when it is initialized and every app container and every sidecar (`sidecars`:
    /// which init containers are) is ready (status/generate.go: GenerateContainersReadyCondition).
    pub fn assemble(
        phase: Phase,
        initialized: bool,
        pod_ip: Option<String>,
        start_time: Option<String>,
        (init_container_statuses, sidecars): (Vec<ContainerStatus>, &[bool]),
        container_statuses: Vec<ContainerStatus>,
    ) -> PodStatus {
        let sidecars_ready = init_container_statuses.iter().zip(sidecars).all(|(c, sidecar)| !sidecar || c.ready);
        let all_ready = initialized
            && sidecars_ready
            && !container_statuses.is_empty()
            && container_statuses.iter().all(|c| c.ready);
        let cond = Condition::new;
        PodStatus {
            phase,
            conditions: vec![
                cond("PodScheduled", true),
                cond("Initialized", initialized),
                cond("ContainersReady", all_ready),
                cond("Ready", all_ready),
            ],
            message: None,
            reason: None,
            host_ip: None,
            host_ips: Vec::new(),
            pod_ips: pod_ip.iter().map(|ip| PodIp { ip: ip.clone() }).collect(),
            pod_ip,
            start_time,
            init_container_statuses,
            container_statuses,
            qos_class: None,
            observed_generation: None,
        }
    }

    /// Sets `hostIP` and `hostIPs` (`super::host_ips::of`: the node's addresses, the primary
    /// first); a hostNetwork pod's `podIP` and `podIPs` are the same, as the kubelet sets them.
    pub fn with_host_ips(mut self, (ips, host_network): (Vec<String>, bool)) -> PodStatus {
        self.host_ips = ips.iter().map(|ip| PodIp { ip: ip.clone() }).collect();
        self.host_ip = ips.first().cloned();
        if host_network && self.pod_ip.is_some() {
            self.pod_ip.clone_from(&self.host_ip);
            self.pod_ips.clone_from(&self.host_ips);
        }
        self
    }

    /// Its Ready condition.
    pub fn is_ready(&self) -> bool {
        self.conditions.iter().any(|c| c.type_ == "Ready" && c.status == "True")
    }

    /// Sets `qosClass`.
    pub fn with_qos_class(mut self, class: Option<&str>) -> PodStatus {
        self.qos_class = class.map(str::to_owned);
        self
    }

    /// Init containers first, then app containers.
    pub fn all(&self) -> impl Iterator<Item = &ContainerStatus> {
        self.init_container_statuses.iter().chain(&self.container_statuses)
    }
}
