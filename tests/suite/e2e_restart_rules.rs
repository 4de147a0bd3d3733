//! Container restart policies and rules (ContainerRestartRules, on by default since Kubernetes
//! 1.35) and start failures, end to end on Docker, Podman and containerd, after the node e2e
//! tests of test/e2e/common/node ("Pod Extended (container restart policy)") with busybox in
//! agnhost's place: a container's own restartPolicy overrides the pod's, a Restart rule
//! restarts on the listed exit codes, and a container whose executable is missing is
//! terminated (StartError, exit code 128) and handled by its restart policy at once.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;

/// The arguments that point podrun at `target`'s engine.
fn engine_args(target: Target) -> Vec<String> {
    match target {
        Target::Engine(Some(host)) => vec!["--host".into(), host.into()],
        Target::Cri(endpoint) => vec!["--runtime-endpoint".into(), endpoint.into()],
        _ => Vec::new(),
    }
}

/// `podrun apply --supervise` on `target` in the background, killed when dropped.
fn supervise(target: Target, ns: &Namespace, f: &TempFile) -> Killed {
    Killed(
        Command::new(PODRUN)
            .args(engine_args(target))
            .args(["apply", f.path(), "-n", ns.name(), "--supervise", "--crash-backoff", "200ms"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run podrun"),
    )
}

fn status_of<'a>(pod: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    let all = pod["status"]["containerStatuses"].as_array().map(Vec::as_slice).unwrap_or_default();
    all.iter().find(|c| c["name"] == name).unwrap_or(&serde_json::Value::Null)
}

/// In an Always pod: `once` (its own policy Never) exits 1 and stays terminated; `rule` (Never,
/// with a Restart rule on 42) exits 42, is restarted once and then runs; `main` runs on; the
/// pod is Running.
fn never_container_and_rule(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let f = TempFile::new(
        "pod.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: rules}}\nspec:\n  restartPolicy: Always\n  \
             terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, emptyDir: {{}}}}]\n  containers:\n  \
             - {{name: once, image: busybox:1.28, restartPolicy: Never, command: [sh, -c, 'exit 1']}}\n  \
             - name: rule\n    image: busybox:1.28\n    restartPolicy: Never\n    \
             restartPolicyRules: [{{action: Restart, exitCodes: {{operator: In, values: [42]}}}}]\n    \
             volumeMounts: [{{name: d, mountPath: /d}}]\n    \
             command: [sh, -c, 'if [ -f /d/ran ]; then {LOOP}; fi; touch /d/ran; exit 42']\n  \
             - {{name: main, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
        ),
    );
    let _supervisor = supervise(target, &ns, &f);
    let look = || {
        let out = target.podrun(&["get", "rules", "-n", ns.name(), "-o", "json"].map(str::to_owned));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap_or_default()
    };
    let settled = |v: &serde_json::Value| {
        let (once, rule, main) = (status_of(v, "once"), status_of(v, "rule"), status_of(v, "main"));
        once["state"]["terminated"]["exitCode"] == 1
            && once["restartCount"] == 0
            && rule["state"]["running"].is_object()
            && rule["restartCount"] == 1
            && rule["lastState"]["terminated"]["exitCode"] == 42
            && main["state"]["running"].is_object()
            && v["status"]["phase"] == "Running"
    };
    wait_until(&format!("the pod settles on {}", target.name()), Duration::from_secs(90), || {
        let v = look();
        if settled(&v) {
            Ok(())
        } else {
            Err(v["status"].clone())
        }
    });
    // The supervisor keeps the pod as a kubelet would: `once` is never started again.
    for _ in 0..5 {
        std::thread::sleep(Duration::from_secs(1));
        let v = look();
        assert!(settled(&v), "on {}: {}", target.name(), v["status"]);
    }
}

#[test]
fn e2e_restart_rules_never_container_and_exit_code_rule_on_docker() {
    require_engine!();
    never_container_and_rule(Target::Engine(None), "rules");
}

#[test]
fn e2e_restart_rules_never_container_and_exit_code_rule_on_podman() {
    require_engine!();
    require_podman!(host);
    never_container_and_rule(Target::Engine(Some(&host)), "rules-podman");
}

