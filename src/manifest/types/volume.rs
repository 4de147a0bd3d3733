//! Volumes and volume mounts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ObjectFieldSelector, ResourceFieldSelector};
use crate::manifest::yaml::strict;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeMount {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub mount_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recursive_read_only: Option<RecursiveReadOnly>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub sub_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub sub_path_expr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_propagation: Option<MountPropagation>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecursiveReadOnly {
    Disabled,
    IfPossible,
    Enabled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MountPropagation {
    None,
    HostToContainer,
    Bidirectional,
}

/// A volume: a name and exactly one source (checked by validation).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<EmptyDirVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_path: Option<HostPathVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<ConfigMapVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "downwardAPI")]
    pub downward_api: Option<DownwardApiVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projected: Option<ProjectedVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim: Option<PersistentVolumeClaimVolumeSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageVolumeSource>,
    /// Refused by validation (a claim a cluster's storage driver provisions); kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ephemeral: Option<serde_yaml::Value>,
    /// The volume sources podrun does not implement (nfs, csi, gitRepo, ...), by field name, as
    /// written. The schema walk has already refused unknown names, so only Kubernetes sources
    /// land here; validation counts them so that "exactly one source" is judged as the API
    /// server judges it.
    #[serde(flatten, skip_serializing_if = "BTreeMap::is_empty")]
    pub other_sources: BTreeMap<String, serde_yaml::Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmptyDirVolumeSource {
    /// `""` (the node's disk) or `Memory` (tmpfs).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub medium: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_quantity")]
    pub size_limit: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostPathVolumeSource {
    #[serde(default, deserialize_with = "strict::string")]
    pub path: String,
    /// `""`, DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice, BlockDevice.
    #[serde(
        rename = "type",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "strict::opt_string"
    )]
    pub type_: Option<String>,
}

/// `hostPath.type`, as validation accepts it and the volume planner checks the host for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostPathType {
    /// `""`: no check. A missing path is created as a directory, as container runtimes do.
    Unset,
    DirectoryOrCreate,
    Directory,
    FileOrCreate,
    File,
    Socket,
    CharDevice,
    BlockDevice,
}

impl HostPathType {
    /// Every type by its manifest name, in the API server's order for "supported values".
    const ALL: [(&'static str, HostPathType); 8] = [
        ("", HostPathType::Unset),
        ("BlockDevice", HostPathType::BlockDevice),
        ("CharDevice", HostPathType::CharDevice),
        ("Directory", HostPathType::Directory),
        ("DirectoryOrCreate", HostPathType::DirectoryOrCreate),
        ("File", HostPathType::File),
        ("FileOrCreate", HostPathType::FileOrCreate),
        ("Socket", HostPathType::Socket),
    ];

    /// The manifest names, for "supported values".
    pub const NAMES: [&'static str; 8] = {
        let mut names = [""; 8];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::ALL[i].0;
            i += 1;
        }
        names
    };

    pub fn parse(s: &str) -> Option<HostPathType> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyToPath {
    #[serde(default, deserialize_with = "strict::string")]
    pub key: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub mode: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigMapVolumeSource {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub default_mode: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretVolumeSource {
    #[serde(default, deserialize_with = "strict::string")]
    pub secret_name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub default_mode: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownwardApiVolumeSource {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<DownwardApiVolumeFile>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub default_mode: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownwardApiVolumeFile {
    #[serde(default, deserialize_with = "strict::string")]
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_ref: Option<ObjectFieldSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_field_ref: Option<ResourceFieldSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub mode: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectedVolumeSource {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<VolumeProjection>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_file_mode")]
    pub default_mode: Option<i64>,
}

/// One source of a projected volume. Sources podrun cannot provide on a single host
/// (serviceAccountToken, clusterTrustBundle, podCertificate) are refused by validation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeProjection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<ProjectedKeys>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<ProjectedKeys>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "downwardAPI")]
    pub downward_api: Option<DownwardApiProjection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_token: Option<serde_yaml::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_trust_bundle: Option<serde_yaml::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_certificate: Option<serde_yaml::Value>,
}

/// ConfigMapProjection and SecretProjection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectedKeys {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownwardApiProjection {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<DownwardApiVolumeFile>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimVolumeSource {
    #[serde(default, deserialize_with = "strict::string")]
    pub claim_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageVolumeSource {
    #[serde(default, deserialize_with = "strict::string")]
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_policy: Option<super::PullPolicy>,
}
