//! One pull per image per run, shared by every pod of the run and by the supervisor's
//! re-drives. A pod that needs an image another pod is pulling waits for that pull instead of
//! starting its own, sees its progress, and gets its outcome: twenty pods of one `:latest`
//! image make one pull, and on a host whose registry is unreachable, one failed pull.
//!
//! A pull that succeeded is remembered for `FRESH`, so the pods of one run that come to the
//! image later do not pull it again. A pull that found the registry unreachable is remembered
//! for `UNREACHABLE_FRESH`: long enough for the pods of a run that start together (their first
//! pulls come within a few hundred milliseconds), short enough that a retry after
//! `--retry-delay` tries the network again (a host booting before its network is up). Any
//! other failure is shared only by the pods that waited for it, and the next retry pulls anew.
//! Pulls with different credentials (imagePullSecrets) are not shared.
//!
//! The run's `pull_verify::Verifier` (the policy and the record of who pulled what) goes with
//! its pulls, so every pod of the run is judged by one record.

use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use super::pull_verify::Verifier;
use crate::runtime::{auth::Credentials, PullProgress, Runtime, RuntimeError};

/// How long an outcome serves later requests: the default `--timeout`, so one run of
/// `apply` pulls an image once; under `--supervise` an image is pulled again after this when a
/// container needs it (the kubelet pulls on every start under Always).
const FRESH: Duration = Duration::from_secs(300);
/// How long "registry unreachable" serves later requests: under the default `--retry-delay`.
const UNREACHABLE_FRESH: Duration = Duration::from_millis(900);

/// Where a running pull stands, as its followers see it.
#[derive(Debug, Clone)]
enum Stage {
    Progress(PullProgress),
    Finished(Result<(), RuntimeError>),
}

#[derive(Debug)]
enum State {
    Running(watch::Receiver<Stage>),
    Done { until: Instant, outcome: Result<(), RuntimeError> },
}

#[derive(Debug)]
struct Slot {
    image: String,
    credentials: Option<Credentials>,
    state: State,
}

/// The pulls of one run (one `apply`, and its supervision).
#[derive(Debug, Default)]
pub struct Pulls {
    slots: Mutex<Vec<Slot>>,
    verifier: Verifier,
}

/// What a request found.
enum Found {
    Reuse(Result<(), RuntimeError>),
    Follow(watch::Receiver<Stage>),
    Lead(watch::Sender<Stage>),
}

impl Pulls {
    #[cfg(test)]
    pub fn new() -> Self {
        Self::default()
    }

    /// The pulls of a run whose pods are judged by `verifier`.
    pub fn verified_by(verifier: Verifier) -> Self {
        Pulls { slots: Mutex::default(), verifier }
    }

