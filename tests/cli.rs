//! The command line itself: help, version, usage errors, and manifest checks that need no
//! engine (they run before podrun connects to one).

mod common;

use common::*;

const NO_ENGINE: &[(&str, &str)] = &[("DOCKER_HOST", "unix:///nonexistent/podrun.sock")];

#[test]
fn version_and_help() {
    let v = podrun(&["--version"], None);
    assert_eq!(code(&v), 0);
    assert_eq!(stdout(&v).trim(), format!("podrun {}", env!("CARGO_PKG_VERSION")));
    let h = podrun(&["--help"], None);
    assert_eq!(code(&h), 0);
    for word in ["apply", "delete", "Exit codes", "--host"] {
        assert!(stdout(&h).contains(word), "{word} missing from --help");
    }
    let h = podrun(&["help", "apply"], None);
    assert_eq!(code(&h), 0);
    for word in [
        "--wait-for",
        "--timeout",
        "--retries",
        "--retry-delay",
        "--backoff",
        "--namespace",
        "--output",
        "--infra-image",
        "--strict",
    ] {
        assert!(stdout(&h).contains(word), "{word} missing from help apply");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [vec!["apply"], vec!["apply", "x.yaml", "--timeout", "soon"], vec!["frobnicate"]] {
        let o = podrun(&args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
    }
    let o = podrun_env(&["delete", "Not_A_Pod"], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn manifest_errors_exit_2_before_any_engine_is_contacted() {
    let typo = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: busybox, comand: [sh]}\n";
    let f = TempFile::new("typo.yaml", typo);
    let o = podrun_env(&["apply", f.path()], None, NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains(f.path()), "the file is named: {}", stderr(&o));
    assert!(
        stderr(&o).contains("spec.containers[0].comand: unknown field \"comand\" (did you mean \"command\"?)"),
        "{}",
        stderr(&o)
    );

    let o = podrun_env(
        &["apply", "-"],
        Some("kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [}\n"),
        NO_ENGINE,
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("<stdin>:4:"), "{}", stderr(&o));

    let o = podrun_env(&["apply", "/nonexistent/pod.yaml"], None, NO_ENGINE);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("/nonexistent/pod.yaml"), "{}", stderr(&o));

    let o = podrun_env(&["apply", "-"], Some("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("no Pod"), "{}", stderr(&o));
}

#[test]
fn the_namespace_flag_must_agree_with_the_manifest() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  containers:\n  - {name: c, image: busybox}\n";
    let o = podrun_env(&["apply", "-", "-n", "b"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("does not match"), "{}", stderr(&o));
}

#[test]
fn strict_refuses_what_podrun_would_ignore() {
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {disk: ssd}\n  containers:\n  - {name: c, image: busybox}\n";
    let o = podrun_env(&["apply", "-", "--strict"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("spec.nodeSelector"), "{}", stderr(&o));
    // Without --strict the same manifest passes the checks (and then needs the engine: 3).
    let o = podrun_env(&["apply", "-"], Some(pod), NO_ENGINE);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("spec.nodeSelector"), "the warning names the field: {}", stderr(&o));
}
