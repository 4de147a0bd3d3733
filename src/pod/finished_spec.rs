//! A pod member's container spec finished from the pod's prepared files: after `create_spec`
//! built it from the manifest, the infra container's user namespace, the volume mounts, the
//! termination-log file and the pod's /etc/hosts are added, where podrun made them.

use crate::pod::desired::{DesiredContainer, DesiredPod, InfraRef, Role};
use crate::pod::env::EnvError;
use crate::pod::files::PodFiles;
use crate::pod::hosts;
use crate::pod::userns::{self, UsernsError};
use crate::pod::volumes::{engine, VolumeError, VolumeSetup};
use crate::private_fs::PrivateFsError;
use crate::runtime::labels;
use crate::runtime::{CreateSpec, Mount, Namespaces, Propagation, Runtime, RuntimeError};

/// What the pod has prepared for its members: podrun's host files (where the engine can mount
/// them) and its volumes.
#[derive(Clone, Copy)]
pub struct Prepared<'a> {
    pub files: Option<&'a PodFiles>,
    pub setup: Option<&'a VolumeSetup>,
}

/// Which instance of which member the spec is for, in which pod.
#[derive(Clone, Copy)]
pub struct Member<'a> {
    pub desired: &'a DesiredPod,
    pub container: &'a DesiredContainer,
    pub attempt: u32,
    /// The pod's infra container, for a member that joins it.
    pub infra: Option<&'a InfraRef>,
}

