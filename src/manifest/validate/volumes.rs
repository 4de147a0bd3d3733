//! Volumes (names, exactly one source, each source's own rules) and volume mounts.
//!
//! Sources podrun refuses (ephemeral; serviceAccountToken, clusterTrustBundle and
//! podCertificate projections) still count as sources here, so a volume that has one is not
//! also reported as having none; `refused.rs` says why they cannot run.

use std::collections::{BTreeMap, BTreeSet};

use super::downward::{validate_field_selector, validate_resource_selector, VOLUME_FIELD_PATHS};
use super::{is_dns1123_label, is_dns1123_subdomain, label_msg, FieldError, PodContext, ABSOLUTE_PATH_MSG};
use crate::manifest::config_store::ConfigStore;
use crate::manifest::quantity::{Quantity, QuantityError};
use crate::manifest::types::{
    Container, DownwardApiVolumeFile, EmptyDirVolumeSource, HostPathType, HostPathVolumeSource, KeyToPath,
    MountPropagation, ProjectedVolumeSource, RecursiveReadOnly, Volume,
};
use crate::manifest::volume_paths::{
    file_mode as file_mode_of, has_backstep, is_reserved, mount_point, names_nothing, path_conflicts, PathConflict,
    FILE_MODE_MSG, MAX_NAME_BYTES, MAX_PATH_BYTES,
};

/// An emptyDir's medium: the one list of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Medium {
    Disk,
    Memory,
    /// `HugePages` or `HugePages-<size>`, as written.
    HugePages(String),
}

impl Medium {
    /// The media the API server takes, for "supported values".
    pub const NAMES: [&'static str; 3] = ["", "HugePages", "Memory"];

    pub fn parse(medium: &str) -> Option<Medium> {
        match medium {
            "" => Some(Medium::Disk),
            "Memory" => Some(Medium::Memory),
            m if m == "HugePages" || m.starts_with("HugePages-") => Some(Medium::HugePages(m.to_owned())),
            _ => None,
        }
    }
}

const CLAIM_NAME_MSG: &str =
    "must be a lowercase RFC 1123 subdomain, as the name of a PersistentVolumeClaim is (podrun names an engine volume \
     after it)";

/// Checks `spec.volumes` and returns the volumes that passed, by name: only those can be
/// mounted, as in the API server (a mount of a broken volume is "Not found" too).
/// `containers` are the pod's container names, which downwardAPI files may name.
pub(super) fn validate_volumes<'a>(
    volumes: &'a [Volume],
    containers: &BTreeSet<&str>,
    errors: &mut Vec<FieldError>,
) -> BTreeMap<&'a str, &'a Volume> {
    let mut valid = BTreeMap::new();
    let mut names = BTreeSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let path = format!("spec.volumes[{i}]");
        let mut problems = Vec::new();
        // What only podrun refuses leaves the volume valid for Kubernetes: its mounts are found.
        let mut podrun = Vec::new();
        validate_source(v, &path, containers, &mut problems, &mut podrun);
        if v.name.is_empty() {
            problems.push(FieldError::required(format!("{path}.name")));
        } else if !is_dns1123_label(&v.name) {
            problems.push(FieldError::invalid(format!("{path}.name"), &v.name, &label_msg()));
        }
        if !names.insert(v.name.as_str()) {
            problems.push(FieldError::duplicate(format!("{path}.name"), &v.name));
        }
        if problems.is_empty() {
            valid.insert(v.name.as_str(), v);
        }
        errors.append(&mut problems);
        errors.append(&mut podrun);
    }
    valid
}

/// Counts sources: the second and later are each "more than 1 volume type".
struct Sources<'p> {
    path: &'p str,
    count: usize,
}

impl Sources<'_> {
    /// Whether this source is the first; the caller checks its fields only then.
    fn first(&mut self, field: &str, errors: &mut Vec<FieldError>) -> bool {
        self.count += 1;
        if self.count > 1 {
            errors.push(FieldError::forbidden(
                format!("{}.{field}", self.path),
                "may not specify more than 1 volume type",
            ));
        }
        self.count == 1
    }
}

fn negative_size(path: &str, errors: &mut Vec<FieldError>) {
    errors
        .push(FieldError::forbidden(format!("{path}.sizeLimit"), "SizeLimit field must be a valid resource quantity"));
}

