//! A container's environment, computed as the kubelet computes it (`makeEnvironmentVariables`
//! in pkg/kubelet/kubelet_pods.go), and Kubernetes `$(VAR)` expansion (the kubelet's fork of
//! it in third_party/forked/golang/expansion) for env values, `command`, `args` and volume
//! mounts' `subPathExpr`.
//!
//! Pure: the ConfigMaps and Secrets come from a [`ConfigStore`], the pod's runtime facts from
//! [`PodFacts`]. Nothing here prints, logs or touches the engine. Secret values never appear
//! in an error or a warning: only names, keys and field paths do.

use std::collections::{BTreeMap, HashMap};

use crate::manifest::config_store::{ConfigStore, SecretBytes};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::types::{Container, EnvFromSource, EnvVar, EnvVarSource, KeySelector, Pod};
use crate::manifest::validate::is_env_var_name;
use crate::pod::downward::{self, PodFacts};

/// Why a container cannot be configured (the kubelet's CreateContainerConfigError). The message
/// names the field path and the missing object/key, never a Secret's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct EnvError {
    pub path: String,
    pub message: String,
}

/// The resolved environment, in order, later duplicates already folded (the last value wins,
/// at the position of the first occurrence), plus warnings (envFrom keys that are not valid
/// variable names and were skipped, values that were not UTF-8).
///
/// The kubelet itself hands the runtime its variables in Go map order, which is random; the
/// order here is podrun's choice, made so the same pod always gets the same environment.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ResolvedEnv {
    pub vars: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

/// The names only: a value may be a Secret's.
impl std::fmt::Debug for ResolvedEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.vars.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("ResolvedEnv").field("names", &names).field("warnings", &self.warnings).finish()
    }
}

/// `path` is the container's field path, e.g. "spec.containers[1]" or "spec.initContainers[0]",
/// used in error messages (e.g. "spec.containers[1].env[2].valueFrom.configMapKeyRef").
///
/// envFrom sources come first, in order, then `env` entries in order; a later definition of a
/// name replaces an earlier one. An `env` value is expanded against what is defined at that
/// point, so a forward reference stays literal.
pub fn resolve(
    pod: &Pod,
    container: &Container,
    path: &str,
    configs: &ConfigStore,
    facts: &PodFacts,
) -> Result<ResolvedEnv, EnvError> {
    let cx = Cx {
        pod,
        container,
        path,
        configs,
        facts,
        namespace: pod.metadata.namespace.as_deref().unwrap_or(DEFAULT_NAMESPACE),
    };
    let mut env = OrderedEnv::default();
    let mut warnings = Vec::new();
    for (i, source) in container.env_from.iter().enumerate() {
        add_env_from(&cx, i, source, &mut env, &mut warnings)?;
    }
    for (j, var) in container.env.iter().enumerate() {
        // An optional reference to something absent leaves the variable unset, not empty.
        if let Some(value) = env_value(&cx, j, var, &env, &mut warnings)? {
            env.set(&var.name, value);
        }
    }
    Ok(ResolvedEnv { vars: env.vars, warnings })
}

/// Kubernetes `$(VAR)` expansion of one string against `vars` (later entries win): `$(NAME)` with NAME
/// defined is replaced; undefined references are left as written; `$$` becomes `$`; `$$(NAME)` is the literal
/// `$(NAME)`; an unclosed `$(` is left as is.
pub fn expand(s: &str, vars: &[(String, String)]) -> String {
    let lookup = lookup_table(vars);
    expand_with(s, |name| lookup.get(name).copied())
}

/// `command` and `args` after expansion against the resolved environment (None stays None).
///
/// An empty list also comes back as None: the kubelet treats `command: []` exactly like no
/// `command` (the image's ENTRYPOINT runs), and so must the caller.
pub fn expand_command(container: &Container, env: &ResolvedEnv) -> (Option<Vec<String>>, Option<Vec<String>>) {
    let lookup = lookup_table(&env.vars);
    let expand_all = |list: &Option<Vec<String>>| {
        let list = list.as_ref().filter(|l| !l.is_empty())?;
        Some(list.iter().map(|s| expand_with(s, |name| lookup.get(name).copied())).collect())
    };
    (expand_all(&container.command), expand_all(&container.args))
}

/// What every step of `resolve` needs to know.
struct Cx<'a> {
    pod: &'a Pod,
    container: &'a Container,
    path: &'a str,
    configs: &'a ConfigStore,
    facts: &'a PodFacts,
    namespace: &'a str,
}

/// Variables in order of first definition; setting a defined name replaces its value in place.
#[derive(Default)]
struct OrderedEnv {
    vars: Vec<(String, String)>,
    index: HashMap<String, usize>,
}

