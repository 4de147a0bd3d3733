//! The pod sandbox: podrun's infra container as the CRI's `PodSandboxConfig`, as the kubelet
//! builds it (kuberuntime_sandbox.go: generatePodSandboxConfig).

use std::collections::{BTreeMap, HashMap};

use super::api;
use super::paths;
use crate::runtime::{labels, IdRange, NetworkMode, PodNetwork};

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
    if !cfg.hostname.is_empty() {
        cfg.annotations.insert(super::HOSTNAME_ANNOTATION.to_owned(), cfg.hostname.clone());
    }
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
        userns_options: net.user_namespace.map(user_namespace),
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
        linux: Some(api::LinuxPodSandboxConfig {
            cgroup_parent: paths::cgroup_parent(&uid),
            security_context: range_of(labels_).map(|r| api::LinuxSandboxSecurityContext {
                namespace_options: Some(api::NamespaceOption {
                    userns_options: Some(user_namespace(r)),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The pod's user namespace as the kubelet asks for it: mode POD, one mapping of its range for
/// users and groups alike (kuberuntime_sandbox_linux.go, userns_manager.go).
pub fn user_namespace(r: IdRange) -> api::UserNamespace {
    let map = api::IdMapping { host_id: r.host_id, container_id: 0, length: r.size };
    api::UserNamespace { mode: api::NamespaceMode::Pod as i32, uids: vec![map], gids: vec![map] }
}

/// The user namespace range an infra container's labels record (`labels::USER_NAMESPACE`).
fn range_of(labels_: &BTreeMap<String, String>) -> Option<IdRange> {
    let (host, size) = labels_.get(labels::USER_NAMESPACE)?.split_once(':')?;
    Some(IdRange { host_id: host.parse().ok()?, size: size.parse().ok()? })
}

/// The user namespace a sandbox's containers join, from its config.
pub fn user_namespace_of(cfg: &api::PodSandboxConfig) -> Option<api::UserNamespace> {
    cfg.linux.as_ref()?.security_context.as_ref()?.namespace_options.as_ref()?.userns_options.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sandbox made now and one rebuilt from its labels by a later podrun give its containers
    /// the same mapping: 65536 ids from the pod's range, for users and groups, in mode POD.
    #[test]
    fn the_pod_user_namespace_is_given_and_found_again_from_the_labels() {
        let range = IdRange { host_id: 196_608, size: 65536 };
        let mut labels_ = BTreeMap::from([(labels::POD_UID.to_owned(), "u".to_owned())]);
        labels_.insert(labels::USER_NAMESPACE.to_owned(), "196608:65536".to_owned());
        let net = PodNetwork { user_namespace: Some(range), ..Default::default() };
        let made = config("s", &labels_, &net, false);
        let want = user_namespace(range);
        assert_eq!(want.mode, api::NamespaceMode::Pod as i32);
        assert_eq!(want.uids, [api::IdMapping { host_id: 196_608, container_id: 0, length: 65536 }]);
        assert_eq!(want.gids, want.uids);
        assert_eq!(user_namespace_of(&made), Some(want.clone()));
        assert_eq!(user_namespace_of(&base("s", &labels_)), Some(want));
        labels_.remove(labels::USER_NAMESPACE);
        assert_eq!(user_namespace_of(&base("s", &labels_)), None);
        assert_eq!(user_namespace_of(&config("s", &labels_, &PodNetwork::default(), false)), None);
    }

    /// The hostname a later podrun gives CreateContainer with the sandbox's config, from which
    /// the runtime sets the container's `HOSTNAME`, is kept with the sandbox; none on the host's
    /// network, where the runtime gives the host's.
    #[test]
    fn the_sandbox_keeps_its_hostname_for_its_containers() {
        let net = PodNetwork { hostname: Some("web".into()), ..Default::default() };
        let made = config("s", &BTreeMap::new(), &net, false);
        assert_eq!(made.hostname, "web");
        assert_eq!(made.annotations.get(super::super::HOSTNAME_ANNOTATION).map(String::as_str), Some("web"));
        let host = PodNetwork { mode: NetworkMode::Host, ..net };
        let made = config("s", &BTreeMap::new(), &host, false);
        assert!(made.hostname.is_empty() && !made.annotations.contains_key(super::super::HOSTNAME_ANNOTATION));
    }
}
