//! The engine restarted in the middle of `podrun apply`, for real. The shared engine is never
//! touched: the test starts a dockerd of its own (its own socket, data root, exec root and pid
//! file in a temporary directory; a bridge of its own, no iptables rules, no IP forwarding
//! change), restarts it while a pod's init container runs, and removes everything it made
//! afterwards: containers, processes, mounts, the bridge, files.
//!
//! Not `--bridge=none`: a dockerd started so deletes the host's `docker0`, the shared engine's
//! bridge (moby's removeDefaultBridgeInterface). A bridge named for the test, made before the
//! daemon starts and deleted after it stopped, is the daemon's default network instead.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// How long a dockerd gets to answer after its start, and to exit after SIGTERM.
const ENGINE_START: Duration = Duration::from_secs(60);
const ENGINE_STOP: Duration = Duration::from_secs(60);

/// A dockerd of the test's own, stopped and cleaned away when dropped.
struct PrivateEngine {
    dir: PathBuf,
    host: String,
    /// The bridge of its default network, made by the test (at most 15 characters).
    bridge: String,
    daemon: Option<Child>,
}

impl PrivateEngine {
    fn new() -> PrivateEngine {
        // Short: a unix socket path holds at most 107 bytes.
        let dir = std::env::temp_dir().join(format!("podrun-dockerd-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let host = format!("unix://{}", dir.join("docker.sock").display());
        let bridge = format!("podrun{}", std::process::id() % 100_000);
        PrivateEngine { dir, host, bridge, daemon: None }
    }

    /// Makes the bridge the daemon uses for its default network (it must exist beforehand).
    fn make_bridge(&self) -> Result<(), String> {
        let out = Command::new("ip")
            .args(["link", "add", "name", &self.bridge, "type", "bridge"])
            .output()
            .map_err(|e| format!("cannot run ip: {e}"))?;
        if !out.status.success() {
            return Err(format!("ip link add {}: {}", self.bridge, String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(())
    }

    fn bridge_exists(&self) -> bool {
        Path::new("/sys/class/net").join(&self.bridge).exists()
    }

    /// Starts dockerd (on the same data root every time) and waits until it answers.
    fn start(&mut self) -> Result<(), String> {
        let path = |p: &str| self.dir.join(p).display().to_string();
        std::fs::write(self.dir.join("daemon.json"), "{}").map_err(|e| format!("daemon.json: {e}"))?;
        // A file, not a pipe: nothing may wait on the daemon's output (CI would hang on it).
        let log = File::options()
            .create(true)
            .append(true)
            .open(self.dir.join("dockerd.log"))
            .map_err(|e| format!("dockerd.log: {e}"))?;
        let err = log.try_clone().map_err(|e| format!("dockerd.log: {e}"))?;
        let daemon = Command::new("dockerd")
            .args(["-H", &self.host, "--config-file", &path("daemon.json")])
            .args(["--data-root", &path("data"), "--exec-root", &path("exec"), "--pidfile", &path("docker.pid")])
            // Nothing of the host's networking changes but the test's bridge: no rules, no sysctl.
            .args(["--bridge", &self.bridge, "--iptables=false", "--ip6tables=false", "--ip-forward=false"])
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            // Its own process group: a Ctrl-C to the test run does not stop it before cleanup.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run dockerd: {e}"))?;
        self.daemon = Some(daemon);
        // Ok(None) once it answers, Ok(Some(status)) if it exits first.
        let answered = poll(ENGINE_START, Duration::from_millis(100), || {
            if docker_on(Some(&self.host), &["version", "--format", "{{.Server.Version}}"]).status.success() {
                return Ok(None);
            }
            match self.daemon.as_mut().map(Child::try_wait) {
                Some(Ok(Some(status))) => Ok(Some(status)),
                _ => Err(()),
            }
        });
        match answered {
            Ok(None) => Ok(()),
            Ok(Some(status)) => {
                self.daemon = None;
                Err(format!("dockerd exited ({status}) before answering: {}", self.log_tail()))
            }
            Err(()) => Err(format!("dockerd did not answer within {ENGINE_START:?}: {}", self.log_tail())),
        }
    }

    /// SIGTERM, as an engine restart gives it, and waits for the daemon to exit (SIGKILL when
    /// it takes too long). Returns whether it exited on SIGTERM.
    fn stop(&mut self) -> bool {
        let Some(mut daemon) = self.daemon.take() else { return true };
        let _ = Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status();
        if poll(ENGINE_STOP, Duration::from_millis(50), || daemon.try_wait().ok().flatten().ok_or(())).is_ok() {
            return true;
        }
        let _ = daemon.kill();
        let _ = daemon.wait();
        false
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("dockerd.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// Processes that name the directory (the daemon, its containerd, container shims).
    fn processes(&self) -> Vec<(u32, String)> {
        let needle = self.dir.display().to_string();
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(&needle) {
                found.push((pid, cmdline));
            }
        }
        found
    }

    /// Mount points under the directory (overlay, shm, network namespaces, the data root).
    fn mounts(&self) -> Vec<String> {
        mounts_under(&self.dir)
    }
}

fn mounts_under(dir: &Path) -> Vec<String> {
    let prefix = format!("{}/", dir.display());
    let table = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
    table
        .lines()
        .filter_map(|l| l.split(' ').nth(1))
        .filter(|m| m.starts_with(&prefix) || *m == prefix.trim_end_matches('/'))
        .map(str::to_owned)
        .collect()
}

impl Drop for PrivateEngine {
    fn drop(&mut self) {
        self.stop();
        // What the daemon left behind, if it had to be killed: only processes that name this
        // directory, which nothing but this test's daemon does.
        for (pid, _) in self.processes() {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        }
        let mut mounts = self.mounts();
        // Deepest first, so a mount never hides another.
        mounts.sort_by_key(|m| std::cmp::Reverse(m.len()));
        for m in &mounts {
            let _ = Command::new("umount").arg(m).status();
        }
        if self.bridge_exists() {
            let _ = Command::new("ip").args(["link", "del", &self.bridge]).status();
        }
        // Never remove a tree that still has something mounted in it.
        if self.mounts().is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Puts the test image into the private engine: from the default engine when it has it (as
/// scripts/test leaves it), else built the way scripts/build-test-images builds it.
fn load_test_image(engine: &PrivateEngine) -> Result<(), String> {
    let have = docker_on(None, &["image", "inspect", "--format", "{{.Id}}", "busybox:1.28"]).status.success();
    let out = if have {
        let pipe = format!("docker save busybox:1.28 | docker -H {} load", engine.host);
        Command::new("timeout").args(["120", "sh", "-c", &pipe]).output()
    } else {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/build-test-images");
        Command::new("timeout").arg("120").arg(script).env("DOCKER_HOST", &engine.host).output()
    }
    .map_err(|e| format!("cannot load the test image: {e}"))?;
    if !out.status.success() {
        return Err(format!("loading the test image failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// A private dockerd, up with the test image; why not, to skip, and a failure when end-to-end
/// tests are required.
fn private_engine() -> Result<PrivateEngine, String> {
    let required = e2e_required();
    let mut engine = PrivateEngine::new();
    match engine.make_bridge().and_then(|()| engine.start()).and_then(|()| load_test_image(&engine)) {
        Ok(()) => Ok(engine),
        Err(why) => {
            assert!(!required, "cannot start a private dockerd, and end-to-end tests are required: {why}");
            Err(why)
        }
    }
}

const POD: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: restart}
spec:
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: init
    image: busybox:1.28
    command: [sh, -c, 'sleep 4']
  containers:
  - name: app
    image: busybox:1.28
    command: [sh, -c, '",
    loop_sh!(),
    "']
"
);

fn secs(t: Instant, since: Instant) -> String {
    format!("{:.1}s", t.duration_since(since).as_secs_f64())
}

#[test]
fn e2e_an_engine_restart_mid_apply_is_waited_out_and_the_pod_converges() {
    // The shared engine's bridge, which the private daemon must leave alone.
    let docker0 = Path::new("/sys/class/net/docker0");
    let docker0_before = docker0.exists();
    let mut engine = match private_engine() {
        Ok(engine) => engine,
        Err(why) => skip!("cannot start a private dockerd: {why}"),
    };
    let host = engine.host.clone();
    let state = engine.dir.join("state").display().to_string();
    // Declared after the engine, so it is dropped (its pods deleted) while the engine runs.
    let ns = Namespace::on(Some(&host), "engine-restart");
    let manifest = TempFile::new("restart.yaml", POD);
    let (out_path, err_path) = (engine.dir.join("apply.out"), engine.dir.join("apply.err"));

    let t0 = Instant::now();
    let mut apply = Command::new(PODRUN)
        .args(["apply", manifest.path(), "-n", ns.name(), "--timeout", "90s"])
        .env("DOCKER_HOST", &host)
        .env("PODRUN_STATE_DIR", &state)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("apply.out"))
        .stderr(File::create(&err_path).expect("apply.err"))
        .spawn()
        .expect("run podrun");

    // Once the init container (4 s) runs, the engine is restarted: stopped with SIGTERM (which
    // takes the containers down with it), and started again 3 s after it exited.
    wait_until("the init container runs", Duration::from_secs(60), || {
        let running = ns.containers().into_iter().find(|(_, name)| name.contains("_init_"));
        match running {
            Some((id, _)) if ns.inspect(&id, "{{.State.Running}}") == "true" => Ok(()),
            other => Err(other),
        }
    });
    let killed = Instant::now();
    assert!(engine.stop(), "the private dockerd did not exit on SIGTERM: {}", engine.log_tail());
    let gone = Instant::now();
    // The time the engine stays away is what is tested: podrun must wait it out.
    std::thread::sleep(Duration::from_secs(3));
    let restarted = Instant::now();
    engine.start().expect("the private dockerd starts again");
    let back = Instant::now();

    let within = Duration::from_secs(120).saturating_sub(t0.elapsed());
    let ended = poll(within, Duration::from_millis(50), || apply.try_wait().expect("wait for podrun").ok_or(()))
        .unwrap_or_else(|()| {
            let _ = apply.kill();
            let _ = apply.wait();
            panic!("podrun apply did not end within 120 s: {}", std::fs::read_to_string(&err_path).unwrap_or_default())
        });
    let exited = Instant::now();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    eprintln!(
        "timeline: engine sent SIGTERM at {}, gone at {}, started again at {}, answering at {}; \
         podrun exited ({ended}) with the pod running at {}",
        secs(killed, t0),
        secs(gone, t0),
        secs(restarted, t0),
        secs(back, t0),
        secs(exited, t0)
    );
    assert_eq!(ended.code(), Some(0), "{stderr}\n{stdout}");
    assert_eq!(stderr.matches("engine unreachable, retrying").count(), 1, "once per outage: {stderr}");
    assert!(stderr.contains("the engine answers again"), "{stderr}");
    // The engine took the pod's containers down: a new infra container, and the init container
    // ran again (its second instance) before the app container started.
    let names: Vec<String> = ns.containers().into_iter().map(|(_, n)| n).collect();
    assert!(names.iter().any(|n| n.ends_with("_POD_1")), "{names:?}\n{stderr}");
    assert!(names.iter().any(|n| n.ends_with("_init_1")), "{names:?}\n{stderr}");
    assert_eq!(ns.running(), 2, "the infra and app containers run: {names:?}");

    let deleted = Command::new(PODRUN)
        .args(["delete", "restart", "-n", ns.name(), "--grace-period", "0"])
        .env("DOCKER_HOST", &host)
        .env("PODRUN_STATE_DIR", &state)
        .output()
        .expect("run podrun delete");
    assert!(deleted.status.success(), "{}", String::from_utf8_lossy(&deleted.stderr));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    drop(ns);

    // Nothing of the private engine stays behind: no process, no mount, no network namespace.
    assert!(engine.stop(), "the private dockerd did not exit on SIGTERM: {}", engine.log_tail());
    wait_until("no process left behind", Duration::from_secs(10), || {
        let left = engine.processes();
        if left.is_empty() {
            Ok(())
        } else {
            Err(left)
        }
    });
    assert_eq!(engine.mounts(), Vec::<String>::new(), "mounts left behind");
    assert_eq!(docker0.exists(), docker0_before, "the shared engine's bridge (docker0) was touched");
    let bridge = engine.bridge.clone();
    drop(engine);
    assert!(!Path::new("/sys/class/net").join(&bridge).exists(), "bridge {bridge} left behind");
}
