//! The pods `apply --supervise` keeps, each by a worker of its own, as the kubelet's per-pod
//! workers: a worker drives its pod forever (`supervise::keep`), and nothing done to another
//! pod, nor a re-read of the manifests, pauses it. A re-read hands each worker only its own
//! news: a pod whose manifest changed is replaced as a new pod (its old containers stopped and
//! removed, so its restart count starts at 0 and no crash-loop backoff is inherited: the
//! kubelet gives an edited static pod a new uid); a pod whose ConfigMaps or Secrets changed is
//! driven again with them; a pod whose manifest is gone is no longer supervised; a pod whose
//! manifest turned bad keeps its last good version supervised.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::driver::signals::Stop;
use crate::driver::{remove_pod, supervise, DriveOptions, Interrupt};
use crate::error_chain::chain;
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::{Runtime, Selector};
use crate::status::outcome::SIGHUP;

/// How long a worker told to stop may take before it is dropped where it waits (its driver
/// stops at once; its last look is short).
const STOP_BOUND: Duration = Duration::from_secs(5);

/// One pod's worker: the pod as it drives it, the manifest file it came from, and how to stop
/// it.
struct Worker {
    desired: DesiredPod,
    file: Option<String>,
    stop: Stop,
    task: JoinHandle<bool>,
}

impl Worker {
    /// Stops it (bounded); whether it ended past its active deadline does not matter here.
    async fn stop(self) {
        self.stop.fire(SIGHUP);
        let mut task = self.task;
        if tokio::time::timeout(STOP_BOUND, &mut task).await.is_err() {
            task.abort();
        }
    }
}

/// What a pod of a re-read is, against its worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    New,
    /// Its manifest changed: a new pod.
    Edited,
    /// Its manifest is the same, what it refers to (ConfigMaps, Secrets) is not.
    Refreshed,
    Same,
}

/// How `new` differs from `old`, the pod its worker drives.
pub(super) fn change(old: Option<&DesiredPod>, new: &DesiredPod) -> Change {
    let Some(old) = old else { return Change::New };
    if old.manifest != new.manifest {
        return Change::Edited;
    }
    let hashes = |d: &DesiredPod| {
        let all = std::iter::once(&d.infra).chain(&d.init).chain(&d.containers);
        all.map(|c| c.spec_hash.clone()).collect::<Vec<_>>()
    };
    if hashes(old) != hashes(new) || old.configs != new.configs || old.source != new.source {
        Change::Refreshed
    } else {
        Change::Same
    }
}

/// The workers of every supervised pod.
pub(super) struct Workers<R> {
    rt: Arc<R>,
    opts: DriveOptions,
    reporter: Arc<dyn Reporter>,
    interrupt: Interrupt,
    pods: BTreeMap<PodKey, Worker>,
    running: Arc<Running>,
}

/// How many workers run, and whether one ended with its pod past its activeDeadlineSeconds.
#[derive(Default)]
pub(super) struct Running {
    count: AtomicUsize,
    past_deadline: AtomicBool,
    ended: Notify,
}

impl Running {
    /// Resolves once no worker runs, with whether one ended past its pod's
    /// activeDeadlineSeconds.
    pub(super) async fn all_ended(&self) -> bool {
        while self.count.load(Ordering::SeqCst) > 0 {
            self.ended.notified().await;
        }
        self.past_deadline.load(Ordering::SeqCst)
    }
}

/// A worker running, counted until it ends (or is dropped where it waits).
struct Live(Arc<Running>);

impl Live {
    fn new(running: &Arc<Running>) -> Live {
        running.count.fetch_add(1, Ordering::SeqCst);
        Live(running.clone())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.count.fetch_sub(1, Ordering::SeqCst);
        self.0.ended.notify_one();
    }
}

