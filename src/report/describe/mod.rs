//! `podrun describe`: a pod as `kubectl describe pod` prints it (kubectl's `describePod`), from
//! the Pod object (`get POD -o json`'s, as JSON) and the pod's events. A pure function of the
//! two, written against the Kubernetes Pod's JSON shape: a field the object lacks is printed as
//! kubectl prints an unset one. Every value from the object or the events is escaped; a
//! Secret's value is never in the object, and the environment names only where a value comes
//! from.

mod containers;
mod text;
mod volumes;

use std::time::SystemTime;

use serde_json::Value;

use crate::pod::events::RecordedEvent;
use text::{at, rfc1123z, s, Lines};

/// The pod `pod` (a Pod object) with its `events`, as `kubectl describe pod` prints it.
pub fn describe_pod(pod: &Value, events: &[RecordedEvent], now: SystemTime) -> String {
    let mut w = Lines::default();
    let (meta, spec, status) = (&pod["metadata"], &pod["spec"], &pod["status"]);
    w.field(0, "Name", s(&meta["name"]));
    w.field(0, "Namespace", s(&meta["namespace"]));
    if let Some(p) = spec["priority"].as_i64() {
        w.field(0, "Priority", &p.to_string());
    }
    for (key, title) in [("priorityClassName", "Priority Class Name"), ("runtimeClassName", "Runtime Class Name")] {
        if !s(&spec[key]).is_empty() {
            w.field(0, title, s(&spec[key]));
        }
    }
    if !s(&spec["serviceAccountName"]).is_empty() {
        w.field(0, "Service Account", s(&spec["serviceAccountName"]));
    }
    match s(&spec["nodeName"]) {
        "" => w.field(0, "Node", "<none>"),
        node => w.field(0, "Node", &format!("{node}/{}", s(&status["hostIP"]))),
    }
    if let Some(t) = status["startTime"].as_str() {
        w.field(0, "Start Time", &rfc1123z(t));
    }
    w.multiline(0, "Labels", &pairs(&meta["labels"], "="));
    w.multiline(0, "Annotations", &annotations(&meta["annotations"]));
    pod_status(&mut w, meta, status, now);
    w.field(0, "IP", s(&status["podIP"]));
    pod_ips(&mut w, status);
    if let Some(owner) = meta["ownerReferences"].as_array().and_then(|o| o.iter().find(|r| r["controller"] == true)) {
        w.field(0, "Controlled By", &format!("{}/{}", s(&owner["kind"]), s(&owner["name"])));
    }
    if at(&spec["initContainers"]).next().is_some() {
        containers::describe(&mut w, "Init Containers", pod, "initContainers", "initContainerStatuses");
    }
    containers::describe(&mut w, "Containers", pod, "containers", "containerStatuses");
    conditions(&mut w, status);
    volumes::describe(&mut w, &spec["volumes"]);
    w.field(0, "QoS Class", s(&status["qosClass"]));
    w.multiline(0, "Node-Selectors", &pairs(&spec["nodeSelector"], "="));
    w.multiline(0, "Tolerations", &at(&spec["tolerations"]).map(toleration).collect::<Vec<_>>());
    if events.is_empty() {
        w.raw("Events:\t<none>\n");
        return super::tabwriter::align(&w.text, 0, 2);
    }
    let mut events = events.to_vec();
    events.sort_by_key(|e| crate::clock::parse_time(&e.last_timestamp).unwrap_or(SystemTime::UNIX_EPOCH));
    // kubectl flushes its tabwriter before the events: their table aligns on its own.
    let mut out = super::tabwriter::align(&w.text, 0, 2);
    out.push_str(&super::tabwriter::align(&super::events::describe_lines(&events, now), 0, 2));
    out
}

fn pod_status(w: &mut Lines, meta: &Value, status: &Value, now: SystemTime) {
    let phase = s(&status["phase"]);
    match meta["deletionTimestamp"].as_str().filter(|_| !matches!(phase, "Failed" | "Succeeded")) {
        Some(t) => {
            let lasts = crate::clock::parse_time(t)
                .map(|t| crate::status::engine_pods::human_age(now.duration_since(t).unwrap_or_default()))
                .unwrap_or_default();
            w.field(0, "Status", &format!("Terminating (lasts {lasts})"));
            if let Some(g) = meta["deletionGracePeriodSeconds"].as_i64() {
                w.field(0, "Termination Grace Period", &format!("{g}s"));
            }
        }
        None => w.field(0, "Status", phase),
    }
    for (key, title) in [("reason", "Reason"), ("message", "Message")] {
        if !s(&status[key]).is_empty() {
            w.field(0, title, s(&status[key]));
        }
    }
}

fn pod_ips(w: &mut Lines, status: &Value) {
    let ips: Vec<&str> = at(&status["podIPs"]).map(|ip| s(&ip["ip"])).collect();
    if ips.is_empty() {
        w.field(0, "IPs", "<none>");
        return;
    }
    w.line(0, "IPs:");
    for ip in ips {
        w.field(1, "IP", ip);
    }
}

fn conditions(w: &mut Lines, status: &Value) {
    if at(&status["conditions"]).next().is_none() {
        return;
    }
    w.line(0, "Conditions:");
    w.raw("  Type\tStatus\n");
    for c in at(&status["conditions"]) {
        w.cells(1, &[&format!("{} ", s(&c["type"])), &format!("{} ", s(&c["status"]))]);
    }
}

/// `key=value` (or `key: value`) of an object's string map, sorted by key.
fn pairs(map: &Value, sep: &str) -> Vec<String> {
    let mut kept: Vec<(&String, &str)> =
        map.as_object().map(|m| m.iter().map(|(k, v)| (k, s(v))).collect()).unwrap_or_default();
    kept.sort();
    kept.into_iter().map(|(k, v)| format!("{k}{sep}{v}")).collect()
}

/// The annotations as kubectl lists them: `key: value`, without the last applied configuration.
fn annotations(map: &Value) -> Vec<String> {
    let mut kept = pairs(map, ": ");
    kept.retain(|a| !a.starts_with("kubectl.kubernetes.io/last-applied-configuration: "));
    kept
}

fn toleration(t: &Value) -> String {
    let mut out = s(&t["key"]).to_owned();
    if !s(&t["value"]).is_empty() {
        out.push_str(&format!("={}", s(&t["value"])));
    }
    if !s(&t["effect"]).is_empty() {
        out.push_str(&format!(":{}", s(&t["effect"])));
    }
    if !s(&t["operator"]).is_empty() {
        out.push_str(&format!(" op={}", s(&t["operator"])));
    }
    if let Some(secs) = t["tolerationSeconds"].as_i64() {
        out.push_str(&format!(" for {secs}s"));
    }
    out
}

#[cfg(test)]
mod tests;
