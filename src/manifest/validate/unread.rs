//! The checks of what a document holds beyond podrun's types: the fields podrun ignores
//! (cluster-only, not yet implemented), a workload's own fields and a claim's spec. They run on
//! the document as written, while it is classified (before the typed reading), since nothing
//! later sees these fields.

use serde::{Deserialize, Serialize};
use serde_yaml::Value;

use super::claim::check_claim_spec;
use super::labels::{json, validate_qualified_name};
use super::raw::{field, get, Text};
use super::scheduling::{check_pod_spec, Owner};
use super::workload::check_workload;
use super::FieldError;
use crate::manifest::types::WorkloadKind;
use crate::manifest::yaml::strict;

/// Every problem the API server would find in `doc`'s unread fields, at the document's paths.
pub fn validate_unread(doc: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(meta) = get(doc, "metadata") {
        check_meta(meta, &mut errors);
    }
    match get(doc, "kind").and_then(Value::as_str).unwrap_or("") {
        "Pod" => {
            if let Some(spec) = get(doc, "spec") {
                check_pod_spec(spec, "spec", Owner::Pod, &mut errors);
            }
        }
        "PersistentVolumeClaim" => {
            let empty = Value::Mapping(Default::default());
            check_claim_spec(get(doc, "spec").unwrap_or(&empty), "spec", &mut errors);
        }
        kind => {
            if let Some(kind) = WorkloadKind::from_kind(kind) {
                check_workload(kind, doc, &mut errors);
            }
        }
    }
    errors
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OwnerReference {
    #[serde(default, deserialize_with = "strict::string")]
    api_version: String,
    #[serde(default, deserialize_with = "strict::string")]
    kind: String,
    #[serde(default, deserialize_with = "strict::string")]
    name: String,
    #[serde(default, deserialize_with = "strict::string")]
    uid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    controller: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    block_owner_deletion: Option<bool>,
}

/// `ValidateObjectMeta`'s rules for what podrun does not read: generation, owner references
/// and finalizers (apimachinery's pkg/api/validation/objectmeta.go).
fn check_meta(meta: &Value, errors: &mut Vec<FieldError>) {
    // The API server makes a name of generateName on create; apply needs the name itself, as
    // `kubectl apply` says (cmd/apply: "from web-: cannot use generate name with apply").
    // The name's own type is the typed reading's to refuse, with its line and column.
    let name = get(meta, "name").map_or(Some(""), Value::as_str);
    let generate = field::<Text>(meta, "generateName", "metadata", errors).map(|t| t.0).unwrap_or_default();
    if name == Some("") && !generate.is_empty() {
        errors.push(FieldError::required_because(
            "metadata.name",
            &format!(
                "apply needs a name, and metadata.generateName {generate:?} does not give one (kubectl apply \
                 refuses it too: \"from {generate}: cannot use generate name with apply\"); set metadata.name"
            ),
        ));
    }
    if let Some(g) = field::<i64>(meta, "generation", "metadata", errors).filter(|g| *g < 0) {
        errors.push(FieldError::invalid_raw("metadata.generation", g, "must be greater than or equal to 0"));
    }
    if let Some(refs) = field::<Vec<OwnerReference>>(meta, "ownerReferences", "metadata", errors) {
        check_owner_references(&refs, errors);
    }
    if let Some(finalizers) = field::<Vec<Text>>(meta, "finalizers", "metadata", errors) {
        let finalizers: Vec<String> = finalizers.into_iter().map(|f| f.0).collect();
        for f in &finalizers {
            validate_qualified_name(f, "metadata.finalizers", errors);
        }
        if finalizers.iter().any(|f| f == "orphan") && finalizers.iter().any(|f| f == "foregroundDeletion") {
            errors.push(FieldError::new(
                "metadata.finalizers",
                format!(
                    "Invalid value: {}: finalizer orphan and foregroundDeletion cannot be both set",
                    json(&finalizers)
                ),
            ));
        }
    }
}

/// `ValidateOwnerReferences`.
fn check_owner_references(refs: &[OwnerReference], errors: &mut Vec<FieldError>) {
    let mut controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        let p = format!("metadata.ownerReferences[{i}]");
        // `schema.ParseGroupVersion`: "", "v1" or "group/v1".
        let (group, version) = match r.api_version.matches('/').count() {
            0 => (Some(""), Some(r.api_version.as_str())),
            1 => r.api_version.split_once('/').map_or((None, None), |(g, v)| (Some(g), Some(v))),
            _ => (None, None),
        };
        if r.api_version.is_empty() {
            errors.push(FieldError::required_because(format!("{p}.apiVersion"), "must not be empty"));
        } else if version.is_none_or(str::is_empty) {
            errors.push(FieldError::invalid(
                format!("{p}.apiVersion"),
                &r.api_version,
                "must be <group>/<version> or <version>",
            ));
        }
        for (name, value) in [("kind", &r.kind), ("name", &r.name), ("uid", &r.uid)] {
            if value.is_empty() {
                errors.push(FieldError::required_because(format!("{p}.{name}"), "must not be empty"));
            }
        }
        if group == Some("") && version == Some("v1") && r.kind == "Event" {
            errors.push(FieldError::new(
                &p,
                format!("Invalid value: {}: /v1, Kind=Event is disallowed from being an owner", json(r)),
            ));
        }
        if r.controller == Some(true) {
            let this = format!("{}/{}", r.kind, r.name);
            match &controller {
                Some(first) => errors.push(FieldError::new(
                    "metadata.ownerReferences",
                    format!(
                        "Invalid value: {}: Only one reference can have Controller set to true. Found \"true\" in \
                         references for {first} and {this}",
                        json(refs)
                    ),
                )),
                None => controller = Some(this),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(yaml: &str) -> Vec<String> {
        let doc: Value = serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
        validate_unread(&doc).iter().map(|e| e.to_string()).collect()
    }

    const NONE: [&str; 0] = [];

    // TestValidateObjectMetaOwnerReferences and TestValidateFinalizersUpdate-style cases.
    #[test]
    fn object_meta() {
        assert_eq!(
            check("kind: ConfigMap\nmetadata: {name: a, finalizers: [kubernetes.io/pvc-protection, example.com/x, orphan], generation: 3,
                   ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: '1', controller: true}, {apiVersion: v1, kind: Pod, name: p, uid: '2'}]}"),
            NONE
        );
        let errs = check("kind: Secret\nmetadata: {finalizers: ['a/b/c']}");
        assert_eq!(errs.len(), 1);
        assert!(errs[0].starts_with("metadata.finalizers: Invalid value: \"a/b/c\": a valid label key"), "{errs:?}");
        assert_eq!(
            check("kind: Pod\nmetadata: {finalizers: [orphan, foregroundDeletion]}"),
            ["metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"]
        );
        assert_eq!(
            check("kind: Pod\nmetadata: {generation: -1}"),
            ["metadata.generation: Invalid value: -1: must be greater than or equal to 0"]
        );
        assert_eq!(
            check("kind: Pod\nmetadata: {ownerReferences: [{apiVersion: a/b/c}, {apiVersion: v1, kind: Event, name: e, uid: u}]}"),
            [
                "metadata.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>",
                "metadata.ownerReferences[0].kind: Required value: must not be empty",
                "metadata.ownerReferences[0].name: Required value: must not be empty",
                "metadata.ownerReferences[0].uid: Required value: must not be empty",
                "metadata.ownerReferences[1]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner",
            ]
        );
        let two = check("kind: Pod\nmetadata: {ownerReferences: [{apiVersion: v1, kind: A, name: a, uid: '1', controller: true}, {apiVersion: v1, kind: B, name: b, uid: '2', controller: true}]}");
        assert_eq!(two.len(), 1);
        assert!(two[0].ends_with(
            "Only one reference can have Controller set to true. Found \"true\" in references for A/a and B/b"
        ));
    }

    /// kubectl's TestDontAllowApplyWithPodGeneratedName: a generateName alone is no name for
    /// apply; beside a name it changes nothing (and is only warned about as cluster-only).
    #[test]
    fn a_generated_name_is_no_name_for_apply() {
        let why = "metadata.name: Required value: apply needs a name, and metadata.generateName \"web-\" does not \
                   give one (kubectl apply refuses it too: \"from web-: cannot use generate name with apply\"); set \
                   metadata.name";
        for kind in ["Pod", "Deployment", "ConfigMap"] {
            assert_eq!(check(&format!("kind: {kind}\nmetadata: {{generateName: web-}}")), [why], "{kind}");
            assert_eq!(check(&format!("kind: {kind}\nmetadata: {{generateName: web-, name: ''}}")), [why], "{kind}");
        }
        assert_eq!(check("kind: Pod\nmetadata: {generateName: web-, name: web-1}"), NONE);
        assert_eq!(check("kind: Pod\nmetadata: {generateName: ''}"), NONE, "the name's absence is validation's");
        assert_eq!(check("kind: Pod\nmetadata: {generateName: web-, name: 5}"), NONE, "the typed reading's");
        assert_eq!(check("kind: Pod\nmetadata: {generateName: 5}").len(), 1, "a string, as every unread field");
    }

    #[test]
    fn documents_by_kind() {
        assert_eq!(
            check("kind: Pod\nspec: {tolerations: [{key: a, operator: Sometimes}]}"),
            ["spec.tolerations[0].operator: Unsupported value: \"Sometimes\": supported values: \"Equal\", \"Exists\""]
        );
        assert_eq!(
            check("kind: PersistentVolumeClaim\nspec: {accessModes: [Sometimes], resources: {requests: {storage: 1Gi}}}"),
            ["spec.accessModes: Unsupported value: \"Sometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""]
        );
        assert_eq!(
            check("kind: PersistentVolumeClaim\nmetadata: {name: c}"),
            [
                "spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"
            ]
        );
        assert_eq!(
            check("kind: Job\nspec: {backoffLimit: -1}"),
            ["spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"]
        );
        assert_eq!(check("kind: ConfigMap\ndata: {a: b}"), NONE);
    }
}
