//! `podrun delete --all / -l / --force / --wait=false` and `podrun gc`, end to end, against the
//! real engine.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::*;

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
    require_engine!();
    let ns = Namespace::new("delete-all");
    let state = StateDir::new("delete-all");
    succeeded(&state.apply(&ns, &sleeper("one", "app: x", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    succeeded(&state.apply(&ns, &sleeper("two", "app: y", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    succeeded(&state.apply(&ns, &sleeper("three", "", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    assert_eq!(pods(&ns), ["one", "three", "two"]);

    // TARGET with --all or -l is a usage error.
    let out = state.run(&["delete", "one", "--all", "-n", ns.name()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = state.run(&["delete", "one", "-l", "app=x", "-n", ns.name()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));

    let out = state.run(&["delete", "-l", "app=x", "-n", ns.name()]);
    succeeded(&out);
    assert_eq!(pods(&ns), ["three", "two"]);

    let out = state.run(&["delete", "--all", "-n", ns.name()]);
    succeeded(&out);
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs().len(), 0, "the pods' files go with them");
}

#[test]
fn e2e_delete_force_does_not_wait_for_the_grace_period() {
    require_engine!();
    let ns = Namespace::new("delete-force");
    let state = StateDir::new("delete-force");
    // Ignores SIGTERM: a plain delete would wait the whole 30 s.
    succeeded(&state.apply(&ns, &sleeper("stubborn", "", 30, "trap \"\" TERM;"), &["--timeout", "60s"]));
    let started = Instant::now();
    let out = state.run(&["delete", "stubborn", "--force", "-n", ns.name()]);
    succeeded(&out);
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_delete_wait_false_removes_the_pod_without_a_graceful_stop() {
    require_engine!();
    let ns = Namespace::new("delete-nowait");
    let state = StateDir::new("delete-nowait");
    // Ignores SIGTERM, with a minute's grace: a plain delete would take the whole minute.
    succeeded(&state.apply(&ns, &sleeper("stubborn", "", 60, "trap \"\" TERM;"), &["--timeout", "60s"]));
    assert_eq!(ns.running(), 2, "{:?}", ns.containers());
    assert_eq!(state.pod_dirs().len(), 1);
    let started = Instant::now();
    let out = state.run(&["delete", "stubborn", "--wait=false", "-n", ns.name()]);
    let took = started.elapsed();
    succeeded(&out);
    assert!(took < Duration::from_secs(30), "took {took:?}, half the grace period or more");
    // Gone when podrun returns: the engine removed every container (infra included), and
    // podrun the pod's files.
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs().len(), 0, "the pod's files go with it");
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
    succeeded(&state.apply(ns, DONE, &["--timeout", "60s"]));
    let infra = ns.containers().into_iter().find(|(_, n)| n.contains("_POD_")).expect("infra container");
    let rm = Command::new("docker").args(["rm", "-f", &infra.0]).output().expect("docker rm");
    assert!(rm.status.success());
    let left = ns.containers();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(state.pod_dirs().len(), 1);
    left
}

// One test, not two: gc is engine-wide, so a parallel gc would race the dry run.
#[test]
fn e2e_gc_dry_run_lists_then_gc_removes_an_orphaned_pod() {
    // gc sweeps the whole engine: alone, or it would remove what tests beside it run.
    require_engine!(alone);
    let ns = Namespace::new("gc-orphan");
    let state = StateDir::new("gc-orphan");
    let left = orphaned_pod(&state, &ns);

    let out = state.run(&["gc", "--dry-run", "--min-age", "0s"]);
    succeeded(&out);
    let listed = stdout(&out);
    assert!(listed.contains(&format!("would remove container {}", left[0].1)), "{listed}");
    assert!(listed.contains("would remove files of pod uid"), "{listed}");
    assert_eq!(ns.containers(), left);
    assert_eq!(state.pod_dirs().len(), 1);

    // Too young for the default --min-age of 1m.
    let out = state.run(&["gc"]);
    succeeded(&out);
    assert_eq!(ns.containers(), left);

    let out = state.run(&["gc", "--min-age", "0s"]);
    succeeded(&out);
    assert!(stdout(&out).contains(&format!("removed container {}", left[0].1)), "{}", stdout(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    assert_eq!(state.pod_dirs().len(), 0);
}

/// A canary directory of the test's own, holding a marker file: what an attack would delete,
/// read or overwrite if podrun followed it. Tests only look at it.
struct Canary(PathBuf);

impl Canary {
    fn new(test: &str) -> Canary {
        let dir = std::env::temp_dir().join(format!("podrun-canary-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("canary");
        std::fs::write(dir.join("marker"), "canary").expect("marker");
        Canary(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8")
    }

    fn assert_intact(&self) {
        assert_eq!(std::fs::read_to_string(self.0.join("marker")).ok().as_deref(), Some("canary"), "{}", self.path());
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn docker(args: &[&str]) -> Output {
    Command::new("docker").args(args).output().expect("docker")
}

fn running(id: &str) -> bool {
    String::from_utf8_lossy(&docker(&["inspect", "-f", "{{.State.Running}}", id]).stdout).trim() == "true"
}

/// Images and containers made with the docker CLI (not podrun), removed when dropped.
#[derive(Default)]
struct Made {
    images: Vec<String>,
    containers: Vec<String>,
}

impl Drop for Made {
    fn drop(&mut self) {
        for c in &self.containers {
            docker(&["rm", "-f", "-v", c]);
        }
        for i in &self.images {
            docker(&["rmi", "-f", i]);
        }
    }
}

/// podrun's labels as an image author (or anyone with `docker run -l`) would forge them: the
/// pod uid and container name point at the canary, and a preStop hook at the test's listener.
fn forged_labels(ns: &Namespace, pod: &str, canary: &Canary, hook_port: u16) -> Vec<String> {
    vec![
        "io.podrun.managed=true".to_owned(),
        format!("io.kubernetes.pod.namespace={}", ns.name()),
        format!("io.kubernetes.pod.name={pod}"),
        format!("io.kubernetes.pod.uid={}", canary.path()),
        "io.kubernetes.container.name=../../../../../../../tmp".to_owned(),
        "io.podrun.role=app".to_owned(),
        "io.podrun.attempt=0".to_owned(),
        "io.podrun.grace-period=5".to_owned(),
        format!("io.podrun.pre-stop={{\"httpGet\":{{\"host\":\"127.0.0.1\",\"port\":{hook_port},\"path\":\"/\",\"scheme\":\"HTTP\"}}}}"),
        format!("io.podrun.seal={}", "0".repeat(32)),
    ]
}

/// Whether anything connected to `listener` (non-blocking): a hook podrun ran from a label.
fn was_called(listener: &std::net::TcpListener) -> bool {
    listener.set_nonblocking(true).expect("nonblocking");
    listener.accept().is_ok()
}

#[test]
fn e2e_containers_with_forged_or_copied_labels_are_never_touched() {
    // gc sweeps the whole engine: alone, or it would remove what tests beside it run.
    require_engine!(alone);
    let ns = Namespace::new("forged");
    let state = StateDir::new("forged");
    let canary = Canary::new("forged");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    let port = listener.local_addr().expect("addr").port();
    let mut made = Made::default();
    let tag = format!("podrun-test-forged-{}:1", std::process::id());

    // An image whose LABELs are podrun's, run by someone with `docker run`.
    let base = String::from_utf8_lossy(&docker(&["create", "busybox:latest", "true"]).stdout).trim().to_owned();
    made.containers.push(base.clone());
    let mut commit = vec!["commit".to_owned()];
    for l in forged_labels(&ns, "victim", &canary, port) {
        let (k, v) = l.split_once('=').expect("k=v");
        commit.extend(["-c".to_owned(), format!("LABEL {k}='{v}'")]);
    }
    commit.extend([base, tag.clone()]);
    let out = Command::new("docker").args(&commit).output().expect("docker commit");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    made.images.push(tag.clone());
    let run = |args: &[&str]| {
        let out = docker(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let from_image = run(&["run", "-d", &tag, "sleep", "600"]);
    made.containers.push(from_image.clone());

    // A real pod of podrun's, then a container given its labels, seal and all, under another
    // name: a copied seal fits no other container.
    succeeded(&state.apply(&ns, &sleeper("victim", "app: x", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    let real = ns.containers().into_iter().find(|(_, n)| n.ends_with("_a_0")).expect("app container").0;
    let labels = ns.inspect(&real, "{{json .Config.Labels}}");
    let labels: std::collections::BTreeMap<String, String> = serde_json::from_str(&labels).expect("labels");
    let mut args = vec!["run".to_owned(), "-d".to_owned()];
    for (k, v) in &labels {
        args.extend(["-l".to_owned(), format!("{k}={v}")]);
    }
    args.extend(["busybox:latest".to_owned(), "sleep".to_owned(), "600".to_owned()]);
    let copied =
        String::from_utf8_lossy(&Command::new("docker").args(&args).output().expect("run").stdout).trim().to_owned();
    made.containers.push(copied.clone());

    // Every command that removes, stops or hooks: none may touch the strangers.
    let out = state.run(&["get", "-n", ns.name()]);
    succeeded(&out);
    let shown = format!("1 pod of another state directory is not shown: {}/victim (", ns.name());
    assert!(stderr(&out).contains(&shown), "{}", stderr(&out));
    succeeded(&state.apply(&ns, &sleeper("victim", "app: x", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    let dir = TempFile::new("victim.yaml", &sleeper("victim", "app: x", 1, "trap \"exit 0\" TERM;"));
    let out = state.run(&["apply", dir.path(), "--prune", "-n", ns.name(), "--timeout", "60s"]);
    succeeded(&out);
    // By name and with --all the strangers are what is left of the pod: named, and exit 8 (not
    // the 0 of a pod gone); -l matches pods by their infra container, which they have none of.
    for (cmd, exit) in [(&["delete", "victim"][..], 8), (&["delete", "--all"], 8), (&["delete", "-l", "app=x"], 0)] {
        let mut args = cmd.to_vec();
        args.extend(["-n", ns.name()]);
        let out = state.run(&args);
        assert_eq!(code(&out), exit, "{args:?}: {}", stderr(&out));
    }
    let out = state.run(&["gc", "--min-age", "0s"]);
    succeeded(&out);
    assert!(stderr(&out).contains("carry podrun's labels but were not made under this state"), "{}", stderr(&out));

    assert!(running(&from_image), "the container from the image was stopped");
    assert!(running(&copied), "the container with copied labels was stopped");
    assert!(docker(&["inspect", &real]).status.code() != Some(0), "podrun's own container was deleted");
    assert!(!was_called(&listener), "a preStop hook from a label was run");
    canary.assert_intact();
}

/// A pod applied with one state directory, then `delete`, `get`, `gc` and `apply` with another:
/// none touches its containers (they are not that directory's podrun's), and each names them
/// with what to do; `delete` exits 8, not the 0 of a pod gone. A container given podrun's
/// labels by hand with a wrong seal (and a pod name made to move the cursor) is named too,
/// escaped, and outlives the pod's own delete. gc runs engine-wide but with a state directory
/// whose key is fresh: nothing on the engine carries its seal but what this test makes.
#[test]
fn e2e_containers_of_another_state_directory_are_named_and_left_alone() {
    require_engine!();
    let ns = Namespace::new("other-state");
    let (a, b) = (StateDir::new("other-state-a"), StateDir::new("other-state-b"));
    let mut made = Made::default();
    let web = sleeper("web", "app: x", 1, "trap \"exit 0\" TERM;")
        .replace("  containers:\n", "  containers:\n  - {name: b, image: busybox:1.28, command: [sleep, '600']}\n");
    succeeded(&a.apply(&ns, &web, &["--timeout", "60s"]));
    let own: Vec<String> = ns.containers().into_iter().map(|(id, _)| id).collect();
    assert_eq!(own.len(), 3, "{:?}", ns.containers());

    // podrun's labels copied from the pod's container, a wrong seal, and a pod name with an
    // escape sequence in it.
    let real = ns.containers().into_iter().find(|(_, n)| n.ends_with("_a_0")).expect("app container").0;
    let labels: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&ns.inspect(&real, "{{json .Config.Labels}}")).expect("labels");
    let mut args = vec!["run".to_owned(), "-d".to_owned()];
    for (k, v) in &labels {
        let v = match k.as_str() {
            "io.podrun.seal" => "0".repeat(32),
            "io.kubernetes.pod.name" => "web\u{1b}[2J".to_owned(),
            _ => v.clone(),
        };
        args.extend(["--label".to_owned(), format!("{k}={v}")]);
    }
    args.extend(["busybox:1.28".to_owned(), "sleep".to_owned(), "600".to_owned()]);
    let out = Command::new("docker").args(&args).output().expect("docker run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let forged = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    made.containers.push(forged.clone());

    let said = format!("3 container(s) of pod {}/web (", ns.name());
    let forged_said = format!("1 container(s) of pod {}/web\\u{{1b}}[2J (", ns.name());
    // Each pod said once, with where podrun looked and what to do; the whole namespace (get,
    // gc) has the forged pod too.
    let told = |out: &Output, whole: bool| {
        let err = stderr(out);
        assert!(err.contains(&said), "{err}");
        assert!(err.contains(&format!("not made under this state directory ({})", b.path())), "{err}");
        assert!(err.contains("PODRUN_STATE_DIR") && err.contains("docker rm -f"), "{err}");
        assert_eq!(err.contains(&forged_said), whole, "{err}");
        assert!(!err.contains('\u{1b}'), "escaped: {err:?}");
    };
    let out = b.run(&["delete", "web", "-n", ns.name()]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    told(&out, false);
    assert!(!stderr(&out).contains("nothing to delete"), "{}", stderr(&out));
    // get says it in one line for the namespace, the forged name escaped.
    let out = b.run(&["get", "-n", ns.name()]);
    succeeded(&out);
    let err = stderr(&out);
    let shown = format!("2 pods of another state directory are not shown: {0}/web, {0}/web\\u{{1b}}[2J (", ns.name());
    assert!(err.contains(&shown), "{err}");
    assert!(
        err.contains(&format!("this state directory is {}", b.path())) && err.contains("PODRUN_STATE_DIR"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "escaped: {err:?}");
    let out = b.run(&["gc", "--min-age", "0s"]);
    succeeded(&out);
    told(&out, true);
    // Its names are taken: the apply cannot make the pod, and says why, by its deadline.
    let out = b.apply(&ns, &web, &["--timeout", "5s"]);
    assert_ne!(code(&out), 0, "{}", stderr(&out));
    told(&out, false);
    for id in own.iter().chain([&forged]) {
        assert!(running(id), "{id} was stopped: {:?}", ns.containers());
    }

    // The state directory that made the pod deletes it; the forged container stays, named.
    succeeded(&a.run(&["delete", "web", "-n", ns.name()]));
    assert!(own.iter().all(|id| docker(&["inspect", id]).status.code() != Some(0)), "{:?}", ns.containers());
    assert!(running(&forged), "the forged container was stopped");
    let out = a.run(&["delete", "--all", "-n", ns.name()]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    assert!(stderr(&out).contains(&forged_said), "{}", stderr(&out));
    assert!(running(&forged), "the forged container was stopped");
}

#[test]
fn e2e_pods_that_give_the_same_uid_get_their_own() {
    require_engine!();
    let a = Namespace::new("same-uid-a");
    let b = Namespace::new("same-uid-b");
    let state = StateDir::new("same-uid");
    let pod = |word: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: twin, uid: 11111111-2222-3333-4444-555555555555}}\nspec:\n  \
             terminationGracePeriodSeconds: 1\n  volumes: [{{name: scratch, emptyDir: {{}}}}]\n  containers:\n  \
             - name: a\n    image: busybox:1.28\n    volumeMounts: [{{name: scratch, mountPath: /data}}]\n    \
             command: [sh, -c, 'echo {word} > /data/mine; {LOOP}']\n"
        )
    };
    let f = TempFile::new("a.yaml", &pod("alpha"));
    let out = state.run(&["apply", f.path(), "-n", a.name(), "--timeout", "60s"]);
    succeeded(&out);
    assert!(
        stderr(&out).contains("metadata.uid: \"11111111-2222-3333-4444-555555555555\" is ignored"),
        "{}",
        stderr(&out)
    );
    let f = TempFile::new("b.yaml", &pod("beta"));
    let out = state.run(&["apply", f.path(), "-n", b.name(), "--timeout", "60s"]);
    succeeded(&out);
    let uid = |ns: &Namespace| ns.inspect(&id_of(ns, "a"), "{{index .Config.Labels \"io.kubernetes.pod.uid\"}}");
    assert_ne!(uid(&a), uid(&b));
    assert_eq!(exec(&id_of(&a, "a"), "cat /data/mine").trim(), "alpha");
    assert_eq!(exec(&id_of(&b, "a"), "cat /data/mine").trim(), "beta");
    let out = state.run(&["delete", "twin", "-n", a.name()]);
    succeeded(&out);
    assert_eq!(exec(&id_of(&b, "a"), "cat /data/mine").trim(), "beta", "deleting one pod kept the other's data");
}

#[test]
fn e2e_a_state_directory_someone_else_made_is_refused() {
    require_engine!();
    if !rustix_root() {
        skip!("not root");
    }
    let ns = Namespace::new("foreign-state");
    let canary = Canary::new("foreign-state");
    let state = StateDir::new("foreign-state");
    // Another user made the directory first, with links to the canary where podrun's files go.
    std::os::unix::fs::symlink(&canary.0, state.0.join("pods")).expect("link");
    std::os::unix::fs::symlink(canary.0.join("marker"), state.0.join("seal.key")).expect("link");
    std::os::unix::fs::lchown(&state.0, Some(65534), Some(65534)).expect("chown");
    let f = TempFile::new("pod.yaml", &sleeper("squat", "", 1, "trap \"exit 0\" TERM;"));
    let out = state.run(&["apply", f.path(), "-n", ns.name(), "--timeout", "30s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("refusing {}: it belongs to uid 65534", state.0.display())),
        "{}",
        stderr(&out)
    );
    assert!(ns.containers().is_empty(), "nothing is created: {:?}", ns.containers());
    canary.assert_intact();

    // podrun's own directory with links planted in it: neither is followed.
    std::os::unix::fs::lchown(&state.0, Some(0), Some(0)).expect("chown");
    for planted in ["seal.key", "pods"] {
        let out = state.run(&["apply", f.path(), "-n", ns.name(), "--timeout", "30s"]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        let said = format!("refusing {}: it is a symbolic link", state.0.join(planted).display());
        assert!(stderr(&out).contains(&said), "{}", stderr(&out));
        assert!(ns.containers().is_empty(), "nothing is created: {:?}", ns.containers());
        canary.assert_intact();
        std::fs::remove_file(state.0.join(planted)).expect("rm");
    }
    assert_eq!(std::fs::read_dir(&canary.0).expect("canary").count(), 1, "nothing was written there");
}

#[test]
fn e2e_fifos_in_the_state_directory_are_not_waited_on() {
    require_engine!();
    let ns = Namespace::new("fifo-state");
    let state = StateDir::new("fifo-state");
    succeeded(&state.apply(&ns, &sleeper("fifo", "", 1, "trap \"exit 0\" TERM;"), &["--timeout", "60s"]));
    let pod_dir = std::fs::read_dir(state.0.join("pods")).expect("pods").next().expect("a pod").expect("entry").path();
    let record = pod_dir.join("record.json");
    std::fs::remove_file(&record).expect("rm record");
    let mk = Command::new("mkfifo").arg(&record).status().expect("mkfifo");
    assert!(mk.success());
    let bounded = |args: &[&str]| {
        let mut cmd = vec!["60", PODRUN];
        cmd.extend_from_slice(args);
        Command::new("timeout")
            .args(&cmd)
            .env("PODRUN_STATE_DIR", &state.0)
            .env("NO_COLOR", "1")
            .output()
            .expect("timeout")
    };
    let started = Instant::now();
    let out = bounded(&["get", "fifo", "-n", ns.name()]);
    succeeded(&out);
    let f = TempFile::new("pod.yaml", &sleeper("fifo", "", 1, "trap \"exit 0\" TERM;"));
    let out = bounded(&["apply", f.path(), "-n", ns.name(), "--timeout", "30s"]);
    succeeded(&out);
    assert!(started.elapsed() < Duration::from_secs(50), "took {:?}", started.elapsed());
    assert!(std::fs::symlink_metadata(&record).expect("record").is_file(), "the record is a file again");
}

#[test]
fn e2e_a_squatted_shm_directory_stops_no_pod() {
    require_engine!();
    if !rustix_root() {
        skip!("not root");
    }
    let ns = Namespace::new("shm-squat");
    let state = StateDir::new("shm-squat");
    let pod = concat!(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\nstringData: {key: s3cret}\n---\n\
         apiVersion: v1\nkind: Pod\nmetadata: {name: squat}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         volumes: [{name: token, secret: {secretName: token}}]\n  containers:\n  - name: a\n    \
         image: busybox:1.28\n    volumeMounts: [{name: token, mountPath: /token}]\n    \
         command: [sh, -c, '",
        loop_sh!(),
        "']\n"
    );
    succeeded(&state.apply(&ns, pod, &["--timeout", "60s"]));
    let first = shm_base(&state.0, 0).expect("a key");
    assert!(first.is_dir(), "the secret lives under {}", first.display());
    let out = state.run(&["delete", "squat", "-n", ns.name()]);
    succeeded(&out);
    // As after a reboot: the name is free, and someone who saw it takes it first.
    std::fs::remove_dir_all(&first).expect("rm");
    std::fs::create_dir(&first).expect("squat");
    std::os::unix::fs::chown(&first, Some(65534), Some(65534)).expect("chown");
    std::fs::set_permissions(&first, std::os::unix::fs::PermissionsExt::from_mode(0o777)).expect("chmod");
    succeeded(&state.apply(&ns, pod, &["--timeout", "60s"]));
    assert_eq!(exec(&id_of(&ns, "a"), "cat /token/key"), "s3cret");
    assert_eq!(std::fs::read_dir(&first).expect("squatted").count(), 0, "nothing went into the squatted directory");
    let next = shm_base(&state.0, 1).expect("a key");
    assert!(next.is_dir(), "the next name is used");
    let out = state.run(&["delete", "squat", "-n", ns.name()]);
    succeeded(&out);
    let _ = std::fs::remove_dir_all(&first);
    let _ = std::fs::remove_dir_all(&next);
}

fn rustix_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0).unwrap_or(false)
}