/// Checks one volume's source: the API server's rules to `errors`, podrun's own (the files it
/// can write, the claims it can name) to `podrun`.
fn validate_source(
    v: &Volume,
    path: &str,
    containers: &BTreeSet<&str>,
    errors: &mut Vec<FieldError>,
    podrun: &mut Vec<FieldError>,
) {
    let mut sources = Sources { path, count: 0 };
    if let Some(e) = &v.empty_dir {
        sources.first("emptyDir", errors);
        empty_dir(e, path, errors);
    }
    if let Some(h) = &v.host_path {
        if sources.first("hostPath", errors) {
            host_path(h, path, errors);
        }
    }
    if let Some(s) = &v.secret {
        if sources.first("secret", errors) {
            let keys = (s.secret_name.as_str(), s.default_mode, s.items.as_slice());
            keyed(&format!("{path}.secret"), "secretName", keys, errors, podrun);
        }
    }
    if let Some(c) = &v.persistent_volume_claim {
        if sources.first("persistentVolumeClaim", errors) {
            let p = format!("{path}.persistentVolumeClaim.claimName");
            if c.claim_name.is_empty() {
                errors.push(FieldError::required(p));
            } else if !is_dns1123_subdomain(&c.claim_name) {
                // The API server checks only that it is there; no claim could have such a name.
                podrun.push(FieldError::invalid(p, &c.claim_name, CLAIM_NAME_MSG));
            }
        }
    }
    if let Some(d) = &v.downward_api {
        if sources.first("downwardAPI", errors) {
            let p = format!("{path}.downwardAPI");
            file_mode(d.default_mode, &format!("{p}.defaultMode"), errors);
            let mut files = Files::default();
            for (i, f) in d.items.iter().enumerate() {
                let item = format!("{p}.items[{i}]");
                downward_file(f, &item, containers, errors, podrun);
                files.add(&f.path, format!("{item}.path"));
            }
            files.check(false, podrun);
        }
    }
    if let Some(c) = &v.config_map {
        if sources.first("configMap", errors) {
            let keys = (c.name.as_str(), c.default_mode, c.items.as_slice());
            keyed(&format!("{path}.configMap"), "name", keys, errors, podrun);
        }
    }
    if let Some(p) = &v.projected {
        if sources.first("projected", errors) {
            projected(p, &format!("{path}.projected"), containers, errors, podrun);
        }
    }
    // Sources podrun does not implement (the schema walk warned) or refuses: only counted.
    for (field, value) in &v.other_sources {
        if !value.is_null() {
            sources.first(field, errors);
        }
    }
    if v.ephemeral.as_ref().is_some_and(|e| !e.is_null()) {
        sources.first("ephemeral", errors);
    }
    if let Some(image) = &v.image {
        // The API server's `validateImageVolumeSource`; the pull policy is one of its three
        // values by its type. Mounts of it may have a sub-path (Kubernetes 1.33+).
        if sources.first("image", errors) && image.reference.is_empty() {
            errors.push(FieldError::required(format!("{path}.image.reference")));
        }
    }
    if sources.count == 0 {
        errors.push(FieldError::required_because(path, "must specify a volume type"));
    }
}

/// A configMap or secret volume (`p`): the object's name (at `name_field`), its default mode
/// and its items.
fn keyed(
    p: &str,
    name_field: &str,
    (name, default_mode, items): (&str, Option<i64>, &[KeyToPath]),
    errors: &mut Vec<FieldError>,
    podrun: &mut Vec<FieldError>,
) {
    if name.is_empty() {
        errors.push(FieldError::required(format!("{p}.{name_field}")));
    }
    file_mode(default_mode, &format!("{p}.defaultMode"), errors);
    let mut files = Files::default();
    for (i, kp) in items.iter().enumerate() {
        let item = format!("{p}.items[{i}]");
        key_to_path(kp, &item, errors, podrun);
        files.add(&kp.path, format!("{item}.path"));
    }
    files.check(false, podrun);
}

fn empty_dir(e: &EmptyDirVolumeSource, path: &str, errors: &mut Vec<FieldError>) {
    let p = format!("{path}.emptyDir");
    if let Some(limit) = &e.size_limit {
        // Any magnitude is valid, as in the API server: podrun does not enforce the limit
        // (it warns so), so one beyond what it can count is no obstacle.
        match Quantity::parse(limit) {
            Ok(q) if q.is_negative() => negative_size(&p, errors),
            Err(QuantityError::TooLarge { negative: true }) => negative_size(&p, errors),
            Ok(_) | Err(QuantityError::TooLarge { negative: false }) => {}
            Err(err) => errors.push(FieldError::invalid(format!("{p}.sizeLimit"), limit, &err.to_string())),
        }
    }
    // The kubelet refuses other media at mount time; refusing them here creates nothing.
    let medium = e.medium.as_deref().unwrap_or("");
    if Medium::parse(medium).is_none() {
        errors.push(FieldError::unsupported(format!("{p}.medium"), medium, &Medium::NAMES));
    }
}

fn host_path(h: &HostPathVolumeSource, path: &str, errors: &mut Vec<FieldError>) {
    let p = format!("{path}.hostPath");
    if h.path.is_empty() {
        errors.push(FieldError::required(format!("{p}.path")));
    } else {
        no_backsteps(&h.path, &format!("{p}.path"), errors);
        if !h.path.starts_with('/') {
            errors.push(FieldError::invalid(format!("{p}.path"), &h.path, ABSOLUTE_PATH_MSG));
        }
        let t = h.type_.as_deref().unwrap_or("");
        if HostPathType::parse(t).is_none() {
            errors.push(FieldError::unsupported(format!("{p}.type"), t, &HostPathType::NAMES));
        }
    }
}

