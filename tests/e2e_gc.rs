//! `podrun delete --all / -l / --force / --wait=false` and `podrun gc`, end to end, against the
//! real engine.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::*;

/// A state directory of the test's own, so gc never sees another test's (or user's) files.
struct StateDir(PathBuf);

impl StateDir {
    fn new(test: &str) -> StateDir {
        let dir = std::env::temp_dir().join(format!("podrun-gc-state-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("state dir");
        StateDir(dir)
    }

    fn run(&self, args: &[&str]) -> Output {
        podrun_env(args, None, &[("PODRUN_STATE_DIR", self.0.to_str().expect("utf-8"))])
    }

    fn pod_dirs(&self) -> usize {
        std::fs::read_dir(self.0.join("pods")).map(|d| d.count()).unwrap_or(0)
    }
}

impl Drop for StateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn apply(state: &StateDir, ns: &Namespace, manifest: &str) {
    let f = TempFile::new("pod.yaml", manifest);
    let out = state.run(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

fn sleeper(name: &str, labels: &str, grace: u32, trap: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {{{labels}}}}}\nspec:\n  \
         terminationGracePeriodSeconds: {grace}\n  containers:\n  - name: a\n    image: busybox:1.28\n    \
         command: [sh, -c, '{trap} while true; do sleep 1 & wait; done']\n"
    )
}

fn pods(ns: &Namespace) -> Vec<String> {
    let mut names: Vec<String> = ns
        .containers()
        .iter()
        .map(|(id, _)| ns.inspect(id, "{{index .Config.Labels \"io.kubernetes.pod.name\"}}"))
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn e2e_delete_all_and_by_label() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("delete-all");
    let state = StateDir::new("delete-all");
    apply(&state, &ns, &sleeper("one", "app: x", 1, "trap \"exit 0\" TERM;"));
    apply(&state, &ns, &sleeper("two", "app: y", 1, "trap \"exit 0\" TERM;"));
    apply(&state, &ns, &sleeper("three", "", 1, "trap \"exit 0\" TERM;"));
    assert_eq!(pods(&ns), ["one", "three", "two"]);

    // TARGET with --all or -l is a usage error.
    let out = state.run(&["delete", "one", "--all", "-n", ns.name()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = state.run(&["delete", "one", "-l", "app=x", "-n", ns.name()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));

    let out = state.run(&["delete", "-l", "app=x", "-n", ns.name()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pods(&ns), ["three", "two"]);

    let out = state.run(&["delete", "--all", "-n", ns.name()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs(), 0, "the pods' files go with them");
}

#[test]
fn e2e_delete_force_does_not_wait_for_the_grace_period() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("delete-force");
    let state = StateDir::new("delete-force");
    // Ignores SIGTERM: a plain delete would wait the whole 30 s.
    apply(&state, &ns, &sleeper("stubborn", "", 30, "trap \"\" TERM;"));
    let started = Instant::now();
    let out = state.run(&["delete", "stubborn", "--force", "-n", ns.name()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_delete_wait_false_removes_the_pod_without_a_graceful_stop() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("delete-nowait");
    let state = StateDir::new("delete-nowait");
    // Ignores SIGTERM, with a minute's grace: a plain delete would take the whole minute.
    apply(&state, &ns, &sleeper("stubborn", "", 60, "trap \"\" TERM;"));
    assert_eq!(ns.running(), 2, "{:?}", ns.containers());
    assert_eq!(state.pod_dirs(), 1);
    let started = Instant::now();
    let out = state.run(&["delete", "stubborn", "--wait=false", "-n", ns.name()]);
    let took = started.elapsed();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(took < Duration::from_secs(30), "took {took:?}, half the grace period or more");
    // Gone when podrun returns: the engine removed every container (infra included), and
    // podrun the pod's files.
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs(), 0, "the pod's files go with it");
    let out = state.run(&["get", "stubborn", "-n", ns.name()]);
    assert_eq!(code(&out), 1, "the pod is gone: {}", stdout(&out));
}

const DONE: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: done}
spec:
  restartPolicy: Never
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, 'exit 0']
";

/// A completed pod whose infra container is gone: only dead containers are left.
fn orphaned_pod(state: &StateDir, ns: &Namespace) -> Vec<(String, String)> {
    apply(state, ns, DONE);
    let infra = ns.containers().into_iter().find(|(_, n)| n.contains("_POD_")).expect("infra container");
    let rm = Command::new("docker").args(["rm", "-f", &infra.0]).output().expect("docker rm");
    assert!(rm.status.success());
    let left = ns.containers();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(state.pod_dirs(), 1);
    left
}

// One test, not two: gc is engine-wide, so a parallel gc would race the dry run.
#[test]
fn e2e_gc_dry_run_lists_then_gc_removes_an_orphaned_pod() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("gc-orphan");
    let state = StateDir::new("gc-orphan");
    let left = orphaned_pod(&state, &ns);

    let out = state.run(&["gc", "--dry-run", "--min-age", "0s"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let listed = stdout(&out);
    assert!(listed.contains(&format!("would remove container {}", left[0].1)), "{listed}");
    assert!(listed.contains("would remove files of pod uid"), "{listed}");
    assert_eq!(ns.containers(), left);
    assert_eq!(state.pod_dirs(), 1);

    // Too young for the default --min-age of 1m.
    let out = state.run(&["gc"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(ns.containers(), left);

    let out = state.run(&["gc", "--min-age", "0s"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("removed container {}", left[0].1)), "{}", stdout(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs(), 0);
}
