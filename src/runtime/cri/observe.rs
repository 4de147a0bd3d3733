//! Listing podrun's sandboxes and containers as podrun's `Observed`.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, UNIX_EPOCH};

use super::api;
use super::CriRuntime;
use crate::runtime::concurrency::bounded;
use crate::runtime::seal::Kind;
use crate::runtime::{labels, IdScheme, Observed, RuntimeError, Selector, State};

/// The CRI's label selector for `sel`: podrun's ownership label and the pod's.
fn selector(sel: &Selector) -> HashMap<String, String> {
    sel.label_filters()
        .into_iter()
        .filter_map(|f| f.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect()
}

/// Nanoseconds since the epoch as RFC 3339, as the Docker API writes its times; 0 is unset.
pub fn time(ns: i64) -> Option<String> {
    let ns = u64::try_from(ns).ok().filter(|&n| n > 0)?;
    Some(humantime::format_rfc3339_nanos(UNIX_EPOCH + Duration::from_nanos(ns)).to_string())
}

pub(super) async fn list(rt: &CriRuntime, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
    let filter = selector(sel);
    let mut client = rt.channel.runtime.clone();
    let sandboxes = client
        .list_pod_sandbox(api::ListPodSandboxRequest {
            filter: Some(api::PodSandboxFilter { label_selector: filter.clone(), ..Default::default() }),
        })
        .await
        .map_err(|s| rt.error("list pod sandboxes", s))?
        .into_inner()
        .items;
    let containers = client
        .list_containers(api::ListContainersRequest {
            filter: Some(api::ContainerFilter { label_selector: filter, ..Default::default() }),
        })
        .await
        .map_err(|s| rt.error("list containers", s))?
        .into_inner()
        .containers;
    let sandbox_calls: Vec<_> = sandboxes.iter().map(|s| sandbox(rt, s)).collect();
    let container_calls: Vec<_> = containers.iter().map(|c| container(rt, c)).collect();
    let mut out = Vec::new();
    for r in bounded(sandbox_calls).await.into_iter().chain(bounded(container_calls).await) {
        if let Some(mut o) = r?.filter(|o| o.label(labels::MANAGED) == Some(labels::MANAGED_VALUE)) {
            o.sealed = rt.seal.verify(Kind::Container, &o.name, &o.labels);
            o.scheme = IdScheme::cri(&rt.info.name);
            out.push(o);
        }
    }
    Ok(out)
}

/// A sandbox as the infra container: running while READY. Its IP needs its status.
async fn sandbox(rt: &CriRuntime, s: &api::PodSandbox) -> Result<Option<Observed>, RuntimeError> {
    let status = match rt
        .channel
        .runtime
        .clone()
        .pod_sandbox_status(api::PodSandboxStatusRequest { pod_sandbox_id: s.id.clone(), verbose: false })
        .await
    {
        Ok(r) => r.into_inner().status.unwrap_or_default(),
        Err(e) if e.code() == tonic::Code::NotFound => return Ok(None),
        Err(e) => return Err(rt.error(&format!("inspect pod sandbox {}", s.id), e)),
    };
    let labels_: BTreeMap<String, String> = status.labels.clone().into_iter().collect();
    let host_network = status
        .linux
        .as_ref()
        .and_then(|l| l.namespaces.as_ref())
        .and_then(|n| n.options.as_ref())
        .is_some_and(|o| o.network == api::NamespaceMode::Node as i32);
    let mut ip = status.network.as_ref().map(|n| n.ip.clone()).filter(|ip| !ip.is_empty());
    if host_network && ip.is_none() {
        ip = crate::runtime::node_ip::cached();
    }
    let state = if status.state == api::PodSandboxState::SandboxReady as i32 {
        State::Running { started_at: time(status.created_at) }
    } else {
        // Its pause process is gone: the pod must be made again, as the kubelet does.
        State::Dead
    };
    Ok(Some(Observed {
        id: status.id,
        name: status.annotations.get(super::NAME_ANNOTATION).cloned().unwrap_or_default(),
        labels: labels_,
        image: String::new(),
        image_id: String::new(),
        state,
        // The runtime is on this host (the CRI is a local socket): its node address is the pod's
        // host IP, as a kubelet reports it.
        gateway: crate::runtime::node_ip::cached(),
        ip,
        sealed: false,
        // Set by the list, which knows the runtime's name.
        scheme: crate::runtime::IdScheme::default(),
    }))
}

/// When, after its start, a running container's process is looked for: the runtime records an
/// exit when its event arrives, which under load can come later than podrun looks, and a
/// container that exited at once must not count as up (see `status::compute`'s min uptime).
/// Before `FRESH_FROM` it cannot count as up yet anyway (at the default min uptime), and a look
/// is a verbose status, the container's whole spec.
const FRESH: Duration = Duration::from_secs(2);
const FRESH_FROM: Duration = Duration::from_millis(100);
/// How long podrun waits, at most, for the runtime to record the exit of a process that is gone.
const EXIT_LAG: Duration = Duration::from_millis(500);

pub(super) async fn status(
    rt: &CriRuntime,
    id: &str,
    verbose: bool,
) -> Result<Option<api::ContainerStatusResponse>, RuntimeError> {
    match rt
        .channel
        .runtime
        .clone()
        .container_status(api::ContainerStatusRequest { container_id: id.to_owned(), verbose })
        .await
    {
        Ok(r) => Ok(Some(r.into_inner())),
        Err(e) if e.code() == tonic::Code::NotFound => Ok(None),
        Err(e) => Err(rt.error(&format!("inspect container {id}"), e)),
    }
}

/// The process id the runtime's verbose status names (containerd's and CRI-O's `info.pid`).
fn pid_of(r: &api::ContainerStatusResponse) -> Option<u32> {
    let info: serde_json::Value = serde_json::from_str(r.info.get("info")?).ok()?;
    info.get("pid")?.as_u64().and_then(|p| u32::try_from(p).ok()).filter(|&p| p > 0)
}

/// Whether process `pid` still runs: not gone, and not a zombie its shim has yet to reap.
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's closing parenthesis.
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

async fn container(rt: &CriRuntime, c: &api::Container) -> Result<Option<Observed>, RuntimeError> {
    let Some(mut r) = status(rt, &c.id, false).await? else { return Ok(None) };
    let st = r.status.clone().unwrap_or_default();
    let started = UNIX_EPOCH + Duration::from_nanos(u64::try_from(st.started_at).unwrap_or(0));
    let fresh = crate::clock::now().duration_since(started).is_ok_and(|up| (FRESH_FROM..FRESH).contains(&up));
    if st.state == api::ContainerState::ContainerRunning as i32 && fresh {
        let gone = status(rt, &c.id, true).await?.and_then(|v| pid_of(&v)).is_some_and(|pid| !alive(pid));
        if gone {
            let until = tokio::time::Instant::now() + EXIT_LAG;
            while tokio::time::Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(25)).await;
                let Some(now) = status(rt, &c.id, false).await? else { return Ok(None) };
                r = now;
                if r.status.as_ref().is_some_and(|s| s.state != api::ContainerState::ContainerRunning as i32) {
                    break;
                }
            }
        }
    }
    let st = r.status.unwrap_or_default();
    let reported = st.resources.as_ref().and_then(|res| res.linux.clone());
    let mut o = observed(st);
    let set = rt.resized.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&o.id).cloned();
    super::resize::report(&mut o, reported.as_ref(), set.as_deref());
    Ok(Some(o))
}

