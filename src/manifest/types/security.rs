//! Security contexts, container and pod level.

use serde::{Deserialize, Serialize};

use crate::manifest::yaml::strict;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SecurityContext {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_user: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_group: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_non_root: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub privileged: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Capabilities>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_root_filesystem: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_privilege_escalation: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proc_mount: Option<ProcMount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seccomp_profile: Option<Profile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_armor_profile: Option<Profile>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSecurityContext {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_user: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_group: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_non_root: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supplemental_groups: Vec<i64>,
    /// `Merge` (the default: the groups of the user in the image's /etc/group as well) or
    /// `Strict` (only runAsGroup, fsGroup and supplementalGroups).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub supplemental_groups_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fs_group: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sysctls: Vec<Sysctl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seccomp_profile: Option<Profile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_armor_profile: Option<Profile>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Capabilities {
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "strict::strings")]
    pub add: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "strict::strings")]
    pub drop: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProcMount {
    Default,
    Unmasked,
}

/// SeccompProfile and AppArmorProfile share this shape.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    #[serde(rename = "type", default, deserialize_with = "strict::string")]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub localhost_profile: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sysctl {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub value: String,
}
