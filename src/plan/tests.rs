//! The planner's rules, one test each, without an engine.

use std::collections::BTreeSet;
use std::time::SystemTime;

use super::*;
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::observed::PodObservation;
use crate::runtime::labels;
use crate::runtime::Observed;

const INFRA: &str = "localhost/podrun-pause:test";

fn desired_with(policy: &str, extra: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  containers:\n  - {{name: a, image: 'img:1'{extra}}}\n  - {{name: b, image: 'img:2'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

fn desired(policy: &str) -> DesiredPod {
    desired_with(policy, "")
}

/// An engine container exactly as podrun would have created it.
fn instance(d: &DesiredPod, name: &str, attempt: u32, state: State) -> Observed {
    let c = d.find(name).unwrap();
    let infra = crate::pod::InfraRef { id: "infra-id".into(), ip: None, host_ip: None };
    let spec = d.create_spec(c, attempt, Some(&infra)).unwrap().0;
    Observed {
        id: format!("{name}-{attempt}"),
        name: spec.name,
        labels: spec.labels,
        image: c.image.clone(),
        image_id: "sha256:1".into(),
        state,
        ip: None,
        gateway: None,
        sealed: true,
    }
}

static HEALTHY: BTreeSet<String> = BTreeSet::new();

fn ctx() -> Context<'static> {
    Context { now: SystemTime::now(), crash: CrashBackoff::default(), unhealthy: &HEALTHY, not_started: &HEALTHY }
}

fn running() -> State {
    State::Running { started_at: Some("2026-01-01T00:00:00Z".into()) }
}

fn exited(code: i64) -> State {
    State::Exited { exit_code: code, started_at: None, finished_at: None, oom_killed: false, error: None }
}

fn plan_for(d: &DesiredPod, observed: &[Observed]) -> Plan {
    plan(d, &PodObservation::new(d, observed), &ctx())
}

fn running_pod(d: &DesiredPod) -> Vec<Observed> {
    vec![instance(d, "POD", 0, running()), instance(d, "a", 0, running()), instance(d, "b", 0, running())]
}

fn creates(p: &Plan) -> Vec<(String, u32)> {
    p.infra
        .iter()
        .chain(&p.init)
        .chain(&p.apps)
        .filter_map(|s| match s.step {
            Step::Create { attempt, .. } => Some((s.container.clone(), attempt)),
            Step::Start { .. } => None,
        })
        .collect()
}

fn removed(p: &Plan) -> Vec<String> {
    p.remove.iter().map(|r| r.container.id.clone()).collect()
}

#[test]
fn an_empty_engine_gets_the_whole_pod() {
    let d = desired("Always");
    let p = plan_for(&d, &[]);
    assert_eq!(creates(&p), vec![("POD".into(), 0), ("a".into(), 0), ("b".into(), 0)]);
    assert!(p.remove.is_empty());
    assert_eq!(p.images.len(), 2, "one need per distinct image");
    assert!(p.images.iter().all(|n| n.image != INFRA), "the infra image is never pulled");
}

#[test]
fn a_running_pod_needs_nothing() {
    let d = desired("Always");
    assert!(plan_for(&d, &running_pod(&d)).is_empty());
}

#[test]
fn a_changed_container_alone_is_recreated() {
    let old = desired("Always");
    let new = desired_with("Always", ", command: [sh]");
    let p = plan_for(&new, &running_pod(&old));
    assert_eq!(removed(&p), vec!["a-0"]);
    assert_eq!(creates(&p), vec![("a".into(), 1)]);
}

#[test]
fn a_container_gone_from_the_manifest_is_removed() {
    let d = desired("Always");
    let mut obs = running_pod(&d);
    let mut extra = instance(&d, "a", 0, running());
    extra.id = "c-0".into();
    extra.labels.insert(labels::CONTAINER_NAME.into(), "c".into());
    obs.push(extra);
    let p = plan_for(&d, &obs);
    assert_eq!(removed(&p), vec!["c-0"]);
    assert!(creates(&p).is_empty());
}

#[test]
fn a_missing_infra_container_recreates_the_pod() {
    let d = desired("Always");
    let obs = vec![instance(&d, "a", 0, running()), instance(&d, "b", 2, running())];
    let p = plan_for(&d, &obs);
    assert_eq!(removed(&p), vec!["a-0", "b-2"]);
    // Restart counts carry over, as the kubelet keeps them across a sandbox change.
    assert_eq!(creates(&p), vec![("POD".into(), 0), ("a".into(), 1), ("b".into(), 3)]);
}

#[test]
fn a_dead_infra_container_recreates_the_pod() {
    let d = desired("Always");
    let mut obs = running_pod(&d);
    obs[0].state = exited(137);
    let p = plan_for(&d, &obs);
    assert_eq!(removed(&p), vec!["POD-0", "a-0", "b-0"]);
    assert_eq!(creates(&p)[0], ("POD".into(), 1));
}

#[test]
fn a_finished_pod_under_never_is_not_rerun() {
    let d = desired("Never");
    let obs = vec![instance(&d, "POD", 0, exited(0)), instance(&d, "a", 0, exited(0)), instance(&d, "b", 0, exited(1))];
    assert!(plan_for(&d, &obs).is_empty());
}

#[test]
fn another_pod_uid_is_removed_entirely() {
    let d = desired("Always");
    let mut obs = running_pod(&d);
    for c in &mut obs {
        c.labels.insert(labels::POD_UID.into(), "other".into());
    }
    let p = plan_for(&d, &obs);
    assert_eq!(removed(&p).len(), 3);
    assert_eq!(creates(&p).len(), 3);
}

#[test]
fn containers_podrun_does_not_own_are_never_touched() {
    let d = desired("Always");
    let mut stranger = instance(&d, "a", 0, running());
    // podrun's labels, copied whole, without its seal: what an image can carry.
    stranger.sealed = false;
    stranger.id = "stranger".into();
    let mut obs = running_pod(&d);
    obs.push(stranger);
    assert!(plan_for(&d, &obs).is_empty());
}

#[test]
fn restart_policies() {
    for (policy, code, restarts) in [
        ("Always", 0, true),
        ("Always", 1, true),
        ("OnFailure", 0, false),
        ("OnFailure", 1, true),
        ("Never", 0, false),
        ("Never", 1, false),
    ] {
        let d = desired(policy);
        let mut obs = running_pod(&d);
        obs[1].state = exited(code);
        let p = plan_for(&d, &obs);
        let want = if restarts { vec![("a".to_owned(), 1)] } else { vec![] };
        assert_eq!(creates(&p), want, "{policy} exit {code}");
        assert!(p.remove.is_empty(), "{policy} exit {code}: the exited instance is kept for lastState");
    }
}

/// Container-level restartPolicy and restartPolicyRules (ContainerRestartRules, on since 1.35),
/// after pkg/api/v1/pod/util_test.go TestContainerShouldRestart and the node e2e tests of
/// test/e2e/common/node (container restart rules): the first matching rule, else the
/// container's policy, else the pod's.
#[test]
fn container_restart_policies_and_rules() {
    const RULE_42: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]";
    const NOT_IN_0_1: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: NotIn, values: [0, 1]}}]";
    for (pod, container, code, restarts) in [
        // The container's own policy overrides the pod's.
        ("Always", ", restartPolicy: Never", 1, false),
        ("Always", ", restartPolicy: Never", 0, false),
        ("Never", ", restartPolicy: Always", 1, true),
        ("Never", ", restartPolicy: Always", 0, true),
        ("Never", ", restartPolicy: OnFailure", 1, true),
        ("Always", ", restartPolicy: OnFailure", 0, false),
        // A matching Restart rule restarts whatever the policies say; no match falls back to
        // the container's policy.
        ("Never", &format!(", restartPolicy: Never{RULE_42}"), 42, true),
        ("Never", &format!(", restartPolicy: Never{RULE_42}"), 1, false),
        ("Always", &format!(", restartPolicy: Never{RULE_42}"), 0, false),
        ("Never", &format!(", restartPolicy: OnFailure{RULE_42}"), 3, true),
        ("Never", &format!(", restartPolicy: Never{NOT_IN_0_1}"), 2, true),
        ("Never", &format!(", restartPolicy: Never{NOT_IN_0_1}"), 1, false),
        // Without a policy of its own, the pod's.
        ("OnFailure", "", 1, true),
        ("OnFailure", "", 0, false),
    ] {
        let d = desired_with(pod, container);
        let mut obs = running_pod(&d);
        obs[1].state = exited(code);
        let p = plan_for(&d, &obs);
        let want = if restarts { vec![("a".to_owned(), 1)] } else { vec![] };
        assert_eq!(creates(&p), want, "pod {pod}, container{container}, exit {code}");
    }
}

