//! The parts of a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job) podrun reads:
//! the template, the replica counts, the selector and a StatefulSet's claim templates; and
//! the controllers' own fields validation checks.

use std::fmt;

use serde::Deserialize;

use super::{IntOrString, LabelSelector, ObjectMeta, PodSpec};
use crate::manifest::yaml::strict;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkloadKind {
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
}

impl WorkloadKind {
    pub fn from_kind(kind: &str) -> Option<WorkloadKind> {
        Some(match kind {
            "Deployment" => WorkloadKind::Deployment,
            "ReplicaSet" => WorkloadKind::ReplicaSet,
            "StatefulSet" => WorkloadKind::StatefulSet,
            "DaemonSet" => WorkloadKind::DaemonSet,
            "Job" => WorkloadKind::Job,
            _ => return None,
        })
    }

    pub fn api_version(self) -> &'static str {
        match self {
            WorkloadKind::Job => "batch/v1",
            _ => "apps/v1",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            WorkloadKind::Deployment => "Deployment",
            WorkloadKind::ReplicaSet => "ReplicaSet",
            WorkloadKind::StatefulSet => "StatefulSet",
            WorkloadKind::DaemonSet => "DaemonSet",
            WorkloadKind::Job => "Job",
        }
    }
}

impl fmt::Display for WorkloadKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The parts of a workload podrun reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: WorkloadSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpec {
    #[serde(default)]
    pub replicas: Option<i64>,
    /// Jobs.
    #[serde(default)]
    pub parallelism: Option<i64>,
    #[serde(default)]
    pub completions: Option<i64>,
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    pub template: Option<PodTemplateSpec>,
    /// StatefulSets.
    #[serde(default)]
    pub volume_claim_templates: Vec<ClaimTemplate>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ClaimTemplate {
    #[serde(default)]
    pub metadata: ObjectMeta,
}

// The controllers' own fields podrun reads only to check them as the API server does
// (`validate/workload.rs`, from the document): a StatefulSet's claim retention and ordinals,
// a Job's pod failure and success policies, a Deployment's or DaemonSet's update strategy.

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Strategy {
    #[serde(rename = "type", default, deserialize_with = "strict::string")]
    pub type_: String,
    #[serde(default)]
    pub rolling_update: Option<RollingUpdate>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdate {
    #[serde(default)]
    pub max_unavailable: Option<IntOrString>,
    #[serde(default)]
    pub max_surge: Option<IntOrString>,
    #[serde(default)]
    pub partition: Option<i32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetentionPolicy {
    #[serde(default, deserialize_with = "strict::string")]
    pub when_deleted: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub when_scaled: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct Ordinals {
    #[serde(default)]
    pub start: i32,
}

#[derive(Debug, Default, Deserialize)]
pub struct PodFailurePolicy {
    #[serde(default)]
    pub rules: Vec<PodFailurePolicyRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyRule {
    #[serde(default, deserialize_with = "strict::string")]
    pub action: String,
    #[serde(default)]
    pub on_exit_codes: Option<OnExitCodes>,
    #[serde(default)]
    pub on_pod_conditions: Vec<OnPodCondition>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnExitCodes {
    #[serde(default, deserialize_with = "strict::opt_string")]
    pub container_name: Option<String>,
    #[serde(default, deserialize_with = "strict::string")]
    pub operator: String,
    #[serde(default)]
    pub values: Option<Vec<i32>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct OnPodCondition {
    #[serde(rename = "type", default, deserialize_with = "strict::string")]
    pub type_: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub status: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct SuccessPolicy {
    #[serde(default)]
    pub rules: Vec<SuccessPolicyRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuccessPolicyRule {
    #[serde(default)]
    pub succeeded_count: Option<i32>,
    #[serde(default, deserialize_with = "strict::opt_string")]
    pub succeeded_indexes: Option<String>,
}
