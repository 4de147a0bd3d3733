//! What the driver keeps of a pod for `podrun get` (`pod::record`), and the pod's active
//! deadline (kubelet active_deadline.go: pastActiveDeadline): `activeDeadlineSeconds` after
//! the pod's start, its containers are killed and it fails with `DeadlineExceeded`.

use std::time::{Duration, SystemTime};

use crate::clock::parse_time;
use crate::pod::observed::PodObservation;
use crate::pod::record::{ContainerProbes, PodRecord, RecordedCondition, RecordedContainer, RecordedProbes};
use crate::pod::DesiredPod;
use crate::status::conditions::{api_time, engine_time};
use crate::status::{Notes, Phase, PodStatus};

/// The kubelet's reason and message for a pod past its deadline (active_deadline.go).
pub const DEADLINE_REASON: &str = "DeadlineExceeded";
pub const DEADLINE_MESSAGE: &str = "Pod was active on the node longer than the specified deadline";

/// The record of what podrun sees now. `earlier` is the record already on disk: the pod's start
/// is kept from it, as the kubelet sets `startTime` once.
pub fn record_of(
    desired: &DesiredPod,
    obs: &PodObservation,
    notes: &Notes,
    st: &PodStatus,
    earlier: Option<&PodRecord>,
) -> PodRecord {
    let recorded = |c: &crate::pod::DesiredContainer| RecordedContainer {
        name: c.name.clone(),
        image: c.image.clone(),
        probed: desired.manifest_container(c).is_some_and(|m| m.readiness_probe.is_some() || m.startup_probe.is_some()),
        sidecar: c.sidecar,
        restart_policy: desired.manifest_container(c).and_then(|m| m.restart_policy),
        restart_policy_rules: desired.manifest_container(c).map(|m| m.restart_policy_rules.clone()).unwrap_or_default(),
    };
    let init_containers: Vec<RecordedContainer> = desired.init.iter().map(recorded).collect();
    let containers: Vec<RecordedContainer> = desired.containers.iter().map(recorded).collect();
    let mut ready = std::collections::BTreeMap::new();
    let mut messages = std::collections::BTreeMap::new();
    for (c, s) in desired
        .init
        .iter()
        .zip(&st.init_container_statuses)
        .chain(desired.containers.iter().zip(&st.container_statuses))
    {
        let inst = obs.get(&c.name);
        if let Some(cur) = inst.current.as_ref() {
            if init_containers.iter().chain(&containers).any(|r| r.name == c.name && r.probed) {
                ready.insert(cur.id.clone(), s.ready);
            }
        }
        for o in inst.current.iter().chain(&inst.previous) {
            if let Some(m) = notes.messages.get(&o.id).filter(|m| !m.is_empty()) {
                messages.insert(o.id.clone(), m.clone());
            }
        }
    }
    PodRecord {
        restart_policy: desired.restart_policy,
        init_containers,
        containers,
        ready,
        messages,
        reason: st.reason.clone(),
        message: st.message.clone(),
        start_time: earlier.and_then(|r| r.start_time.clone()).or_else(|| st.start_time.clone()),
        conditions: st.recorded_conditions(),
        generation: st.observed_generation,
        spec_digest: Some(spec_digest(desired)),
        probes: recorded_probes(desired),
        metadata: Some(recorded_metadata(desired, earlier)),
        spec: serde_json::to_value(&desired.manifest.spec).ok(),
    }
}

/// The Pod's metadata as the API server gives it back: the manifest's, with the time the pod
/// was first recorded as its `creationTimestamp`, kept as the API server keeps it (a record
/// from before it was kept: the pod's start).
fn recorded_metadata(desired: &DesiredPod, earlier: Option<&PodRecord>) -> serde_json::Value {
    let created = earlier
        .and_then(|r| r.metadata.as_ref()?.get(CREATED)?.as_str().map(str::to_owned))
        .or_else(|| earlier.and_then(|r| r.start_time.clone()))
        .unwrap_or_else(|| api_time(crate::clock::now()));
    let mut meta = serde_json::to_value(&desired.manifest.metadata).unwrap_or_else(|_| serde_json::json!({}));
    if let Some(m) = meta.as_object_mut() {
        m.insert(CREATED.to_owned(), created.into());
    }
    meta
}

const CREATED: &str = "creationTimestamp";

/// The probes a `podrun wait` may run itself (see `pod::record`); `None` for a pod without
/// startup or readiness probes.
fn recorded_probes(desired: &DesiredPod) -> Option<RecordedProbes> {
    let containers: std::collections::BTreeMap<String, ContainerProbes> = desired
        .init
        .iter()
        .chain(&desired.containers)
        .filter_map(|c| Some((c.name.clone(), ContainerProbes::of(desired.manifest_container(c)?)?)))
        .collect();
    let host_network = desired.network.mode == crate::runtime::NetworkMode::Host;
    (!containers.is_empty()).then_some(RecordedProbes { host_network, containers })
}

/// What tells one spec from another for the pod's generation (`pod::record::generation`).
pub fn spec_digest(desired: &DesiredPod) -> String {
    let spec = serde_json::to_vec(&desired.manifest.spec).unwrap_or_default();
    format!("{:016x}", crate::fnv::fnv1a64(&spec))
}

/// The status as the kubelet writes it for `generation`: a condition keeps the time `earlier`
/// has for it while its status stays; one that changed did so now; one never seen before took
/// its status when the engine's times say (`engine_time`), else now.
pub fn stamp(st: PodStatus, earlier: &[RecordedCondition], generation: Option<i64>, now: SystemTime) -> PodStatus {
    st.with_generation(generation).with_transitions(earlier, |st, c| {
        let seen = earlier.iter().any(|r| r.type_ == c.type_);
        let at = if seen { None } else { engine_time(st, c) };
        Some(at.unwrap_or_else(|| api_time(now)))
    })
}

/// When the pod's active deadline passes, if it has one and has started: `start` is its first
/// start (the record's, else the infra container's).
pub fn deadline_at(desired: &DesiredPod, start: Option<&str>) -> Option<SystemTime> {
    let secs = desired.manifest.spec.active_deadline_seconds.filter(|s| *s > 0)?;
    Some(parse_time(start?)? + Duration::from_secs(secs.unsigned_abs()))
}

/// Whether the kubelet would hold the pod past its deadline now: it has one, it has passed,
/// and the pod has not succeeded (a terminal pod is not synced again).
pub fn past_deadline(at: Option<SystemTime>, st: &PodStatus, now: SystemTime) -> bool {
    at.is_some_and(|at| now >= at) && st.phase != Phase::Succeeded
}

/// The status of a pod killed at its deadline: Failed, with the kubelet's reason and message.
pub fn deadline_exceeded(mut st: PodStatus) -> PodStatus {
    st.phase = Phase::Failed;
    st.reason = Some(DEADLINE_REASON.to_owned());
    st.message = Some(DEADLINE_MESSAGE.to_owned());
    st
}