impl<R: Runtime + 'static> Workers<R> {
    /// No worker yet; `opts` are supervision's (`supervise::forever`).
    pub(super) fn new(rt: Arc<R>, opts: DriveOptions, reporter: Arc<dyn Reporter>, interrupt: Interrupt) -> Self {
        Workers { rt, opts, reporter, interrupt, pods: BTreeMap::new(), running: Arc::default() }
    }

    /// What tells when no worker runs any more.
    pub(super) fn running(&self) -> Arc<Running> {
        self.running.clone()
    }

    /// Starts a worker for `desired` (from `file`), once `before` (the worker it replaces) has
    /// stopped and, when `edited`, the old pod is removed.
    fn start(&mut self, desired: DesiredPod, file: Option<String>, before: Option<Worker>, edited: bool) {
        let (stop, interrupt) = self.interrupt.stoppable();
        let (rt, opts, reporter) = (self.rt.clone(), self.opts.clone(), self.reporter.clone());
        let pod = desired.clone();
        let live = Live::new(&self.running);
        let task = tokio::spawn(async move {
            let live = live;
            if let Some(before) = before {
                before.stop().await;
            }
            if edited && interrupt.fired().is_none() {
                replace(&*rt, &pod, &opts, &*reporter).await;
            }
            let past_deadline = supervise::keep(rt, pod, opts, reporter, interrupt).await;
            if past_deadline {
                live.0.past_deadline.store(true, Ordering::SeqCst);
            }
            past_deadline
        });
        self.pods.insert(PodKey::of(&desired), Worker { desired, file, stop, task });
    }

    /// Workers for the pods of the first pass that need them; the others are known (a re-read
    /// leaves them alone unless their manifest changes).
    pub(super) fn first(&mut self, pods: Vec<(DesiredPod, Option<String>, bool)>) {
        for (desired, file, supervised) in pods {
            if supervised {
                self.start(desired, file, None, false);
            } else {
                let (stop, _) = self.interrupt.stoppable();
                let task = tokio::spawn(async { false });
                self.pods.insert(PodKey::of(&desired), Worker { desired, file, stop, task });
            }
        }
    }

    /// Hands a re-read to the workers: `pods` (each with its manifest file) are what the
    /// manifests say now; `bad` the files that do not load now, whose pods keep their last good
    /// version. Returns (once the workers of pods no manifest names any more have stopped) the
    /// pods started or replaced, and how many pods changed in all.
    pub(super) async fn reread(
        &mut self,
        pods: Vec<(DesiredPod, Option<String>)>,
        bad: &BTreeSet<String>,
    ) -> (Vec<DesiredPod>, usize) {
        let named: BTreeSet<PodKey> = pods.iter().map(|(d, _)| PodKey::of(d)).collect();
        let gone: Vec<PodKey> = self
            .pods
            .iter()
            .filter(|(k, w)| !named.contains(*k) && !w.file.as_ref().is_some_and(|f| bad.contains(f)))
            .map(|(k, _)| k.clone())
            .collect();
        let mut changed = Vec::new();
        let mut stopping = Vec::new();
        for key in &gone {
            if let Some(w) = self.pods.remove(key) {
                self.reporter.event(key, "no manifest names it any more: no longer supervised");
                stopping.push(w.stop());
            }
        }
        for (desired, file) in pods {
            let key = PodKey::of(&desired);
            let how = change(self.pods.get(&key).map(|w| &w.desired), &desired);
            let said = match how {
                Change::Same => {
                    if let Some(w) = self.pods.get_mut(&key) {
                        w.file = file;
                    }
                    continue;
                }
                Change::New => "new manifest: supervising the pod",
                Change::Edited => "its manifest changed: replacing it with a new pod",
                Change::Refreshed => "what it refers to changed: applying it again",
            };
            self.reporter.event(&key, said);
            changed.push(desired.clone());
            let before = self.pods.remove(&key);
            self.start(desired, file, before, how == Change::Edited);
        }
        join_all(stopping).await;
        let count = changed.len() + gone.len();
        (changed, count)
    }

    /// The pods known, and how many of them are supervised (their worker runs).
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.pods.len(), self.pods.values().filter(|w| !w.task.is_finished()).count())
    }

    /// The pods whose worker runs.
    pub(super) fn supervised(&self) -> Vec<DesiredPod> {
        self.pods.values().filter(|w| !w.task.is_finished()).map(|w| w.desired.clone()).collect()
    }

    /// Waits (bounded) for every worker to stop, as they do on SIGINT or SIGTERM.
    pub(super) async fn stopped(&mut self) {
        let tasks = self.pods.values_mut().filter(|w| !w.task.is_finished()).map(|w| &mut w.task);
        let _ = tokio::time::timeout(STOP_BOUND, join_all(tasks)).await;
    }
}

