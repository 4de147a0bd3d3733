//! `apply --supervise --auto-update INTERVAL`: images kept current, as Quadlet's
//! `AutoUpdate=registry` (`podman auto-update`) keeps them. Every INTERVAL, the image of each
//! running app container whose pull policy is `Always` is pulled (with the pod's
//! imagePullSecrets); when the reference now names another image than the one the container
//! runs, the container is pinned to the new image id and its driver replaces it as a changed
//! spec is replaced (graceful stop, preStop hook, a new instance counted as a restart). Over the
//! settle window the new instance is watched on its driver's status (`judge`); when it does not
//! start, exits, restarts or is not ready, it is pinned back to the image it ran and replaced
//! again, and the failed image id is never updated to again (until podrun ends). A kubelet does
//! none of this: an image move is no reason of the planner's, which only hears which instances
//! to replace (`plan::Context::replace`).

mod judge;
mod state;

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

pub use judge::{judge, moved, Verdict, Watch};
pub use state::Updates;

use super::pull_credentials::PullCredentials;
use super::pull_verify::PodSecret;
use super::pulls::Pulls;
use crate::escape::escape;
use crate::manifest::types::PullPolicy;
use crate::pod::observed::PodObservation;
use crate::pod::{DesiredContainer, DesiredPod};
use crate::report::{PodKey, Reporter};
use crate::runtime::{Observed, Runtime, RuntimeError, Selector};

/// The shortest interval (and settle window) taken: each check pulls from the registry.
pub const FLOOR: Duration = Duration::from_secs(1);
/// How often updates being settled are judged, at most.
const JUDGE_EVERY: Duration = Duration::from_secs(1);

/// `--auto-update`: how often, how long an update has to settle, and the state shared with the
/// drivers (see `Updates`).
#[derive(Debug, Clone)]
pub struct AutoUpdate {
    pub every: Duration,
    pub settle: Duration,
    pub state: Arc<Updates>,
}

/// The containers of `pod` kept current: its app containers pulled `Always`.
pub fn targets(pod: &DesiredPod) -> impl Iterator<Item = &DesiredContainer> {
    pod.containers.iter().filter(|c| c.pull_policy == PullPolicy::Always)
}

/// Keeps the images of `pods` current until dropped (it runs beside their supervision).
/// Its pulls are recorded in the run's record of image pulls (`pulls`, see `pull_verify`).
pub async fn keep_current<R: Runtime>(
    rt: Arc<R>,
    pods: Vec<DesiredPod>,
    au: AutoUpdate,
    reporter: Arc<dyn Reporter>,
    pulls: Arc<Pulls>,
) {
    // The updates being settled when podrun started over are settled on.
    let watches = au.state.take_watches();
    let mut checker = Checker { rt, au, reporter, pulls, watches, failing: Vec::new() };
    let mut next_check = Instant::now() + checker.au.every;
    let mut tick = tokio::time::interval(JUDGE_EVERY.min(checker.au.every));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        for pod in &pods {
            checker.judge_pod(pod).await;
        }
        if Instant::now() >= next_check {
            for pod in &pods {
                checker.check_pod(pod).await;
            }
            next_check = Instant::now() + checker.au.every;
        }
    }
}

struct Checker<R> {
    rt: Arc<R>,
    au: AutoUpdate,
    reporter: Arc<dyn Reporter>,
    pulls: Arc<Pulls>,
    /// The updates being settled.
    watches: Vec<Watch>,
    /// The references whose last pull failed (said once, until one succeeds).
    failing: Vec<String>,
}

impl<R> Drop for Checker<R> {
    /// Stopped with the supervision (podrun starting over): the next checker takes them up.
    fn drop(&mut self) {
        self.au.state.keep_watches(std::mem::take(&mut self.watches));
    }
}

impl<R: Runtime> Checker<R> {
    /// The pod's containers as the engine shows them now; None (said at debug level) when the
    /// engine does not answer: the pod's driver rides that out, the next look tries again.
    async fn look(&self, pod: &DesiredPod) -> Option<Vec<Observed>> {
        match self.rt.list(&Selector::pod(&pod.namespace, &pod.name)).await {
            Ok(observed) => Some(observed),
            Err(e) => {
                tracing::debug!(pod = %pod.name, error = %e, "auto-update: no look at the pod");
                None
            }
        }
    }

    /// Pulls the image of each of the pod's containers kept current, and updates those whose
    /// image moved.
    async fn check_pod(&mut self, pod: &DesiredPod) {
        let Some(observed) = self.look(pod).await else { return };
        let obs = PodObservation::new(pod, &observed);
        for c in targets(pod) {
            if self.watches.iter().any(|w| w.uid == pod.uid && w.container == c.name) {
                continue;
            }
            let Some(cur) = obs.get(&c.name).current.as_ref().filter(|o| o.is_running()) else { continue };
            if let Err(e) = self.check(pod, c, cur).await {
                tracing::debug!(pod = %pod.name, container = %c.name, error = %e, "auto-update: no check");
            }
        }
    }

