//! Volumes (names, exactly one source, each source's own rules) and volume mounts.
//!
//! Sources podrun refuses (image, ephemeral; serviceAccountToken, clusterTrustBundle and
//! podCertificate projections) still count as sources here, so a volume that has one is not
//! also reported as having none; `refused.rs` says why they cannot run.

use std::collections::{BTreeMap, BTreeSet};

use super::downward::{validate_field_selector, validate_resource_selector, VOLUME_FIELD_PATHS};
use super::{is_dns1123_label, FieldError, PodContext, ABSOLUTE_PATH_MSG, LABEL_MSG};
use crate::manifest::quantity::{Quantity, QuantityError};
use crate::manifest::types::{
    Container, DownwardApiVolumeFile, KeyToPath, MountPropagation, ProjectedVolumeSource, RecursiveReadOnly, Volume,
};

const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";
const HOST_PATH_TYPES: &[&str] =
    &["", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"];

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
        validate_source(v, &path, containers, &mut problems);
        if v.name.is_empty() {
            problems.push(FieldError::required(format!("{path}.name")));
        } else if !is_dns1123_label(&v.name) {
            problems.push(FieldError::invalid(format!("{path}.name"), &v.name, LABEL_MSG));
        }
        if !names.insert(v.name.as_str()) {
            problems.push(FieldError::duplicate(format!("{path}.name"), &v.name));
        }
        if problems.is_empty() {
            valid.insert(v.name.as_str(), v);
        }
        errors.append(&mut problems);
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

fn validate_source(v: &Volume, path: &str, containers: &BTreeSet<&str>, errors: &mut Vec<FieldError>) {
    let mut sources = Sources { path, count: 0 };
    if let Some(e) = &v.empty_dir {
        sources.first("emptyDir", errors);
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
        if !matches!(medium, "" | "Memory" | "HugePages") && !medium.starts_with("HugePages-") {
            errors.push(FieldError::unsupported(format!("{p}.medium"), medium, &["", "HugePages", "Memory"]));
        }
    }
    if let Some(h) = &v.host_path {
        if sources.first("hostPath", errors) {
            let p = format!("{path}.hostPath");
            if h.path.is_empty() {
                errors.push(FieldError::required(format!("{p}.path")));
            } else {
                no_backsteps(&h.path, &format!("{p}.path"), errors);
                if !h.path.starts_with('/') {
                    errors.push(FieldError::invalid(format!("{p}.path"), &h.path, ABSOLUTE_PATH_MSG));
                }
                let t = h.type_.as_deref().unwrap_or("");
                if !HOST_PATH_TYPES.contains(&t) {
                    errors.push(FieldError::unsupported(format!("{p}.type"), t, HOST_PATH_TYPES));
                }
            }
        }
    }
    if let Some(s) = &v.secret {
        if sources.first("secret", errors) {
            let p = format!("{path}.secret");
            if s.secret_name.is_empty() {
                errors.push(FieldError::required(format!("{p}.secretName")));
            }
            file_mode(s.default_mode, &format!("{p}.defaultMode"), errors);
            for (i, kp) in s.items.iter().enumerate() {
                key_to_path(kp, &format!("{p}.items[{i}]"), errors);
            }
        }
    }
    if let Some(c) = &v.persistent_volume_claim {
        if sources.first("persistentVolumeClaim", errors) && c.claim_name.is_empty() {
            errors.push(FieldError::required(format!("{path}.persistentVolumeClaim.claimName")));
        }
    }
    if let Some(d) = &v.downward_api {
        if sources.first("downwardAPI", errors) {
            let p = format!("{path}.downwardAPI");
            file_mode(d.default_mode, &format!("{p}.defaultMode"), errors);
            for (i, f) in d.items.iter().enumerate() {
                downward_file(f, &format!("{p}.items[{i}]"), containers, errors);
            }
        }
    }
    if let Some(c) = &v.config_map {
        if sources.first("configMap", errors) {
            let p = format!("{path}.configMap");
            if c.name.is_empty() {
                errors.push(FieldError::required(format!("{p}.name")));
            }
            file_mode(c.default_mode, &format!("{p}.defaultMode"), errors);
            for (i, kp) in c.items.iter().enumerate() {
                key_to_path(kp, &format!("{p}.items[{i}]"), errors);
            }
        }
    }
    if let Some(p) = &v.projected {
        if sources.first("projected", errors) {
            projected(p, &format!("{path}.projected"), containers, errors);
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
    if v.image.is_some() {
        sources.first("image", errors);
    }
    if sources.count == 0 {
        errors.push(FieldError::required_because(path, "must specify a volume type"));
    }
}

fn projected(p: &ProjectedVolumeSource, path: &str, containers: &BTreeSet<&str>, errors: &mut Vec<FieldError>) {
    file_mode(p.default_mode, &format!("{path}.defaultMode"), errors);
    // Two sources may not write the same file.
    let mut paths = BTreeSet::new();
    let mut claim = |file: &str, owner: &str, errors: &mut Vec<FieldError>| {
        if !file.is_empty() && !paths.insert(file.to_owned()) {
            errors.push(FieldError::invalid(path, owner, "conflicting duplicate paths"));
        }
    };
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
                key_to_path(kp, &format!("{sp}.{field}.items[{j}]"), errors);
                claim(&kp.path, &keys.name, errors);
            }
        }
        if let Some(d) = &source.downward_api {
            count += 1;
            for (j, f) in d.items.iter().enumerate() {
                downward_file(f, &format!("{sp}.downwardAPI.items[{j}]"), containers, errors);
                claim(&f.path, &f.path, errors);
            }
        }
        let refused = [&source.service_account_token, &source.cluster_trust_bundle, &source.pod_certificate];
        count += refused.iter().filter(|s| s.as_ref().is_some_and(|v| !v.is_null())).count();
        if count > 1 {
            errors.push(FieldError::forbidden(sp, "may not specify more than 1 volume type per source"));
        }
    }
}

