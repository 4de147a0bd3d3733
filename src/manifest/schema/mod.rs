//! The Kubernetes core/v1 Pod schema, as podrun sees it.
//!
//! A user's manifest is parsed into a loose [`serde_yaml::Value`], so nothing stops a typo such
//! as `comand` or `imagePullpolicy` from being silently dropped. This module walks that value
//! against a static copy of the Pod schema (Kubernetes v1.35, plus the fields added up to v1.37,
//! since manifests copied from current documentation already use them) and reports, in
//! document order:
//!
//! - keys that are not Pod fields at all ([`Finding::Unknown`], with a "did you mean"),
//! - values of the wrong kind, e.g. a string where a list is required ([`Finding::WrongShape`]),
//! - fields Kubernetes knows but podrun does not implement yet ([`Finding::NotYet`]),
//! - fields that only mean something on a cluster, which podrun ignores
//!   ([`Finding::ClusterOnly`]);
//! - fields of features whose gates are off by default, which a default API server drops
//!   ([`Finding::Gated`]);
//! - and, added by [`add_invalid`], values the API server refuses in the fields podrun keeps no
//!   type for ([`Finding::Invalid`], found by `validate::validate_unread`).
//!
//! Fields podrun implements produce nothing, and neither do fields it refuses
//! ([`Support::Refused`]): validation refuses those with a message naming the feature, and a
//! "not implemented yet" warning beside that error would only blur it. Whether a field is
//! implemented is recorded once, next to the field's name in the tables (`table.rs`). The
//! same walk checks ConfigMap and Secret documents and the pod templates of
//! workloads (Deployments and the like).

mod field;
mod table;

use serde_yaml::Value;

use crate::manifest::validate::FieldError;
use crate::manifest::yaml::trail::{self, key_text, untagged, Step, Trail};
pub use field::Support;
use field::{Field, Shape};
#[cfg(test)]
use table::POD_SPEC;
use table::{CONFIG_MAP, POD, POD_TEMPLATE_SPEC, SECRET};

/// One finding of the walk. `path` uses Kubernetes field-path syntax: `spec.containers[1].comand`,
/// `metadata.labels` (map keys of free-form maps are never checked), `spec.volumes[0].hostPath.type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The key is not a field of the Pod schema at this place. `suggestion` is the sibling
    /// field it most likely meant, if one is close enough; `trail` leads to the key from the
    /// value walked (the prefix of [`check_pod_template`] included), for `locate.rs` to place
    /// it in the text and `yaml/drop_unknown.rs` to drop it.
    Unknown { path: String, suggestion: Option<String>, trail: Trail },
    /// A Kubernetes field podrun does not implement yet.
    NotYet { path: String },
    /// A field that only makes sense on a cluster; podrun ignores it.
    ClusterOnly { path: String },
    /// A field of a feature whose gate is off by default: dropped, as a default API server
    /// drops it.
    Gated { path: String, gate: &'static str },
    /// The value has the wrong kind, e.g. a scalar where an object or a list is required.
    /// `expected` is "an object", "a map", "a list" or "a scalar".
    WrongShape { path: String, expected: &'static str },
    /// A value the API server refuses in a field podrun keeps no type for (cluster-only and
    /// not-yet-implemented fields, a workload's own fields, a claim's spec): see
    /// `validate::validate_unread`, which finds these on the same document.
    Invalid(FieldError),
}

/// Walk a whole Pod document (the root mapping with apiVersion, kind, metadata, spec, status).
pub fn check_pod(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(POD), "", false);
    walk.findings
}

/// Walk a PodSpec, paths prefixed with `prefix` (e.g. "spec.template.spec").
#[cfg(test)]
pub fn check_pod_spec(spec: &Value, prefix: &str) -> Vec<Finding> {
    let mut walk = Walk::at(prefix);
    walk.value(spec, Shape::Object(POD_SPEC), prefix, false);
    walk.findings
}

/// Walk a PodTemplateSpec (a workload's `spec.template`: metadata and a PodSpec), paths
/// prefixed with `prefix` (e.g. "spec.template").
pub fn check_pod_template(template: &Value, prefix: &str) -> Vec<Finding> {
    let mut walk = Walk::at(prefix);
    walk.value(template, Shape::Object(POD_TEMPLATE_SPEC), prefix, false);
    walk.findings
}

/// Walk a whole ConfigMap document.
pub fn check_config_map(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(CONFIG_MAP), "", false);
    walk.findings
}

/// Walk a whole Secret document. Findings name fields, never values.
pub fn check_secret(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(SECRET), "", false);
    walk.findings
}

