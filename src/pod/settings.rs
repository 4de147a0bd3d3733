//! From a pod's manifest to the engine-neutral settings of its containers: the pod-level ones
//! that live on the infra container (network, ports, /etc/hosts, DNS, sysctls, host
//! namespaces) and each container's security context and resources, with the kubelet's
//! rules (the container's securityContext wins over the pod's; CPU limits become a CFS quota
//! over a 100 ms period, CPU requests become shares).

use super::identity::{self, RunAs};
use crate::manifest::hostname::PodHostname;
use crate::manifest::types::{Container, DnsPolicy, Pod, ProcMount, Profile, Protocol};
use crate::runtime::{ContainerSettings, DnsSettings, NetworkMode, PidMode, PodNetwork, PortBinding};

/// The annotation that carried a container's AppArmor profile before `appArmorProfile`.
pub const APPARMOR_ANNOTATION_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// Where `seccompProfile.localhostProfile` and AppArmor `Localhost` names are looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostProfile {
    /// A seccomp profile file, relative to podrun's seccomp directory.
    Seccomp(String),
    /// An AppArmor profile loaded on the host, by name.
    AppArmor(String),
}

/// The pod's hostname (and domain) as the kubelet makes them (`manifest::hostname`).
/// Validation refused a pod whose FQDN passes the kernel's bound under the namespace it was
/// checked in; under another one (`--namespace`), the short hostname is kept instead.
pub fn pod_hostname(pod: &Pod) -> PodHostname {
    PodHostname::of(pod).unwrap_or_else(|_| PodHostname::short(pod))
}

pub fn pod_network(pod: &Pod, network: Option<&str>) -> PodNetwork {
    let spec = &pod.spec;
    let host_network = spec.host_network == Some(true);
    let mode = match (host_network, network) {
        (true, _) => NetworkMode::Host,
        (false, Some(n)) => NetworkMode::Named(n.to_owned()),
        (false, None) => NetworkMode::Default,
    };
    let names = pod_hostname(pod);
    let mut ports = Vec::new();
    if !host_network {
        for c in spec.init_containers.iter().chain(&spec.containers) {
            for p in &c.ports {
                let Some(host_port) = p.host_port.filter(|&h| h > 0) else { continue };
                ports.push(PortBinding {
                    container_port: u16::try_from(p.container_port).unwrap_or(0),
                    protocol: p.protocol.unwrap_or(Protocol::TCP).as_str().to_ascii_lowercase(),
                    host_ip: p.host_ip.clone().filter(|ip| !ip.is_empty()),
                    host_port: u16::try_from(host_port).unwrap_or(0),
                });
            }
        }
    }
    let extra_hosts =
        spec.host_aliases.iter().flat_map(|a| a.hostnames.iter().map(move |h| format!("{h}:{}", a.ip))).collect();
    // Runtimes take a sysctl by its dotted name only, as the kubelet hands it on.
    let sysctls = spec
        .security_context
        .iter()
        .flat_map(|sc| &sc.sysctls)
        .map(|s| (crate::manifest::sysctl_name::dotted(&s.name), s.value.clone()))
        .collect();
    PodNetwork {
        hostname: (!host_network).then(|| names.kernel.clone()),
        domainname: names.domain.filter(|_| !host_network),
        mode,
        ports,
        extra_hosts,
        dns: dns(pod),
        ipc_host: spec.host_ipc == Some(true),
        pid_host: spec.host_pid == Some(true),
        sysctls,
        privileged: spec
            .init_containers
            .iter()
            .chain(&spec.containers)
            .any(|c| c.security_context.as_ref().and_then(|s| s.privileged) == Some(true)),
        // The pod's ids are allocated when its infra container is made (`pod::userns`).
        user_namespace: None,
    }
}

/// dnsPolicy and dnsConfig, as the pod gives them. There is no cluster DNS on one host, so
/// ClusterFirst resolves like Default: the host's resolver, as the engine provides it. Under
/// those policies dnsConfig adds to the host's lists, which `dns::add_to_host` does where
/// podrun can read them; under None these lists are the whole configuration.
fn dns(pod: &Pod) -> DnsSettings {
    let cfg = pod.spec.dns_config.clone().unwrap_or_default();
    let options = cfg
        .options
        .iter()
        .map(|o| match &o.value {
            Some(v) => format!("{}:{v}", o.name),
            None => o.name.clone(),
        })
        .collect();
    let mut searches = cfg.searches;
    if searches.is_empty() && pod.spec.dns_policy == Some(DnsPolicy::None) {
        // Under None the pod's lists are all there is; an empty list would leave the engine
        // the host's, and "." is the engine's word for "no search domains".
        searches.push(".".to_owned());
    }
    DnsSettings { servers: cfg.nameservers, searches, options }
}

