//! Reading manifests: files or standard input, several YAML documents each, into checked and
//! defaulted Pods, and the ConfigMaps, Secrets and claims beside them. Every problem names the
//! file and a line:column (YAML) or a field path.
//!
//! Pods come from Pod documents and from the pod templates of workloads (`template_pod.rs`);
//! `List`s are read item by item (`documents.rs`). Nothing is half-loaded: any error fails the
//! whole load, before anything could be created; the load still reads every document of every
//! source, so that the error names each bad one. Unknown fields are placed in the text
//! (`yaml/locate.rs`), and dropped from the typed reading under `--validate=warn|ignore`
//! (`yaml/drop_unknown.rs`).

mod documents;
mod error;
mod loaded;
mod options;
mod source;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use serde::de::DeserializeSeed;
use serde_yaml::Value;

use crate::manifest::defaults;
use crate::manifest::template_pod;
use crate::manifest::types::{ConfigMap, ObjectMeta, PersistentVolumeClaim, Pod, Secret};
use crate::manifest::types::{Workload, WorkloadKind};
use crate::manifest::validate::{self, FieldError};
use crate::manifest::yaml::budget::{self, Budgeted};
use crate::manifest::yaml::locate;
use crate::manifest::yaml::merge;
use crate::manifest::yaml::nesting;
use crate::manifest::yaml::trail::{Place, Trail};
use documents::{sort_findings, Checked, Classifier, Early, Plan, PlanSeed, Typed};

pub use error::{DocRef, ManifestError};
pub use loaded::{Loaded, LoadedPod};
pub use options::{FieldValidation, LoadOptions};
pub use source::Source;

use error::{located_error, redact};

/// Two pods of one namespace and name, each pair once.
fn duplicate_pods(pods: &[LoadedPod]) -> Vec<ManifestError> {
    let mut seen: HashMap<(&str, &str), &DocRef> = HashMap::with_capacity(pods.len());
    let mut out = Vec::new();
    for a in pods {
        if let Some(b) = seen.insert((a.namespace(), a.name()), &a.doc) {
            out.push(ManifestError::Duplicate {
                first: b.to_string(),
                second: a.doc.to_string(),
                pod: format!("{}/{}", a.namespace(), a.name()),
            });
        }
    }
    out
}

/// What an invalid pod is called in its error: the Pod, or the workload it is the template of,
/// by namespace and name.
fn what(kind: Option<WorkloadKind>, namespace: &str, name: &str) -> String {
    let kind = kind.map_or_else(|| "Pod".to_owned(), |k| k.to_string());
    what_object(&kind, Some(namespace), name)
}

/// An object in an error: `Pod "ns/name"`, or its kind alone when it has no name.
pub(crate) fn what_object(kind: &str, namespace: Option<&str>, name: &str) -> String {
    match (namespace.unwrap_or(defaults::DEFAULT_NAMESPACE), name) {
        (_, "") => kind.to_owned(),
        (ns, n) => format!("{kind} {:?}", format!("{ns}/{n}")),
    }
}

/// One document after the first pass: its plan, the document itself where merge keys changed
/// it (the second pass must then read the merged value, not the text), and what the schema
/// walk found, to be said with what the typed reading finds.
type DocPlan = (Plan, Option<Value>, Early);

/// A document whose merge keys cannot be applied, as the error naming its object.
fn merge_failed(value: &Value, e: merge::MergeError, doc: DocRef, namespace: Option<&str>) -> ManifestError {
    let kind = value.get("kind").and_then(Value::as_str).filter(|k| !k.is_empty()).unwrap_or("object");
    let meta = |key: &str| value.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str);
    let ns = meta("namespace").or(namespace);
    let what = what_object(kind, ns, meta("name").unwrap_or_default());
    let problems = vec![FieldError::new(e.path, merge::MergeError::MESSAGE)];
    ManifestError::Invalid { doc, what, problems }
}

/// Problems of objects, each as one error.
fn invalid_all(found: Early) -> impl Iterator<Item = ManifestError> {
    found.into_iter().map(|(doc, what, problems)| ManifestError::Invalid { doc, what, problems })
}

