//! The downward API: values of a pod's own fields (`fieldRef`) and of its containers' resources
//! (`resourceFieldRef`), for environment variables and downwardAPI volume files, computed as
//! the kubelet computes them.

use crate::manifest::quantity::Quantity;
use crate::manifest::types::{Container, Pod, ResourceFieldSelector};

/// What only the running pod and its host can tell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodFacts {
    pub pod_ip: Option<String>,
    /// The host's address as the pod sees it.
    pub host_ip: Option<String>,
    /// The host's name (a pod's `spec.nodeName` on a single host).
    pub node_name: String,
    /// Node allocatable, for limits a container does not set: CPUs and bytes of memory.
    pub host_cpus: u64,
    pub host_memory: u64,
}

impl PodFacts {
    /// The host's name, CPU count and memory, read from /proc.
    pub fn of_host() -> PodFacts {
        let node_name =
            std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| h.trim().to_owned()).unwrap_or_default();
        let host_cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        let host_memory = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(0, |kb| kb * 1024);
        PodFacts { pod_ip: None, host_ip: None, node_name, host_cpus, host_memory }
    }

    /// The pod's `hostIPs`: the node's addresses, `host_ip` first.
    fn host_ips(&self) -> Vec<String> {
        self.host_ip.as_deref().map(crate::runtime::node_ip::host_ips).unwrap_or_default()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DownwardError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, DownwardError> {
    Err(DownwardError(msg.into()))
}

/// `k="v"` lines, sorted by key, as the kubelet writes labels and annotations to a file.
fn format_map(map: &std::collections::BTreeMap<String, String>) -> String {
    map.iter().map(|(k, v)| format!("{k}={v:?}\n")).collect()
}

/// The value of `fieldRef.fieldPath`. `whole_maps` allows `metadata.labels` and
/// `metadata.annotations` without a key, which only volume files may use.
pub fn field_value(pod: &Pod, path: &str, facts: &PodFacts, whole_maps: bool) -> Result<String, DownwardError> {
    let meta = &pod.metadata;
    let subscript = |prefix: &str| -> Option<String> {
        let rest = path.strip_prefix(prefix)?.strip_prefix("['")?.strip_suffix("']")?;
        Some(rest.to_owned())
    };
    if let Some(k) = subscript("metadata.labels") {
        return Ok(meta.labels.get(&k).cloned().unwrap_or_default());
    }
    if let Some(k) = subscript("metadata.annotations") {
        return Ok(meta.annotations.get(&k).cloned().unwrap_or_default());
    }
    Ok(match path {
        "metadata.name" => meta.name.clone(),
        "metadata.namespace" => meta.namespace.clone().unwrap_or_default(),
        "metadata.uid" => meta.uid.clone().unwrap_or_default(),
        "metadata.labels" if whole_maps => format_map(&meta.labels),
        "metadata.annotations" if whole_maps => format_map(&meta.annotations),
        "spec.nodeName" => pod.spec.node_name.clone().unwrap_or_else(|| facts.node_name.clone()),
        "spec.serviceAccountName" => pod.spec.service_account_name.clone().unwrap_or_else(|| "default".to_owned()),
        "status.podIP" => facts.pod_ip.clone().unwrap_or_default(),
        "status.hostIP" => facts.host_ip.clone().unwrap_or_default(),
        "status.hostIPs" => facts.host_ips().join(","),
        // A hostNetwork pod's IPs are the host's (its IP is the host's).
        "status.podIPs" if facts.pod_ip.is_some() && facts.pod_ip == facts.host_ip => facts.host_ips().join(","),
        "status.podIPs" => facts.pod_ip.clone().unwrap_or_default(),
        other => {
            return err(format!(
                "Unsupported value: {other:?}: supported values: \"metadata.name\", \"metadata.namespace\", \
                 \"metadata.uid\", \"metadata.labels['<KEY>']\", \"metadata.annotations['<KEY>']\", \
                 \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \
                 \"status.podIP\", \"status.podIPs\"{}",
                if whole_maps { ", \"metadata.labels\", \"metadata.annotations\"" } else { "" }
            ))
        }
    })
}

/// The value of a `resourceFieldRef`, for the container `default_container` unless the
/// selector names another: the container's limit or request divided by the divisor, rounded
/// up. A limit the container does not set is the host's capacity, as on a node.
pub fn resource_value(
    pod: &Pod,
    default_container: &str,
    sel: &ResourceFieldSelector,
    facts: &PodFacts,
) -> Result<String, DownwardError> {
    let name = sel.container_name.as_deref().filter(|n| !n.is_empty()).unwrap_or(default_container);
    let c: &Container = match pod.spec.init_containers.iter().chain(&pod.spec.containers).find(|c| c.name == name) {
        Some(c) => c,
        None => return err(format!("resourceFieldRef: no container {name:?} in the pod")),
    };
    let res = c.resources.clone().unwrap_or_default();
    let (kind, resource) = match sel.resource.split_once('.') {
        Some((k @ ("limits" | "requests"), r)) => (k, r),
        _ => (sel.resource.as_str(), ""),
    };
    let is_cpu = resource == "cpu";
    if !matches!(resource, "cpu" | "memory" | "ephemeral-storage") && !resource.starts_with("hugepages-") {
        return err(format!(
            "resourceFieldRef: Unsupported value: {:?}: supported values: \"limits.cpu\", \"limits.memory\", \
             \"limits.ephemeral-storage\", \"requests.cpu\", \"requests.memory\", \"requests.ephemeral-storage\"",
            sel.resource
        ));
    }
    let parse = |s: &String| Quantity::parse(s).map_err(|e| DownwardError(format!("resources: {s:?}: {e}")));
    let set = |m: &std::collections::BTreeMap<String, String>| m.get(resource).map(parse).transpose();
    let capacity = match resource {
        "cpu" => Quantity::from_units(i128::from(facts.host_cpus)),
        "memory" => Quantity::from_units(i128::from(facts.host_memory)),
        _ => Quantity::from_units(0),
    };
    let value = match kind {
        "limits" => set(&res.limits)?.unwrap_or(capacity),
        // An unset request defaults to the limit (the API server's defaulting), else zero.
        _ => match set(&res.requests)? {
            Some(q) => q,
            None => set(&res.limits)?.unwrap_or_else(|| Quantity::from_units(0)),
        },
    };
    let divisor = match &sel.divisor {
        Some(d) => parse(d)?,
        None => Quantity::from_units(1),
    };
    if divisor.is_zero() || divisor.is_negative() {
        return err("resourceFieldRef.divisor: must be greater than 0");
    }
    // The kubelet divides in millis for CPU, in whole units otherwise, rounding up.
    let (v, d) =
        if is_cpu { (value.milli_ceil(), divisor.milli_ceil()) } else { (value.value_ceil(), divisor.value_ceil()) };
    if d == 0 {
        return err("resourceFieldRef.divisor: too small");
    }
    let out = v / d + i128::from(v % d != 0);
    // A CPU value never reads as 0 when something is set: the kubelet rounds up to 1.
    Ok(if is_cpu && out == 0 && v > 0 { 1 } else { out }.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {b: two, a: one}\n  annotations: {note: hi}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources:\n      requests: {cpu: 250m, memory: 32Mi}\n      limits: {cpu: 500m, memory: 64Mi}\n  - name: free\n    image: x\n";

    fn pod() -> Pod {
        load(&Source::from_text("t.yaml", POD), &LoadOptions::default()).unwrap().pods.remove(0).pod
    }

    fn facts() -> PodFacts {
        PodFacts {
            pod_ip: Some("10.0.0.2".into()),
            host_ip: Some("10.0.0.1".into()),
            node_name: "host".into(),
            host_cpus: 2,
            host_memory: 1 << 30,
        }
    }

    fn rv(container: &str, resource: &str, divisor: Option<&str>) -> String {
        let sel =
            ResourceFieldSelector { container_name: None, resource: resource.into(), divisor: divisor.map(Into::into) };
        resource_value(&pod(), container, &sel, &facts()).unwrap()
    }

    #[test]
    fn fields() {
        let p = pod();
        let f = facts();
        assert_eq!(field_value(&p, "metadata.name", &f, false).unwrap(), "p");
        assert_eq!(field_value(&p, "metadata.namespace", &f, false).unwrap(), "default");
        assert_eq!(field_value(&p, "metadata.labels['a']", &f, false).unwrap(), "one");
        assert_eq!(field_value(&p, "metadata.annotations['note']", &f, false).unwrap(), "hi");
        assert_eq!(field_value(&p, "status.podIP", &f, false).unwrap(), "10.0.0.2");
        assert_eq!(field_value(&p, "spec.nodeName", &f, false).unwrap(), "host");
        assert_eq!(field_value(&p, "spec.serviceAccountName", &f, false).unwrap(), "default");
        assert_eq!(field_value(&p, "metadata.labels", &f, true).unwrap(), "a=\"one\"\nb=\"two\"\n");
        assert!(field_value(&p, "metadata.labels", &f, false).is_err(), "whole maps only in volumes");
        assert!(field_value(&p, "spec.bogus", &f, false).is_err());
    }

    #[test]
    fn resources_with_divisors() {
        assert_eq!(rv("c", "limits.cpu", None), "1");
        assert_eq!(rv("c", "limits.cpu", Some("1m")), "500");
        assert_eq!(rv("c", "requests.cpu", Some("1m")), "250");
        assert_eq!(rv("c", "limits.memory", None), (64u64 << 20).to_string());
        assert_eq!(rv("c", "requests.memory", Some("1Mi")), "32");
        // Unset limits are the host's capacity; unset requests are 0.
        assert_eq!(rv("free", "limits.cpu", None), "2");
        assert_eq!(rv("free", "limits.memory", Some("1Mi")), "1024");
        assert_eq!(rv("free", "requests.cpu", None), "0");
    }
}
