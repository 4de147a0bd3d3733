//! Labels and label selectors as the API server validates them (apimachinery 1.35:
//! `ValidateLabels`, `ValidateLabelSelector`): each key and value through the name rules of
//! [`crate::manifest::names`], one message per broken rule, as there.
use std::collections::BTreeMap;

use super::FieldError;
use crate::manifest::names::{label_key_problems, label_value_problems};
use crate::manifest::types::{LabelSelector, LabelSelectorRequirement};

/// `ValidateLabelName`: one `Invalid` per broken rule, at `path`.
pub(super) fn validate_label_name(key: &str, path: &str, errors: &mut Vec<FieldError>) {
    for m in label_key_problems(key) {
        errors.push(FieldError::invalid(path, key, &m));
    }
}

/// `ValidateQualifiedName`, the same rule for names that are not label keys (readiness gates,
/// scheduling gates, finalizers).
pub(super) fn validate_qualified_name(name: &str, path: &str, errors: &mut Vec<FieldError>) {
    validate_label_name(name, path, errors);
}

/// `ValidateLabels`: keys and values, every problem reported at the map's own path.
pub(super) fn validate_labels(labels: &BTreeMap<String, String>, path: &str, errors: &mut Vec<FieldError>) {
    for (k, v) in labels {
        validate_label_name(k, path, errors);
        for m in label_value_problems(v) {
            errors.push(FieldError::invalid(path, v, &m));
        }
    }
}

/// Names validated by a name function (`NameIsDNSSubdomain` and the like), one error per message.
pub(super) fn validate_name(value: &str, problems: Vec<String>, path: &str, errors: &mut Vec<FieldError>) {
    for m in problems {
        errors.push(FieldError::invalid(path, value, &m));
    }
}

/// `ValidateLabelSelectorRequirement`.
fn validate_requirement(
    r: &LabelSelectorRequirement,
    allow_invalid_values: bool,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.is_empty() => errors.push(FieldError::required_because(
            format!("{path}.values"),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if !r.values.is_empty() => errors.push(FieldError::forbidden(
            format!("{path}.values"),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        other => errors.push(FieldError::invalid(format!("{path}.operator"), other, "not a valid selector operator")),
    }
    validate_label_name(&r.key, &format!("{path}.key"), errors);
    if !allow_invalid_values {
        for (i, v) in r.values.iter().enumerate() {
            for m in label_value_problems(v) {
                errors.push(FieldError::invalid(format!("{path}.values[{i}]"), v, &m));
            }
        }
    }
}

/// `ValidateLabelSelector`.
pub(super) fn validate_label_selector(
    s: &LabelSelector,
    allow_invalid_values: bool,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    validate_labels(&s.match_labels, &format!("{path}.matchLabels"), errors);
    for (i, r) in s.match_expressions.iter().enumerate() {
        validate_requirement(r, allow_invalid_values, &format!("{path}.matchExpressions[{i}]"), errors);
    }
}

/// Whether `LabelSelectorAsSelector` turns `s` into a selector: the requirements it builds
/// check the operator, the number of values, the key and every value.
pub(super) fn selector_converts(s: &LabelSelector) -> bool {
    let mut errors = Vec::new();
    validate_label_selector(s, false, "", &mut errors);
    errors.is_empty()
}

/// A label selector as the API server prints it in a message: Go's JSON of the struct, fields
/// in declaration order, empty ones left out.
pub(super) fn selector_json(s: &LabelSelector) -> String {
    let mut parts = Vec::new();
    if !s.match_labels.is_empty() {
        parts.push(format!("\"matchLabels\":{}", json(&s.match_labels)));
    }
    if !s.match_expressions.is_empty() {
        let exprs: Vec<String> = s
            .match_expressions
            .iter()
            .map(|r| {
                let values =
                    if r.values.is_empty() { String::new() } else { format!(",\"values\":{}", json(&r.values)) };
                format!("{{\"key\":{},\"operator\":{}{values}}}", json(&r.key), json(&r.operator))
            })
            .collect();
        parts.push(format!("\"matchExpressions\":[{}]", exprs.join(",")));
    }
    format!("{{{}}}", parts.join(","))
}

/// Go's `json.Marshal` of a value a message quotes (strings, numbers, lists and string maps;
/// BTreeMaps keep Go's sorted key order).
pub(super) fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // Serialising these plain values cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    // From apimachinery's validation_test.go (TestIsQualifiedName, TestIsValidLabelValue).
    fn selector(yaml: &str) -> LabelSelector {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn strings(errors: &[FieldError]) -> Vec<String> {
        errors.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn selectors() {
        let mut errors = Vec::new();
        let ok = selector("{matchLabels: {a: b}, matchExpressions: [{key: x, operator: In, values: [y]}, {key: z, operator: Exists}]}");
        validate_label_selector(&ok, false, "s", &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(selector_converts(&ok));
        let bad = selector("{matchExpressions: [{key: x, operator: In}, {key: z, operator: Exists, values: [a]}, {key: 'b/c/d', operator: Like}]}");
        validate_label_selector(&bad, false, "s", &mut errors);
        let got = strings(&errors);
        assert_eq!(
            got[0],
            "s.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
        );
        assert_eq!(got[1], "s.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
        assert_eq!(got[2], "s.matchExpressions[2].operator: Invalid value: \"Like\": not a valid selector operator");
        assert!(got[3].starts_with("s.matchExpressions[2].key: Invalid value: \"b/c/d\": a valid label key"));
        assert!(!selector_converts(&bad));
        assert_eq!(
            selector_json(&selector("{matchLabels: {a: b}, matchExpressions: [{key: x, operator: Exists}]}")),
            r#"{"matchLabels":{"a":"b"},"matchExpressions":[{"key":"x","operator":"Exists"}]}"#
        );
    }
}
