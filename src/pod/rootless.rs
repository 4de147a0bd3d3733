//! What a rootless engine (Podman or Docker run by an ordinary user, inside a user namespace)
//! cannot give a pod, found before anything is created. Each was tried on rootless Podman 4.3
//! (cgroup v1); see docs/engines.md, "Rootless Podman".
//!
//! Refused (exit 2, naming the field), because the pod could never start:
//! - `hostNetwork`: the infra container gets the host's network namespace, but the pod's other
//!   containers cannot join it (the host's namespace is not the engine's user namespace's to
//!   share): they fail to start ("can't get final child's PID from pipe").
//! - a `hostPort` below `net.ipv4.ip_unprivileged_port_start` (1024 unless the host lowered
//!   it): the engine's port forwarder, running as the user, cannot bind it.
//! - a user or group id the engine's user namespace does not map (the user's /etc/subuid and
//!   /etc/subgid ranges): the container cannot run as it.
//! - `hostUsers: false`: the pod's user namespace would nest in the engine's, whose 65537 ids
//!   (the user and one /etc/subuid range by convention) hold no 65536-id range per pod beside
//!   the engine's own root, as the kubelet's mappings need.
//!
//! Warned and dropped, as Podman's own `kube play` does, because the pod runs, only without it:
//! - cgroup limits (CPU and memory limits and requests) on a cgroup v1 host: an ordinary user
//!   has no cgroup v1 hierarchy of its own, and Podman ignores them (the container runs
//!   unlimited); podrun leaves them out of the create request, so what the engine shows is what
//!   holds.
//! - `fsGroup`'s ownership of volume files: podrun, an ordinary user like the engine, cannot
//!   give files a group of the user namespace (and root podrun would give the host's group,
//!   which the container sees as `nogroup`). The containers still get the group as a
//!   supplementary one.
//!
//! Told, because it works but not as on a node: a hostPath whose owner is not this user shows
//! in the container as owned by `nobody`, open only as its bits allow others.

use std::os::unix::fs::MetadataExt;

use crate::manifest::types::{Container, Pod, PodSpec};
use crate::runtime::{CpuSettings, EngineSecurity};

use super::DesiredPod;

/// Where the host says which ports ordinary users may bind.
const UNPRIVILEGED_PORT_START: &str = "/proc/sys/net/ipv4/ip_unprivileged_port_start";
/// The kernel's default for it.
const DEFAULT_UNPRIVILEGED_PORT_START: i64 = 1024;

/// Whether the pod asks for anything [`check`] decides on, so the engine need be asked whether
/// it is rootless only then (Podman takes over half a second to answer).
pub fn concerns(pod: &Pod) -> bool {
    let s = &pod.spec;
    let containers = || s.init_containers.iter().chain(&s.containers);
    s.host_network == Some(true)
        || s.host_users == Some(false)
        || s.security_context.as_ref().is_some_and(|sc| {
            sc.run_as_user.is_some()
                || sc.run_as_group.is_some()
                || sc.fs_group.is_some()
                || !sc.supplemental_groups.is_empty()
        })
        || s.volumes.iter().any(|v| v.host_path.is_some())
        || containers().any(|c| {
            c.ports.iter().any(|p| p.host_port.is_some_and(|h| h > 0))
                || c.resources.as_ref().is_some_and(|r| !r.limits.is_empty() || !r.requests.is_empty())
                || c.security_context.as_ref().is_some_and(|sc| sc.run_as_user.is_some() || sc.run_as_group.is_some())
        })
}

/// The lowest port an ordinary user may bind on this host, when the engine shares this host.
pub fn unprivileged_port_start(local: bool) -> i64 {
    local
        .then(|| std::fs::read_to_string(UNPRIVILEGED_PORT_START).ok())
        .flatten()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_UNPRIVILEGED_PORT_START)
}

/// Checks `d` against a rootless engine (nothing to do for another): `Err` is why it cannot
/// run; otherwise what was dropped or differs, for warnings, with `d` changed to match.
/// `port_start` is [`unprivileged_port_start`]; `local` whether the engine shares this host.
pub fn check(
    d: &mut DesiredPod,
    sec: &EngineSecurity,
    port_start: i64,
    local: bool,
) -> Result<Vec<String>, RootlessError> {
    if !sec.rootless {
        return Ok(Vec::new());
    }
    refuse(&d.manifest, sec, port_start)?;
    let mut warnings = Vec::new();
    if sec.cgroup_version == Some(1) {
        warnings.extend(drop_cgroup_limits(d));
    }
    warnings.extend(drop_fs_group(&mut d.manifest.spec));
    if local {
        warnings.extend(foreign_host_paths(&d.manifest.spec));
    }
    Ok(warnings)
}