/// The kubelet brings a finished pod's sandbox back when a container of it may still restart
/// (shouldRestartOnFailure), even under a pod policy of Never.
#[test]
fn a_finished_never_pod_with_a_restartable_container_is_brought_back() {
    let d = desired_with("Never", ", restartPolicy: Always");
    let obs = vec![instance(&d, "POD", 0, exited(0)), instance(&d, "a", 0, exited(1)), instance(&d, "b", 0, exited(1))];
    let p = plan_for(&d, &obs);
    assert_eq!(creates(&p)[0], ("POD".into(), 1));
    let d = desired_with("Always", ", restartPolicy: Never");
    let obs = vec![instance(&d, "POD", 0, exited(0)), instance(&d, "a", 0, exited(1)), instance(&d, "b", 0, exited(1))];
    assert_eq!(creates(&plan_for(&d, &obs))[0], ("POD".into(), 1), "b takes the pod's Always");
}

/// A container killed after its liveness probe failed follows its own policy, not its rules.
#[test]
fn a_liveness_kill_follows_the_containers_own_policy() {
    for (pod, container, restarts) in [
        ("Always", ", restartPolicy: Never", false),
        ("Never", ", restartPolicy: OnFailure", true),
        (
            "Never",
            ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [137]}}]",
            false,
        ),
        ("Never", "", false),
    ] {
        let d = desired_with(pod, container);
        let obs = running_pod(&d);
        let unhealthy: BTreeSet<String> = [obs[1].id.clone()].into();
        let ctx = Context { unhealthy: &unhealthy, ..ctx() };
        let p = plan(&d, &PodObservation::new(&d, &obs), &ctx);
        assert_eq!(p.stop.len(), 1, "{pod}{container}");
        assert_eq!(!creates(&p).is_empty(), restarts, "{pod}{container}");
    }
}

