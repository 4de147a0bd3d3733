//! A pod member as the CRI's `ContainerConfig`, as the kubelet builds it
//! (kuberuntime_container.go: generateContainerConfig, and its security context).

use std::collections::BTreeMap;

use super::api;
use super::paths;
use super::sandbox::mode;
use crate::runtime::{labels, ContainerSettings, CreateSpec, Mount, PidMode, Propagation, RuntimeError};

/// The kubelet's masked and read-only /proc paths for the Default procMount
/// (pkg/securitycontext: defaultMaskedPaths, defaultReadonlyPaths): the runtime applies the
/// lists it is sent.
const MASKED_PATHS: &[&str] = &[
    "/proc/asound",
    "/proc/acpi",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/scsi",
    "/sys/firmware",
];
const READONLY_PATHS: &[&str] = &["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"];

/// The config of `spec`, a member of the sandbox. `volume_path` gives where a named volume
/// lives on the host.
pub fn config(
    spec: &CreateSpec,
    labels_: BTreeMap<String, String>,
    pid: PidMode,
    ipc_host: bool,
    volume_path: impl Fn(&str) -> String,
) -> Result<api::ContainerConfig, RuntimeError> {
    let attempt: u32 = labels_.get(labels::ATTEMPT).and_then(|a| a.parse().ok()).unwrap_or(0);
    let container = labels_.get(labels::CONTAINER_NAME).cloned().unwrap_or_else(|| spec.name.clone());
    let envs = spec
        .env
        .iter()
        .map(|e| {
            let (key, value) = e.split_once('=').unwrap_or((e, ""));
            api::KeyValue { key: key.to_owned(), value: value.as_bytes().to_vec() }
        })
        .collect();
    let mounts = spec.mounts.iter().map(|m| mount(m, &volume_path)).collect();
    Ok(api::ContainerConfig {
        metadata: Some(api::ContainerMetadata { name: spec.name.clone(), attempt }),
        image: Some(api::ImageSpec { image: spec.image.clone(), ..Default::default() }),
        command: spec.entrypoint.clone().unwrap_or_default(),
        args: spec.cmd.clone().unwrap_or_default(),
        working_dir: spec.working_dir.clone().unwrap_or_default(),
        envs,
        mounts,
        labels: labels_.into_iter().collect(),
        annotations: std::collections::HashMap::from([(super::IMAGE_ANNOTATION.to_owned(), spec.image.clone())]),
        log_path: paths::container_log_path(&container, attempt),
        stdin: spec.settings.stdin,
        stdin_once: spec.settings.stdin_once,
        tty: spec.settings.tty,
        linux: Some(linux(&spec.name, &spec.settings, pid, ipc_host)?),
        ..Default::default()
    })
}

fn mount(m: &Mount, volume_path: &impl Fn(&str) -> String) -> api::Mount {
    match m {
        Mount::Bind { source, target, read_only, propagation, recursive_read_only } => api::Mount {
            container_path: target.clone(),
            host_path: source.clone(),
            readonly: *read_only,
            // Only where the runtime handler announces it (`features_of`): the kubelet's check.
            recursive_read_only: *recursive_read_only,
            propagation: match propagation {
                Propagation::Private => api::MountPropagation::PropagationPrivate as i32,
                Propagation::HostToContainer => api::MountPropagation::PropagationHostToContainer as i32,
                Propagation::Bidirectional => api::MountPropagation::PropagationBidirectional as i32,
            },
            ..Default::default()
        },
        Mount::Volume { name, target, read_only } => api::Mount {
            container_path: target.clone(),
            host_path: volume_path(name),
            readonly: *read_only,
            ..Default::default()
        },
        Mount::Image { image, target, sub_path } => api::Mount {
            container_path: target.clone(),
            readonly: true,
            image: Some(api::ImageSpec { image: image.clone(), ..Default::default() }),
            image_sub_path: sub_path.clone().unwrap_or_default(),
            ..Default::default()
        },
    }
}

/// Whether the runtime mounts an image (`Mount.image`, `image_sub_path`): the CRI announces
/// no such feature (a runtime that does not know the field drops it, and would mount nothing),
/// so a kubelet's operator picks the runtime, and podrun goes by the runtime's name and version
/// from `Version`: containerd 2.1 and CRI-O 1.31 added them.
pub fn mounts_images(runtime_name: &str, runtime_version: &str) -> bool {
    let mut parts = runtime_version.trim_start_matches('v').split(['.', '-', '+', '~']).map(str::parse::<u32>);
    let (Some(Ok(major)), Some(Ok(minor))) = (parts.next(), parts.next()) else { return false };
    match runtime_name {
        "containerd" => (major, minor) >= (2, 1),
        "cri-o" => (major, minor) >= (1, 31),
        _ => false,
    }
}

