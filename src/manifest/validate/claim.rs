//! The API server's rules for a PersistentVolumeClaim's spec (`ValidatePersistentVolumeClaimSpec`
//! in Kubernetes 1.35, pkg/apis/core/validation/validation.go), for claim documents and for a
//! StatefulSet's claim templates. podrun only names an engine volume after a claim, but a
//! claim Kubernetes refuses is refused here too.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_yaml::Value;

use super::labels::{validate_label_selector, validate_name};
use super::raw::{child, field, Text};
use super::FieldError;
use crate::manifest::names::{dns1123_label_problems, dns_subdomain_problems};
use crate::manifest::quantity::Quantity;
use crate::manifest::types::LabelSelector;
use crate::manifest::yaml::strict;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClaimSpec {
    #[serde(default, deserialize_with = "strict::strings")]
    access_modes: Vec<String>,
    #[serde(default)]
    selector: Option<LabelSelector>,
    #[serde(default)]
    resources: ClaimResources,
    #[serde(default, deserialize_with = "strict::opt_string")]
    storage_class_name: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_string")]
    volume_mode: Option<String>,
    #[serde(default)]
    data_source: Option<DataSource>,
    #[serde(default)]
    data_source_ref: Option<DataSource>,
    #[serde(default, deserialize_with = "strict::opt_string")]
    volume_attributes_class_name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ClaimResources {
    #[serde(default, deserialize_with = "strict::quantity_map")]
    requests: BTreeMap<String, String>,
}

#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DataSource {
    #[serde(default, deserialize_with = "strict::opt_string")]
    api_group: Option<String>,
    #[serde(default, deserialize_with = "strict::string")]
    kind: String,
    #[serde(default, deserialize_with = "strict::string")]
    name: String,
    #[serde(default, deserialize_with = "strict::opt_string")]
    namespace: Option<String>,
}

/// `ValidatePersistentVolumeClaimSpec`, for a claim's spec at `path`.
pub(super) fn check_claim_spec(spec: &Value, path: &str, errors: &mut Vec<FieldError>) {
    // Read field by field so that one wrong type does not hide the other problems.
    let mut claim = ClaimSpec {
        access_modes: field::<Vec<Text>>(spec, "accessModes", path, errors)
            .map(|m| m.into_iter().map(|s| s.0).collect())
            .unwrap_or_default(),
        selector: field(spec, "selector", path, errors),
        resources: field(spec, "resources", path, errors).unwrap_or_default(),
        ..Default::default()
    };
    for (key, slot) in [
        ("storageClassName", &mut claim.storage_class_name),
        ("volumeMode", &mut claim.volume_mode),
        ("volumeAttributesClassName", &mut claim.volume_attributes_class_name),
    ] {
        *slot = field::<Text>(spec, key, path, errors).map(|s| s.0);
    }
    claim.data_source = field(spec, "dataSource", path, errors);
    claim.data_source_ref = field(spec, "dataSourceRef", path, errors);
    validate_claim(&claim, path, errors);
}

fn validate_claim(c: &ClaimSpec, path: &str, errors: &mut Vec<FieldError>) {
    let modes_path = child(path, "accessModes");
    if c.access_modes.is_empty() {
        errors.push(FieldError::required_because(&modes_path, "at least 1 access mode is required"));
    }
    if let Some(s) = &c.selector {
        validate_label_selector(s, false, &child(path, "selector"), errors);
    }
    const MODES: [&str; 4] = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
    let (mut once_pod, mut others) = (false, false);
    for m in &c.access_modes {
        if !MODES.contains(&m.as_str()) {
            errors.push(FieldError::unsupported(&modes_path, m, &MODES));
        } else if m == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            others = true;
        }
    }
    if once_pod && others {
        errors.push(FieldError::forbidden(&modes_path, "may not use ReadWriteOncePod with other access modes"));
    }
    let storage_path = format!("{}[storage]", child(path, "resources"));
    match c.resources.requests.get("storage") {
        None => errors.push(FieldError::required(&storage_path)),
        Some(text) => match Quantity::parse(text) {
            Err(e) => errors.push(FieldError::invalid(&storage_path, text, &e.to_string())),
            Ok(q) if q.is_negative() || q.is_zero() => {
                errors.push(FieldError::invalid(&storage_path, &q.to_string(), "must be greater than zero"))
            }
            Ok(_) => {}
        },
    }
    if let Some(class) = c.storage_class_name.as_deref().filter(|s| !s.is_empty()) {
        validate_name(class, dns_subdomain_problems(class), &child(path, "storageClassName"), errors);
    }
    if let Some(mode) = c.volume_mode.as_deref().filter(|m| !matches!(*m, "Block" | "Filesystem")) {
        errors.push(FieldError::unsupported(child(path, "volumeMode"), mode, &["Block", "Filesystem"]));
    }
    if let Some(ds) = &c.data_source {
        check_data_source(ds, false, &child(path, "dataSource"), errors);
    }
    if let Some(ds) = &c.data_source_ref {
        check_data_source(ds, true, &child(path, "dataSourceRef"), errors);
    }
    match (&c.data_source, &c.data_source_ref) {
        // The API server passes the field path as the value, which its JSON prints as `{}`.
        (Some(_), Some(r)) if r.namespace.as_deref().is_some_and(|n| !n.is_empty()) => errors.push(FieldError::new(
            path,
            "Invalid value: {}: may not be specified when dataSourceRef.namespace is specified",
        )),
        (Some(d), Some(r)) if (&d.api_group, &d.kind, &d.name) != (&r.api_group, &r.kind, &r.name) => {
            errors.push(FieldError::new(path, "Invalid value: {}: must match dataSourceRef"))
        }
        _ => {}
    }
    if let Some(class) = c.volume_attributes_class_name.as_deref().filter(|s| !s.is_empty()) {
        validate_name(class, dns_subdomain_problems(class), &child(path, "volumeAttributesClassName"), errors);
    }
}