#[test]
fn only_one_dead_instance_is_kept() {
    let d = desired("Always");
    let mut obs = running_pod(&d);
    obs[1] = instance(&d, "a", 2, exited(1));
    obs.push(instance(&d, "a", 1, exited(1)));
    obs.push(instance(&d, "a", 0, exited(1)));
    let p = plan_for(&d, &obs);
    // a-0 is beyond the one kept dead instance; a-1 goes because a-2 becomes the kept one.
    assert_eq!(removed(&p), vec!["a-0", "a-1"]);
    assert_eq!(creates(&p), vec![("a".into(), 3)]);
}

#[test]
fn created_but_not_started_is_started() {
    let d = desired("Always");
    let mut obs = running_pod(&d);
    obs[2].state = State::Created;
    let p = plan_for(&d, &obs);
    assert_eq!(
        p.apps,
        vec![ContainerStep { container: "b".into(), step: Step::Start { id: "b-0".into(), attempt: 0 } }]
    );
    assert!(p.images.is_empty(), "starting needs no image check");
}

#[test]
fn images_are_resolved_once_with_the_strictest_policy() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: 'x:1'}\n  - {name: b, image: 'x:1', imagePullPolicy: Always}\n  - {name: c, image: 'y:1', imagePullPolicy: Never}\n";
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    let d = DesiredPod::from_loaded(&loaded.pods[0], INFRA, None);
    let p = plan_for(&d, &[]);
    assert_eq!(p.images.len(), 2);
    assert_eq!(p.images[0].policy, PullPolicy::Always);
    assert_eq!(p.images[0].containers, vec!["a", "b"]);
    assert_eq!(p.images[1].policy, PullPolicy::Never);
}