/// The pod's containers, init containers first, each with its field path.
fn containers_at(spec: &PodSpec) -> impl Iterator<Item = (String, &Container)> {
    let init = spec.init_containers.iter().enumerate().map(|(i, c)| (format!("spec.initContainers[{i}]"), c));
    init.chain(spec.containers.iter().enumerate().map(|(i, c)| (format!("spec.containers[{i}]"), c)))
}

/// What the pod asks for that could never start under a rootless engine.
fn refuse(pod: &Pod, sec: &EngineSecurity, port_start: i64) -> Result<(), RootlessError> {
    let spec = &pod.spec;
    if spec.host_network == Some(true) {
        return Err(RootlessError::HostNetwork);
    }
    if spec.host_users == Some(false) {
        return Err(RootlessError::UserNamespace);
    }
    for (path, c) in containers_at(spec) {
        for (j, p) in c.ports.iter().enumerate() {
            if let Some(h) = p.host_port.filter(|&h| h > 0 && h < port_start) {
                return Err(RootlessError::LowHostPort {
                    field: format!("{path}.ports[{j}].hostPort"),
                    port: h,
                    port_start,
                });
            }
        }
    }
    check_ids(pod, sec)
}

/// Drops every container's CPU and memory limits and requests (a rootless engine on a cgroup v1
/// host ignores them), and says which the manifest asked for.
fn drop_cgroup_limits(d: &mut DesiredPod) -> Option<String> {
    // Named by what the manifest asks for; dropped everywhere (a container without
    // resources gets the lowest CPU shares, as from a kubelet).
    let asked: Vec<String> = containers_at(&d.manifest.spec)
        .filter(|(_, c)| c.resources.as_ref().is_some_and(|r| !r.limits.is_empty() || !r.requests.is_empty()))
        .map(|(path, _)| format!("{path}.resources"))
        .collect();
    for c in d.init.iter_mut().chain(&mut d.containers) {
        let s = &mut c.settings;
        (s.cpu, s.memory_limit, s.memory_reservation) = (CpuSettings::default(), None, None);
    }
    (!asked.is_empty()).then(|| {
        format!(
            "{}: not enforced: the engine is rootless on a cgroup v1 host, where an ordinary user cannot set \
             CPU and memory limits; the containers run without them",
            asked.join(", ")
        )
    })
}

/// Drops `fsGroup`'s ownership of volume files (the containers keep the group), and says so
/// when the pod has volumes.
fn drop_fs_group(spec: &mut PodSpec) -> Option<String> {
    let group = spec.security_context.as_mut().and_then(|sc| sc.fs_group.take())?;
    (!spec.volumes.is_empty()).then(|| {
        format!(
            "spec.securityContext.fsGroup: volume files are not given group {group}: the engine is rootless, and \
             its user namespace's groups are not podrun's to give; the containers still have the group"
        )
    })
}

/// The hostPath volumes a container uses owned by another user than podrun's, which the
/// containers see as owned by nobody.
fn foreign_host_paths(spec: &PodSpec) -> Vec<String> {
    let mut warnings = Vec::new();
    let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    let used = super::volumes::used_volumes(spec);
    for (i, v) in spec.volumes.iter().enumerate().filter(|(_, v)| used.contains(v.name.as_str())) {
        let Some(hp) = &v.host_path else { continue };
        let owner = std::fs::metadata(&hp.path).map(|m| m.uid()).ok();
        if let (Some(owner), Some(me)) = (owner, me) {
            if owner == me {
                continue;
            }
            warnings.push(format!(
                "spec.volumes[{i}].hostPath: {} belongs to uid {owner}, not to podrun's user ({me}): in a rootless \
                 engine's containers it shows as owned by nobody, open only as its permissions allow others",
                hp.path
            ));
        }
    }
    warnings
}