pub fn pid_mode(pod: &Pod) -> PidMode {
    if pod.spec.host_pid == Some(true) {
        PidMode::Host
    } else if pod.spec.share_process_namespace == Some(true) {
        PidMode::Infra
    } else {
        PidMode::Private
    }
}

/// The security, resource and terminal settings of one container, and the host profiles
/// (seccomp files, AppArmor names) it needs, which the caller must check exist.
pub fn container_settings(pod: &Pod, c: &Container) -> (ContainerSettings, Vec<HostProfile>) {
    let psc = pod.spec.security_context.clone().unwrap_or_default();
    let sc = c.security_context.clone().unwrap_or_default();
    // A group alone keeps the image's user: the caller settles it against the image
    // (`identity::decide`), as it checks runAsNonRoot.
    let run_as = run_as(pod, c);
    let user = if run_as.needs_image(false) { None } else { identity::decide(run_as, false, None).ok().flatten() };
    let mut group_add: Vec<String> = psc.supplemental_groups.iter().map(i64::to_string).collect();
    if let Some(fs) = psc.fs_group {
        group_add.push(fs.to_string());
    }
    group_add.dedup();

    let mut security_opt = Vec::new();
    let mut profiles = Vec::new();
    if sc.allow_privilege_escalation == Some(false) {
        security_opt.push("no-new-privileges:true".to_owned());
    }
    match sc.seccomp_profile.as_ref().or(psc.seccomp_profile.as_ref()) {
        Some(Profile { type_, .. }) if type_ == "Unconfined" => security_opt.push(UNCONFINED.to_owned()),
        Some(Profile { type_, localhost_profile: Some(p) }) if type_ == "Localhost" => {
            profiles.push(HostProfile::Seccomp(p.clone()));
        }
        // RuntimeDefault: the engine's default profile. Unset: see `names_no_seccomp_profile`.
        _ => {}
    }
    let annotation = pod.metadata.annotations.get(&format!("{APPARMOR_ANNOTATION_PREFIX}{}", c.name));
    let apparmor = sc.app_armor_profile.clone().or(psc.app_armor_profile.clone()).or_else(|| {
        annotation.map(|a| match a.as_str() {
            "unconfined" => Profile { type_: "Unconfined".into(), localhost_profile: None },
            "runtime/default" => Profile { type_: "RuntimeDefault".into(), localhost_profile: None },
            other => Profile {
                type_: "Localhost".into(),
                localhost_profile: Some(other.strip_prefix("localhost/").unwrap_or(other).to_owned()),
            },
        })
    });
    match apparmor {
        Some(Profile { type_, .. }) if type_ == "Unconfined" => security_opt.push("apparmor=unconfined".to_owned()),
        Some(Profile { type_, localhost_profile: Some(p) }) if type_ == "Localhost" => {
            profiles.push(HostProfile::AppArmor(p.clone()));
            security_opt.push(format!("apparmor={p}"));
        }
        Some(Profile { type_, .. }) if type_ == "RuntimeDefault" => {
            profiles.push(HostProfile::AppArmor(String::new()));
        }
        _ => {}
    }

    let (cpu, memory_limit, memory_reservation) = super::resources::container_resources(pod, c);

    let settings = ContainerSettings {
        user,
        group_add,
        strict_groups: psc.supplemental_groups_policy.as_deref() == Some("Strict"),
        privileged: sc.privileged == Some(true),
        cap_add: sc.capabilities.iter().flat_map(|c| &c.add).cloned().collect(),
        cap_drop: sc.capabilities.iter().flat_map(|c| &c.drop).cloned().collect(),
        read_only_rootfs: sc.read_only_root_filesystem == Some(true),
        security_opt,
        unmasked_proc: sc.proc_mount == Some(ProcMount::Unmasked),
        cpu,
        memory_limit,
        memory_reservation,
        // Set with the node's memory in view: `prepare`.
        oom_score_adj: None,
        tty: c.tty == Some(true),
        stdin: c.stdin == Some(true),
        stdin_once: c.stdin_once == Some(true),
    };
    (settings, profiles)
}

/// Whether the container must not run as root (runAsNonRoot, container over pod).
pub fn run_as_non_root(pod: &Pod, c: &Container) -> bool {
    let sc = c.security_context.as_ref().and_then(|s| s.run_as_non_root);
    let psc = pod.spec.security_context.as_ref().and_then(|s| s.run_as_non_root);
    sc.or(psc) == Some(true)
}

/// The container's runAsUser and runAsGroup (container over pod).
pub fn run_as(pod: &Pod, c: &Container) -> RunAs {
    let psc = pod.spec.security_context.as_ref();
    let sc = c.security_context.as_ref();
    RunAs {
        user: sc.and_then(|s| s.run_as_user).or(psc.and_then(|s| s.run_as_user)),
        group: sc.and_then(|s| s.run_as_group).or(psc.and_then(|s| s.run_as_group)),
    }
}