fn file_mode(mode: Option<i64>, path: &str, errors: &mut Vec<FieldError>) {
    if let Some(m) = mode.filter(|m| !(0..=0o777).contains(m)) {
        errors.push(FieldError::invalid_raw(path, m, FILE_MODE_MSG));
    }
}

fn key_to_path(kp: &KeyToPath, path: &str, errors: &mut Vec<FieldError>) {
    if kp.key.is_empty() {
        errors.push(FieldError::required(format!("{path}.key")));
    }
    if kp.path.is_empty() {
        errors.push(FieldError::required(format!("{path}.path")));
    }
    local_non_reserved_path(&kp.path, &format!("{path}.path"), errors);
    file_mode(kp.mode, &format!("{path}.mode"), errors);
}

/// The API server reports these at the volume source; the item's own path is more use.
fn downward_file(f: &DownwardApiVolumeFile, path: &str, containers: &BTreeSet<&str>, errors: &mut Vec<FieldError>) {
    if f.path.is_empty() {
        errors.push(FieldError::required(format!("{path}.path")));
    }
    local_non_reserved_path(&f.path, &format!("{path}.path"), errors);
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

fn no_backsteps(target: &str, path: &str, errors: &mut Vec<FieldError>) {
    if target.split('/').any(|part| part == "..") {
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
        if m.mount_path.is_empty() {
            errors.push(FieldError::required(format!("{mp}.mountPath")));
        } else if !m.mount_path.starts_with('/') {
            errors.push(FieldError::invalid(format!("{mp}.mountPath"), &m.mount_path, ABSOLUTE_PATH_MSG));
        }
        // `/data` and `/data/` are one mount point to the engine.
        let point = match m.mount_path.trim_end_matches('/') {
            "" => "/",
            p => p,
        };
        if !m.mount_path.is_empty() && !mount_points.insert(point) {
            errors.push(FieldError::invalid(format!("{mp}.mountPath"), &m.mount_path, "must be unique"));
        }
        let sub_path = m.sub_path.as_deref().unwrap_or("");
        let sub_path_expr = m.sub_path_expr.as_deref().unwrap_or("");
        if !sub_path.is_empty() {
            local_descending_path(sub_path, &format!("{mp}.subPath"), errors);
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
                format!("spec.volumes[0].name: Invalid value: \"Bad\": {LABEL_MSG}"),
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
            "spec.volumes[6].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source",
        ];
        assert_eq!(errors.len(), expected.len(), "{errors:#?}");
        for (e, want) in errors.iter().zip(expected) {
            assert!(e.starts_with(want), "{e}\n  does not start with\n{want}");
        }
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
            "spec.containers[0].volumeMounts[2].mountPath: Invalid value: \"rel\": podrun needs an absolute path",
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