/// Loads every Pod in `source`, and the ConfigMaps, Secrets and claims beside them.
#[cfg(test)]
pub fn load(source: &Source, opts: &LoadOptions) -> Result<Loaded, ManifestError> {
    load_all(std::slice::from_ref(source), &[], opts)
}

/// Loads the manifests in `sources` (Pods, workloads, ConfigMaps, Secrets, claims) and the
/// ConfigMaps and Secrets of `config_sources` (`--config` files, which may hold nothing else).
/// An error in any of them fails the whole load.
pub fn load_all(sources: &[Source], config_sources: &[Source], opts: &LoadOptions) -> Result<Loaded, ManifestError> {
    let mut loader =
        Loader { opts, out: Loaded::default(), objects: BTreeMap::new(), errors: Vec::new(), kinds: Vec::new() };
    for s in sources {
        loader.source(s, false);
    }
    for s in config_sources {
        loader.source(s, true);
    }
    loader.finish(sources)
}

/// The objects read so far, by identity, for duplicate checks.
type ObjectKey = (String, &'static str, String);

struct Loader<'o> {
    opts: &'o LoadOptions,
    out: Loaded,
    /// (namespace, kind, name) of each ConfigMap, Secret and claim, and where it came from.
    objects: BTreeMap<ObjectKey, DocRef>,
    /// Every problem met so far: a bad document does not stop the others from being checked.
    errors: Vec<ManifestError>,
    /// The workload each of `out.pods` is the template of, if any.
    kinds: Vec<Option<WorkloadKind>>,
}

/// Documents of one text read again, for the places of unknown keys (`yaml/locate.rs`): a second
/// reader, moved on only as far as a document that needs it, so each document is read again
/// once at most.
struct Rereader<'t> {
    text: &'t str,
    docs: Option<(serde_yaml::Deserializer<'t>, usize)>,
}

impl Rereader<'_> {
    /// The places of `trails` in document `index`.
    fn places(&mut self, index: usize, trails: &[Trail]) -> Vec<Option<Place>> {
        let (docs, next) = self.docs.get_or_insert_with(|| (serde_yaml::Deserializer::from_str(self.text), 0));
        let doc = index.checked_sub(*next).and_then(|skip| docs.nth(skip));
        *next = index + 1;
        match doc {
            Some(doc) => locate::keys(doc, trails),
            None => vec![None; trails.len()],
        }
    }
}

