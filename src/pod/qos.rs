//! A pod's QoS class and its containers' OOM score adjustment, as the kubelet computes them:
//! the class from the pod-level resources when the pod has them, else from the requests and
//! limits of every container (pkg/apis/core/v1/helper/qos, ComputePodQOS), the score from the class, the container's memory request against the
//! node's memory, and whether the pod is node-critical (pkg/kubelet/qos/policy.go,
//! GetContainerOOMScoreAdjust). Every pod podrun runs is a static pod to the kubelet's eyes
//! (a file source), so one whose priorityClassName is `system-node-critical` is node-critical
//! (pkg/kubelet/types/pod_update.go, IsNodeCriticalPod).

use std::collections::BTreeMap;

use crate::manifest::quantity::Quantity;
use crate::manifest::types::{Container, ContainerRestartPolicy, Pod};

/// The kubelet's score for a Guaranteed (or node-critical) pod's containers.
pub const GUARANTEED: i64 = -997;
/// Its score for a BestEffort pod's containers.
pub const BEST_EFFORT: i64 = 1000;
/// The pod sandbox's score (containerd's and CRI-O's default for the pause container, the
/// kubelet's PodInfraOOMAdj of old).
pub const INFRA: i64 = -998;

/// The priority class that makes a static pod node-critical.
pub const SYSTEM_NODE_CRITICAL: &str = "system-node-critical";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QosClass {
    Guaranteed,
    Burstable,
    BestEffort,
}

impl QosClass {
    pub fn as_str(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "Guaranteed",
            QosClass::Burstable => "Burstable",
            QosClass::BestEffort => "BestEffort",
        }
    }
}

/// A container's positive `cpu` and `memory` quantities (the only resources QoS counts).
fn positive(map: &BTreeMap<String, String>) -> impl Iterator<Item = (&str, Quantity)> {
    map.iter()
        .filter(|(name, _)| matches!(name.as_str(), "cpu" | "memory"))
        .filter_map(|(name, q)| Some((name.as_str(), Quantity::parse(q).ok()?)))
        .filter(|(_, q)| !q.is_zero() && !q.is_negative())
}

/// A container's requests as the API server leaves them: a resource with a limit and no
/// request is requested at its limit (SetDefaults_Pod).
fn defaulted_requests(c: &Container) -> BTreeMap<String, String> {
    let Some(res) = &c.resources else { return BTreeMap::new() };
    let mut out = res.limits.clone();
    out.extend(res.requests.clone());
    out
}

/// The pod-level requests as the API server leaves them (defaultPodRequests): a supported
/// resource the pod limits and does not request is requested at what its containers request
/// together, or, when none of them requests it, at the pod's limit.
pub fn pod_level_requests(pod: &Pod) -> BTreeMap<String, String> {
    let Some(res) = &pod.spec.resources else { return BTreeMap::new() };
    let mut out = res.requests.clone();
    if res.limits.is_empty() {
        return out;
    }
    for name in ["cpu", "memory"] {
        let containers = crate::manifest::validate::aggregate_requests(&pod.spec, name);
        if !out.contains_key(name) && !containers.is_zero() {
            out.insert(name.to_owned(), containers.to_string());
        }
    }
    for (name, limit) in &res.limits {
        if matches!(name.as_str(), "cpu" | "memory") || name.starts_with("hugepages-") {
            out.entry(name.clone()).or_insert_with(|| limit.clone());
        }
    }
    out
}

/// ComputePodQOS: from the pod-level resources when the pod has them (its requests as the API
/// server defaults them; Guaranteed only when it limits both cpu and memory at what it
/// requests), else from the containers. BestEffort without any cpu or memory request or
/// limit; Guaranteed when every container limits both cpu and memory and the pod's summed
/// requests equal its summed limits; Burstable otherwise.
pub fn pod_qos(pod: &Pod) -> QosClass {
    if let Some(res) = &pod.spec.resources {
        let requests: BTreeMap<String, Quantity> =
            positive(&pod_level_requests(pod)).map(|(n, q)| (n.to_owned(), q)).collect();
        let limits: BTreeMap<String, Quantity> = positive(&res.limits).map(|(n, q)| (n.to_owned(), q)).collect();
        let guaranteed = res.limits.is_empty() || (limits.contains_key("cpu") && limits.contains_key("memory"));
        return classify(&requests, &limits, guaranteed);
    }
    let mut requests: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut limits: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut guaranteed = true;
    for c in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
        let Some(res) = &c.resources else {
            guaranteed = false;
            continue;
        };
        let requested = defaulted_requests(c);
        for (name, q) in positive(&requested) {
            let sum = requests.remove(name).map_or(q, |s| s.saturating_add(q));
            requests.insert(name.to_owned(), sum);
        }
        let mut found = Vec::new();
        for (name, q) in positive(&res.limits) {
            found.push(name);
            let sum = limits.remove(name).map_or(q, |s| s.saturating_add(q));
            limits.insert(name.to_owned(), sum);
        }
        if !(found.contains(&"cpu") && found.contains(&"memory")) {
            guaranteed = false;
        }
    }
    classify(&requests, &limits, guaranteed)
}

