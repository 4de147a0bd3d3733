//! The status a 1.35+ kubelet writes, end to end on Docker and on containerd (CRI): the
//! PodReadyToStartContainers condition, `lastTransitionTime` and `observedGeneration` on every
//! condition, `metadata.generation` (1, then one more for a re-apply that changed the spec), and
//! what a run cut short by `--timeout` says it was waiting for (a container that still runs, a
//! container stopping within its grace period), never an engine outage while the engine answers.
//! After test/e2e_node/pod_conditions_test.go (PodReadyToStartContainers) and
//! test/e2e/node/pod_observed_generation.go.

use crate::common::*;

fn pod(name: &str, command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{command}']\n"
    )
}

fn condition<'a>(obj: &'a serde_json::Value, type_: &str) -> &'a serde_json::Value {
    let all = obj["status"]["conditions"].as_array().unwrap_or_else(|| panic!("no conditions: {obj}"));
    all.iter().find(|c| c["type"] == type_).unwrap_or_else(|| panic!("no {type_}: {obj}"))
}

fn conditions_and_generation(target: Target) {
    let ns = Namespace::for_target(target, "status-gen");
    let manifest = pod("g", LOOP);
    succeeded(&apply(&ns, &manifest, &["--wait-for", "running", "--timeout", "60s"]));
    let first = get_json(&ns, "g");
    assert_eq!(first["metadata"]["generation"], 1, "{}: {first}", target.name());
    assert_eq!(first["status"]["observedGeneration"], 1, "{first}");
    let sandbox = condition(&first, "PodReadyToStartContainers");
    assert_eq!(sandbox["status"], "True", "{first}");
    for c in first["status"]["conditions"].as_array().expect("conditions") {
        let t = c["lastTransitionTime"].as_str().unwrap_or_else(|| panic!("no lastTransitionTime: {c}"));
        assert!(t.len() == 20 && t.ends_with('Z'), "RFC 3339 to the second, as the API writes it: {t}");
        assert_eq!(c["observedGeneration"], 1, "{c}");
    }
    let ready_at = condition(&first, "Ready")["lastTransitionTime"].clone();

    // The same spec again: the same generation, and the conditions keep their times.
    succeeded(&apply(&ns, &manifest, &["--wait-for", "running", "--timeout", "60s"]));
    let again = get_json(&ns, "g");
    assert_eq!(again["metadata"]["generation"], 1, "{again}");
    assert_eq!(condition(&again, "Ready")["lastTransitionTime"], ready_at, "{again}");

    // A changed spec: the API server would make it generation 2, and the kubelet observes it.
    let changed = manifest.replace("image: busybox:1.28", "image: busybox:1.28\n    env: [{name: V, value: '2'}]");
    succeeded(&apply(&ns, &changed, &["--wait-for", "running", "--timeout", "60s"]));
    let second = get_json(&ns, "g");
    assert_eq!(second["metadata"]["generation"], 2, "{}: {second}", target.name());
    assert_eq!(second["status"]["observedGeneration"], 2, "{second}");
    assert_eq!(condition(&second, "PodReadyToStartContainers")["observedGeneration"], 2, "{second}");
    assert_eq!(condition(&second, "PodReadyToStartContainers")["status"], "True", "{second}");
}

#[test]
fn e2e_status_conditions_transitions_and_generation() {
    require_engine!();
    conditions_and_generation(Target::Engine(None));
}

#[test]
fn e2e_status_conditions_transitions_and_generation_cri() {
    require_cri!(endpoint);
    conditions_and_generation(Target::Cri(&endpoint));
}

/// A Never pod whose container runs past `--timeout`: the run was waiting for it to complete.
fn still_running_at_the_deadline(target: Target) {
    let ns = Namespace::for_target(target, "status-running");
    let manifest = pod("s", LOOP).replace("spec:\n", "spec:\n  restartPolicy: Never\n");
    let out = apply(&ns, &manifest, &["--timeout", "5s"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 5, "not complete by the deadline: {err}");
    assert!(err.contains("c: still running; waiting for completion"), "{}: {err}", target.name());
    assert!(!err.contains("infra container is not running"), "{err}");
}

#[test]
fn e2e_status_the_deadline_says_a_container_still_runs() {
    require_engine!();
    still_running_at_the_deadline(Target::Engine(None));
}

#[test]
fn e2e_status_the_deadline_says_a_container_still_runs_cri() {
    require_cri!(endpoint);
    still_running_at_the_deadline(Target::Cri(&endpoint));
}

/// A container whose liveness probe failed, ignoring SIGTERM, is being stopped within its 30 s
/// grace period when `--timeout` comes: that is what was awaited, and the engine answered.
fn stopping_at_the_deadline(target: Target) {
    let ns = Namespace::for_target(target, "status-stopping");
    let manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: l}\nspec:\n  terminationGracePeriodSeconds: 30\n  \
                    containers:\n  - name: c\n    image: busybox:1.28\n    \
                    command: [sh, -c, 'trap \"\" TERM; while true; do sleep 1; done']\n    \
                    livenessProbe: {exec: {command: ['false']}, periodSeconds: 1, failureThreshold: 1}\n";
    let out = apply(&ns, manifest, &["--timeout", "8s"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 5, "not running by the deadline: {err}");
    assert!(err.contains("c: stopping within its grace period (30s)"), "{}: {err}", target.name());
    assert!(!err.contains("no answer from the engine"), "{err}");
}

#[test]
fn e2e_status_the_deadline_says_a_container_is_stopping_within_its_grace() {
    require_engine!();
    stopping_at_the_deadline(Target::Engine(None));
}

#[test]
fn e2e_status_the_deadline_says_a_container_is_stopping_within_its_grace_cri() {
    require_cri!(endpoint);
    stopping_at_the_deadline(Target::Cri(&endpoint));
}
