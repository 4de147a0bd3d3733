//! What the engine is and can do: its versions, security, capacity and oom_score_adj floor.

use super::{convert, raw, security, DockerRuntime};
use crate::runtime::{BadAnswer, Capacity, Cause, EngineFeatures, EngineSecurity, NodeRuntime, OomFloor, RuntimeError};

/// The node features the engine gives, by what it is. Podman gives a container a user namespace
/// of explicit mappings (`UsernsMode: auto:size=...,uidmapping=...`, tried on 4.3) that the pod's others
/// join; Docker has only its daemon-wide `userns-remap`, no namespace per container. Both run a
/// `uid:gid` user without the image's /etc/group memberships (tried with `id` on Docker 20.10
/// and Podman 4.3). Rootless Podman is refused user namespaces later, knowing it is rootless
/// (`pod::rootless`).
pub(super) fn features(rt: &DockerRuntime) -> EngineFeatures {
    EngineFeatures {
        user_namespaces: rt.engine == convert::Engine::Podman,
        strict_groups_with_group: true,
        // Podman's compatible API takes `type: image` at any version it speaks (a sub-path
        // it ignores: see `pod/volumes`); Docker from API 1.48 (Engine 28.1).
        image_volumes: rt.engine == convert::Engine::Podman || rt.api >= crate::runtime::IMAGE_MOUNT_API,
        update_resources: updates_in_place(rt.engine, &rt.info.version),
        // Docker from API 1.44 (Engine 25). Podman's compatible API speaks 1.41 and has no
        // such mount option (tried on 4.3 and 5.4).
        recursive_read_only: rt.engine == convert::Engine::Docker && rt.api >= crate::runtime::RECURSIVE_READ_ONLY_API,
        ..EngineFeatures::NONE
    }
}

/// Whether the engine's compatible container update (`POST /containers/{id}/update`) changes
/// a running container's CPU and memory, and its inspect then reports them: Docker's, and
/// Podman's from 5 (tried on 5.4). Podman 4.3's compatible API has no such call (404), and its
/// own (`podman update`) leaves what inspect reports as it was, so a resized container could
/// not be told from one still to resize: a resize restarts it there.
pub(super) fn updates_in_place(engine: convert::Engine, version: &str) -> bool {
    let major = version.trim_start_matches('v').split('.').next().and_then(|m| m.parse::<u32>().ok());
    match engine {
        convert::Engine::Docker => true,
        convert::Engine::Podman => major.is_some_and(|m| m >= 5),
    }
}

pub(super) async fn oom_score_floor(rt: &DockerRuntime) -> Option<OomFloor> {
    // The daemon is the peer of its unix socket; an engine elsewhere is not podrun's to read.
    let Some(path) = rt.endpoint.host.strip_prefix("unix://") else { return Some(OomFloor::Unseen) };
    let connect = tokio::net::UnixStream::connect(path);
    let peer = match tokio::time::timeout(std::time::Duration::from_secs(5), connect).await {
        Ok(Ok(stream)) => stream.peer_cred().ok().and_then(|c| c.pid()),
        _ => None,
    };
    match peer.and_then(crate::runtime::oom_floor::of_daemon) {
        Some(crate::runtime::oom_floor::Rights::AnyScore) => None,
        Some(crate::runtime::oom_floor::Rights::NotBelow(own)) => Some(OomFloor::Daemon(own)),
        None => Some(OomFloor::Unseen),
    }
}

pub(super) async fn capacity(rt: &DockerRuntime) -> Result<Option<Capacity>, RuntimeError> {
    if rt.local_files() {
        return Ok(None);
    }
    let info = rt.docker.info().await.map_err(|e| rt.error("engine info", e))?;
    let cpus = info.ncpu.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
    let memory = info.mem_total.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
    Ok(Some(Capacity { cpus, memory }))
}

/// Whether podrun can give the engine's pods a cgroup of their own: an engine on this host,
/// run as root with the cgroupfs driver (a cgroup parent is then a path podrun makes), and
/// podrun as root. Under systemd the parent would be a slice, and a rootless engine's cgroups
/// are not root's to set.
pub(super) async fn pod_cgroup(rt: &DockerRuntime) -> Result<bool, RuntimeError> {
    if !rt.local_files() || !crate::runtime::pod_cgroup::available() {
        return Ok(false);
    }
    match rt.engine {
        convert::Engine::Docker => {
            let info = rt.docker.info().await.map_err(|e| rt.error("engine info", e))?;
            let cgroupfs = info.cgroup_driver == Some(bollard::models::SystemInfoCgroupDriverEnum::CGROUPFS);
            Ok(cgroupfs && !security::of_docker(&info).rootless)
        }
        convert::Engine::Podman => {
            let what = "engine info (/libpod/info)";
            let body = raw::get(&rt.dialer, &rt.endpoint.to_string(), what, "/v4.0.0/libpod/info", 4 << 20).await?;
            let info: serde_json::Value = serde_json::from_slice(&body).map_err(|e| RuntimeError::Protocol {
                what: what.to_string(),
                why: BadAnswer::NotJson(Cause(std::sync::Arc::new(e))),
            })?;
            let cgroupfs = info["host"]["cgroupManager"].as_str() == Some("cgroupfs");
            Ok(cgroupfs && !security::of_podman(&info).rootless)
        }
    }
}

pub(super) async fn security(rt: &DockerRuntime) -> Result<EngineSecurity, RuntimeError> {
    match rt.engine {
        convert::Engine::Docker => {
            let info = rt.docker.info().await.map_err(|e| rt.error("engine info", e))?;
            Ok(security::of_docker(&info))
        }
        convert::Engine::Podman => {
            // Podman's own API; any version it serves answers at v4.0.0.
            let what = "engine info (/libpod/info)";
            let body = raw::get(&rt.dialer, &rt.endpoint.to_string(), what, "/v4.0.0/libpod/info", 4 << 20).await?;
            let info = serde_json::from_slice(&body).map_err(|e| RuntimeError::Protocol {
                what: what.to_string(),
                why: BadAnswer::NotJson(Cause(std::sync::Arc::new(e))),
            })?;
            Ok(security::of_podman(&info))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn podman_updates_in_place_from_5() {
        assert!(updates_in_place(convert::Engine::Docker, "20.10.24"));
        assert!(updates_in_place(convert::Engine::Podman, "5.4.2"));
        assert!(updates_in_place(convert::Engine::Podman, "v6.0.0-rc1"));
        assert!(!updates_in_place(convert::Engine::Podman, "4.3.1"));
        assert!(!updates_in_place(convert::Engine::Podman, "unknown"));
    }
}