fn projected(
    p: &ProjectedVolumeSource,
    path: &str,
    containers: &BTreeSet<&str>,
    errors: &mut Vec<FieldError>,
    podrun: &mut Vec<FieldError>,
) {
    file_mode(p.default_mode, &format!("{path}.defaultMode"), errors);
    // Two sources may not write the same file: the API server's rule, on the paths as written.
    let mut paths = BTreeSet::new();
    let mut claim = |file: &str, owner: &str, errors: &mut Vec<FieldError>| {
        if !file.is_empty() && !paths.insert(file.to_owned()) {
            errors.push(FieldError::invalid(path, owner, "conflicting duplicate paths"));
        }
    };
    let mut files = Files::default();
    for (i, source) in p.sources.iter().enumerate() {
        let sp = format!("{path}.sources[{i}]");
        let mut count = 0;
        for (field, keys) in [("secret", &source.secret), ("configMap", &source.config_map)] {
            let Some(keys) = keys else { continue };
            count += 1;
            if keys.name.is_empty() {
                errors.push(FieldError::required(format!("{sp}.{field}.name")));
            }
            for (j, kp) in keys.items.iter().enumerate() {
                let item = format!("{sp}.{field}.items[{j}]");
                key_to_path(kp, &item, errors, podrun);
                claim(&kp.path, &keys.name, errors);
                files.add(&kp.path, format!("{item}.path"));
            }
        }
        if let Some(d) = &source.downward_api {
            count += 1;
            for (j, f) in d.items.iter().enumerate() {
                let item = format!("{sp}.downwardAPI.items[{j}]");
                downward_file(f, &item, containers, errors, podrun);
                claim(&f.path, &f.path, errors);
                files.add(&f.path, format!("{item}.path"));
            }
        }
        let refused = [&source.service_account_token, &source.cluster_trust_bundle, &source.pod_certificate];
        count += refused.iter().filter(|s| s.as_ref().is_some_and(|v| !v.is_null())).count();
        if count > 1 {
            errors.push(FieldError::forbidden(sp, "may not specify more than 1 volume type"));
        }
    }
    files.check(true, podrun);
}

/// The files one volume's items write (`path`s of configMap, secret, downwardAPI and
/// projected items), as podrun writes them: each file once, none where another needs a
/// directory (`volume_paths::path_conflicts`). The API server checks neither (a kubelet keeps
/// the last of two items on one path, and fails to set up a volume with a file where a
/// directory must go); podrun refuses both before anything is created.
#[derive(Default)]
struct Files {
    files: Vec<File>,
}

/// One file a volume writes.
struct File {
    /// The path as podrun writes it.
    normal: String,
    /// As written: the item's path, or the key.
    raw: String,
    /// The item's `path`, or for a key the field naming its ConfigMap or Secret.
    field: String,
    /// A key of a ConfigMap or Secret taken whole (no items), known only with the objects.
    key: bool,
}

impl Files {
    fn add(&mut self, written: &str, field: String) {
        if let Some(normal) = normal_item_path(written) {
            self.files.push(File { normal, raw: written.to_owned(), field, key: false });
        }
    }

    fn add_key(&mut self, key: &str, field: String) {
        if let Some(normal) = normal_item_path(key) {
            self.files.push(File { normal, raw: key.to_owned(), field, key: true });
        }
    }

    /// `projected`: whether the API server has reported two items on one path as written
    /// (`projected()`): those are not reported again. With keys, only the clashes a key takes
    /// part in are reported: the others were, with the pod's own checks.
    fn check(self, projected: bool, errors: &mut Vec<FieldError>) {
        let normals: Vec<&str> = self.files.iter().map(|f| f.normal.as_str()).collect();
        let with_keys = self.files.iter().any(|f| f.key);
        for (i, conflict) in path_conflicts(&normals) {
            let f = &self.files[i];
            let other = match conflict {
                PathConflict::Duplicate => normals[..i].iter().position(|n| *n == normals[i]),
                PathConflict::UnderFile(parent) => normals.iter().position(|n| *n == parent),
            }
            .map(|j| &self.files[j]);
            if with_keys && !f.key && !other.is_some_and(|o| o.key) {
                continue;
            }
            match conflict {
                PathConflict::Duplicate => {
                    let by_api_server = projected && !f.key && self.files[..i].iter().any(|o| !o.key && o.raw == f.raw);
                    if !by_api_server {
                        errors.push(FieldError::invalid(
                            &f.field,
                            &f.raw,
                            "conflicting duplicate paths (podrun writes each file of a volume once; a kubelet would \
                             keep the last)",
                        ));
                    }
                }
                PathConflict::UnderFile(parent) => errors.push(FieldError::invalid(
                    &f.field,
                    &f.raw,
                    &format!("conflicts with the file {parent:?}, which would have to be a directory"),
                )),
            }
        }
    }
}

/// The clashes the keys of ConfigMaps and Secrets (of the pod's namespace, in `configs`) make
/// in the projected volumes that take them whole, with the volume's other files: what the
/// pod's own checks cannot see, made once every object is loaded. Apply plans the volumes
/// from the same objects, so it refuses nothing validation passed.
pub(super) fn projected_keys(volumes: &[Volume], namespace: &str, configs: &ConfigStore) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, v) in volumes.iter().enumerate() {
        let Some(p) = &v.projected else { continue };
        let mut files = Files::default();
        for (k, source) in p.sources.iter().enumerate() {
            let sp = format!("spec.volumes[{i}].projected.sources[{k}]");
            for (field, keys) in [("secret", &source.secret), ("configMap", &source.config_map)] {
                let Some(keys) = keys else { continue };
                if !keys.items.is_empty() {
                    for (j, kp) in keys.items.iter().enumerate() {
                        files.add(&kp.path, format!("{sp}.{field}.items[{j}].path"));
                    }
                    continue;
                }
                let names: Vec<&String> = if field == "secret" {
                    configs.secret(namespace, &keys.name).map(|e| e.keys().collect()).unwrap_or_default()
                } else {
                    configs.config_map(namespace, &keys.name).map(|e| e.keys().collect()).unwrap_or_default()
                };
                for key in names {
                    files.add_key(key, format!("{sp}.{field}.name"));
                }
            }
            if let Some(d) = &source.downward_api {
                for (j, f) in d.items.iter().enumerate() {
                    files.add(&f.path, format!("{sp}.downwardAPI.items[{j}].path"));
                }
            }
        }
        files.check(true, &mut errors);
    }
    errors
}

