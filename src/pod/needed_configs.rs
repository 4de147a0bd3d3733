//! Every ConfigMap, Secret and key the pods of a run need and the run was not given, found
//! before anything is created and reported together: a run that lacks three objects says so
//! once, not one refusal per try. What counts is what the kubelet would refuse (its
//! CreateContainerConfigError and volume mount failures): env `configMapKeyRef`/`secretKeyRef`,
//! `envFrom`, and the configMap, secret and projected volumes a container uses (the kubelet
//! sets up no other), each unless `optional: true`.
//!
//! Pure: the pods and the [`ConfigStore`] only. The wording is the volumes' ([`Absent`]), the
//! one every such refusal uses.

use crate::manifest::config_store::ConfigStore;
use crate::manifest::types::{Container, KeySelector, KeyToPath, Pod};
use crate::manifest::LoadedPod;

use super::absent::{Absent, SUPPLY};

/// One reference to what is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingConfig {
    /// The manifest document of the pod.
    pub doc: String,
    /// `namespace/name` of the pod.
    pub pod: String,
    /// The field path of the reference.
    pub field: String,
    pub what: Absent,
}

/// Every missing ConfigMap, Secret and key of a run, with how to supply them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(.0))]
pub struct MissingConfigs(pub Vec<MissingConfig>);

fn describe(all: &[MissingConfig]) -> String {
    lines(all, |m| format!("{}: pod {}: {}: {}", m.doc, m.pod, m.field, m.what))
}

fn lines(all: &[MissingConfig], line: impl Fn(&MissingConfig) -> String) -> String {
    let supply = if all.len() == 1 { SUPPLY } else { SUPPLY_ALL };
    let mut s = format!("missing ConfigMaps and Secrets ({supply}):");
    for m in all {
        s.push_str("\n  ");
        s.push_str(&line(m));
    }
    s
}

impl MissingConfigs {
    /// The report where the pod is named already (a refusal of one pod): the fields only.
    pub fn of_the_pod(&self) -> String {
        lines(&self.0, |m| format!("{}: {}", m.field, m.what))
    }
}

/// [`SUPPLY`], for several.
const SUPPLY_ALL: &str = "supply them in a file given with --config FILE, or set optional: true to run without them";

/// Every reference of `pods` to a ConfigMap, Secret or key `configs` lacks; `Err` when any.
pub fn check(pods: &[LoadedPod], configs: &ConfigStore) -> Result<(), MissingConfigs> {
    let all: Vec<MissingConfig> = pods
        .iter()
        .flat_map(|p| {
            let (doc, pod) = (p.doc.to_string(), format!("{}/{}", p.namespace(), p.name()));
            missing_in(&p.pod, p.namespace(), configs).into_iter().map(move |(field, what)| MissingConfig {
                doc: doc.clone(),
                pod: pod.clone(),
                field,
                what,
            })
        })
        .collect();
    if all.is_empty() {
        Ok(())
    } else {
        Err(MissingConfigs(all))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    ConfigMap,
    Secret,
}

/// What one pod lacks, by field path, in the order of the manifest.
fn missing_in(pod: &Pod, namespace: &str, configs: &ConfigStore) -> Vec<(String, Absent)> {
    let look = Look { namespace, configs };
    let mut out = Vec::new();
    for (path, c, _) in pod.spec.all_containers() {
        look.container(&path, c, &mut out);
    }
    // A volume no container uses is never set up, so what it names is never needed.
    let used = crate::pod::volumes::used_volumes(&pod.spec);
    for (i, v) in pod.spec.volumes.iter().enumerate().filter(|(_, v)| used.contains(v.name.as_str())) {
        let field = format!("spec.volumes[{i}]");
        let mut files = |f: String, r: Files| look.files(&f, &r, &mut out);
        if let Some(cm) = &v.config_map {
            files(format!("{field}.configMap.name"), Files::of(Kind::ConfigMap, &cm.name, &cm.items, cm.optional));
        }
        if let Some(s) = &v.secret {
            files(format!("{field}.secret.secretName"), Files::of(Kind::Secret, &s.secret_name, &s.items, s.optional));
        }
        for (k, src) in v.projected.iter().flat_map(|p| p.sources.iter().enumerate()) {
            let f = format!("{field}.projected.sources[{k}]");
            if let Some(cm) = &src.config_map {
                files(format!("{f}.configMap.name"), Files::of(Kind::ConfigMap, &cm.name, &cm.items, cm.optional));
            }
            if let Some(s) = &src.secret {
                files(format!("{f}.secret.name"), Files::of(Kind::Secret, &s.name, &s.items, s.optional));
            }
        }
    }
    out
}

struct Look<'a> {
    namespace: &'a str,
    configs: &'a ConfigStore,
}

