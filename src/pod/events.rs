//! A pod's events as the kubelet records them (`Pulling`, `Started`, `Unhealthy`, `BackOff`...),
//! kept beside the pod's record (`events.json`, see `pod::files::events`) for `podrun events`
//! and `podrun describe`. Repeats of one event (the same type, reason, message and object) are
//! folded into one with a count and a last time, as the API server's event correlator folds
//! them; a pod keeps at most [`MAX_EVENTS`], the oldest dropped first and counted, so a crash
//! loop that runs for weeks keeps a file of bounded size.

use serde::{Deserialize, Serialize};

/// The most events a pod keeps.
pub const MAX_EVENTS: usize = 100;
/// The API server refuses longer event messages (`events.k8s.io/v1`'s note limit); the kubelet's
/// recorder cuts them there.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// The kubelet's two event types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    Normal,
    Warning,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

/// One event as the driver reports it, before it is folded into the pod's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    pub type_: EventType,
    pub reason: String,
    pub message: String,
    /// The part of the pod it is about: `spec.containers{c}`, `spec.initContainers{c}`, or none
    /// for the pod itself.
    pub field_path: Option<String>,
}

impl NewEvent {
    pub fn new(type_: EventType, reason: &str, message: impl Into<String>) -> NewEvent {
        NewEvent { type_, reason: reason.to_owned(), message: message.into(), field_path: None }
    }

    /// The same event about `field_path` of the pod.
    #[must_use]
    pub fn at(mut self, field_path: impl Into<String>) -> NewEvent {
        self.field_path = Some(field_path.into());
        self
    }
}

/// One event of a pod as kept: a core/v1 Event's own fields (its involved object is the pod).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedEvent {
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_path: Option<String>,
    /// RFC 3339, to the second, as the API server keeps them.
    pub first_timestamp: String,
    pub last_timestamp: String,
    pub count: u32,
    /// The host whose podrun recorded it (the event's `source.host`).
    #[serde(default)]
    pub host: String,
}

/// A pod's events, oldest first by their last time.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodEvents {
    /// The pod's namespace and name: `podrun events` finds a pod's events by them, also while
    /// the pod has no container (its image is being pulled).
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub events: Vec<RecordedEvent>,
    /// How many older events were dropped to keep [`MAX_EVENTS`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl PodEvents {
    /// Adds `ev`, seen at `now` (RFC 3339) on `host`: a repeat of a kept event counts it again
    /// and makes it the newest; a new one may drop the oldest.
    pub fn add(&mut self, ev: NewEvent, now: &str, host: &str) {
        let message = cut(ev.message, MAX_MESSAGE_BYTES);
        let same = |e: &RecordedEvent| {
            e.type_ == ev.type_.as_str()
                && e.reason == ev.reason
                && e.message == message
                && e.field_path == ev.field_path
        };
        if let Some(at) = self.events.iter().position(same) {
            let mut kept = self.events.remove(at);
            kept.count = kept.count.saturating_add(1);
            now.clone_into(&mut kept.last_timestamp);
            self.events.push(kept);
            return;
        }
        self.events.push(RecordedEvent {
            type_: ev.type_.as_str().to_owned(),
            reason: cut(ev.reason, MAX_MESSAGE_BYTES),
            message,
            field_path: ev.field_path,
            first_timestamp: now.to_owned(),
            last_timestamp: now.to_owned(),
            count: 1,
            host: host.to_owned(),
        });
        let over = self.events.len().saturating_sub(MAX_EVENTS);
        if over > 0 {
            self.events.drain(..over);
            self.dropped = self.dropped.saturating_add(over as u64);
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// `None` for a file that is not podrun's events (damaged, or another version's).
    pub fn from_json(text: &str) -> Option<PodEvents> {
        let mut read: PodEvents = serde_json::from_str(text).ok()?;
        let over = read.events.len().saturating_sub(MAX_EVENTS);
        read.events.drain(..over);
        Some(read)
    }
}

/// `s`, at most `limit` bytes of it, cut at a character's boundary.
fn cut(mut s: String, limit: usize) -> String {
    if s.len() > limit {
        let mut end = limit;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// The field path the kubelet gives an event about the container `name`.
pub fn container_path(name: &str, init: bool) -> String {
    if init {
        format!("spec.initContainers{{{name}}}")
    } else {
        format!("spec.containers{{{name}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started(c: &str) -> NewEvent {
        NewEvent::new(EventType::Normal, "Started", format!("Started container {c}")).at(container_path(c, false))
    }

    #[test]
    fn repeats_are_folded_with_a_count_and_the_last_time() {
        let mut evs = PodEvents::default();
        evs.add(started("a"), "2026-01-01T00:00:00Z", "h");
        evs.add(NewEvent::new(EventType::Warning, "BackOff", "x"), "2026-01-01T00:00:01Z", "h");
        evs.add(started("a"), "2026-01-01T00:00:02Z", "h");
        evs.add(started("b"), "2026-01-01T00:00:03Z", "h");
        assert_eq!(evs.events.len(), 3);
        let a = &evs.events[1];
        assert_eq!(
            (a.count, a.first_timestamp.as_str(), a.last_timestamp.as_str()),
            (2, "2026-01-01T00:00:00Z", "2026-01-01T00:00:02Z")
        );
        assert_eq!(a.field_path.as_deref(), Some("spec.containers{a}"));
        assert_eq!(evs.events[0].reason, "BackOff", "the repeat became the newer one");
        // The same words about another object, or of another type, are another event.
        evs.add(NewEvent::new(EventType::Normal, "BackOff", "x"), "2026-01-01T00:00:04Z", "h");
        assert_eq!(evs.events.len(), 4);
    }

    #[test]
    fn a_pod_keeps_its_newest_events_and_counts_the_dropped() {
        let mut evs = PodEvents::default();
        for i in 0..MAX_EVENTS + 7 {
            evs.add(NewEvent::new(EventType::Warning, "Failed", format!("m{i}")), "2026-01-01T00:00:00Z", "h");
        }
        assert_eq!(evs.events.len(), MAX_EVENTS);
        assert_eq!(evs.dropped, 7);
        assert_eq!(evs.events[0].message, "m7");
        let long = "é".repeat(MAX_MESSAGE_BYTES);
        evs.add(NewEvent::new(EventType::Warning, "Failed", long), "2026-01-01T00:00:00Z", "h");
        let kept = &evs.events.last().unwrap().message;
        assert!(kept.len() <= MAX_MESSAGE_BYTES && kept.len() > MAX_MESSAGE_BYTES - 2);
        let back = PodEvents::from_json(&evs.to_json()).unwrap();
        assert_eq!(back, evs);
        assert_eq!(PodEvents::from_json("{\"events\": 3}"), None);
    }

    #[test]
    fn init_containers_have_their_own_field_path() {
        assert_eq!(container_path("i", true), "spec.initContainers{i}");
    }
}
