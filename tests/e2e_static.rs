//! Static pods: `podrun apply DIR` (several manifests at once), `--prune` and `--dry-run`, end
//! to end against the real engine.

mod common;

use std::path::PathBuf;

use common::*;

/// A directory of the test's own, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("podrun-static-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        Dir(d)
    }

    fn write(&self, name: &str, content: &str) {
        std::fs::write(self.0.join(name), content).expect("write manifest");
    }

    fn remove(&self, name: &str) {
        std::fs::remove_file(self.0.join(name)).expect("remove manifest");
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 path")
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sleeper(name: &str, command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, '{command}']\n"
    )
}

const LOOP: &str = "trap \"exit 0\" TERM; while true; do sleep 1 & wait; done";

fn pods_of(ns: &Namespace) -> Vec<String> {
    let mut v: Vec<String> = ns
        .containers()
        .iter()
        .map(|(id, _)| ns.inspect(id, "{{index .Config.Labels \"io.kubernetes.pod.name\"}}"))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn e2e_apply_dir_runs_every_pod_and_prune_deletes_the_removed_one() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-dir");
    let dir = Dir::new("dir");
    dir.write("a.yaml", &sleeper("alpha", LOOP));
    dir.write("b.yml", &sleeper("beta", LOOP));
    dir.write("notes.txt", "not a manifest");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pods_of(&ns), ["alpha", "beta"]);
    assert_eq!(ns.running(), 4);

    dir.remove("b.yml");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--prune", "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pods_of(&ns), ["alpha"]);
    assert_eq!(ns.running(), 2);

    let out = podrun(&["delete", dir.path(), "-n", ns.name(), "--grace-period", "0"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_a_failing_pod_in_the_dir_fails_the_run_and_the_other_runs() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-fail");
    let dir = Dir::new("fail");
    dir.write("good.yaml", &sleeper("good", LOOP));
    dir.write("bad.yaml", &sleeper("bad", "exit 3").replace("spec:\n", "spec:\n  restartPolicy: Never\n"));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_ne!(code(&out), 0, "{}", stdout(&out));
    let label =
        "{{index .Config.Labels \"io.kubernetes.pod.name\"}}/{{index .Config.Labels \"io.kubernetes.container.name\"}}";
    let good =
        ns.containers().into_iter().find(|(id, _)| ns.inspect(id, label) == "good/main").expect("good's container");
    assert_eq!(ns.inspect(&good.0, "{{.State.Running}}"), "true");
}

#[test]
fn e2e_dry_run_plans_creation_and_recreation_and_changes_nothing() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-dry");
    let dir = Dir::new("dry");
    dir.write("p.yaml", &sleeper("planned", LOOP));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("create container main"), "{text}");
    assert!(text.contains("create infra container POD"), "{text}");
    assert!(ns.containers().is_empty());

    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let before = ns.containers();
    dir.write("p.yaml", &sleeper("planned", &format!("echo changed; {LOOP}")));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("recreate container main: its spec changed"), "{text}");
    assert_eq!(ns.containers(), before);
}

/// `podrun apply DIR --supervise ...` in the background, as systemd runs it (`NOTIFY_SOCKET`);
/// killed when dropped.
struct Supervisor {
    child: std::process::Child,
    notify: std::os::unix::net::UnixDatagram,
}

