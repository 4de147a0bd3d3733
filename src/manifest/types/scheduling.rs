//! The scheduling fields of a pod spec (tolerations, affinity, topology spread, readiness and
//! scheduling gates, the pod's OS), which podrun reads to check them as the API server does
//! (`validate/scheduling.rs`), from the document; of them only the OS and the scheduling gates
//! concern the node, whose admission refuses a pod for another OS or one still gated
//! (`pod/admission.rs`). And a container's `resizePolicy`, checked there too and kept on the
//! container for the planner's in-place resize (`plan::resize`).

use serde::{Deserialize, Serialize};

use super::LabelSelector;
use crate::manifest::yaml::strict;

/// The OS a pod is for (`PodOS`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PodOs {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    #[serde(default, deserialize_with = "strict::string")]
    pub key: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub operator: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub value: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub effect: String,
    #[serde(default)]
    pub toleration_seconds: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Affinity {
    #[serde(default)]
    pub node_affinity: Option<NodeAffinity>,
    #[serde(default)]
    pub pod_affinity: Option<PodAffinity>,
    #[serde(default)]
    pub pod_anti_affinity: Option<PodAffinity>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeAffinity {
    #[serde(default)]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    #[serde(default)]
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    #[serde(default)]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    #[serde(default)]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    #[serde(default)]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

/// A node selector's requirement has the fields of a label selector's (the schema's table
/// shares them too); only the operators it may name differ, which validation checks.
pub type NodeSelectorRequirement = super::LabelSelectorRequirement;

#[derive(Debug, Default, Deserialize)]
pub struct PreferredSchedulingTerm {
    #[serde(default)]
    pub weight: i32,
    #[serde(default)]
    pub preference: NodeSelectorTerm,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinity {
    #[serde(default)]
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm>,
    #[serde(default)]
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinityTerm {
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub namespace_selector: Option<LabelSelector>,
    #[serde(default, deserialize_with = "strict::strings")]
    pub namespaces: Vec<String>,
    #[serde(default, deserialize_with = "strict::string")]
    pub topology_key: String,
    #[serde(default, deserialize_with = "strict::strings")]
    pub match_label_keys: Vec<String>,
    #[serde(default, deserialize_with = "strict::strings")]
    pub mismatch_label_keys: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    #[serde(default)]
    pub weight: i32,
    #[serde(default)]
    pub pod_affinity_term: PodAffinityTerm,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    #[serde(default)]
    pub max_skew: i32,
    #[serde(default, deserialize_with = "strict::string")]
    pub topology_key: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub when_unsatisfiable: String,
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub min_domains: Option<i32>,
    #[serde(default, deserialize_with = "strict::opt_string")]
    pub node_affinity_policy: Option<String>,
    #[serde(default, deserialize_with = "strict::opt_string")]
    pub node_taints_policy: Option<String>,
    #[serde(default, deserialize_with = "strict::strings")]
    pub match_label_keys: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadinessGate {
    #[serde(default, deserialize_with = "strict::string")]
    pub condition_type: String,
}

/// A pod's scheduling gate (`PodSchedulingGate`): a name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SchedulingGate {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerResizePolicy {
    #[serde(default, deserialize_with = "strict::string")]
    pub resource_name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub restart_policy: String,
}