    pub fn verifier(&self) -> &Verifier {
        &self.verifier
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Slot>> {
        // A panic while holding the lock left the list consistent (no step spans it).
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn find(&self, image: &str, credentials: Option<&Credentials>) -> Found {
        let mut slots = self.lock();
        let now = Instant::now();
        // Outcomes past their time, and pulls whose puller went away (its run was
        // interrupted), are forgotten.
        slots.retain(|s| match &s.state {
            State::Done { until, .. } => now < *until,
            State::Running(rx) => rx.has_changed().is_ok(),
        });
        let slot = slots.iter().find(|s| s.image == image && s.credentials.as_ref() == credentials);
        match slot.map(|s| &s.state) {
            Some(State::Done { outcome, .. }) => Found::Reuse(outcome.clone()),
            Some(State::Running(rx)) => Found::Follow(rx.clone()),
            None => {
                let (tx, rx) = watch::channel(Stage::Progress(PullProgress::default()));
                slots.push(Slot {
                    image: image.to_owned(),
                    credentials: credentials.cloned(),
                    state: State::Running(rx),
                });
                Found::Lead(tx)
            }
        }
    }

    /// Pulls `image` unless the run pulls it already or did a moment ago; `progress` hears
    /// the pull's progress either way.
    pub async fn pull<R: Runtime>(
        &self,
        rt: &R,
        image: &str,
        credentials: Option<&Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        loop {
            match self.find(image, credentials) {
                Found::Reuse(outcome) => return outcome,
                Found::Follow(rx) => {
                    if let Some(outcome) = follow(rx, progress).await {
                        return outcome;
                    }
                    // The puller went away before the end: pull again (or follow whoever does).
                }
                Found::Lead(tx) => {
                    let forward = |p: PullProgress| {
                        tx.send_replace(Stage::Progress(p));
                        progress(p);
                    };
                    let outcome = rt.pull_image(image, credentials, &forward).await;
                    self.finish(image, credentials, &outcome);
                    tx.send_replace(Stage::Finished(outcome.clone()));
                    return outcome;
                }
            }
        }
    }

    /// Records a pull's outcome for later requests, or forgets the pull.
    fn finish(&self, image: &str, credentials: Option<&Credentials>, outcome: &Result<(), RuntimeError>) {
        let mut slots = self.lock();
        let Some(i) = slots.iter().position(|s| s.image == image && s.credentials.as_ref() == credentials) else {
            return;
        };
        let fresh = match outcome {
            Ok(()) => FRESH,
            Err(RuntimeError::RegistryUnreachable { .. }) => UNREACHABLE_FRESH,
            Err(_) => Duration::ZERO,
        };
        if fresh.is_zero() {
            slots.remove(i);
        } else {
            slots[i].state = State::Done { until: Instant::now() + fresh, outcome: outcome.clone() };
        }
    }
}

/// Waits for another pod's pull, passing on its progress. `None`: it ended without an outcome.
async fn follow(
    mut rx: watch::Receiver<Stage>,
    progress: &(dyn Fn(PullProgress) + Send + Sync),
) -> Option<Result<(), RuntimeError>> {
    loop {
        let stage = rx.borrow_and_update().clone();
        match stage {
            Stage::Finished(outcome) => return Some(outcome),
            Stage::Progress(p) if p != PullProgress::default() => progress(p),
            Stage::Progress(_) => {}
        }
        rx.changed().await.ok()?;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use futures_util::future::join_all;

    use super::*;
    use crate::runtime::fake::{Call, FakeRuntime};

    fn pulls_of(rt: &FakeRuntime) -> usize {
        rt.calls().iter().filter(|c| matches!(c, Call::Pull { .. })).count()
    }

    #[tokio::test]
    async fn concurrent_requests_share_one_pull_and_all_hear_its_progress() {
        let rt = FakeRuntime::new().with_pullable("img:latest").with_pull_time(Duration::from_millis(50));
        let pulls = Pulls::new();
        let heard = Arc::new(Mutex::new(0usize));
        let requests = (0..20).map(|_| {
            let heard = heard.clone();
            let (rt, pulls) = (&rt, &pulls);
            async move {
                let progress = move |_: PullProgress| *heard.lock().unwrap() += 1;
                pulls.pull(rt, "img:latest", None, &progress).await
            }
        });
        let outcomes = join_all(requests).await;
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        assert_eq!(pulls_of(&rt), 1);
        assert!(*heard.lock().unwrap() >= 20, "every waiter hears the progress");
        // Later in the run: the image is fresh, nothing is pulled.
        pulls.pull(&rt, "img:latest", None, &|_| {}).await.unwrap();
        assert_eq!(pulls_of(&rt), 1);
    }

    #[tokio::test]
    async fn an_unreachable_registry_is_tried_once_per_run() {
        // Present but not pullable: the fake's offline registry.
        let rt = FakeRuntime::new().with_image("img:latest").with_pull_time(Duration::from_millis(20));
        let pulls = Pulls::new();
        let outcomes = join_all((0..5).map(|_| pulls.pull(&rt, "img:latest", None, &|_| {}))).await;
        assert!(outcomes.iter().all(|o| matches!(o, Err(RuntimeError::RegistryUnreachable { .. }))));
        let again = pulls.pull(&rt, "img:latest", None, &|_| {}).await;
        assert!(matches!(again, Err(RuntimeError::RegistryUnreachable { .. })));
        assert_eq!(pulls_of(&rt), 1);
        // A retry after the retry delay tries the network again.
        tokio::time::sleep(UNREACHABLE_FRESH).await;
        assert!(pulls.pull(&rt, "img:latest", None, &|_| {}).await.is_err());
        assert_eq!(pulls_of(&rt), 2);
    }

    #[tokio::test]
    async fn another_failure_is_shared_by_its_waiters_only() {
        let rt = FakeRuntime::new().with_pull_time(Duration::from_millis(20));
        let pulls = Pulls::new();
        let outcomes = join_all((0..3).map(|_| pulls.pull(&rt, "gone:1", None, &|_| {}))).await;
        assert!(outcomes.iter().all(|o| matches!(o, Err(RuntimeError::ImageNotFound { .. }))));
        assert_eq!(pulls_of(&rt), 1);
        // A retry pulls again.
        assert!(pulls.pull(&rt, "gone:1", None, &|_| {}).await.is_err());
        assert_eq!(pulls_of(&rt), 2);
    }

    #[tokio::test]
    async fn different_credentials_pull_apart_and_a_dropped_puller_is_replaced() {
        let rt = FakeRuntime::new().with_pullable("img:1").with_pull_time(Duration::from_millis(20));
        let pulls = Pulls::new();
        let creds =
            Credentials { username: "u".into(), password: "p".into(), server: "reg".into(), identity_token: None };
        let (a, b) =
            tokio::join!(pulls.pull(&rt, "img:1", None, &|_| {}), pulls.pull(&rt, "img:1", Some(&creds), &|_| {}));
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(pulls_of(&rt), 2);

        let rt = FakeRuntime::new().with_pullable("img:2").with_pull_time(Duration::from_millis(50));
        let pulls = Pulls::new();
        // The first puller is dropped mid-pull (its run interrupted); the one waiting pulls.
        let first = tokio::time::timeout(Duration::from_millis(10), pulls.pull(&rt, "img:2", None, &|_| {}));
        let second = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            pulls.pull(&rt, "img:2", None, &|_| {}).await
        };
        let (first, second) = tokio::join!(first, second);
        assert!(first.is_err(), "timed out");
        assert!(second.is_ok());
        assert_eq!(pulls_of(&rt), 2);
    }
}
