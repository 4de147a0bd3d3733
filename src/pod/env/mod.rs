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
use crate::manifest::expansion::{self, Bound, Budget, TooLong, MAX_VALUE_BYTES};
use crate::manifest::types::{Container, EnvFromSource, EnvVar, EnvVarSource, FileKeySelector, KeySelector, Pod};
use crate::manifest::validate::is_env_var_name;
use crate::pod::absent::{Absent, SUPPLY};
use crate::pod::downward::{self, PodFacts};

pub mod file;

pub use file::{EnvFile, EnvFiles};

/// Why a container cannot be configured (the kubelet's CreateContainerConfigError). The message
/// names the field path and the missing object/key (or the bound an expansion would pass),
/// never a Secret's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct EnvError {
    pub path: String,
    pub message: String,
}

impl EnvError {
    /// `$(VAR)` expansion at `path` would pass podrun's bound (`manifest::expansion`), the
    /// rule validation applies to the manifest alone, here with the sources' values.
    fn too_long(path: String, e: TooLong) -> EnvError {
        EnvError { path, message: e.to_string() }
    }
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
#[cfg(test)]
pub fn resolve(
    pod: &Pod,
    container: &Container,
    path: &str,
    configs: &ConfigStore,
    facts: &PodFacts,
) -> Result<ResolvedEnv, EnvError> {
    resolve_with_files(pod, container, path, configs, facts, &EnvFiles::Unread)
}

/// As [`resolve`], with the env files the container's `fileKeyRef`s name, as read when it is
/// created (`EnvFiles::Unread`: those variables count as empty).
pub fn resolve_with_files(
    pod: &Pod,
    container: &Container,
    path: &str,
    configs: &ConfigStore,
    facts: &PodFacts,
    files: &EnvFiles,
) -> Result<ResolvedEnv, EnvError> {
    let cx = Cx {
        pod,
        container,
        path,
        configs,
        facts,
        files,
        namespace: pod.metadata.namespace.as_deref().unwrap_or(DEFAULT_NAMESPACE),
    };
    let mut env = OrderedEnv::default();
    let mut budget = Budget::new(Bound::Env);
    let mut warnings = Vec::new();
    for (i, source) in container.env_from.iter().enumerate() {
        add_env_from(&cx, i, source, &mut env, &mut warnings)?;
        // What the sources hold now, as one may set another's names again.
        budget = Budget::new(Bound::Env);
        budget.spend(env.bytes).map_err(|e| EnvError::too_long(format!("{path}.envFrom[{i}]"), e))?;
    }
    for (j, var) in container.env.iter().enumerate() {
        // An optional reference to something absent leaves the variable unset, not empty.
        if let Some(value) = env_value(&cx, j, var, &env, &mut budget, &mut warnings)? {
            env.set(&var.name, value);
        }
    }
    Ok(ResolvedEnv { vars: env.vars, warnings })
}

/// Kubernetes `$(VAR)` expansion of one string against `vars` (later entries win): `$(NAME)`
/// with NAME defined is replaced; undefined references are left as written; `$$` becomes `$`;
/// `$$(NAME)` is the literal `$(NAME)`; an unclosed `$(` is left as is. `Err` past
/// [`MAX_VALUE_BYTES`].
pub fn expand(s: &str, vars: &[(String, String)]) -> Result<String, TooLong> {
    let lookup = lookup_table(vars);
    expansion::expand(s, |name| lookup.get(name).copied(), MAX_VALUE_BYTES)
}

/// `command` and `args` after expansion against the resolved environment (None stays None),
/// within podrun's bound for them; `path` is the container's, for the error.
///
/// An empty list also comes back as None: the kubelet treats `command: []` exactly like no
/// `command` (the image's ENTRYPOINT runs), and so must the caller.
pub fn expand_command(container: &Container, env: &ResolvedEnv, path: &str) -> Result<ExpandedCommand, EnvError> {
    let lookup = lookup_table(&env.vars);
    let mut budget = Budget::new(Bound::Command);
    let mut expand_all = |list: &Option<Vec<String>>, field: &str| -> Result<Option<Vec<String>>, EnvError> {
        let Some(list) = list.as_ref().filter(|l| !l.is_empty()) else { return Ok(None) };
        let expanded = list.iter().enumerate().map(|(i, s)| {
            budget
                .expand(s, |name| lookup.get(name).copied())
                .map_err(|e| EnvError::too_long(format!("{path}.{field}[{i}]"), e))
        });
        expanded.collect::<Result<_, _>>().map(Some)
    };
    Ok((expand_all(&container.command, "command")?, expand_all(&container.args, "args")?))
}

/// A container's `command` and `args`, expanded.
pub type ExpandedCommand = (Option<Vec<String>>, Option<Vec<String>>);

/// What every step of `resolve` needs to know.
struct Cx<'a> {
    pod: &'a Pod,
    container: &'a Container,
    path: &'a str,
    configs: &'a ConfigStore,
    facts: &'a PodFacts,
    files: &'a EnvFiles,
    namespace: &'a str,
}

