//! Reading manifests: files or standard input, several YAML documents each, into checked and
//! defaulted Pods. Every problem names the file and a line:column (YAML) or a field path.

use std::fmt;
use std::io::Read;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_yaml::Value;

use super::defaults;
use super::schema::{self, Finding};
use super::types::Pod;
use super::validate::{self, FieldError};

/// Where a manifest came from and what it says.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user gave it, or `<stdin>`.
    pub name: String,
    pub text: String,
}

impl Source {
    /// `-` reads standard input.
    pub fn read(path: &str) -> Result<Source, ManifestError> {
        let mut text = String::new();
        let res = if path == "-" {
            std::io::stdin().read_to_string(&mut text).map(|_| ())
        } else {
            std::fs::read_to_string(path).map(|t| text = t)
        };
        let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
        res.map_err(|e| ManifestError::Read { file: name.clone(), message: e.to_string() })?;
        Ok(Source { name, text })
    }

    pub fn from_text(name: &str, text: &str) -> Source {
        Source { name: name.to_owned(), text: text.to_owned() }
    }
}

/// A document within a file: `pod.yaml`, or `pod.yaml (document 2)` when there are several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocRef {
    pub file: String,
    /// 1-based; `None` when the file holds one document.
    pub index: Option<usize>,
}

impl fmt::Display for DocRef {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{} (document {i})", self.file),
            None => f.write_str(&self.file),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{file}: cannot read: {message}")]
    Read { file: String, message: String },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    #[error("{doc}: invalid {what}:{}", list(problems))]
    Invalid { doc: DocRef, what: String, problems: Vec<FieldError> },
    #[error("{file}: no Pod in this manifest (podrun runs objects of kind Pod)")]
    NoPod { file: String },
    #[error(
        "{doc}: the namespace {found:?} of the manifest does not match the namespace {given:?} given with --namespace"
    )]
    NamespaceMismatch { doc: DocRef, found: String, given: String },
    #[error("{first} and {second}: both define Pod {pod}")]
    Duplicate { first: String, second: String, pod: String },
}

fn list(problems: &[FieldError]) -> String {
    problems.iter().map(|p| format!("\n  {p}")).collect()
}

#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// From `--namespace`; used where the manifest names none.
    pub namespace: Option<String>,
    /// Fields podrun does not implement (or only a cluster uses) are errors, not warnings.
    pub strict: bool,
}

/// A Pod ready to run: checked and defaulted.
#[derive(Debug, Clone)]
pub struct LoadedPod {
    pub pod: Pod,
    pub doc: DocRef,
}

impl LoadedPod {
    pub fn namespace(&self) -> &str {
        self.pod.metadata.namespace.as_deref().unwrap_or(defaults::DEFAULT_NAMESPACE)
    }

    pub fn name(&self) -> &str {
        &self.pod.metadata.name
    }
}

#[derive(Debug, Default)]
pub struct Loaded {
    pub pods: Vec<LoadedPod>,
    pub warnings: Vec<String>,
}

fn syntax_error(file: &str, e: &serde_yaml::Error) -> ManifestError {
    let (line, column) = e.location().map(|l| (l.line(), l.column())).unwrap_or((0, 0));
    // The location goes in front, as compilers print it; drop serde_yaml's copy of it.
    let message = e.to_string().replace(&format!(" at line {line} column {column}"), "");
    ManifestError::Syntax { file: file.to_owned(), line, column, message }
}

