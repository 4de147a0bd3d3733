//! The objects a pod may refer to: ConfigMaps, Secrets, PersistentVolumeClaims.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ObjectMeta;
use crate::manifest::yaml::strict;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigMap {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::string_map")]
    pub data: BTreeMap<String, String>,
    /// Base64, as in the API.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::binary_data")]
    pub binary_data: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub immutable: Option<bool>,
}

/// A Secret. Its values are never printed: `Debug` is written by hand to hide them.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(
        rename = "type",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "strict::opt_string"
    )]
    pub type_: Option<String>,
    /// Base64, as in the API.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::secret_data")]
    pub data: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::string_map")]
    pub string_data: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub immutable: Option<bool>,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let keys: Vec<&String> = self.data.keys().chain(self.string_data.keys()).collect();
        f.debug_struct("Secret")
            .field("metadata", &self.metadata)
            .field("type", &self.type_)
            .field("keys", &keys)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    #[serde(default)]
    pub metadata: ObjectMeta,
}
