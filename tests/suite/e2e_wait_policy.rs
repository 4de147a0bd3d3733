//! What `apply` and `wait` wait for by default, by each container's effective restart policy
//! (its own `restartPolicy` and `restartPolicyRules`, else the pod's), and compose's
//! `--exit-code-from` and `--abort-on-container-exit`, on Docker, Podman and containerd (CRI).
//! The restart-policy pods are those of Kubernetes' e2e tests (test/e2e/common/node/
//! container_restart_policy.go, "Container Restart Rules"), with a marker on an emptyDir so
//! that a restarted container ends the second time and apply's default wait has an end.

use std::time::{Duration, Instant};

use crate::common::*;

/// A pod named `name` under `policy` with the app container `main` (`own`: its own settings,
/// as flow-mapping entries) running `script`, and an emptyDir at /d.
fn one_container(name: &str, policy: &str, own: &str, script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: {policy}\n  \
         terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, emptyDir: {{}}}}]\n  containers:\n  \
         - {{name: main, image: busybox:1.28{own}, volumeMounts: [{{name: d, mountPath: /d}}], \
         command: [sh, -c, '{script}']}}\n"
    )
}

/// Runs `first` on the container's first start, `then` on every later one.
fn first_then(first: &str, then: &str) -> String {
    format!("if [ -f /d/ran ]; then {then}; fi; touch /d/ran; {first}")
}

const RULE_42: &str =
    ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]";

/// One of the e2e pods, applied with the default wait: the exit code, and `main`'s state,
/// restart count and the code it last exited with.
struct Case {
    what: &'static str,
    manifest: String,
    code: i32,
    state: &'static str,
    restarts: u64,
    exit: Option<i64>,
}

fn cases() -> Vec<Case> {
    vec![
        // "should restart container on container-level restart policy Always" (a Never pod):
        // restarted, then running for good, which is what apply waits for.
        Case {
            what: "an Always container in a Never pod",
            manifest: one_container("always", "Never", ", restartPolicy: Always", &first_then("exit 1", LOOP)),
            code: 0,
            state: "running",
            restarts: 1,
            exit: None,
        },
        // "should restart container on rule match": exit 42 restarts it; it ends the second time.
        Case {
            what: "a Never container whose rule matches",
            manifest: one_container("match", "Never", RULE_42, &first_then("exit 42", "exit 0")),
            code: 0,
            state: "terminated",
            restarts: 1,
            exit: Some(0),
        },
        // "should not restart container on rule mismatch, container restart policy Never".
        Case {
            what: "a Never container whose rule does not match",
            manifest: one_container("mismatch", "Never", RULE_42, "exit 1"),
            code: 6,
            state: "terminated",
            restarts: 0,
            exit: Some(1),
        },
        // "should restart container on container-level restart policy Never" (an Always pod):
        // not restarted, and the run fails at once.
        Case {
            what: "a Never container in an Always pod",
            manifest: one_container("never", "Always", ", restartPolicy: Never", "exit 1"),
            code: 6,
            state: "terminated",
            restarts: 0,
            exit: Some(1),
        },
        // "...on pod-level restart policy Always when no container-level restart policy".
        Case {
            what: "the pod's Always",
            manifest: one_container("podlevel", "Always", "", &first_then("exit 1", LOOP)),
            code: 0,
            state: "running",
            restarts: 1,
            exit: None,
        },
    ]
}

fn status_of<'a>(pod: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    let all = pod["status"]["containerStatuses"].as_array().map(Vec::as_slice).unwrap_or_default();
    all.iter().find(|c| c["name"] == name).unwrap_or(&serde_json::Value::Null)
}

fn podrun_json(target: Target, args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = target.podrun(&args.iter().chain(&["-o", "json"]).map(|a| (*a).to_owned()).collect::<Vec<_>>());
    let report = serde_json::from_slice(&out.stdout).unwrap_or_default();
    (code(&out), report, stderr(&out))
}

fn restart_policy_pods(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    for c in cases() {
        let f = TempFile::new("pod.yaml", &c.manifest);
        let args = ["apply", f.path(), "-n", ns.name(), "--timeout", "90s", "--crash-backoff", "200ms"];
        let (code, report, err) = podrun_json(target, &args);
        let on = format!("{} on {}", c.what, target.name());
        assert_eq!(code, c.code, "{on}: {err}");
        let main = status_of(&report["items"][0], "main");
        assert!(main["state"][c.state].is_object(), "{on}: {main}");
        assert_eq!(main["restartCount"], c.restarts, "{on}: {main}");
        let exited = main["state"]["terminated"]["exitCode"].as_i64();
        assert_eq!(exited, c.exit, "{on}: {main}");
        assert!(!err.contains("waiting for completion"), "{on}: {err}");
    }
}

#[test]
fn e2e_wait_policy_restart_policy_pods_on_docker() {
    require_engine!();
    restart_policy_pods(Target::Engine(None), "waitpolicy");
}