/// Loads every Pod in `source`. Nothing is half-loaded: any error fails the whole source.
pub fn load(source: &Source, opts: &LoadOptions) -> Result<Loaded, ManifestError> {
    let file = source.name.as_str();
    // First pass: generic values, for the kind and the schema walk.
    let mut values = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(&source.text) {
        // Stop at the first error: serde_yaml's document iterator repeats a syntax error forever.
        values.push(Value::deserialize(doc).map_err(|e| syntax_error(file, &e))?);
    }
    let many = values.iter().filter(|v| !v.is_null()).count() > 1;
    let mut out = Loaded::default();
    let mut pod_docs = Vec::new();
    for (i, value) in values.iter().enumerate() {
        if value.is_null() {
            continue; // an empty document, such as after a trailing `---`
        }
        let doc = DocRef { file: file.to_owned(), index: many.then_some(i + 1) };
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let name = value.get("metadata").and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("");
        match kind {
            "Pod" => {}
            "" => {
                return Err(ManifestError::Invalid {
                    doc,
                    what: "object".into(),
                    problems: vec![FieldError::new("kind", "Required value")],
                })
            }
            other => {
                out.warnings.push(format!("{doc}: ignoring {other} {name:?}: podrun runs objects of kind Pod"));
                continue;
            }
        }
        if api_version != "v1" {
            return Err(ManifestError::Invalid {
                doc,
                what: "Pod".into(),
                problems: vec![FieldError::new(
                    "apiVersion",
                    format!("Unsupported value: {api_version:?}: supported values: \"v1\""),
                )],
            });
        }
        check_schema(value, &doc, opts.strict, &mut out.warnings)?;
        pod_docs.push((i, doc));
    }
    if pod_docs.is_empty() {
        return Err(ManifestError::NoPod { file: file.to_owned() });
    }

    // Second pass: typed, straight from the text, so type errors carry a line and column.
    let mut docs = serde_yaml::Deserializer::from_str(&source.text).enumerate();
    for (want, doc) in pod_docs {
        let pod = loop {
            // The first pass read these same documents, so the iterator cannot run out first.
            let Some((i, d)) = docs.next() else { return Err(ManifestError::NoPod { file: file.to_owned() }) };
            if i == want {
                break Pod::deserialize(d).map_err(|e| syntax_error(file, &e))?;
            }
            IgnoredAny::deserialize(d).map_err(|e| syntax_error(file, &e))?;
        };
        out.pods.push(finish_pod(pod, doc, opts, &mut out.warnings)?);
    }
    for (i, a) in out.pods.iter().enumerate() {
        if let Some(b) = out.pods[..i].iter().find(|b| b.namespace() == a.namespace() && b.name() == a.name()) {
            return Err(ManifestError::Duplicate {
                first: b.doc.to_string(),
                second: a.doc.to_string(),
                pod: format!("{}/{}", a.namespace(), a.name()),
            });
        }
    }
    Ok(out)
}

fn check_schema(value: &Value, doc: &DocRef, strict: bool, warnings: &mut Vec<String>) -> Result<(), ManifestError> {
    let mut problems = Vec::new();
    let mut not_yet = Vec::new();
    let mut cluster_only = Vec::new();
    for finding in schema::check_pod(value) {
        match finding {
            Finding::Unknown { path, suggestion } => {
                let field = path.rsplit('.').next().unwrap_or(&path).to_owned();
                let hint = suggestion.map(|s| format!(" (did you mean {s:?}?)")).unwrap_or_default();
                problems.push(FieldError::new(path, format!("unknown field {field:?}{hint}")));
            }
            Finding::WrongShape { path, expected } => {
                problems.push(FieldError::new(path, format!("Invalid value: must be {expected}")));
            }
            Finding::NotYet { path } => not_yet.push(path),
            Finding::ClusterOnly { path } => cluster_only.push(path),
        }
    }
    if strict {
        let why = "not supported by podrun (--strict)";
        problems.extend(not_yet.drain(..).map(|p| FieldError::new(p, format!("{why}: not implemented"))));
        problems
            .extend(cluster_only.drain(..).map(|p| FieldError::new(p, format!("{why}: only meaningful on a cluster"))));
    }
    if !problems.is_empty() {
        return Err(ManifestError::Invalid { doc: doc.clone(), what: "Pod".into(), problems });
    }
    if !not_yet.is_empty() {
        warnings.push(format!(
            "{doc}: podrun does not implement these fields yet and ignores them (--strict refuses them): {}",
            not_yet.join(", ")
        ));
    }
    if !cluster_only.is_empty() {
        warnings.push(format!("{doc}: ignoring fields that only matter on a cluster: {}", cluster_only.join(", ")));
    }
    Ok(())
}

