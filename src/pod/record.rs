//! What podrun last saw of a pod that the engine cannot tell later, kept beside the pod's other
//! files on the host (`record.json`): `podrun get` has no manifest and runs no probes, and reads
//! it to report the pod as the kubelet's status manager would. It holds the manifest's
//! containers (app containers are listed before they exist, waiting `PodInitializing`), the
//! restart policy (the pod's, and each container's own with its rules, which `podrun wait`
//! judges by), the last readiness podrun's probes gave each probed container instance (once
//! nothing probes, nothing else may claim readiness), the termination messages podrun read, and
//! the pod's own failure (`DeadlineExceeded`) with its start, and the containers' startup and
//! readiness probes, which `podrun wait` runs itself when no podrun drives the pod.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::manifest::types::{
    Container, ContainerPort, ContainerRestartPolicy, ContainerRestartRule, OwnRestart, Probe, RestartPolicy,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// The pod's conditions as last reported, each with when its status last changed: a
    /// condition keeps that time for as long as its status stays (`status::conditions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<RecordedCondition>,
    /// The pod's `metadata.generation`: 1 when first applied, one more at each apply that
    /// changed its spec (`spec_digest` tells), as the API server counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// FNV-1a of the spec (as JSON) the generation was given for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_digest: Option<String>,
    /// The startup and readiness probes, for a `podrun wait --for ready` that finds no podrun
    /// running them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probes: Option<RecordedProbes>,
    /// The Pod's `metadata` as the API would give it back (name, namespace, uid, labels,
    /// annotations, creationTimestamp), and its `spec` as defaulted: `podrun get -o json`
    /// shows the Pod podrun ran. Kept as JSON, so a record whose spec a later podrun would
    /// read differently still reads. The spec holds only references to Secrets and
    /// ConfigMaps, never what they resolved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<serde_json::Value>,
}

/// The probes that decide the containers' readiness, and where they go.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedProbes {
    /// A hostNetwork pod's network probes go to 127.0.0.1 (`probe::handlers::pod_address`).
    #[serde(default)]
    pub host_network: bool,
    /// By container name: each container with a startup or readiness probe.
    #[serde(default)]
    pub containers: BTreeMap<String, ContainerProbes>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerProbes {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    /// The container's ports, which a probe may name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
}

impl ContainerProbes {
    /// `c`'s startup and readiness probes; `None` when it has neither.
    pub fn of(c: &Container) -> Option<ContainerProbes> {
        (c.startup_probe.is_some() || c.readiness_probe.is_some()).then(|| ContainerProbes {
            startup_probe: c.startup_probe.clone(),
            readiness_probe: c.readiness_probe.clone(),
            ports: c.ports.clone(),
        })
    }