#[test]
fn e2e_wait_policy_restart_policy_pods_on_podman() {
    require_engine!();
    require_podman!(host);
    restart_policy_pods(Target::Engine(Some(&host)), "waitpolicy-podman");
}

#[test]
fn e2e_wait_policy_restart_policy_pods_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    restart_policy_pods(Target::Cri(&endpoint), "waitpolicy-cri");
}

/// A Never pod with `server` (its own policy Always, runs for good) and `job` (ends with exit 0
/// after a few seconds).
fn mixed_pod() -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: mixed}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  containers:\n  \
         - {{name: server, image: busybox:1.28, restartPolicy: Always, command: [sh, -c, '{LOOP}']}}\n  \
         - {{name: job, image: busybox:1.28, command: [sh, -c, 'sleep 3; exit 0']}}\n"
    )
}

/// The mixed pod is waited for both ways: `apply` ends once `job` has completed and `server`
/// runs; `podrun wait` after `apply --wait-for none` judges it the same way, from the record.
fn mixed(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let f = TempFile::new("pod.yaml", &mixed_pod());
    let (code, report, err) = podrun_json(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "90s"]);
    assert_eq!(code, 0, "on {}: {err}", target.name());
    let pod = &report["items"][0];
    assert!(status_of(pod, "server")["state"]["running"].is_object(), "on {}: {pod}", target.name());
    assert_eq!(status_of(pod, "job")["state"]["terminated"]["exitCode"], 0, "on {}: {pod}", target.name());

    let ns = Namespace::for_target(target, &format!("{test}-wait"));
    let (code, _, err) = podrun_json(target, &["apply", f.path(), "-n", ns.name(), "--wait-for", "none"]);
    assert_eq!(code, 0, "on {}: {err}", target.name());
    let (code, _, err) = podrun_json(target, &["wait", "mixed", "-n", ns.name(), "--timeout", "60s"]);
    assert_eq!(code, 0, "wait on {}: {err}", target.name());
    let (_, pod, _) = podrun_json(target, &["get", "mixed", "-n", ns.name()]);
    assert_eq!(
        status_of(&pod, "job")["state"]["terminated"]["exitCode"],
        0,
        "waited for job on {}: {pod}",
        target.name()
    );
    assert!(status_of(&pod, "server")["state"]["running"].is_object(), "on {}: {pod}", target.name());
}

#[test]
fn e2e_wait_policy_mixed_pod_on_docker() {
    require_engine!();
    mixed(Target::Engine(None), "mixed");
}

#[test]
fn e2e_wait_policy_mixed_pod_on_podman() {
    require_engine!();
    require_podman!(host);
    mixed(Target::Engine(Some(&host)), "mixed-podman");
}

#[test]
fn e2e_wait_policy_mixed_pod_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    mixed(Target::Cri(&endpoint), "mixed-cri");
}

/// `test` exits with `code` after a second beside `db`, which runs until stopped.
fn test_and_db(code: i32) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: ci}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 5\n  containers:\n  \
         - {{name: db, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n  \
         - {{name: test, image: busybox:1.28, command: [sh, -c, 'sleep 1; echo tested; exit {code}']}}\n"
    )
}

/// `--exit-code-from test` and `--abort-on-container-exit`: once `test` has ended, `db` is
/// stopped and podrun exits with test's code, long before the deadline.
fn abort_on_exit(target: Target, test: &str) {
    for (flags, code) in [(&["--exit-code-from", "test"][..], 3), (&["--abort-on-container-exit"][..], 0)] {
        let ns = Namespace::for_target(target, test);
        let f = TempFile::new("pod.yaml", &test_and_db(code));
        let args: Vec<&str> = ["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]
            .into_iter()
            .chain(flags.iter().copied())
            .collect();
        let start = Instant::now();
        let (got, report, err) = podrun_json(target, &args);
        let took = start.elapsed();
        let on = format!("{flags:?} on {}", target.name());
        assert_eq!(got, code, "{on}: {err}");
        assert!(took < Duration::from_secs(60), "{on}: the deadline was waited out ({took:?}): {err}");
        assert!(err.contains("test exited with code") && err.contains("aborting on container exit"), "{on}: {err}");
        let pod = &report["items"][0];
        assert_eq!(status_of(pod, "test")["state"]["terminated"]["exitCode"], code, "{on}: {pod}");
        assert!(status_of(pod, "db")["state"]["terminated"].is_object(), "db stopped, {on}: {pod}");
    }
}

#[test]
fn e2e_wait_policy_abort_on_container_exit_on_docker() {
    require_engine!();
    abort_on_exit(Target::Engine(None), "abort");
}

#[test]
fn e2e_wait_policy_abort_on_container_exit_on_podman() {
    require_engine!();
    require_podman!(host);
    abort_on_exit(Target::Engine(Some(&host)), "abort-podman");
}

#[test]
fn e2e_wait_policy_abort_on_container_exit_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    abort_on_exit(Target::Cri(&endpoint), "abort-cri");
}
