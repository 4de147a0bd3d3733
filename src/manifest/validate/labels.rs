//! Kubernetes' string formats for label keys and values, names and label selectors, with the
//! API server's exact messages (apimachinery 1.35: `IsQualifiedName`, `IsValidLabelValue`,
//! `IsDNS1123Label`, `IsDNS1123Subdomain`, `ValidateLabels`, `ValidateLabelSelector`). A value
//! can break several rules at once; each broken rule is one message, as there.

use std::collections::BTreeMap;

use super::FieldError;
use crate::manifest::types::{LabelSelector, LabelSelectorRequirement};

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
    or '.', and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \
    '-' or '.', and must start and end with an alphanumeric character";

/// apimachinery's `RegexError`, double space after the first example's comma included.
pub(super) fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{re}')"));
    out
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    !b.is_empty()
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter().all(|&c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty() && alnum(b[0]) && alnum(b[b.len() - 1]) && b.iter().all(|&c| alnum(c) || c == b'-')
}

fn matches_dns_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns_label)
}

/// `IsDNS1123Subdomain`. `unit` is how the length limit is worded: names say "characters",
/// the prefix of a label key "bytes" (two generations of the same function).
fn dns_subdomain_problems_in(s: &str, unit: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(format!("must be no more than 253 {unit}"));
    }
    if !matches_dns_subdomain(s) {
        out.push(regex_error(DNS_SUBDOMAIN_MSG, DNS_SUBDOMAIN_FMT, &["example.com"]));
    }
    out
}

/// `IsDNS1123Subdomain`, as names (`NameIsDNSSubdomain`) use it.
pub(super) fn dns_subdomain_problems(s: &str) -> Vec<String> {
    dns_subdomain_problems_in(s, "characters")
}

/// `IsDNS1123Label`, as names (`NameIsDNSLabel`, namespaces) use it: the one in
/// `validate.rs`, which `-n` is checked with too.
pub(super) fn dns_label_problems(s: &str) -> Vec<String> {
    super::dns1123_label_problems(s)
}

/// `IsQualifiedName` (a label key): an optional DNS subdomain prefix and '/', then a name.
pub(super) fn label_key_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".to_owned());
            } else {
                out.extend(dns_subdomain_problems_in(prefix, "bytes").into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            out.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return out;
        }
    };
    if name.is_empty() {
        out.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        out.push("name part must be no more than 63 bytes".to_owned());
    }
    if !matches_label_key_name(name) {
        out.push(format!("name part {}", regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])));
    }
    out
}

/// `IsValidLabelValue`.
pub(super) fn label_value_problems(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 bytes".to_owned());
    }
    if !s.is_empty() && !matches_label_key_name(s) {
        out.push(regex_error(LABEL_VALUE_MSG, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    out
}

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
    #[test]
    fn qualified_names() {
        for ok in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            &"a".repeat(63),
            &format!("{}/b", "a".repeat(253)),
        ] {
            assert!(label_key_problems(ok).is_empty(), "{ok}: {:?}", label_key_problems(ok));
        }
        for bad in [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            &"a".repeat(64),
            &format!("{}/b", "a".repeat(254)),
        ] {
            assert!(!label_key_problems(bad).is_empty(), "{bad}");
        }
        assert_eq!(
            label_key_problems("example.com/"),
            [
                "name part must be non-empty",
                &format!("name part {}", regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"]))
            ]
        );
        assert_eq!(label_key_problems("/simple"), ["prefix part must be non-empty"]);
        assert_eq!(
            label_key_problems("bad key"),
            ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an \
              alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is \
              '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
    }

    #[test]
    fn label_values() {
        for ok in
            ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "", "A.B_C-9", &"a".repeat(63)]
        {
            assert!(label_value_problems(ok).is_empty(), "{ok}");
        }
        for bad in [
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
        ] {
            assert_eq!(label_value_problems(bad).len(), 1, "{bad}");
        }
        assert_eq!(label_value_problems(&"a".repeat(64)), ["must be no more than 63 bytes"]);
    }

    #[test]
    fn dns_names() {
        assert!(dns_subdomain_problems("a.b-c.d").is_empty());
        assert_eq!(dns_subdomain_problems("A").len(), 1);
        assert_eq!(dns_label_problems("a.b"), ["must not contain dots"]);
        assert_eq!(dns_label_problems(&"a".repeat(64)), ["must be no more than 63 characters"]);
    }

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
