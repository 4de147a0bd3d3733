//! YAML merge keys (`<<: *base`), which Kubernetes' YAML reader (go-yaml) applies: the
//! mapping (or each mapping of a list, earlier ones first) under `<<` is merged into the
//! mapping holding it, whose own keys win. Applied at every level, before the schema walk, so
//! `<<` is never taken for an unknown field.

use serde_yaml::{Mapping, Value};

use super::trail::key_text;

/// A `<<` whose value is not a mapping or a list of mappings; `path` is the mapping's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    pub path: String,
}

impl MergeError {
    pub const MESSAGE: &'static str = "Invalid value: map merge requires map or sequence of maps as the value";
}

/// Applies every merge key in `value`; whether there was any.
pub fn apply(value: &mut Value) -> Result<bool, MergeError> {
    walk(value, "")
}

fn untag(v: Value) -> Value {
    match v {
        Value::Tagged(t) => untag(t.value),
        v => v,
    }
}

fn child(path: &str, key: &Value) -> String {
    let name = key_text(key);
    if path.is_empty() {
        name
    } else {
        format!("{path}.{name}")
    }
}

fn walk(value: &mut Value, path: &str) -> Result<bool, MergeError> {
    match value {
        Value::Mapping(map) => {
            let mut merged = false;
            if let Some(source) = map.remove("<<") {
                merged = true;
                let wrong =
                    || MergeError { path: if path.is_empty() { "<<".to_owned() } else { format!("{path}.<<") } };
                let sources = match untag(source) {
                    Value::Mapping(m) => vec![m],
                    Value::Sequence(items) => items
                        .into_iter()
                        .map(|i| match untag(i) {
                            Value::Mapping(m) => Ok(m),
                            _ => Err(wrong()),
                        })
                        .collect::<Result<Vec<Mapping>, _>>()?,
                    _ => return Err(wrong()),
                };
                for source in sources {
                    // A source may merge others in turn.
                    let mut source = Value::Mapping(source);
                    walk(&mut source, path)?;
                    if let Value::Mapping(source) = source {
                        for (k, v) in source {
                            map.entry(k).or_insert(v);
                        }
                    }
                }
            }
            for (k, v) in map.iter_mut() {
                merged |= walk(v, &child(path, k))?;
            }
            Ok(merged)
        }
        Value::Sequence(items) => {
            let mut merged = false;
            for (i, item) in items.iter_mut().enumerate() {
                merged |= walk(item, &format!("{path}[{i}]"))?;
            }
            Ok(merged)
        }
        Value::Tagged(t) => walk(&mut t.value, path),
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(text: &str) -> Result<Value, MergeError> {
        let mut v: Value = serde_yaml::from_str(text).unwrap();
        apply(&mut v).map(|_| v)
    }

    #[test]
    fn own_keys_win_and_earlier_sources_win_over_later_ones() {
        let v = merged("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 3\n").unwrap();
        let c: Value = serde_yaml::from_str("{x: 3, y: 1, z: 2}").unwrap();
        assert_eq!(v["c"], c);
    }

    #[test]
    fn merges_nest_and_apply_at_every_level() {
        let text = "base: &base {image: busybox, env: [{name: A, value: a}]}\nmore: &more {<<: *base, name: m}\n\
                    spec:\n  containers:\n  - <<: *more\n    name: c\n";
        let v = merged(text).unwrap();
        let c = &v["spec"]["containers"][0];
        assert_eq!((c["name"].as_str(), c["image"].as_str()), (Some("c"), Some("busybox")));
        assert!(c.get("<<").is_none());
        let mut plain: Value = serde_yaml::from_str("a: 1").unwrap();
        assert_eq!(apply(&mut plain), Ok(false));
    }

    #[test]
    fn a_scalar_to_merge_is_an_error_at_its_path() {
        let e = merged("spec:\n  containers:\n  - <<: 5\n").unwrap_err();
        assert_eq!(e.path, "spec.containers[0].<<");
        assert_eq!(merged("<<: [a]\n").unwrap_err().path, "<<");
    }
}
