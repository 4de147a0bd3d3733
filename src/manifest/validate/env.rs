//! A container's environment: `env` (names, `value` or one `valueFrom` source) and `envFrom`.

use std::collections::{BTreeSet, HashMap};

use super::downward::{validate_field_selector, validate_resource_selector, ENV_FIELD_PATHS};
use super::volumes::local_descending_path;
use super::{
    config_key_problems, is_dns1123_subdomain, is_env_var_name, subdomain_msg, FieldError, PodContext, ENV_NAME_MSG,
};
use crate::manifest::expansion::{Bound, Budget};
use crate::manifest::types::{
    Container, EnvFromSource, EnvSourceReference, EnvVar, EnvVarSource, FileKeySelector, KeySelector,
};

pub(super) fn validate_env(
    env: &[EnvVar],
    path: &str,
    ctx: &PodContext,
    errors: &mut Vec<FieldError>,
    warnings: &mut Vec<String>,
) {
    let mut seen = BTreeSet::new();
    for (j, e) in env.iter().enumerate() {
        let epath = format!("{path}.env[{j}]");
        let name_path = format!("{epath}.name");
        if e.name.is_empty() {
            errors.push(FieldError::required(name_path));
        } else if !is_env_var_name(&e.name) {
            errors.push(FieldError::invalid(name_path, &e.name, ENV_NAME_MSG));
        } else if !seen.insert(e.name.as_str()) {
            // The API server accepts this too (and only warns): the last one wins.
            warnings.push(format!(
                "{name_path}: environment variable {:?} is set more than once; the last value wins",
                e.name
            ));
        }
        if let Some(from) = &e.value_from {
            let value = e.value.as_deref().unwrap_or("");
            validate_value_from(from, value, &format!("{epath}.valueFrom"), ctx, errors);
        }
    }
}

/// podrun's bound on `$(VAR)` expansion (`manifest::expansion`), on what the manifest itself
/// says: a variable set from a source (`valueFrom`, and with `envFrom` any name not set here)
/// counts as empty, as its text comes only at apply, which checks again with it. So what is
/// refused here is refused whatever the sources hold, and named at its field.
pub(super) fn validate_expansion(c: &Container, path: &str, errors: &mut Vec<FieldError>) {
    // With envFrom, any name may be set: one not set here counts as set and empty.
    let open = !c.env_from.is_empty();
    let mut lens: HashMap<&str, usize> = HashMap::new();
    let mut env = Budget::new(Bound::Env);
    for (j, var) in c.env.iter().enumerate() {
        let len = match var.value.as_deref().filter(|v| !v.is_empty()) {
            Some(v) => env.expanded_len(v, |n| lens.get(n).copied().or(open.then_some(0))),
            None => Ok(0),
        };
        match len.and_then(|len| env.spend(var.name.len()).map(|()| len)) {
            Ok(len) => {
                lens.insert(&var.name, len);
            }
            Err(e) => return errors.push(FieldError::new(format!("{path}.env[{j}].value"), e.to_string())),
        }
    }
    let mut command = Budget::new(Bound::Command);
    let items = c.command.iter().flatten().enumerate().map(|(i, s)| ("command", i, s));
    for (field, i, item) in items.chain(c.args.iter().flatten().enumerate().map(|(i, s)| ("args", i, s))) {
        if let Err(e) = command.expanded_len(item, |n| lens.get(n).copied().or(open.then_some(0))) {
            return errors.push(FieldError::new(format!("{path}.{field}[{i}]"), e.to_string()));
        }
    }
}

/// Neither `value` nor `valueFrom` is fine (the variable is empty), as in the API server.
fn validate_value_from(from: &EnvVarSource, value: &str, path: &str, ctx: &PodContext, errors: &mut Vec<FieldError>) {
    let mut sources = 0;
    if let Some(f) = &from.field_ref {
        sources += 1;
        validate_field_selector(f, ENV_FIELD_PATHS, &format!("{path}.fieldRef"), errors);
    }
    if let Some(r) = &from.resource_field_ref {
        sources += 1;
        validate_resource_selector(r, false, &ctx.container_names, &format!("{path}.resourceFieldRef"), errors);
    }
    if let Some(k) = &from.config_map_key_ref {
        sources += 1;
        validate_key_selector(k, &format!("{path}.configMapKeyRef"), errors);
    }
    if let Some(k) = &from.secret_key_ref {
        sources += 1;
        validate_key_selector(k, &format!("{path}.secretKeyRef"), errors);
    }
    if let Some(f) = &from.file_key_ref {
        sources += 1;
        validate_file_key_selector(f, &format!("{path}.fileKeyRef"), ctx, errors);
    }
    if sources == 0 {
        errors.push(FieldError::invalid(
            path,
            "",
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
        ));
    } else if !value.is_empty() {
        errors.push(FieldError::invalid(path, "", "may not be specified when `value` is not empty"));
    } else if sources > 1 {
        errors.push(FieldError::invalid(path, "", "may not have more than one field specified at a time"));
    }
}