// --- init containers, sidecars, crash backoff ---

fn desired_init(policy: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  initContainers:\n  - {{name: i1, image: 'img:1'}}\n  - {{name: side, image: 'img:1', restartPolicy: Always}}\n  - {{name: i2, image: 'img:1'}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

fn steps(v: &[ContainerStep]) -> Vec<String> {
    v.iter().map(|s| s.container.clone()).collect()
}

#[test]
fn init_containers_run_one_at_a_time_before_the_app_containers() {
    let d = desired_init("Always");
    // Nothing yet: the infra container and the first init container only.
    let p = plan_for(&d, &[]);
    assert_eq!(steps(&p.infra.clone().into_iter().collect::<Vec<_>>()), ["POD"]);
    assert_eq!(steps(&p.init), ["i1"]);
    assert!(p.apps.is_empty());

    let mut obs = vec![instance(&d, "POD", 0, running()), instance(&d, "i1", 0, running())];
    assert!(plan_for(&d, &obs).is_empty(), "i1 still runs: wait");

    // i1 done: the sidecar starts, and i2 right after it in the same sync.
    obs[1].state = exited(0);
    let p = plan_for(&d, &obs);
    assert_eq!(steps(&p.init), ["side", "i2"]);
    assert!(p.apps.is_empty());

    obs.push(instance(&d, "side", 0, running()));
    obs.push(instance(&d, "i2", 0, exited(0)));
    let p = plan_for(&d, &obs);
    assert!(p.init.is_empty(), "finished init containers are not rerun");
    assert_eq!(steps(&p.apps), ["a"]);
}

#[test]
fn init_containers_removed_after_the_pod_was_initialized_are_not_run_again() {
    let d = desired_init("Always");
    // The app runs; every init container has been removed since (by hand, by a deletion
    // under way): only the sidecar, which the pod keeps running, is made again.
    let obs = vec![instance(&d, "POD", 0, running()), instance(&d, "a", 0, running())];
    let p = plan_for(&d, &obs);
    assert_eq!(creates(&p), vec![("side".to_owned(), 0)]);
    assert!(p.apps.is_empty(), "{p:?}");
    // A failed or created-but-not-started init container of an initialized pod is left too.
    let mut obs = obs;
    obs.push(instance(&d, "i1", 0, exited(1)));
    obs.push(instance(&d, "side", 0, running()));
    obs.push(instance(&d, "i2", 0, State::Created));
    assert!(plan_for(&d, &obs).is_empty(), "{:?}", plan_for(&d, &obs));
    // A created app container says so as well; an exited one does not (after a reboot every
    // container has exited, and the pod starts over with its infra container).
    obs[1].state = State::Created;
    assert_eq!(steps(&plan_for(&d, &obs).apps), ["a"]);
    assert!(plan_for(&d, &obs).init.is_empty());
}

#[test]
fn an_init_container_removed_after_a_later_one_ran_is_not_run_again() {
    let d = desired_init("Always");
    // i1 is gone, but i2 (after it) completed: i1 had completed too.
    let obs =
        vec![instance(&d, "POD", 0, running()), instance(&d, "side", 0, running()), instance(&d, "i2", 0, exited(0))];
    let p = plan_for(&d, &obs);
    assert!(p.init.is_empty(), "{p:?}");
    assert_eq!(steps(&p.apps), ["a"]);
    // Only the last one seen counts: with i2 gone as well, the sidecar's start says i1 ran,
    // and i2 runs again.
    let p = plan_for(&d, &obs[..2]);
    assert_eq!(steps(&p.init), ["i2"]);
    assert!(p.apps.is_empty());
}

#[test]
fn a_failed_init_container_is_retried_unless_never() {
    for (policy, retried) in [("Always", true), ("OnFailure", true), ("Never", false)] {
        let d = desired_init(policy);
        let obs = vec![instance(&d, "POD", 0, running()), instance(&d, "i1", 0, exited(1))];
        let p = plan_for(&d, &obs);
        assert_eq!(creates(&p), if retried { vec![("i1".to_owned(), 1)] } else { vec![] }, "{policy}");
        assert!(p.apps.is_empty(), "{policy}: nothing after a failed init container starts");
    }
}

/// A regular init container's own policy and rules decide its retry, as for an app container.
#[test]
fn a_failed_init_container_follows_its_own_policy_and_rules() {
    for (pod, own, code, retried) in [
        ("Always", ", restartPolicy: Never", 1, false),
        ("Never", ", restartPolicy: OnFailure", 1, true),
        (
            "Never",
            ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [3]}}]",
            3,
            true,
        ),
        (
            "Never",
            ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [3]}}]",
            4,
            false,
        ),
    ] {
        let yaml = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {pod}\n  initContainers:\n  - {{name: i1, image: 'img:1'{own}}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
        );
        let d = DesiredPod::from_loaded(
            &load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap().pods[0],
            INFRA,
            None,
        );
        assert!(!d.init[0].sidecar, "only Always makes a sidecar");
        let obs = vec![instance(&d, "POD", 0, running()), instance(&d, "i1", 0, exited(code))];
        let p = plan_for(&d, &obs);
        assert_eq!(creates(&p), if retried { vec![("i1".to_owned(), 1)] } else { vec![] }, "{pod}{own} exit {code}");
        assert!(p.apps.is_empty());
    }
}

