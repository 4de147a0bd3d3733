//! A container's CPU and memory settings, and its pod's cgroup limits, from the manifest's
//! resources with the kubelet's arithmetic (kuberuntime_container_linux.go,
//! calculateLinuxResources): CPU limits become a CFS quota over a 100 ms period, CPU requests
//! become shares, memory in bytes. With pod-level resources (`spec.resources`), a container
//! that sets no CPU or memory limit of its own takes the pod's (getCPULimit, getMemoryLimit),
//! and the pod gets a cgroup of its own with the pod's limits (pod_container_manager).

use std::collections::BTreeMap;

use crate::manifest::quantity::Quantity;
use crate::manifest::types::{Container, Pod};
use crate::runtime::{CpuSettings, PodCgroup};

/// The kubelet's CFS period, and its floor for quotas and shares.
pub(crate) const CPU_PERIOD_US: i64 = 100_000;
const MIN_QUOTA_US: i64 = 1000;
pub(crate) const MIN_SHARES: i64 = 2;
/// The kubelet's `MaxShares` (MilliCPUToShares clamps to it).
pub(crate) const MAX_SHARES: i64 = 262_144;
/// The kernel's largest CFS quota (`max_cfs_runtime`, 2^44-1 µs, about 175 million CPUs per
/// 100 ms period); a larger one is EINVAL, so a limit beyond it is as good as none.
pub(crate) const MAX_QUOTA_US: i64 = (1 << 44) - 1;

fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

fn quantity(map: &BTreeMap<String, String>, key: &str) -> Option<Quantity> {
    map.get(key).and_then(|q| Quantity::parse(q).ok())
}

/// calculateLinuxResources in millicores: a zero (or unset) limit sets no quota; shares come
/// from the request, or from the limit when the request is zero.
fn cpu_settings(limit_milli: i128, request_milli: i128) -> CpuSettings {
    let shares_milli = if request_milli == 0 { limit_milli } else { request_milli };
    CpuSettings {
        quota: (limit_milli > 0).then(|| {
            let quota = limit_milli.saturating_mul(i128::from(CPU_PERIOD_US)) / 1000;
            clamp_i64(quota.clamp(i128::from(MIN_QUOTA_US), i128::from(MAX_QUOTA_US)))
        }),
        period: (limit_milli > 0).then_some(CPU_PERIOD_US),
        shares: Some(clamp_i64(
            (shares_milli.saturating_mul(1024) / 1000).clamp(i128::from(MIN_SHARES), i128::from(MAX_SHARES)),
        )),
    }
}

/// The pod's own limit of `resource`, when it sets a nonzero one.
fn pod_limit(pod: &Pod, resource: &str) -> Option<Quantity> {
    let res = pod.spec.resources.as_ref()?;
    quantity(&res.limits, resource).filter(|q| !q.is_zero())
}

/// A container's CPU settings, memory limit and memory reservation (bytes).
pub fn container_resources(pod: &Pod, c: &Container) -> (CpuSettings, Option<i64>, Option<i64>) {
    let res = c.resources.clone().unwrap_or_default();
    let own = |name: &str| quantity(&res.limits, name).filter(|q| !q.is_zero());
    let cpu_limit = own("cpu").or_else(|| pod_limit(pod, "cpu"));
    let limit_milli = cpu_limit.map_or(0, |q| q.milli_ceil());
    // The API server has already copied an unset request from the container's own limit.
    let own_limit_milli = quantity(&res.limits, "cpu").map_or(0, |q| q.milli_ceil());
    let request_milli = quantity(&res.requests, "cpu").map_or(own_limit_milli, |q| q.milli_ceil());
    let cpu = cpu_settings(limit_milli, request_milli);
    // Validation keeps these within 64 bits; the clamp only makes sure nothing ever wraps.
    let memory_limit = own("memory").or_else(|| pod_limit(pod, "memory")).map(|q| clamp_i64(q.value_ceil()));
    let memory_reservation = quantity(&res.requests, "memory").map(|q| clamp_i64(q.value_ceil()));
    (cpu, memory_limit, memory_reservation)
}

/// The pod's cgroup, when it sets pod-level limits: its CPU quota and memory limit, and
/// shares from its request as the API server defaults it.
pub fn pod_cgroup(pod: &Pod) -> Option<PodCgroup> {
    let res = pod.spec.resources.as_ref()?;
    if !res.limits.keys().any(|k| k == "cpu" || k == "memory") {
        return None;
    }
    let requests = super::qos::pod_level_requests(pod);
    let limit_milli = pod_limit(pod, "cpu").map_or(0, |q| q.milli_ceil());
    let request_milli = quantity(&requests, "cpu").map_or(0, |q| q.milli_ceil());
    Some(PodCgroup {
        cpu: cpu_settings(limit_milli, request_milli),
        memory_limit: pod_limit(pod, "memory").map(|q| clamp_i64(q.value_ceil())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::manifest::test_pod as pod;

    // pod_level_resources.go: the pod cgroup gets the pod's limits; a container without
    // limits of its own runs with the pod's (getCPULimit, getMemoryLimit).
    #[test]
    fn pod_level_limits_make_the_pod_cgroup_and_fill_unlimited_containers() {
        let p = pod("spec:\n  resources: {limits: {cpu: 500m, memory: 48Mi}, requests: {cpu: 250m}}\n  containers:\n  - {name: a, image: x}\n  - {name: b, image: x, resources: {limits: {cpu: 100m, memory: 16Mi}}}\n");
        let cg = pod_cgroup(&p).unwrap();
        assert_eq!(cg.memory_limit, Some(48 << 20));
        assert_eq!(cg.cpu, CpuSettings { quota: Some(50_000), period: Some(100_000), shares: Some(256) });
        let (cpu, mem, _) = container_resources(&p, &p.spec.containers[0]);
        assert_eq!((cpu.quota, mem), (Some(50_000), Some(48 << 20)), "the pod's limits");
        assert_eq!(cpu.shares, Some(512), "no request of its own: shares from the limit");
        let (cpu, mem, _) = container_resources(&p, &p.spec.containers[1]);
        assert_eq!((cpu.quota, mem), (Some(10_000), Some(16 << 20)), "its own limits");
        // Requests alone make no pod cgroup; no pod resources, none either.
        assert_eq!(
            pod_cgroup(&pod("spec:\n  resources: {requests: {cpu: 250m}}\n  containers: [{name: a, image: x}]\n")),
            None
        );
        assert_eq!(pod_cgroup(&pod("spec:\n  containers: [{name: a, image: x}]\n")), None);
    }
}
