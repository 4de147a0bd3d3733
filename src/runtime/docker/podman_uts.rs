//! The UTS namespace a pod container joins on Podman when its own environment sets `HOSTNAME`.
//!
//! A container that joins the infra container's UTS namespace by `container:<infra>` gets
//! `HOSTNAME` set by Podman to the infra's hostname when it starts, over the value the
//! container was created with (libpod sets it for every UTS namespace joined that way, Podman
//! 4.3 and 5.4), where Docker and the CRI runtimes keep a manifest's own `HOSTNAME`. Joined by
//! its path, `ns:/proc/<infra pid>/ns/uts`, the namespace is the same one, and Podman leaves a
//! `HOSTNAME` the environment has alone. Only such a container joins by path: without its own
//! `HOSTNAME`, Podman's (the pod's hostname) is the one it should have.

use super::convert::Engine;
use super::DockerRuntime;
use crate::runtime::{CreateSpec, Namespaces, RuntimeError};

/// The UTS mode to create `spec` with instead of `container:<infra>`, if any: the infra's
/// namespace by path, while the infra runs (else none, and the usual join stands).
pub(super) async fn uts_by_path(rt: &DockerRuntime, spec: &CreateSpec) -> Result<Option<String>, RuntimeError> {
    if rt.engine != Engine::Podman || !sets_hostname(&spec.env) {
        return Ok(None);
    }
    let Namespaces::Join { infra_id, uts_host: false, .. } = &spec.namespaces else { return Ok(None) };
    let infra = match rt.docker.inspect_container(infra_id, None).await {
        Ok(c) => c,
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => return Ok(None),
        Err(e) => return Err(rt.error(&format!("inspect container {infra_id}"), e)),
    };
    let running = infra.state.as_ref().and_then(|s| s.running) == Some(true);
    let pid = infra.state.and_then(|s| s.pid).filter(|p| *p > 0 && running);
    Ok(pid.map(ns_path))
}

fn sets_hostname(env: &[String]) -> bool {
    env.iter().any(|e| e.split_once('=').map_or(e.as_str(), |(name, _)| name) == "HOSTNAME")
}

fn ns_path(pid: i64) -> String {
    format!("ns:/proc/{pid}/ns/uts")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_container_with_its_own_hostname_joins_by_path() {
        assert!(sets_hostname(&["A=1".into(), "HOSTNAME=mine".into()]));
        assert!(sets_hostname(&["HOSTNAME=".into()]));
        assert!(!sets_hostname(&["HOSTNAMES=x".into(), "A=HOSTNAME=y".into()]));
        assert_eq!(ns_path(42), "ns:/proc/42/ns/uts");
    }
}