/// Whether neither the container nor its pod sets a seccompProfile: then the kubelet with its
/// default settings runs it Unconfined (kuberuntime/helpers.go, getSeccompProfile:
/// RuntimeDefault only with seccompDefault), which [`UNCONFINED`] asks of the engine.
pub fn names_no_seccomp_profile(pod: &Pod, c: &Container) -> bool {
    let psc = pod.spec.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref());
    let csc = c.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref());
    psc.is_none() && csc.is_none()
}

/// The security option that turns the engine's seccomp filter off.
pub const UNCONFINED: &str = "seccomp=unconfined";

/// Where podrun looks for seccomp profiles named by `localhostProfile` (as the kubelet looks in
/// its own seccomp directory).
pub fn seccomp_root(state_root: &std::path::Path) -> std::path::PathBuf {
    state_root.join("seccomp")
}

fn apparmor_enabled() -> bool {
    std::fs::read_to_string("/sys/module/apparmor/parameters/enabled").is_ok_and(|v| v.trim() == "Y")
}

fn apparmor_loaded(name: &str) -> bool {
    std::fs::read_to_string("/sys/kernel/security/apparmor/profiles")
        .is_ok_and(|all| all.lines().any(|l| l.split(" (").next() == Some(name)))
}

/// Confinement a container asks for that this host cannot give.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostProfileError {
    /// `what`: the runtime's default profile, or a named one.
    #[error("container {container:?} asks for {what}, but AppArmor is not enabled on this host")]
    AppArmorDisabled { container: String, what: String },
    #[error("container {container:?} asks for AppArmor profile {name:?}, which is not loaded on this host")]
    AppArmorNotLoaded { container: String, name: String },
    #[error("container {container:?}: seccomp profile {name:?} not found at {}", path.display())]
    SeccompMissing { container: String, name: String, path: std::path::PathBuf },
}

