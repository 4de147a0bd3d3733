//! Containers: listing and inspecting podrun's, creating, starting, stopping and removing them.

use std::collections::HashMap;
use std::time::Duration;

use bollard::errors::Error as BollardError;
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, KillContainerOptionsBuilder, ListContainersOptionsBuilder,
    RemoveContainerOptionsBuilder, StopContainerOptionsBuilder,
};

use super::retry::decoded;
use super::{convert, DockerRuntime};
use crate::runtime::concurrency::bounded;
use crate::runtime::labels;
use crate::runtime::seal::Kind;
use crate::runtime::{
    CreateSpec, IdScheme, Mount, NodeRuntime, NotSupported, Observed, RuntimeError, Selector, State,
    RECURSIVE_READ_ONLY_API,
};

/// How many more times (200 ms apart) Podman is asked again to remove a container it could
/// not remove yet (500).
const PODMAN_REMOVE_TRIES: u32 = 10;

/// After a refused create, how many more times (50 ms apart) the name's holder is looked for.
const NAME_HOLDER_LOOKS: u32 = 20;

impl DockerRuntime {
    pub(super) async fn inspect(&self, id: &str) -> Result<Option<Observed>, RuntimeError> {
        match decoded(|| self.docker.inspect_container(id, None)).await {
            Ok(c) => {
                let mut c = convert::observed(c, || self.node_ip());
                if self.engine == convert::Engine::Podman {
                    c.scheme = IdScheme::Podman;
                }
                if !super::info::updates_in_place(self.engine, &self.info.version) {
                    // Podman 4's inspect says what it could give, not what was asked (a rootless
                    // engine on cgroup v1 gives no limits at all): only what the container was
                    // made with, podrun's label, tells whether the pod's resources changed.
                    c.labels.remove(labels::RESOURCES_NOW);
                }
                if c.state == State::Created {
                    let failed = self.failed_starts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    if let Some(message) = failed.get(&c.id) {
                        c.state = convert::start_error(message.clone());
                    }
                }
                Ok(Some(c))
            }
            // Removed between the list and the inspect: it is gone, which is what the list
            // would have said a moment later.
            Err(e) if Self::status_of(&e) == Some(404) => Ok(None),
            Err(e) => Err(self.error(&format!("inspect container {id}"), e)),
        }
    }

    /// The node IP of the engine's host, when podrun runs there (read once): of a remote
    /// engine's host podrun knows no address it could vouch for (the endpoint it dials may be
    /// a forwarder or a tunnel), so a hostNetwork pod there has none, as before.
    pub(super) fn node_ip(&self) -> Option<String> {
        if !self.local_files() {
            return None;
        }
        crate::runtime::node_ip::cached()
    }

    /// The seal itself is checked, not just the flag the list set: an `Observed` reaches here
    /// from far above.
    pub(super) fn ensure_owned(&self, what: &str, c: &Observed) -> Result<(), RuntimeError> {
        self.seal.ensure_owned(what, c)
    }
}

pub(super) async fn list(rt: &DockerRuntime, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
    let filters: HashMap<String, Vec<String>> = HashMap::from([("label".to_owned(), sel.label_filters())]);
    let opts = ListContainersOptionsBuilder::default().all(true).filters(&filters).build();
    let summaries =
        decoded(|| rt.docker.list_containers(Some(opts.clone()))).await.map_err(|e| rt.error("list containers", e))?;
    let ids: Vec<String> = summaries.into_iter().filter_map(|s| s.id).collect();
    // Collected first: a stream over a closure taking `&String` is not provably Send.
    let inspects: Vec<_> = ids.iter().map(|id| rt.inspect(id)).collect();
    let inspected = bounded(inspects).await;
    let mut out = Vec::with_capacity(ids.len());
    for r in inspected {
        // The filter ran in the engine; checking the label again here costs nothing and
        // keeps a container without it out even if a filter were ignored. Those with the
        // label but not the seal are kept, unsealed, so callers can report them.
        if let Some(mut c) = r?.filter(|c| c.label(labels::MANAGED) == Some(labels::MANAGED_VALUE)) {
            c.sealed = rt.seal.verify(Kind::Container, &c.name, &c.labels);
            out.push(c);
        }
    }
    // A pulled image is known by its registry digest (`repo@sha256:...`), as the kubelet
    // reports imageID; one inspect per distinct image.
    let mut images: Vec<String> = out.iter().map(|c| c.image_id.clone()).filter(|i| !i.is_empty()).collect();
    images.sort();
    images.dedup();
    let inspects: Vec<_> = images.iter().map(|id| rt.docker.inspect_image(id)).collect();
    let digests = bounded(inspects).await;
    let digest_of: HashMap<&String, String> = images
        .iter()
        .zip(digests)
        .filter_map(|(id, r)| {
            r.ok().and_then(|img| img.repo_digests).and_then(|d| d.into_iter().next()).map(|d| (id, d))
        })
        .collect();
    for c in &mut out {
        if let Some(d) = digest_of.get(&c.image_id) {
            c.image_id = d.clone();
        }
    }
    Ok(out)
}