/// A container's status as podrun's `Observed`.
pub fn observed(status: api::ContainerStatus) -> Observed {
    let state = match api::ContainerState::try_from(status.state) {
        Ok(api::ContainerState::ContainerCreated) => State::Created,
        Ok(api::ContainerState::ContainerRunning) => State::Running { started_at: time(status.started_at) },
        Ok(api::ContainerState::ContainerExited) => State::Exited {
            exit_code: i64::from(status.exit_code),
            started_at: time(status.started_at),
            // A very short container can report its end before its start.
            finished_at: time(status.finished_at.max(status.started_at)),
            oom_killed: status.reason == "OOMKilled",
            error: (status.reason == "StartError").then(|| status.message.clone()).filter(|m| !m.is_empty()),
        },
        _ => State::Other("unknown".into()),
    };
    Observed {
        id: status.id,
        name: status.metadata.map(|m| m.name).unwrap_or_default(),
        labels: status.labels.clone().into_iter().collect(),
        image: status
            .annotations
            .get(super::IMAGE_ANNOTATION)
            .cloned()
            .or_else(|| status.image.map(|i| i.image))
            .unwrap_or_default(),
        image_id: status.image_ref,
        state,
        ip: None,
        gateway: None,
        sealed: false,
        // Set by the list, which knows the runtime's name.
        scheme: crate::runtime::IdScheme::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_the_docker_backend_reads_them() {
        let st = api::ContainerStatus {
            id: "c1".into(),
            metadata: Some(api::ContainerMetadata { name: "podrun_ns_p_app_0".into(), attempt: 0 }),
            state: api::ContainerState::ContainerExited as i32,
            started_at: 2_000_000_000,
            finished_at: 1_000_000_000,
            exit_code: 137,
            reason: "OOMKilled".into(),
            ..Default::default()
        };
        let o = observed(st);
        assert_eq!(o.name, "podrun_ns_p_app_0");
        match o.state {
            State::Exited { exit_code, oom_killed, started_at, finished_at, error } => {
                assert_eq!(exit_code, 137);
                assert!(oom_killed);
                assert_eq!(started_at, finished_at);
                assert_eq!(started_at.as_deref(), Some("1970-01-01T00:00:02.000000000Z"));
                assert_eq!(error, None);
            }
            s => panic!("{s:?}"),
        }
        assert_eq!(time(0), None);
    }

    #[test]
    fn a_process_is_alive_until_it_is_gone() {
        assert!(alive(std::process::id()));
        assert!(!alive(u32::MAX));
        let r = api::ContainerStatusResponse {
            info: std::collections::HashMap::from([("info".to_owned(), r#"{"pid": 42, "sandboxID": "s"}"#.to_owned())]),
            ..Default::default()
        };
        assert_eq!(pid_of(&r), Some(42));
        assert_eq!(pid_of(&api::ContainerStatusResponse::default()), None);
    }

    #[test]
    fn a_start_error_keeps_the_runtimes_words() {
        let st = api::ContainerStatus {
            state: api::ContainerState::ContainerExited as i32,
            exit_code: 128,
            reason: "StartError".into(),
            message: "exec: \"nope\": executable file not found".into(),
            ..Default::default()
        };
        assert!(matches!(observed(st).state, State::Exited { error: Some(m), .. } if m.contains("nope")));
    }
}
