//! `wait --for=jsonpath='{.status.phase}'=Succeeded` (or without `=VALUE`: the field exists),
//! read and checked as `kubectl wait` does (`pkg/cmd/wait/condition.go`, `json.go`): the
//! path in the relaxed form, the value unquoted, `==` kept inside the path; the path must
//! lead to one value, not an object or a list, which is compared as Go prints it.

use serde_json::Value;

use super::{relaxed, text::go_sprint, JsonPath};

const FORMAT: &str =
    "jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'";

/// A `--for=jsonpath=...` condition.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPathCondition {
    /// The path as kubectl runs it (`{.status.phase}`).
    pub expr: String,
    path: JsonPath,
    /// `None`: any value will do.
    pub value: Option<String>,
}

/// kubectl's `splitJSONPathInput`: split on each `=` that is not part of `==`.
fn split(input: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '=' && chars.peek() != Some(&'=') {
            parts.push(String::new());
            continue;
        }
        let pair = c == '=' && chars.next().is_some();
        if let Some(p) = parts.last_mut() {
            p.push(c);
            if pair {
                p.push('=');
            }
        }
    }
    parts
}

impl JsonPathCondition {
    /// What follows `jsonpath=`.
    ///
    /// # Errors
    /// kubectl's words for a malformed condition or path.
    pub fn parse(input: &str) -> Result<JsonPathCondition, String> {
        let parts = split(input);
        if parts.len() > 2 {
            return Err(FORMAT.to_owned());
        }
        let expr = relaxed(&parts[0]).map_err(|e| e.to_string())?;
        let value = match parts.get(1) {
            None => None,
            Some(v) => match v.trim_matches(['\'', '"']) {
                "" => {
                    return Err("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3".to_owned())
                }
                v => Some(v.to_owned()),
            },
        };
        if expr.is_empty() {
            return Err("jsonpath expression cannot be empty".to_owned());
        }
        let path = JsonPath::parse(&expr).map_err(|e| e.to_string())?;
        Ok(JsonPathCondition { expr, path, value })
    }

    /// Whether `object` meets the condition: `Ok(None)` when it does, else what the path
    /// finds now (`<none>` when nothing).
    ///
    /// # Errors
    /// The path leads to several values, or to an object or a list.
    pub fn check(&self, object: &Value) -> Result<Option<String>, String> {
        let found = self.path.find(object, true).map_err(|e| e.to_string())?;
        let Some(first) = found.first().and_then(|f| f.first()) else { return Ok(Some("<none>".to_owned())) };
        if found.len() > 1 {
            return Err("given jsonpath expression matches more than one list".to_owned());
        }
        if found[0].len() > 1 {
            return Err("given jsonpath expression matches more than one value".to_owned());
        }
        let Some(want) = &self.value else { return Ok(None) };
        if matches!(first.as_ref(), Value::Object(_) | Value::Array(_)) {
            return Err("jsonpath leads to a nested object or list which is not supported".to_owned());
        }
        let now = go_sprint(first);
        Ok((now.trim() != want.trim()).then_some(now))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn conditions_read_as_kubectl_reads_them() {
        let c = JsonPathCondition::parse("'{.status.phase}'=Succeeded");
        assert!(c.is_err(), "kubectl's relaxed form takes no quotes around the path: {c:?}");
        let c = JsonPathCondition::parse("{.status.phase}='Succeeded'").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.expr.as_str(), c.value.as_deref()), ("{.status.phase}", Some("Succeeded")));
        let c = JsonPathCondition::parse(".status.podIP").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.expr.as_str(), c.value), ("{.status.podIP}", None));
        let c = JsonPathCondition::parse(r#"{.status.conditions[?(@.type=="Ready")].status}=True"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.value.as_deref(), Some("True"));
        assert_eq!(split("a.b.c====d.e.f===g.h.i==="), ["a.b.c====d.e.f==", "g.h.i==", ""]);
        assert!(JsonPathCondition::parse("{.a}=").is_err_and(|e| e.contains("value after equal sign")));
        assert!(JsonPathCondition::parse("{.a}=1=2").is_err_and(|e| e.starts_with("jsonpath wait format")));
        assert!(JsonPathCondition::parse("").is_err_and(|e| e == "jsonpath expression cannot be empty"));
    }

    #[test]
    fn conditions_check_as_kubectl_checks_them() {
        let pod =
            json!({"status": {"phase": "Running", "restarts": 2, "conditions": [{"type": "Ready", "status": "True"}]}});
        let check = |c: &str| JsonPathCondition::parse(c).unwrap_or_else(|e| panic!("{e}")).check(&pod);
        assert_eq!(check("{.status.phase}=Running"), Ok(None));
        assert_eq!(check("{.status.phase}=Succeeded"), Ok(Some("Running".into())));
        assert_eq!(check("{.status.restarts}= 2 "), Ok(None));
        assert_eq!(check("{.status.podIP}"), Ok(Some("<none>".into())));
        assert_eq!(check("{.status.phase}"), Ok(None));
        assert_eq!(check(r#"{.status.conditions[?(@.type=="Ready")].status}=True"#), Ok(None));
        assert!(check("{.status}=x").is_err_and(|e| e.contains("nested object")));
        assert!(check("{.status.conditions[*].type}").is_ok());
        assert!(check("{..type}=x").is_ok());
    }
}
