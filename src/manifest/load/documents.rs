//! What a manifest file holds, document by document: which kinds podrun reads (Pods,
//! workloads, ConfigMaps, Secrets, PersistentVolumeClaims, and `List`s of them), which it
//! skips, and the typed reading of each.
//!
//! Reading is in two passes. The first parses generic values, to learn each document's kind
//! and walk it against the schema; it yields a [`Plan`] per document. The second deserializes
//! the typed objects straight from the text, following the plan into `List` items, so that a
//! type error (`value: 5`) still carries its line and column.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_yaml::Value;

use super::error::{DocRef, ManifestError};
use super::options::{FieldValidation, LoadOptions};
use crate::manifest::schema::{self, Finding};
use crate::manifest::types::{ConfigMap, PersistentVolumeClaim, Pod, Secret};
use crate::manifest::types::{Workload, WorkloadKind};
use crate::manifest::validate::{self, FieldError};
use crate::manifest::yaml::drop_unknown;
use crate::manifest::yaml::trail::{Place, Step, Trail, Tree};

/// The kinds podrun reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Pod,
    ConfigMap,
    Secret,
    Claim,
    Workload(WorkloadKind),
}

impl Kind {
    fn from_kind(kind: &str) -> Option<Kind> {
        Some(match kind {
            "Pod" => Kind::Pod,
            "ConfigMap" => Kind::ConfigMap,
            "Secret" => Kind::Secret,
            "PersistentVolumeClaim" => Kind::Claim,
            other => Kind::Workload(WorkloadKind::from_kind(other)?),
        })
    }

    fn api_version(self) -> &'static str {
        match self {
            Kind::Workload(w) => w.api_version(),
            _ => "v1",
        }
    }
}

/// How to read one document (or `List` item) in the second pass.
#[derive(Debug)]
pub(crate) enum Plan {
    /// An object, read without the keys `drop` marks (unknown fields `--validate=warn|ignore`
    /// drops), which are relative to the object.
    Object(Kind, DocRef, Tree<()>),
    List(Vec<Plan>),
    Skip,
}

impl Plan {
    /// Whether a Secret is in here, so an error while reading it must not quote values.
    pub(crate) fn has_secret(&self) -> bool {
        match self {
            Plan::Object(kind, ..) => *kind == Kind::Secret,
            Plan::List(items) => items.iter().any(Plan::has_secret),
            Plan::Skip => false,
        }
    }
}

/// A typed object and the document it came from.
#[derive(Debug)]
pub(crate) enum Typed {
    Pod(Pod),
    ConfigMap(ConfigMap),
    Secret(Secret),
    Claim(PersistentVolumeClaim),
    Workload(WorkloadKind, Workload),
}

/// What the schema walk found in one object, to be reported once the unknown keys of its
/// document are placed in the text (`yaml/locate.rs`, a pass over the whole document).
#[derive(Debug)]
pub(crate) struct Checked {
    pub doc: DocRef,
    /// The API server's word for the object: `Pod`, `Deployment "web"`.
    pub what: String,
    pub findings: Vec<Finding>,
    /// The steps from the document's root to the object (a `List` item's `items`, 3).
    pub at: Trail,
    /// A Pod or a workload: its problems are said together with what validation finds in
    /// the typed pod, as the API server lists every error of a pod at once.
    pub pod: bool,
}

impl Checked {
    /// The steps from the document's root to each unknown key, in the findings' order.
    pub(crate) fn unknown_trails(&self) -> impl Iterator<Item = Trail> + '_ {
        self.findings.iter().filter_map(|f| match f {
            Finding::Unknown { trail, .. } => Some(self.at.iter().chain(trail).cloned().collect()),
            _ => None,
        })
    }
}

/// The first pass over one document.
pub(crate) struct Classifier<'a> {
    /// A `--config` file: ConfigMaps, Secrets and Lists of them only.
    pub config_only: bool,
    pub warnings: &'a mut Vec<String>,
    /// `--namespace`, for the namespace of an object that names none.
    pub namespace: Option<&'a str>,
}

