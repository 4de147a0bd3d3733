//! The Containers and Init Containers sections of `describe` (kubectl's `describeContainers`):
//! each container's ids, image, ports, command, state, resources, probes, environment (names and
//! where a value comes from: a Secret's key is named, its value never) and mounts.

use serde_json::Value;

use super::text::{at, rfc1123z, s, Lines};

/// The section `title` for the containers at `spec[list]`, with their statuses at
/// `status[statuses]`.
pub(super) fn describe(w: &mut Lines, title: &str, pod: &Value, list: &str, statuses: &str) {
    w.line(0, &format!("{title}:"));
    for c in at(&pod["spec"][list]) {
        let name = s(&c["name"]);
        let status = at(&pod["status"][statuses]).find(|st| s(&st["name"]) == name);
        w.line(1, &format!("{name}:"));
        basics(w, c, status);
        command(w, c);
        if let Some(st) = status {
            state(w, "State", &st["state"]);
            if st["lastState"]["terminated"].is_object() {
                state(w, "Last State", &st["lastState"]);
            }
            w.field(2, "Ready", if st["ready"] == true { "True" } else { "False" });
            w.field(2, "Restart Count", &st["restartCount"].as_i64().unwrap_or(0).to_string());
        }
        resources(w, &c["resources"]);
        for (key, title) in
            [("livenessProbe", "Liveness"), ("readinessProbe", "Readiness"), ("startupProbe", "Startup")]
        {
            if c[key].is_object() {
                w.field(2, title, &probe(&c[key]));
            }
        }
        if at(&c["envFrom"]).next().is_some() {
            env_from(w, c);
        }
        env(w, pod, c);
        mounts(w, c);
    }
}

fn basics(w: &mut Lines, c: &Value, status: Option<&Value>) {
    if let Some(st) = status {
        w.field(2, "Container ID", s(&st["containerID"]));
    }
    w.field(2, "Image", s(&c["image"]));
    if let Some(st) = status {
        w.field(2, "Image ID", s(&st["imageID"]));
    }
    let protocol = |p: &Value| s(&p["protocol"]).to_owned();
    let ports: Vec<String> = at(&c["ports"])
        .map(|p| {
            let proto = if protocol(p).is_empty() { "TCP".to_owned() } else { protocol(p) };
            let n = p["containerPort"].as_i64().unwrap_or(0);
            match s(&p["name"]) {
                "" => format!("{n}/{proto}"),
                name => format!("{n}/{proto} ({name})"),
            }
        })
        .collect();
    let host: Vec<String> = at(&c["ports"])
        .map(|p| {
            let proto = if protocol(p).is_empty() { "TCP".to_owned() } else { protocol(p) };
            format!("{}/{proto}", p["hostPort"].as_i64().unwrap_or(0))
        })
        .collect();
    for (one, many, items) in [("Port", "Ports", ports), ("Host Port", "Host Ports", host)] {
        match items.len() {
            0 => w.field(2, one, "<none>"),
            1 => w.field(2, one, &items[0]),
            _ => w.field(2, many, &items.join(", ")),
        }
    }
    if !s(&c["restartPolicy"]).is_empty() {
        w.field(2, "Restart Policy", s(&c["restartPolicy"]));
    }
}

fn command(w: &mut Lines, c: &Value) {
    for (key, title) in [("command", "Command:"), ("args", "Args:")] {
        if at(&c[key]).next().is_none() {
            continue;
        }
        w.line(2, title);
        for part in at(&c[key]) {
            for line in s(part).split('\n') {
                w.line(3, line);
            }
        }
    }
}

fn state(w: &mut Lines, title: &str, st: &Value) {
    let (running, t) = (&st["running"], &st["terminated"]);
    if running.is_object() {
        w.field(2, title, "Running");
        w.field(3, "Started", &rfc1123z(s(&running["startedAt"])));
    } else if t.is_object() {
        w.field(2, title, "Terminated");
        for (key, name) in [("reason", "Reason"), ("message", "Message")] {
            if !s(&t[key]).is_empty() {
                w.field(3, name, s(&t[key]));
            }
        }
        w.field(3, "Exit Code", &t["exitCode"].as_i64().unwrap_or(0).to_string());
        if let Some(sig) = t["signal"].as_i64().filter(|s| *s > 0) {
            w.field(3, "Signal", &sig.to_string());
        }
        w.field(3, "Started", &rfc1123z(s(&t["startedAt"])));
        w.field(3, "Finished", &rfc1123z(s(&t["finishedAt"])));
    } else {
        w.field(2, title, "Waiting");
        if !s(&st["waiting"]["reason"]).is_empty() {
            w.field(3, "Reason", s(&st["waiting"]["reason"]));
        }
    }
}

fn resources(w: &mut Lines, r: &Value) {
    for (key, title) in [("limits", "Limits:"), ("requests", "Requests:")] {
        let Some(map) = r[key].as_object().filter(|m| !m.is_empty()) else { continue };
        w.line(2, title);
        let mut names: Vec<&String> = map.keys().collect();
        names.sort();
        for name in names {
            let q = match map.get(name).unwrap_or(&Value::Null) {
                Value::String(q) => q.clone(),
                other => other.to_string(),
            };
            w.field(3, name, &q);
        }
    }
}

