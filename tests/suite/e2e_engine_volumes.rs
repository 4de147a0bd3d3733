//! Volumes and termination messages on an engine that is not on podrun's host, end to end: the
//! test engine reached through a plain `tcp://` forwarder on loopback (socat), which podrun
//! takes for a remote engine. podrun's state directory is a fresh temporary one, and the tests
//! assert that no volume content appeared under it nor under /dev/shm, so a host-file shortcut
//! cannot pass them. In-place updates on re-apply are checked on both paths (local socket and
//! remote).

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::Duration;

use crate::common::*;

/// `socat` forwarding a loopback TCP port to the test engine's socket; stopped when dropped.
pub(crate) struct Forwarder {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Forwarder {
    /// To the engine at `engine` (`unix://...`), else the default one.
    pub(crate) fn start(test: &str, engine: Option<&str>) -> Forwarder {
        let socket = engine
            .map(str::to_owned)
            .or_else(|| std::env::var("DOCKER_HOST").ok())
            .and_then(|h| h.strip_prefix("unix://").map(str::to_owned))
            .unwrap_or_else(|| "/var/run/docker.sock".to_owned());
        // A free port: taken from the kernel, released, then bound by socat.
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
        let log = std::env::temp_dir().join(format!("podrun-socat-{}-{test}.log", std::process::id()));
        let out = std::fs::File::create(&log).expect("socat log");
        let child = Command::new("socat")
            .arg(format!("TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork"))
            .arg(format!("UNIX-CONNECT:{socket}"))
            .stdout(out.try_clone().expect("log"))
            .stderr(out)
            .spawn()
            .expect("socat (Debian package socat) must be installed");
        wait_until_every(
            &format!("socat listens on {port}"),
            Duration::from_secs(10),
            Duration::from_millis(20),
            || std::net::TcpStream::connect(("127.0.0.1", port)),
        );
        Forwarder { child, port, log }
    }

    pub(crate) fn host(&self) -> String {
        format!("tcp://127.0.0.1:{}", self.port)
    }
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Every file or directory under the state directory.
fn entries(state: &StateDir) -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            out.push(e.path());
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&e.path(), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&state.0, &mut out);
    out
}

fn assert_no_host_files(state: &StateDir) {
    // Its ownership key and the (empty) pods directory are there whatever the engine.
    let own = [state.0.join("seal.key"), state.0.join("pods")];
    let written: Vec<PathBuf> = entries(state).into_iter().filter(|p| !own.contains(p)).collect();
    assert_eq!(written, Vec::<PathBuf>::new(), "podrun wrote files on its own host");
    if let Some(shm) = shm_base(&state.0, 0) {
        assert!(!shm.exists(), "podrun wrote {}", shm.display());
    }
}

/// Removes, when dropped (also when a test fails), the engine volumes podrun made for the pods
/// of one namespace on one engine.
pub(crate) struct VolumeGuard {
    engine: Option<String>,
    namespace: String,
}

impl Drop for VolumeGuard {
    fn drop(&mut self) {
        let label = format!("label=io.kubernetes.pod.namespace={}", self.namespace);
        let out = docker_on(self.engine.as_deref(), &["volume", "ls", "-q", "--filter", &label]);
        for v in String::from_utf8_lossy(&out.stdout).lines() {
            // Only the pod volumes (named after a pod uid), never a claim's.
            let uid = docker_on(
                self.engine.as_deref(),
                &["volume", "inspect", "-f", "{{index .Labels \"io.kubernetes.pod.uid\"}}", v],
            );
            let ns = docker_on(
                self.engine.as_deref(),
                &["volume", "inspect", "-f", "{{index .Labels \"io.kubernetes.pod.namespace\"}}", v],
            );
            if !String::from_utf8_lossy(&uid.stdout).trim().is_empty()
                && String::from_utf8_lossy(&ns.stdout).trim() == self.namespace
            {
                docker_on(self.engine.as_deref(), &["volume", "rm", "-f", v]);
            }
        }
    }
}

/// The guard for the namespace `Namespace::new(test)` names; made before it, so that it is
/// dropped after it, once the containers are gone.
pub(crate) fn guard(engine: Option<&str>, test: &str) -> VolumeGuard {
    VolumeGuard { engine: engine.map(str::to_owned), namespace: format!("t{}-{test}", std::process::id()) }
}

fn configs() -> [&'static str; 4] {
    ["--config", "tests/manifests/config/settings.yaml", "--config", "tests/manifests/config/credentials.yaml"]
}