/// Why a container spec could not be finished (the kubelet's CreateContainerConfigError).
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(transparent)]
    Volume(#[from] VolumeError),
    #[error("termination-log file")]
    TerminationLog(#[source] std::io::Error),
    #[error("termination-log file")]
    TerminationLogFile(#[source] PrivateFsError),
    #[error("/etc/hosts file")]
    EtcHosts(#[source] PrivateFsError),
    #[error(transparent)]
    UserNamespace(#[from] UsernsError),
    #[error("a user namespace for the pod needs podrun's state directory on the engine's host")]
    UserNamespaceElsewhere,
}

/// Adds to `spec` what the pod prepared for this member: the user namespace (infra), the
/// volume mounts, the termination-log file, and /etc/hosts.
pub async fn finish_spec<R: Runtime>(
    rt: &R,
    prepared: Prepared<'_>,
    member: Member<'_>,
    spec: &mut CreateSpec,
) -> Result<(), SpecError> {
    let Prepared { files, setup } = prepared;
    let Member { desired, container: c, infra, .. } = member;
    give_user_namespace(files, desired, spec)?;
    if let Some(setup) = setup {
        if c.role == Role::Infra {
            spec.mounts.extend(setup.infra_mounts());
        } else {
            let mounts = setup.mounts_for(&c.name, &env_of(spec))?;
            spec.mounts.extend(mounts);
        }
    }
    if c.role == Role::Infra {
        return Ok(());
    }
    termination_log(rt, prepared, member, spec).await?;
    if let Some(files) = files {
        if let Some(m) = etc_hosts_mount(files, desired, infra, &spec.mounts).map_err(SpecError::EtcHosts)? {
            spec.mounts.push(m);
        }
    }
    Ok(())
}

/// A member started again after a create by an earlier run, which may have been stopped right
/// there: its sub-paths are opened and mounted again (the same mount points its mounts name),
/// so what it gets is what they are now, checked, whatever happened to them meanwhile.
pub fn mount_sub_paths_again(setup: Option<&VolumeSetup>, member: Member<'_>) -> Result<(), SpecError> {
    let Member { desired, container: c, attempt, infra } = member;
    if let (Some(setup), Role::Init | Role::App) = (setup, c.role) {
        let (spec, _) = desired.create_spec(c, attempt, infra)?;
        setup.mounts_for(&c.name, &env_of(&spec))?;
    }
    Ok(())
}

/// The member's termination-log file, bound at its termination message path: in podrun's
/// files, else (the files elsewhere) in the pod's termination volume on the engine. A volume
/// mounted at that path takes its place.
async fn termination_log<R: Runtime>(
    rt: &R,
    prepared: Prepared<'_>,
    member: Member<'_>,
    spec: &mut CreateSpec,
) -> Result<(), SpecError> {
    let Member { desired, container: c, attempt, infra } = member;
    if spec.mounts.iter().any(|m| m.target() == c.termination_message_path) {
        return Ok(());
    }
    if let Some(files) = prepared.files {
        let path =
            files.prepare_termination_log(&desired.uid, &c.name, attempt).map_err(SpecError::TerminationLogFile)?;
        spec.mounts.push(Mount::bind(path.to_string_lossy(), c.termination_message_path.clone(), false));
    } else if let (Some(_), Some(infra)) = (prepared.setup, infra) {
        let log = engine_termination_log(rt, &desired.uid, &infra.id, &c.name, attempt).await?;
        // rslave: Docker refuses a private bind of a path under its own root (where the
        // volume is), for fear of holding mounts there.
        spec.mounts.push(Mount::Bind {
            source: log,
            target: c.termination_message_path.clone(),
            read_only: false,
            propagation: Propagation::HostToContainer,
            recursive_read_only: false,
        });
    }
    Ok(())
}

/// An infra container of a pod with `hostUsers: false` gets the pod's id range (allocated, or
/// the one it holds), and a label saying which; other containers join its namespace.
fn give_user_namespace(files: Option<&PodFiles>, desired: &DesiredPod, spec: &mut CreateSpec) -> Result<(), SpecError> {
    let Namespaces::Infra(net) = &mut spec.namespaces else { return Ok(()) };
    if desired.manifest.spec.host_users != Some(false) {
        return Ok(());
    }
    let files = files.ok_or(SpecError::UserNamespaceElsewhere)?;
    let range = userns::allocate(files, &desired.uid)?;
    net.user_namespace = Some(range);
    spec.labels.insert(labels::USER_NAMESPACE.to_owned(), format!("{}:{}", range.host_id, range.size));
    Ok(())
}

/// The pod's /etc/hosts, written as the kubelet writes it (`pod::hosts`), to mount into a
/// member: not where the container mounts something else at /etc/hosts, nor while a pod on
/// its own network has no address yet (kubelet_pods.go: shouldMountHostsFile).
fn etc_hosts_mount(
    files: &PodFiles,
    desired: &DesiredPod,
    infra: Option<&InfraRef>,
    mounts: &[Mount],
) -> Result<Option<Mount>, PrivateFsError> {
    if mounts.iter().any(|m| m.target() == hosts::ETC_HOSTS) {
        return Ok(None);
    }
    let aliases = &desired.manifest.spec.host_aliases;
    let content = if desired.network.mode == crate::runtime::NetworkMode::Host {
        hosts::host_network(&std::fs::read_to_string(hosts::ETC_HOSTS).unwrap_or_default(), aliases)
    } else {
        let Some(ip) = infra.and_then(|i| i.ip.clone()).filter(|ip| !ip.is_empty()) else { return Ok(None) };
        // The short hostname and the domain: the kernel's may be the FQDN (setHostnameAsFQDN).
        let names = crate::pod::settings::pod_hostname(&desired.manifest);
        hosts::managed(&[ip], &names.hostname, names.domain.as_deref(), aliases)
    };
    let path = files.write_etc_hosts(&desired.uid, &content)?;
    Ok(Some(Mount::bind(path.to_string_lossy(), hosts::ETC_HOSTS, false)))
}

/// Makes one instance's termination-log file in the pod's termination volume (through the
/// infra container, which mounts it) and returns its path on the engine's host, for a bind mount.
async fn engine_termination_log<R: Runtime>(
    rt: &R,
    uid: &str,
    infra_id: &str,
    container: &str,
    attempt: u32,
) -> Result<String, SpecError> {
    let tar = engine::termination_log_archive(container, attempt).map_err(SpecError::TerminationLog)?;
    rt.put_archive(infra_id, engine::INFRA_TERMINATION_DIR, tar).await?;
    let mountpoint = rt.volume_mountpoint(&engine::termination_volume_name(uid)).await?;
    Ok(format!("{}/{container}-{attempt}", mountpoint.trim_end_matches('/')))
}

/// A container's environment as `subPathExpr` expands against it: `NAME`, value, in order.
pub fn env_of(spec: &CreateSpec) -> Vec<(String, String)> {
    spec.env.iter().filter_map(|e| e.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
}
