//! Static pods: `podrun apply DIR` (several manifests at once), `--prune` and `--dry-run`, end
//! to end against the real engine.

use std::path::PathBuf;

use crate::common::*;

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

#[test]
fn e2e_apply_dir_runs_every_pod_and_prune_deletes_the_removed_one() {
    require_engine!();
    let ns = Namespace::new("static-dir");
    let dir = Dir::new("dir");
    dir.write("a.yaml", &sleeper("alpha", LOOP));
    dir.write("b.yml", &sleeper("beta", LOOP));
    dir.write("notes.txt", "not a manifest");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    succeeded(&out);
    assert_eq!(ns.pod_names(), ["alpha", "beta"]);
    assert_eq!(ns.running(), 4);

    dir.remove("b.yml");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--prune", "--timeout", "60s"], None);
    succeeded(&out);
    assert_eq!(ns.pod_names(), ["alpha"]);
    assert_eq!(ns.running(), 2);

    let out = podrun(&["delete", dir.path(), "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_a_failing_pod_in_the_dir_fails_the_run_and_the_other_runs() {
    require_engine!();
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
    require_engine!();
    let ns = Namespace::new("static-dry");
    let dir = Dir::new("dry");
    dir.write("p.yaml", &sleeper("planned", LOOP));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    succeeded(&out);
    let text = stdout(&out);
    assert!(text.contains("create container main"), "{text}");
    assert!(text.contains("create infra container POD"), "{text}");
    assert!(ns.containers().is_empty());

    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    succeeded(&out);
    let before = ns.containers();
    dir.write("p.yaml", &sleeper("planned", &format!("echo changed; {LOOP}")));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    succeeded(&out);
    let text = stdout(&out);
    assert!(text.contains("recreate container main: its spec changed"), "{text}");
    assert_eq!(ns.containers(), before);
}

/// The dry run shows the whole way to a started pod, not only its first sync: every container
/// in order (init containers one after another), every image with what would be done about it
/// (so an air-gapped host knows all it needs), and the volumes.
#[test]
fn e2e_dry_run_shows_the_whole_plan_every_image_and_the_volumes() {
    require_engine!();
    let ns = Namespace::new("static-dry-whole");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: whole}\nspec:\n  \
               volumes: [{name: scratch, emptyDir: {}}, {name: data, persistentVolumeClaim: {claimName: db}}]\n  \
               initContainers:\n  - {name: first, image: 'busybox:1.28', command: ['true']}\n  \
               - {name: second, image: 'registry.invalid/tools:9', command: ['true']}\n  \
               containers:\n  - {name: app, image: 'busybox:1.28', command: [sleep, '1']}\n";
    let f = TempFile::new("whole.yaml", pod);
    let out = podrun(&["apply", f.path(), "-n", ns.name(), "--dry-run"], None);
    succeeded(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = |l: &str| lines.iter().position(|x| x.starts_with(l)).unwrap_or_else(|| panic!("{l:?} in:\n{text}"));
    assert!(at("use image busybox:1.28 for first, app (present; imagePullPolicy IfNotPresent)") > 0);
    assert!(at("pull image registry.invalid/tools:9 for second (not present)") > 0);
    let (infra, first, second, app) = (
        at("create infra container POD"),
        at("create init container first"),
        at("then create init container second"),
        at("then create container app"),
    );
    assert!(infra < first && first < second && second < app, "{text}");
    assert!(at("volume scratch: emptyDir") > app);
    assert!(at(&format!("volume data: persistentVolumeClaim db (engine volume podrun-{}-db)", ns.name())) > app);
    assert!(ns.containers().is_empty(), "a dry run creates nothing");
}

/// `podrun apply DIR --supervise ...` in the background, as systemd runs it (`NOTIFY_SOCKET`);
/// killed when dropped.
struct Supervisor {
    child: std::process::Child,
    notify: std::os::unix::net::UnixDatagram,
    log: PathBuf,
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
            .stderr(std::fs::File::create(dir.0.join("podrun.log")).expect("podrun's log"))
            .spawn()
            .expect("run podrun");
        Supervisor { child, notify, log: dir.0.join("podrun.log") }
    }

    /// What podrun wrote to stderr so far.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits up to 30 s for `text` in podrun's log, podrun staying up meanwhile.
    fn wait_said(&mut self, text: &str) {
        wait_until(&format!("podrun says {text:?}"), std::time::Duration::from_secs(30), || {
            let log = self.log();
            assert!(self.child.try_wait().unwrap().is_none(), "podrun ended: {log}");
            if log.contains(text) {
                Ok(())
            } else {
                Err(log)
            }
        });
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

    /// Reads away what podrun told systemd so far: its socket holds only a few messages, and a
    /// full one would hold podrun's next.
    fn drain(&self) {
        self.notify.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 512];
        while self.notify.recv(&mut buf).is_ok() {}
        self.notify.set_nonblocking(false).unwrap();
    }

    fn signal(&self, sig: &str) {
        std::process::Command::new("kill").args([sig, &self.child.id().to_string()]).status().unwrap();
    }

    /// Waits (bounded) for podrun to exit; its exit code.
    fn exit_code(&mut self) -> Option<i32> {
        wait_until("podrun stops", std::time::Duration::from_secs(10), || self.child.try_wait().unwrap().ok_or(()))
            .code()
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to 30 s for `done`, showing the namespace's containers if it does not come.
fn wait_for(ns: &Namespace, what: &str, done: &dyn Fn() -> bool) {
    wait_until(what, std::time::Duration::from_secs(30), || if done() { Ok(()) } else { Err(ns.containers()) });
}

/// `apply --supervise`: systemd hears READY=1 after the first pass; a container killed or
/// removed behind podrun's back comes back; SIGTERM ends supervision with exit 0 and leaves the
/// pods running.
#[test]
fn e2e_supervise_repairs_pods_until_sigterm() {
    use std::process::Command;
    require_engine!();
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
    require_engine!();
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
    wait_for(&ns, "b alone", &|| ns.pod_names() == ["b"]);
    assert_eq!(ns.running(), 2, "{:?}", ns.containers());

    // A manifest that does not load: reported, nothing changes, podrun goes on.
    dir.write("c.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec:\n  containerz: []\n");
    sup.signal("-HUP");
    sup.wait_said("c.yaml");
    assert!(sup.child.try_wait().unwrap().is_none(), "still supervising");
    assert_eq!(ns.pod_names(), ["b"]);
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// Manifests moved from a kubelet may carry fields Kubernetes does not know (real static pods
/// carry `metadata.component`), which its file source drops: the supervisor drops them too,
/// with a warning, by default, the first pass and every reread alike (the reread is a podrun
/// started over with the same arguments).
#[test]
fn e2e_supervise_drops_unknown_fields_as_a_kubelets_file_source() {
    require_engine!();
    let ns = Namespace::new("validate-warn");
    let dir = Dir::new("validate-warn");
    let moved = |name: &str| {
        sleeper(name, LOOP).replace(&format!("{{name: {name}}}"), &format!("{{name: {name}, component: etcd}}"))
    };
    dir.write("a.yaml", &moved("a"));
    let mut sup = Supervisor::start(&dir, &ns, &[]);
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}\n{}", sup.log());
    sup.wait_said("a.yaml:3:21: metadata.component: unknown field \"component\"; dropped (--validate=warn)");

    dir.write("b.yaml", &moved("b"));
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=2 of 2 pods supervised"), "the reread drops them too: {status}\n{}", sup.log());
    wait_for(&ns, "a and b", &|| ns.pod_names() == ["a", "b"]);
    assert!(!sup.log().contains("skipped"), "{}", sup.log());
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// A static pod directory may be empty when the service starts (a host provisioned before its
/// pods are): podrun supervises the directory, starts a pod when its manifest appears, prunes
/// it when the manifest goes, and ends on SIGTERM with exit 0 though no pod is left to
/// supervise (an ended supervision task was polled again there, a panic, before).
#[test]
fn e2e_supervise_starts_from_an_empty_directory() {
    require_engine!();
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
    wait_for(&ns, "a pruned", &|| ns.pod_names().is_empty());

    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// SIGHUP (`systemctl reload`) while the first pass still runs does not end podrun (its default
/// action would, with 129): it is kept for the supervision after it, which rereads the
/// directory at once, well before the 20 s check.
#[test]
fn e2e_supervise_survives_sighup_during_its_first_pass_and_rereads_at_once() {
    require_engine!();
    let ns = Namespace::new("hup-early");
    let dir = Dir::new("hup-early");
    let slow = sleeper("a", LOOP).replace(
        "  containers:\n",
        "  initContainers:\n  - name: wait\n    image: busybox:1.28\n    command: [sleep, '3']\n  containers:\n",
    );
    dir.write("a.yaml", &slow);
    let mut sup = Supervisor::start(&dir, &ns, &["--prune"]);
    wait_for(&ns, "the first pass under way", &|| !ns.containers().is_empty());
    dir.write("b.yaml", &sleeper("b", LOOP));
    sup.signal("-HUP");
    // The first pass's READY=1 comes after the SIGHUP: had the signal ended podrun, it would not.
    let first = sup.ready();
    assert!(sup.child.try_wait().unwrap().is_none(), "SIGHUP ended podrun: {}", sup.log());
    assert!(first.contains("STATUS=1 of 1 pods supervised"), "{first}");
    let at = std::time::Instant::now();
    let second = sup.ready();
    assert!(second.contains("STATUS=2 of 2 pods supervised"), "{second}");
    assert!(at.elapsed() < std::time::Duration::from_secs(15), "not at once: {:?}", at.elapsed());
    wait_for(&ns, "a and b", &|| ns.pod_names() == ["a", "b"]);
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// A manifest replaced (by rename, as config tools write) every 10 ms for 5 s while SIGHUP
/// (`systemctl reload`) comes every 0.3 s: each SIGHUP starts podrun over, and none ends it
/// (a SIGHUP just as podrun started over did, with 129, once in three such runs); once the storm
/// is over the pod is the last version's, and SIGTERM still ends supervision cleanly.
#[test]
fn e2e_supervise_survives_a_storm_of_sighup_and_replaced_manifests() {
    use std::time::{Duration, Instant};
    require_engine!();
    let ns = Namespace::new("hup-storm");
    let dir = Dir::new("hup-storm");
    // Versions of one size: only the inode and the time tell them apart.
    let version = |v: &str| {
        sleeper("a", LOOP).replace("    command:", &format!("    env: [{{name: V, value: {v}}}]\n    command:"))
    };
    dir.write("a.yaml", &version("v0"));
    let mut sup = Supervisor::start(&dir, &ns, &["--prune", "--crash-backoff", "100ms"]);
    sup.ready();

    let (start, mut hup_at, mut n) = (Instant::now(), Instant::now(), 0u32);
    let mut hups = 0;
    while start.elapsed() < Duration::from_secs(5) {
        n += 1;
        dir.write("a.yaml.tmp", &version(if n % 2 == 0 { "v2" } else { "v1" }));
        std::fs::rename(dir.0.join("a.yaml.tmp"), dir.0.join("a.yaml")).unwrap();
        if hup_at.elapsed() >= Duration::from_millis(300) {
            sup.signal("-HUP");
            hups += 1;
            hup_at = Instant::now();
        }
        sup.drain();
        assert!(sup.child.try_wait().unwrap().is_none(), "podrun ended in the storm: {}", sup.log());
        std::thread::sleep(Duration::from_millis(10));
    }
    // The last version, different from both, written last and with one last SIGHUP.
    dir.write("a.yaml.tmp", &version("v3"));
    std::fs::rename(dir.0.join("a.yaml.tmp"), dir.0.join("a.yaml")).unwrap();
    sup.signal("-HUP");
    assert!(hups >= 10, "{hups} SIGHUPs");

    let last = || {
        let mains: Vec<String> = ns
            .containers()
            .into_iter()
            .filter(|(id, name)| name.contains("_a_main_") && ns.inspect(id, "{{.State.Running}}") == "true")
            .map(|(id, _)| ns.inspect(&id, "{{range .Config.Env}}{{println .}}{{end}}"))
            .collect();
        mains.len() == 1 && mains[0].lines().any(|l| l == "V=v3")
    };
    // A file change is seen within the 20 s check at the latest; the SIGHUP makes it at once.
    wait_until("the last version running", Duration::from_secs(90), || {
        sup.drain();
        assert!(sup.child.try_wait().unwrap().is_none(), "podrun ended: {}", sup.log());
        if last() {
            Ok(())
        } else {
            Err(ns.containers())
        }
    });
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0), "{}", sup.log());
    assert!(!sup.log().contains("panicked"), "{}", sup.log());
}

/// A manifest half-written while podrun supervises is reported (file and place) and left out
/// until it changes; the other manifests are applied and their pods kept; a pod whose manifest
/// turns bad keeps running (not pruned); once fixed, the manifest is applied.
#[test]
fn e2e_supervise_leaves_out_a_half_written_manifest_until_it_is_fixed() {
    require_engine!();
    let ns = Namespace::new("half-written");
    let dir = Dir::new("half-written");
    dir.write("a.yaml", &sleeper("a", LOOP));
    let mut sup = Supervisor::start(&dir, &ns, &["--prune"]);
    sup.ready();

    let b = sleeper("b", LOOP);
    dir.write("b.yaml", &b[..b.len() - 30]);
    dir.write("c.yaml", &sleeper("c", LOOP));
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=2 of 2 pods supervised; 1 manifests skipped"), "{status}");
    sup.wait_said("b.yaml: skipped until it changes (it does not load): ");
    wait_for(&ns, "a and c", &|| ns.pod_names() == ["a", "c"] && ns.running() == 4);

    // a turns bad: said once, nothing restarted, its pod stays.
    dir.write(
        "a.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - name: main\n    imag",
    );
    sup.wait_said("a.yaml: skipped until it changes (it does not load): ");
    assert_eq!(ns.pod_names(), ["a", "c"]);
    assert_eq!(ns.running(), 4, "{:?}", ns.containers());

    dir.write("a.yaml", &sleeper("a", LOOP));
    dir.write("b.yaml", &b);
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=3 of 3 pods supervised"), "{status}");
    assert!(!status.contains("skipped"), "{status}");
    wait_for(&ns, "a, b and c", &|| ns.pod_names() == ["a", "b", "c"] && ns.running() == 6);
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// A manifest file name with a newline and an escape sequence is said escaped in the
/// supervisor's warning that leaves it out: it cannot forge a line of the journal.
#[test]
fn e2e_supervise_says_a_skipped_file_name_escaped() {
    require_engine!();
    let ns = Namespace::new("forged-name");
    let dir = Dir::new("forged-name");
    dir.write("a.yaml", &sleeper("a", LOOP));
    dir.write("bad\nforged: \x1b[2J.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {containers: 1}\n");
    let mut sup = Supervisor::start(&dir, &ns, &[]);
    sup.ready();
    sup.wait_said(r"bad\nforged: \x1b[2J.yaml: skipped until it changes (it does not load): ");
    let log = sup.log();
    assert!(!log.lines().any(|l| l.starts_with("forged")), "a forged line:\n{log}");
    assert!(!log.contains('\x1b'), "a raw ESC: {log:?}");
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
}

/// Names that start with a dot are not manifests (`.disabled.yaml`, an editor's swap file), as
/// for the kubelet; a name that is not UTF-8 is skipped, with a warning.
#[test]
fn e2e_apply_dir_skips_hidden_files_and_names_that_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    require_engine!();
    let ns = Namespace::new("hidden");
    let dir = Dir::new("hidden");
    dir.write("a.yaml", &sleeper("a", LOOP));
    dir.write(".disabled.yaml", &sleeper("disabled", LOOP));
    dir.write(".a.yaml.swp", "\u{0}binary");
    let odd = dir.0.join(std::ffi::OsStr::from_bytes(b"caf\xe9.yaml"));
    std::fs::write(&odd, sleeper("odd", LOOP)).expect("write");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    succeeded(&out);
    assert!(stderr(&out).contains("caf\u{FFFD}.yaml: skipped: the file name is not UTF-8"), "{}", stderr(&out));
    assert_eq!(ns.pod_names(), ["a"]);
    let out = podrun(&["delete", dir.path(), "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
}

/// A pod that cannot be configured (a hostPath of type Directory that is not there yet) is
/// tried again under supervision, its reason said at each try, and comes up once the host is
/// mended.
#[test]
fn e2e_supervise_retries_a_pod_that_cannot_be_configured() {
    require_engine!();
    let ns = Namespace::new("config-retry");
    let dir = Dir::new("config-retry");
    let host_dir = dir.0.join("data");
    let pod = sleeper("a", LOOP).replace("    command:", "    volumeMounts: [{name: d, mountPath: /d}]\n    command:")
        + &format!("  volumes: [{{name: d, hostPath: {{path: {}, type: Directory}}}}]\n", host_dir.display());
    dir.write("a.yaml", &pod);
    let mut sup = Supervisor::start(&dir, &ns, &["--retry-delay", "1s"]);
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised; 1 failed their first pass"), "{status}");
    sup.wait_said("cannot be configured");
    sup.wait_said("supervising it again in");
    assert!(!sup.log().contains("finished for good"), "{}", sup.log());
    std::fs::create_dir(&host_dir).expect("mkdir");
    wait_for(&ns, "a running once its directory is there", &|| ns.running() == 2);
    sup.signal("-TERM");
    assert_eq!(sup.exit_code(), Some(0));
    let out = podrun(&["delete", dir.path(), "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
}

/// An engine that takes connections and never answers, behind a unix socket the test owns:
/// after `answered` connections (passed on to the real engine), every connection is held open
/// and never read.
fn frozen_engine(dir: &Dir, answered: usize) -> String {
    use std::os::unix::net::{UnixListener, UnixStream};
    let path = dir.0.join(format!("frozen-{answered}.sock"));
    let listener = UnixListener::bind(&path).expect("bind");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for (n, conn) in listener.incoming().enumerate() {
            let Ok(conn) = conn else { continue };
            if n >= answered {
                held.push(conn);
                continue;
            }
            let Ok(engine) = UnixStream::connect("/var/run/docker.sock") else { continue };
            let (mut up, mut down) = (conn.try_clone().unwrap(), engine.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut up, &mut down);
                let _ = down.shutdown(std::net::Shutdown::Write);
            });
            let (mut conn, mut engine) = (conn, engine);
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut engine, &mut conn);
                let _ = conn.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    format!("unix://{}", path.display())
}

/// `--timeout` holds against a frozen engine, at the first contact and after it: podrun ends
/// at the deadline (plus a moment) with the timeout's exit code, 5.
#[test]
fn e2e_apply_timeout_holds_against_a_frozen_engine() {
    require_engine!();
    let ns = Namespace::new("frozen");
    let dir = Dir::new("frozen");
    dir.write("a.yaml", &sleeper("a", LOOP));
    for answered in [0, 1] {
        let host = frozen_engine(&dir, answered);
        let start = std::time::Instant::now();
        let out = podrun(&["--host", &host, "apply", dir.path(), "-n", ns.name(), "--timeout", "3s"], None);
        let took = start.elapsed();
        assert_eq!(code(&out), 5, "answered {answered}: {}", stderr(&out));
        assert!(stderr(&out).contains("no answer from the engine by the deadline"), "{}", stderr(&out));
        assert!(took < std::time::Duration::from_secs(8), "answered {answered}: took {took:?}");
    }
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

/// `--prune` deletes only the pods that came from the same directory: one applied by hand
/// from another file, in the same namespace, is not the directory's to delete.
#[test]
fn e2e_prune_leaves_a_pod_applied_by_hand_alone() {
    require_engine!();
    let ns = Namespace::new("prune-own");
    let dir = Dir::new("prune-own");
    let other = Dir::new("prune-own-other");
    dir.write("a.yaml", &sleeper("a", LOOP));
    other.write("manual.yaml", &sleeper("manual", LOOP));
    let manual = format!("{}/manual.yaml", other.path());
    let out = podrun(&["apply", &manual, "-n", ns.name(), "--timeout", "60s"], None);
    succeeded(&out);
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--prune", "--timeout", "60s"], None);
    succeeded(&out);
    assert_eq!(ns.pod_names(), ["a", "manual"]);

    dir.remove("a.yaml");
    dir.write("b.yaml", &sleeper("b", LOOP));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--prune", "--timeout", "60s"], None);
    succeeded(&out);
    assert_eq!(ns.pod_names(), ["b", "manual"], "a pruned, manual left alone");
    assert_eq!(ns.running(), 4);
    for target in [dir.path(), manual.as_str()] {
        let out = podrun(&["delete", target, "-n", ns.name(), "--grace-period", "0"], None);
        succeeded(&out);
    }
}