fn str_at<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

impl Classifier<'_> {
    /// The plan for `value`, found at `at` in its document; what the walk found in each object
    /// goes to `checked`.
    pub(crate) fn classify(
        &mut self,
        value: &Value,
        doc: DocRef,
        at: &[Step],
        checked: &mut Vec<Checked>,
    ) -> Result<Plan, ManifestError> {
        let kind = str_at(value, "kind");
        let api_version = str_at(value, "apiVersion");
        let name = value.get("metadata").map_or("", |m| str_at(m, "name"));
        if kind.is_empty() {
            let required = FieldError::new("kind", "Required value");
            let Some(key) = kind_in_other_case(value) else { return Err(invalid(doc, "object", vec![required])) };
            // Said as the typo it is, placed in the text, beside the missing `kind`.
            let trail = vec![Step::Key(key.to_owned())];
            let typo = Finding::Unknown { path: key.to_owned(), suggestion: Some("kind".to_owned()), trail };
            let findings = vec![typo, Finding::Invalid(required)];
            checked.push(Checked { doc, what: "object".to_owned(), findings, at: at.to_vec(), pod: false });
            return Ok(Plan::Skip);
        }
        // `kubectl get -o yaml` of several objects gives a `List` (typed lists such as
        // `PodList` come from the API directly); kubectl applies their items.
        if kind == "List" || (kind.ends_with("List") && value.get("items").is_some()) {
            return self.list(value, kind, doc, at, checked);
        }
        let Some(object) = Kind::from_kind(kind) else {
            if self.config_only {
                return Err(ManifestError::ConfigFileObject { doc, kind: kind.to_owned(), name: name.to_owned() });
            }
            self.warnings.push(format!(
                "{doc}: ignoring {kind} {name:?}: podrun runs Pods and the pod templates of Deployments, \
                 ReplicaSets, StatefulSets, DaemonSets and Jobs"
            ));
            return Ok(Plan::Skip);
        };
        if self.config_only && !matches!(object, Kind::ConfigMap | Kind::Secret) {
            return Err(ManifestError::ConfigFileObject { doc, kind: kind.to_owned(), name: name.to_owned() });
        }
        let namespace = value.get("metadata").map_or("", |m| str_at(m, "namespace"));
        let namespace = Some(namespace).filter(|n| !n.is_empty()).or(self.namespace);
        let what = super::what_object(kind, namespace, name);
        if api_version != object.api_version() {
            let problem = FieldError::new(
                "apiVersion",
                format!("Unsupported value: {api_version:?}: supported values: {:?}", object.api_version()),
            );
            return Err(invalid(doc, &what, vec![problem]));
        }
        let mut findings = match object {
            Kind::Pod => schema::check_pod(value),
            Kind::ConfigMap => schema::check_config_map(value),
            Kind::Secret => schema::check_secret(value),
            // Storage is not podrun's business: a claim only names a volume.
            Kind::Claim => Vec::new(),
            Kind::Workload(_) => match value.get("spec").and_then(|s| s.get("template")) {
                Some(t) if !t.is_null() => schema::check_pod_template(t, "spec.template"),
                _ => return Err(invalid(doc, &what, vec![FieldError::new("spec.template", "Required value")])),
            },
        };
        schema::add_invalid(&mut findings, validate::validate_unread(value));
        findings.retain(|f| !node_critical_class(value, f));
        // Unknown keys are kept out of the typed reading (refused, under --validate=strict, with
        // the rest of the pod's errors).
        let mut drop = Tree::new();
        for f in &findings {
            if let Finding::Unknown { trail, .. } = f {
                drop.insert(trail, ());
            }
        }
        let pod = matches!(object, Kind::Pod | Kind::Workload(_));
        checked.push(Checked { doc: doc.clone(), what, findings, at: at.to_vec(), pod });
        Ok(Plan::Object(object, doc, drop))
    }

    fn list(
        &mut self,
        value: &Value,
        kind: &str,
        doc: DocRef,
        at: &[Step],
        checked: &mut Vec<Checked>,
    ) -> Result<Plan, ManifestError> {
        let items = match value.get("items") {
            None | Some(Value::Null) => return Ok(Plan::List(Vec::new())),
            Some(Value::Sequence(items)) => items,
            Some(_) => {
                return Err(invalid(doc, kind, vec![FieldError::new("items", "Invalid value: must be a list")]));
            }
        };
        let mut plans = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let mut item_at = at.to_vec();
            item_at.extend([Step::Key("items".to_owned()), Step::Index(i)]);
            plans.push(self.classify(item, doc.item(i), &item_at, checked)?);
        }
        Ok(Plan::List(plans))
    }
}

