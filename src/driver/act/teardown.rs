//! Stopping and removing containers the kubelet's way (preStop hook, grace period, members
//! before the infra container), for a plan's removals, a pod past its active deadline, and the
//! whole-pod removals of delete, gc, prune and `--rm`.

use std::time::Duration;

use futures_util::future::join_all;

use crate::driver::termination::Ordering;
use crate::error_chain::chain;
use crate::pod::files::PodFiles;
use crate::pod::observed::attempt_of;
use crate::pod::volumes::{self, engine};
use crate::pod::Hook;
use crate::runtime::labels;
use crate::runtime::{Observed, Runtime, RuntimeError, Selector};

use super::hooks::{pod_ip_of, run_hook};
use super::is_infra;

/// Stops every running container of the pod, members first, then the infra container, each
/// with its preStop hook and grace period, and removes none: what the kubelet does to a pod
/// past its active deadline (the containers stay, terminated, for status and logs).
pub async fn stop_pod<R: Runtime>(rt: &R, all: &[Observed]) -> Result<(), RuntimeError> {
    let (infra, members): (Vec<&Observed>, Vec<&Observed>) =
        all.iter().filter(|c| c.is_owned() && c.is_running()).partition(|c| is_infra(c));
    for batch in [members, infra] {
        let order = Ordering::new(batch.iter().copied());
        for r in join_all(batch.iter().map(|c| stop(rt, c, None, Some(&order)))).await {
            r?;
        }
    }
    Ok(())
}

/// The grace period a container was created with (its label), unless overridden.
pub(super) fn grace_of(c: &Observed, grace_override: Option<Duration>) -> Duration {
    grace_override.unwrap_or_else(|| {
        let secs = c.label(labels::GRACE_PERIOD).and_then(|g| g.parse().ok()).unwrap_or(30);
        Duration::from_secs(secs)
    })
}

/// How long removing a pod may wait for its running containers to stop: the longest grace
/// period among those podrun made (`grace_override` where given), or `None` when none of
/// them runs or none has a grace period to wait out. The infra container stops at once.
pub fn stop_wait(observed: &[Observed], grace_override: Option<Duration>) -> Option<Duration> {
    observed
        .iter()
        .filter(|c| c.is_owned() && c.is_running())
        .filter(|c| c.label(labels::CONTAINER_NAME) != Some(labels::INFRA_CONTAINER_NAME))
        .map(|c| grace_of(c, grace_override))
        .max()
        .filter(|g| !g.is_zero())
}

/// Stops a running container the kubelet's way: its preStop hook (recorded in a label, so it
/// runs even when the manifest no longer has the container) inside the grace period, then the
/// stop signal, then SIGKILL when the rest of the grace period runs out.
/// Stopped beside others (`order`), a sidecar gets its stop signal only in its turn.
pub(super) async fn stop<R: Runtime>(
    rt: &R,
    c: &Observed,
    grace_override: Option<Duration>,
    order: Option<&Ordering>,
) -> Result<(), RuntimeError> {
    // However the stop ends, those waiting for this container wait no longer.
    struct Ended<'a>(Option<&'a Ordering>, &'a str);
    impl Drop for Ended<'_> {
        fn drop(&mut self) {
            if let Some(o) = self.0 {
                o.terminated(self.1);
            }
        }
    }
    let _ended = Ended(order, &c.id);
    if !c.is_running() {
        return Ok(());
    }
    // Its labels say which hook to run: only podrun's own, sealed labels may.
    if !c.is_owned() {
        return Err(RuntimeError::NotOwned { what: "stop".to_owned(), id: c.id.clone() });
    }
    let grace = grace_of(c, grace_override);
    let started = tokio::time::Instant::now();
    if let Some(hook) = c.label(labels::PRE_STOP).and_then(|h| serde_json::from_str::<Hook>(h).ok()) {
        if grace > Duration::ZERO {
            // Looked up only for an HTTP hook that needs it: one more list call.
            let infra_ip = match &hook {
                Hook::HttpGet(h) if h.host.is_none() && !h.host_network => pod_ip_of(rt, c).await,
                _ => None,
            };
            // A failed preStop hook does not stop the stop, as in Kubernetes; it is said, as the
            // kubelet's FailedPreStopHook event says it.
            if let Err(e) = run_hook(rt, &c.id, &hook, grace, infra_ip.as_deref()).await {
                let name = c.label(labels::CONTAINER_NAME).unwrap_or(&c.name);
                let pod = format!(
                    "{}/{}",
                    c.label(labels::POD_NAMESPACE).unwrap_or_default(),
                    c.label(labels::POD_NAME).unwrap_or_default()
                );
                tracing::warn!("pod {pod}: preStop hook of {name} failed: {}", chain(&e));
            }
        }
    }
    if let Some(o) = order.filter(|_| !grace.is_zero()) {
        o.wait_for_turn(&c.id, grace.saturating_sub(started.elapsed())).await;
    }
    // The kubelet gives the stop signal at least 2 s after a preStop hook ran, or a turn came.
    let left = grace.saturating_sub(started.elapsed());
    let left = if left.is_zero() && !grace.is_zero() { Duration::from_secs(2) } else { left };
    rt.stop(c, left).await
}

