//! The events the driver records for its pods, as the kubelet records them (the reasons and
//! messages of the kubelet's `events` package), through one interface: [`Recorder`]. An apply
//! records into podrun's files on the host (`pod::files::events`), where `podrun events` and
//! `podrun describe` read them; the driver's tests record into memory and look.

use std::fmt;
use std::sync::Arc;

use crate::pod::events::{container_path, EventType, NewEvent};
use crate::pod::files::PodFiles;
use crate::pod::{DesiredPod, Role};

/// Where the driver's events go.
pub trait Recorder: Send + Sync {
    fn record(&self, pod: &DesiredPod, event: NewEvent);
}

/// The recorder a run's drivers share.
#[derive(Clone)]
pub struct Events(Arc<dyn Recorder>);

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("Events")
    }
}

impl Events {
    #[cfg(test)]
    pub fn new(recorder: Arc<dyn Recorder>) -> Events {
        Events(recorder)
    }

    /// Records nothing: a remote engine's pods have no files here.
    pub fn none() -> Events {
        Events(Arc::new(Nowhere))
    }

    /// Into podrun's files, when there are any.
    pub fn to_files(files: Option<&PodFiles>) -> Events {
        match files {
            Some(files) => Events(Arc::new(ToFiles { files: files.clone(), host: host_name() })),
            None => Events::none(),
        }
    }

    /// An event about the pod itself.
    pub fn pod(&self, pod: &DesiredPod, type_: EventType, reason: &str, message: impl Into<String>) {
        self.0.record(pod, NewEvent::new(type_, reason, message));
    }

    /// An event about the pod's container `name`, with the field path the kubelet gives it.
    pub fn container(&self, pod: &DesiredPod, name: &str, type_: EventType, reason: &str, message: impl Into<String>) {
        let init = pod.find(name).is_some_and(|c| c.role == Role::Init);
        self.0.record(pod, NewEvent::new(type_, reason, message).at(container_path(name, init)));
    }
}

struct Nowhere;

impl Recorder for Nowhere {
    fn record(&self, _: &DesiredPod, _: NewEvent) {}
}

struct ToFiles {
    files: PodFiles,
    host: String,
}

impl Recorder for ToFiles {
    fn record(&self, pod: &DesiredPod, event: NewEvent) {
        let now = humantime::format_rfc3339_seconds(crate::clock::now()).to_string();
        // An event that cannot be kept must not stop the pod: it is said, and the run goes on.
        if let Err(e) = self.files.record_event([&pod.namespace, &pod.name, &pod.uid], event, &now, &self.host) {
            tracing::warn!("events of {}/{}: {}", pod.namespace, pod.name, crate::error_chain::chain(&e));
        }
    }
}

/// The host's name, the events' `source.host` (the kubelet's node name).
fn host_name() -> String {
    let read = crate::private_fs::read_head(std::path::Path::new("/proc/sys/kernel/hostname"), 256);
    let name = read.ok().flatten().map(|b| String::from_utf8_lossy(b.trim_ascii()).into_owned());
    name.filter(|n| !n.is_empty()).unwrap_or_else(|| "localhost".to_owned())
}

/// Events kept in memory, for tests of the driver.
#[cfg(test)]
#[derive(Default)]
pub struct Memory(std::sync::Mutex<Vec<NewEvent>>);

#[cfg(test)]
impl Memory {
    /// Each event recorded so far, as `Reason message` (and `@field.path` when it has one).
    pub fn lines(&self) -> Vec<String> {
        let kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.iter()
            .map(|e| match &e.field_path {
                Some(p) => format!("{} {} @{p}", e.reason, e.message),
                None => format!("{} {}", e.reason, e.message),
            })
            .collect()
    }
}

#[cfg(test)]
impl Recorder for Memory {
    fn record(&self, _: &DesiredPod, event: NewEvent) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(event);
    }
}