#[test]
fn e2e_restart_rules_never_container_and_exit_code_rule_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    never_container_and_rule(Target::Cri(&endpoint), "rules-cri");
}

/// A container whose executable is missing cannot start: under Never the pod fails at once
/// (exit 6, not the timeout's 5), the container terminated with StartError, exit code 128 and
/// the runtime's message, and no postStart hook is run; the other container is not waited for.
fn missing_executable_under_never(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: nocmd}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  containers:\n  \
         - name: broken\n    image: busybox:1.28\n    command: [/no-such-program]\n    \
         lifecycle: {{postStart: {{exec: {{command: ['true']}}}}}}\n  \
         - {{name: other, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
    );
    let f = TempFile::new("pod.yaml", &manifest);
    let out =
        target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "120s", "-o", "json"].map(str::to_owned));
    assert_eq!(code(&out), 6, "on {}: {}", target.name(), stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let broken = status_of(&report["items"][0], "broken");
    let t = &broken["state"]["terminated"];
    assert_eq!(t["reason"], "StartError", "on {}: {broken}", target.name());
    assert_eq!(t["exitCode"], 128, "on {}: {broken}", target.name());
    assert!(t["message"].as_str().is_some_and(|m| m.contains("no-such-program")), "on {}: {broken}", target.name());
    assert_eq!(broken["restartCount"], 0, "on {}: {broken}", target.name());
    assert!(stderr(&out).contains("StartError"), "the report says why, on {}: {}", target.name(), stderr(&out));
    // A kubelet runs no postStart hook after a failed start.
    assert!(!stderr(&out).contains("postStart"), "on {}: {}", target.name(), stderr(&out));
    assert_eq!(report["items"][0]["status"]["phase"], "Running", "other still runs: {report}");
}

/// Under Always the same container is restarted, each try terminated as StartError, until the
/// crash loop outlives the retries (exit 6).
fn missing_executable_under_always(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: nocmd}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
                    containers:\n  - {name: broken, image: busybox:1.28, command: [/no-such-program]}\n";
    let f = TempFile::new("pod.yaml", manifest);
    let args = ["apply", f.path(), "-n", ns.name(), "--timeout", "120s", "--retries", "2", "--crash-backoff", "200ms"];
    let out = target.podrun(&args.iter().chain(&["-o", "json"]).map(|a| (*a).to_owned()).collect::<Vec<_>>());
    assert_eq!(code(&out), 6, "on {}: {}", target.name(), stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let broken = status_of(&report["items"][0], "broken");
    assert_eq!(broken["restartCount"], 2, "on {}: {broken}", target.name());
    assert_eq!(broken["lastState"]["terminated"]["reason"], "StartError", "on {}: {broken}", target.name());
    assert_eq!(broken["lastState"]["terminated"]["exitCode"], 128, "on {}: {broken}", target.name());
}

#[test]
fn e2e_restart_rules_missing_executable_is_restarted_under_always_on_docker() {
    require_engine!();
    missing_executable_under_always(Target::Engine(None), "nocmd-always");
}

#[test]
fn e2e_restart_rules_missing_executable_is_restarted_under_always_on_podman() {
    require_engine!();
    require_podman!(host);
    missing_executable_under_always(Target::Engine(Some(&host)), "nocmd-always-podman");
}

#[test]
fn e2e_restart_rules_missing_executable_is_restarted_under_always_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    missing_executable_under_always(Target::Cri(&endpoint), "nocmd-always-cri");
}

#[test]
fn e2e_restart_rules_missing_executable_fails_a_never_pod_at_once_on_docker() {
    require_engine!();
    missing_executable_under_never(Target::Engine(None), "nocmd");
}

#[test]
fn e2e_restart_rules_missing_executable_fails_a_never_pod_at_once_on_podman() {
    require_engine!();
    require_podman!(host);
    missing_executable_under_never(Target::Engine(Some(&host)), "nocmd-podman");
}

#[test]
fn e2e_restart_rules_missing_executable_fails_a_never_pod_at_once_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    missing_executable_under_never(Target::Cri(&endpoint), "nocmd-cri");
}
