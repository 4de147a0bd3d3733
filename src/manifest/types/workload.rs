//! The parts of a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job) podrun reads:
//! the template, the replica counts, the selector and a StatefulSet's claim templates. The
//! controller's own fields are read where they are checked (`validate/workload.rs`).

use std::fmt;

use serde::Deserialize;

use super::{LabelSelector, ObjectMeta, PodSpec};

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
