//! The Volumes section of `describe` (kubectl's `describeVolumes`): each volume's type in
//! kubectl's words, and what it is made from.

use serde_json::Value;

use super::text::{at, s, Lines};

pub(super) fn describe(w: &mut Lines, volumes: &Value) {
    if at(volumes).next().is_none() {
        w.field(0, "Volumes", "<none>");
        return;
    }
    w.line(0, "Volumes:");
    for v in at(volumes) {
        w.line(1, &format!("{}:", s(&v["name"])));
        source(w, v);
    }
}

fn flag(v: &Value) -> &'static str {
    if *v == true {
        "true"
    } else {
        "false"
    }
}

fn source(w: &mut Lines, v: &Value) {
    if let Some(h) = v.get("hostPath") {
        w.field(2, "Type", "HostPath (bare host directory volume)");
        w.field(2, "Path", s(&h["path"]));
        w.field(2, "HostPathType", Some(s(&h["type"])).filter(|t| !t.is_empty()).unwrap_or("<none>"));
    } else if let Some(e) = v.get("emptyDir") {
        w.field(2, "Type", "EmptyDir (a temporary directory that shares a pod's lifetime)");
        w.field(2, "Medium", s(&e["medium"]));
        let limit = match &e["sizeLimit"] {
            Value::String(q) if !q.is_empty() && q != "0" => q.clone(),
            Value::Number(n) if n.as_f64().is_some_and(|n| n > 0.0) => n.to_string(),
            _ => "<unset>".to_owned(),
        };
        w.field(2, "SizeLimit", &limit);
    } else if let Some(sec) = v.get("secret") {
        w.field(2, "Type", "Secret (a volume populated by a Secret)");
        w.field(2, "SecretName", s(&sec["secretName"]));
        w.field(2, "Optional", flag(&sec["optional"]));
    } else if let Some(cm) = v.get("configMap") {
        w.field(2, "Type", "ConfigMap (a volume populated by a ConfigMap)");
        w.field(2, "Name", s(&cm["name"]));
        w.field(2, "Optional", flag(&cm["optional"]));
    } else if let Some(c) = v.get("persistentVolumeClaim") {
        w.field(2, "Type", "PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)");
        w.field(2, "ClaimName", s(&c["claimName"]));
        w.field(2, "ReadOnly", flag(&c["readOnly"]));
    } else if let Some(d) = v.get("downwardAPI") {
        w.field(2, "Type", "DownwardAPI (a volume populated by information about the pod)");
        w.line(2, "Items:");
        for item in at(&d["items"]) {
            let from = if item["fieldRef"].is_object() {
                s(&item["fieldRef"]["fieldPath"])
            } else {
                s(&item["resourceFieldRef"]["resource"])
            };
            w.line(3, &format!("{from} -> {}", s(&item["path"])));
        }
    } else if let Some(p) = v.get("projected") {
        w.field(2, "Type", "Projected (a volume that contains injected data from multiple sources)");
        projected(w, p);
    } else if let Some(i) = v.get("image") {
        w.field(2, "Type", "Image (a container image or OCI artifact)");
        w.field(2, "Reference", s(&i["reference"]));
        w.field(2, "PullPolicy", s(&i["pullPolicy"]));
    } else {
        w.line(1, "<unknown>");
    }
}

fn projected(w: &mut Lines, p: &Value) {
    for src in at(&p["sources"]) {
        if src["secret"].is_object() {
            w.field(2, "SecretName", s(&src["secret"]["name"]));
            w.field(2, "SecretOptionalName", flag(&src["secret"]["optional"]));
        } else if src["downwardAPI"].is_object() {
            w.field(2, "DownwardAPI", "true");
        } else if src["configMap"].is_object() {
            w.field(2, "ConfigMapName", s(&src["configMap"]["name"]));
            w.field(2, "ConfigMapOptional", flag(&src["configMap"]["optional"]));
        } else if src["serviceAccountToken"].is_object() {
            let secs = src["serviceAccountToken"]["expirationSeconds"].as_i64().unwrap_or(3600);
            w.field(2, "TokenExpirationSeconds", &secs.to_string());
        }
    }
}
