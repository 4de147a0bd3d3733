//! What the kubelet adds to a pod's conditions beyond their statuses: the
//! PodReadyToStartContainers condition (status/generate.go:
//! GeneratePodReadyToStartContainersCondition: True once the sandbox is made and networked, for
//! podrun while the pod's infra container runs), when each condition last changed
//! (`lastTransitionTime`, kept across looks and runs in the pod's record), and the generation
//! the status was made for (`observedGeneration`, on the status and on each condition, as a
//! kubelet with PodObservedGenerationTracking, GA in 1.35, writes it).

use std::time::SystemTime;

use crate::clock::parse_time;
use crate::pod::record::RecordedCondition;

use super::types::{Condition, ContainerStatus, PodStatus};

pub const READY_TO_START: &str = "PodReadyToStartContainers";

impl PodStatus {
    /// Adds PodReadyToStartContainers, first, where the kubelet puts it.
    #[must_use]
    pub fn with_sandbox(mut self, ready: bool) -> PodStatus {
        self.conditions.insert(0, Condition::new(READY_TO_START, ready));
        self
    }

    /// Sets `observedGeneration` on the status and on each condition.
    #[must_use]
    pub fn with_generation(mut self, generation: Option<i64>) -> PodStatus {
        self.observed_generation = generation;
        for c in &mut self.conditions {
            c.observed_generation = generation;
        }
        self
    }

    /// Gives each condition its `lastTransitionTime`: the recorded one when its status is the
    /// one recorded, else `changed(condition)`, when it changed.
    #[must_use]
    pub fn with_transitions(
        mut self,
        earlier: &[RecordedCondition],
        changed: impl Fn(&PodStatus, &Condition) -> Option<String>,
    ) -> PodStatus {
        let times: Vec<Option<String>> = self
            .conditions
            .iter()
            .map(|c| match earlier.iter().find(|r| r.type_ == c.type_) {
                Some(r) if r.status == c.status && r.last_transition_time.is_some() => r.last_transition_time.clone(),
                _ => changed(&self, c),
            })
            .collect();
        for (c, t) in self.conditions.iter_mut().zip(times) {
            c.last_transition_time = t;
        }
        self
    }

    /// The conditions as a record keeps them.
    pub fn recorded_conditions(&self) -> Vec<RecordedCondition> {
        self.conditions
            .iter()
            .map(|c| RecordedCondition {
                type_: c.type_.clone(),
                status: c.status.clone(),
                last_transition_time: c.last_transition_time.clone(),
            })
            .collect()
    }
}