/// Variables in order of first definition; setting a defined name replaces its value in place.
#[derive(Default)]
struct OrderedEnv {
    vars: Vec<(String, String)>,
    index: HashMap<String, usize>,
    /// The names and values held, in bytes.
    bytes: usize,
}

impl OrderedEnv {
    fn set(&mut self, name: &str, value: String) {
        self.bytes += value.len();
        match self.index.get(name) {
            Some(&i) => {
                self.bytes -= self.vars[i].1.len();
                self.vars[i].1 = value;
            }
            None => {
                self.bytes += name.len();
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

/// ConfigMap or Secret: where they differ is only in names and messages.
#[derive(Clone, Copy)]
enum Kind {
    ConfigMap,
    Secret,
}

impl Kind {
    /// The object is absent: in the words of every missing ConfigMap or Secret, with how to
    /// supply it.
    fn not_found(self, namespace: &str, name: &str) -> String {
        let what = Absent::Object { kind: self.title(), namespace: namespace.to_owned(), name: name.to_owned() };
        format!("{what} ({SUPPLY})")
    }

    /// The object lacks the key, worded as [`Kind::not_found`].
    fn no_key(self, namespace: &str, name: &str, key: &str) -> String {
        let what = Absent::Key {
            kind: self.title(),
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            key: key.to_owned(),
        };
        format!("{what} ({SUPPLY})")
    }

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
        return Err(EnvError { path, message: kind.not_found(cx.namespace, &reference.name) });
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
    budget: &mut Budget,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, EnvError> {
    // As in the kubelet, an empty `value` counts as unset, so `valueFrom` is consulted.
    if let Some(value) = var.value.as_deref().filter(|v| !v.is_empty()) {
        let path = format!("{}.env[{j}].value", cx.path);
        let value = budget.expand(value, |name| env.get(name)).map_err(|e| EnvError::too_long(path.clone(), e))?;
        budget.spend(var.name.len()).map_err(|e| EnvError::too_long(path, e))?;
        return Ok(Some(value));
    }
    let path = format!("{}.env[{j}].valueFrom", cx.path);
    let value = match &var.value_from {
        Some(source) => value_from(cx, &path, &var.name, source, warnings)?,
        None => Some(String::new()),
    };
    let bytes = var.name.len() + value.as_ref().map_or(0, String::len);
    budget.spend(bytes).map_err(|e| EnvError::too_long(path, e))?;
    Ok(value)
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
    if let Some(selector) = &source.file_key_ref {
        return file_value(cx, selector, &format!("{path}.fileKeyRef"), var, warnings);
    }
    Ok(Some(String::new()))
}

/// fileKeyRef, as the kubelet resolves it: a file that cannot be read or parsed fails the
/// container, `optional` or not; a key the file does not define, or defines as empty, leaves
/// the variable unset when optional and fails it otherwise. Messages name the volume, the path
/// and the key (or the line), never a value.
fn file_value(
    cx: &Cx,
    sel: &FileKeySelector,
    path: &str,
    var: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, EnvError> {
    let error = |message: String| Err(EnvError { path: path.to_owned(), message });
    let where_ = format!("{:?} in volume {:?}", sel.path, sel.volume_name);
    let bytes = match cx.files.get(sel) {
        None if *cx.files == EnvFiles::Unread => return Ok(Some(String::new())),
        None => return error(format!("couldn't parse env file {where_}: it was not read")),
        Some(EnvFile::Unreadable(why)) => return error(format!("couldn't parse env file {where_}: {why}")),
        Some(EnvFile::Content(bytes)) => bytes,
    };
    let origin = format!("env file {where_} key {}", sel.key);
    let content = text(bytes, path, var, &origin, warnings);
    match file::lookup(&content, &sel.key) {
        Err(e) => error(format!("couldn't parse env file {where_}: {e}")),
        Ok(Some(value)) if !value.is_empty() => Ok(Some(value)),
        Ok(_) if sel.optional == Some(true) => Ok(None),
        Ok(_) => error(format!("environment variable key {:?} not found in file {where_}", sel.key)),
    }
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
        return if optional { Ok(None) } else { error(kind.not_found(cx.namespace, &selector.name)) };
    };
    let Some(bytes) = object.get(&selector.key) else {
        return if optional { Ok(None) } else { error(kind.no_key(cx.namespace, &selector.name, &selector.key)) };
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
mod tests;
