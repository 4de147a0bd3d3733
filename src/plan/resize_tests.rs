//! In-place resize in the planner, as computePodResizeAction decides it, one row per case.

use std::collections::BTreeSet;
use std::time::SystemTime;

use crate::manifest::{load, LoadOptions, Source};
use crate::plan::{plan, Context, CrashBackoff, Step};
use crate::pod::observed::PodObservation;
use crate::pod::DesiredPod;
use crate::runtime::{labels, Observed, State};

fn desired(resources: &str, policy: &str, in_place: bool) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  containers:\n  - name: a\n    image: 'img:1'\n    resizePolicy: {policy}\n    resources: {resources}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    let mut d = DesiredPod::from_loaded(&loaded.pods[0], "pause", None);
    d.resize_in_place = in_place;
    d
}

/// The pod's containers running as `d` made them.
fn running(d: &DesiredPod) -> Vec<Observed> {
    let infra = crate::pod::InfraRef { id: "infra-id".into(), ip: None, host_ip: None };
    ["POD", "a"]
        .iter()
        .map(|name| {
            let spec = d.create_spec(d.find(name).unwrap(), 0, Some(&infra)).unwrap().0;
            Observed {
                id: format!("{name}-0"),
                name: spec.name,
                labels: spec.labels,
                image: "img:1".into(),
                image_id: "sha256:1".into(),
                state: State::Running { started_at: None },
                ip: None,
                gateway: None,
                sealed: true,
            }
        })
        .collect()
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Nothing,
    InPlace,
    Restart,
}

fn outcome(before: &str, after: &str, policy: &str, in_place: bool) -> Outcome {
    let old = desired(before, policy, in_place);
    let new = desired(after, policy, in_place);
    let none = BTreeSet::new();
    let ctx = Context { now: SystemTime::now(), crash: CrashBackoff::default(), unhealthy: &none, not_started: &none };
    let p = plan(&new, &PodObservation::new(&new, &running(&old)), &ctx);
    let restarts = p.apps.iter().any(|s| matches!(s.step, Step::Create { .. }));
    match (p.resize.is_empty(), restarts) {
        (true, false) => Outcome::Nothing,
        (false, false) => Outcome::InPlace,
        (true, true) => Outcome::Restart,
        (false, true) => panic!("both: {p:?}"),
    }
}

const BURSTABLE: &str = "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 64Mi}}";
const NOT_REQUIRED: &str =
    "[{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: NotRequired}]";
const RESTART_MEMORY: &str = "[{resourceName: memory, restartPolicy: RestartContainer}]";

#[test]
fn resizes_as_compute_pod_resize_action_decides() {
    let cases: &[(&str, &str, &str, bool, Outcome)] = &[
        ("unchanged", BURSTABLE, "[]", true, Outcome::Nothing),
        (
            "memory limit up",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 96Mi}}",
            NOT_REQUIRED,
            true,
            Outcome::InPlace,
        ),
        (
            "memory limit down (allowed under NotRequired since 1.33)",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 48Mi}}",
            "[]",
            true,
            Outcome::InPlace,
        ),
        (
            "cpu request up",
            "{requests: {cpu: 150m, memory: 32Mi}, limits: {cpu: 200m, memory: 64Mi}}",
            "[]",
            true,
            Outcome::InPlace,
        ),
        (
            "memory under RestartContainer",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 96Mi}}",
            RESTART_MEMORY,
            true,
            Outcome::Restart,
        ),
        (
            "cpu under RestartContainer for memory only",
            "{requests: {cpu: 150m, memory: 32Mi}, limits: {cpu: 300m, memory: 64Mi}}",
            RESTART_MEMORY,
            true,
            Outcome::InPlace,
        ),
        (
            "a cpu limit removed",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {memory: 64Mi}}",
            "[]",
            true,
            Outcome::Restart,
        ),
        (
            "an engine that cannot update",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 96Mi}}",
            "[]",
            false,
            Outcome::Restart,
        ),
    ];
    for (what, after, policy, in_place, want) in cases {
        assert_eq!(&outcome(BURSTABLE, after, policy, *in_place), want, "{what}");
    }
}

/// A resize that changes the QoS class is no resize: the container's spec hash holds the
/// class, so it is made anew.
#[test]
fn a_new_qos_class_makes_a_new_container() {
    let guaranteed = "{requests: {cpu: 200m, memory: 64Mi}, limits: {cpu: 200m, memory: 64Mi}}";
    let old = desired(BURSTABLE, "[]", true);
    let new = desired(guaranteed, "[]", true);
    assert_ne!(old.containers[0].spec_hash, new.containers[0].spec_hash);
    let same_class = desired("{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 300m, memory: 96Mi}}", "[]", true);
    assert_eq!(old.containers[0].spec_hash, same_class.containers[0].spec_hash);
}

/// Once the engine reports the new resources (a container resized in place keeps its
/// labels), nothing more is done.
#[test]
fn what_the_engine_reports_wins_over_the_label() {
    let old = desired(BURSTABLE, "[]", true);
    let new = desired("{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 96Mi}}", "[]", true);
    let mut seen = running(&old);
    let now = new.containers[0].settings.resources_text();
    seen[1].labels.insert(labels::RESOURCES_NOW.to_owned(), now);
    let none = BTreeSet::new();
    let ctx = Context { now: SystemTime::now(), crash: CrashBackoff::default(), unhealthy: &none, not_started: &none };
    let p = plan(&new, &PodObservation::new(&new, &seen), &ctx);
    assert!(p.is_empty(), "{p:?}");
}