impl Look<'_> {
    fn object(&self, kind: Kind, name: &str) -> Absent {
        Absent::Object { kind: kind.title(), namespace: self.namespace.to_owned(), name: name.to_owned() }
    }

    fn key(&self, kind: Kind, name: &str, key: &str) -> Absent {
        Absent::Key {
            kind: kind.title(),
            namespace: self.namespace.to_owned(),
            name: name.to_owned(),
            key: key.to_owned(),
        }
    }

    /// The keys of the object, as the environment reads them (a ConfigMap's `data` only);
    /// None when it is absent.
    fn env_keys(&self, kind: Kind, name: &str) -> Option<Vec<String>> {
        match kind {
            Kind::ConfigMap => self.configs.config_map_text(self.namespace, name).map(|e| keys(e.keys())),
            Kind::Secret => self.configs.secret(self.namespace, name).map(|e| keys(e.keys())),
        }
    }

    /// The keys a volume can project (a ConfigMap's `data` and `binaryData`).
    fn file_keys(&self, kind: Kind, name: &str) -> Option<Vec<String>> {
        match kind {
            Kind::ConfigMap => self.configs.config_map(self.namespace, name).map(|e| keys(e.keys())),
            Kind::Secret => self.configs.secret(self.namespace, name).map(|e| keys(e.keys())),
        }
    }

    fn container(&self, path: &str, c: &Container, out: &mut Vec<(String, Absent)>) {
        for (i, from) in c.env_from.iter().enumerate() {
            let (kind, field, r) = match (&from.config_map_ref, &from.secret_ref) {
                (Some(r), _) => (Kind::ConfigMap, "configMapRef", r),
                (None, Some(r)) => (Kind::Secret, "secretRef", r),
                (None, None) => continue,
            };
            if r.optional != Some(true) && self.env_keys(kind, &r.name).is_none() {
                out.push((format!("{path}.envFrom[{i}].{field}"), self.object(kind, &r.name)));
            }
        }
        for (j, var) in c.env.iter().enumerate() {
            let Some(source) = &var.value_from else { continue };
            let refs = [
                (Kind::ConfigMap, "configMapKeyRef", &source.config_map_key_ref),
                (Kind::Secret, "secretKeyRef", &source.secret_key_ref),
            ];
            for (kind, field, selector) in refs {
                if let Some(s) = selector {
                    self.selector(kind, &format!("{path}.env[{j}].valueFrom.{field}"), s, out);
                }
            }
        }
    }

    fn selector(&self, kind: Kind, field: &str, s: &KeySelector, out: &mut Vec<(String, Absent)>) {
        if s.optional == Some(true) {
            return;
        }
        match self.env_keys(kind, &s.name) {
            None => out.push((field.to_owned(), self.object(kind, &s.name))),
            Some(keys) if !keys.contains(&s.key) => out.push((field.to_owned(), self.key(kind, &s.name, &s.key))),
            Some(_) => {}
        }
    }

    /// A volume's (or projection's) object and items; `name_field` is the path of its name.
    fn files(&self, name_field: &str, r: &Files, out: &mut Vec<(String, Absent)>) {
        if r.optional == Some(true) {
            return;
        }
        let Some(keys) = self.file_keys(r.kind, r.name) else {
            out.push((name_field.to_owned(), self.object(r.kind, r.name)));
            return;
        };
        let field = name_field.rsplit_once('.').map_or(name_field, |(f, _)| f);
        for (j, it) in r.items.iter().enumerate() {
            if !keys.contains(&it.key) {
                out.push((format!("{field}.items[{j}].key"), self.key(r.kind, r.name, &it.key)));
            }
        }
    }
}