    async fn check(&mut self, pod: &DesiredPod, c: &DesiredContainer, cur: &Observed) -> Result<(), RuntimeError> {
        let key = PodKey::of(pod);
        if !self.pull(pod, &key, &c.image).await {
            return Ok(());
        }
        let Some(now) = self.rt.image_identity(&c.image).await? else { return Ok(()) };
        let state = &self.au.state;
        let running = state.pinned(&pod.uid, &c.name).unwrap_or_else(|| cur.image_id.clone());
        if !moved(&now, &running, state.is_bad(&now.id)) {
            return Ok(());
        }
        let from = self.rt.image_identity(&running).await?.map_or(running, |i| i.id);
        if from == now.id {
            return Ok(());
        }
        self.reporter.event(
            &key,
            &format!(
                "container {}: image {} moved from {} to {}: restarting the container on it",
                escape(&c.name),
                escape(&c.image),
                escape(&from),
                escape(&now.id)
            ),
        );
        state.pin((&pod.uid, &c.name), &now.id, Some(&cur.id), None);
        self.watches.push(Watch {
            uid: pod.uid.clone(),
            container: c.name.clone(),
            image: c.image.clone(),
            instance: cur.id.clone(),
            from,
            to: now.id,
            since: None,
        });
        Ok(())
    }

    /// Pulls `image` as the pod's pulls do (its imagePullSecrets); a failure is said once
    /// until a pull of it succeeds again. Whether the image under the reference is to be
    /// compared: pulled, or the registry unreachable, where the local image serves as it
    /// serves the driver (an image loaded or tagged on an offline host is taken up).
    async fn pull(&mut self, pod: &DesiredPod, key: &PodKey, image: &str) -> bool {
        let found = super::pull_credentials::credentials_for(pod, image, &*self.reporter, key).await;
        let e = match self.recorded_pull(pod, image, &found).await {
            Ok(()) => {
                self.failing.retain(|i| i != image);
                return true;
            }
            Err(e) => e,
        };
        let offline = matches!(e, RuntimeError::RegistryUnreachable { .. });
        if !self.failing.iter().any(|i| i == image) {
            self.failing.push(image.to_owned());
            let then = if offline { "the local image is compared" } else { "the containers stay as they are" };
            self.reporter.warning(&format!(
                "pod {key}: auto-update: image {}: {}; {then}",
                escape(image),
                crate::error_chain::chain(&e)
            ));
        }
        offline
    }

    /// Pulls `image` with `found`, recorded as the drivers' pulls are: an image a pod's Secret
    /// pulled stays that Secret's. A pull that cannot be recorded is not made.
    async fn recorded_pull(&self, pod: &DesiredPod, image: &str, found: &PullCredentials) -> Result<(), RuntimeError> {
        let verifier = self.pulls.verifier();
        verifier.intend(image).map_err(|e| RuntimeError::Image {
            image: image.to_owned(),
            detail: format!("cannot record the pull: {}", crate::error_chain::chain(&e)),
        })?;
        let r = self.rt.pull_image(image, found.credentials.as_ref(), &|_| {}).await;
        let id = match &r {
            Ok(()) => match self.rt.image_identity(image).await {
                Ok(Some(identity)) => Some(identity.id),
                // Left as a pull under way: pulled by podrun, credentials unknown.
                _ => return r,
            },
            Err(_) => None,
        };
        let secret = found.credentials.as_ref().zip(found.secret.as_deref()).map(|(credentials, name)| PodSecret {
            namespace: &pod.namespace,
            name,
            credentials,
        });
        if let Err(e) = verifier.ended(image, id.as_deref(), secret) {
            tracing::warn!(image = %escape(image), error = %crate::error_chain::chain(&e), "auto-update: pull not recorded");
        }
        r
    }

    /// Judges the pod's updates being settled, and rolls back those that failed.
    async fn judge_pod(&mut self, pod: &DesiredPod) {
        if !self.watches.iter().any(|w| w.uid == pod.uid) {
            return;
        }
        let st = self.au.state.status(&pod.uid);
        let now = Instant::now();
        let mut done = Vec::new();
        for (i, w) in self.watches.iter_mut().enumerate().filter(|(_, w)| w.uid == pod.uid) {
            let cs = st.as_ref().and_then(|s| s.container_statuses.iter().find(|c| c.name == w.container));
            let readiness = pod
                .find(&w.container)
                .and_then(|c| pod.manifest_container(c))
                .is_some_and(|m| m.readiness_probe.is_some());
            match judge(w, cs, readiness, now, self.au.settle) {
                Verdict::Settling => {}
                verdict => done.push((i, verdict)),
            }
        }
        for (i, verdict) in done.into_iter().rev() {
            let w = self.watches.remove(i);
            self.au.state.replaced(&w.instance);
            match verdict {
                Verdict::Bad(why) => self.roll_back(pod, &w, &why).await,
                _ => self.reporter.event(
                    &PodKey::of(pod),
                    &format!("container {}: image update to {} settled", escape(&w.container), escape(&w.to)),
                ),
            }
        }
    }

    /// Pins the container of `w` back to the image it ran, replaces its instance now, and says
    /// so.
    async fn roll_back(&self, pod: &DesiredPod, w: &Watch, why: &str) {
        if matches!(self.rt.image_identity(&w.from).await, Ok(None)) {
            self.reporter.warning(&format!(
                "pod {}: container {}: the update of image {} to {} failed ({}), and the image before, {}, is gone: no rollback",
                PodKey::of(pod),
                escape(&w.container),
                escape(&w.image),
                escape(&w.to),
                escape(why),
                escape(&w.from)
            ));
            return;
        }
        let observed = self.look(pod).await.unwrap_or_default();
        let obs = PodObservation::new(pod, &observed);
        let instance = obs.get(&w.container).current.as_ref().map(|o| o.id.clone());
        self.au.state.pin((&pod.uid, &w.container), &w.from, instance.as_deref(), Some(&w.to));
        self.reporter.warning(&format!(
            "pod {}: container {}: the update of image {} to {} failed ({}): rolled back to {}; {} is not updated to again",
            PodKey::of(pod),
            escape(&w.container),
            escape(&w.image),
            escape(&w.to),
            escape(why),
            escape(&w.from),
            escape(&w.to)
        ));
    }
}
