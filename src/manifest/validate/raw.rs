//! Reading, straight from a document, the fields the Pod's type leaves out (cluster-only and
//! not-yet-implemented ones, and a workload's own fields): each field is read on its own, so
//! a value of the wrong type is an error at that field and the other fields are still checked.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_yaml::Value;

use super::FieldError;
use crate::manifest::yaml::strict;

/// A string field's value: only a string, as the API server takes it (`strict.rs`).
#[derive(Debug, Deserialize)]
pub(super) struct Text(#[serde(deserialize_with = "strict::string")] pub String);

/// `key` of `object`, absent when missing or `null` (Kubernetes treats null as absent).
pub(super) fn get<'v>(object: &'v Value, key: &str) -> Option<&'v Value> {
    match untagged(object) {
        Value::Mapping(map) => map.get(key).map(untagged).filter(|v| !v.is_null()),
        _ => None,
    }
}

/// `path.key`, or `key` at the root.
pub(super) fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// `key` of `object` as a `T`; a value that is not one is reported at `path.key`.
pub(super) fn field<T: DeserializeOwned>(
    object: &Value,
    key: &str,
    path: &str,
    errors: &mut Vec<FieldError>,
) -> Option<T> {
    let value = get(object, key)?;
    match serde_yaml::from_value(without_nulls(value)) {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(FieldError::new(child(path, key), format!("Invalid value: {e}")));
            None
        }
    }
}

/// The items of the list at `key` (none when it is absent or not a list; the schema walk
/// reports the wrong shape).
pub(super) fn items<'v>(object: &'v Value, key: &str) -> &'v [Value] {
    match get(object, key) {
        Some(Value::Sequence(items)) => items,
        _ => &[],
    }
}

/// Whether `key` is set (present and not null).
pub(super) fn has(object: &Value, key: &str) -> bool {
    get(object, key).is_some()
}

fn untagged(value: &Value) -> &Value {
    match value {
        Value::Tagged(t) => untagged(&t.value),
        v => v,
    }
}

/// `value` with every `null` map entry removed: `key: null` means the key is absent, which
/// serde only knows for missing keys.
fn without_nulls(value: &Value) -> Value {
    match untagged(value) {
        Value::Mapping(map) => Value::Mapping(
            map.iter().filter(|(_, v)| !untagged(v).is_null()).map(|(k, v)| (k.clone(), without_nulls(v))).collect(),
        ),
        Value::Sequence(items) => Value::Sequence(items.iter().map(without_nulls).collect()),
        v => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_one_by_one() {
        let v: Value = serde_yaml::from_str("{a: 5, b: x, c: null, d: {e: null, f: 1}}").unwrap();
        let mut errors = Vec::new();
        assert_eq!(field::<i64>(&v, "a", "spec", &mut errors), Some(5));
        assert_eq!(field::<i64>(&v, "b", "spec", &mut errors), None);
        assert_eq!(field::<i64>(&v, "c", "spec", &mut errors), None);
        assert_eq!(field::<i64>(&v, "missing", "spec", &mut errors), None);
        #[derive(serde::Deserialize)]
        struct D {
            #[serde(default)]
            e: Vec<String>,
            f: i32,
        }
        let d = field::<D>(&v, "d", "spec", &mut errors).unwrap();
        assert_eq!((d.e.len(), d.f), (0, 1));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().starts_with("spec.b: Invalid value: invalid type: string \"x\""), "{errors:?}");
        assert!(!has(&v, "c") && has(&v, "a"));
        assert_eq!(child("", "metadata"), "metadata");
    }
}
