//! What podrun last saw of a pod that the engine cannot tell later, kept beside the pod's other
//! files on the host (`record.json`): `podrun get` has no manifest and runs no probes, and reads
//! it to report the pod as the kubelet's status manager would. It holds the manifest's
//! containers (app containers are listed before they exist, waiting `PodInitializing`), the
//! restart policy, the last readiness podrun's probes gave each probed container instance (once
//! nothing probes, nothing else may claim readiness), the termination messages podrun read, and
//! the pod's own failure (`DeadlineExceeded`) with its start.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::manifest::types::RestartPolicy;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodRecord {
    pub restart_policy: RestartPolicy,
    /// In the manifest's order.
    #[serde(default)]
    pub init_containers: Vec<RecordedContainer>,
    #[serde(default)]
    pub containers: Vec<RecordedContainer>,
    /// By engine container id: whether the instance was ready when podrun last looked, for the
    /// containers whose readiness a probe decides.
    #[serde(default)]
    pub ready: BTreeMap<String, bool>,
    /// By engine container id: the termination message podrun read for the instance.
    #[serde(default)]
    pub messages: BTreeMap<String, String>,
    /// The pod's own failure, as the kubelet sets `status.reason` and `status.message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// When the pod first started (RFC 3339), kept across podrun runs: the kubelet sets
    /// `status.startTime` once, and `activeDeadlineSeconds` counts from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedContainer {
    pub name: String,
    pub image: String,
    /// A readiness or startup probe decides its readiness.
    #[serde(default)]
    pub probed: bool,
    /// An init container that keeps running beside the app containers.
    #[serde(default)]
    pub sidecar: bool,
}

impl PodRecord {
    pub fn container(&self, name: &str) -> Option<&RecordedContainer> {
        self.init_containers.iter().chain(&self.containers).find(|c| c.name == name)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// `None` for a file that is not a record (damaged, or from another version): `get` then
    /// shows what the engine alone tells.
    pub fn from_json(text: &str) -> Option<PodRecord> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_a_damaged_one_is_none() {
        let r = PodRecord {
            restart_policy: RestartPolicy::Never,
            init_containers: vec![RecordedContainer {
                name: "i".into(),
                image: "busybox".into(),
                probed: false,
                sidecar: false,
            }],
            containers: vec![RecordedContainer {
                name: "a".into(),
                image: "busybox".into(),
                probed: true,
                sidecar: false,
            }],
            ready: BTreeMap::from([("id1".into(), false)]),
            messages: BTreeMap::from([("id0".into(), "bye".into())]),
            reason: Some("DeadlineExceeded".into()),
            message: None,
            start_time: Some("2024-01-01T00:00:00Z".into()),
        };
        assert_eq!(PodRecord::from_json(&r.to_json()), Some(r.clone()));
        assert_eq!(r.container("a").map(|c| c.probed), Some(true));
        assert_eq!(PodRecord::from_json("{not json"), None);
    }
}
