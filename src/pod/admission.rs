//! The kubelet's admission of a pod, before anything of it is created: what the node refuses
//! to run although the API server accepted it. A sysctl that is neither safe nor allowed is
//! `SysctlForbidden` (pkg/kubelet/sysctl: the safe set, and `--allowed-unsafe-sysctls`); a pod
//! whose requests do not fit the node's CPUs or memory is `OutOfcpu` or `OutOfmemory`
//! (pkg/kubelet/lifecycle/predicate.go, with the pod's requests counted as
//! resourcehelper.PodRequests counts them). The messages are the kubelet's. A kubelet also
//! counts the requests of the pods it already runs; podrun knows only the pods of the run at
//! hand, so each pod must fit the node on its own: a pod is admitted or refused whatever else
//! runs, the same under `apply` and `--supervise`.

use crate::manifest::quantity::Quantity;
use crate::manifest::types::{Container, ContainerRestartPolicy, Pod};

/// Sysctls every pod may set, at any kernel (pkg/kubelet/sysctl/safe_sysctls.go).
const SAFE_SYSCTLS: &[&str] = &[
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
];
/// Safe from the kernel release at which each became namespaced.
const NEWER_SAFE_SYSCTLS: &[(&str, (u32, u32))] =
    &[("net.ipv4.ip_local_reserved_ports", (3, 16)), ("net.ipv4.tcp_rmem", (4, 15)), ("net.ipv4.tcp_wmem", (4, 15))];

/// Why the node refuses a pod: the kubelet's reason and message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}: Pod was rejected: {message}")]
pub struct Rejected {
    pub reason: String,
    pub message: String,
}

/// Whether the kernel namespaces the sysctl (or every sysctl with this prefix): only those may
/// be allowed (component-helpers/node/util/sysctl: GetNamespace).
fn namespaced(name: &str) -> bool {
    name == "kernel.sem" || ["kernel.shm", "kernel.msg", "fs.mqueue.", "net."].iter().any(|p| name.starts_with(p))
}

/// Why a `--allowed-unsafe-sysctls` entry is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SysctlPatternError {
    #[error("sysctl {0:?} must have at most 253 characters and be a sysctl name or a prefix ending in *")]
    Malformed(String),
    #[error("the sysctls {0:?} are not known to be namespaced")]
    NotNamespaced(String),
}

/// A `--allowed-unsafe-sysctls` entry: a sysctl, or a prefix ending in `*`, that the kernel
/// namespaces. The kubelet refuses to start with any other.
pub fn check_unsafe_pattern(pattern: &str) -> Result<String, SysctlPatternError> {
    let valid = |s: &str| {
        !s.is_empty()
            && s.len() <= 253
            && s.split(['.', '/']).all(|seg| {
                let b = seg.as_bytes();
                let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
                !b.is_empty()
                    && alnum(b[0])
                    && alnum(b[b.len() - 1])
                    && b.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
            })
    };
    let name = crate::manifest::sysctl_name::dotted(pattern);
    let (body, prefix) = match name.strip_suffix('*') {
        Some(p) => (p.trim_end_matches(['.', '/']), true),
        None => (name.as_str(), false),
    };
    if !valid(body) {
        return Err(SysctlPatternError::Malformed(pattern.to_owned()));
    }
    let probe = if prefix { name.trim_end_matches('*').to_owned() } else { name.clone() };
    if !namespaced(&probe) {
        return Err(SysctlPatternError::NotNamespaced(pattern.to_owned()));
    }
    Ok(name)
}

/// The node: the sysctls it allows, its CPUs (millicores) and memory (bytes).
#[derive(Debug, Clone)]
pub struct Admission {
    allowed: Vec<String>,
    cpu_capacity: i128,
    memory_capacity: i128,
}

impl Admission {
    /// A node with `cpus` CPUs and `memory` bytes, a kernel at `kernel` (major, minor; None
    /// when unknown: only the sysctls safe at any kernel), allowing the checked
    /// `allowed_unsafe` patterns too.
    pub fn new(cpus: u64, memory: u64, kernel: Option<(u32, u32)>, allowed_unsafe: &[String]) -> Admission {
        let mut allowed: Vec<String> = SAFE_SYSCTLS.iter().map(|s| (*s).to_owned()).collect();
        for (name, since) in NEWER_SAFE_SYSCTLS {
            if kernel.is_some_and(|k| k >= *since) {
                allowed.push((*name).to_owned());
            }
        }
        allowed.extend(allowed_unsafe.iter().cloned());
        Admission { allowed, cpu_capacity: i128::from(cpus) * 1000, memory_capacity: i128::from(memory) }
    }

