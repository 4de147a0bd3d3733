//! Whether a pod found in the engine, read as `podrun get` reads it (`engine_pods`: the
//! containers, and the record podrun's last run of the pod left), is where `podrun wait` waits
//! for it to be. The rules are `compute::judge`'s, apply's own; what apply takes from the
//! manifest comes from the record here:
//!
//! - The restart policy is the record's: each container's own policy and rules, else the
//!   pod's; unless told, `wait` waits for what apply waits for by them (`default_for`). A
//!   container it restarts is not final: an `apply --supervise` keeping the pod restarts it,
//!   and without one the wait ends at its deadline. One it does not restart has ended for good, and a failure ends the wait at once,
//!   as it ends apply. Without a record (an engine on another host) the policy is unknown, and
//!   a dead container is final, as `get` counts it: nothing restarts it once podrun has exited.
//! - Readiness is the pod's Ready condition as `get` computes it: a container with a readiness
//!   or startup probe is ready when podrun's prober last said so (kept in the record by the
//!   `apply` or `apply --supervise` that runs the probes, or given by the probes `podrun wait`
//!   runs itself when no podrun drives the pod: `driver::own_probes`). A container without
//!   such a probe is ready while it runs.

use super::compute::{judge, Restarts, Uptime};
use super::engine_pods::ListedPod;
use super::{Verdict, WaitFor};

/// Whether the container named `name` is restarted after it exited with `code`, as the
/// record says; without a record nothing restarts it.
fn restarts_after(pod: &ListedPod, name: &str, code: i64) -> bool {
    pod.record.as_ref().is_some_and(|r| r.restarts_after(name, code))
}

/// Whether each app container (in the status's order) is restarted after every exit, as the
/// record says; none is without a record.
pub fn restarting_always(pod: &ListedPod) -> Vec<bool> {
    let always = |name: &str| pod.record.as_ref().is_some_and(|r| r.restarts_always(name));
    pod.status.container_statuses.iter().map(|s| always(&s.name)).collect()
}

/// What `wait` waits for when not told: what apply waits for (`WaitFor::default_for`), by
/// each container's restart policy as recorded; running without a record.
pub fn default_for(pod: &ListedPod) -> WaitFor {
    if pod.record.is_none() {
        return WaitFor::Running;
    }
    WaitFor::default_for(&restarting_always(pod))
}