/// What a rootless engine cannot give a pod, at its field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootlessError {
    #[error(
        "spec.hostNetwork: Unsupported value: true: the engine is rootless, and the pod's containers cannot join \
         the host's network namespace from its user namespace"
    )]
    HostNetwork,
    #[error(
        "spec.hostUsers: Unsupported value: false: the engine is rootless, and a user namespace for the pod would \
         nest in the engine's, which maps too few ids for a 65536-id range per pod; run it on a rootful Podman"
    )]
    UserNamespace,
    #[error(
        "{field}: Invalid value: {port}: the engine is rootless, and an ordinary user cannot bind a host port \
         below {port_start} (net.ipv4.ip_unprivileged_port_start)"
    )]
    LowHostPort { field: String, port: i64, port_start: i64 },
    #[error(
        "{field}: Invalid value: {id}: the engine is rootless, and its user namespace maps ids 0 to {last} only \
         (the ranges in /etc/{file} for its user)"
    )]
    UnmappedId { field: String, id: i64, last: u64, file: &'static str },
}

/// Every user and group id the pod's processes run with must be one the engine maps.
fn check_ids(pod: &Pod, sec: &EngineSecurity) -> Result<(), RootlessError> {
    let spec = &pod.spec;
    let psc = spec.security_context.as_ref();
    let mut ids: Vec<(String, i64, Option<u64>, &str)> = Vec::new();
    if let Some(psc) = psc {
        ids.extend(psc.run_as_user.map(|u| ("spec.securityContext.runAsUser".to_owned(), u, sec.uids, "subuid")));
        ids.extend(psc.run_as_group.map(|g| ("spec.securityContext.runAsGroup".to_owned(), g, sec.gids, "subgid")));
        ids.extend(psc.fs_group.map(|g| ("spec.securityContext.fsGroup".to_owned(), g, sec.gids, "subgid")));
        for (i, &g) in psc.supplemental_groups.iter().enumerate() {
            ids.push((format!("spec.securityContext.supplementalGroups[{i}]"), g, sec.gids, "subgid"));
        }
    }
    for (path, c) in containers_at(spec) {
        let Some(sc) = &c.security_context else { continue };
        ids.extend(sc.run_as_user.map(|u| (format!("{path}.securityContext.runAsUser"), u, sec.uids, "subuid")));
        ids.extend(sc.run_as_group.map(|g| (format!("{path}.securityContext.runAsGroup"), g, sec.gids, "subgid")));
    }
    for (field, id, mapped, file) in ids {
        if let Some(n) = mapped.filter(|&n| u64::try_from(id).is_ok_and(|id| id >= n)) {
            return Err(RootlessError::UnmappedId { field, id, last: n.saturating_sub(1), file });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{self, LoadOptions, Source};

    fn pod(yaml: &str) -> DesiredPod {
        let source = Source { name: "pod.yaml".into(), text: yaml.into(), warning: None };
        let loaded = manifest::load(&source, &LoadOptions::default()).unwrap();
        DesiredPod::from_loaded(&loaded.pods[0], "infra", None)
    }

    fn rootless(cgroup: u8) -> EngineSecurity {
        EngineSecurity { rootless: true, cgroup_version: Some(cgroup), uids: Some(65537), gids: Some(65537) }
    }

    const HEAD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n";

    #[test]
    fn a_rootful_engine_changes_nothing() {
        let yaml = format!(
            "{HEAD}  hostNetwork: true\n  containers: [{{name: c, image: x, ports: [{{containerPort: 80, hostPort: 80}}]}}]\n"
        );
        let mut d = pod(&yaml);
        let before = d.clone();
        assert_eq!(check(&mut d, &EngineSecurity::default(), 1024, true), Ok(Vec::new()));
        assert_eq!((d.containers, d.manifest.spec.host_network), (before.containers, Some(true)));
        let d = pod(&yaml);
        assert!(concerns(&d.manifest));
        assert!(!concerns(&pod(&format!("{HEAD}  containers: [{{name: c, image: x}}]\n")).manifest));
    }

    #[test]
    fn host_network_and_low_host_ports_are_refused_naming_the_field() {
        let mut d = pod(&format!("{HEAD}  hostNetwork: true\n  containers: [{{name: c, image: x}}]\n"));
        let e = check(&mut d, &rootless(1), 1024, true).unwrap_err().to_string();
        assert!(e.starts_with("spec.hostNetwork: Unsupported value: true: the engine is rootless"), "{e}");

        let ports = "ports: [{containerPort: 8080, hostPort: 8080}, {containerPort: 80, hostPort: 80}]";
        let yaml = format!("{HEAD}  containers: [{{name: a, image: x}}, {{name: c, image: x, {ports}}}]\n");
        let e = check(&mut pod(&yaml), &rootless(2), 1024, true).unwrap_err().to_string();
        assert!(e.starts_with("spec.containers[1].ports[1].hostPort: Invalid value: 80: "), "{e}");
        assert!(e.contains("below 1024 (net.ipv4.ip_unprivileged_port_start)"), "{e}");
        // A host that lets users bind low ports.
        assert_eq!(check(&mut pod(&yaml), &rootless(2), 80, true), Ok(Vec::new()));
    }

    #[test]
    fn ids_outside_the_user_namespace_are_refused() {
        let yaml = format!(
            "{HEAD}  securityContext: {{runAsUser: 1000, supplementalGroups: [4000, 70000]}}\n  containers: [{{name: c, image: x}}]\n"
        );
        let e = check(&mut pod(&yaml), &rootless(2), 1024, true).unwrap_err().to_string();
        assert!(e.starts_with("spec.securityContext.supplementalGroups[1]: Invalid value: 70000: "), "{e}");
        assert!(e.contains("maps ids 0 to 65536 only (the ranges in /etc/subgid for its user)"), "{e}");
        let yaml = format!(
            "{HEAD}  containers: [{{name: c, image: x, securityContext: {{runAsUser: 65536, runAsGroup: 65537}}}}]\n"
        );
        let e = check(&mut pod(&yaml), &rootless(2), 1024, true).unwrap_err().to_string();
        assert!(e.starts_with("spec.containers[0].securityContext.runAsGroup: Invalid value: 65537"), "{e}");
        // Unknown mappings (Docker does not show them) refuse nothing.
        let unknown = EngineSecurity { uids: None, gids: None, ..rootless(2) };
        assert_eq!(check(&mut pod(&yaml), &unknown, 1024, true), Ok(Vec::new()));
    }

    #[test]
    fn cgroup_limits_on_cgroup_v1_are_dropped_with_a_warning() {
        let res = "resources: {limits: {memory: 64Mi, cpu: 500m}}";
        let yaml =
            format!("{HEAD}  initContainers: [{{name: i, image: x}}]\n  containers: [{{name: c, image: x, {res}}}]\n");
        let mut d = pod(&yaml);
        assert!(d.containers[0].settings.memory_limit.is_some());
        let w = check(&mut d, &rootless(1), 1024, true).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("spec.containers[0].resources: not enforced: the engine is rootless on a cgroup v1"));
        let s = &d.containers[0].settings;
        assert_eq!((s.cpu, s.memory_limit, s.memory_reservation), (CpuSettings::default(), None, None));
        // cgroup v2 delegates them to the user.
        let mut d = pod(&yaml);
        assert_eq!(check(&mut d, &rootless(2), 1024, true), Ok(Vec::new()));
        assert!(d.containers[0].settings.memory_limit.is_some());
    }

    #[test]
    fn fs_group_keeps_the_group_but_not_the_files_ownership() {
        let yaml = format!(
            "{HEAD}  securityContext: {{fsGroup: 2000}}\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, emptyDir: {{}}}}]\n"
        );
        let mut d = pod(&yaml);
        let w = check(&mut d, &rootless(2), 1024, true).unwrap();
        assert!(w[0].starts_with("spec.securityContext.fsGroup: volume files are not given group 2000"), "{w:?}");
        assert_eq!(d.manifest.spec.security_context.as_ref().and_then(|s| s.fs_group), None);
        assert!(d.containers[0].settings.group_add.contains(&"2000".to_owned()), "{:?}", d.containers[0].settings);
    }

    #[test]
    fn a_host_path_of_another_user_is_told() {
        let yaml = format!(
            "{HEAD}  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, hostPath: {{path: /proc/1}}}}]\n"
        );
        let me = std::fs::metadata("/proc/self").unwrap().uid();
        let owner = std::fs::metadata("/proc/1").unwrap().uid();
        let w = check(&mut pod(&yaml), &rootless(2), 1024, true).unwrap();
        assert_eq!(w.len(), usize::from(me != owner), "{w:?}");
        // An engine elsewhere: the path is not this host's.
        assert_eq!(check(&mut pod(&yaml), &rootless(2), 1024, false), Ok(Vec::new()));
    }
}
