//! The pod sandbox: podrun's infra container as the CRI's `PodSandboxConfig`, as the kubelet
//! builds it (kuberuntime_sandbox.go: generatePodSandboxConfig).

use std::collections::{BTreeMap, HashMap};

use super::api;
use super::paths;
use crate::runtime::{labels, NetworkMode, PodNetwork};

/// Which of the kubelet's namespace modes (`api::NamespaceMode`).
pub fn mode(node: bool, pod: bool) -> i32 {
    if node {
        api::NamespaceMode::Node as i32
    } else if pod {
        api::NamespaceMode::Pod as i32
    } else {
        api::NamespaceMode::Container as i32
    }
}

/// The sandbox of the pod whose (sealed) infra labels are `labels`, with the pod-level settings
/// of `net`. `privileged`: some member of the pod is privileged, which the runtime allows only
/// in a privileged sandbox.
pub fn config(
    name: &str,
    labels_: &BTreeMap<String, String>,
    net: &PodNetwork,
    privileged: bool,
) -> api::PodSandboxConfig {
    let mut cfg = base(name, labels_);
    cfg.hostname = if net.mode == NetworkMode::Host { String::new() } else { net.hostname.clone().unwrap_or_default() };
    if !(net.dns.servers.is_empty() && net.dns.searches.is_empty() && net.dns.options.is_empty()) {
        cfg.dns_config = Some(api::DnsConfig {
            servers: net.dns.servers.clone(),
            searches: net.dns.searches.clone(),
            options: net.dns.options.clone(),
        });
    }
    cfg.port_mappings = net
        .ports
        .iter()
        .map(|p| api::PortMapping {
            protocol: match p.protocol.as_str() {
                "udp" => api::Protocol::Udp as i32,
                "sctp" => api::Protocol::Sctp as i32,
                _ => api::Protocol::Tcp as i32,
            },
            container_port: i32::from(p.container_port),
            host_port: i32::from(p.host_port),
            host_ip: p.host_ip.clone().unwrap_or_default(),
        })
        .collect();
    let linux = cfg.linux.get_or_insert_with(Default::default);
    linux.sysctls = net.sysctls.clone().into_iter().collect();
    let security = linux.security_context.get_or_insert_with(Default::default);
    security.privileged = privileged;
    security.namespace_options = Some(api::NamespaceOption {
        network: mode(net.mode == NetworkMode::Host, true),
        pid: mode(net.pid_host, false),
        ipc: mode(net.ipc_host, true),
        ..Default::default()
    });
    // The pause program needs no privilege, as in the kubelet's sandbox.
    security.seccomp = Some(api::SecurityProfile {
        profile_type: api::security_profile::ProfileType::RuntimeDefault as i32,
        localhost_ref: String::new(),
    });
    cfg
}

/// What a sandbox's config holds that its containers' creation needs again (metadata, labels,
/// log directory, cgroup parent): rebuilt from a listed sandbox's labels, so a later podrun can
/// add a container to a sandbox an earlier one made.
pub fn base(name: &str, labels_: &BTreeMap<String, String>) -> api::PodSandboxConfig {
    let get = |k: &str| labels_.get(k).cloned().unwrap_or_default();
    let (namespace, pod, uid) = (get(labels::POD_NAMESPACE), get(labels::POD_NAME), get(labels::POD_UID));
    let attempt = labels_.get(labels::ATTEMPT).and_then(|a| a.parse().ok()).unwrap_or(0);
    api::PodSandboxConfig {
        metadata: Some(api::PodSandboxMetadata {
            name: pod.clone(),
            uid: uid.clone(),
            namespace: namespace.clone(),
            attempt,
        }),
        log_directory: paths::pod_log_dir(&namespace, &pod, &uid).display().to_string(),
        labels: labels_.clone().into_iter().collect(),
        annotations: HashMap::from([(super::NAME_ANNOTATION.to_owned(), name.to_owned())]),
        linux: Some(api::LinuxPodSandboxConfig { cgroup_parent: paths::cgroup_parent(&uid), ..Default::default() }),
        ..Default::default()
    }
}