/// An item's path as a file of the volume, `.` and empty components dropped; none for a path
/// the checks refuse anyway.
fn normal_item_path(written: &str) -> Option<String> {
    let parts: Vec<&str> = written.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
    let bad = written.is_empty() || written.starts_with('/') || written.contains('\0') || parts.contains(&"..");
    (!bad && !parts.is_empty()).then(|| parts.join("/"))
}

fn file_mode(mode: Option<i64>, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(m) = mode.filter(|m| file_mode_of(*m).is_none()) {
        errors.push(FieldError::invalid_raw(path, m, FILE_MODE_MSG));
    }
}

fn key_to_path(kp: &KeyToPath, path: &str, errors: &mut Vec<FieldError>, podrun: &mut Vec<FieldError>) {
    if kp.key.is_empty() {
        errors.push(FieldError::required(format!("{path}.key")));
    }
    if kp.path.is_empty() {
        errors.push(FieldError::required(format!("{path}.path")));
    }
    local_non_reserved_path(&kp.path, &format!("{path}.path"), errors);
    file_path(&kp.path, &format!("{path}.path"), podrun);
    file_mode(kp.mode, &format!("{path}.mode"), errors);
}

/// What podrun needs of a path inside a volume beyond the API server's rules: a path it can
/// make (no NUL), within the kubelet's limits for the files it writes (its atomic writer's
/// `validatePath`: 4096 bytes, 255 a name), and naming something inside the volume (`.` names
/// the volume itself).
fn file_path(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    if target.is_empty() {
        return;
    }
    if target.contains('\0') {
        errors.push(FieldError::invalid(
            path,
            target,
            "must not contain a NUL character (podrun cannot name a file so)",
        ));
    }
    if target.len() > MAX_PATH_BYTES {
        let why = format!("must be less than or equal to {MAX_PATH_BYTES} characters (the kubelet's limit)");
        errors.push(FieldError::invalid(path, target, &why));
    } else if target.split('/').any(|part| part.len() > MAX_NAME_BYTES) {
        let why = format!("filenames must be less than or equal to {MAX_NAME_BYTES} characters (the kubelet's limit)");
        errors.push(FieldError::invalid(path, target, &why));
    }
    if names_nothing(target) {
        errors.push(FieldError::invalid(path, target, "must name something inside the volume (podrun)"));
    }
}

/// The API server reports these at the volume source; the item's own path is more use.
fn downward_file(
    f: &DownwardApiVolumeFile,
    path: &str,
    containers: &BTreeSet<&str>,
    errors: &mut Vec<FieldError>,
    podrun: &mut Vec<FieldError>,
) {
    if f.path.is_empty() {
        errors.push(FieldError::required(format!("{path}.path")));
    }
    local_non_reserved_path(&f.path, &format!("{path}.path"), errors);
    file_path(&f.path, &format!("{path}.path"), podrun);
    match (&f.field_ref, &f.resource_field_ref) {
        (Some(field), resource) => {
            validate_field_selector(field, VOLUME_FIELD_PATHS, &format!("{path}.fieldRef"), errors);
            if resource.is_some() {
                errors.push(FieldError::invalid(
                    path,
                    "resource",
                    "fieldRef and resourceFieldRef can not be specified simultaneously",
                ));
            }
        }
        (None, Some(resource)) => {
            validate_resource_selector(resource, true, containers, &format!("{path}.resourceFieldRef"), errors)
        }
        (None, None) => {
            errors.push(FieldError::required_because(path, "one of fieldRef and resourceFieldRef is required"))
        }
    }
    file_mode(f.mode, &format!("{path}.mode"), errors);
}

/// What podrun needs of a sub-path beyond the API server's rules: those of an item's path
/// (`file_path`), and no name starting with `..` at its start, which the kubelet keeps for its
/// own entries in the volumes it writes.
fn sub_path_rules(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    if is_reserved(target) {
        errors.push(FieldError::invalid(path, target, "must not start with '..' (podrun)"));
    }
    file_path(target, path, errors);
}

fn no_backsteps(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    if has_backstep(target) {
        errors.push(FieldError::invalid(path, target, "must not contain '..'"));
    }
}

pub(super) fn local_descending_path(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    if target.starts_with('/') {
        errors.push(FieldError::invalid(path, target, "must be a relative path"));
    }
    no_backsteps(target, path, errors);
}

fn local_non_reserved_path(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    local_descending_path(target, path, errors);
    // `..data` and the like are the kubelet's own entries in these volumes.
    if target.starts_with("..") && !target.starts_with("../") {
        errors.push(FieldError::invalid(path, target, "must not start with '..'"));
    }
}