pub(super) async fn create(rt: &DockerRuntime, spec: &CreateSpec) -> Result<String, RuntimeError> {
    if rt.api < RECURSIVE_READ_ONLY_API {
        if let Some(m) = spec.mounts.iter().find(|m| matches!(m, Mount::Bind { recursive_read_only: true, .. })) {
            return Err(RuntimeError::Unsupported {
                what: format!("create container {}", spec.name),
                why: NotSupported::RecursiveReadOnly {
                    target: m.target().to_owned(),
                    needs: RECURSIVE_READ_ONLY_API,
                    speaks: rt.api,
                },
            });
        }
    }
    if let Some(limits) = &spec.pod_cgroup {
        // The pod's cgroup, made (or its limits written again) before any container of it.
        let uid = spec.labels.get(labels::POD_UID).map_or("", String::as_str);
        crate::runtime::pod_cgroup::ensure(uid, limits).map_err(|e| RuntimeError::Client {
            what: format!(
                "create container {}: the pod's cgroup {}",
                spec.name,
                crate::runtime::pod_cgroup::parent(uid)
            ),
            source: crate::runtime::Cause(std::sync::Arc::new(e)),
        })?;
    }
    let opts = CreateContainerOptionsBuilder::default().name(&spec.name).build();
    let mut body = convert::create_body(spec, rt.engine, rt.api);
    if let Some(uts) = super::podman_uts::uts_by_path(rt, spec).await? {
        body.host_config.get_or_insert_with(Default::default).uts_mode = Some(uts);
    }
    let mut labels = spec.labels.clone();
    rt.seal.stamp(Kind::Container, &spec.name, &mut labels);
    body.labels = Some(labels.into_iter().collect());
    let what = format!("create container {}", spec.name);
    let e = match rt.docker.create_container(Some(opts), body).await {
        Ok(resp) => return Ok(resp.id),
        Err(e) => e,
    };
    let status = DockerRuntime::status_of(&e);
    if status == Some(404) {
        // 404 on create: the image (or the infra container to join) is gone.
        if let BollardError::DockerResponseServerError { message, .. } = e {
            return Err(RuntimeError::Engine { what, status: 404, message });
        }
    }
    // Podman answers a name already in use with 500 where Docker says 409. Whether the
    // name is taken, and by whom, is asked of the engine, not read from the message.
    if status.is_some() {
        // Podman reserves a name in its storage before the container can be inspected: the
        // holder of a name in use may take a moment to show (bounded: a failure path only).
        let mut holder = rt.inspect(&spec.name).await;
        for _ in 0..NAME_HOLDER_LOOKS {
            if !matches!(holder, Ok(None)) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            holder = rt.inspect(&spec.name).await;
        }
        if let Ok(Some(holder)) = holder {
            return Err(if rt.seal.verify(Kind::Container, &holder.name, &holder.labels) {
                // A podrun running beside us made it.
                RuntimeError::Conflict { what }
            } else {
                RuntimeError::NameTaken { what, name: spec.name.clone() }
            });
        }
    }
    Err(rt.error(&what, e))
}

pub(super) async fn start(rt: &DockerRuntime, id: &str) -> Result<(), RuntimeError> {
    match rt.docker.start_container(id, None).await {
        // 304: already started, by us or by a podrun running beside us.
        Err(e) if DockerRuntime::status_of(&e) == Some(304) => Ok(()),
        // The runtime could not start the process (a missing executable, say): the container
        // stays created. A kubelet sees it terminated (the CRI's StartError), so podrun
        // reports it so too, with the engine's message, from the next observation on.
        Err(BollardError::DockerResponseServerError { status_code: 500, message }) => match rt.inspect(id).await? {
            Some(c) if c.state == State::Created => {
                rt.failed_starts
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(id.to_owned(), message);
                Ok(())
            }
            _ => Err(rt.error(
                &format!("start container {id}"),
                BollardError::DockerResponseServerError { status_code: 500, message },
            )),
        },
        r => r.map_err(|e| rt.error(&format!("start container {id}"), e)),
    }
}

