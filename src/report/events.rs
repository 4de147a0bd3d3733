//! Pods' events as kubectl shows them: the `kubectl events` table (LAST SEEN, TYPE, REASON,
//! OBJECT, MESSAGE), the Events table of `kubectl describe`, and core/v1 `Event` objects for
//! `-o json|yaml`. Everything from the events is escaped where it is printed.

use std::time::SystemTime;

use serde_json::{json, Value};

use crate::clock::parse_time;
use crate::escape::escape;
use crate::pod::events::RecordedEvent;
use crate::status::engine_pods::human_age;

/// The component the kubelet's events name as their source.
const COMPONENT: &str = "kubelet";

/// One event of a pod, with the pod it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodEvent {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub event: RecordedEvent,
}

/// `events` oldest first by their last time, as kubectl sorts them.
pub fn sort(events: &mut [PodEvent]) {
    events.sort_by_key(|e| parse_time(&e.event.last_timestamp).unwrap_or(SystemTime::UNIX_EPOCH));
}

fn since(t: &str, now: SystemTime) -> String {
    match parse_time(t) {
        Some(t) => human_age(now.duration_since(t).unwrap_or_default()),
        None => "<unknown>".to_owned(),
    }
}

/// kubectl's interval: `5s`, or `5s (x3 over 2m)` for a folded event.
pub fn interval(e: &RecordedEvent, now: SystemTime) -> String {
    let first = since(&e.first_timestamp, now);
    if e.count > 1 {
        format!("{} (x{} over {first})", since(&e.last_timestamp, now), e.count)
    } else {
        first
    }
}

/// The `kubectl events` table (its tabwriter: at least 10 wide, 3 spaces apart), sorted.
pub fn table(events: &[PodEvent], namespaces: bool, now: SystemTime) -> String {
    let mut text = String::new();
    if namespaces {
        text.push_str("NAMESPACE\t");
    }
    text.push_str("LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n");
    text.push_str(&cells(events, namespaces, now));
    super::tabwriter::align(&text, 10, 3)
}

/// The rows of [`table`] alone, as `kubectl events -w` prints what came since.
pub fn rows(events: &[PodEvent], namespaces: bool, now: SystemTime) -> String {
    super::tabwriter::align(&cells(events, namespaces, now), 10, 3)
}

fn cells(events: &[PodEvent], namespaces: bool, now: SystemTime) -> String {
    let mut text = String::new();
    for e in events {
        if namespaces {
            text.push_str(&escape(&e.namespace));
            text.push('\t');
        }
        let ev = &e.event;
        text.push_str(&format!(
            "{}\t{}\t{}\tPod/{}\t{}\n",
            interval(ev, now),
            escape(&ev.type_),
            escape(&ev.reason),
            escape(&e.name),
            escape(ev.message.trim())
        ));
    }
    text
}

/// The lines `kubectl describe` ends with (tab-separated, for describe's own tabwriter), for
/// one pod's `events` sorted.
pub fn describe_lines(events: &[RecordedEvent], now: SystemTime) -> String {
    if events.is_empty() {
        return "Events:\t<none>\n".to_owned();
    }
    let mut text = "Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n".to_owned();
    for e in events {
        text.push_str(&format!(
            "  {}\t{}\t{}\t{COMPONENT}\t{}\n",
            escape(&e.type_),
            escape(&e.reason),
            interval(e, now),
            escape(e.message.trim())
        ));
    }
    text
}

/// The core/v1 Event `e` is, named as the kubelet's recorder names its events (the object's name
/// and the first time in hex nanoseconds; `n` sets apart events first seen in the same second).
pub fn object(e: &PodEvent, n: usize) -> Value {
    let ev = &e.event;
    let nanos = parse_time(&ev.first_timestamp)
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
        .saturating_add(n as u128);
    let mut involved =
        json!({ "apiVersion": "v1", "kind": "Pod", "name": e.name, "namespace": e.namespace, "uid": e.uid });
    if let Some(path) = &ev.field_path {
        involved["fieldPath"] = path.as_str().into();
    }
    json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": format!("{}.{nanos:x}", e.name),
            "namespace": e.namespace,
            "creationTimestamp": ev.first_timestamp,
        },
        "involvedObject": involved,
        "type": ev.type_,
        "reason": ev.reason,
        "message": ev.message,
        "source": { "component": COMPONENT, "host": ev.host },
        "reportingComponent": COMPONENT,
        "reportingInstance": ev.host,
        "firstTimestamp": ev.first_timestamp,
        "lastTimestamp": ev.last_timestamp,
        "count": ev.count,
        "eventTime": null,
    })
}

/// The EventList of `events`, as `kubectl events -o json` gives it.
pub fn list(events: &[PodEvent]) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "EventList",
        "items": events.iter().enumerate().map(|(n, e)| object(e, n)).collect::<Vec<_>>(),
        "metadata": { "resourceVersion": "" },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(reason: &str, message: &str, first: &str, last: &str, count: u32) -> RecordedEvent {
        RecordedEvent {
            type_: "Normal".into(),
            reason: reason.into(),
            message: message.into(),
            field_path: Some("spec.containers{c}".into()),
            first_timestamp: first.into(),
            last_timestamp: last.into(),
            count,
            host: "node1".into(),
        }
    }

    fn on(name: &str, event: RecordedEvent) -> PodEvent {
        PodEvent { namespace: "default".into(), name: name.into(), uid: "u".into(), event }
    }

    #[test]
    fn the_table_is_kubectl_events() {
        let now = parse_time("2026-01-01T00:10:00Z").unwrap();
        let mut events = vec![
            on(
                "web",
                ev(
                    "BackOff",
                    "Back-off restarting failed container c",
                    "2026-01-01T00:01:00Z",
                    "2026-01-01T00:09:50Z",
                    7,
                ),
            ),
            on("web", ev("Started", "Started container c\u{1b}[2J", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", 1)),
        ];
        sort(&mut events);
        let want = "\
LAST SEEN          TYPE      REASON    OBJECT    MESSAGE
10m                Normal    Started   Pod/web   Started container c\\x1b[2J
10s (x7 over 9m)   Normal    BackOff   Pod/web   Back-off restarting failed container c
";
        assert_eq!(table(&events, false, now), want);
        assert!(table(&events, true, now).starts_with("NAMESPACE   LAST SEEN"));
    }

    #[test]
    fn describe_ends_with_the_events_or_none() {
        let now = parse_time("2026-01-01T00:00:05Z").unwrap();
        assert_eq!(describe_lines(&[], now), "Events:\t<none>\n");
        let lines = describe_lines(&[ev("Pulled", "x", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", 1)], now);
        assert!(lines.ends_with("  Normal\tPulled\t5s\tkubelet\tx\n"), "{lines}");
    }

    #[test]
    fn objects_are_core_v1_events() {
        let e = on("web", ev("Pulled", "x", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", 2));
        let o = object(&e, 0);
        assert_eq!(o["involvedObject"]["fieldPath"], "spec.containers{c}");
        assert_eq!(o["source"]["component"], "kubelet");
        assert_eq!(o["count"], 2);
        assert_eq!(o["metadata"]["name"], "web.18867251edfa0000");
        assert_eq!(list(&[e])["kind"], "EventList");
    }
}
