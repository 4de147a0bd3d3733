//! Lifecycle hooks, as the kubelet runs them: an exec in the container, a sleep, or an HTTP
//! GET sent by the probes' client; each bounded by the pod's grace period.

use std::time::Duration;

use crate::pod::{Hook, HttpHook};
use crate::probe::handlers::{self, pod_address, Target};
use crate::runtime::labels;
use crate::runtime::{Observed, Runtime, RuntimeError, Selector};

use super::is_infra;

/// Why a lifecycle hook failed, as the status message and the event give it.
#[derive(Debug, thiserror::Error)]
pub(super) enum HookError {
    #[error("command {command:?} exited with {code}")]
    Exited { command: Vec<String>, code: i64 },
    #[error(transparent)]
    Exec(#[from] RuntimeError),
    #[error("did not finish within {0}s")]
    TimedOut(u64),
    /// The kubelet's words, for the same situation.
    #[error("GET {}: failed to find networking container (the pod has no IP)", crate::escape::Escaped(path))]
    NoPodIp { path: String },
    /// The probes' HTTP client says why in words of its own.
    #[error("GET {}: {why}", crate::escape::Escaped(path))]
    Http { path: String, why: handlers::HookError },
}

/// Runs a lifecycle hook within `limit`, the pod's grace period. `infra_ip`: the pod IP, where an HTTP hook that names no host goes.
///
/// The kubelet bounds a preStop hook by the grace period and a postStart hook by nothing (an
/// exec or a request that never returns holds the container in ContainerCreating). podrun
/// bounds both by the grace period, which the pod's author chose as the time a container may
/// take to react, so a hung hook, or an HTTP request to an address that never answers, cannot
/// hold a run past it.
pub(super) async fn run_hook<R: Runtime>(
    rt: &R,
    id: &str,
    hook: &Hook,
    limit: Duration,
    infra_ip: Option<&str>,
) -> Result<(), HookError> {
    let limit = limit.max(Duration::from_secs(1));
    let run = async {
        match hook {
            Hook::Exec(cmd) => match rt.exec(id, cmd, Some(limit)).await {
                Ok(0) => Ok(()),
                Ok(code) => Err(HookError::Exited { command: cmd.clone(), code }),
                Err(e) => Err(e.into()),
            },
            Hook::Sleep(secs) => {
                tokio::time::sleep(Duration::from_secs(*secs)).await;
                Ok(())
            }
            Hook::HttpGet(h) => run_http_hook(id, h, infra_ip).await,
        }
    };
    tokio::time::timeout(limit, run).await.unwrap_or_else(|_| Err(HookError::TimedOut(limit.as_secs())))
}

/// An HTTP hook, sent by the probes' HTTP client to its host, else the pod's address.
pub(super) async fn run_http_hook(id: &str, h: &HttpHook, infra_ip: Option<&str>) -> Result<(), HookError> {
    let address = pod_address(h.host_network, infra_ip);
    if h.host.is_none() && address.is_none() {
        return Err(HookError::NoPodIp { path: h.path.clone() });
    }
    let target = Target { container_id: id, pod_ip: address.as_deref().unwrap_or_default(), ports: &[] };
    handlers::run_http_hook(&h.action(), &target).await.map_err(|why| HookError::Http { path: h.path.clone(), why })
}

/// The pod IP of a pod member, from its pod's running infra container, as the kubelet reads
/// it from the pod's status when a hook runs.
pub(super) async fn pod_ip_of<R: Runtime>(rt: &R, c: &Observed) -> Option<String> {
    let (namespace, pod) = (c.label(labels::POD_NAMESPACE)?, c.label(labels::POD_NAME)?);
    let all = rt.list(&Selector::pod(namespace, pod)).await.ok()?;
    all.into_iter()
        .find(|o| is_infra(o) && o.is_running() && o.label(labels::POD_UID) == c.label(labels::POD_UID))
        .and_then(|o| o.ip)
}
