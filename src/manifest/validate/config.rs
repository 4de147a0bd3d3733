//! ConfigMaps, Secrets and PersistentVolumeClaims: the objects a pod refers to. Messages name
//! keys, never values: a Secret's values must not reach a terminal or a log.

use std::collections::BTreeMap;

use super::{validate_meta, FieldError};
use crate::manifest::config_store::SecretBytes;
use crate::manifest::types::{ConfigMap, PersistentVolumeClaim, Secret};

const CONFIG_KEY_MAX: usize = 253;
/// A ConfigMap's or Secret's data may not exceed 1 MiB, as etcd stores it.
const MAX_DATA_BYTES: usize = 1024 * 1024;
const CONFIG_KEY_MSG: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or \
    '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/// Why `key` cannot be a ConfigMap or Secret key (a file name in a volume, so no '/' and no
/// '..'), in the API server's words; empty when it can.
pub fn config_key_problems(key: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if key.len() > CONFIG_KEY_MAX {
        problems.push(format!("must be no more than {CONFIG_KEY_MAX} characters"));
    }
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) {
        problems.push(CONFIG_KEY_MSG.to_owned());
    }
    match key {
        "." => problems.push("must not be '.'".to_owned()),
        ".." => problems.push("must not be '..'".to_owned()),
        k if k.starts_with("..") => problems.push("must not start with '..'".to_owned()),
        _ => {}
    }
    problems
}

fn check_keys<'a>(field: &str, keys: impl Iterator<Item = &'a String>, errors: &mut Vec<FieldError>) {
    for key in keys {
        for why in config_key_problems(key) {
            errors.push(FieldError::invalid(format!("{field}[{key}]"), key, &why));
        }
    }
}

pub fn validate_config_map(cm: &ConfigMap) -> Vec<FieldError> {
    let mut errors = Vec::new();
    validate_meta(&cm.metadata, &mut errors);
    check_keys("data", cm.data.keys(), &mut errors);
    for key in cm.data.keys().filter(|k| cm.binary_data.contains_key(*k)) {
        errors.push(FieldError::invalid(format!("data[{key}]"), key, "duplicate of key present in binaryData"));
    }
    check_keys("binaryData", cm.binary_data.keys(), &mut errors);
    // binaryData is counted as written (base64), a little more than the API server counts.
    let size: usize = cm.data.values().chain(cm.binary_data.values()).map(String::len).sum();
    if size > MAX_DATA_BYTES {
        errors.push(FieldError::too_long("data", MAX_DATA_BYTES));
    }
    errors
}

/// The checks that need no decoding; the type's required keys come after decoding
/// ([`validate_secret_type`]).
pub fn validate_secret(s: &Secret) -> Vec<FieldError> {
    let mut errors = Vec::new();
    validate_meta(&s.metadata, &mut errors);
    check_keys("data", s.data.keys(), &mut errors);
    // The API server merges stringData into data before it validates; naming the field the
    // key was written in is more use.
    check_keys("stringData", s.string_data.keys(), &mut errors);
    errors
}

/// The keys a Secret of a well-known type must hold, in its decoded entries (`data` and
/// `stringData` merged).
pub fn validate_secret_type(type_: Option<&str>, entries: &BTreeMap<String, SecretBytes>) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let required = |key: &str, errors: &mut Vec<FieldError>| {
        if !entries.contains_key(key) {
            errors.push(FieldError::required(format!("data[{key}]")));
        }
    };
    let size: usize = entries.values().map(|v| v.0.len()).sum();
    if size > MAX_DATA_BYTES {
        errors.push(FieldError::too_long("data", MAX_DATA_BYTES));
    }
    match type_.unwrap_or("") {
        "kubernetes.io/dockercfg" => json_key(".dockercfg", entries, &mut errors),
        "kubernetes.io/dockerconfigjson" => json_key(".dockerconfigjson", entries, &mut errors),
        // Either key will do; an empty value too.
        "kubernetes.io/basic-auth" if !entries.contains_key("username") && !entries.contains_key("password") => {
            required("username", &mut errors);
            required("password", &mut errors);
        }
        "kubernetes.io/ssh-auth" if entries.get("ssh-privatekey").is_none_or(|v| v.0.is_empty()) => {
            errors.push(FieldError::required("data[ssh-privatekey]"));
        }
        "kubernetes.io/tls" => {
            required("tls.crt", &mut errors);
            required("tls.key", &mut errors);
        }
        // Opaque, service account tokens (which need an API server, but a pod may still mount
        // one's data) and any type of the user's own: nothing required.
        _ => {}
    }
    errors
}