#[test]
fn a_sidecar_is_restarted_and_stopped_once_the_pod_is_done() {
    let d = desired_init("Never");
    let mut obs = vec![
        instance(&d, "POD", 0, running()),
        instance(&d, "i1", 0, exited(0)),
        instance(&d, "side", 0, exited(1)),
        instance(&d, "i2", 0, exited(0)),
        instance(&d, "a", 0, running()),
    ];
    // Sidecars restart whatever the pod's restart policy.
    assert_eq!(creates(&plan_for(&d, &obs)), vec![("side".to_owned(), 1)]);
    obs[2].state = running();
    obs[4].state = exited(0);
    let p = plan_for(&d, &obs);
    assert_eq!(p.stop.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), ["side-0"]);
    assert!(creates(&p).is_empty());
}

#[test]
fn changing_an_init_container_recreates_the_pod() {
    let old = desired_init("Always");
    let obs = vec![instance(&old, "POD", 0, running()), instance(&old, "i1", 0, exited(0))];
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - {name: i1, image: 'img:2'}\n  - {name: side, image: 'img:1', restartPolicy: Always}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";
    let new = DesiredPod::from_loaded(
        &load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap().pods[0],
        INFRA,
        None,
    );
    let p = plan_for(&new, &obs);
    assert_eq!(removed(&p), vec!["POD-0", "i1-0"]);
    assert_eq!(creates(&p), vec![("POD".into(), 1), ("i1".into(), 1)]);
}

#[test]
fn a_changed_sidecar_is_restarted_alone() {
    let old = desired_init("Always");
    let obs = vec![
        instance(&old, "POD", 0, running()),
        instance(&old, "i1", 0, exited(0)),
        instance(&old, "side", 0, running()),
        instance(&old, "i2", 0, exited(0)),
        instance(&old, "a", 0, running()),
    ];
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - {name: i1, image: 'img:1'}\n  - {name: side, image: 'img:2', restartPolicy: Always}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";
    let new = DesiredPod::from_loaded(
        &load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap().pods[0],
        INFRA,
        None,
    );
    assert_eq!(new.infra.spec_hash, old.infra.spec_hash, "the pod's sandbox stays");
    let p = plan_for(&new, &obs);
    assert_eq!(removed(&p), vec!["side-0"]);
    assert_eq!(creates(&p), vec![("side".into(), 1)]);
    assert!(p.apps.is_empty(), "{p:?}");
}

fn exited_at(code: i64, finished: SystemTime) -> State {
    let t = humantime::format_rfc3339_nanos(finished).to_string();
    State::Exited { exit_code: code, started_at: Some(t.clone()), finished_at: Some(t), oom_killed: false, error: None }
}

