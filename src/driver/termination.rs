//! The order in which a pod's containers stop together (at the pod's end, its deletion, its
//! active deadline), as the kubelet orders them (kuberuntime_termination_order.go): every
//! container is stopped at once and runs its preStop hook at once, but a sidecar (a
//! restartable init container) gets its stop signal only once every app container and every
//! later sidecar has exited, so the last sidecar to start is the first to stop, and a proxy or
//! log shipper outlives what uses it. The wait comes out of the container's own grace period:
//! once that is over it is stopped regardless.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::runtime::labels;
use crate::runtime::Observed;

/// Who waits for whom among the containers of one stop.
#[derive(Debug, Default)]
pub struct Ordering {
    /// By container id: set once the container has exited.
    terminated: BTreeMap<String, watch::Sender<bool>>,
    /// By container id: what it waits for before its stop signal.
    prereqs: BTreeMap<String, Vec<watch::Receiver<bool>>>,
}

/// A container's place: a sidecar's index among the init containers (its sealed label).
fn sidecar_index(c: &Observed) -> Option<usize> {
    c.label(labels::SIDECAR).and_then(|i| i.parse().ok())
}

impl Ordering {
    /// The ordering of the containers stopped together; only running ones are waited for.
    pub fn new<'a>(stopping: impl IntoIterator<Item = &'a Observed>) -> Ordering {
        let mut o = Ordering::default();
        let mut sidecars: Vec<(usize, &Observed)> = Vec::new();
        let mut others = Vec::new();
        for c in stopping {
            let (tx, rx) = watch::channel(!c.is_running());
            o.terminated.insert(c.id.clone(), tx);
            match sidecar_index(c) {
                Some(i) => sidecars.push((i, c)),
                None if c.label(labels::ROLE) == Some("app") => others.push(rx),
                None => {}
            }
        }
        // The last sidecar waits for the app containers; each one before it, for the one after.
        sidecars.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
        let mut later: Option<watch::Receiver<bool>> = None;
        for (_, c) in sidecars {
            let mut waits = others.clone();
            waits.extend(later.take());
            o.prereqs.insert(c.id.clone(), waits);
            later = o.terminated.get(&c.id).map(watch::Sender::subscribe);
        }
        o
    }

    /// Waits until it is `id`'s turn to get its stop signal, at most `grace`; returns how long
    /// it waited.
    pub async fn wait_for_turn(&self, id: &str, grace: Duration) -> Duration {
        let start = Instant::now();
        let Some(waits) = self.prereqs.get(id) else { return Duration::ZERO };
        let until = start + grace;
        for rx in waits {
            let mut rx = rx.clone();
            // A sender dropped (its stop ended without a word) is no reason to wait on.
            if tokio::time::timeout_at(until, rx.wait_for(|done| *done)).await.is_err() {
                break;
            }
        }
        start.elapsed()
    }

    /// `id` has exited (or its stop ended, however it ended).
    pub fn terminated(&self, id: &str) {
        if let Some(tx) = self.terminated.get(id) {
            tx.send_replace(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::runtime::State;

    fn member(id: &str, role: &str, sidecar: Option<usize>, running: bool) -> Observed {
        let mut labels = BTreeMap::new();
        labels.insert(labels::ROLE.to_owned(), role.to_owned());
        labels.insert(labels::SIDECAR.to_owned(), sidecar.map(|i| i.to_string()).unwrap_or_default());
        Observed {
            id: id.into(),
            name: id.into(),
            labels,
            image: "img".into(),
            image_id: String::new(),
            state: if running {
                State::Running { started_at: None }
            } else {
                State::Exited { exit_code: 0, started_at: None, finished_at: None, oom_killed: false, error: None }
            },
            ip: None,
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn sidecars_stop_last_in_reverse_order_of_their_start() {
        let all = [
            member("app", "app", None, true),
            member("log", "init", Some(0), true),
            member("init", "init", None, false),
            member("proxy", "init", Some(2), true),
        ];
        let o = std::sync::Arc::new(Ordering::new(&all));
        let grace = Duration::from_secs(30);
        // App containers and regular init containers do not wait.
        assert_eq!(o.wait_for_turn("app", grace).await, Duration::ZERO);
        let o2 = o.clone();
        let proxy = tokio::spawn(async move { o2.wait_for_turn("proxy", grace).await });
        let o3 = o.clone();
        let log = tokio::spawn(async move { o3.wait_for_turn("log", grace).await });
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(!proxy.is_finished() && !log.is_finished(), "both wait for the app container");
        o.terminated("app");
        assert_eq!(proxy.await.unwrap(), Duration::from_secs(5), "the last sidecar goes first");
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert!(!log.is_finished(), "the first sidecar waits for the later one");
        o.terminated("proxy");
        assert_eq!(log.await.unwrap(), Duration::from_secs(8));
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_ends_with_the_grace_period_and_exited_containers_are_not_waited_for() {
        let all = [member("app", "app", None, true), member("side", "init", Some(0), true)];
        let o = Ordering::new(&all);
        assert_eq!(o.wait_for_turn("side", Duration::from_secs(4)).await, Duration::from_secs(4));
        let all = [member("app", "app", None, false), member("side", "init", Some(0), true)];
        assert_eq!(Ordering::new(&all).wait_for_turn("side", Duration::from_secs(4)).await, Duration::ZERO);
    }
}
