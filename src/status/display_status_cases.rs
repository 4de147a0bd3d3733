//! `display_status` against the cases of kubectl's own printer test (printers_test.go,
//! TestPrintPod), a pod's status as each case builds it and the STATUS kubectl prints for it.
//! podrun's phase is one of the API's, so kubectl's stand-in phase `podPhase` is `Pending` here.

use super::engine_pods::display_status;
use super::fixtures::{container, running, terminated};
use super::{Condition, ContainerState, ContainerStatus, Phase, PodStatus};

fn waiting(reason: &str) -> ContainerState {
    ContainerState::waiting(reason, None)
}

fn c(state: ContainerState, ready: bool) -> ContainerStatus {
    ContainerStatus { ready, ..container("c", state) }
}

/// A pod with these statuses, and only the conditions asked for (kubectl's cases set few).
fn pod(phase: Phase, init: Vec<ContainerStatus>, app: Vec<ContainerStatus>, conditions: &[(&str, bool)]) -> PodStatus {
    let mut st = PodStatus::assemble(phase, false, None, None, (init, &[]), app);
    st.conditions = conditions.iter().map(|(t, ok)| Condition::new(t, *ok)).collect();
    st
}

#[test]
fn kubectl_print_pod_cases() {
    use Phase::{Failed, Pending, Running as Run, Succeeded};
    let ready = [("Ready", true)];
    let cases: Vec<(&str, PodStatus, &str)> = vec![
        ("test1", pod(Pending, vec![], vec![c(running(), true), c(ContainerState::default(), false)], &[]), "Pending"),
        (
            "test2",
            pod(Pending, vec![], vec![c(running(), true), c(waiting("ContainerWaitingReason"), false)], &[]),
            "ContainerWaitingReason",
        ),
        (
            "test3: the first container's reason wins",
            pod(
                Pending,
                vec![],
                vec![c(waiting("ContainerWaitingReason"), false), c(terminated("ContainerTerminatedReason", 0), false)],
                &[],
            ),
            "ContainerWaitingReason",
        ),
        (
            "test4: ready is not enough for running",
            pod(Pending, vec![], vec![c(running(), true), c(ContainerState::default(), true)], &[]),
            "Pending",
        ),
        (
            "test6: completed beside running, not ready",
            pod(Run, vec![], vec![c(terminated("Completed", 0), true), c(running(), true)], &[]),
            "NotReady",
        ),
        (
            "test6: completed beside running, ready",
            pod(Run, vec![], vec![c(terminated("Completed", 0), true), c(running(), true)], &ready),
            "Running",
        ),
        (
            "test7: an init container restarting",
            pod(Pending, vec![c(running(), false)], vec![c(waiting(""), false)], &[]),
            "Init:0/1",
        ),
        (
            "test8",
            pod(Pending, vec![c(running(), false), c(waiting(""), false)], vec![c(waiting(""), false)], &[]),
            "Init:0/2",
        ),
        (
            "test9: one init completed",
            pod(Pending, vec![c(terminated("", 0), false), c(running(), false)], vec![c(waiting(""), false)], &[]),
            "Init:1/2",
        ),
        (
            "test11: initialized, running but not ready",
            pod(Run, vec![c(terminated("", 0), false)], vec![c(running(), false)], &[]),
            "Running",
        ),
        ("test12", pod(Run, vec![], vec![c(running(), true)], &[]), "Running"),
        ("test16: succeeded", pod(Succeeded, vec![], vec![c(terminated("Completed", 0), false)], &[]), "Completed"),
        ("test17: failed", pod(Failed, vec![], vec![c(terminated("Error", 1), false)], &[]), "Error"),
        (
            "a failed pod of two, the failed container first",
            pod(Failed, vec![], vec![c(terminated("Error", 1), false), c(terminated("Completed", 0), false)], &[]),
            "Error",
        ),
        ("an exit without a reason", pod(Failed, vec![], vec![c(terminated("", 2), false)], &[]), "ExitCode:2"),
        (
            "an init container failed",
            pod(Failed, vec![c(terminated("Error", 1), false)], vec![c(waiting("PodInitializing"), false)], &[]),
            "Init:Error",
        ),
        (
            "an init container's exit without a reason",
            pod(Pending, vec![c(terminated("", 3), false)], vec![], &[]),
            "Init:ExitCode:3",
        ),
        (
            "an init container's pull",
            pod(Pending, vec![c(waiting("ErrImagePull"), false)], vec![], &[]),
            "Init:ErrImagePull",
        ),
        ("a crash loop", pod(Run, vec![], vec![c(waiting("CrashLoopBackOff"), false)], &[]), "CrashLoopBackOff"),
    ];
    for (name, st, want) in cases {
        assert_eq!(display_status(&st, &[]), want, "{name}");
    }
}

#[test]
fn a_started_sidecar_does_not_hold_the_pod_back() {
    let mut side = c(running(), true);
    side.started = true;
    let st = pod(Phase::Running, vec![side.clone()], vec![c(running(), true)], &[("Ready", true)]);
    assert_eq!(display_status(&st, &[true]), "Running");
    // Not started yet (its startup probe has not passed): the pod initializes.
    side.started = false;
    let st = pod(Phase::Pending, vec![side], vec![c(waiting("PodInitializing"), false)], &[]);
    assert_eq!(display_status(&st, &[true]), "Init:0/1");
}

#[test]
fn containers_are_read_in_the_kubelets_order_by_name_not_the_pods() {
    let named = |name: &str, state| ContainerStatus { name: name.into(), ..c(state, false) };
    let st = pod(
        Phase::Failed,
        vec![],
        vec![named("ok", terminated("Completed", 0)), named("fails", terminated("Error", 1))],
        &[],
    );
    assert_eq!(display_status(&st, &[]), "Error");
    let json = serde_json::to_value(&st).expect("a status");
    assert_eq!(json["containerStatuses"][0]["name"], "fails", "{json}");
    assert_eq!(st.container_statuses[0].name, "ok", "kept in the pod's order inside podrun");
}