fn logs(host: Option<&str>, state: &StateDir, ns: &Namespace, pod: &str, container: &str) -> String {
    stdout(&state.run_on(host, &["logs", pod, "-c", container, "-n", ns.name()]))
}

/// The engine volumes that carry the label `key=value`.
fn volumes(filter: &str) -> Vec<String> {
    let out = docker_on(None, &["volume", "ls", "-q", "--filter", &format!("label={filter}")]);
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

fn pod_volumes(ns: &Namespace) -> Vec<String> {
    volumes(&format!("io.kubernetes.pod.namespace={}", ns.name()))
}

#[test]
fn configmap_secret_downward_projected_volumes_and_termination_messages_without_host_files() {
    require_engine!();
    require_tool!("socat");
    let fwd = Forwarder::start("files", None);
    let host = fwd.host();
    let state = StateDir::new("engine-volumes-files");
    let _volumes = guard(None, "engine-vol-files");
    let ns = Namespace::new("engine-vol-files");
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "volumes-config",
            "show",
            &[
                "440 mode\n440 greeting.txt\n440 app.properties\n440 blob.bin\n",
                "hello from a configmap",
                " 00 01 02 ff",
                "600 /etc/picked/conf/app.properties\n644 /etc/picked/mode-copy\n",
                "retries=3\ncolor=blue\n",
                "400 /etc/creds/username\n400 /etc/creds/password\n",
                "user: ada.lovelace",
                "optional entries: 0",
                "settings: read-only",
            ],
        ),
        (
            "volumes-downward-projected",
            "show",
            &[
                "podinfo/labels: app=\"reporter\"\nzone=\"eu-north\"\n",
                "podinfo/name: volumes-downward-projected",
                "projected/my-group/user 400: ada.lovelace",
                "projected/my-group/settings/mode 444: demo",
            ],
        ),
        ("secret-dotfile", "show", &["visible: 0\n.hidden-token\ndotfile contents\n"]),
    ];
    for (pod, container, shows) in cases {
        let file = format!("tests/manifests/run/{pod}.yaml");
        let out = state.apply_file_on(Some(&host), &ns, &file, &[&configs()[..], &["--timeout", "60s"]].concat());
        assert_eq!(code(&out), 0, "{pod}: {}", stderr(&out));
        let text = logs(Some(&host), &state, &ns, pod, container);
        for s in *shows {
            assert!(text.contains(s), "{pod}: {s:?} not in:\n{text}");
        }
        assert_no_host_files(&state);
    }
    // Termination messages, read back through the engine.
    let out = state.apply_file_on(
        Some(&host),
        &ns,
        "tests/manifests/run/termination-message.yaml",
        &["-o", "json", "--timeout", "60s"],
    );
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let status = stdout(&out);
    assert!(status.contains("\"message\": \"all done\\n\""), "{status}");
    assert!(status.contains("something went wrong"), "{status}");
    assert_no_host_files(&state);
    assert!(!pod_volumes(&ns).is_empty());
    for pod in ["volumes-config", "volumes-downward-projected", "secret-dotfile", "termination-message"] {
        let out = state.run_on(Some(&host), &["delete", pod, "-n", ns.name()]);
        succeeded(&out);
    }
    assert_eq!(pod_volumes(&ns), Vec::<String>::new(), "delete removes the pod's volumes");
}

const LIVE: &str = "apiVersion: v1
kind: Pod
metadata:
  name: live
  labels: {tier: one}
spec:
  terminationGracePeriodSeconds: 1
  securityContext: {fsGroup: 2000}
  containers:
  - name: app
    image: busybox:1.28
    command: [sh, -c, 'echo shared > /scratch/from-app; echo mem > /mem/from-app; exec sleep 3600']
    volumeMounts:
    - {name: conf, mountPath: /etc/conf}
    - {name: info, mountPath: /etc/info}
    - {name: creds, mountPath: /etc/creds}
    - {name: scratch, mountPath: /scratch}
    - {name: mem, mountPath: /mem}
    SUBPATH
  - name: peer
    image: busybox:1.28
    command: [sleep, '3600']
    volumeMounts:
    - {name: scratch, mountPath: /scratch}
    - {name: mem, mountPath: /mem}
  volumes:
  - {name: conf, configMap: {name: live-conf}}
  - {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}
  - {name: creds, secret: {secretName: live-secret, defaultMode: 0400}}
  - {name: scratch, emptyDir: {}}
  - {name: mem, emptyDir: {medium: Memory, sizeLimit: 1Mi}}
";

