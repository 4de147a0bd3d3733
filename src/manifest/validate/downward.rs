//! Downward API selectors (`fieldRef`, `resourceFieldRef`), shared by environment variables and
//! downwardAPI volume files, which allow different field paths.

use std::collections::BTreeSet;

use super::{is_qualified_name, qualified_msg, FieldError};
use crate::manifest::quantity::{Quantity, QuantityError};
use crate::manifest::types::{ObjectFieldSelector, ResourceFieldSelector};

/// What `fieldRef` may name in an environment variable (sorted, as the API server lists them).
/// `crate::pod::downward::field_value` computes each of these.
pub(super) const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// What `fieldRef` may name in a downwardAPI volume file: whole label and annotation maps too,
/// but nothing of the spec or status.
pub(super) const VOLUME_FIELD_PATHS: &[&str] =
    &["metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"];

/// Every field path the API server can convert at all; a path outside this list is an error of
/// its own kind ("field label not supported"), before the per-use lists above apply.
const KNOWN_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
    // Old v1 clients' name for spec.nodeName, still converted by the API server.
    "spec.host",
];

const RESOURCE_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

const HUGEPAGES_PREFIXES: &[&str] = &["requests.hugepages-", "limits.hugepages-"];

/// `metadata.labels['key']` as (path, key).
fn split_subscript(path: &str) -> Option<(&str, &str)> {
    let (base, rest) = path.split_once("['")?;
    Some((base, rest.strip_suffix("']")?))
}

pub(super) fn validate_field_selector(
    sel: &ObjectFieldSelector,
    allowed: &[&str],
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    // An empty apiVersion is defaulted to v1 by the API server.
    let version = sel.api_version.as_deref().unwrap_or("");
    let fp = format!("{path}.fieldPath");
    if sel.field_path.is_empty() {
        errors.push(FieldError::required(fp));
        return;
    }
    if !version.is_empty() && version != "v1" {
        let why = format!("error converting fieldPath: unsupported pod version: {version}");
        errors.push(FieldError::invalid(fp, &sel.field_path, &why));
        return;
    }
    if let Some((base, key)) = split_subscript(&sel.field_path) {
        match base {
            "metadata.labels" if !is_qualified_name(key) => {
                errors.push(FieldError::invalid(path, key, &qualified_msg()))
            }
            "metadata.annotations" if !is_qualified_name(&key.to_ascii_lowercase()) => {
                errors.push(FieldError::invalid(path, key, &qualified_msg()))
            }
            "metadata.labels" | "metadata.annotations" => {}
            _ => {
                let why =
                    format!("error converting fieldPath: field label does not support subscript: {}", sel.field_path);
                errors.push(FieldError::invalid(fp, &sel.field_path, &why));
            }
        }
        return;
    }
    if !KNOWN_FIELD_PATHS.contains(&sel.field_path.as_str()) {
        let why = format!("error converting fieldPath: field label not supported: {}", sel.field_path);
        errors.push(FieldError::invalid(fp, &sel.field_path, &why));
    } else {
        let converted = if sel.field_path == "spec.host" { "spec.nodeName" } else { sel.field_path.as_str() };
        if !allowed.contains(&converted) {
            errors.push(FieldError::unsupported(fp, converted, allowed));
        }
    }
}

/// `in_volume`: a volume file must name its container; an environment variable defaults to its
/// own. `containers` are the pod's container names (podrun computes the value from the named
/// container, so one that does not exist fails up front rather than at start).
pub(super) fn validate_resource_selector(
    sel: &ResourceFieldSelector,
    in_volume: bool,
    containers: &BTreeSet<&str>,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let container = sel.container_name.as_deref().unwrap_or("");
    if in_volume && container.is_empty() {
        errors.push(FieldError::required(format!("{path}.containerName")));
    } else if sel.resource.is_empty() {
        errors.push(FieldError::required(format!("{path}.resource")));
    } else if !RESOURCE_PATHS.contains(&sel.resource.as_str())
        && !HUGEPAGES_PREFIXES.iter().any(|p| sel.resource.starts_with(p))
    {
        errors.push(FieldError::unsupported(format!("{path}.resource"), &sel.resource, RESOURCE_PATHS));
    }
    if !container.is_empty() && !containers.contains(container) {
        errors.push(FieldError::not_found(format!("{path}.containerName"), container));
    }
    if let Some(divisor) = &sel.divisor {
        validate_divisor(&sel.resource, divisor, &format!("{path}.divisor"), errors);
    }
}