/// A `priorityClassName` of `system-node-critical` is no cluster-only field: it makes a static
/// pod node-critical, which sets its containers' OOM score (see `pod::qos`).
fn node_critical_class(value: &serde_yaml::Value, f: &Finding) -> bool {
    let Finding::ClusterOnly { path } = f else { return false };
    let spec = match path.as_str() {
        "spec.priorityClassName" => value.get("spec"),
        "spec.template.spec.priorityClassName" => value.get("spec").and_then(|s| s.get("template")?.get("spec")),
        _ => None,
    };
    spec.and_then(|s| s.get("priorityClassName")).and_then(|c| c.as_str()) == Some("system-node-critical")
}

/// A key that is `kind` but for its case (`Kind`, `KIND`), where `kind` is missing.
fn kind_in_other_case(value: &Value) -> Option<&str> {
    value.as_mapping()?.keys().filter_map(Value::as_str).find(|k| *k != "kind" && k.eq_ignore_ascii_case("kind"))
}

fn invalid(doc: DocRef, what: &str, problems: Vec<FieldError>) -> ManifestError {
    ManifestError::Invalid { doc, what: what.to_owned(), problems }
}

/// The problems the schema walk found in objects of one document: (where, what, problems).
pub(crate) type Early = Vec<(DocRef, String, Vec<FieldError>)>;

/// Reports what the walk found in one document's objects (`report_findings`) and sorts their
/// problems: a pod's wait to be said with what validation finds in the typed pod (the first
/// list), as the API server lists every error of a pod at once; any other object's are said
/// now (the second), and then, since they keep the document from being read, the pods' too.
pub(crate) fn sort_findings(
    checked: Vec<Checked>,
    places: &mut dyn Iterator<Item = Option<Place>>,
    opts: &LoadOptions,
    warnings: &mut Vec<String>,
) -> (Early, Early) {
    let (mut pods, mut now): (Early, Early) = (Vec::new(), Vec::new());
    for c in checked {
        let (doc, what, pod) = (c.doc.clone(), c.what.clone(), c.pod);
        let problems = report_findings(c, places, opts, warnings);
        if !problems.is_empty() {
            if pod { &mut pods } else { &mut now }.push((doc, what, problems));
        }
    }
    if !now.is_empty() {
        now.append(&mut pods);
    }
    (pods, now)
}