    fn sysctl_allowed(&self, name: &str) -> bool {
        let name = crate::manifest::sysctl_name::dotted(name);
        self.allowed.iter().any(|a| match a.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => *a == name,
        })
    }

    /// Admits `pod`, or says why the node refuses it.
    pub fn admit(&self, pod: &Pod) -> Result<(), Rejected> {
        still_gated(pod)?;
        let sysctls = pod.spec.security_context.as_ref().map(|s| s.sysctls.as_slice()).unwrap_or_default();
        if let Some(s) = sysctls.iter().find(|s| !self.sysctl_allowed(&s.name)) {
            return Err(Rejected {
                reason: "SysctlForbidden".into(),
                message: format!(
                    "forbidden sysctl: {:?} not allowlisted",
                    crate::manifest::sysctl_name::dotted(&s.name)
                ),
            });
        }
        other_os(pod)?;
        let (cpu, memory) = pod_requests(pod);
        for (resource, requested, capacity) in
            [("cpu", cpu, self.cpu_capacity), ("memory", memory, self.memory_capacity)]
        {
            if requested > 0 && capacity > 0 && requested > capacity {
                return Err(Rejected {
                    reason: format!("OutOf{resource}"),
                    message: format!(
                        "Node didn't have enough resource: {resource}, requested: {requested}, used: 0, capacity: {capacity}"
                    ),
                });
            }
        }
        missing_extended_resource(pod)
    }
}

/// A pod podrun runs is bound to this host, as a static pod is, and a bound pod may not be
/// gated: a kubelet's file source refuses it as the API server's create validation does (a
/// nodeName with schedulingGates), and nothing would ever lift the gates.
fn still_gated(pod: &Pod) -> Result<(), Rejected> {
    if pod.spec.scheduling_gates.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = pod.spec.scheduling_gates.iter().map(|g| format!("{:?}", g.name)).collect();
    Err(Rejected {
        reason: "SchedulingGated".into(),
        message: format!(
            "the pod has schedulingGates ({}), and a pod podrun runs is bound to this host as a static pod is: \
             spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared (a kubelet's \
             file source refuses it so); remove spec.schedulingGates to run it here",
            names.join(", ")
        ),
    })
}

/// The node runs Linux pods only (predicate.go: rejectPodAdmissionBasedOnOSSelector, then
/// rejectPodAdmissionBasedOnOSField), with the kubelet's reasons and messages.
fn other_os(pod: &Pod) -> Result<(), Rejected> {
    if pod.metadata.labels.get("kubernetes.io/os").is_some_and(|os| os != "linux") {
        return Err(Rejected {
            reason: "PodOSSelectorNodeLabelDoesNotMatch".into(),
            message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label".into(),
        });
    }
    if pod.spec.os.as_ref().is_some_and(|os| os.name != "linux") {
        return Err(Rejected {
            reason: "PodOSNotSupported".into(),
            message: "Failed to admit pod as the OS field doesn't match node OS".into(),
        });
    }
    Ok(())
}

/// Whether a resource is an extended one (v1helper.IsExtendedResourceName): named with a
/// domain other than kubernetes.io, and not a quota's `requests.` name.
fn is_extended(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests.")
}

/// An extended resource (a device such as `example.com/widget` or `nvidia.com/gpu`) is given
/// by a device plugin, and podrun runs none: the node has none of it, so a pod that asks for
/// one is refused as the kubelet refuses a pod whose device its node has none of
/// (`OutOf<resource>`), rather than run without the device. (A kubelet admits a static pod
/// asking for a resource its node does not know at all, a caveat its own code notes.)
fn missing_extended_resource(pod: &Pod) -> Result<(), Rejected> {
    let containers = pod.spec.init_containers.iter().chain(&pod.spec.containers);
    for res in containers.filter_map(|c| c.resources.as_ref()) {
        // The API server defaults an extended resource's request to its limit.
        let asked = res.requests.iter().chain(&res.limits).find(|(name, _)| is_extended(name));
        if let Some((name, quantity)) = asked {
            let requested = Quantity::parse(quantity).map_or(0, |q| q.value_ceil());
            return Err(Rejected {
                reason: format!("OutOf{name}"),
                message: format!(
                    "Node didn't have enough resource: {name}, requested: {requested}, used: 0, capacity: 0 \
                     (podrun runs no device plugin)"
                ),
            });
        }
    }
    Ok(())
}