/// The container's CPU and memory as the kubelet gives them to the runtime, on create and on
/// an in-place resize alike (kuberuntime's generateLinuxContainerResources): CFS quota and
/// period, shares, the memory limit. The memory request has no cgroup v1 knob there.
pub(super) fn resources(s: &ContainerSettings) -> api::LinuxContainerResources {
    api::LinuxContainerResources {
        cpu_period: s.cpu.period.unwrap_or(0),
        cpu_quota: s.cpu.quota.unwrap_or(0),
        cpu_shares: s.cpu.shares.unwrap_or(0),
        memory_limit_in_bytes: s.memory_limit.unwrap_or(0),
        ..Default::default()
    }
}

fn linux(
    name: &str,
    s: &ContainerSettings,
    pid: PidMode,
    ipc_host: bool,
) -> Result<api::LinuxContainerConfig, RuntimeError> {
    let resources = api::LinuxContainerResources { oom_score_adj: s.oom_score_adj.unwrap_or(0), ..resources(s) };
    let mut security = api::LinuxContainerSecurityContext {
        capabilities: Some(api::Capability {
            add_capabilities: s.cap_add.clone(),
            drop_capabilities: s.cap_drop.clone(),
            ..Default::default()
        }),
        privileged: s.privileged,
        namespace_options: Some(api::NamespaceOption {
            network: api::NamespaceMode::Pod as i32,
            pid: match pid {
                PidMode::Private => mode(false, false),
                PidMode::Host => mode(true, false),
                PidMode::Infra => mode(false, true),
            },
            ipc: mode(ipc_host, true),
            ..Default::default()
        }),
        readonly_rootfs: s.read_only_rootfs,
        supplemental_groups: s.group_add.iter().filter_map(|g| g.parse().ok()).collect(),
        supplemental_groups_policy: if s.strict_groups {
            api::SupplementalGroupsPolicy::Strict as i32
        } else {
            api::SupplementalGroupsPolicy::Merge as i32
        },
        ..Default::default()
    };
    if let Some(user) = &s.user {
        let (uid, gid) = user.split_once(':').map_or((user.as_str(), None), |(u, g)| (u, Some(g)));
        match uid.parse::<i64>() {
            Ok(uid) => security.run_as_user = Some(api::Int64Value { value: uid }),
            Err(_) => security.run_as_username = uid.to_owned(),
        }
        if let Some(gid) = gid.and_then(|g| g.parse::<i64>().ok()) {
            security.run_as_group = Some(api::Int64Value { value: gid });
        }
    }
    if !s.unmasked_proc {
        security.masked_paths = MASKED_PATHS.iter().map(|p| (*p).to_owned()).collect();
        security.readonly_paths = READONLY_PATHS.iter().map(|p| (*p).to_owned()).collect();
    }
    apply_security_opts(name, &s.security_opt, &mut security)?;
    Ok(api::LinuxContainerConfig { resources: Some(resources), security_context: Some(security) })
}