/// The longest key of an env file a fileKeyRef may name, as the API server has it.
const MAX_FILE_KEY_LEN: usize = 128;

/// `fileKeyRef`, as the API server checks it: the key a variable name (the relaxed rule) of at
/// most 128 characters, the path relative and without '..', and the volume an emptyDir of the
/// pod (one that failed its own checks is "Not found", as a mount of it is).
fn validate_file_key_selector(sel: &FileKeySelector, path: &str, ctx: &PodContext, errors: &mut Vec<FieldError>) {
    let key_path = format!("{path}.key");
    if sel.key.is_empty() {
        errors.push(FieldError::required(key_path));
    } else if sel.key.len() > MAX_FILE_KEY_LEN {
        errors.push(FieldError::too_long(key_path, MAX_FILE_KEY_LEN));
    } else if !is_env_var_name(&sel.key) {
        errors.push(FieldError::invalid(key_path, &sel.key, ENV_NAME_MSG));
    }
    if sel.path.is_empty() {
        errors.push(FieldError::required(format!("{path}.path")));
    } else {
        local_descending_path(&sel.path, &format!("{path}.path"), errors);
    }
    let volume_path = format!("{path}.volumeName");
    if sel.volume_name.is_empty() {
        errors.push(FieldError::required(volume_path));
    } else {
        match ctx.volumes.get(sel.volume_name.as_str()) {
            None => errors.push(FieldError::not_found(volume_path, &sel.volume_name)),
            Some(v) if v.empty_dir.is_none() => {
                errors.push(FieldError::invalid(volume_path, &sel.volume_name, "must name an emptyDir volume"));
            }
            Some(_) => {}
        }
    }
}

fn validate_key_selector(sel: &KeySelector, path: &str, errors: &mut Vec<FieldError>) {
    if !is_dns1123_subdomain(&sel.name) {
        errors.push(FieldError::invalid(format!("{path}.name"), &sel.name, &subdomain_msg()));
    }
    if sel.key.is_empty() {
        errors.push(FieldError::required(format!("{path}.key")));
    } else {
        for why in config_key_problems(&sel.key) {
            errors.push(FieldError::invalid(format!("{path}.key"), &sel.key, &why));
        }
    }
}