impl OrderedEnv {
    fn set(&mut self, name: &str, value: String) {
        match self.index.get(name) {
            Some(&i) => self.vars[i].1 = value,
            None => {
                self.index.insert(name.to_owned(), self.vars.len());
                self.vars.push((name.to_owned(), value));
            }
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.index.get(name).map(|&i| self.vars[i].1.as_str())
    }
}

fn lookup_table(vars: &[(String, String)]) -> HashMap<&str, &str> {
    // Collecting inserts in order, so a later duplicate replaces an earlier one.
    vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// The expansion algorithm of the kubelet's `expansion.Expand` with `MappingFuncFor`.
/// `$`, `(` and `)` are ASCII, so every slice boundary below falls on a char boundary.
fn expand_with<'v>(input: &str, lookup: impl Fn(&str) -> Option<&'v str>) -> String {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        rest = match after.as_bytes().first() {
            // `$$` is an escaped `$`; the character after it is not looked at again.
            Some(b'$') => {
                out.push('$');
                &after[1..]
            }
            Some(b'(') => match after[1..].find(')') {
                Some(len) => {
                    let name = &after[1..1 + len];
                    match lookup(name) {
                        Some(value) => out.push_str(value),
                        None => {
                            out.push_str("$(");
                            out.push_str(name);
                            out.push(')');
                        }
                    }
                    &after[len + 2..]
                }
                // No closing parenthesis anywhere: `$(` stays, and scanning goes on after it.
                None => {
                    out.push_str("$(");
                    &after[1..]
                }
            },
            // A `$` before anything else, or at the very end, is kept as written.
            _ => {
                out.push('$');
                after
            }
        };
    }
    out.push_str(rest);
    out
}

/// ConfigMap or Secret: where they differ is only in names and messages.
#[derive(Clone, Copy)]
enum Kind {
    ConfigMap,
    Secret,
}

impl Kind {
    /// The API server's NotFound message as the kubelet's object managers word it.
    fn not_found(self, name: &str) -> String {
        match self {
            Kind::ConfigMap => format!("configmap {name:?} not found"),
            Kind::Secret => format!("secret {name:?} not found"),
        }
    }

    /// As in the kubelet's "couldn't find key k in ConfigMap ns/name".
    fn title(self) -> &'static str {
        match self {
            Kind::ConfigMap => "ConfigMap",
            Kind::Secret => "Secret",
        }
    }

    /// As in the kubelet's "from the EnvFrom configMap ns/name" event.
    fn env_from_word(self) -> &'static str {
        match self {
            Kind::ConfigMap => "configMap",
            Kind::Secret => "secret",
        }
    }
}

/// The entries of a ConfigMap or Secret the environment can read: a ConfigMap's `data` (the
/// kubelet never reads `binaryData` for the environment), a Secret's decoded `data`.
enum Object<'a> {
    ConfigMap(BTreeMap<&'a str, &'a [u8]>),
    Secret(&'a BTreeMap<String, SecretBytes>),
}

impl<'a> Object<'a> {
    fn find(configs: &'a ConfigStore, kind: Kind, namespace: &str, name: &str) -> Option<Object<'a>> {
        match kind {
            Kind::ConfigMap => configs.config_map_text(namespace, name).map(Object::ConfigMap),
            Kind::Secret => configs.secret(namespace, name).map(Object::Secret),
        }
    }

    fn get(&self, key: &str) -> Option<&'a [u8]> {
        match self {
            Object::ConfigMap(e) => e.get(key).copied(),
            Object::Secret(s) => s.get(key).map(|b| b.0.as_slice()),
        }
    }

    /// In key order; the kubelet walks a Go map, so any order is faithful.
    fn entries(&self) -> Vec<(&'a str, &'a [u8])> {
        match self {
            Object::ConfigMap(e) => e.iter().map(|(k, v)| (*k, *v)).collect(),
            Object::Secret(s) => s.iter().map(|(k, v)| (k.as_str(), v.0.as_slice())).collect(),
        }
    }
}

fn add_env_from(
    cx: &Cx,
    i: usize,
    source: &EnvFromSource,
    env: &mut OrderedEnv,
    warnings: &mut Vec<String>,
) -> Result<(), EnvError> {
    // The kubelet's switch takes configMapRef first; validation allows only one anyway.
    let (kind, field, reference) = match (&source.config_map_ref, &source.secret_ref) {
        (Some(r), _) => (Kind::ConfigMap, "configMapRef", r),
        (None, Some(r)) => (Kind::Secret, "secretRef", r),
        (None, None) => return Ok(()),
    };
    let path = format!("{}.envFrom[{i}].{field}", cx.path);
    let Some(object) = Object::find(cx.configs, kind, cx.namespace, &reference.name) else {
        if reference.optional == Some(true) {
            return Ok(());
        }
        return Err(EnvError { path, message: kind.not_found(&reference.name) });
    };
    let origin = format!("{} {}/{}", kind.env_from_word(), cx.namespace, reference.name);
    let prefix = source.prefix.as_deref().unwrap_or("");
    let mut skipped = Vec::new();
    for (key, bytes) in object.entries() {
        let name = format!("{prefix}{key}");
        if !is_env_from_name(&name) {
            skipped.push(name.escape_debug().to_string());
            continue;
        }
        let value = text(bytes, &path, &name, &origin, warnings);
        env.set(&name, value);
    }
    if !skipped.is_empty() {
        // Keys come sorted and share the prefix, so the list is sorted, as the kubelet's was.
        warnings.push(format!(
            "{path}: keys [{}] from the EnvFrom {origin} were skipped since they are considered invalid \
             environment variable names",
            skipped.join(", ")
        ));
    }
    Ok(())
}