    /// The container `name` as far as these probes tell it: no liveness probe, so whatever
    /// probes it never asks for a restart.
    pub fn container(&self, name: &str) -> Container {
        Container {
            name: name.to_owned(),
            ports: self.ports.clone(),
            startup_probe: self.startup_probe.clone(),
            readiness_probe: self.readiness_probe.clone(),
            ..Container::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<String>,
}

/// The generation of a pod with spec digest `digest`, given what was recorded of it: 1 for a
/// pod first applied, the same for the same spec, one more for a changed one. A record from
/// before generations were kept counts as generation 1 of the spec it had.
pub fn generation(earlier: Option<&PodRecord>, digest: &str) -> i64 {
    let Some(r) = earlier else { return 1 };
    let was = r.generation.unwrap_or(1);
    match r.spec_digest.as_deref() {
        Some(d) if d != digest => was.saturating_add(1),
        _ => was,
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Its own restartPolicy and restartPolicyRules, when the manifest gave them: with the
    /// pod's restartPolicy, whether an exit is followed by a restart (`OwnRestart`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<ContainerRestartPolicy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_policy_rules: Vec<ContainerRestartRule>,
}

impl RecordedContainer {
    /// What decides whether the container is restarted after an exit, as the manifest said.
    pub fn own_restart(&self) -> OwnRestart<'_> {
        OwnRestart { policy: self.restart_policy, rules: &self.restart_policy_rules }
    }
}

impl PodRecord {
    pub fn container(&self, name: &str) -> Option<&RecordedContainer> {
        self.init_containers.iter().chain(&self.containers).find(|c| c.name == name)
    }

    /// Whether the container named `name` is restarted after it exited with `exit_code`: by
    /// its own settings as recorded (none in a record from before they were kept), else the
    /// pod's restartPolicy.
    pub fn restarts_after(&self, name: &str, exit_code: i64) -> bool {
        self.own_restart(name).restarts_after(self.restart_policy, exit_code)
    }

    /// Whether every exit of the container named `name` is followed by a restart.
    pub fn restarts_always(&self, name: &str) -> bool {
        self.own_restart(name).restarts_always(self.restart_policy)
    }

    fn own_restart(&self, name: &str) -> OwnRestart<'_> {
        self.container(name).map(RecordedContainer::own_restart).unwrap_or_default()
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
                restart_policy: None,
                restart_policy_rules: Vec::new(),
            }],
            containers: vec![RecordedContainer {
                name: "a".into(),
                image: "busybox".into(),
                probed: true,
                sidecar: false,
                restart_policy: Some(ContainerRestartPolicy::Always),
                restart_policy_rules: Vec::new(),
            }],
            ready: BTreeMap::from([("id1".into(), false)]),
            messages: BTreeMap::from([("id0".into(), "bye".into())]),
            reason: Some("DeadlineExceeded".into()),
            message: None,
            start_time: Some("2024-01-01T00:00:00Z".into()),
            conditions: vec![RecordedCondition {
                type_: "Ready".into(),
                status: "True".into(),
                last_transition_time: Some("2024-01-01T00:00:01Z".into()),
            }],
            generation: Some(2),
            spec_digest: Some("abc".into()),
            probes: Some(RecordedProbes {
                host_network: false,
                containers: BTreeMap::from([(
                    "a".into(),
                    ContainerProbes {
                        readiness_probe: Some(Probe { period_seconds: Some(1), ..Probe::default() }),
                        ..ContainerProbes::default()
                    },
                )]),
            }),
            metadata: Some(serde_json::json!({ "name": "p", "labels": { "app": "web" } })),
            spec: Some(serde_json::json!({ "containers": [{ "name": "a", "image": "busybox" }] })),
        };
        assert_eq!(PodRecord::from_json(&r.to_json()), Some(r.clone()));
        assert_eq!(r.container("a").map(|c| c.probed), Some(true));
        assert_eq!(PodRecord::from_json("{not json"), None);
    }

    #[test]
    fn a_containers_own_restart_policy_is_asked_first_and_an_old_record_has_the_pods() {
        let old = PodRecord::from_json(r#"{"restartPolicy":"Never","containers":[{"name":"a","image":"i"}]}"#)
            .expect("a record from before each container's policy was kept reads");
        assert!(!old.restarts_after("a", 1) && !old.restarts_always("a"), "the pod's Never");
        let mut r = old.clone();
        r.containers[0].restart_policy = Some(ContainerRestartPolicy::Always);
        assert!(r.restarts_after("a", 1) && r.restarts_always("a"), "its own Always");
        assert_eq!(PodRecord::from_json(&r.to_json()), Some(r.clone()));
        assert!(!r.restarts_always("unknown"), "a container the record does not name: the pod's");
    }

    #[test]
    fn generation_is_one_then_grows_with_each_changed_spec() {
        assert_eq!(generation(None, "a"), 1);
        let mut r = PodRecord::from_json(r#"{"restartPolicy":"Never"}"#).expect("an old record reads");
        assert_eq!(generation(Some(&r), "a"), 1, "a record without a generation: the spec it had was the first");
        r.generation = Some(1);
        r.spec_digest = Some("a".into());
        assert_eq!(generation(Some(&r), "a"), 1, "the same spec again");
        assert_eq!(generation(Some(&r), "b"), 2, "a changed spec");
        r.generation = Some(2);
        r.spec_digest = Some("b".into());
        assert_eq!(generation(Some(&r), "b"), 2);
        assert_eq!(generation(Some(&r), "a"), 3, "changed back is a change too");
    }
}