pub(super) fn validate_env_from(env_from: &[EnvFromSource], path: &str, errors: &mut Vec<FieldError>) {
    for (i, ef) in env_from.iter().enumerate() {
        let p = format!("{path}.envFrom[{i}]");
        if let Some(prefix) = ef.prefix.as_deref().filter(|p| !p.is_empty()) {
            if !is_env_var_name(prefix) {
                errors.push(FieldError::invalid(format!("{p}.prefix"), prefix, ENV_NAME_MSG));
            }
        }
        let mut sources = 0;
        for (field, r) in [("configMapRef", &ef.config_map_ref), ("secretRef", &ef.secret_ref)] {
            let Some(r) = r else { continue };
            sources += 1;
            validate_object_ref(r, &format!("{p}.{field}"), errors);
        }
        // The API server reports these at `envFrom`; the item's own path is more use.
        if sources == 0 {
            errors.push(FieldError::invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"));
        } else if sources > 1 {
            errors.push(FieldError::invalid(p, "", "may not have more than one field specified at a time"));
        }
    }
}

fn validate_object_ref(r: &EnvSourceReference, path: &str, errors: &mut Vec<FieldError>) {
    if r.name.is_empty() {
        errors.push(FieldError::required(format!("{path}.name")));
    } else if !is_dns1123_subdomain(&r.name) {
        errors.push(FieldError::invalid(format!("{path}.name"), &r.name, &subdomain_msg()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{ObjectFieldSelector, ResourceFieldSelector};

    fn ctx() -> PodContext<'static> {
        PodContext { volumes: Default::default(), host_users: true, container_names: ["c"].into() }
    }

    fn check(env: Vec<EnvVar>) -> (Vec<String>, Vec<String>) {
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        validate_env(&env, "c", &ctx(), &mut errors, &mut warnings);
        (errors.into_iter().map(|e| e.to_string()).collect(), warnings)
    }

    fn var(name: &str, value: Option<&str>, from: Option<EnvVarSource>) -> EnvVar {
        EnvVar { name: name.into(), value: value.map(Into::into), value_from: from }
    }

    fn cm_key(name: &str, key: &str) -> EnvVarSource {
        EnvVarSource {
            config_map_key_ref: Some(KeySelector { name: name.into(), key: key.into(), optional: None }),
            ..Default::default()
        }
    }

    #[test]
    fn value_or_one_source() {
        let field = EnvVarSource {
            field_ref: Some(ObjectFieldSelector { api_version: None, field_path: "metadata.name".into() }),
            ..Default::default()
        };
        let (errors, _) = check(vec![
            var("A", None, None),
            var("B", Some("x"), None),
            var("C", None, Some(field.clone())),
            var("D", Some("x"), Some(field.clone())),
            var("E", None, Some(EnvVarSource::default())),
            var("F", None, Some(EnvVarSource { secret_key_ref: cm_key("s", "k").config_map_key_ref, ..field })),
        ]);
        assert_eq!(
            errors,
            [
                "c.env[3].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
                "c.env[4].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
                "c.env[5].valueFrom: Invalid value: \"\": may not have more than one field specified at a time",
            ]
        );
    }

    #[test]
    fn key_selectors_and_resource_refs() {
        let res = EnvVarSource {
            resource_field_ref: Some(ResourceFieldSelector {
                container_name: None,
                resource: "limits.gpu".into(),
                divisor: None,
            }),
            ..Default::default()
        };
        let (errors, _) = check(vec![
            var("A", None, Some(cm_key("Bad_Name", "..k"))),
            var("B", None, Some(cm_key("ok", ""))),
            var("C", None, Some(cm_key("ok", "a b"))),
            var("D", None, Some(res)),
        ]);
        assert_eq!(errors.len(), 5, "{errors:#?}");
        assert!(errors[0].starts_with("c.env[0].valueFrom.configMapKeyRef.name: Invalid value: \"Bad_Name\""));
        assert_eq!(
            errors[1],
            "c.env[0].valueFrom.configMapKeyRef.key: Invalid value: \"..k\": must not start with '..'"
        );
        assert_eq!(errors[2], "c.env[1].valueFrom.configMapKeyRef.key: Required value");
        assert!(errors[3].contains("a valid config key must consist of alphanumeric characters"), "{}", errors[3]);
        assert!(errors[4].starts_with("c.env[3].valueFrom.resourceFieldRef.resource: Unsupported value"));
    }

    fn file_key(volume: &str, path: &str, key: &str) -> EnvVarSource {
        EnvVarSource {
            file_key_ref: Some(FileKeySelector {
                volume_name: volume.into(),
                path: path.into(),
                key: key.into(),
                optional: None,
            }),
            ..Default::default()
        }
    }

    /// The API server's cases (validation_test.go, TestValidateEnv's fileKeyRef entries).
    #[test]
    fn file_key_refs() {
        let volumes: Vec<crate::manifest::types::Volume> =
            serde_yaml::from_str("[{name: data, emptyDir: {}}, {name: cfg, configMap: {name: c}}]").unwrap();
        let ctx = PodContext {
            volumes: volumes.iter().map(|v| (v.name.as_str(), v)).collect(),
            host_users: true,
            container_names: ["c"].into(),
        };
        let env = vec![
            var("OK", None, Some(file_key("data", "config.env", "DB_HOST"))),
            var("NESTED", None, Some(file_key("data", "a/b/c.env", "1-relaxed.key"))),
            var("A", None, Some(file_key("", "", ""))),
            var("B", None, Some(file_key("missing", "/abs", "K=V"))),
            var("C", None, Some(file_key("cfg", "../up", &"k".repeat(129)))),
            var("D", None, Some(file_key("data", "a/../../b", "K"))),
        ];
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        validate_env(&env, "c", &ctx, &mut errors, &mut warnings);
        let errors: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "c.env[2].valueFrom.fileKeyRef.key: Required value",
                "c.env[2].valueFrom.fileKeyRef.path: Required value",
                "c.env[2].valueFrom.fileKeyRef.volumeName: Required value",
                "c.env[3].valueFrom.fileKeyRef.key: Invalid value: \"K=V\": a valid environment variable name must \
                 consist only of printable ASCII characters other than '='",
                "c.env[3].valueFrom.fileKeyRef.path: Invalid value: \"/abs\": must be a relative path",
                "c.env[3].valueFrom.fileKeyRef.volumeName: Not found: \"missing\"",
                "c.env[4].valueFrom.fileKeyRef.key: Too long: must have at most 128 bytes",
                "c.env[4].valueFrom.fileKeyRef.path: Invalid value: \"../up\": must not contain '..'",
                "c.env[4].valueFrom.fileKeyRef.volumeName: Invalid value: \"cfg\": must name an emptyDir volume",
                "c.env[5].valueFrom.fileKeyRef.path: Invalid value: \"a/../../b\": must not contain '..'",
            ]
        );
        // A value besides it, or a second source, as for any source.
        let both =
            EnvVarSource { config_map_key_ref: cm_key("m", "k").config_map_key_ref, ..file_key("data", "p", "K") };
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        validate_env(
            &[var("X", Some("v"), Some(file_key("data", "p", "K"))), var("Y", None, Some(both))],
            "c",
            &ctx,
            &mut errors,
            &mut warnings,
        );
        let errors: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "c.env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
                "c.env[1].valueFrom: Invalid value: \"\": may not have more than one field specified at a time",
            ]
        );
    }

    #[test]
    fn names_and_duplicates() {
        let (errors, warnings) =
            check(vec![var("", None, None), var("A=B", None, None), var("A", None, None), var("A", None, None)]);
        assert_eq!(errors[0], "c.env[0].name: Required value");
        assert_eq!(
            errors[1],
            "c.env[1].name: Invalid value: \"A=B\": a valid environment variable name must consist only of \
             printable ASCII characters other than '='"
        );
        assert_eq!(errors.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("c.env[3].name: "));
        // Accepted since Kubernetes 1.34 (the relaxed rule): what the older rule refused.
        let (errors, _) = check(["..", "..a", ".", "1A", "data-1", "a b", "$x"].map(|n| var(n, None, None)).to_vec());
        assert!(errors.is_empty(), "{errors:?}");
        let (errors, _) = check(["a\u{e9}", "tab\there"].map(|n| var(n, None, None)).to_vec());
        assert_eq!(errors.len(), 2, "{errors:?}");
    }

    #[test]
    fn env_from() {
        let r = |name: &str| Some(EnvSourceReference { name: name.into(), optional: None });
        let sources = vec![
            EnvFromSource { prefix: Some("APP_".into()), config_map_ref: r("cm"), secret_ref: None },
            EnvFromSource { prefix: Some("X=".into()), config_map_ref: None, secret_ref: r("") },
            EnvFromSource::default(),
            EnvFromSource { prefix: None, config_map_ref: r("a"), secret_ref: r("B") },
        ];
        let mut errors = Vec::new();
        validate_env_from(&sources, "c", &mut errors);
        let errors: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
        assert!(
            errors[0].starts_with("c.envFrom[1].prefix: Invalid value: \"X=\": a valid environment"),
            "{errors:#?}"
        );
        assert_eq!(errors[1], "c.envFrom[1].secretRef.name: Required value");
        assert_eq!(errors[2], "c.envFrom[2]: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`");
        assert!(errors[3].starts_with("c.envFrom[3].secretRef.name: Invalid value: \"B\""));
        assert_eq!(
            errors[4],
            "c.envFrom[3]: Invalid value: \"\": may not have more than one field specified at a time"
        );
        assert_eq!(errors.len(), 5);
        // A prefix the older rule refused: a leading digit, a dash.
        let mut errors = Vec::new();
        let ok = EnvFromSource { prefix: Some("1-p.".into()), config_map_ref: r("cm"), secret_ref: None };
        validate_env_from(&[ok], "c", &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
    }
}