pub(super) fn validate_mounts(c: &Container, path: &str, ctx: &PodContext, errors: &mut Vec<FieldError>) {
    let privileged = c.security_context.as_ref().and_then(|s| s.privileged).unwrap_or(false);
    let mut mount_points = BTreeSet::new();
    for (i, m) in c.volume_mounts.iter().enumerate() {
        let mp = format!("{path}.volumeMounts[{i}]");
        if m.name.is_empty() {
            errors.push(FieldError::required(format!("{mp}.name")));
        }
        if !ctx.volumes.contains_key(m.name.as_str()) {
            errors.push(FieldError::not_found(format!("{mp}.name"), &m.name));
        }
        // `/data`, `/data/`, `/./data` and `data` are one mount point to the engine: a relative
        // path (which the API server takes) is made absolute as the kubelet makes it.
        let point = mount_point(&m.mount_path);
        if m.mount_path.is_empty() {
            errors.push(FieldError::required(format!("{mp}.mountPath")));
        } else if point == "/" {
            errors.push(FieldError::invalid(
                format!("{mp}.mountPath"),
                &m.mount_path,
                "cannot mount over / (podrun: the container's root is its image)",
            ));
        } else if !mount_points.insert(point) {
            errors.push(FieldError::invalid(format!("{mp}.mountPath"), &m.mount_path, "must be unique"));
        }
        let sub_path = m.sub_path.as_deref().unwrap_or("");
        let sub_path_expr = m.sub_path_expr.as_deref().unwrap_or("");
        if !sub_path.is_empty() {
            local_descending_path(sub_path, &format!("{mp}.subPath"), errors);
            sub_path_rules(sub_path, &format!("{mp}.subPath"), errors);
        }
        if !sub_path_expr.is_empty() {
            if !sub_path.is_empty() {
                errors.push(FieldError::invalid(
                    format!("{mp}.subPathExpr"),
                    sub_path_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            local_descending_path(sub_path_expr, &format!("{mp}.subPathExpr"), errors);
            // The expression must be a safe path already; its expansion is checked again as the
            // container is made (`pod/volumes`), where the environment is known.
            sub_path_rules(sub_path_expr, &format!("{mp}.subPathExpr"), errors);
        }
        if m.mount_propagation == Some(MountPropagation::Bidirectional) && !privileged {
            errors.push(FieldError::forbidden(
                format!("{mp}.mountPropagation"),
                "Bidirectional mount propagation is available only to privileged containers",
            ));
        }
        if matches!(m.recursive_read_only, Some(RecursiveReadOnly::Enabled | RecursiveReadOnly::IfPossible)) {
            let rro = format!("{mp}.recursiveReadOnly");
            if m.read_only != Some(true) {
                errors.push(FieldError::forbidden(&rro, "may only be specified when readOnly is true"));
            }
            if m.mount_propagation.is_some_and(|p| p != MountPropagation::None) {
                errors.push(FieldError::forbidden(
                    rro,
                    "may only be specified when mountPropagation is None or not specified",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{Pod, SecurityContext, VolumeMount};
    use crate::manifest::validate::validate_pod;

    /// The problems of a pod with these volumes and one container `c` with these mounts.
    fn problems(volumes: &str, mounts: &str) -> Vec<String> {
        let yaml = format!(
            "metadata: {{name: p}}\nspec:\n  containers: [{{name: c, image: b, volumeMounts: {mounts}}}]\n  volumes: {volumes}\n"
        );
        let pod: Pod = serde_yaml::from_str(&yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
        validate_pod(&pod).0.into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn good_volumes_of_every_implemented_kind_pass() {
        let volumes = r#"[
            {name: a, emptyDir: {medium: Memory, sizeLimit: 64Mi}},
            {name: b, hostPath: {path: /mnt, type: Directory}},
            {name: c, configMap: {name: cm, defaultMode: 0644, items: [{key: k, path: dir/k, mode: 0400}]}},
            {name: d, secret: {secretName: s, optional: true}},
            {name: e, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}},
                                            {path: cpu, resourceFieldRef: {containerName: c, resource: limits.cpu, divisor: 1m}}]}},
            {name: f, projected: {defaultMode: 420, sources: [{secret: {name: s, items: [{key: u, path: g/u}]}},
                                                             {configMap: {name: cm}},
                                                             {downwardAPI: {items: [{path: n, fieldRef: {fieldPath: metadata.name}}]}}]}},
            {name: g, persistentVolumeClaim: {claimName: data}}]"#;
        let mounts = "[{name: a, mountPath: /a}, {name: b, mountPath: /b, readOnly: true, recursiveReadOnly: Enabled, \
                      mountPropagation: None}, {name: c, mountPath: /c, subPath: dir}, {name: f, mountPath: /f, subPathExpr: $(X)}]";
        assert_eq!(problems(volumes, mounts), Vec::<String>::new());
    }

    #[test]
    fn volume_names_and_sources() {
        let errors = problems(
            "[{name: Bad, emptyDir: {}}, {name: x}, {name: x, emptyDir: {}, hostPath: {path: /tmp}, secret: {secretName: s}}]",
            "[]",
        );
        assert_eq!(
            errors,
            [
                format!("spec.volumes[0].name: Invalid value: \"Bad\": {}", label_msg()),
                "spec.volumes[1]: Required value: must specify a volume type".to_owned(),
                "spec.volumes[2].hostPath: Forbidden: may not specify more than 1 volume type".to_owned(),
                "spec.volumes[2].secret: Forbidden: may not specify more than 1 volume type".to_owned(),
                "spec.volumes[2].name: Duplicate value: \"x\"".to_owned(),
            ]
        );
    }

    #[test]
    fn source_fields() {
        let errors = problems(
            r#"[{name: a, emptyDir: {sizeLimit: -1, medium: Disk}},
                {name: b, hostPath: {path: ../etc, type: Dir}},
                {name: c, configMap: {name: "", defaultMode: 01000, items: [{key: "", path: /abs}, {key: k, path: ..x, mode: -1}]}},
                {name: d, secret: {secretName: ""}},
                {name: e, persistentVolumeClaim: {claimName: ""}},
                {name: f, downwardAPI: {items: [{path: a/../b, fieldRef: {fieldPath: status.podIP}},
                                                {path: c, resourceFieldRef: {resource: limits.cpu}},
                                                {path: d}]}},
                {name: g, projected: {sources: [{secret: {name: s, items: [{key: a, path: same}]},
                                                 configMap: {name: c, items: [{key: b, path: same}]}}]}}]"#,
            "[]",
        );
        let expected = [
            "spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity",
            "spec.volumes[0].emptyDir.medium: Unsupported value: \"Disk\": supported values: \"\", \"HugePages\", \"Memory\"",
            "spec.volumes[1].hostPath.path: Invalid value: \"../etc\": must not contain '..'",
            "spec.volumes[1].hostPath.path: Invalid value: \"../etc\": podrun needs an absolute path",
            "spec.volumes[1].hostPath.type: Unsupported value: \"Dir\"",
            "spec.volumes[2].configMap.name: Required value",
            "spec.volumes[2].configMap.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive",
            "spec.volumes[2].configMap.items[0].key: Required value",
            "spec.volumes[2].configMap.items[0].path: Invalid value: \"/abs\": must be a relative path",
            "spec.volumes[2].configMap.items[1].path: Invalid value: \"..x\": must not start with '..'",
            "spec.volumes[2].configMap.items[1].mode: Invalid value: -1",
            "spec.volumes[3].secret.secretName: Required value",
            "spec.volumes[4].persistentVolumeClaim.claimName: Required value",
            "spec.volumes[5].downwardAPI.items[0].path: Invalid value: \"a/../b\": must not contain '..'",
            "spec.volumes[5].downwardAPI.items[0].fieldRef.fieldPath: Unsupported value: \"status.podIP\"",
            "spec.volumes[5].downwardAPI.items[1].resourceFieldRef.containerName: Required value",
            "spec.volumes[5].downwardAPI.items[2]: Required value: one of fieldRef and resourceFieldRef is required",
            "spec.volumes[6].projected: Invalid value: \"c\": conflicting duplicate paths",
            "spec.volumes[6].projected.sources[0]: Forbidden: may not specify more than 1 volume type",
        ];
        assert_eq!(errors.len(), expected.len(), "{errors:#?}");
        for (e, want) in errors.iter().zip(expected) {
            assert!(e.starts_with(want), "{e}\n  does not start with\n{want}");
        }
    }

    /// The files of a volume as podrun writes them (what `pod/volumes` refused only once the
    /// pod was being prepared), table-driven as Kubernetes' TestValidateVolumes: each case one
    /// volume and the problems it must give, by path and by the start of the message.
    #[test]
    fn item_paths_are_files_podrun_can_write() {
        let long = "n".repeat(256);
        let longest = "n".repeat(255);
        let deep = vec!["d"; 2049].join("/");
        let cases: Vec<(&str, String, Vec<&str>)> = vec![
            ("two items on one path", "configMap: {name: c, items: [{key: a, path: x}, {key: b, path: ./x}]}".into(),
             vec!["spec.volumes[0].configMap.items[1].path: Invalid value: \"./x\": conflicting duplicate paths (podrun"]),
            ("a file where another needs a directory", "secret: {secretName: s, items: [{key: a, path: a}, {key: b, path: a/b}]}".into(),
             vec!["spec.volumes[0].secret.items[1].path: Invalid value: \"a/b\": conflicts with the file \"a\", which would have to be a directory"]),
            ("the directory first", "downwardAPI: {items: [{path: a/b, fieldRef: {fieldPath: metadata.name}}, {path: a, fieldRef: {fieldPath: metadata.uid}}]}".into(),
             vec!["spec.volumes[0].downwardAPI.items[0].path: Invalid value: \"a/b\": conflicts with the file \"a\""]),
            ("an over-long name", format!("configMap: {{name: c, items: [{{key: a, path: ok/{long}}}]}}"),
             vec!["filenames must be less than or equal to 255 characters (the kubelet's limit)"]),
            ("the longest name", format!("configMap: {{name: c, items: [{{key: a, path: {longest}}}]}}"), vec![]),
            ("an over-long path", format!("configMap: {{name: c, items: [{{key: a, path: {deep}}}]}}"),
             vec!["must be less than or equal to 4096 characters (the kubelet's limit)"]),
            ("a NUL", r#"configMap: {name: c, items: [{key: a, path: "a\0b"}]}"#.into(),
             vec!["spec.volumes[0].configMap.items[0].path: Invalid value: \"a\\0b\": must not contain a NUL character"]),
            ("the volume itself", "configMap: {name: c, items: [{key: a, path: ./}]}".into(),
             vec!["spec.volumes[0].configMap.items[0].path: Invalid value: \"./\": must name something inside the volume"]),
            ("projected, as written (the API server's rule, once)",
             "projected: {sources: [{configMap: {name: c, items: [{key: a, path: x}]}}, {secret: {name: s, items: [{key: b, path: x}]}}]}".into(),
             vec!["spec.volumes[0].projected: Invalid value: \"s\": conflicting duplicate paths"]),
            ("projected, the same file written otherwise",
             "projected: {sources: [{configMap: {name: c, items: [{key: a, path: x/y}]}}, {downwardAPI: {items: [{path: x//y, fieldRef: {fieldPath: metadata.name}}]}}]}".into(),
             vec!["spec.volumes[0].projected.sources[1].downwardAPI.items[0].path: Invalid value: \"x//y\": conflicting duplicate paths (podrun"]),
            ("projected, a file and a directory",
             "projected: {sources: [{configMap: {name: c, items: [{key: a, path: x}]}}, {secret: {name: s, items: [{key: b, path: x/y}]}}]}".into(),
             vec!["spec.volumes[0].projected.sources[1].secret.items[0].path: Invalid value: \"x/y\": conflicts with the file \"x\""]),
            ("distinct files side by side", "configMap: {name: c, items: [{key: a, path: a/b}, {key: b, path: a/c}, {key: c, path: ab}]}".into(), vec![]),
            ("a claim no claim could be", "persistentVolumeClaim: {claimName: Data_1}".into(),
             vec!["spec.volumes[0].persistentVolumeClaim.claimName: Invalid value: \"Data_1\": must be a lowercase RFC 1123 subdomain"]),
        ];
        for (what, source, want) in cases {
            let got = problems(&format!("[{{name: v, {source}}}]"), "[]");
            assert_eq!(got.len(), want.len(), "{what}: {got:#?}");
            for (g, w) in got.iter().zip(&want) {
                assert!(g.starts_with(w) || (!w.starts_with("spec.") && g.contains(w)), "{what}: {g}\n  is not {w}");
            }
        }
    }

    #[test]
    fn mount_points_and_sub_paths_podrun_can_mount() {
        let cases = [
            (
                "{name: v, mountPath: /}",
                "spec.containers[0].volumeMounts[0].mountPath: Invalid value: \"/\": cannot mount over /",
            ),
            ("{name: v, mountPath: //.}", "cannot mount over /"),
            (
                "{name: v, mountPath: /a/./b}, {name: v, mountPath: /a//b/}",
                "volumeMounts[1].mountPath: Invalid value: \"/a//b/\": must be unique",
            ),
            (
                "{name: v, mountPath: /a, subPath: ..x}",
                "volumeMounts[0].subPath: Invalid value: \"..x\": must not start with '..' (podrun)",
            ),
            (
                "{name: v, mountPath: /a, subPath: .}",
                "volumeMounts[0].subPath: Invalid value: \".\": must name something inside the volume",
            ),
            (
                "{name: v, mountPath: /a, subPathExpr: \"a\\0$(X)\"}",
                "volumeMounts[0].subPathExpr: Invalid value: \"a\\0$(X)\": must not contain a NUL",
            ),
        ];
        for (mounts, want) in cases {
            let got = problems("[{name: v, emptyDir: {}}]", &format!("[{mounts}]"));
            assert_eq!(got.len(), 1, "{mounts}: {got:#?}");
            assert!(got[0].contains(want), "{mounts}: {}\n  is not {want}", got[0]);
        }
        assert_eq!(
            problems("[{name: v, emptyDir: {}}]", "[{name: v, mountPath: /a, subPath: a/..b}]"),
            Vec::<String>::new()
        );
        // A volume only podrun refuses is a volume still: its mounts are found.
        let podrun_only = "[{name: v, configMap: {name: c, items: [{key: a, path: x}, {key: b, path: x}]}}]";
        let got = problems(podrun_only, "[{name: v, mountPath: /v}]");
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(got[0].contains("conflicting duplicate paths (podrun"), "{}", got[0]);
        let api =
            problems("[{name: v, configMap: {name: c, items: [{key: a, path: /x}]}}]", "[{name: v, mountPath: /v}]");
        assert!(api[1].ends_with("Not found: \"v\""), "a volume the API server refuses is not found: {api:#?}");
    }

    #[test]
    fn mounts() {
        let errors = problems(
            "[{name: v, emptyDir: {}}, {name: broken}]",
            r#"[{name: nope, mountPath: /a},
                {name: v, mountPath: ""},
                {name: v, mountPath: rel},
                {name: v, mountPath: /a/},
                {name: v, mountPath: /s, subPath: /abs, subPathExpr: x/../y},
                {name: v, mountPath: /p, mountPropagation: Bidirectional},
                {name: v, mountPath: /r, recursiveReadOnly: Enabled, mountPropagation: HostToContainer},
                {name: broken, mountPath: /b}]"#,
        );
        let expected = [
            "spec.volumes[1]: Required value: must specify a volume type",
            "spec.containers[0].volumeMounts[0].name: Not found: \"nope\"",
            "spec.containers[0].volumeMounts[1].mountPath: Required value",
            "spec.containers[0].volumeMounts[3].mountPath: Invalid value: \"/a/\": must be unique",
            "spec.containers[0].volumeMounts[4].subPath: Invalid value: \"/abs\": must be a relative path",
            "spec.containers[0].volumeMounts[4].subPathExpr: Invalid value: \"x/../y\": subPathExpr and subPath are mutually exclusive",
            "spec.containers[0].volumeMounts[4].subPathExpr: Invalid value: \"x/../y\": must not contain '..'",
            "spec.containers[0].volumeMounts[5].mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers",
            "spec.containers[0].volumeMounts[6].recursiveReadOnly: Forbidden: may only be specified when readOnly is true",
            "spec.containers[0].volumeMounts[6].recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified",
            "spec.containers[0].volumeMounts[7].name: Not found: \"broken\"",
        ];
        assert_eq!(errors.len(), expected.len(), "{errors:#?}");
        for (e, want) in errors.iter().zip(expected) {
            assert!(e.starts_with(want), "{e}\n  does not start with\n{want}");
        }
    }

    /// The API server takes a relative mountPath (`validateVolumeMounts` checks only that it
    /// is there and unique as written); the kubelet joins it to `/`. podrun compares mount
    /// points as the engine sees them, so `data` and `/data` are one.
    #[test]
    fn relative_mount_paths_are_taken_as_the_kubelet_makes_them() {
        let volumes = "[{name: v, emptyDir: {}}, {name: w, emptyDir: {}}]";
        for ok in [
            "[{name: v, mountPath: data}]",
            "[{name: v, mountPath: ~/.docker/config.json}]",
            "[{name: v, mountPath: a/../b}, {name: w, mountPath: a}]",
            "[{name: v, mountPath: ./x/}]",
        ] {
            assert_eq!(problems(volumes, ok), Vec::<String>::new(), "{ok}");
        }
        for (mounts, want) in [
            (
                "[{name: v, mountPath: data}, {name: w, mountPath: /data}]",
                "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/data\": must be unique",
            ),
            (
                "[{name: v, mountPath: x/../y}, {name: w, mountPath: y}]",
                "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"y\": must be unique",
            ),
            (
                "[{name: v, mountPath: ..}]",
                "spec.containers[0].volumeMounts[0].mountPath: Invalid value: \"..\": cannot mount over /",
            ),
            (
                "[{name: v, mountPath: .}]",
                "spec.containers[0].volumeMounts[0].mountPath: Invalid value: \".\": cannot mount over /",
            ),
        ] {
            let got = problems(volumes, mounts);
            assert_eq!(got.len(), 1, "{mounts}: {got:#?}");
            assert!(got[0].starts_with(want), "{mounts}: {}\n  is not {want}", got[0]);
        }
    }

    /// The API server's cases for image volumes (`validateImageVolumeSource`, and the mounts
    /// Kubernetes 1.33+ allows: sub-paths too).
    #[test]
    fn image_volumes_as_the_api_server_validates_them() {
        let mounts = "[{name: i, mountPath: /i}, {name: i, mountPath: /j, subPath: etc}, {name: i, mountPath: /k, \
                      subPathExpr: $(X)}, {name: i, mountPath: /l, readOnly: false}]";
        for ok in [
            "[{name: i, image: {reference: alpine}}]",
            "[{name: i, image: {reference: \"registry.k8s.io/e2e-test-images/kitten:1.7\", pullPolicy: Always}}]",
            "[{name: i, image: {reference: alpine:3, pullPolicy: IfNotPresent}}]",
            "[{name: i, image: {reference: alpine@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, pullPolicy: Never}}]",
        ] {
            assert_eq!(problems(ok, mounts), Vec::<String>::new(), "{ok}");
        }
        for (volumes, mounts, want) in [
            ("[{name: i, image: {}}]", "[]", vec!["spec.volumes[0].image.reference: Required value"]),
            (
                "[{name: i, image: {reference: \"\", pullPolicy: Always}}]",
                "[]",
                vec!["spec.volumes[0].image.reference: Required value"],
            ),
            (
                "[{name: i, image: {reference: a}, emptyDir: {}}]",
                "[]",
                vec!["spec.volumes[0].image: Forbidden: may not specify more than 1 volume type"],
            ),
            (
                "[{name: i, image: {reference: a}}]",
                "[{name: i, mountPath: /i, subPath: ../x}]",
                vec!["spec.containers[0].volumeMounts[0].subPath: Invalid value: \"../x\": must not contain '..'"],
            ),
            (
                "[{name: i, image: {}}]",
                "[{name: i, mountPath: /i}]",
                vec![
                    "spec.volumes[0].image.reference: Required value",
                    "spec.containers[0].volumeMounts[0].name: Not found: \"i\"",
                ],
            ),
        ] {
            let got = problems(volumes, mounts);
            assert_eq!(got.len(), want.len(), "{volumes} {mounts}: {got:#?}");
            for (g, w) in got.iter().zip(&want) {
                assert!(g.starts_with(w), "{g}\n  is not {w}");
            }
        }
        let yaml = "metadata: {name: p}\nspec:\n  containers: [{name: c, image: b}]\n  volumes: [{name: i, image: {reference: a, pullPolicy: Sometimes}}]\n";
        assert!(serde_yaml::from_str::<Pod>(yaml).is_err(), "a pull policy is one of three");
    }

    #[test]
    fn privileged_containers_may_propagate_both_ways() {
        let c = Container {
            security_context: Some(SecurityContext { privileged: Some(true), ..Default::default() }),
            volume_mounts: vec![VolumeMount {
                name: "v".into(),
                mount_path: "/v".into(),
                mount_propagation: Some(MountPropagation::Bidirectional),
                ..Default::default()
            }],
            ..Default::default()
        };
        let v = Volume { name: "v".into(), ..Default::default() };
        let ctx = PodContext { volumes: [("v", &v)].into(), host_users: true, container_names: BTreeSet::new() };
        let mut errors = Vec::new();
        validate_mounts(&c, "c", &ctx, &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
    }
}