const LIVE_CONF: &str = "apiVersion: v1
kind: ConfigMap
metadata: {name: live-conf}
data: {greeting: GREETING}
---
apiVersion: v1
kind: Secret
metadata: {name: live-secret}
stringData: {token: s3cret}
";

fn exec(ns: &Namespace, container: &str, script: &str) -> String {
    let name = format!("podrun_{}_live_{container}_0", ns.name());
    let out = docker_on(None, &["exec", &name, "sh", "-c", script]);
    assert!(out.status.success(), "exec {script}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Polls `script` in the app container until its output is `want` (the files appear a moment
/// after the container starts; an update is swapped in when the re-apply returns).
fn eventually(ns: &Namespace, script: &str, want: &str) {
    wait_until(&format!("{script} gives {want:?}"), Duration::from_secs(20), || {
        let got = exec(ns, "app", script);
        if got == want {
            Ok(())
        } else {
            Err(got)
        }
    });
}

/// Apply, check the files and their modes, re-apply with a changed ConfigMap and labels, and
/// check the files changed in place with no restart. Returns the modes seen, to compare paths.
fn live_pod_updates_in_place(host: Option<&str>, state: &StateDir, ns: &Namespace) -> String {
    // A subPath of a configMap is never updated; only the local path can mount one.
    let sub = if host.is_none() { "- {name: conf, mountPath: /etc/sub.txt, subPath: greeting}" } else { "" };
    let pod = |tier: &str| TempFile::new("live.yaml", &LIVE.replace("tier: one", tier).replace("SUBPATH", sub));
    let conf = |g: &str| TempFile::new("conf.yaml", &LIVE_CONF.replace("GREETING", g));
    let (p1, c1) = (pod("tier: one"), conf("hello"));
    let out =
        state.apply_file_on(host, ns, p1.path(), &["--config", c1.path(), "--wait-for", "running", "--timeout", "60s"]);
    succeeded(&out);
    eventually(ns, "cat /etc/conf/greeting", "hello");
    assert_eq!(exec(ns, "app", "cat /etc/info/labels").trim_end(), "tier=\"one\"");
    // emptyDirs are shared by the pod's containers; a Memory one and a secret are on a tmpfs.
    eventually(ns, "cat /scratch/from-app /mem/from-app", "shared\nmem\n");
    assert_eq!(exec(ns, "peer", "cat /scratch/from-app /mem/from-app"), "shared\nmem\n");
    let mounts = exec(ns, "app", "grep -E ' /mem | /etc/creds ' /proc/mounts | cut -d' ' -f2,3");
    assert!(mounts.contains("/mem tmpfs") && mounts.contains("/etc/creds tmpfs"), "{mounts}");
    // The kubelet sizes a Memory emptyDir's tmpfs by its sizeLimit, as both paths do (the local
    // one with a tmpfs podrun mounts, as root).
    let warned = stderr(&out).contains("spec.volumes[4].emptyDir.sizeLimit: not enforced");
    assert_eq!(exec(ns, "app", "df -k /mem | tail -1 | awk '{print $2}'").trim(), "1024");
    assert!(!warned, "{}", stderr(&out));
    let modes = exec(
        ns,
        "app",
        "stat -L -c '%a %g %n' /etc/conf /etc/conf/greeting /etc/info/labels /etc/creds /etc/creds/token /scratch /mem",
    );
    let id = ns.inspect(&format!("podrun_{}_live_app_0", ns.name()), "{{.Id}}");

    let (p2, c2) = (pod("tier: two"), conf("changed"));
    let out =
        state.apply_file_on(host, ns, p2.path(), &["--config", c2.path(), "--wait-for", "running", "--timeout", "60s"]);
    succeeded(&out);
    eventually(ns, "cat /etc/conf/greeting", "changed");
    assert_eq!(exec(ns, "app", "cat /etc/info/labels").trim_end(), "tier=\"two\"");
    if host.is_none() {
        assert_eq!(exec(ns, "app", "cat /etc/sub.txt"), "hello", "a subPath mount is never updated");
    }
    assert_eq!(ns.inspect(&format!("podrun_{}_live_app_0", ns.name()), "{{.Id}}"), id, "no new container");
    let out = state.run_on(host, &["get", "live", "-n", ns.name(), "-o", "json"]);
    let json = stdout(&out);
    assert!(json.contains("\"restartCount\": 0") && !json.contains("\"restartCount\": 1"), "{json}");
    modes
}

#[test]
fn re_apply_updates_files_in_place_on_a_remote_engine() {
    require_engine!();
    require_tool!("socat");
    let fwd = Forwarder::start("update", None);
    let host = fwd.host();
    let state = StateDir::new("engine-volumes-update-remote");
    let _volumes = guard(None, "engine-vol-update");
    let ns = Namespace::new("engine-vol-update");
    let remote = live_pod_updates_in_place(Some(&host), &state, &ns);
    assert_no_host_files(&state);
    // The kubelet's layout on the engine: ..data to a timestamped directory, links per key.
    let layout = exec(&ns, "app", "readlink /etc/conf/..data; readlink /etc/conf/greeting");
    assert!(layout.starts_with("..20") && layout.ends_with("\n..data/greeting\n"), "{layout}");
    // The same files, modes and groups as on the local path.
    let local_state = StateDir::new("engine-volumes-update-local");
    let _local_volumes = guard(None, "engine-vol-update-local");
    let local_ns = Namespace::new("engine-vol-update-local");
    let local = live_pod_updates_in_place(None, &local_state, &local_ns);
    assert_eq!(remote, local);
    assert_eq!(
        remote,
        "2755 2000 /etc/conf\n644 2000 /etc/conf/greeting\n644 2000 /etc/info/labels\n2750 2000 /etc/creds\n\
         440 2000 /etc/creds/token\n2777 2000 /scratch\n3777 2000 /mem\n"
    );
}

#[test]
fn gc_collects_the_volumes_of_a_vanished_pod() {
    // gc sweeps the whole engine: alone, or it would remove what tests beside it run.
    require_engine!(alone);
    require_tool!("socat");
    let fwd = Forwarder::start("gc", None);
    let host = fwd.host();
    let state = StateDir::new("engine-volumes-gc");
    let _volumes = guard(None, "engine-vol-gc");
    let ns = Namespace::new("engine-vol-gc");
    let out = state.apply_file_on(Some(&host), &ns, "tests/manifests/run/init-emptydir.yaml", &["--timeout", "60s"]);
    succeeded(&out);
    let made = pod_volumes(&ns);
    assert!(!made.is_empty());
    // The pod vanishes without a delete: its containers are removed behind podrun's back.
    let ids: Vec<String> = ns.containers().into_iter().map(|(id, _)| id).collect();
    let mut args = vec!["rm", "-f"];
    args.extend(ids.iter().map(String::as_str));
    assert!(docker_on(None, &args).status.success());
    // Time is what is tested here: gc takes only volumes older than --min-age, which keeps it
    // off the volumes of pods being applied right now (another process's, on a shared engine).
    std::thread::sleep(Duration::from_secs(6));
    let out = state.run_on(Some(&host), &["gc", "--min-age", "5s"]);
    succeeded(&out);
    for v in &made {
        assert!(stdout(&out).contains(&format!("removed volume {v}")), "{}", stdout(&out));
    }
    assert_eq!(pod_volumes(&ns), Vec::<String>::new());
}

#[test]
fn podman_volumes_and_termination_messages_through_a_remote_endpoint() {
    require_engine!();
    require_tool!("socat");
    require_podman!(podman);
    let fwd = Forwarder::start("podman", Some(&podman));
    let host = fwd.host();
    let state = StateDir::new("engine-volumes-podman");
    let _volumes = guard(Some(&podman), "engine-vol-podman");
    let ns = Namespace::on(Some(&podman), "engine-vol-podman");
    let mut args = configs().to_vec();
    args.extend(["-q", "--timeout", "60s"]);
    let out = state.apply_file_on(Some(&host), &ns, "tests/manifests/run/volumes-config.yaml", &args);
    succeeded(&out);
    let text = logs(Some(&host), &state, &ns, "volumes-config", "show");
    assert!(text.contains("400 /etc/creds/username\n400 /etc/creds/password\n"), "{text}");
    assert!(text.contains("hello from a configmap"), "{text}");
    let out = state.apply_file_on(
        Some(&host),
        &ns,
        "tests/manifests/run/termination-message.yaml",
        &["-o", "json", "--timeout", "60s"],
    );
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(stdout(&out).contains("\"message\": \"all done\\n\""), "{}", stdout(&out));
    assert_no_host_files(&state);
    let out = state.run_on(Some(&host), &["delete", "--all", "-n", ns.name()]);
    succeeded(&out);
    let left = docker_on(
        Some(&podman),
        &["volume", "ls", "-q", "--filter", &format!("label=io.kubernetes.pod.namespace={}", ns.name())],
    );
    assert_eq!(String::from_utf8_lossy(&left.stdout).trim(), "", "delete removes the pod's volumes");
}