/// What a configMap or secret volume source (or projection) refers to.
struct Files<'a> {
    kind: Kind,
    name: &'a str,
    items: &'a [KeyToPath],
    optional: Option<bool>,
}

impl<'a> Files<'a> {
    fn of(kind: Kind, name: &'a str, items: &'a [KeyToPath], optional: Option<bool>) -> Self {
        Files { kind, name, items, optional }
    }
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::ConfigMap => "ConfigMap",
            Kind::Secret => "Secret",
        }
    }
}

fn keys<'a, S: AsRef<str> + 'a>(k: impl Iterator<Item = S>) -> Vec<String> {
    k.map(|s| s.as_ref().to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{self, LoadOptions, Source};

    const PODS: &str = "apiVersion: v1
kind: ConfigMap
metadata: {name: have}
data: {a: '1'}
---
apiVersion: v1
kind: Pod
metadata: {name: one}
spec:
  volumes:
  - {name: v, configMap: {name: vol-cm}}
  - {name: s, secret: {secretName: vol-sec, optional: true}}
  - name: p
    projected:
      sources:
      - secret: {name: proj-sec}
      - configMap: {name: have, items: [{key: nokey, path: x}]}
  - {name: unused, configMap: {name: never-set-up}}
  containers:
  - name: c
    image: busybox
    envFrom: [{configMapRef: {name: from-cm}}]
    env:
    - {name: A, valueFrom: {configMapKeyRef: {name: have, key: b}}}
    - {name: B, valueFrom: {secretKeyRef: {name: env-sec, key: k}}}
    - {name: C, valueFrom: {configMapKeyRef: {name: gone, key: k, optional: true}}}
    volumeMounts: [{name: v, mountPath: /v}, {name: s, mountPath: /s}, {name: p, mountPath: /p}]
---
apiVersion: v1
kind: Pod
metadata: {name: two, namespace: other}
spec:
  initContainers:
  - {name: i, image: busybox, env: [{name: A, valueFrom: {configMapKeyRef: {name: have, key: a}}}]}
  containers: [{name: c, image: busybox}]
";

    #[test]
    fn every_missing_object_and_key_of_every_pod_in_one_report() {
        let source = Source { name: "pods.yaml".into(), text: PODS.into(), warning: None };
        let loaded = manifest::load(&source, &LoadOptions::default()).unwrap();
        let Err(e) = check(&loaded.pods, &loaded.configs) else { panic!("missing ones") };
        let said = e.to_string();
        let fields: Vec<(&str, &str, String)> =
            e.0.iter().map(|m| (m.pod.as_str(), m.field.as_str(), m.what.to_string())).collect();
        assert_eq!(
            fields,
            [
                (
                    "default/one",
                    "spec.containers[0].envFrom[0].configMapRef",
                    "ConfigMap default/from-cm not found".into()
                ),
                (
                    "default/one",
                    "spec.containers[0].env[0].valueFrom.configMapKeyRef",
                    "ConfigMap default/have has no key \"b\"".into()
                ),
                (
                    "default/one",
                    "spec.containers[0].env[1].valueFrom.secretKeyRef",
                    "Secret default/env-sec not found".into()
                ),
                ("default/one", "spec.volumes[0].configMap.name", "ConfigMap default/vol-cm not found".into()),
                (
                    "default/one",
                    "spec.volumes[2].projected.sources[0].secret.name",
                    "Secret default/proj-sec not found".into()
                ),
                (
                    "default/one",
                    "spec.volumes[2].projected.sources[1].configMap.items[0].key",
                    "ConfigMap default/have has no key \"nokey\"".into()
                ),
                (
                    "other/two",
                    "spec.initContainers[0].env[0].valueFrom.configMapKeyRef",
                    "ConfigMap other/have not found".into()
                ),
            ]
        );
        assert!(
            said.starts_with("missing ConfigMaps and Secrets (supply them in a file given with --config FILE, "),
            "{said}"
        );
        assert!(said.contains("--config FILE") && said.contains("optional: true"), "{said}");
        assert!(
            said.contains("\n  pods.yaml (document 2): pod default/one: spec.volumes[0].configMap.name: "),
            "{said}"
        );
    }
}
