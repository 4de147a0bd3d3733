//! One-shot runs end to end, the CI job pattern: `apply --logs --exit-code-from C --rm` shows
//! the containers' output, exits with C's code and leaves nothing behind.

use crate::common::*;

const JOB: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: job}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n  initContainers:\n  - {name: init, image: 'busybox:1.28', command: [sh, -c, 'echo init says hi']}\n  containers:\n  - {name: app, image: 'busybox:1.28', command: [sh, -c, 'echo working; echo warning >&2; echo done; printf unfinished; exit 3']}\n";

#[test]
fn e2e_a_failing_job_shows_its_logs_exits_with_its_code_and_leaves_nothing() {
    require_engine!();
    let ns = Namespace::new("run-job");
    let state = StateDir::new("run-job");
    let out = state.apply(&ns, JOB, &["--logs", "--exit-code-from", "app", "--rm"]);
    assert_eq!(code(&out), 3, "stdout:\n{}\nstderr:\n{}", stdout(&out), stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    for want in ["init | init says hi", "app | working", "app | warning", "app | done", "app | unfinished"] {
        assert!(lines.iter().any(|l| l == want), "no line {want:?} in:\n{}", stdout(&out));
    }
    let pos = |want: &str| lines.iter().position(|l| l == want);
    assert!(pos("app | working") < pos("app | done"), "lines out of order:\n{}", stdout(&out));
    // The relay's lines go to stdout; stderr's failure report quotes the output indented.
    let relayed = |l: &&str| l.starts_with("app | ") || l.starts_with("init | ");
    assert!(!stderr(&out).lines().any(|l| relayed(&l)), "container output on stderr:\n{}", stderr(&out));
    assert_eq!(ns.containers(), Vec::<(String, String)>::new());
    assert_eq!(state.pod_dirs(), Vec::<String>::new());
}

#[test]
fn e2e_a_completing_pod_with_rm_exits_0_and_leaves_nothing() {
    require_engine!();
    let ns = Namespace::new("run-ok");
    let state = StateDir::new("run-ok");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: c, image: 'busybox:1.28', command: [sh, -c, 'echo fine']}\n";
    let out = state.apply(&ns, pod, &["--rm"]);
    succeeded(&out);
    assert!(!stdout(&out).contains("c | fine"), "logs shown without --logs:\n{}", stdout(&out));
    assert_eq!(ns.containers(), Vec::<(String, String)>::new());
    assert_eq!(state.pod_dirs(), Vec::<String>::new());
}

#[test]
fn e2e_exit_code_from_an_unknown_container_or_either_flag_with_several_pods_is_a_usage_error() {
    require_engine!();
    let ns = Namespace::new("run-usage");
    let state = StateDir::new("run-usage");
    let out = state.apply(&ns, JOB, &["--exit-code-from", "nope", "--rm"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    let two = format!("{JOB}---\n{}", JOB.replace("name: job", "name: job2"));
    for flags in [&["--exit-code-from", "app"][..], &["--abort-on-container-exit"]] {
        let out = state.apply(&ns, &two, flags);
        assert_eq!(code(&out), 2, "{flags:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("exactly one"), "{flags:?}: {}", stderr(&out));
    }
    assert_eq!(ns.containers(), Vec::<(String, String)>::new());
}
