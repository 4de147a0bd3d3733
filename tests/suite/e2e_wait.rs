//! `podrun wait` on Docker, Podman and containerd (CRI): pods applied earlier, in every state
//! (running, completed, failed, ready by a readiness probe that passes after a few seconds,
//! probed by wait itself after a one-shot apply or by an `apply --supervise`), waited for by name, `-l` and `--all`, with apply's exit codes:
//! 0 there, 6 failed for good (at once), 5 at the deadline, 7 deleted meanwhile, 130 on
//! SIGINT, and kubectl's NotFound (exit 1, nothing waited for). wait never changes a pod: the
//! containers are the same before and after.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::common::bounded;
use crate::common::*;

/// A pod labelled `app=wait,which=NAME` running `script` under `policy`.
fn pod(name: &str, policy: &str, script: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: {name}, labels: {{app: wait, which: {name}}}}}
spec:
  restartPolicy: {policy}
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: busybox
    command: [sh, -c, '{script}']
"#
    )
}

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// podrun with `args` on `target`, in the background, its standard error to `stderr`.
fn spawn(target: Target, args: &[&str], stderr: Stdio) -> Child {
    let mut cmd = Command::new(PODRUN);
    match target {
        Target::Engine(Some(host)) => drop(cmd.args(["--host", host])),
        Target::Cri(endpoint) => drop(cmd.args(["--runtime-endpoint", endpoint])),
        Target::Engine(None) | Target::Rootless(_) => {}
    }
    cmd.args(args).env("NO_COLOR", "1").stdout(Stdio::piped()).stderr(stderr);
    cmd.spawn().expect("spawn podrun")
}

/// A `podrun wait` in the background, its standard error in a file of the test's.
struct Waiting {
    child: Child,
    log: TempFile,
}

impl Waiting {
    /// Starts `podrun wait ARGS` and returns once it waits: it has said the pod's state (after
    /// it took over SIGINT and SIGTERM).
    fn start(target: Target, args: &[&str]) -> Waiting {
        let log = TempFile::new("wait.log", "");
        let file = std::fs::File::create(log.path()).expect("log");
        let mut child = spawn(target, args, Stdio::from(file));
        wait_until("podrun wait to say the pod's state", Duration::from_secs(60), || {
            let said = std::fs::read_to_string(log.path()).unwrap_or_default();
            assert!(child.try_wait().unwrap().is_none(), "podrun wait ended: {said}");
            if said.contains("/app: ") {
                Ok(())
            } else {
                Err(said)
            }
        });
        Waiting { child, log }
    }

    /// Its exit code and standard error, once it ends (within a minute).
    fn ended(mut self) -> (i32, String) {
        let out = bounded::drain(self.child.stdout.take().expect("stdout"));
        let status = bounded::wait(&mut self.child, Duration::from_secs(60));
        let said = std::fs::read_to_string(self.log.path()).unwrap_or_default();
        let Some(status) = status else {
            let _ = self.child.kill();
            let _ = self.child.wait();
            panic!("podrun wait did not end within a minute: {said}");
        };
        drop(out.join());
        (status.code().unwrap_or(-1), said)
    }
}

/// Applies `manifest` in `ns`, expecting exit `want`.
fn applied(target: Target, ns: &Namespace, manifest: &str, want: i32) {
    let f = TempFile::new("wait.yaml", manifest);
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), want, "{}: {}", target.name(), stderr(&o));
}

/// `podrun wait ARGS -n NS`, expecting exit `want`; its output.
fn waited(target: Target, ns: &Namespace, args: &[&str], want: i32) -> Output {
    let mut all = vec!["wait", "-n", ns.name()];
    all.extend_from_slice(args);
    let o = run(target, &all);
    assert_eq!(code(&o), want, "{}: wait {args:?}: {}{}", target.name(), stdout(&o), stderr(&o));
    o
}