pub(super) async fn stop(rt: &DockerRuntime, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
    rt.ensure_owned("stop", c)?;
    // Whole seconds, rounded up: a grace period is never cut short.
    let secs = grace.as_secs() + u64::from(grace.subsec_nanos() > 0);
    let t = i32::try_from(secs).unwrap_or(i32::MAX);
    let opts = StopContainerOptionsBuilder::default().t(t).build();
    match rt.docker.stop_container(&c.id, Some(opts)).await {
        // 304: not running; 404: gone. Either way it is stopped.
        Err(e) if matches!(DockerRuntime::status_of(&e), Some(304 | 404)) => Ok(()),
        r => r.map_err(|e| rt.error(&format!("stop container {}", c.name), e)),
    }
}

pub(super) async fn kill(rt: &DockerRuntime, c: &Observed) -> Result<(), RuntimeError> {
    rt.ensure_owned("kill", c)?;
    let opts = KillContainerOptionsBuilder::default().signal("KILL").build();
    match rt.docker.kill_container(&c.id, Some(opts)).await {
        // 404: gone; 409: not running. Either way it is not running any more.
        Err(e) if matches!(DockerRuntime::status_of(&e), Some(404 | 409)) => Ok(()),
        // Podman answers "not running" with 500: the container's state tells.
        Err(e @ BollardError::DockerResponseServerError { .. }) => match rt.inspect(&c.id).await {
            Ok(None) => Ok(()),
            Ok(Some(now)) if !now.is_running() => Ok(()),
            _ => Err(rt.error(&format!("kill container {}", c.name), e)),
        },
        r => r.map_err(|e| rt.error(&format!("kill container {}", c.name), e)),
    }
}

/// `POST /containers/{id}/update`: the container's CPU and memory, in place. Swap follows the
/// memory limit as on create (twice it: the engine's default for a limit without a swap
/// limit), or the engine refuses a limit above the swap it had.
pub(super) async fn update_resources(
    rt: &DockerRuntime,
    c: &Observed,
    s: &crate::runtime::ContainerSettings,
) -> Result<(), RuntimeError> {
    rt.ensure_owned("resize", c)?;
    let body = bollard::models::ContainerUpdateBody {
        cpu_shares: s.cpu.shares,
        cpu_period: s.cpu.period,
        cpu_quota: s.cpu.quota,
        memory: s.memory_limit,
        memory_swap: s.memory_limit.map(|m| m.saturating_mul(2)),
        memory_reservation: s.memory_reservation,
        ..Default::default()
    };
    rt.docker.update_container(&c.id, body).await.map_err(|e| rt.error(&format!("resize container {}", c.name), e))
}

/// How many times (100 ms apart) a pod's cgroup is tried for removal after its infra container.
const CGROUP_LOOKS: u32 = 30;

pub(super) async fn remove(rt: &DockerRuntime, c: &Observed) -> Result<(), RuntimeError> {
    rt.ensure_owned("remove", c)?;
    // v: anonymous volumes the image declared go with the container, or they would leak.
    let opts = RemoveContainerOptionsBuilder::default().force(true).v(true).build();
    let mut tries = 0;
    loop {
        match rt.docker.remove_container(&c.id, Some(opts.clone())).await {
            // 404: gone already; 409: a removal is already in progress.
            Err(e) if matches!(DockerRuntime::status_of(&e), Some(404 | 409)) => break,
            // Podman unmounts a container's /dev/shm a moment after the last container sharing
            // it (a pod's infra container's, in a user namespace of the pod's own) is gone, and
            // answers 500 ("device or resource busy") to a removal in that moment.
            Err(e)
                if rt.engine == convert::Engine::Podman
                    && DockerRuntime::status_of(&e) == Some(500)
                    && tries < PODMAN_REMOVE_TRIES =>
            {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            r => {
                r.map_err(|e| rt.error(&format!("remove container {}", c.name), e))?;
                break;
            }
        }
    }
    rt.failed_starts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&c.id);
    // The pod's cgroup goes with its infra container, the last of the pod to go (rmdir: a
    // cgroup still in use stays).
    if c.label(labels::ROLE) == Some("infra") && rt.local_files() && crate::runtime::pod_cgroup::available() {
        // Podman's conmon, in the pod's cgroup too, leaves it a moment after the removal.
        let uid = c.label(labels::POD_UID).unwrap_or_default();
        for _ in 0..CGROUP_LOOKS {
            if crate::runtime::pod_cgroup::remove(uid) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    Ok(())
}