/// A container's cpu (millicores) and memory (bytes) requests, a limit standing for a missing
/// request as the API server defaults it.
fn requests(c: &Container) -> (i128, i128) {
    let Some(res) = &c.resources else { return (0, 0) };
    let get = |name: &str| {
        let q = res.requests.get(name).or_else(|| res.limits.get(name));
        q.and_then(|q| Quantity::parse(q).ok()).filter(|q| !q.is_negative())
    };
    (get("cpu").map_or(0, |q| q.milli_ceil()), get("memory").map_or(0, |q| q.value_ceil()))
}

/// What the pod requests of the node (resourcehelper.PodRequests): its app containers and its
/// sidecars together, or, if more, an init container with the sidecars started before it.
pub fn pod_requests(pod: &Pod) -> (i128, i128) {
    let add = |a: (i128, i128), b: (i128, i128)| (a.0 + b.0, a.1 + b.1);
    let max = |a: (i128, i128), b: (i128, i128)| (a.0.max(b.0), a.1.max(b.1));
    let apps = pod.spec.containers.iter().map(requests).fold((0, 0), add);
    let mut sidecars = (0, 0);
    let mut init = (0, 0);
    for c in &pod.spec.init_containers {
        let r = requests(c);
        if c.restart_policy == Some(ContainerRestartPolicy::Always) {
            sidecars = add(sidecars, r);
            init = max(init, sidecars);
        } else {
            init = max(init, add(r, sidecars));
        }
    }
    max(add(apps, sidecars), init)
}