/// A key that must hold a JSON object. The error describes the JSON problem by position only.
fn json_key(key: &str, entries: &BTreeMap<String, SecretBytes>, errors: &mut Vec<FieldError>) {
    let Some(value) = entries.get(key) else {
        return errors.push(FieldError::required(format!("data[{key}]")));
    };
    if let Err(e) = serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&value.0) {
        let why = format!("not a JSON object ({:?} at line {} column {})", e.classify(), e.line(), e.column());
        errors.push(FieldError::invalid(format!("data[{key}]"), "<secret contents redacted>", &why));
    }
}

pub fn validate_claim(claim: &PersistentVolumeClaim) -> Vec<FieldError> {
    let mut errors = Vec::new();
    validate_meta(&claim.metadata, &mut errors);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::ObjectMeta;

    fn meta(name: &str) -> ObjectMeta {
        ObjectMeta { name: name.into(), ..Default::default() }
    }

    fn strings(errors: Vec<FieldError>) -> Vec<String> {
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn config_keys() {
        for ok in ["a", ".secret-file", "game.properties", "KEY_NAME", "key-name", "a..b"] {
            assert!(config_key_problems(ok).is_empty(), "{ok}");
        }
        assert_eq!(config_key_problems("a/b"), [CONFIG_KEY_MSG]);
        assert_eq!(config_key_problems(""), [CONFIG_KEY_MSG]);
        assert_eq!(config_key_problems("."), ["must not be '.'"]);
        assert_eq!(config_key_problems(".."), ["must not be '..'"]);
        assert_eq!(config_key_problems("..x"), ["must not start with '..'"]);
        assert_eq!(config_key_problems(&"k".repeat(254)), ["must be no more than 253 characters"]);
    }

    #[test]
    fn config_maps() {
        let cm = ConfigMap {
            metadata: meta("Bad"),
            data: [("a/b".to_owned(), "1".to_owned()), ("both".to_owned(), "x".to_owned())].into(),
            binary_data: [("both".to_owned(), "eA==".to_owned())].into(),
            immutable: Some(true),
        };
        let errors = strings(validate_config_map(&cm));
        assert!(errors[0].starts_with("metadata.name: Invalid value: \"Bad\""), "{errors:#?}");
        assert!(errors[1].starts_with("data[a/b]: Invalid value: \"a/b\": a valid config key"));
        assert_eq!(errors[2], "data[both]: Invalid value: \"both\": duplicate of key present in binaryData");
        assert_eq!(errors.len(), 3);
        let big = ConfigMap {
            metadata: meta("big"),
            data: [("k".into(), "x".repeat(MAX_DATA_BYTES + 1))].into(),
            ..Default::default()
        };
        assert_eq!(strings(validate_config_map(&big)), ["data: Too long: must have at most 1048576 bytes"]);
        assert_eq!(strings(validate_config_map(&ConfigMap::default())), ["metadata.name: Required value"]);
    }

    #[test]
    fn secrets_name_keys_never_values() {
        let s = Secret {
            metadata: meta("s"),
            data: [("ok".to_owned(), "aHVudGVyMg==".to_owned())].into(),
            string_data: [("bad key".to_owned(), "hunter2".to_owned())].into(),
            ..Default::default()
        };
        let errors = strings(validate_secret(&s));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("stringData[bad key]: Invalid value: \"bad key\""));
        assert!(!errors[0].contains("hunter2"));
    }

    #[test]
    fn secret_types_need_their_keys() {
        let entries = |pairs: &[(&str, &str)]| -> BTreeMap<String, SecretBytes> {
            pairs.iter().map(|(k, v)| (k.to_string(), SecretBytes(v.as_bytes().to_vec()))).collect()
        };
        assert!(validate_secret_type(None, &entries(&[])).is_empty());
        assert!(validate_secret_type(Some("Opaque"), &entries(&[])).is_empty());
        assert_eq!(
            strings(validate_secret_type(Some("kubernetes.io/tls"), &entries(&[("tls.crt", "c")]))),
            ["data[tls.key]: Required value"]
        );
        assert_eq!(strings(validate_secret_type(Some("kubernetes.io/basic-auth"), &entries(&[]))).len(), 2);
        assert!(validate_secret_type(Some("kubernetes.io/basic-auth"), &entries(&[("password", "")])).is_empty());
        assert_eq!(
            strings(validate_secret_type(Some("kubernetes.io/ssh-auth"), &entries(&[("ssh-privatekey", "")]))),
            ["data[ssh-privatekey]: Required value"]
        );
        let bad = strings(validate_secret_type(
            Some("kubernetes.io/dockerconfigjson"),
            &entries(&[(".dockerconfigjson", "{\"auths\": hunter2")]),
        ));
        assert_eq!(bad.len(), 1);
        assert!(bad[0]
            .starts_with("data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": not a JSON object"));
        assert!(!bad[0].contains("hunter2"));
        assert!(validate_secret_type(
            Some("kubernetes.io/dockerconfigjson"),
            &entries(&[(".dockerconfigjson", "{\"auths\": {}}")])
        )
        .is_empty());
    }
}
