//! The ConfigMaps and Secrets a run knows (from the manifest and `--config` files), by
//! namespace and name, with their values decoded. Secret values are wrapped so they cannot be
//! printed by accident.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::base64_data::decode_base64;
use super::types::{ConfigMap, Secret};

/// Bytes of a Secret: `Debug` and `Display` never show them.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretBytes(pub Vec<u8>);

impl fmt::Debug for SecretBytes {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "<redacted {} bytes>", self.0.len())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{kind} {namespace}/{name}: key {key:?}: invalid base64 data")]
    Base64 { kind: &'static str, namespace: String, name: String, key: String },
}

/// The decoded contents of one ConfigMap or Secret: key to bytes.
pub type Entries = BTreeMap<String, Vec<u8>>;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigStore {
    config_maps: BTreeMap<(String, String), Entries>,
    /// Each ConfigMap's `binaryData` keys: volumes show them, the environment does not.
    binary_keys: BTreeMap<(String, String), BTreeSet<String>>,
    secrets: BTreeMap<(String, String), BTreeMap<String, SecretBytes>>,
    /// Each Secret's `type`, when it names one: image pull secrets are read by type.
    secret_types: BTreeMap<(String, String), String>,
}

fn decode(kind: &'static str, ns: &str, name: &str, key: &str, b64: &str) -> Result<Vec<u8>, ConfigError> {
    decode_base64(b64).map_err(|_| ConfigError::Base64 {
        kind,
        namespace: ns.to_owned(),
        name: name.to_owned(),
        key: key.to_owned(),
    })
}

impl ConfigStore {
    pub fn new() -> ConfigStore {
        ConfigStore::default()
    }

    pub fn add_config_map(&mut self, namespace: &str, cm: &ConfigMap) -> Result<(), ConfigError> {
        let name = cm.metadata.name.clone();
        let mut entries: Entries = cm.data.iter().map(|(k, v)| (k.clone(), v.clone().into_bytes())).collect();
        for (k, v) in &cm.binary_data {
            entries.insert(k.clone(), decode("ConfigMap", namespace, &name, k, v)?);
        }
        let binary = cm.binary_data.keys().cloned().collect();
        self.binary_keys.insert((namespace.to_owned(), name.clone()), binary);
        self.config_maps.insert((namespace.to_owned(), name), entries);
        Ok(())
    }

    pub fn add_secret(&mut self, namespace: &str, s: &Secret) -> Result<(), ConfigError> {
        let name = s.metadata.name.clone();
        let mut entries = BTreeMap::new();
        for (k, v) in &s.data {
            entries.insert(k.clone(), SecretBytes(decode("Secret", namespace, &name, k, v)?));
        }
        // stringData wins over data for the same key, as the API server merges them.
        for (k, v) in &s.string_data {
            entries.insert(k.clone(), SecretBytes(v.clone().into_bytes()));
        }
        match &s.type_ {
            Some(t) => self.secret_types.insert((namespace.to_owned(), name.clone()), t.clone()),
            None => self.secret_types.remove(&(namespace.to_owned(), name.clone())),
        };
        self.secrets.insert((namespace.to_owned(), name), entries);
        Ok(())
    }

    pub fn config_map(&self, namespace: &str, name: &str) -> Option<&Entries> {
        self.config_maps.get(&(namespace.to_owned(), name.to_owned()))
    }

    /// A ConfigMap's `data` alone, without its `binaryData`: what the kubelet reads for the
    /// environment (`configMapKeyRef`, `envFrom`).
    pub fn config_map_text(&self, namespace: &str, name: &str) -> Option<BTreeMap<&str, &[u8]>> {
        let key = (namespace.to_owned(), name.to_owned());
        let binary = self.binary_keys.get(&key);
        let entries = self.config_maps.get(&key)?;
        Some(
            entries
                .iter()
                .filter(|(k, _)| !binary.is_some_and(|b| b.contains(*k)))
                .map(|(k, v)| (k.as_str(), v.as_slice()))
                .collect(),
        )
    }

    pub fn secret(&self, namespace: &str, name: &str) -> Option<&BTreeMap<String, SecretBytes>> {
        self.secrets.get(&(namespace.to_owned(), name.to_owned()))
    }

    /// The `type` a known Secret was written with (`None` when it names none, which the API
    /// server treats as `Opaque`, or when the Secret is unknown).
    pub fn secret_type(&self, namespace: &str, name: &str) -> Option<&str> {
        self.secret_types.get(&(namespace.to_owned(), name.to_owned())).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::ObjectMeta;

    fn meta(name: &str) -> ObjectMeta {
        ObjectMeta { name: name.into(), ..Default::default() }
    }

    #[test]
    fn decodes_and_merges() {
        let mut store = ConfigStore::new();
        let cm = ConfigMap {
            metadata: meta("c"),
            data: [("a".to_owned(), "1".to_owned())].into(),
            binary_data: [("b".to_owned(), "aGk=".to_owned())].into(),
            immutable: None,
        };
        store.add_config_map("ns", &cm).unwrap();
        assert_eq!(store.config_map("ns", "c").unwrap()["b"], b"hi");
        assert!(store.config_map("other", "c").is_none());
        // The environment sees `data` only.
        assert!(!store.config_map_text("ns", "c").unwrap().contains_key("b"));
        let s = Secret {
            metadata: meta("s"),
            data: [("k".to_owned(), "c2VjcmV0".to_owned()), ("x".to_owned(), "eA==".to_owned())].into(),
            string_data: [("x".to_owned(), "y".to_owned())].into(),
            ..Default::default()
        };
        store.add_secret("ns", &s).unwrap();
        let sec = store.secret("ns", "s").unwrap();
        assert_eq!(sec["k"].0, b"secret");
        assert_eq!(sec["x"].0, b"y");
        assert_eq!(format!("{:?}", sec["k"]), "<redacted 6 bytes>");
        assert!(!format!("{s:?}").contains("c2VjcmV0"), "Debug of a Secret hides its data");
    }

    #[test]
    fn keeps_the_secret_type() {
        let mut store = ConfigStore::new();
        let typed = Secret {
            metadata: meta("a"),
            type_: Some("kubernetes.io/dockerconfigjson".into()),
            string_data: [(".dockerconfigjson".to_owned(), "{}".to_owned())].into(),
            ..Default::default()
        };
        store.add_secret("ns", &typed).unwrap();
        store.add_secret("ns", &Secret { metadata: meta("b"), ..Default::default() }).unwrap();
        assert_eq!(store.secret_type("ns", "a"), Some("kubernetes.io/dockerconfigjson"));
        assert_eq!(store.secret_type("ns", "b"), None);
        assert_eq!(store.secret_type("ns", "absent"), None);
    }

    #[test]
    fn bad_base64_is_an_error_naming_the_key_not_the_value() {
        let s = Secret { metadata: meta("s"), data: [("k".to_owned(), "!!!".to_owned())].into(), ..Default::default() };
        let e = ConfigStore::new().add_secret("ns", &s).unwrap_err();
        assert_eq!(e.to_string(), "Secret ns/s: key \"k\": invalid base64 data");
    }
}