pub(super) async fn stop_and_remove<R: Runtime>(
    rt: &R,
    c: &Observed,
    grace: Option<Duration>,
    wait: bool,
    files: Option<&PodFiles>,
    order: Option<&Ordering>,
) -> Result<(), RuntimeError> {
    if wait {
        stop(rt, c, grace, order).await?;
    }
    rt.remove(c).await?;
    if let (Some(files), Some(uid), Some(name)) = (files, c.label(labels::POD_UID), c.label(labels::CONTAINER_NAME)) {
        files.remove_instance(uid, name, attempt_of(c));
    }
    Ok(())
}

/// Stops (in parallel, pod members first, each with its preStop hook and the grace period it
/// was created with) and removes every container podrun made for the pods `sel` selects, or
/// only those of them with an id in `only`. Returns how many.
pub async fn remove_pod<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
    only: Option<&[String]>,
    files: Option<&PodFiles>,
) -> Result<usize, RuntimeError> {
    remove_pod_with(rt, sel, grace_override, true, only, files).await
}

/// How many times a whole pod's removal looks again for containers made meanwhile.
pub(super) const MAX_EXTRA_LOOKS: u32 = 3;

/// `remove_pod`, and with `wait` false no stop at all: no preStop hook, no grace period, each
/// container is removed with force at once (the engine kills a running one with SIGKILL).
pub async fn remove_pod_with<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
    wait: bool,
    only: Option<&[String]>,
    files: Option<&PodFiles>,
) -> Result<usize, RuntimeError> {
    let mut all = rt.list(sel).await?;
    // What podrun cannot prove it made is never stopped, hooked or removed.
    all.retain(Observed::is_owned);
    if let Some(ids) = only {
        all.retain(|c| ids.contains(&c.id));
    }
    // A whole pod's removal says so first, for a run of the pod beside it (`pod::deletion`).
    let signs: Vec<(String, String)> = match (only, files) {
        (None, Some(files)) => uids_of(&all)
            .into_iter()
            .filter_map(|uid| files.begin_deletion(uid).map(|id| (uid.to_owned(), id)))
            .collect(),
        _ => Vec::new(),
    };
    let how = How { grace_override, wait, only, files };
    let removed = remove_listed(rt, sel, how, all).await;
    if let Some(files) = files {
        for (uid, id) in &signs {
            files.end_deletion(uid, id);
        }
    }
    removed
}

/// The pod uids the containers carry (sealed labels), each once.
pub(super) fn uids_of(all: &[Observed]) -> Vec<&str> {
    let mut uids: Vec<&str> = all.iter().filter_map(|c| c.label(labels::POD_UID)).collect();
    uids.sort_unstable();
    uids.dedup();
    uids
}

/// How `remove_pod_with` was asked to remove.
#[derive(Clone, Copy)]
struct How<'a> {
    grace_override: Option<Duration>,
    wait: bool,
    only: Option<&'a [String]>,
    files: Option<&'a PodFiles>,
}

/// `remove_pod_with`'s removal of the containers it listed, `all`.
async fn remove_listed<R: Runtime>(
    rt: &R,
    sel: &Selector,
    how: How<'_>,
    mut all: Vec<Observed>,
) -> Result<usize, RuntimeError> {
    let How { grace_override, wait, only, files } = how;
    let mut batch = all.clone();
    // The whole pod: an apply running beside this may have created a container after the
    // list; it notices the deletion and removes its own (see the driver), and this looks again,
    // a few times, so the pod is gone either way.
    let mut looks = if only.is_none() { MAX_EXTRA_LOOKS } else { 0 };
    loop {
        let (infra, members): (Vec<&Observed>, Vec<&Observed>) = batch.iter().partition(|c| is_infra(c));
        for part in [members, infra] {
            let order = Ordering::new(part.iter().copied());
            let stops = part.iter().map(|c| stop_and_remove(rt, c, grace_override, wait, files, Some(&order)));
            for r in join_all(stops).await {
                r?;
            }
        }
        if looks == 0 || batch.is_empty() {
            break;
        }
        looks -= 1;
        batch = rt.list(sel).await?.into_iter().filter(Observed::is_owned).collect();
        all.extend(batch.iter().cloned());
    }
    // With the whole pod gone, so are its files and its own engine volumes (not its claims').
    let whole_pod = only.is_none() || rt.list(sel).await.is_ok_and(|left| !left.iter().any(Observed::is_owned));
    if whole_pod {
        for uid in uids_of(&all) {
            if let Some(files) = files {
                volumes::remove_pod_volumes(files, uid);
                files.remove_pod(uid);
            }
            remove_engine_volumes(rt, uid).await?;
        }
    }
    Ok(all.len())
}

/// Removes the engine volumes podrun made for the pod `uid` (see `pod::volumes::engine`).
pub async fn remove_engine_volumes<R: Runtime>(rt: &R, uid: &str) -> Result<usize, RuntimeError> {
    let found = rt.list_volumes(&engine::pod_volume_filters(uid)).await?;
    for v in &found {
        rt.remove_volume(&v.name).await?;
    }
    Ok(found.len())
}