/// The verdict on `pod` for `wait_for`.
pub fn verdict(pod: &ListedPod, wait_for: WaitFor, uptime: Uptime) -> Verdict {
    let st = &pod.status;
    let regular_inits = st.init_container_statuses.iter().zip(pod.sidecars()).filter(|(_, sidecar)| !sidecar);
    for (s, _) in regular_inits {
        if s.state.terminated.as_ref().is_some_and(|t| t.exit_code != 0 && !restarts_after(pod, &s.name, t.exit_code)) {
            return Verdict::Failed { container: s.name.clone(), state: Box::new(s.state.clone()) };
        }
    }
    // No app container known yet (a pod without a record, still initializing): nothing to judge.
    if st.container_statuses.is_empty() {
        return Verdict::Pending;
    }
    let infra_running = pod.infra.current.as_ref().is_some_and(crate::runtime::Observed::is_running);
    let name = |i: usize| st.container_statuses.get(i).map_or("", |s| s.name.as_str());
    let after = |i: usize, code| restarts_after(pod, name(i), code);
    let always = restarting_always(pod);
    judge(st, infra_running, wait_for, uptime, &Restarts { after: &after, always: &always })
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;
    use crate::manifest::types::{ContainerRestartPolicy, RestartPolicy};
    use crate::pod::record::{PodRecord, RecordedContainer};
    use crate::runtime::labels;
    use crate::runtime::{Observed, State};
    use crate::status::engine_pods::group;
    use crate::status::Notes;

    const UP: &str = "2024-01-01T00:00:00Z";

    fn container(name: &str, role: &str, state: State) -> Observed {
        let labels = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, "ns"),
            (labels::POD_NAME, "p"),
            (labels::POD_UID, "u"),
            (labels::CONTAINER_NAME, name),
            (labels::ROLE, role),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        Observed {
            id: format!("id-{name}"),
            name: format!("podrun_ns_p_{name}_0"),
            labels,
            image: "img".into(),
            image_id: String::new(),
            state,
            ip: None,
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    fn running() -> State {
        State::Running { started_at: Some(UP.into()) }
    }

    fn exited(code: i64) -> State {
        State::Exited {
            exit_code: code,
            started_at: Some(UP.into()),
            finished_at: None,
            oom_killed: false,
            error: None,
        }
    }

    fn record(policy: RestartPolicy, probed: bool, ready: Option<bool>) -> PodRecord {
        let c = RecordedContainer { name: "app".into(), image: "img".into(), probed, ..RecordedContainer::default() };
        PodRecord {
            restart_policy: policy,
            init_containers: vec![],
            containers: vec![c],
            ready: ready.map(|r| ("id-app".to_owned(), r)).into_iter().collect(),
            messages: Default::default(),
            reason: None,
            message: None,
            start_time: None,
            conditions: vec![],
            generation: None,
            spec_digest: None,
            probes: None,
            metadata: None,
            spec: None,
        }
    }

    /// The verdict on a pod with an infra container and `app` in `state`.
    fn judged(state: State, record: Option<&PodRecord>, wait_for: WaitFor) -> Verdict {
        let pod = group(vec![container("POD", "infra", running()), container("app", "app", state)]).remove(0);
        let pod = pod.with_record(record, &Notes::new());
        let now = crate::clock::parse_time(UP).unwrap_or(SystemTime::UNIX_EPOCH) + Duration::from_secs(60);
        verdict(&pod, wait_for, Uptime { min: Duration::from_millis(200), now })
    }

    fn failed(v: &Verdict) -> bool {
        matches!(v, Verdict::Failed { container, .. } if container == "app")
    }

    #[test]
    fn a_running_pod_is_running_and_ready_without_a_probe() {
        let always = record(RestartPolicy::Always, false, None);
        for rec in [None, Some(&always)] {
            assert_eq!(judged(running(), rec, WaitFor::Running), Verdict::Done);
            assert_eq!(judged(running(), rec, WaitFor::Ready), Verdict::Done);
            assert_eq!(judged(running(), rec, WaitFor::Complete), Verdict::Pending);
        }
    }

    #[test]
    fn a_probed_container_is_ready_as_the_record_last_said() {
        let unready = record(RestartPolicy::Always, true, Some(false));
        let ready = record(RestartPolicy::Always, true, Some(true));
        let never_probed = record(RestartPolicy::Always, true, None);
        assert_eq!(judged(running(), Some(&unready), WaitFor::Ready), Verdict::Pending);
        assert_eq!(judged(running(), Some(&never_probed), WaitFor::Ready), Verdict::Pending);
        assert_eq!(judged(running(), Some(&ready), WaitFor::Ready), Verdict::Done);
        assert_eq!(judged(running(), Some(&unready), WaitFor::Running), Verdict::Done, "running, not ready");
    }

    #[test]
    fn a_failure_its_policy_does_not_restart_ends_the_wait() {
        let never = record(RestartPolicy::Never, false, None);
        for wait_for in [WaitFor::Running, WaitFor::Ready, WaitFor::Complete] {
            assert!(failed(&judged(exited(3), Some(&never), wait_for)), "{wait_for:?}");
            assert!(failed(&judged(exited(3), None, wait_for)), "{wait_for:?}: no record, nothing restarts it");
        }
        assert_eq!(judged(exited(0), Some(&never), WaitFor::Complete), Verdict::Done);
        assert_eq!(judged(exited(0), Some(&never), WaitFor::Running), Verdict::Done, "as apply: completed counts");
        assert_eq!(judged(exited(0), Some(&never), WaitFor::Ready), Verdict::Pending, "never ready again");
    }

    #[test]
    fn a_container_its_policy_restarts_is_waited_for() {
        let always = record(RestartPolicy::Always, false, None);
        let on_failure = record(RestartPolicy::OnFailure, false, None);
        assert_eq!(judged(exited(3), Some(&always), WaitFor::Running), Verdict::Pending);
        assert_eq!(judged(exited(0), Some(&always), WaitFor::Complete), Verdict::Pending);
        assert_eq!(judged(exited(3), Some(&on_failure), WaitFor::Complete), Verdict::Pending);
        assert_eq!(judged(exited(0), Some(&on_failure), WaitFor::Complete), Verdict::Done);
    }

    /// A Never pod whose `app` has its own restartPolicy Always, beside `job`, which ends.
    fn mixed(app: State, job: State) -> (WaitFor, Verdict) {
        let mut rec = record(RestartPolicy::Never, false, None);
        rec.containers[0].restart_policy = Some(ContainerRestartPolicy::Always);
        rec.containers.push(RecordedContainer {
            name: "job".into(),
            image: "img".into(),
            ..RecordedContainer::default()
        });
        let pod = group(vec![
            container("POD", "infra", running()),
            container("app", "app", app),
            container("job", "app", job),
        ])
        .remove(0)
        .with_record(Some(&rec), &Notes::new());
        let now = crate::clock::parse_time(UP).unwrap_or(SystemTime::UNIX_EPOCH) + Duration::from_secs(60);
        let wait_for = default_for(&pod);
        (wait_for, verdict(&pod, wait_for, Uptime { min: Duration::from_millis(200), now }))
    }

    #[test]
    fn a_mixed_pod_is_waited_for_each_container_as_its_own_policy_says() {
        assert_eq!(mixed(running(), exited(0)), (WaitFor::Each, Verdict::Done), "app runs, job completed");
        assert_eq!(mixed(running(), running()), (WaitFor::Each, Verdict::Pending), "job still to complete");
        assert_eq!(mixed(exited(0), exited(0)).1, Verdict::Pending, "app is restarted: Never is the pod's, not its");
        assert!(matches!(mixed(running(), exited(1)).1, Verdict::Failed { container, .. } if container == "job"));
    }

    #[test]
    fn without_a_record_wait_waits_for_running() {
        let pod = group(vec![container("POD", "infra", running()), container("app", "app", running())]).remove(0);
        assert_eq!(default_for(&pod), WaitFor::Running);
        let never = record(RestartPolicy::Never, false, None);
        assert_eq!(default_for(&pod.with_record(Some(&never), &Notes::new())), WaitFor::Complete);
    }

    #[test]
    fn a_pod_whose_infra_container_is_down_is_neither_running_nor_ready() {
        let pod = group(vec![container("POD", "infra", exited(0)), container("app", "app", running())]).remove(0);
        let now = SystemTime::now();
        assert_eq!(verdict(&pod, WaitFor::Running, Uptime { min: Duration::ZERO, now }), Verdict::Pending);
        assert_eq!(verdict(&pod, WaitFor::Ready, Uptime { min: Duration::ZERO, now }), Verdict::Pending);
    }
}