/// Reports what the walk found in one object: typos and wrong shapes are errors (unknown
/// fields only under `--validate=strict`, which is the default; a warning naming their place
/// under `warn`, nothing under `ignore`); fields podrun ignores are warnings, or errors under
/// `--strict`; fields of features off by default are dropped with a warning, whatever the flags.
/// `places` gives the place of each unknown key in turn. The problems are returned.
fn report_findings(
    checked: Checked,
    places: &mut dyn Iterator<Item = Option<Place>>,
    opts: &LoadOptions,
    warnings: &mut Vec<String>,
) -> Vec<FieldError> {
    let Checked { doc, findings, .. } = checked;
    let mut problems = Vec::new();
    let mut not_yet = Vec::new();
    let mut cluster_only = Vec::new();
    let mut gated = Vec::new();
    for finding in findings {
        match finding {
            Finding::Unknown { path, suggestion, .. } => {
                let place = places.next().flatten();
                let (parent, field) = path.rsplit_once('.').unwrap_or(("", &path));
                let (path, message) = if field.is_empty() {
                    // An empty key (`"": x`): the place is the mapping holding it.
                    let at = if parent.is_empty() { "<root>" } else { parent };
                    (at.to_owned(), "unknown field \"\": an empty key".to_owned())
                } else {
                    let hint = suggestion.map(|s| format!(" (did you mean {s:?}?)")).unwrap_or_default();
                    (path.clone(), format!("unknown field {field:?}{hint}"))
                };
                match opts.unknown_fields {
                    FieldValidation::Strict => problems.push(FieldError::new(path, message).at(place)),
                    FieldValidation::Warn => {
                        let whence = match place {
                            Some(p) => format!("{}:{p}", doc.file),
                            None => doc.to_string(),
                        };
                        warnings.push(format!("{whence}: {path}: {message}; dropped (--validate=warn)"));
                    }
                    FieldValidation::Ignore => {}
                }
            }
            Finding::WrongShape { path, expected } => {
                problems.push(FieldError::new(path, format!("Invalid value: must be {expected}")));
            }
            Finding::Invalid(problem) => problems.push(problem),
            Finding::NotYet { path } => not_yet.push(path),
            Finding::ClusterOnly { path } => cluster_only.push(path),
            Finding::Gated { path, gate } => gated.push(format!("{path} ({gate})")),
        }
    }
    if opts.strict {
        let why = "not supported by podrun (--strict)";
        problems.extend(not_yet.drain(..).map(|p| FieldError::new(p, format!("{why}: not implemented"))));
        problems
            .extend(cluster_only.drain(..).map(|p| FieldError::new(p, format!("{why}: only meaningful on a cluster"))));
    }
    if !problems.is_empty() {
        return problems;
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
    if !gated.is_empty() {
        warnings.push(format!(
            "{doc}: dropping fields whose feature gates are off by default in Kubernetes {}, as a default API \
             server drops them: {}",
            crate::manifest::KUBERNETES_VERSION,
            gated.join(", ")
        ));
    }
    problems
}

/// The second pass: reads what `plan` says from one document, appending to `out`.
pub(crate) struct PlanSeed<'a> {
    pub plan: &'a Plan,
    pub out: &'a mut Vec<(DocRef, Typed)>,
}

impl<'de> DeserializeSeed<'de> for PlanSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let (kind, doc, unknown) = match self.plan {
            Plan::Skip => return IgnoredAny::deserialize(d).map(drop),
            Plan::List(items) => return d.deserialize_any(ListVisitor { items, out: self.out }),
            Plan::Object(kind, doc, unknown) => (*kind, doc.clone(), unknown),
        };
        let typed = match kind {
            Kind::Pod => Typed::Pod(drop_unknown::read(d, unknown)?),
            Kind::ConfigMap => Typed::ConfigMap(drop_unknown::read(d, unknown)?),
            Kind::Secret => Typed::Secret(drop_unknown::read(d, unknown)?),
            Kind::Claim => Typed::Claim(drop_unknown::read(d, unknown)?),
            Kind::Workload(w) => Typed::Workload(w, drop_unknown::read(d, unknown)?),
        };
        self.out.push((doc, typed));
        Ok(())
    }
}

/// A `List` object: only its `items` matter.
struct ListVisitor<'a> {
    items: &'a [Plan],
    out: &'a mut Vec<(DocRef, Typed)>,
}

impl<'de> Visitor<'de> for ListVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a List object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Value>()? {
            if key.as_str() == Some("items") {
                map.next_value_seed(ItemsSeed { items: self.items, out: &mut *self.out })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

struct ItemsSeed<'a> {
    items: &'a [Plan],
    out: &'a mut Vec<(DocRef, Typed)>,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut plans = self.items.iter();
        loop {
            // The first pass planned these same items; skipping is the safe answer to any other.
            let plan = plans.next().unwrap_or(&Plan::Skip);
            if seq.next_element_seed(PlanSeed { plan, out: &mut *self.out })?.is_none() {
                return Ok(());
            }
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}