/// A time as the API writes `lastTransitionTime`: RFC 3339, to the second.
pub fn api_time(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// The best time the engine gives for when `c` took its status, where nothing recorded it:
/// the pod's start for PodScheduled and for what has not happened yet; the last init
/// container's end (or a sidecar's start) for Initialized; the last app container's start for
/// readiness, or its last end once one has ended; the pod's start for a running sandbox, and
/// the last end seen for one that stopped.
pub fn engine_time(st: &PodStatus, c: &Condition) -> Option<String> {
    let ok = c.status == "True";
    let latest = |times: Vec<Option<&String>>| -> Option<String> {
        times.into_iter().flatten().filter_map(|t| parse_time(t)).max().map(api_time)
    };
    let start = st.start_time.as_deref().and_then(parse_time).map(api_time);
    let found = match (c.type_.as_str(), ok) {
        ("Initialized", true) => {
            latest(st.init_container_statuses.iter().map(|s| finished(s).or(started(s))).collect())
        }
        ("ContainersReady" | "Ready", true) => latest(st.container_statuses.iter().map(started).collect()),
        ("ContainersReady" | "Ready" | READY_TO_START, false) => latest(st.all().map(finished).collect()),
        _ => None,
    };
    found.or(start)
}

fn started(s: &ContainerStatus) -> Option<&String> {
    s.state.running.as_ref().and_then(|r| r.started_at.as_ref())
}

fn finished(s: &ContainerStatus) -> Option<&String> {
    s.state.terminated.as_ref().and_then(|t| t.finished_at.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{ContainerState, Phase, Running, Terminated};

    fn app(state: ContainerState) -> ContainerStatus {
        ContainerStatus {
            name: "a".into(),
            ready: state.running.is_some(),
            started: state.running.is_some(),
            resources: None,
            allocated_resources: None,
            state,
            last_state: ContainerState::default(),
            restart_count: 0,
            image: "busybox".into(),
            image_id: String::new(),
            container_id: None,
        }
    }

    fn running(at: &str) -> ContainerState {
        ContainerState { running: Some(Running { started_at: Some(at.into()) }), ..Default::default() }
    }

    fn finished(at: &str) -> ContainerState {
        let t = Terminated {
            exit_code: 0,
            reason: "Completed".into(),
            message: None,
            started_at: None,
            finished_at: Some(at.into()),
            container_id: None,
        };
        ContainerState { terminated: Some(t), ..Default::default() }
    }

    fn pod(apps: Vec<ContainerStatus>, sandbox: bool) -> PodStatus {
        let start = Some("2026-01-01T00:00:00.5Z".to_owned());
        PodStatus::assemble(Phase::Running, true, None, start, (vec![], &[]), apps).with_sandbox(sandbox)
    }

    fn time_of<'a>(st: &'a PodStatus, t: &str) -> (&'a str, Option<&'a str>) {
        let c = st.conditions.iter().find(|c| c.type_ == t).expect(t);
        (c.status.as_str(), c.last_transition_time.as_deref())
    }

    #[test]
    fn the_sandbox_condition_comes_first_and_generation_is_on_every_condition() {
        let st = pod(vec![app(running("2026-01-01T00:00:01Z"))], true).with_generation(Some(2));
        let types: Vec<&str> = st.conditions.iter().map(|c| c.type_.as_str()).collect();
        assert_eq!(types, [READY_TO_START, "PodScheduled", "Initialized", "ContainersReady", "Ready"]);
        assert_eq!(st.conditions[0].status, "True");
        assert!(st.conditions.iter().all(|c| c.observed_generation == Some(2)));
        assert_eq!(st.observed_generation, Some(2));
        let json = serde_json::to_value(&st).unwrap();
        assert_eq!(json["observedGeneration"], 2);
        assert_eq!(json["conditions"][0]["observedGeneration"], 2);
        assert!(!pod(vec![], false).conditions.iter().any(|c| c.type_ == READY_TO_START && c.status == "True"));
    }

    #[test]
    fn without_a_record_the_engine_times_stand_for_the_transitions() {
        let st = pod(vec![app(running("2026-01-01T00:00:03.9Z"))], true).with_transitions(&[], engine_time);
        assert_eq!(time_of(&st, "Ready"), ("True", Some("2026-01-01T00:00:03Z")));
        assert_eq!(time_of(&st, "PodScheduled"), ("True", Some("2026-01-01T00:00:00Z")));
        assert_eq!(time_of(&st, READY_TO_START), ("True", Some("2026-01-01T00:00:00Z")));
        let done = pod(vec![app(finished("2026-01-01T00:01:00Z"))], false).with_transitions(&[], engine_time);
        assert_eq!(time_of(&done, "Ready"), ("False", Some("2026-01-01T00:01:00Z")));
        assert_eq!(time_of(&done, READY_TO_START), ("False", Some("2026-01-01T00:01:00Z")));
    }

    #[test]
    fn a_recorded_time_holds_while_the_status_stays_and_a_change_takes_a_new_one() {
        let first = pod(vec![app(running("2026-01-01T00:00:03Z"))], true).with_transitions(&[], engine_time);
        let recorded = first.recorded_conditions();
        let later = |_: &PodStatus, _: &Condition| Some("2026-01-01T09:00:00Z".to_owned());
        let same = pod(vec![app(running("2026-01-01T00:00:03Z"))], true).with_transitions(&recorded, later);
        assert_eq!(time_of(&same, "Ready"), ("True", Some("2026-01-01T00:00:03Z")), "unchanged: the recorded time");
        let changed = pod(vec![app(finished("2026-01-01T00:05:00Z"))], true).with_transitions(&recorded, later);
        assert_eq!(time_of(&changed, "Ready"), ("False", Some("2026-01-01T09:00:00Z")), "changed: when it changed");
        assert_eq!(time_of(&changed, "PodScheduled"), ("True", Some("2026-01-01T00:00:00Z")));
    }
}