fn validate_divisor(resource: &str, divisor: &str, path: &str, errors: &mut Vec<FieldError>) {
    // One too large for podrun is a valid quantity all the same, and simply not an allowed divisor.
    let q = match Quantity::parse(divisor) {
        Ok(q) => Some(q),
        Err(QuantityError::TooLarge { .. }) => None,
        Err(e) => return errors.push(FieldError::invalid(path, divisor, &e.to_string())),
    };
    // Zero is how the API represents "unset".
    if q.is_some_and(|q| q.is_zero()) {
        return;
    }
    let units = |n: i128| Quantity::from_units(n);
    let allowed: Vec<Quantity>;
    let what = match resource {
        "limits.cpu" | "requests.cpu" => {
            allowed = vec![Quantity::from_millis(1), units(1)];
            "only divisor's values 1m and 1 are supported with the cpu resource"
        }
        _ => {
            // 1, 1k .. 1E, then 1Ki .. 1Ei.
            allowed = (0..=6).map(|p| 1000i128.pow(p)).chain((1..=6).map(|p| 1i128 << (10 * p))).map(units).collect();
            match resource {
                "limits.memory" | "requests.memory" => {
                    "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"
                }
                "limits.ephemeral-storage" | "requests.ephemeral-storage" => {
                    "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"
                }
                r if HUGEPAGES_PREFIXES.iter().any(|p| r.starts_with(p)) => {
                    "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"
                }
                // An unsupported resource is reported on its own; its divisor says nothing more.
                _ => return,
            }
        }
    };
    // The API server compares canonical spellings; comparing values takes `1000m` for `1` too.
    if !q.is_some_and(|q| allowed.contains(&q)) {
        errors.push(FieldError::invalid(path, resource, what));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(path: &str, allowed: &[&str]) -> Vec<String> {
        let sel = ObjectFieldSelector { api_version: None, field_path: path.into() };
        let mut errors = Vec::new();
        validate_field_selector(&sel, allowed, "f", &mut errors);
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    fn resource(resource: &str, container: Option<&str>, divisor: Option<&str>, in_volume: bool) -> Vec<String> {
        let sel = ResourceFieldSelector {
            container_name: container.map(Into::into),
            resource: resource.into(),
            divisor: divisor.map(Into::into),
        };
        let mut errors = Vec::new();
        validate_resource_selector(&sel, in_volume, &["c"].into(), "r", &mut errors);
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn field_paths_differ_between_env_and_volumes() {
        for ok in ["metadata.name", "status.podIP", "spec.serviceAccountName", "metadata.labels['app']", "spec.host"] {
            assert!(field(ok, ENV_FIELD_PATHS).is_empty(), "{ok}");
        }
        assert_eq!(
            field("metadata.labels", ENV_FIELD_PATHS),
            [format!("f.fieldPath: Unsupported value: \"metadata.labels\": supported values: {}", {
                let l: Vec<String> = ENV_FIELD_PATHS.iter().map(|s| format!("{s:?}")).collect();
                l.join(", ")
            })]
        );
        assert!(field("metadata.labels", VOLUME_FIELD_PATHS).is_empty());
        assert!(field("status.podIP", VOLUME_FIELD_PATHS)[0].contains("Unsupported value: \"status.podIP\""));
        assert_eq!(
            field("spec.bogus", ENV_FIELD_PATHS),
            ["f.fieldPath: Invalid value: \"spec.bogus\": error converting fieldPath: field label not supported: spec.bogus"]
        );
        assert!(field("spec.nodeName['x']", ENV_FIELD_PATHS)[0].contains("does not support subscript"));
        assert!(field("metadata.labels['-bad-']", ENV_FIELD_PATHS)[0].starts_with("f: Invalid value: \"-bad-\""));
        assert_eq!(field("", ENV_FIELD_PATHS), ["f.fieldPath: Required value"]);
        let sel = ObjectFieldSelector { api_version: Some("v2".into()), field_path: "metadata.name".into() };
        let mut errors = Vec::new();
        validate_field_selector(&sel, ENV_FIELD_PATHS, "f", &mut errors);
        assert!(errors[0].message.contains("unsupported pod version: v2"), "{errors:?}");
    }

    #[test]
    fn resource_selectors() {
        assert!(resource("limits.cpu", None, None, false).is_empty());
        assert!(resource("requests.memory", Some("c"), Some("1Mi"), true).is_empty());
        assert!(resource("limits.cpu", Some("c"), Some("1m"), true).is_empty());
        assert!(resource("limits.hugepages-2Mi", Some("c"), None, true).is_empty());
        assert_eq!(resource("limits.cpu", None, None, true), ["r.containerName: Required value"]);
        assert_eq!(resource("", None, None, false), ["r.resource: Required value"]);
        assert!(
            resource("limits.gpu", None, None, false)[0].starts_with("r.resource: Unsupported value: \"limits.gpu\"")
        );
        assert_eq!(resource("limits.cpu", Some("nope"), None, false), ["r.containerName: Not found: \"nope\""]);
        assert_eq!(
            resource("limits.cpu", None, Some("2m"), false),
            ["r.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource"]
        );
        assert!(resource("limits.memory", None, Some("3"), false)[0].contains("with the memory resource"));
        assert!(resource("limits.memory", None, Some("1k"), false).is_empty());
        assert!(resource("limits.memory", None, Some("1Ei"), false).is_empty());
        assert!(resource("limits.memory", None, Some("1x"), false)[0].contains("quantities must match"));
        assert!(resource("limits.memory", None, Some("0"), false).is_empty(), "zero means unset");
        // Well-formed but huge: not an allowed divisor, like any other value.
        assert!(resource("limits.memory", None, Some("1e100"), false)[0].contains("with the memory resource"));
        assert!(resource("limits.cpu", None, Some("-1e100"), false)[0].contains("with the cpu resource"));
    }
}