/// Adds `problems` (from `validate::validate_unread`) to `findings` as [`Finding::Invalid`],
/// except those at a field the walk already found of the wrong shape (or above one): that
/// field's one error is its shape.
pub fn add_invalid(findings: &mut Vec<Finding>, problems: Vec<FieldError>) {
    let shapes: Vec<String> = findings
        .iter()
        .filter_map(|f| match f {
            Finding::WrongShape { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    let covers = |problem: &str, shape: &str| {
        shape.strip_prefix(problem).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    };
    findings.extend(problems.into_iter().filter(|p| !shapes.iter().any(|s| covers(&p.path, s))).map(Finding::Invalid));
}

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

struct Walk {
    findings: Vec<Finding>,
    /// The steps to the value being walked.
    steps: Trail,
}

impl Walk {
    /// A walk of a value found at `prefix` (`spec.template`), or of a whole document.
    fn at(prefix: &str) -> Walk {
        Walk { findings: Vec::new(), steps: trail::of_prefix(prefix) }
    }

    /// Walks `value` one step further down.
    fn below(&mut self, step: Step, value: &Value, shape: Shape, path: &str, muted: bool) {
        self.steps.push(step);
        self.value(value, shape, path, muted);
        self.steps.pop();
    }

    /// `muted` is set below a field podrun does not implement: that field's own finding already
    /// covers its subtree, so only errors (typos, wrong shapes) are reported there.
    fn value(&mut self, value: &Value, shape: Shape, path: &str, muted: bool) {
        let value = untagged(value);
        match (shape, value) {
            // Kubernetes treats null as absent, whatever the field.
            (_, Value::Null) | (Shape::Any, _) => {}
            (Shape::Scalar, Value::Mapping(_) | Value::Sequence(_)) => self.wrong_shape(path, "a scalar"),
            (Shape::Scalar, _) => {}
            (Shape::Scalars, Value::Sequence(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.below(Step::Index(i), item, Shape::Scalar, &format!("{path}[{i}]"), muted);
                }
            }
            (Shape::Map, Value::Mapping(map)) => {
                for (key, item) in map {
                    let name = key_text(key);
                    let path = format!("{path}[{name}]");
                    self.below(Step::Key(name), item, Shape::Scalar, &path, muted);
                }
            }
            (Shape::Object(fields), Value::Mapping(map)) => self.object(map, fields, path, muted),
            (Shape::Objects(fields), Value::Sequence(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let item_path = format!("{path}[{i}]");
                    self.below(Step::Index(i), item, Shape::Object(fields), &item_path, muted);
                }
            }
            (Shape::Scalars | Shape::Objects(_), _) => self.wrong_shape(path, "a list"),
            (Shape::Map, _) => self.wrong_shape(path, "a map"),
            (Shape::Object(_), _) => self.wrong_shape(path, "an object"),
        }
    }

    fn object(&mut self, map: &serde_yaml::Mapping, fields: &[Field], path: &str, muted: bool) {
        for (key, value) in map {
            let key = untagged(key);
            let name = key_text(key);
            let child = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
            let field = match key {
                Value::String(s) => fields.iter().find(|f| f.name == s),
                _ => None,
            };
            let Some(field) = field else {
                let suggestion = match key {
                    Value::String(s) => suggest(s, fields),
                    _ => None,
                };
                let mut trail = self.steps.clone();
                trail.push(Step::Key(name));
                self.findings.push(Finding::Unknown { path: child, suggestion, trail });
                continue;
            };
            // An empty map or list asks for nothing, and `kubectl run -o yaml` emits
            // `resources: {}` and `status: {}`: warning about those would only be noise.
            if !muted && !asks_for_nothing(value) {
                match field.support {
                    Support::Implemented | Support::Refused => {}
                    Support::NotYet => self.findings.push(Finding::NotYet { path: child.clone() }),
                    Support::ClusterOnly => self.findings.push(Finding::ClusterOnly { path: child.clone() }),
                    Support::Gated(gate) => self.findings.push(Finding::Gated { path: child.clone(), gate }),
                }
            }
            let muted = muted || field.support != Support::Implemented;
            self.below(Step::Key(name), value, field.shape, &child, muted);
        }
    }

    fn wrong_shape(&mut self, path: &str, expected: &'static str) {
        let path = if path.is_empty() { "<root>" } else { path };
        self.findings.push(Finding::WrongShape { path: path.to_string(), expected });
    }
}

fn asks_for_nothing(value: &Value) -> bool {
    match untagged(value) {
        Value::Null => true,
        Value::Mapping(map) => map.is_empty(),
        Value::Sequence(items) => items.is_empty(),
        _ => false,
    }
}

/// The sibling field `key` most likely meant. Only close matches count: a far-fetched
/// suggestion misleads more than none.
fn suggest(key: &str, fields: &[Field]) -> Option<String> {
    let limit = (key.chars().count() / 3).max(1);
    fields
        .iter()
        .map(|field| (edit_distance(key, field.name), field.name))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name.to_string())
}

/// Case-insensitive optimal-string-alignment distance (Levenshtein plus adjacent transpositions,
/// the most common typing slip: `contianers`).
fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(&a.to_lowercase(), &b.to_lowercase())
}

#[cfg(test)]
mod serde_fields_tests;
#[cfg(test)]
mod tests;