fn classify(requests: &BTreeMap<String, Quantity>, limits: &BTreeMap<String, Quantity>, guaranteed: bool) -> QosClass {
    if requests.is_empty() && limits.is_empty() {
        return QosClass::BestEffort;
    }
    let equal = requests.iter().all(|(name, r)| limits.get(name).is_some_and(|l| l.nanos() == r.nanos()));
    if guaranteed && equal && requests.len() == limits.len() {
        QosClass::Guaranteed
    } else {
        QosClass::Burstable
    }
}

/// Whether the pod is node-critical: a static pod of the `system-node-critical` class.
pub fn is_node_critical(pod: &Pod) -> bool {
    pod.spec.priority_class_name.as_deref() == Some(SYSTEM_NODE_CRITICAL)
}

fn memory_request(c: &Container) -> i128 {
    defaulted_requests(c).get("memory").and_then(|q| Quantity::parse(q).ok()).map_or(0, |q| q.value_ceil())
}

/// GetContainerOOMScoreAdjust for container `c` of `pod` on a node with `memory_capacity`
/// bytes: -997 for a node-critical or Guaranteed pod, 1000 for BestEffort; for Burstable,
/// 1000 - 1000 * request / capacity, at most that of the pod's smallest regular container for
/// a sidecar, kept within 3..=999 (above Guaranteed, below BestEffort).
pub fn oom_score_adj(pod: &Pod, c: &Container, memory_capacity: u64) -> i64 {
    if is_node_critical(pod) {
        return GUARANTEED;
    }
    match pod_qos(pod) {
        QosClass::Guaranteed => return GUARANTEED,
        QosClass::BestEffort => return BEST_EFFORT,
        QosClass::Burstable => {}
    }
    let capacity = i128::from(memory_capacity.max(1));
    let score = |request: i128| 1000 - (1000 * request) / capacity;
    let mut adj = score(memory_request(c));
    let sidecar = c.restart_policy == Some(ContainerRestartPolicy::Always)
        && pod.spec.init_containers.iter().any(|i| i.name == c.name);
    if sidecar {
        let min = pod.spec.containers.iter().map(memory_request).min().unwrap_or(0);
        adj = adj.min(score(min));
    }
    let adj = i64::try_from(adj).unwrap_or(i64::MIN);
    if adj < 1000 + GUARANTEED {
        1000 + GUARANTEED
    } else if adj == BEST_EFFORT {
        adj - 1
    } else {
        adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};

    fn pod(yaml: &str) -> Pod {
        let source = Source::from_text("t.yaml", &format!("apiVersion: v1\nkind: Pod\n{yaml}"));
        load(&source, &LoadOptions::default()).unwrap().pods.remove(0).pod
    }

    const GIB: u64 = 1 << 30;

    #[test]
    fn qos_classes_as_compute_pod_qos_has_them() {
        let best = pod("metadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n");
        assert_eq!(pod_qos(&best), QosClass::BestEffort);
        let guaranteed = pod("metadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x, resources: {limits: {cpu: 500m, memory: 64Mi}, requests: {cpu: 500m, memory: 64Mi}}}\n");
        assert_eq!(pod_qos(&guaranteed), QosClass::Guaranteed);
        // Limits alone: the API server requests them too.
        let limits = pod("metadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x, resources: {limits: {cpu: 500m, memory: 64Mi}}}\n");
        assert_eq!(pod_qos(&limits), QosClass::Guaranteed);
        // Every container must limit both; an init container counts.
        let init = pod("metadata: {name: p}\nspec:\n  initContainers: [{name: i, image: x}]\n  containers:\n  - {name: c, image: x, resources: {limits: {cpu: 500m, memory: 64Mi}, requests: {cpu: 500m, memory: 64Mi}}}\n");
        assert_eq!(pod_qos(&init), QosClass::Burstable);
        let burstable = pod("metadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x, resources: {requests: {memory: 64Mi}}}\n");
        assert_eq!(pod_qos(&burstable), QosClass::Burstable);
        // Only cpu and memory count; a zero request is no request.
        let other = pod("metadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x, resources: {requests: {ephemeral-storage: 1Gi, cpu: '0'}}}\n");
        assert_eq!(pod_qos(&other), QosClass::BestEffort);
    }

    // qos_test.go's pod-level cases: the pod's resources decide, whatever its containers say.
    #[test]
    fn pod_level_resources_decide_the_class() {
        let class = |res: &str, containers: &str| {
            pod_qos(&pod(&format!("metadata: {{name: p}}\nspec:\n  resources: {res}\n  containers:\n{containers}")))
        };
        let plain = "  - {name: c, image: x}\n";
        assert_eq!(class("{limits: {cpu: 500m, memory: 48Mi}}", plain), QosClass::Guaranteed);
        assert_eq!(
            class("{limits: {cpu: 500m, memory: 48Mi}, requests: {cpu: 500m, memory: 48Mi}}", plain),
            QosClass::Guaranteed
        );
        assert_eq!(class("{limits: {memory: 48Mi}}", plain), QosClass::Burstable, "cpu unlimited");
        assert_eq!(class("{requests: {cpu: 100m}}", plain), QosClass::Burstable);
        assert_eq!(class("{limits: {cpu: 500m, memory: 48Mi}, requests: {cpu: 100m}}", plain), QosClass::Burstable);
        assert_eq!(class("{}", plain), QosClass::BestEffort);
        // A container's request becomes the pod's (defaultPodRequests): no longer at the limit.
        let requesting = "  - {name: c, image: x, resources: {requests: {cpu: 100m}}}\n";
        assert_eq!(class("{limits: {cpu: 500m, memory: 48Mi}}", requesting), QosClass::Burstable);
        // Containers alone would make it Guaranteed; the pod's resources say Burstable.
        let guaranteed = "  - {name: c, image: x, resources: {limits: {cpu: 100m, memory: 8Mi}}}\n";
        assert_eq!(class("{requests: {memory: 8Mi}}", guaranteed), QosClass::Burstable);
    }

    #[test]
    fn oom_scores_as_the_kubelet_gives_them() {
        let best = pod("metadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n");
        assert_eq!(oom_score_adj(&best, &best.spec.containers[0], 4 * GIB), 1000);
        let guaranteed = pod("metadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x, resources: {limits: {cpu: '1', memory: 1Gi}, requests: {cpu: '1', memory: 1Gi}}}\n");
        assert_eq!(oom_score_adj(&guaranteed, &guaranteed.spec.containers[0], 4 * GIB), -997);
        // Burstable: 1000 - 1000 * 1 GiB / 4 GiB.
        let burstable = pod("metadata: {name: p}\nspec:\n  initContainers:\n  - {name: s, image: x, restartPolicy: Always, resources: {requests: {memory: 16Mi}}}\n  containers:\n  - {name: c, image: x, resources: {requests: {memory: 1Gi}}}\n  - {name: d, image: x, resources: {requests: {memory: 2Gi}}}\n  - {name: e, image: x, resources: {requests: {memory: 4Gi}}}\n  - {name: f, image: x, resources: {requests: {cpu: 100m}}}\n");
        let adj = |i: usize| oom_score_adj(&burstable, &burstable.spec.containers[i], 4 * GIB);
        assert_eq!((adj(0), adj(1)), (750, 500));
        assert_eq!(adj(2), 3, "never down to a Guaranteed pod's");
        assert_eq!(adj(3), 999, "never up to a BestEffort pod's");
        // 1000 - 1000 * 16 MiB / 4 GiB, as the smallest regular container (f) asks for less.
        assert_eq!(oom_score_adj(&burstable, &burstable.spec.init_containers[0], 4 * GIB), 997);
        // A sidecar scores no higher than the pod's smallest regular container.
        let sidecar = pod("metadata: {name: p}\nspec:\n  initContainers:\n  - {name: s, image: x, restartPolicy: Always, resources: {requests: {memory: 16Mi}}}\n  containers:\n  - {name: c, image: x, resources: {requests: {memory: 1Gi}}}\n");
        assert_eq!(oom_score_adj(&sidecar, &sidecar.spec.init_containers[0], 4 * GIB), 750);
        let critical = pod("metadata: {name: p}\nspec:\n  priorityClassName: system-node-critical\n  containers: [{name: c, image: x}]\n");
        assert_eq!(oom_score_adj(&critical, &critical.spec.containers[0], 4 * GIB), -997);
        let cluster = pod("metadata: {name: p}\nspec:\n  priorityClassName: system-cluster-critical\n  containers: [{name: c, image: x}]\n");
        assert_eq!(oom_score_adj(&cluster, &cluster.spec.containers[0], 4 * GIB), 1000, "not node-critical");
    }
}