/// Whether an envFrom key (with its prefix) may become a variable: the one name rule podrun
/// validates `env[].name` and `envFrom[].prefix` with (the relaxed rule of Kubernetes 1.34+).
/// The 1.36 kubelet imports every key: a valid prefix and ConfigMap/Secret key always pass
/// this rule, so it skips nothing podrun validated; it only guards the engine's `NAME=value`
/// from a name holding '='.
fn is_env_from_name(name: &str) -> bool {
    is_env_var_name(name)
}

/// The value of one `env` entry: `None` when an optional source is absent (the variable is not
/// set at all).
fn env_value(
    cx: &Cx,
    j: usize,
    var: &EnvVar,
    env: &OrderedEnv,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, EnvError> {
    // As in the kubelet, an empty `value` counts as unset, so `valueFrom` is consulted.
    if let Some(value) = var.value.as_deref().filter(|v| !v.is_empty()) {
        return Ok(Some(expand_with(value, |name| env.get(name))));
    }
    match &var.value_from {
        Some(source) => value_from(cx, &format!("{}.env[{j}].valueFrom", cx.path), &var.name, source, warnings),
        None => Ok(Some(String::new())),
    }
}

/// A `valueFrom` source, in the order the kubelet's switch tries them. Values from sources are
/// not expanded: only literal `value`s are.
fn value_from(
    cx: &Cx,
    path: &str,
    var: &str,
    source: &EnvVarSource,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, EnvError> {
    if let Some(field) = &source.field_ref {
        return downward::field_value(cx.pod, &field.field_path, cx.facts, false)
            .map(Some)
            .map_err(|e| EnvError { path: format!("{path}.fieldRef"), message: e.0 });
    }
    if let Some(selector) = &source.resource_field_ref {
        return downward::resource_value(cx.pod, &cx.container.name, selector, cx.facts)
            .map(Some)
            .map_err(|e| EnvError { path: format!("{path}.resourceFieldRef"), message: e.0 });
    }
    if let Some(selector) = &source.config_map_key_ref {
        return key_value(cx, Kind::ConfigMap, selector, &format!("{path}.configMapKeyRef"), var, warnings);
    }
    if let Some(selector) = &source.secret_key_ref {
        return key_value(cx, Kind::Secret, selector, &format!("{path}.secretKeyRef"), var, warnings);
    }
    Ok(Some(String::new()))
}

/// configMapKeyRef / secretKeyRef. Messages name the object and key only, never a value.
fn key_value(
    cx: &Cx,
    kind: Kind,
    selector: &KeySelector,
    path: &str,
    var: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, EnvError> {
    let optional = selector.optional == Some(true);
    let error = |message: String| Err(EnvError { path: path.to_owned(), message });
    let Some(object) = Object::find(cx.configs, kind, cx.namespace, &selector.name) else {
        return if optional { Ok(None) } else { error(kind.not_found(&selector.name)) };
    };
    let Some(bytes) = object.get(&selector.key) else {
        return if optional {
            Ok(None)
        } else {
            error(format!("couldn't find key {} in {} {}/{}", selector.key, kind.title(), cx.namespace, selector.name))
        };
    };
    let origin = format!("{} {}/{} key {}", kind.title(), cx.namespace, selector.name, selector.key);
    Ok(Some(text(bytes, path, var, &origin, warnings)))
}

/// A value's bytes as text. The kubelet hands the bytes on unchecked (a Go string may hold
/// anything), but the engine's API takes JSON strings, which must be UTF-8: invalid sequences
/// become U+FFFD, with a warning that names the variable and never shows the value.
fn text(bytes: &[u8], path: &str, var: &str, origin: &str, warnings: &mut Vec<String>) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => {
            warnings.push(format!(
                "{path}: the value of {var} from {origin} is not valid UTF-8; invalid bytes were replaced with U+FFFD"
            ));
            String::from_utf8_lossy(bytes).into_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{ConfigMap, ObjectMeta, Secret};
    use crate::manifest::{load, LoadOptions, Source};
    use base64::Engine;
    use serde::Deserialize;

    use crate::test_support::manifests::{owned, owned_file};

    fn facts() -> PodFacts {
        PodFacts {
            pod_ip: Some("10.88.0.7".into()),
            host_ip: Some("10.88.0.1".into()),
            node_name: "host-1".into(),
            host_cpus: 2,
            host_memory: 1 << 30,
        }
    }

    /// The one Pod of one of the project's manifests (`tests/manifests/run/`).
    fn manifest_pod(file: &str) -> Pod {
        let path = owned_file("run", file);
        let source = Source::read(&path.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
        let mut loaded = load(&source, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.pods.len(), 1, "{file}");
        loaded.pods.remove(0).pod
    }

    /// A store holding every ConfigMap and Secret of the manifests' `config/` files, in the
    /// default namespace, as `--config` would load them.
    fn configs() -> ConfigStore {
        let mut store = ConfigStore::new();
        for path in owned("config") {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for doc in serde_yaml::Deserializer::from_str(&text) {
                let value = serde_yaml::Value::deserialize(doc).unwrap();
                match value.get("kind").and_then(serde_yaml::Value::as_str) {
                    Some("ConfigMap") => {
                        let cm: ConfigMap = serde_yaml::from_value(value).unwrap();
                        store.add_config_map("default", &cm).unwrap();
                    }
                    Some("Secret") => {
                        let secret: Secret = serde_yaml::from_value(value).unwrap();
                        store.add_secret("default", &secret).unwrap();
                    }
                    other => panic!("{}: unexpected kind {other:?}", path.display()),
                }
            }
        }
        store
    }

    fn pod_in(namespace: &str, containers: &str) -> Pod {
        let text = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: {namespace}}}\nspec:\n  containers:\n{containers}"
        );
        load(&Source::from_text("t.yaml", &text), &LoadOptions::default()).unwrap().pods.remove(0).pod
    }

    fn inline_pod(containers: &str) -> Pod {
        pod_in("ns", containers)
    }

    fn config_map(name: &str, data: &[(&str, &str)]) -> ConfigMap {
        ConfigMap {
            metadata: ObjectMeta { name: name.into(), ..Default::default() },
            data: data.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            ..Default::default()
        }
    }

    fn secret(name: &str, data: &[(&str, &[u8])]) -> Secret {
        let b64 = |v: &[u8]| base64::engine::general_purpose::STANDARD.encode(v);
        Secret {
            metadata: ObjectMeta { name: name.into(), ..Default::default() },
            data: data.iter().map(|(k, v)| ((*k).to_owned(), b64(v))).collect(),
            ..Default::default()
        }
    }

    fn resolve_first(pod: &Pod, configs: &ConfigStore) -> Result<ResolvedEnv, EnvError> {
        resolve(pod, &pod.spec.containers[0], "spec.containers[0]", configs, &facts())
    }

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn strings(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|s| (*s).to_owned()).collect())
    }

    // The cases of the kubelet's expand_test.go (doExpansionTest), input and expected output.
    #[test]
    fn expand_matches_the_kubernetes_expansion_tests() {
        let context =
            vars(&[("VAR_A", "A"), ("VAR_B", "B"), ("VAR_C", "C"), ("VAR_REF", "$(VAR_A)"), ("VAR_EMPTY", "")]);
        let cases = [
            ("$(VAR_A)", "A"),
            ("$(VAR_A)-$(VAR_A)", "A-A"),
            ("$(VAR_A)-1", "A-1"),
            ("___$(VAR_B)___", "___B___"),
            ("___$(VAR_C)", "___C"),
            ("$(VAR_A)_$(VAR_B)_$(VAR_C)", "A_B_C"),
            ("$$(VAR_B)_$(VAR_A)", "$(VAR_B)_A"),
            ("$$(VAR_A)_$$(VAR_B)", "$(VAR_A)_$(VAR_B)"),
            ("f000-$$VAR_A", "f000-$VAR_A"),
            ("foo\\$(VAR_C)bar", "foo\\Cbar"),
            ("foo\\\\$(VAR_C)bar", "foo\\\\Cbar"),
            ("foo\\\\\\\\$(VAR_A)bar", "foo\\\\\\\\Abar"),
            ("$(VAR_A$(VAR_B))", "$(VAR_A$(VAR_B))"),
            ("$(VAR_A$(VAR_B)", "$(VAR_A$(VAR_B)"),
            ("$(VAR_REF)", "$(VAR_A)"),
            ("%%$(VAR_REF)--$(VAR_REF)%%", "%%$(VAR_A)--$(VAR_A)%%"),
            ("foo$(VAR_EMPTY)bar", "foobar"),
            ("foo$(VAR_Awhoops!", "foo$(VAR_Awhoops!"),
            ("f00__(VAR_A)__", "f00__(VAR_A)__"),
            ("$?_boo_$!", "$?_boo_$!"),
            ("$VAR_A", "$VAR_A"),
            ("$(VAR_DNE)", "$(VAR_DNE)"),
            ("$$$$$$(BIG_MONEY)", "$$$(BIG_MONEY)"),
            ("$$$$$$(VAR_A)", "$$$(VAR_A)"),
            ("$$$$$$$(GOOD_ODDS)", "$$$$(GOOD_ODDS)"),
            ("$$$$$$$(VAR_A)", "$$$A"),
            ("$VAR_A)", "$VAR_A)"),
            ("${VAR_A}", "${VAR_A}"),
            ("$(VAR_B)_______$(A", "B_______$(A"),
            ("$(VAR_C)_______$(", "C_______$("),
            ("$(VAR_A)foobarzab$", "Afoobarzab$"),
            ("foo-\\$(VAR_A", "foo-\\$(VAR_A"),
            ("--$($($($($--", "--$($($($($--"),
            ("$($($($($--foo$(", "$($($($($--foo$("),
            ("foo0--$($($($(", "foo0--$($($($("),
            ("$(foo$$var)", "$(foo$$var)"),
            ("\n", "\n"),
        ];
        for (input, expected) in cases {
            assert_eq!(expand(input, &context), expected, "input {input:?}");
        }
    }

    #[test]
    fn expand_later_entries_win_and_non_ascii_is_kept() {
        let context = vars(&[("A", "first"), ("É", "é"), ("A", "second")]);
        assert_eq!(expand("$(A)", &context), "second");
        assert_eq!(expand("ü$ü$(É)€$", &context), "ü$üé€$");
        assert_eq!(expand("$()", &context), "$()", "an empty name is just undefined");
    }

    #[test]
    fn values_see_only_what_is_defined_before_them() {
        let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - {name: A, value: one}\n    - {name: B, value: '$(A)-$(C)'}\n    - {name: A, value: two}\n    - {name: C, value: '$(A)$(A)'}\n    - {name: D, value: '$$(A)'}\n",
        );
        let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
        // A keeps its first position and takes its last value; B saw A's value at the time.
        assert_eq!(env.vars, vars(&[("A", "two"), ("B", "one-$(C)"), ("C", "twotwo"), ("D", "$(A)")]));
        assert!(env.warnings.is_empty());
    }

    #[test]
    fn an_empty_value_defers_to_value_from_and_nothing_at_all_is_empty() {
        let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - name: A\n      value: ''\n      valueFrom: {fieldRef: {fieldPath: metadata.name}}\n    - {name: B}\n    - {name: C, value: ''}\n",
        );
        let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
        assert_eq!(env.vars, vars(&[("A", "p"), ("B", ""), ("C", "")]));
    }

    #[test]
    fn env_from_comes_first_with_prefixes_and_env_overrides_it_in_place() {
        let mut store = ConfigStore::new();
        store.add_config_map("ns", &config_map("one", &[("B", "b1"), ("A", "a1"), ("SELF", "s")])).unwrap();
        store.add_config_map("ns", &config_map("two", &[("A", "a2")])).unwrap();
        store.add_secret("ns", &secret("s", &[("TOKEN", b"t0k")])).unwrap();
        let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: one}\n    - configMapRef: {name: two}\n    - {prefix: P_, configMapRef: {name: two}}\n    - secretRef: {name: s}\n    env:\n    - {name: B, value: '$(A)+$(P_A)'}\n    - {name: SELF, value: '$(SELF)-more'}\n    - name: FROM_CM\n      valueFrom: {configMapKeyRef: {name: one, key: B}}\n",
        );
        let env = resolve_first(&pod, &store).unwrap();
        assert_eq!(
            env.vars,
            vars(&[
                ("A", "a2"),
                ("B", "a2+a2"),
                ("SELF", "s-more"),
                ("P_A", "a2"),
                ("TOKEN", "t0k"),
                ("FROM_CM", "b1"),
            ])
        );
    }

    #[test]
    fn objects_are_looked_up_in_the_pods_namespace_only() {
        let mut store = ConfigStore::new();
        store.add_config_map("default", &config_map("cm", &[("A", "1")])).unwrap();
        let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n");
        let e = resolve_first(&pod, &store).unwrap_err();
        assert_eq!(e.to_string(), "spec.containers[0].envFrom[0].configMapRef: configmap \"cm\" not found");
    }

    #[test]
    fn a_config_maps_binary_data_is_not_in_the_environment() {
        let mut cm = config_map("cm", &[("A", "1")]);
        cm.binary_data.insert("BIN".into(), "aGk=".into());
        let mut store = ConfigStore::new();
        store.add_config_map("ns", &cm).unwrap();
        let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n");
        assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("A", "1")]));
        let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - name: B\n      valueFrom: {configMapKeyRef: {name: cm, key: BIN}}\n",
        );
        let e = resolve_first(&pod, &store).unwrap_err();
        assert_eq!(e.message, "couldn't find key BIN in ConfigMap ns/cm");
    }

    #[test]
    fn missing_env_from_sources_fail_unless_optional() {
        let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: true}\n    - secretRef: {name: gone, optional: true}\n    - secretRef: {name: gone}\n",
        );
        let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
        assert_eq!(e.path, "spec.containers[0].envFrom[2].secretRef");
        assert_eq!(e.message, "secret \"gone\" not found");
        let pod =
            inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: false}\n");
        let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
        assert_eq!(e.message, "configmap \"gone\" not found");
        let pod =
            inline_pod("  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: gone, optional: true}\n");
        assert_eq!(resolve_first(&pod, &ConfigStore::new()).unwrap(), ResolvedEnv::default());
    }

    #[test]
    fn env_from_imports_every_key_as_the_kubelet_does() {
        // The kubelet's e2e "ConfigMap should be consumable via the environment" (and its Secret
        // twin): data-1..3 with and without the prefix "p-".
        let mut store = ConfigStore::new();
        let data = [("data-1", "value-1"), ("data-2", "value-2"), ("data-3", "value-3")];
        store.add_config_map("ns", &config_map("cm", &data)).unwrap();
        let odd = [("1badkey", b"v-one".as_slice()), ("..x", b"v-two"), ("config.yaml", b"v-three")];
        store.add_secret("ns", &secret("s", &odd)).unwrap();
        let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n    - {prefix: p-, configMapRef: {name: cm}}\n    - secretRef: {name: s}\n",
        );
        let env = resolve_first(&pod, &store).unwrap();
        assert_eq!(
            env.vars,
            vars(&[
                ("data-1", "value-1"),
                ("data-2", "value-2"),
                ("data-3", "value-3"),
                ("p-data-1", "value-1"),
                ("p-data-2", "value-2"),
                ("p-data-3", "value-3"),
                ("..x", "v-two"),
                ("1badkey", "v-one"),
                ("config.yaml", "v-three"),
            ])
        );
        assert!(env.warnings.is_empty(), "{:?}", env.warnings);
    }

    #[test]
    fn a_key_no_environment_can_hold_is_skipped_with_a_warning_naming_keys_not_values() {
        // Validation refuses such keys in a ConfigMap or Secret; the store itself does not.
        let mut store = ConfigStore::new();
        store.add_secret("ns", &secret("s", &[("a=b", b"hidden-value"), ("ok", b"fine")])).unwrap();
        let pod = inline_pod("  - name: c\n    image: x\n    envFrom:\n    - secretRef: {name: s}\n");
        let env = resolve_first(&pod, &store).unwrap();
        assert_eq!(env.vars, vars(&[("ok", "fine")]));
        assert_eq!(
            env.warnings,
            ["spec.containers[0].envFrom[0].secretRef: keys [a=b] from the EnvFrom secret ns/s were skipped since \
              they are considered invalid environment variable names"]
        );
        assert!(!env.warnings.join("\n").contains("hidden"));
    }

    #[test]
    fn key_refs_fail_with_the_kubelets_messages_unless_optional() {
        let mut store = ConfigStore::new();
        store.add_config_map("ns", &config_map("cm", &[("present", "x")])).unwrap();
        store.add_secret("ns", &secret("s", &[("present", b"y")])).unwrap();
        let case = |source: &str| {
            let pod = inline_pod(&format!(
                "  - name: c\n    image: x\n    env:\n    - {{name: FIRST, value: '1'}}\n    - name: V\n      valueFrom: {{{source}}}\n"
            ));
            resolve_first(&pod, &store)
        };
        let message = |source: &str| {
            let e = case(source).unwrap_err();
            assert!(e.path.starts_with("spec.containers[0].env[1].valueFrom."), "{e}");
            e.to_string()
        };
        assert_eq!(
            message("configMapKeyRef: {name: nope, key: k}"),
            "spec.containers[0].env[1].valueFrom.configMapKeyRef: configmap \"nope\" not found"
        );
        assert_eq!(
            message("configMapKeyRef: {name: cm, key: k}"),
            "spec.containers[0].env[1].valueFrom.configMapKeyRef: couldn't find key k in ConfigMap ns/cm"
        );
        assert_eq!(
            message("secretKeyRef: {name: nope, key: k}"),
            "spec.containers[0].env[1].valueFrom.secretKeyRef: secret \"nope\" not found"
        );
        assert_eq!(
            message("secretKeyRef: {name: s, key: k}"),
            "spec.containers[0].env[1].valueFrom.secretKeyRef: couldn't find key k in Secret ns/s"
        );
        // Optional and absent: the variable is not set at all.
        for source in [
            "configMapKeyRef: {name: nope, key: k, optional: true}",
            "configMapKeyRef: {name: cm, key: k, optional: true}",
            "secretKeyRef: {name: nope, key: k, optional: true}",
            "secretKeyRef: {name: s, key: k, optional: true}",
        ] {
            assert_eq!(case(source).unwrap().vars, vars(&[("FIRST", "1")]), "{source}");
        }
        assert_eq!(case("secretKeyRef: {name: s, key: present}").unwrap().vars, vars(&[("FIRST", "1"), ("V", "y")]));
    }

    #[test]
    fn an_optional_absent_key_leaves_an_env_from_value_alone() {
        let mut store = ConfigStore::new();
        store.add_config_map("ns", &config_map("cm", &[("V", "from-env-from")])).unwrap();
        let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - configMapRef: {name: cm}\n    env:\n    - name: V\n      valueFrom: {configMapKeyRef: {name: cm, key: absent, optional: true}}\n",
        );
        assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("V", "from-env-from")]));
    }

    #[test]
    fn a_missing_secret_key_error_shows_no_secret_value_nor_base64() {
        let mut store = configs();
        let binary: &[u8] = b"s3cr3t-binary-value-\x01\x02";
        store.add_secret("default", &secret("inline", &[("token", binary), ("other", b"another-s3cr3t")])).unwrap();
        let mut values: Vec<Vec<u8>> = vec![b"ada.lovelace".to_vec(), b"not-a-real-password-7".to_vec()];
        values.extend([binary.to_vec(), b"another-s3cr3t".to_vec()]);
        for name in ["app-credentials", "inline"] {
            let pod = pod_in(
                "default",
                &format!(
                    "  - name: c\n    image: x\n    env:\n    - name: X\n      valueFrom: {{secretKeyRef: {{name: {name}, key: missing}}}}\n"
                ),
            );
            let e = resolve_first(&pod, &store).unwrap_err();
            let shown = format!("{e} {e:?}");
            assert!(shown.contains(&format!("couldn't find key missing in Secret default/{name}")), "{shown}");
            for v in &values {
                let b64 = base64::engine::general_purpose::STANDARD.encode(v);
                assert!(!shown.contains(&String::from_utf8_lossy(v).into_owned()), "{shown}");
                assert!(!shown.contains(b64.trim_end_matches('=')), "{shown}");
            }
            // Nor anything shaped like encoded data: the longest run of base64 characters is a
            // `namespace/name`, far shorter than the base64 of any value above.
            let longest = shown
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '='))
                .map(str::len)
                .max();
            assert!(longest <= Some("default/mysecret".len()), "{shown}");
        }
    }

    #[test]
    fn values_from_sources_are_not_expanded() {
        let mut store = ConfigStore::new();
        store.add_config_map("ns", &config_map("cm", &[("k", "$(A)")])).unwrap();
        let pod = inline_pod(
            "  - name: c\n    image: x\n    env:\n    - {name: A, value: a}\n    - name: B\n      valueFrom: {configMapKeyRef: {name: cm, key: k}}\n",
        );
        assert_eq!(resolve_first(&pod, &store).unwrap().vars, vars(&[("A", "a"), ("B", "$(A)")]));
    }

    #[test]
    fn non_utf8_values_are_converted_lossily_with_a_warning_that_hides_them() {
        let mut store = ConfigStore::new();
        store.add_secret("ns", &secret("s", &[("BIN", b"ab\xffcd")])).unwrap();
        let pod = inline_pod(
            "  - name: c\n    image: x\n    envFrom:\n    - secretRef: {name: s}\n    env:\n    - name: K\n      valueFrom: {secretKeyRef: {name: s, key: BIN}}\n",
        );
        let env = resolve_first(&pod, &store).unwrap();
        assert_eq!(env.vars, vars(&[("BIN", "ab\u{fffd}cd"), ("K", "ab\u{fffd}cd")]));
        assert_eq!(env.warnings.len(), 2, "{:?}", env.warnings);
        assert!(
            env.warnings[0].starts_with("spec.containers[0].envFrom[0].secretRef: the value of BIN from secret ns/s")
        );
        assert!(env.warnings[1].contains("env[0].valueFrom.secretKeyRef: the value of K from Secret ns/s key BIN"));
        assert!(env.warnings.iter().all(|w| !w.contains("ab") && w.contains("not valid UTF-8")), "{:?}", env.warnings);
    }

    #[test]
    fn downward_api_errors_carry_the_field_path() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers:\n  - name: i\n    image: x\n    env:\n    - name: CPU\n      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}\n    - name: NODE\n      valueFrom: {fieldRef: {fieldPath: spec.nodeName}}\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {cpu: 500m}}\n    env:\n    - name: OTHER\n      valueFrom: {resourceFieldRef: {containerName: nope, resource: limits.cpu}}\n";
        // Not validated: the manifest layer refuses an unknown containerName first; this is the
        // resolver's own defence.
        let mut pod: Pod = serde_yaml::from_str(text).unwrap();
        crate::manifest::defaults::apply(&mut pod, "default");
        let init = resolve(&pod, &pod.spec.init_containers[0], "spec.initContainers[0]", &ConfigStore::new(), &facts());
        assert_eq!(init.unwrap().vars, vars(&[("CPU", "2000"), ("NODE", "host-1")]));
        let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
        assert_eq!(e.path, "spec.containers[0].env[0].valueFrom.resourceFieldRef");
        assert!(e.message.contains("nope"), "{e}");
        let mut pod = pod;
        pod.spec.containers[0].env[0].value_from =
            serde_yaml::from_str("{fieldRef: {fieldPath: metadata.labels}}").unwrap();
        let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
        assert_eq!(e.path, "spec.containers[0].env[0].valueFrom.fieldRef");
    }

    #[test]
    fn command_and_args_are_expanded_against_the_final_environment() {
        let pod = inline_pod(
            "  - name: a\n    image: x\n    command: [echo, '$(A)', '$$(A)', '$(NOPE)']\n    env:\n    - {name: A, value: one}\n    - {name: A, value: two}\n  - name: b\n    image: x\n    args: ['$(A)']\n  - name: c\n    image: x\n    command: []\n    args: []\n",
        );
        let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
        let (command, args) = expand_command(&pod.spec.containers[0], &env);
        assert_eq!(command, strings(&["echo", "two", "$(A)", "$(NOPE)"]));
        assert_eq!(args, None);
        let (command, args) = expand_command(&pod.spec.containers[1], &ResolvedEnv::default());
        assert_eq!((command, args), (None, strings(&["$(A)"])));
        // The kubelet treats an empty list as no list at all.
        assert_eq!(expand_command(&pod.spec.containers[2], &env), (None, None));
    }

    #[test]
    fn manifest_env_downward() {
        let pod = manifest_pod("env-downward.yaml");
        let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
        // CPU in whole cores rounded up unless a divisor says otherwise; memory in bytes.
        assert_eq!(
            env.vars,
            vars(&[
                ("GREETING", "hello"),
                ("POD_NAME", "env-downward"),
                ("POD_NAMESPACE", "default"),
                ("POD_TIER", "backend"),
                ("NODE_NAME", "host-1"),
                ("SERVICE_ACCOUNT", "default"),
                ("POD_IP", "10.88.0.7"),
                ("HOST_IP", "10.88.0.1"),
                ("CPU_LIMIT", "2"),
                ("CPU_REQUEST_MILLICORES", "250"),
                ("MEMORY_REQUEST", "33554432"),
                ("MEMORY_LIMIT_MI", "64"),
            ])
        );
        assert!(env.warnings.is_empty(), "{:?}", env.warnings);
        let (command, args) = expand_command(&pod.spec.containers[0], &env);
        assert_eq!((command, args), (strings(&["sh", "-c", "env | sort"]), None), "no $( in the command");
    }

    #[test]
    fn manifest_env_dependent() {
        let pod = manifest_pod("env-dependent.yaml");
        let env = resolve_first(&pod, &ConfigStore::new()).unwrap();
        assert_eq!(
            env.vars,
            vars(&[
                ("HOST", "127.0.0.1"),
                ("PORT", "8080"),
                // SCHEME is defined after it: the reference stays as written.
                ("EARLY_URL", "$(SCHEME)://127.0.0.1:8080"),
                ("SCHEME", "http"),
                ("URL", "http://127.0.0.1:8080"),
                ("LITERAL", "$(URL) is not expanded"),
                ("UNDEFINED", "$(NOT_DEFINED_ANYWHERE)"),
            ])
        );
        let (command, args) = expand_command(&pod.spec.containers[0], &env);
        assert_eq!(command, strings(&["sh", "-c"]));
        let script = args.and_then(|a| a.into_iter().next()).unwrap_or_default();
        assert!(script.ends_with("echo \"arg: http://127.0.0.1:8080\"\n"), "{script:?}");
        assert!(!script.contains("$("), "{script:?}");
    }

    #[test]
    fn manifest_env_config() {
        let pod = manifest_pod("env-config.yaml");
        let env = resolve_first(&pod, &configs()).unwrap();
        // envFrom first, in its order and each object's key order; env after it, replacing
        // APP_COLOR in place; the optional references to what is missing add nothing.
        assert_eq!(
            env.vars,
            vars(&[
                ("APP_COLOR", "green"),
                ("APP_LOG_LEVEL", "debug"),
                ("TOKEN", "t0k3n-for-tests"),
                ("MODE", "demo"),
                ("DB_USER", "ada.lovelace"),
            ])
        );
        assert!(env.warnings.is_empty(), "{:?}", env.warnings);
        let e = resolve_first(&pod, &ConfigStore::new()).unwrap_err();
        assert_eq!(e.to_string(), "spec.containers[0].envFrom[0].configMapRef: configmap \"app-env\" not found");
    }

    #[test]
    fn manifest_env_config_names_a_missing_key() {
        let mut pod = manifest_pod("env-config.yaml");
        // Without `optional`, the absent key is an error naming the ConfigMap.
        let absent = pod.spec.containers[0].env.iter_mut().find(|e| e.name == "ABSENT_KEY").unwrap();
        let source = absent.value_from.as_mut().and_then(|v| v.config_map_key_ref.as_mut()).unwrap();
        source.optional = None;
        let e = resolve_first(&pod, &configs()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.containers[0].env[3].valueFrom.configMapKeyRef: couldn't find key no-such-key in ConfigMap \
             default/app-files"
        );
    }
}