/// Checks the host has what the pod's containers ask for (AppArmor, seccomp profiles) and puts
/// the seccomp profiles' contents into the containers' settings. A pod that asks for confinement
/// the host cannot give is refused rather than run without it.
pub fn resolve_host_profiles(
    containers: &mut [crate::pod::DesiredContainer],
    state_root: &std::path::Path,
) -> Result<(), HostProfileError> {
    for c in containers {
        for p in c.host_profiles.clone() {
            match p {
                HostProfile::AppArmor(name) if !apparmor_enabled() => {
                    let what = if name.is_empty() {
                        "the runtime's default AppArmor profile".to_owned()
                    } else {
                        format!("AppArmor profile {name:?}")
                    };
                    return Err(HostProfileError::AppArmorDisabled { container: c.name.clone(), what });
                }
                HostProfile::AppArmor(name) if !name.is_empty() && !apparmor_loaded(&name) => {
                    return Err(HostProfileError::AppArmorNotLoaded { container: c.name.clone(), name });
                }
                HostProfile::AppArmor(_) => {}
                HostProfile::Seccomp(rel) => {
                    let safe = !rel.is_empty() && !rel.starts_with('/') && !rel.split('/').any(|p| p == "..");
                    let path = seccomp_root(state_root).join(&rel);
                    let content = safe.then(|| std::fs::read_to_string(&path).ok()).flatten().ok_or_else(|| {
                        HostProfileError::SeccompMissing { container: c.name.clone(), name: rel.clone(), path }
                    })?;
                    c.settings.security_opt.push(format!("seccomp={content}"));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::resources::{MAX_QUOTA_US, MAX_SHARES, MIN_SHARES};
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};
    use crate::runtime::CpuSettings;

    fn pod(yaml: &str) -> Pod {
        load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap().pods.remove(0).pod
    }

    #[test]
    fn resources_map_like_the_kubelet() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources:\n      requests: {cpu: 250m, memory: 64Mi}\n      limits: {cpu: 500m, memory: 128Mi}\n  - {name: d, image: x}\n  - name: e\n    image: x\n    resources: {limits: {cpu: '1'}}\n");
        let (s, _) = container_settings(&p, &p.spec.containers[0]);
        assert_eq!(s.cpu, CpuSettings { quota: Some(50_000), period: Some(100_000), shares: Some(256) });
        assert_eq!(s.memory_limit, Some(128 << 20));
        assert_eq!(s.memory_reservation, Some(64 << 20));
        let (d, _) = container_settings(&p, &p.spec.containers[1]);
        assert_eq!(d.cpu, CpuSettings { quota: None, period: None, shares: Some(2) }, "best effort");
        let (e, _) = container_settings(&p, &p.spec.containers[2]);
        assert_eq!(e.cpu.shares, Some(1024), "the request defaults to the limit");
    }

    #[test]
    fn a_zero_cpu_limit_sets_no_quota_and_a_zero_request_takes_the_limits_shares() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {cpu: '0'}}\n  - name: d\n    image: x\n    resources: {requests: {cpu: '0'}, limits: {cpu: '1'}}\n");
        let (c, _) = container_settings(&p, &p.spec.containers[0]);
        assert_eq!(c.cpu, CpuSettings { quota: None, period: None, shares: Some(MIN_SHARES) });
        let (d, _) = container_settings(&p, &p.spec.containers[1]);
        assert_eq!(d.cpu, CpuSettings { quota: Some(100_000), period: Some(100_000), shares: Some(1024) });
    }

    #[test]
    fn the_largest_valid_resources_clamp_and_never_wrap() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources:\n      limits: {cpu: 9223372036854775807m, memory: 9Ei}\n");
        let (s, _) = container_settings(&p, &p.spec.containers[0]);
        assert_eq!(s.cpu, CpuSettings { quota: Some(MAX_QUOTA_US), period: Some(100_000), shares: Some(MAX_SHARES) });
        assert_eq!(s.memory_limit, Some(i64::MAX));
    }

    #[test]
    fn security_context_container_wins() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  securityContext: {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000], seccompProfile: {type: Unconfined}}\n  containers:\n  - name: c\n    image: x\n    securityContext:\n      runAsUser: 2000\n      allowPrivilegeEscalation: false\n      readOnlyRootFilesystem: true\n      capabilities: {add: [NET_ADMIN], drop: [ALL]}\n");
        let (s, _) = container_settings(&p, &p.spec.containers[0]);
        assert_eq!(s.user.as_deref(), Some("2000:3000"));
        assert_eq!(s.group_add, ["4000", "2000"]);
        assert!(s.read_only_rootfs);
        assert_eq!(s.cap_add, ["NET_ADMIN"]);
        assert_eq!(s.cap_drop, ["ALL"]);
        assert!(s.security_opt.contains(&"no-new-privileges:true".to_owned()));
        assert!(s.security_opt.contains(&"seccomp=unconfined".to_owned()));
    }

    #[test]
    fn apparmor_from_field_or_annotation() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {container.apparmor.security.beta.kubernetes.io/c: localhost/k8s-deny}\nspec:\n  containers:\n  - {name: c, image: x}\n");
        let (s, profiles) = container_settings(&p, &p.spec.containers[0]);
        assert_eq!(profiles, [HostProfile::AppArmor("k8s-deny".into())]);
        assert!(s.security_opt.contains(&"apparmor=k8s-deny".to_owned()));
    }

    #[test]
    fn a_group_alone_is_left_for_the_image() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  securityContext: {runAsGroup: 5}\n  containers:\n  - {name: c, image: x}\n");
        assert_eq!(run_as(&p, &p.spec.containers[0]), RunAs { user: None, group: Some(5) });
        assert_eq!(container_settings(&p, &p.spec.containers[0]).0.user, None);
    }

    #[test]
    fn dns_policy_none_without_searches_has_none() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  dnsPolicy: None\n  dnsConfig: {nameservers: [1.2.3.4]}\n  containers:\n  - name: c\n    image: x\n");
        assert_eq!(pod_network(&p, None).dns.searches, ["."], "not the host's search domains");
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  dnsConfig: {nameservers: [1.2.3.4]}\n  containers:\n  - name: c\n    image: x\n");
        assert!(pod_network(&p, None).dns.searches.is_empty(), "ClusterFirst keeps the host's");
    }

    #[test]
    fn network_ports_aliases_and_dns() {
        let p = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: ns}\nspec:\n  subdomain: sub\n  hostAliases: [{ip: 10.1.2.3, hostnames: [foo.local, bar.local]}]\n  dnsConfig: {nameservers: [1.2.3.4], searches: [a.b], options: [{name: ndots, value: '2'}, {name: edns0}]}\n  containers:\n  - name: c\n    image: x\n    ports: [{containerPort: 80, hostPort: 8080}, {containerPort: 53, protocol: UDP}]\n");
        let n = pod_network(&p, None);
        assert_eq!(n.hostname.as_deref(), Some("web"));
        assert_eq!(n.domainname.as_deref(), Some("sub.ns.svc.cluster.local"));
        assert_eq!(
            n.ports,
            [PortBinding { container_port: 80, protocol: "tcp".into(), host_ip: None, host_port: 8080 }]
        );
        assert_eq!(n.extra_hosts, ["foo.local:10.1.2.3", "bar.local:10.1.2.3"]);
        assert_eq!(n.dns.servers, ["1.2.3.4"]);
        assert_eq!(n.dns.searches, ["a.b"]);
        assert_eq!(n.dns.options, ["ndots:2", "edns0"]);
        assert_eq!(pod_network(&p, Some("net")).mode, NetworkMode::Named("net".into()));
    }
}