/// How long a re-read waits for the pods it started or replaced to show on the engine.
const SETTLE: Duration = Duration::from_secs(30);

/// Resolves once the engine shows a container of each of `pods` made from what it is now (a
/// container spec of theirs), or after `SETTLE`: what a re-read tells systemd it has done.
pub(super) async fn settled<R: Runtime>(rt: &R, pods: &[DesiredPod]) {
    let shown = |d: &DesiredPod, all: &[crate::runtime::Observed]| {
        let hashes: BTreeSet<&str> = d.init.iter().chain(&d.containers).map(|c| c.spec_hash.as_str()).collect();
        all.iter().any(|c| c.label(crate::runtime::labels::SPEC_HASH).is_some_and(|h| hashes.contains(h)))
    };
    // The first looks come soon (a container shows within a pass), later ones less often: a
    // slow pod must not cost the engine ten lists a second for the whole of `SETTLE`.
    let _ = tokio::time::timeout(SETTLE, async {
        let mut pause = Duration::from_millis(100);
        for d in pods {
            while !rt.list(&Selector::pod(&d.namespace, &d.name)).await.is_ok_and(|all| shown(d, &all)) {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
        }
    })
    .await;
}

/// Removes the pod as its old manifest made it, so that the new one starts as a new pod.
async fn replace<R: Runtime>(rt: &R, pod: &DesiredPod, opts: &DriveOptions, reporter: &dyn Reporter) {
    let key = PodKey::of(pod);
    let sel = Selector::pod(&pod.namespace, &pod.name);
    match remove_pod(rt, &sel, None, None, opts.files.as_ref()).await {
        Ok(n) => reporter.event(&key, &format!("the old pod removed ({n} containers)")),
        // The driver replaces what is left as a changed spec.
        Err(e) => reporter.warning(&format!("pod {key}: cannot remove the old pod: {}", chain(&e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::tests::{fake, opts, until, Recorder, INFRA};
    use crate::manifest::{load, LoadOptions, Source};
    use crate::runtime::fake::{Call, FakeRuntime};
    use crate::runtime::labels;

    fn pod(name: &str, env: &str) -> DesiredPod {
        let yaml = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers:\n  - {{name: {name}, image: 'img:1', env: [{{name: V, value: '{env}'}}]}}\n"
        );
        let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
        DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
    }

    /// The instances of container `name` the engine shows, by attempt.
    fn attempts(rt: &FakeRuntime, name: &str) -> Vec<String> {
        let mut a: Vec<String> = rt
            .containers()
            .iter()
            .filter(|c| c.label(labels::CONTAINER_NAME) == Some(name))
            .filter_map(|c| c.label(labels::ATTEMPT).map(str::to_owned))
            .collect();
        a.sort();
        a
    }

    fn workers(rt: &Arc<FakeRuntime>) -> (Workers<FakeRuntime>, Arc<Recorder>) {
        let reporter = Arc::new(Recorder::default());
        let forever = supervise::forever(&opts(0));
        let (_, interrupt) = Interrupt::manual();
        (Workers::new(rt.clone(), forever, reporter.clone(), interrupt), reporter)
    }

    #[test]
    fn an_edit_is_a_new_pod_and_a_change_of_what_it_refers_to_is_not() {
        assert_eq!(change(None, &pod("a", "1")), Change::New);
        assert_eq!(change(Some(&pod("a", "1")), &pod("a", "1")), Change::Same);
        assert_eq!(change(Some(&pod("a", "1")), &pod("a", "2")), Change::Edited);
        let mut moved = pod("a", "1");
        moved.source = Some("/elsewhere".into());
        assert_eq!(change(Some(&pod("a", "1")), &moved), Change::Refreshed);
    }

    #[tokio::test(start_paused = true)]
    async fn a_reread_touches_only_the_pods_it_changes_and_an_edited_one_starts_anew() {
        // "crash" keeps crashing: by two minutes it waits 30 s between restarts.
        let rt = Arc::new(fake().exits_on_start("crash", 1));
        let (mut w, said) = workers(&rt);
        let first = [("crash", "1"), ("steady", "1"), ("gone", "1"), ("bad", "1")];
        w.first(first.iter().map(|(n, e)| (pod(n, e), Some(format!("{n}.yaml")), true)).collect());
        until("every pod up", || attempts(&rt, "steady") == ["0"] && attempts(&rt, "bad") == ["0"]).await;
        tokio::time::sleep(Duration::from_secs(120)).await;
        assert!(attempts(&rt, "crash").iter().any(|a| a != "0"), "crash restarted: {:?}", attempts(&rt, "crash"));
        let calls = rt.calls().len();
        let ids = |pods: &[&str]| -> BTreeSet<String> {
            let of = |c: &crate::runtime::Observed| c.label(labels::POD_NAME).is_some_and(|p| pods.contains(&p));
            rt.containers().iter().filter(|c| of(c)).map(|c| c.id.clone()).collect()
        };
        let untouched = ids(&["steady", "bad", "gone"]);

        let hash = pod("crash", "2").containers[0].spec_hash.clone();
        let edited = || -> Vec<String> {
            let new = |c: &&crate::runtime::Observed| c.label(labels::SPEC_HASH) == Some(hash.as_str());
            rt.containers().iter().filter(new).filter_map(|c| c.label(labels::ATTEMPT).map(str::to_owned)).collect()
        };
        // crash edited, steady the same, gone's manifest removed, bad's turned bad.
        let now =
            vec![(pod("crash", "2"), Some("crash.yaml".into())), (pod("steady", "1"), Some("steady.yaml".into()))];
        let (started, changed) = w.reread(now, &BTreeSet::from(["bad.yaml".to_owned()])).await;
        assert_eq!(changed, 2, "crash edited, gone stopped");
        assert_eq!(started.len(), 1);
        settled(&*rt, &started).await;
        assert!(!edited().is_empty(), "settled once the engine shows the new version");
        assert_eq!(w.counts(), (3, 3), "crash, steady and bad supervised");
        assert!(edited().contains(&"0".to_owned()), "a new pod starts at attempt 0: {:?}", edited());
        let events = said.events.lock().unwrap().clone();
        assert_eq!(crate::driver::tests::count(&events, "replacing it with a new pod"), 1, "{events:?}");
        assert_eq!(crate::driver::tests::count(&events, "no manifest names it any more"), 1, "{events:?}");
        let after: Vec<Call> = rt.calls()[calls..].to_vec();
        let touched = |c: &Call| match c {
            Call::Create { name } => ["steady", "bad", "gone"].iter().any(|p| name.contains(p)),
            Call::Start { id } | Call::Stop { id } => untouched.contains(id),
            other => [Call::kill, Call::remove].iter().any(|k| untouched.iter().any(|id| *other == k(id))),
        };
        assert!(!after.iter().any(touched), "another pod was touched: {after:?}");
        w.stopped().await;
    }
}