fn finish_pod(
    mut pod: Pod,
    doc: DocRef,
    opts: &LoadOptions,
    warnings: &mut Vec<String>,
) -> Result<LoadedPod, ManifestError> {
    if let (Some(found), Some(given)) = (pod.metadata.namespace.as_deref(), opts.namespace.as_deref()) {
        if !found.is_empty() && found != given {
            return Err(ManifestError::NamespaceMismatch { doc, found: found.into(), given: given.into() });
        }
    }
    // Validate before defaulting, so a missing field is reported as the user wrote it.
    let (problems, warns) = validate::validate_pod(&pod);
    warnings.extend(warns.into_iter().map(|w| format!("{doc}: {w}")));
    if !problems.is_empty() {
        let what = match pod.metadata.name.as_str() {
            "" => "Pod".to_owned(),
            n => format!("Pod {n:?}"),
        };
        return Err(ManifestError::Invalid { doc, what, problems });
    }
    let ns = opts.namespace.as_deref().unwrap_or(defaults::DEFAULT_NAMESPACE);
    defaults::apply(&mut pod, ns);
    Ok(LoadedPod { pod, doc })
}

#[cfg(test)]
mod tests {
    use super::*;

    const POD: &str =
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - {name: c, image: busybox}\n";

    fn load_text(text: &str, opts: &LoadOptions) -> Result<Loaded, ManifestError> {
        load(&Source::from_text("f.yaml", text), opts)
    }

    #[test]
    fn several_documents_with_other_kinds_and_empty_ones() {
        let text = format!(
            "---\n{POD}---\napiVersion: v1\nkind: Service\nmetadata: {{name: s}}\n---\n{}---\n",
            POD.replace("name: a", "name: b")
        );
        let l = load_text(&text, &LoadOptions::default()).unwrap();
        let names: Vec<&str> = l.pods.iter().map(|p| p.name()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(l.pods[1].doc.to_string(), "f.yaml (document 3)");
        assert_eq!(l.warnings.len(), 1);
        assert!(l.warnings[0].contains("ignoring Service \"s\""), "{:?}", l.warnings);
    }

    #[test]
    fn a_single_document_is_named_by_file_alone() {
        let l = load_text(POD, &LoadOptions::default()).unwrap();
        assert_eq!(l.pods[0].doc.to_string(), "f.yaml");
        assert_eq!(l.pods[0].namespace(), "default");
    }

    #[test]
    fn the_namespace_option_fills_in_and_must_agree() {
        let opts = LoadOptions { namespace: Some("x".into()), strict: false };
        assert_eq!(load_text(POD, &opts).unwrap().pods[0].namespace(), "x");
        let with_ns = POD.replace("{name: a}", "{name: a, namespace: y}");
        assert!(matches!(load_text(&with_ns, &opts), Err(ManifestError::NamespaceMismatch { .. })));
    }

    #[test]
    fn the_same_pod_twice_is_an_error() {
        let text = format!("{POD}---\n{POD}");
        let e = load_text(&text, &LoadOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "f.yaml (document 1) and f.yaml (document 2): both define Pod default/a");
    }

    #[test]
    fn kind_and_api_version_are_checked() {
        let e = load_text("metadata: {name: a}\n", &LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("kind: Required value"), "{e}");
        let e = load_text(&POD.replace("apiVersion: v1", "apiVersion: apps/v1"), &LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("apiVersion: Unsupported value: \"apps/v1\""), "{e}");
        assert!(matches!(load_text("", &LoadOptions::default()), Err(ManifestError::NoPod { .. })));
    }

    #[test]
    fn syntax_errors_carry_line_and_column_once() {
        let e = load_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a\n", &LoadOptions::default()).unwrap_err();
        let ManifestError::Syntax { line, column, message, .. } = &e else { panic!("{e}") };
        assert!(*line >= 3 && *column > 0, "{e}");
        assert!(!message.contains(&format!("at line {line} column {column}")), "{e}");
        assert!(e.to_string().starts_with(&format!("f.yaml:{line}:{column}: ")), "{e}");
    }

    #[test]
    fn unimplemented_and_cluster_fields_warn_and_strict_refuses_them() {
        let text = POD.replace("spec:\n", "spec:\n  nodeSelector: {a: b}\n  hostNetwork: true\n");
        let l = load_text(&text, &LoadOptions::default()).unwrap();
        assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
        assert!(l.warnings.iter().any(|w| w.contains("spec.hostNetwork") && w.contains("does not implement")));
        assert!(l.warnings.iter().any(|w| w.contains("spec.nodeSelector") && w.contains("cluster")));
        let e = load_text(&text, &LoadOptions { namespace: None, strict: true }).unwrap_err();
        assert!(e.to_string().contains("spec.hostNetwork") && e.to_string().contains("spec.nodeSelector"), "{e}");
    }
}
