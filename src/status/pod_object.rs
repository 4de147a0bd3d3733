//! The Pod object of a pod podrun runs, as the API server would return it: the manifest's
//! metadata and defaulted spec as the pod's record keeps them (`pod::record`), and the status
//! as the engine and the record tell it. `get -o json|yaml`, `describe` and JSONPath read it.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::engine_pods::ListedPod;
use crate::pod::observed::Instances;

/// The Pod object of `p`. A pod whose record is older than the metadata and spec it keeps (or
/// has no record) shows what the engine's labels tell: its name, namespace and uid, and each
/// container's name and image.
pub fn pod_object(p: &ListedPod) -> Value {
    let recorded = p.record.as_ref();
    let mut metadata = match recorded.and_then(|r| r.metadata.as_ref()) {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    // The engine's labels name the pod: they win over what any record says.
    metadata.insert("name".to_owned(), p.name.clone().into());
    metadata.insert("namespace".to_owned(), p.namespace.clone().into());
    metadata.insert("uid".to_owned(), p.uid.clone().into());
    // podrun is the API server too: the generation its status observed is the pod's.
    if let Some(g) = p.status.observed_generation {
        metadata.insert("generation".to_owned(), g.into());
    }
    let spec = match recorded.and_then(|r| r.spec.as_ref()) {
        Some(spec @ Value::Object(_)) => spec.clone(),
        _ => engine_spec(p),
    };
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": spec,
        "status": serde_json::to_value(&p.status).unwrap_or(Value::Null),
    })
}

/// The pod's labels: those its infra container carries (`io.podrun.pod-label.KEY`, what
/// `-l` selects by everywhere), else, with its infra container gone, those its record keeps.
pub fn labels(p: &ListedPod) -> BTreeMap<String, String> {
    if let Some(infra) = &p.infra.current {
        return infra
            .labels
            .iter()
            .filter_map(|(k, v)| {
                Some((k.strip_prefix(crate::runtime::labels::POD_LABEL_PREFIX)?.to_owned(), v.clone()))
            })
            .collect();
    }
    let recorded = p.record.as_ref().and_then(|r| r.metadata.as_ref()?.get("labels")?.as_object().cloned());
    recorded.into_iter().flatten().filter_map(|(k, v)| Some((k, v.as_str()?.to_owned()))).collect()
}

/// The pods as a `List`, the same shape as `apply -o json` (`report::summary::list`).
pub fn list(pods: &[ListedPod]) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "List",
        "items": pods.iter().map(pod_object).collect::<Vec<_>>(),
        "metadata": { "resourceVersion": "" },
    })
}

/// The spec as far as the engine tells it: each container's name and image.
fn engine_spec(p: &ListedPod) -> Value {
    let spec = |cs: &[(String, Instances)]| -> Vec<Value> {
        cs.iter()
            .map(|(name, i)| json!({ "name": name, "image": i.current.as_ref().map(|c| c.image.as_str()) }))
            .collect()
    };
    let mut spec_obj = json!({ "containers": spec(&p.containers) });
    if !p.init.is_empty() {
        spec_obj["initContainers"] = Value::Array(spec(&p.init));
    }
    spec_obj
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod::record::PodRecord;
    use crate::status::engine_pods::group;
    use crate::status::fixtures::engine_container;
    use crate::status::Notes;

    fn web() -> ListedPod {
        let t = "2024-01-01T00:00:00Z";
        group(vec![engine_container("ns", "web", "POD", "infra", t), engine_container("ns", "web", "app", "app", t)])
            .remove(0)
    }

    #[test]
    fn the_recorded_metadata_and_spec_are_the_objects_and_the_engine_names_it() {
        let mut r = PodRecord::from_json(r#"{"restartPolicy":"Always","generation":3}"#).expect("a record");
        r.metadata = Some(json!({
            "name": "other", "labels": { "app": "web" }, "annotations": { "a": "b" },
            "creationTimestamp": "2024-01-01T00:00:00Z",
        }));
        r.spec = Some(json!({ "containers": [{ "name": "app", "image": "busybox:1.28", "command": ["sleep"] }] }));
        let o = pod_object(&web().with_record(Some(&r), &Notes::new()));
        assert_eq!(o["metadata"]["name"], "web", "the engine's labels name it");
        assert_eq!(o["metadata"]["namespace"], "ns");
        assert_eq!(o["metadata"]["uid"], "uid-1");
        assert_eq!(o["metadata"]["labels"]["app"], "web");
        assert_eq!(o["metadata"]["annotations"]["a"], "b");
        assert_eq!(o["metadata"]["creationTimestamp"], "2024-01-01T00:00:00Z");
        assert_eq!(o["metadata"]["generation"], 3);
        assert_eq!(o["spec"]["containers"][0]["command"][0], "sleep");
        assert_eq!(o["status"]["containerStatuses"][0]["name"], "app");
    }

    #[test]
    fn without_a_recorded_spec_the_engine_tells_the_containers() {
        let old = PodRecord::from_json(r#"{"restartPolicy":"Always"}"#).expect("an old record");
        for p in [web(), web().with_record(Some(&old), &Notes::new())] {
            let o = pod_object(&p);
            assert_eq!(o["kind"], "Pod");
            assert_eq!(o["metadata"], json!({ "name": "web", "namespace": "ns", "uid": "uid-1" }));
            assert_eq!(o["spec"], json!({ "containers": [{ "name": "app", "image": "busybox:1.28" }] }));
        }
        let l = list(&[web()]);
        assert_eq!((l["kind"].as_str(), l["items"][0]["kind"].as_str()), (Some("List"), Some("Pod")));
    }
}