impl Loader<'_> {
    /// Loads one source; its problems join `errors`.
    fn source(&mut self, source: &Source, config_only: bool) {
        if let Err(e) = self.documents(source, config_only) {
            self.errors.push(e);
        }
    }

    /// Loads the documents of one source: an error that ends the source (it cannot be read as
    /// YAML to its end) is returned; one within a document joins `errors`, and the next
    /// document is read.
    fn documents(&mut self, source: &Source, config_only: bool) -> Result<(), ManifestError> {
        let file = source.name.as_str();
        self.out.warnings.extend(source.warning.iter().cloned());
        // Depth first, in one linear pass: serde_yaml's scanner takes time quadratic in the
        // depth of flow collections before its own limit applies.
        let outline = nesting::scan(&source.text, nesting::MAX_DEPTH).map_err(|d| ManifestError::Syntax {
            file: file.to_owned(),
            line: d.line,
            column: d.column,
            message: format!("nesting deeper than {} levels", d.limit),
        })?;
        let located = |i: usize, e: &serde_yaml::Error| located_error(file, e, outline.doc_lines.get(i).copied());
        let text = nesting::unquote_tagged(&source.text, &outline);
        // Each with its document's index: the second pass finds its own after the first's.
        let mut errors: Vec<(usize, ManifestError)> = Vec::new();
        let many = outline.nonempty_docs > 1;
        let plans = self.plan_documents(source, &text, config_only, many, &located, &mut errors)?;
        self.read_typed(&text, plans, &located, &mut errors);
        errors.sort_by_key(|(i, _)| *i);
        self.errors.extend(errors.into_iter().map(|(_, e)| e));
        Ok(())
    }

    /// The first pass over `text` (the text of `source`, its tagged keys unquoted): generic
    /// values, for the kind and the schema walk, a document at a time, each document's plan
    /// for the second. Problems of a document join `errors`; a syntax error ends the source.
    fn plan_documents(
        &mut self,
        source: &Source,
        text: &str,
        config_only: bool,
        many: bool,
        located: &impl Fn(usize, &serde_yaml::Error) -> ManifestError,
        errors: &mut Vec<(usize, ManifestError)>,
    ) -> Result<Vec<DocPlan>, ManifestError> {
        let file = source.name.as_str();
        // Aliases may not make more values than the text holds plus an allowance (`yaml/budget.rs`).
        let mut budget = budget::for_text(&source.text);
        let mut classifier =
            Classifier { config_only, warnings: &mut self.out.warnings, namespace: self.opts.namespace.as_deref() };
        let mut again = Rereader { text, docs: None };
        let mut plans = Vec::new();
        for (i, doc) in serde_yaml::Deserializer::from_str(text).enumerate() {
            // Stop at the first error: serde_yaml's document iterator repeats a syntax error forever.
            let mut value = Budgeted { left: &mut budget }.deserialize(doc).map_err(|e| located(i, &e))?;
            if value.is_null() {
                plans.push((Plan::Skip, None, Vec::new())); // an empty document, such as after a trailing `---`
                continue;
            }
            let doc = DocRef { file: file.to_owned(), index: many.then_some(i + 1), item: None };
            let merged = match merge::apply(&mut value) {
                Ok(merged) => merged,
                Err(e) => {
                    errors.push((i, merge_failed(&value, e, doc, self.opts.namespace.as_deref())));
                    plans.push((Plan::Skip, None, Vec::new()));
                    continue;
                }
            };
            let mut checked = Vec::new();
            let plan = match classifier.classify(&value, doc, &[], &mut checked) {
                Ok(plan) => plan,
                Err(e) => {
                    errors.push((i, e));
                    plans.push((Plan::Skip, None, Vec::new()));
                    continue;
                }
            };
            // Unknown keys are said with their place, unless merge keys moved them about.
            let trails: Vec<Trail> = match self.opts.unknown_fields {
                FieldValidation::Ignore => Vec::new(),
                _ if merged => Vec::new(),
                _ => checked.iter().flat_map(Checked::unknown_trails).collect(),
            };
            let places = if trails.is_empty() { Vec::new() } else { again.places(i, &trails) };
            let (early, now) = sort_findings(checked, &mut places.into_iter(), self.opts, classifier.warnings);
            let plan = if now.is_empty() { plan } else { Plan::Skip };
            errors.extend(invalid_all(now).map(|e| (i, e)));
            plans.push((plan, merged.then_some(value), early));
        }
        Ok(plans)
    }

    /// The second pass: typed, straight from the text, so type errors carry a line and column;
    /// each document's objects are checked as soon as they are read.
    fn read_typed(
        &mut self,
        text: &str,
        plans: Vec<DocPlan>,
        located: &impl Fn(usize, &serde_yaml::Error) -> ManifestError,
        errors: &mut Vec<(usize, ManifestError)>,
    ) {
        let mut typed = Vec::new();
        let docs = serde_yaml::Deserializer::from_str(text);
        for (i, (d, (plan, merged, mut early))) in docs.zip(plans).enumerate() {
            let seed = PlanSeed { plan: &plan, out: &mut typed };
            let read = match merged {
                Some(value) => seed.deserialize(value),
                None => seed.deserialize(d),
            };
            if read.is_err() && !early.is_empty() {
                // Read typed, the wrong shapes found are type errors: said once, as found.
                errors.extend(invalid_all(early).map(|e| (i, e)));
                typed.clear();
                continue;
            }
            if let Err(e) = read {
                let mut err = located(i, &e);
                if let (ManifestError::Syntax { message, .. }, true) = (&mut err, plan.has_secret()) {
                    *message = redact(message);
                }
                errors.push((i, err));
                // A document is loaded whole or not at all: the List items read before go too.
                typed.clear();
                continue;
            }
            for (doc, object) in typed.drain(..) {
                let found = early.iter().position(|(d, ..)| *d == doc).map(|k| early.remove(k).2).unwrap_or_default();
                let done = match object {
                    Typed::Pod(pod) => self.finish_pod(pod, doc, None, found).map(|loaded| self.push_pod(loaded, None)),
                    Typed::Workload(kind, w) => self.workload(kind, w, &doc, found),
                    Typed::ConfigMap(cm) => self.config_map(&cm, doc),
                    Typed::Secret(secret) => self.secret(&secret, doc),
                    Typed::Claim(claim) => self.claim(claim, doc),
                };
                if let Err(e) = done {
                    errors.push((i, e));
                }
            }
        }
    }

    fn finish(self, sources: &[Source]) -> Result<Loaded, ManifestError> {
        let (out, mut errors) = (self.out, self.errors);
        // Pods of documents that loaded may clash even when others did not load: said too.
        errors.extend(duplicate_pods(&out.pods));
        // What a pod makes of the ConfigMaps and Secrets, which may come after it.
        for (p, kind) in out.pods.iter().zip(&self.kinds) {
            let mut problems = validate::validate_config_refs(&p.pod, p.namespace(), &out.configs);
            if problems.is_empty() {
                continue;
            }
            if kind.is_some() {
                for e in &mut problems {
                    e.path = template_pod::workload_path(&e.path);
                }
            }
            errors.push(ManifestError::Invalid {
                doc: p.doc.clone(),
                what: what(*kind, p.namespace(), p.name()),
                problems,
            });
        }
        if let Some(e) = ManifestError::of(errors) {
            return Err(e);
        }
        if out.pods.is_empty() {
            let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
            let file = if names.is_empty() { "<no manifest>".to_owned() } else { names.join(", ") };
            return Err(ManifestError::NoPod { file });
        }
        Ok(out)
    }

    /// The namespace an object lands in: its own, else `--namespace`, else `default`. A
    /// manifest naming another namespace than `--namespace` is an error, as with kubectl.
    fn namespace(&self, meta: &ObjectMeta, doc: &DocRef) -> Result<String, ManifestError> {
        let found = meta.namespace.as_deref().filter(|n| !n.is_empty());
        match (found, self.opts.namespace.as_deref()) {
            (Some(found), Some(given)) if found != given => {
                Err(ManifestError::NamespaceMismatch { doc: doc.clone(), found: found.into(), given: given.into() })
            }
            (Some(ns), _) | (None, Some(ns)) => Ok(ns.to_owned()),
            (None, None) => Ok(defaults::DEFAULT_NAMESPACE.to_owned()),
        }
    }

    /// Validates and defaults a pod. `workload` is set for a pod made from a workload's
    /// template: its problems are reported at the workload's paths, as the workload's.
    /// `early`: what the schema walk found wrong in its document, said first, with the rest.
    fn finish_pod(
        &mut self,
        mut pod: Pod,
        doc: DocRef,
        workload: Option<(WorkloadKind, Vec<FieldError>)>,
        early: Vec<FieldError>,
    ) -> Result<LoadedPod, ManifestError> {
        let ns = self.namespace(&pod.metadata, &doc)?;
        // Validate before defaulting, so a missing field is reported as the user wrote it;
        // only what the API server defaults while decoding comes first.
        defaults::apply_before_validation(&mut pod);
        let (mut problems, warns) = validate::validate_pod(&pod);
        let what = what(workload.as_ref().map(|(k, _)| *k), &ns, &pod.metadata.name);
        let warns = match &workload {
            None => warns,
            Some(_) => warns.iter().map(|w| template_pod::workload_path(w)).collect(),
        };
        self.out.warnings.extend(warns.into_iter().map(|w| format!("{doc}: {w}")));
        if let Some((_, own)) = workload {
            for p in &mut problems {
                p.path = template_pod::workload_path(&p.path);
            }
            problems.splice(0..0, own);
        }
        // One line a field: what the schema walk said of a field comes first and stands for it.
        problems.retain(|p| !early.iter().any(|e| e.path == p.path));
        problems.splice(0..0, early);
        if !problems.is_empty() {
            return Err(ManifestError::Invalid { doc, what, problems });
        }
        if let Some(w) = defaults::uid_warning(&pod, &ns) {
            self.out.warnings.push(format!("{doc}: {w}"));
        }
        defaults::apply(&mut pod, &ns);
        Ok(LoadedPod { pod, doc })
    }

    fn workload(
        &mut self,
        kind: WorkloadKind,
        w: Workload,
        doc: &DocRef,
        early: Vec<FieldError>,
    ) -> Result<(), ManifestError> {
        let t = template_pod::template_pod(kind, w);
        self.out.warnings.extend(t.warnings.iter().map(|w| format!("{doc}: {w}")));
        let loaded = self.finish_pod(t.pod, doc.clone(), Some((kind, t.problems)), early)?;
        for claim in t.claims {
            let key = (loaded.namespace().to_owned(), "PersistentVolumeClaim", claim);
            self.record(key, doc)?;
        }
        self.push_pod(loaded, Some(kind));
        Ok(())
    }

    fn push_pod(&mut self, loaded: LoadedPod, kind: Option<WorkloadKind>) {
        self.out.pods.push(loaded);
        self.kinds.push(kind);
    }

    /// Remembers an object; the same one twice is an error naming both documents.
    fn record(&mut self, key: ObjectKey, doc: &DocRef) -> Result<(), ManifestError> {
        if let Some(first) = self.objects.get(&key) {
            return Err(ManifestError::DuplicateObject {
                first: first.to_string(),
                second: doc.to_string(),
                kind: key.1,
                name: format!("{}/{}", key.0, key.2),
            });
        }
        if key.1 == "PersistentVolumeClaim" {
            self.out.claims.push((key.0.clone(), key.2.clone()));
        }
        self.objects.insert(key, doc.clone());
        Ok(())
    }

    fn config_map(&mut self, cm: &ConfigMap, doc: DocRef) -> Result<(), ManifestError> {
        let ns = self.namespace(&cm.metadata, &doc)?;
        let problems = validate::validate_config_map(cm);
        if !problems.is_empty() {
            return Err(ManifestError::Invalid { doc, what: format!("ConfigMap {:?}", cm.metadata.name), problems });
        }
        self.record((ns.clone(), "ConfigMap", cm.metadata.name.clone()), &doc)?;
        self.out.configs.add_config_map(&ns, cm).map_err(|error| ManifestError::Config { doc, error: Box::new(error) })
    }

    fn secret(&mut self, secret: &Secret, doc: DocRef) -> Result<(), ManifestError> {
        let ns = self.namespace(&secret.metadata, &doc)?;
        let what = format!("Secret {:?}", secret.metadata.name);
        let problems = validate::validate_secret(secret);
        if !problems.is_empty() {
            return Err(ManifestError::Invalid { doc, what, problems });
        }
        self.record((ns.clone(), "Secret", secret.metadata.name.clone()), &doc)?;
        let decoded = self.out.configs.add_secret(&ns, secret);
        decoded.map_err(|error| ManifestError::Config { doc: doc.clone(), error: Box::new(error) })?;
        // Which keys a typed Secret must hold is known only once `data` is decoded.
        if let Some(entries) = self.out.configs.secret(&ns, &secret.metadata.name) {
            let problems = validate::validate_secret_type(secret.type_.as_deref(), entries);
            if !problems.is_empty() {
                return Err(ManifestError::Invalid { doc, what, problems });
            }
        }
        Ok(())
    }

    fn claim(&mut self, claim: PersistentVolumeClaim, doc: DocRef) -> Result<(), ManifestError> {
        let ns = self.namespace(&claim.metadata, &doc)?;
        let problems = validate::validate_claim(&claim);
        if !problems.is_empty() {
            let what = format!("PersistentVolumeClaim {:?}", claim.metadata.name);
            return Err(ManifestError::Invalid { doc, what, problems });
        }
        self.record((ns, "PersistentVolumeClaim", claim.metadata.name), &doc)
    }
}