/// `validateDataSource` and `validateDataSourceRef`.
fn check_data_source(ds: &DataSource, is_ref: bool, path: &str, errors: &mut Vec<FieldError>) {
    if ds.name.is_empty() {
        errors.push(FieldError::required(format!("{path}.name")));
    }
    if ds.kind.is_empty() {
        errors.push(FieldError::required(format!("{path}.kind")));
    }
    let group = ds.api_group.as_deref().unwrap_or("");
    if group.is_empty() && ds.kind != "PersistentVolumeClaim" {
        errors.push(FieldError::invalid(
            path,
            &ds.kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() {
        validate_name(group, dns_subdomain_problems(group), &format!("{path}.apiGroup"), errors);
    }
    if is_ref {
        if let Some(ns) = ds.namespace.as_deref().filter(|n| !n.is_empty()) {
            validate_name(ns, dns1123_label_problems(ns), &format!("{path}.namespace"), errors);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(yaml: &str) -> Vec<String> {
        let spec: Value = serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
        let mut errors = Vec::new();
        check_claim_spec(&spec, "spec", &mut errors);
        errors.iter().map(|e| e.to_string()).collect()
    }

    const NONE: [&str; 0] = [];

    // TestValidatePersistentVolumeClaim (core validation_test.go).
    #[test]
    fn claims() {
        for ok in [
            "{accessModes: [ReadWriteOnce, ReadOnlyMany], resources: {requests: {storage: 10G}}}",
            "{accessModes: [ReadWriteOncePod], resources: {requests: {storage: 1Gi}}, volumeMode: Block, storageClassName: fast}",
            "{accessModes: [ReadWriteMany], resources: {requests: {storage: 1}}, storageClassName: '', selector: {matchLabels: {tier: gold}}}",
            "{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, dataSource: {kind: PersistentVolumeClaim, name: src}}",
            "{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: s}, \
              dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: s}}",
        ] {
            assert_eq!(claim(ok), NONE, "{ok}");
        }
        assert_eq!(
            claim("{resources: {requests: {storage: 1Gi}}}"),
            ["spec.accessModes: Required value: at least 1 access mode is required"]
        );
        assert_eq!(
            claim("{accessModes: [Sometimes], resources: {requests: {storage: 1Gi}}}"),
            ["spec.accessModes: Unsupported value: \"Sometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""]
        );
        assert_eq!(
            claim("{accessModes: [ReadWriteOncePod, ReadWriteOnce], resources: {requests: {storage: 1Gi}}}"),
            ["spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"]
        );
        assert_eq!(claim("{accessModes: [ReadWriteOnce]}"), ["spec.resources[storage]: Required value"]);
        assert_eq!(
            claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: '0'}}}"),
            ["spec.resources[storage]: Invalid value: \"0\": must be greater than zero"]
        );
        assert_eq!(
            claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: -1}}}"),
            ["spec.resources[storage]: Invalid value: \"-1\": must be greater than zero"]
        );
        assert!(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: lots}}}")[0]
            .starts_with("spec.resources[storage]: Invalid value: \"lots\": quantities must match"));
        assert_eq!(
            claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeMode: Raw}"),
            ["spec.volumeMode: Unsupported value: \"Raw\": supported values: \"Block\", \"Filesystem\""]
        );
        assert!(claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: Fast}")
            [0]
        .starts_with("spec.storageClassName: Invalid value: \"Fast\": a lowercase RFC 1123 subdomain"));
        assert_eq!(
            claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, dataSource: {kind: Pod}}"),
            [
                "spec.dataSource.name: Required value",
                "spec.dataSource: Invalid value: \"Pod\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
            ]
        );
        assert_eq!(
            claim("{accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, dataSource: {kind: PersistentVolumeClaim, name: a}, \
                   dataSourceRef: {kind: PersistentVolumeClaim, name: b}}"),
            ["spec: Invalid value: {}: must match dataSourceRef"]
        );
    }
}