impl Supervisor {
    fn start(dir: &Dir, ns: &Namespace, extra: &[&str]) -> Supervisor {
        let path = dir.0.join("notify.sock");
        let notify = std::os::unix::net::UnixDatagram::bind(&path).expect("bind the notify socket");
        notify.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
        let mut args = vec!["apply", dir.path(), "-n", ns.name(), "--supervise"];
        args.extend_from_slice(extra);
        let child = std::process::Command::new(PODRUN)
            .args(&args)
            .env("NO_COLOR", "1")
            .env("NOTIFY_SOCKET", &path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run podrun");
        Supervisor { child, notify }
    }

    /// The next message to systemd (bounded by the socket's read timeout).
    fn said(&self) -> String {
        let mut buf = [0u8; 512];
        let n = self.notify.recv(&mut buf).expect("a message to systemd within a minute");
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    /// Waits for READY=1 and returns its STATUS line.
    fn ready(&self) -> String {
        loop {
            let said = self.said();
            if let Some(rest) = said.strip_prefix("READY=1\n") {
                return rest.to_owned();
            }
        }
    }

    fn signal(&self, sig: &str) {
        std::process::Command::new("kill").args([sig, &self.child.id().to_string()]).status().unwrap();
    }

    /// Waits (bounded) for podrun to exit; its exit code.
    fn exit_code(&mut self) -> Option<i32> {
        let start = std::time::Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            assert!(start.elapsed() < std::time::Duration::from_secs(10), "podrun did not stop");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to 30 s for `done`.
fn wait_for(ns: &Namespace, what: &str, done: &dyn Fn() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < std::time::Duration::from_secs(30), "{what}: not within 30 s: {:?}", ns.containers());
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// `apply --supervise`: systemd hears READY=1 after the first pass; a container killed or
/// removed behind podrun's back comes back; SIGTERM ends supervision with exit 0 and leaves the
/// pods running.
#[test]
fn e2e_supervise_repairs_pods_until_sigterm() {
    use std::process::Command;
    if !engine() {
        return;
    }
    let ns = Namespace::new("supervise");
    let dir = Dir::new("supervise");
    dir.write("a.yaml", &sleeper("a", LOOP));
    let mut sup = Supervisor::start(&dir, &ns, &["--crash-backoff", "100ms"]);
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}");

    let main_of =
        |ns: &Namespace| ns.containers().into_iter().filter(|(_, n)| n.contains("_a_main_")).collect::<Vec<_>>();
    // Killed: restarted as the next instance.
    let (first, _) = main_of(&ns).pop().expect("the container");
    assert!(Command::new("docker").args(["kill", &first]).output().unwrap().status.success());
    wait_for(&ns, "a restart after docker kill", &|| {
        main_of(&ns).iter().any(|(id, n)| n.ends_with("_main_1") && ns.inspect(id, "{{.State.Running}}") == "true")
    });
    // Removed behind podrun's back: recreated.
    let (second, _) = main_of(&ns).into_iter().find(|(_, n)| n.ends_with("_main_1")).unwrap();
    assert!(Command::new("docker").args(["rm", "-f", &second]).output().unwrap().status.success());
    wait_for(&ns, "a new container after docker rm", &|| {
        main_of(&ns).iter().any(|(id, _)| *id != second && ns.inspect(id, "{{.State.Running}}") == "true")
    });

    // SIGTERM: supervision ends with exit 0, the pod stays.
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
    assert_eq!(ns.running(), 2, "the pod (infra and main) keeps running: {:?}", ns.containers());
}

/// A changed directory is applied again on SIGHUP (`systemctl reload`), by the same process:
/// a new manifest starts its pod, a removed one is pruned, and manifests that do not load leave
/// everything as it is.
#[test]
fn e2e_supervise_applies_changed_manifests_on_sighup() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("reload");
    let dir = Dir::new("reload");
    dir.write("a.yaml", &sleeper("a", LOOP));
    let mut sup = Supervisor::start(&dir, &ns, &["--prune"]);
    sup.ready();
    let pid = sup.child.id();

    dir.write("b.yaml", &sleeper("b", LOOP));
    dir.remove("a.yaml");
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}");
    assert_eq!(sup.child.id(), pid, "the same process, started over");
    wait_for(&ns, "b alone", &|| pods_of(&ns) == ["b"]);
    assert_eq!(ns.running(), 2, "{:?}", ns.containers());

    // A manifest that does not load: reported, nothing changes, podrun goes on.
    dir.write("c.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec:\n  containerz: []\n");
    sup.signal("-HUP");
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert!(sup.child.try_wait().unwrap().is_none(), "still supervising");
    assert_eq!(pods_of(&ns), ["b"]);
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// A static pod directory may be empty when the service starts (a host provisioned before its
/// pods are): podrun supervises the directory, starts a pod when its manifest appears, prunes
/// it when the manifest goes, and ends on SIGTERM with exit 0 though no pod is left to
/// supervise (an ended supervision task was polled again there, a panic, before).
#[test]
fn e2e_supervise_starts_from_an_empty_directory() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("empty-dir");
    let dir = Dir::new("empty-dir");
    let mut sup = Supervisor::start(&dir, &ns, &["--prune"]);
    let status = sup.ready();
    assert!(status.contains("STATUS=0 of 0 pods supervised"), "{status}");

    dir.write("a.yaml", &sleeper("a", LOOP));
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}");
    wait_for(&ns, "a running", &|| ns.running() == 2);

    dir.remove("a.yaml");
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=0 of 0 pods supervised"), "{status}");
    wait_for(&ns, "a pruned", &|| pods_of(&ns).is_empty());

    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}