/// The running kernel's release, major and minor (`/proc/sys/kernel/osrelease`).
pub fn kernel_release() -> Option<(u32, u32)> {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    let mut parts = release.trim().split(['.', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};

    fn pod(spec: &str) -> Pod {
        crate::manifest::test_pod(&format!("spec:\n{spec}"))
    }

    fn sysctl_pod(name: &str) -> Pod {
        pod(&format!(
            "  securityContext: {{sysctls: [{{name: {name}, value: '1'}}]}}\n  containers: [{{name: a, image: i}}]\n"
        ))
    }

    #[test]
    fn safe_sysctls_pass_and_others_are_forbidden_unless_allowed() {
        let node = |allowed: &[&str]| {
            let allowed: Vec<String> = allowed.iter().map(|a| check_unsafe_pattern(a).unwrap()).collect();
            Admission::new(2, 1 << 30, Some((6, 1)), &allowed)
        };
        for safe in ["kernel.shm_rmid_forced", "net/ipv4/ip_local_port_range", "net.ipv4.tcp_rmem"] {
            assert_eq!(node(&[]).admit(&sysctl_pod(safe)), Ok(()), "{safe}");
        }
        let e = node(&[]).admit(&sysctl_pod("kernel.msgmax")).unwrap_err();
        assert_eq!(e.reason, "SysctlForbidden");
        assert_eq!(
            e.to_string(),
            "SysctlForbidden: Pod was rejected: forbidden sysctl: \"kernel.msgmax\" not allowlisted"
        );
        assert_eq!(node(&["kernel.msg*"]).admit(&sysctl_pod("kernel.msgmax")), Ok(()));
        assert_eq!(node(&["net.core.somaxconn"]).admit(&sysctl_pod("net/core/somaxconn")), Ok(()));
        // Safe only from the kernel that namespaces it.
        let old = Admission::new(2, 1 << 30, Some((4, 14)), &[]).admit(&sysctl_pod("net.ipv4.tcp_rmem"));
        assert!(old.is_err());
    }

    #[test]
    fn only_namespaced_sysctls_may_be_allowed() {
        assert_eq!(check_unsafe_pattern("kernel.msg*"), Ok("kernel.msg*".into()));
        assert_eq!(check_unsafe_pattern("net/core/somaxconn"), Ok("net.core.somaxconn".into()));
        assert!(check_unsafe_pattern("vm.swappiness").unwrap_err().to_string().contains("not known to be namespaced"));
        assert!(check_unsafe_pattern("kernel.*").is_err(), "kernel.* is not all namespaced");
        assert!(check_unsafe_pattern("Net.Core").is_err());
        assert!(check_unsafe_pattern("").is_err());
    }

    #[test]
    fn a_pod_for_another_os_is_refused_with_the_kubelets_reasons() {
        let node = Admission::new(2, 1 << 30, None, &[]);
        let c = "  containers: [{name: a, image: i}]\n";
        assert_eq!(node.admit(&pod(&format!("  os: {{name: linux}}\n{c}"))), Ok(()));
        let e = node.admit(&pod(&format!("  os: {{name: windows}}\n{c}"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "PodOSNotSupported: Pod was rejected: Failed to admit pod as the OS field doesn't match node OS"
        );
        let labelled = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {kubernetes.io/os: windows}}\nspec:\n";
        let labelled = load(&Source::from_text("p.yaml", &format!("{labelled}{c}")), &LoadOptions::default());
        let e = node.admit(&labelled.unwrap().pods.remove(0).pod).unwrap_err();
        assert_eq!(e.reason, "PodOSSelectorNodeLabelDoesNotMatch");
    }

    #[test]
    fn a_gated_pod_is_refused_as_a_static_pod_is() {
        let node = Admission::new(2, 1 << 30, None, &[]);
        let gated = pod("  schedulingGates: [{name: example.com/wait}]\n  containers: [{name: a, image: i}]\n");
        let e = node.admit(&gated).unwrap_err();
        assert_eq!(e.reason, "SchedulingGated");
        assert!(e.message.contains("(\"example.com/wait\")"), "{e}");
        assert!(e.message.contains("cannot be set until all schedulingGates have been cleared"), "{e}");
    }

    #[test]
    fn extended_resources_are_refused_as_the_node_has_none() {
        let node = Admission::new(2, 1 << 30, None, &[]);
        let limits = pod("  containers: [{name: a, image: i, resources: {limits: {example.com/widget: 2}}}]\n");
        assert_eq!(
            node.admit(&limits).unwrap_err().to_string(),
            "OutOfexample.com/widget: Pod was rejected: Node didn't have enough resource: example.com/widget, \
             requested: 2, used: 0, capacity: 0 (podrun runs no device plugin)"
        );
        let init = pod(
            "  initContainers: [{name: i, image: i, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 1}}}]\n  containers: [{name: a, image: i}]\n",
        );
        assert_eq!(node.admit(&init).unwrap_err().reason, "OutOfnvidia.com/gpu");
        // Native resources are not extended ones, whatever their spelling.
        for native in ["cpu", "hugepages-2Mi", "ephemeral-storage"] {
            assert!(!is_extended(native), "{native}");
        }
        assert!(!is_extended("kubernetes.io/batch") && !is_extended("requests.example.com/x"));
    }

    #[test]
    fn requests_must_fit_the_node() {
        let node = Admission::new(2, 1 << 30, None, &[]);
        let big = pod("  containers: [{name: a, image: i, resources: {requests: {cpu: '3'}}}]\n");
        let e = node.admit(&big).unwrap_err();
        assert_eq!(
            e.to_string(),
            "OutOfcpu: Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000"
        );
        // A limit alone is the request.
        let e = node.admit(&pod("  containers: [{name: a, image: i, resources: {limits: {memory: 2Gi}}}]\n"));
        let e = e.unwrap_err();
        assert_eq!(e.reason, "OutOfmemory");
        assert!(e.message.contains("requested: 2147483648, used: 0, capacity: 1073741824"), "{e}");
        assert_eq!(
            node.admit(&pod("  containers: [{name: a, image: i, resources: {requests: {memory: 1Gi}}}]\n")),
            Ok(())
        );
        // Nothing requested: always admitted.
        assert_eq!(node.admit(&pod("  containers: [{name: a, image: i}]\n")), Ok(()));
    }

    #[test]
    fn a_pods_requests_count_sidecars_beside_the_app_containers_and_the_largest_init_container() {
        let p = pod(
            "  initContainers:\n  - {name: side, image: i, restartPolicy: Always, resources: {requests: {cpu: 100m}}}\n  \
             - {name: big, image: i, resources: {requests: {cpu: '1', memory: 1Gi}}}\n  \
             containers:\n  - {name: a, image: i, resources: {requests: {cpu: 200m, memory: 100Mi}}}\n  \
             - {name: b, image: i, resources: {requests: {cpu: 300m}}}\n",
        );
        // cpu: max(100 + 200 + 300, 1000 + 100); memory: max(100Mi, 1Gi).
        assert_eq!(pod_requests(&p), (1100, 1 << 30));
    }
}