/// The container's `security_opt` (Docker's words: no-new-privileges, seccomp, apparmor) put in
/// its security context. A Localhost seccomp profile is refused (see
/// `NotSupported::CriLocalhostSeccomp`).
fn apply_security_opts(
    name: &str,
    security_opt: &[String],
    security: &mut api::LinuxContainerSecurityContext,
) -> Result<(), RuntimeError> {
    // Without a word from the pod, podrun gives the runtime's default profile, as the Docker
    // engine does; the CRI's own default would be none at all.
    let mut seccomp = api::security_profile::ProfileType::RuntimeDefault;
    for opt in security_opt {
        match opt.split_once(['=', ':']) {
            Some(("no-new-privileges", "true")) => security.no_new_privs = true,
            Some(("seccomp", "unconfined")) => seccomp = api::security_profile::ProfileType::Unconfined,
            Some(("seccomp", _)) => {
                return Err(RuntimeError::Unsupported {
                    what: format!("create container {name}"),
                    why: crate::runtime::NotSupported::CriLocalhostSeccomp,
                })
            }
            Some(("apparmor", "unconfined")) => {
                security.apparmor = Some(api::SecurityProfile {
                    profile_type: api::security_profile::ProfileType::Unconfined as i32,
                    localhost_ref: String::new(),
                });
            }
            Some(("apparmor", profile)) => {
                security.apparmor = Some(api::SecurityProfile {
                    profile_type: api::security_profile::ProfileType::Localhost as i32,
                    localhost_ref: profile.to_owned(),
                });
            }
            _ => {}
        }
    }
    security.seccomp = Some(api::SecurityProfile { profile_type: seccomp as i32, localhost_ref: String::new() });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Namespaces;

    fn spec() -> CreateSpec {
        CreateSpec {
            name: "podrun_ns_web_app_1".into(),
            image: "busybox:latest".into(),
            entrypoint: Some(vec!["sh".into()]),
            cmd: Some(vec!["-c".into(), "true".into()]),
            env: vec!["A=1=2".into(), "B".into()],
            working_dir: None,
            labels: BTreeMap::new(),
            namespaces: Namespaces::Join {
                infra_id: "s".into(),
                pid: PidMode::Infra,
                ipc_host: false,
                userns: false,
                uts_host: false,
            },
            stop_timeout: None,
            mounts: vec![
                Mount::bind("/var/lib/podrun/x", "/data", true),
                Mount::Volume { name: "v".into(), target: "/v".into(), read_only: false },
            ],
            settings: ContainerSettings { user: Some("1000:2000".into()), ..Default::default() },
            pod_cgroup: None,
        }
    }

    #[test]
    fn a_member_gets_the_kubelets_config() {
        let labels_ = BTreeMap::from([
            (labels::ATTEMPT.to_owned(), "1".to_owned()),
            (labels::CONTAINER_NAME.to_owned(), "app".to_owned()),
        ]);
        let c = config(&spec(), labels_, PidMode::Infra, false, |v| format!("/vols/{v}")).unwrap();
        assert_eq!(c.metadata.as_ref().unwrap().attempt, 1);
        assert_eq!(c.log_path, "app/1.log");
        assert_eq!(c.command, ["sh"]);
        assert_eq!(c.envs[0].key, "A");
        assert_eq!(c.envs[0].value, b"1=2");
        assert_eq!(c.envs[1].value, b"");
        assert!(c.mounts[0].readonly);
        assert_eq!(c.mounts[1].host_path, "/vols/v");
        let sec = c.linux.unwrap().security_context.unwrap();
        assert_eq!(sec.run_as_user.unwrap().value, 1000);
        assert_eq!(sec.run_as_group.unwrap().value, 2000);
        assert_eq!(sec.namespace_options.unwrap().pid, api::NamespaceMode::Pod as i32);
        assert_eq!(sec.seccomp.unwrap().profile_type, api::security_profile::ProfileType::RuntimeDefault as i32);
        assert!(sec.masked_paths.contains(&"/proc/kcore".to_owned()));
    }

    #[test]
    fn an_image_volume_is_a_mount_of_the_image_on_runtimes_that_make_one() {
        let mut s = spec();
        s.mounts = vec![Mount::Image { image: "alpine:3".into(), target: "/i".into(), sub_path: Some("etc".into()) }];
        let c = config(&s, BTreeMap::new(), PidMode::Private, false, |v| v.to_owned()).unwrap();
        let m = &c.mounts[0];
        assert_eq!((m.host_path.as_str(), m.readonly, m.image_sub_path.as_str()), ("", true, "etc"));
        assert_eq!(m.image.as_ref().map(|i| i.image.as_str()), Some("alpine:3"));
        for (name, version, mounts) in [
            ("containerd", "v1.6.20", false),
            ("containerd", "v2.0.5", false),
            ("containerd", "v2.1.0", true),
            ("containerd", "2.2.0-rc.1", true),
            ("cri-o", "1.30.4", false),
            ("cri-o", "1.31.0", true),
            ("other", "9.9.9", false),
            ("containerd", "", false),
        ] {
            assert_eq!(mounts_images(name, version), mounts, "{name} {version}");
        }
    }

    #[test]
    fn a_profile_from_the_pods_file_is_refused_by_name() {
        let mut s = spec();
        s.settings.security_opt.push("seccomp={\"defaultAction\":\"SCMP_ACT_ALLOW\"}".into());
        assert!(matches!(
            config(&s, BTreeMap::new(), PidMode::Private, false, |v| v.to_owned()),
            Err(RuntimeError::Unsupported { .. })
        ));
    }
}