/// kubectl's `DescribeProbe`, with the API's defaults for what the object leaves out.
pub(super) fn probe(p: &Value) -> String {
    let n = |key: &str, default: i64| p[key].as_i64().unwrap_or(default);
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        n("initialDelaySeconds", 0),
        n("timeoutSeconds", 1),
        n("periodSeconds", 10),
        n("successThreshold", 1),
        n("failureThreshold", 3)
    );
    let port = |v: &Value| match v {
        Value::Number(n) => n.to_string(),
        other => s(other).to_owned(),
    };
    if let Some(cmd) = p["exec"]["command"].as_array() {
        let words: Vec<&str> = cmd.iter().map(s).collect();
        return format!("exec [{}] {attrs}", words.join(" "));
    }
    if p["httpGet"].is_object() {
        let g = &p["httpGet"];
        let scheme = s(&g["scheme"]).to_lowercase();
        let scheme = if scheme.is_empty() { "http".to_owned() } else { scheme };
        let host = s(&g["host"]);
        let host = if host.contains(':') { format!("[{host}]") } else { host.to_owned() };
        return format!("http-get {scheme}://{host}:{}{} {attrs}", port(&g["port"]), s(&g["path"]));
    }
    if p["tcpSocket"].is_object() {
        return format!("tcp-socket {}:{} {attrs}", s(&p["tcpSocket"]["host"]), port(&p["tcpSocket"]["port"]));
    }
    if p["grpc"].is_object() {
        return format!("grpc <pod>:{} {} {attrs}", port(&p["grpc"]["port"]), s(&p["grpc"]["service"]));
    }
    format!("unknown {attrs}")
}

fn env_from(w: &mut Lines, c: &Value) {
    w.line(2, "Environment Variables from:");
    for e in at(&c["envFrom"]) {
        let (from, r) =
            if e["configMapRef"].is_object() { ("ConfigMap", &e["configMapRef"]) } else { ("Secret", &e["secretRef"]) };
        let optional = r["optional"] == true;
        let from = match s(&e["prefix"]) {
            "" => from.to_owned(),
            prefix => format!("{from} with prefix '{prefix}'"),
        };
        w.cells(3, &[s(&r["name"]), &from, &format!("Optional: {optional}")]);
    }
}

fn env(w: &mut Lines, pod: &Value, c: &Value) {
    if at(&c["env"]).next().is_none() {
        w.field(2, "Environment", "<none>");
        return;
    }
    w.line(2, "Environment:");
    for e in at(&c["env"]) {
        let name = s(&e["name"]);
        let from = &e["valueFrom"];
        if !from.is_object() {
            let mut lines = s(&e["value"]).split('\n');
            w.field(3, name, lines.next().unwrap_or_default());
            for more in lines {
                w.cells(3, &["", more]);
            }
        } else if let Some(f) = from["fieldRef"].as_object() {
            let path = f.get("fieldPath").map(s).unwrap_or_default();
            let version = f.get("apiVersion").map(s).filter(|v| !v.is_empty()).unwrap_or("v1");
            w.field(3, name, &format!("{} ({version}:{path})", field_value(pod, path)));
        } else if from["resourceFieldRef"].is_object() {
            let resource = s(&from["resourceFieldRef"]["resource"]);
            w.field(3, name, &format!("{} ({resource})", resource_value(c, resource)));
        } else if from["secretKeyRef"].is_object() {
            let r = &from["secretKeyRef"];
            let said = format!("<set to the key '{}' in secret '{}'>", s(&r["key"]), s(&r["name"]));
            w.cells(3, &[&format!("{name}:"), &said, &format!("Optional: {}", r["optional"] == true)]);
        } else if from["configMapKeyRef"].is_object() {
            let r = &from["configMapKeyRef"];
            let said = format!("<set to the key '{}' of config map '{}'>", s(&r["key"]), s(&r["name"]));
            w.cells(3, &[&format!("{name}:"), &said, &format!("Optional: {}", r["optional"] == true)]);
        }
    }
}

/// A container's resource as kubectl shows a resourceFieldRef: its own value when it sets one,
/// else what the node gives (limits) or none (requests).
fn resource_value(c: &Value, resource: &str) -> String {
    let (kind, name) = resource.split_once('.').unwrap_or(("", resource));
    match &c["resources"][kind][name] {
        Value::String(q) => q.clone(),
        Value::Number(n) => n.to_string(),
        _ if kind == "limits" && matches!(name, "cpu" | "memory") => "node allocatable".to_owned(),
        _ => "0".to_owned(),
    }
}

/// The pod's value at a downward API field path, as kubectl resolves it for `describe`.
fn field_value<'a>(pod: &'a Value, path: &str) -> &'a str {
    if let Some(key) = path.strip_prefix("metadata.labels['").and_then(|k| k.strip_suffix("']")) {
        return s(&pod["metadata"]["labels"][key]);
    }
    if let Some(key) = path.strip_prefix("metadata.annotations['").and_then(|k| k.strip_suffix("']")) {
        return s(&pod["metadata"]["annotations"][key]);
    }
    let mut v = pod;
    for part in path.split('.') {
        v = &v[part];
    }
    s(v)
}

fn mounts(w: &mut Lines, c: &Value) {
    let mut mounts: Vec<&Value> = at(&c["volumeMounts"]).collect();
    if mounts.is_empty() {
        w.field(2, "Mounts", "<none>");
        return;
    }
    mounts.sort_by_key(|m| s(&m["mountPath"]));
    w.line(2, "Mounts:");
    for m in mounts {
        let mut flags = vec![if m["readOnly"] == true { "ro".to_owned() } else { "rw".to_owned() }];
        if !s(&m["subPath"]).is_empty() {
            flags.push(format!("path={:?}", s(&m["subPath"])));
        }
        w.line(3, &format!("{} from {} ({})", s(&m["mountPath"]), s(&m["name"]), flags.join(",")));
    }
}