#[test]
fn crash_backoff_holds_restarts_back() {
    let d = desired("Always");
    let now = SystemTime::now();
    let ctx = Context {
        now,
        crash: CrashBackoff { base: Duration::from_secs(10), max: Duration::from_secs(300) },
        unhealthy: &HEALTHY,
        not_started: &HEALTHY,
    };
    let mut obs = running_pod(&d);
    // The first restart is immediate.
    obs[1] = instance(&d, "a", 0, exited_at(1, now));
    let p = plan(&d, &PodObservation::new(&d, &obs), &ctx);
    assert_eq!(creates(&p), vec![("a".into(), 1)]);
    // After the third exit: 20 s after it finished.
    obs[1] = instance(&d, "a", 2, exited_at(1, now - Duration::from_secs(5)));
    let p = plan(&d, &PodObservation::new(&d, &obs), &ctx);
    assert!(creates(&p).is_empty());
    assert_eq!(p.backoff.len(), 1);
    assert_eq!(p.backoff[0].delay, Duration::from_secs(20));
    assert_eq!(p.next_restart(), Some(now + Duration::from_secs(15)));
    // Once it has passed, the restart goes ahead.
    obs[1] = instance(&d, "a", 2, exited_at(1, now - Duration::from_secs(21)));
    assert_eq!(creates(&plan(&d, &PodObservation::new(&d, &obs), &ctx)), vec![("a".into(), 3)]);
}

#[test]
fn first_starts_are_progress_and_restarts_are_repairs() {
    let d = desired("Always");
    assert!(!plan_for(&d, &[]).is_repair());
    let mut obs = running_pod(&d);
    obs[1].state = exited(1);
    assert!(plan_for(&d, &obs).is_repair());
}

#[test]
fn a_failed_liveness_probe_kills_the_container() {
    let d = desired("Always");
    let obs = running_pod(&d);
    let unhealthy: BTreeSet<String> = ["a-0".to_owned()].into();
    let c = Context {
        now: SystemTime::now(),
        crash: CrashBackoff::default(),
        unhealthy: &unhealthy,
        not_started: &HEALTHY,
    };
    let p = plan(&d, &PodObservation::new(&d, &obs), &c);
    assert_eq!(p.stop.iter().map(|o| o.id.clone()).collect::<Vec<_>>(), ["a-0"]);
    assert_eq!(creates(&p), vec![("a".into(), 1)], "restarted unless the policy is Never");
    let d = desired("Never");
    let p = plan(&d, &PodObservation::new(&d, &running_pod(&d)), &c);
    assert_eq!(p.stop.len(), 1);
    assert!(creates(&p).is_empty());
}

#[test]
fn a_sidecar_holds_the_next_init_container_until_its_startup_probe_passes() {
    let d = desired_init("Always");
    let obs =
        vec![instance(&d, "POD", 0, running()), instance(&d, "i1", 0, exited(0)), instance(&d, "side", 0, running())];
    let waiting: BTreeSet<String> = ["side-0".to_owned()].into();
    let c =
        Context { now: SystemTime::now(), crash: CrashBackoff::default(), unhealthy: &HEALTHY, not_started: &waiting };
    assert!(plan(&d, &PodObservation::new(&d, &obs), &c).init.is_empty());
    assert_eq!(steps(&plan_for(&d, &obs).init), ["i2"]);
}

#[test]
fn a_sidecar_with_a_startup_probe_is_created_alone() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - name: side\n    image: 'img:1'\n    restartPolicy: Always\n    startupProbe: {exec: {command: ['true']}}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    let d = DesiredPod::from_loaded(&loaded.pods[0], INFRA, None);
    // Neither i2 nor the app container may start before the sidecar's startup probe passed,
    // which a later sync sees.
    let p = plan_for(&d, &[]);
    assert_eq!(steps(&p.init), ["side"]);
    assert!(p.apps.is_empty());
    let obs = vec![instance(&d, "POD", 0, running()), instance(&d, "side", 0, State::Created)];
    let p = plan_for(&d, &obs);
    assert_eq!(steps(&p.init), ["side"], "started, and nothing after it");
    assert!(p.apps.is_empty());
}
