//! The driver against the recording fake runtime: what it calls, in what order, and how each
//! run ends. Time is paused, so backoff waits cost nothing.

mod abort;
mod auto_update;
mod deadlines;
mod engine_away;
mod events;
mod hooks;
mod removal;
mod runs;
mod supervise;
mod volumes;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::Hook;
use crate::runtime::fake::{Call, FakeRuntime};
use crate::runtime::RuntimeError;

pub(super) const INFRA: &str = "localhost/podrun-pause:test";

#[derive(Default)]
pub(super) struct Recorder {
    pub(super) events: Mutex<Vec<String>>,
}

impl Reporter for Recorder {
    fn warning(&self, msg: &str) {
        self.events.lock().unwrap().push(format!("warning {msg}"));
    }
    fn event(&self, _pod: &PodKey, msg: &str) {
        self.events.lock().unwrap().push(msg.to_owned());
    }
    fn note(&self, msg: &str) {
        self.events.lock().unwrap().push(format!("note {msg}"));
    }
    fn pull(&self, _pod: &PodKey, image: &str, event: crate::report::PullEvent) {
        if event == crate::report::PullEvent::Started {
            self.events.lock().unwrap().push(format!("pull {image}"));
        }
    }
    fn status(&self, _pod: &PodKey, _status: &PodStatus) {}
    fn done(&self, _ended: &crate::report::Ended<'_>) {}
    fn finish(&self) {}
    fn say(&self, line: &str) {
        self.events.lock().unwrap().push(format!("say {line}"));
    }
}

fn desired(policy: &str, image_a: &str, pull: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  containers:\n  - {{name: a, image: '{image_a}', imagePullPolicy: {pull}}}\n  - {{name: b, image: 'img:1'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

pub(super) fn opts(retries: u32) -> DriveOptions {
    DriveOptions {
        wait_for: None,
        retries,
        retry_delay: Duration::from_secs(1),
        backoff: 2.0,
        deadline: Instant::now() + Duration::from_secs(300),
        crash: crate::plan::CrashBackoff { base: Duration::from_secs(1), max: Duration::from_secs(30) },
        files: None,
        min_uptime: Duration::from_millis(200),
        pulls: Arc::new(super::pulls::Pulls::new()),
        updates: Arc::default(),
        abort_on_exit: false,
        events: super::events::Events::none(),
    }
}

async fn run(rt: &Arc<FakeRuntime>, d: DesiredPod, o: DriveOptions) -> PodResult {
    run_pod(rt.clone(), d, o, Arc::new(Recorder::default()), Interrupt::never()).await
}

pub(super) fn fake() -> FakeRuntime {
    FakeRuntime::new().with_image(INFRA).with_image("img:1")
}

/// The calls that act on containers and images (the engine-side volume calls every pod makes on
/// the fake, which is not local, are left to the volume tests).
fn verbs(rt: &FakeRuntime) -> Vec<Call> {
    let quiet = |c: &Call| {
        matches!(
            c,
            Call::List
                | Call::ImagePresent { .. }
                | Call::EnsureVolume { .. }
                | Call::PutArchive { .. }
                | Call::GetArchive { .. }
                | Call::VolumeMountpoint { .. }
        )
    };
    rt.calls().into_iter().filter(|c| !quiet(c)).collect()
}

/// A pod with an init container (running 4 s) and an app container.
fn with_init(policy: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  initContainers:\n  - {{name: init, image: 'img:1'}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

pub(super) fn count(events: &[String], needle: &str) -> usize {
    events.iter().filter(|e| e.contains(needle)).count()
}

/// Waits (time paused: at no cost) until `done` holds, at most a simulated minute.
pub(super) async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never: {what}");
}