/// Running, completed and failed pods, by name, `-l` and `--all`, not found, and the deadline.
fn every_state(target: Target, ns: &Namespace) {
    applied(target, ns, &pod("up", "Always", LOOP), 0);
    applied(target, ns, &pod("done", "Never", "exit 0"), 0);
    applied(target, ns, &pod("bad", "Never", "exit 3"), 6);
    let before = ns.containers();

    let o = waited(target, ns, &["up", "--for", "running"], 0);
    assert!(stdout(&o).contains("app") && stdout(&o).contains("Running"), "{}", stdout(&o));
    // Without --for, as apply: running under Always, complete under Never.
    waited(target, ns, &["up", "done"], 0);
    let o = waited(target, ns, &["done", "--for", "complete"], 0);
    assert!(stdout(&o).contains("Terminated: Completed (exit code 0)"), "{}", stdout(&o));
    // Running with no probe is ready, as for get.
    waited(target, ns, &["up", "--for", "ready"], 0);

    // Failed for good: never ready nor complete, said at once with apply's code, whatever the
    // timeout.
    for goal in ["ready", "complete", "running"] {
        let o = waited(target, ns, &["bad", "--for", goal, "--timeout", "5m"], 6);
        assert!(stderr(&o).contains(r#"container "app" failed: Terminated: Error (exit code 3)"#), "{}", stderr(&o));
    }

    // Unknown pods: kubectl's NotFound, exit 1, nothing waited for (`up` is not waited on).
    let o = waited(target, ns, &["nope"], 1);
    assert!(stderr(&o).contains(r#"Error from server (NotFound): pods "nope" not found"#), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = waited(target, ns, &["up", "nope", "--for", "complete"], 1);
    assert!(stderr(&o).contains(r#"pods "nope" not found"#) && stdout(&o).is_empty(), "{}", stderr(&o));
    let o = waited(target, ns, &["-l", "which=none"], 1);
    assert!(stderr(&o).contains("no matching resources found"), "{}", stderr(&o));

    // The deadline: apply's exit code and words.
    let o = waited(target, ns, &["up", "--for", "complete", "--timeout", "2s"], 5);
    assert!(stderr(&o).contains("not complete after") && stderr(&o).contains("app: still running"), "{}", stderr(&o));

    // -l selects by the pods' labels; --all takes the namespace's pods, the failed one too.
    let o = waited(target, ns, &["-l", "app=wait,which=done", "--for", "complete", "-o", "json"], 0);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON List");
    let names: Vec<&str> =
        list["items"].as_array().unwrap().iter().filter_map(|p| p["metadata"]["name"].as_str()).collect();
    assert_eq!(names, ["done"]);
    assert_eq!(list["items"][0]["status"]["phase"], "Succeeded");
    // Each pod is waited for to its own end, as apply's are (`up` until the deadline); the first
    // that failed, in order, gives the exit code.
    let o = waited(target, ns, &["--all", "--for", "complete", "--timeout", "3s", "-o", "json"], 6);
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON List");
    let names: Vec<&str> =
        list["items"].as_array().unwrap().iter().filter_map(|p| p["metadata"]["name"].as_str()).collect();
    assert_eq!(names, ["bad", "done", "up"]);
    assert!(stderr(&o).contains("pod ") && stderr(&o).contains("/up: not complete after"), "{}", stderr(&o));

    assert_eq!(ns.containers(), before, "{}: wait changed nothing", target.name());
    let o = run(target, &["delete", "--all", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// A pod deleted while waited for ends the wait with exit 7; SIGINT ends it with 130.
fn deleted_and_interrupted(target: Target, ns: &Namespace) {
    applied(target, ns, &pod("up", "Always", LOOP), 0);
    let args = ["wait", "up", "-n", ns.name(), "--for", "complete", "--timeout", "60s"];
    let interrupted = Waiting::start(target, &args);
    Command::new("kill").args(["-INT", &interrupted.child.id().to_string()]).status().unwrap();
    let (exit, said) = interrupted.ended();
    assert_eq!(exit, 130, "{}: {said}", target.name());
    assert!(said.contains("interrupted by SIGINT"), "{said}");

    let waiting = Waiting::start(target, &args);
    let o = run(target, &["delete", "up", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (exit, said) = waiting.ended();
    assert_eq!(exit, 7, "{}: {said}", target.name());
    assert!(said.contains("deleted while this run went on"), "{said}");
}

/// A pod named `name` whose readiness probe passes once the container has been up for
/// `after` seconds; `None`: never.
fn probed(name: &str, after: Option<u32>) -> String {
    let ready = after.map_or(String::new(), |after| format!("sleep {after}; touch /tmp/ok; "));
    format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: busybox
    command: [sh, -c, '{ready}{LOOP}']
    readinessProbe:
      exec: {{command: [cat, /tmp/ok]}}
      periodSeconds: 1
"#
    )
}

/// What wait says when it runs the probes itself.
const PROBING: &str = "no podrun drives the pod: running its startup and readiness probes";

/// After `apply --wait-for none`, nothing drives the pod: wait runs its readiness probe itself,
/// and the pod turns ready when the probe passes (or stays unready to the deadline when it
/// never does); the containers are not touched.
fn ready_after_a_one_shot_apply(target: Target, ns: &Namespace) {
    for (name, after) in [("later", Some(3)), ("never", None)] {
        let f = TempFile::new("probed.yaml", &probed(name, after));
        let o = run(target, &["apply", f.path(), "-n", ns.name(), "--wait-for", "none"]);
        assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    }
    let before = ns.containers();
    let o = waited(target, ns, &["later", "--for", "ready", "--timeout", "60s"], 0);
    assert!(stderr(&o).contains(PROBING), "{}", stderr(&o));
    assert!(stdout(&o).contains("Running") && !stdout(&o).contains("not ready"), "{}", stdout(&o));
    let o = waited(target, ns, &["never", "--for", "ready", "--timeout", "4s"], 5);
    assert!(stderr(&o).contains("not ready after") && stderr(&o).contains("app: Running, not ready"), "{}", stderr(&o));
    assert_eq!(ns.containers(), before, "{}: wait probed, and changed nothing", target.name());
    let o = run(target, &["delete", "--all", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// Under `apply --supervise`, the supervisor runs the probe, and wait reads its verdict without
/// probing itself; once that podrun has gone, wait probes again.
fn ready_as_the_supervisor_says(target: Target, ns: &Namespace) {
    let f = TempFile::new("later.yaml", &probed("later", Some(4)));
    let log = TempFile::new("supervisor.log", "");
    let file = std::fs::File::create(log.path()).expect("log");
    let args = ["apply", f.path(), "-n", ns.name(), "--supervise"];
    let supervisor = Killed(spawn(target, &args, Stdio::from(file)));
    wait_until("the supervision to begin", Duration::from_secs(120), || {
        let said = std::fs::read_to_string(log.path()).unwrap_or_default();
        if said.contains("supervising:") {
            Ok(())
        } else {
            Err(said)
        }
    });
    let o = waited(target, ns, &["later", "--for", "ready", "--timeout", "60s"], 0);
    assert!(stdout(&o).contains("Running") && !stdout(&o).contains("not ready"), "{}", stdout(&o));
    assert!(!stderr(&o).contains(PROBING), "{}", stderr(&o));
    drop(supervisor);
    let o = waited(target, ns, &["later", "--for", "ready", "--timeout", "30s"], 0);
    assert!(stderr(&o).contains(PROBING), "{}", stderr(&o));
    let o = run(target, &["delete", "later", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn docker_wait_sees_every_state() {
    require_engine!();
    let ns = Namespace::new("wait-docker");
    every_state(Target::Engine(None), &ns);
}

#[test]
fn podman_wait_sees_every_state() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "wait-podman");
    every_state(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_wait_sees_every_state() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "wait-cri");
    every_state(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_wait_ends_on_deletion_and_interrupt() {
    require_engine!();
    let ns = Namespace::new("wait-docker-del");
    deleted_and_interrupted(Target::Engine(None), &ns);
}

#[test]
fn podman_wait_ends_on_deletion_and_interrupt() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "wait-podman-del");
    deleted_and_interrupted(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_wait_ends_on_deletion_and_interrupt() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "wait-cri-del");
    deleted_and_interrupted(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_wait_ready_after_a_one_shot_apply() {
    require_engine!();
    let ns = Namespace::new("wait-docker-probes");
    ready_after_a_one_shot_apply(Target::Engine(None), &ns);
}

#[test]
fn podman_wait_ready_after_a_one_shot_apply() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "wait-podman-probes");
    ready_after_a_one_shot_apply(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_wait_ready_after_a_one_shot_apply() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "wait-cri-probes");
    ready_after_a_one_shot_apply(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_wait_ready_as_the_supervisor_says() {
    require_engine!();
    let ns = Namespace::new("wait-docker-supervised");
    ready_as_the_supervisor_says(Target::Engine(None), &ns);
}

#[test]
fn podman_wait_ready_as_the_supervisor_says() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "wait-podman-supervised");
    ready_as_the_supervisor_says(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_wait_ready_as_the_supervisor_says() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "wait-cri-supervised");
    ready_as_the_supervisor_says(Target::Cri(&endpoint), &ns);
}
