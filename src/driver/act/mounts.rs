//! Files podrun mounts into a pod member beside its volumes: the pod's /etc/hosts, and each
//! instance's termination-log file when it lives on the engine.

use crate::pod::files::PodFiles;
use crate::pod::hosts;
use crate::pod::volumes::engine;
use crate::pod::{DesiredPod, InfraRef};
use crate::runtime::{Mount, Runtime};

use super::StepError;

/// The pod's /etc/hosts, written as the kubelet writes it (`pod::hosts`), to mount into a
/// member: not where the container mounts something else at /etc/hosts, nor while a pod on
/// its own network has no address yet (kubelet_pods.go: shouldMountHostsFile).
pub(super) fn etc_hosts_mount(
    files: &PodFiles,
    desired: &DesiredPod,
    infra: Option<&InfraRef>,
    mounts: &[Mount],
) -> Result<Option<Mount>, crate::private_fs::PrivateFsError> {
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
pub(super) async fn engine_termination_log<R: Runtime>(
    rt: &R,
    uid: &str,
    infra_id: &str,
    container: &str,
    attempt: u32,
) -> Result<String, StepError> {
    let tar = engine::termination_log_archive(container, attempt).map_err(StepError::TerminationLog)?;
    rt.put_archive(infra_id, engine::INFRA_TERMINATION_DIR, tar).await?;
    let mountpoint = rt.volume_mountpoint(&engine::termination_volume_name(uid)).await?;
    Ok(format!("{}/{container}-{attempt}", mountpoint.trim_end_matches('/')))
}
