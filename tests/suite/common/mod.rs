//! Shared helpers for the tests that run the built `podrun` binary.
//!
//! End-to-end tests need a real engine. `scripts/test` starts one and sets PODRUN_E2E=required
//! (as CI does), and then a missing engine fails the test; run bare with `cargo test` and no
//! engine, they say so and are counted as skipped (`require`).

#![allow(dead_code)]

#[macro_use]
pub mod require;
pub mod bounded;
pub mod cri;
pub mod manifests;
pub mod rust_source;
pub mod skip_log;
pub mod url_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub const PODRUN: &str = env!("CARGO_BIN_EXE_podrun");

/// Runs podrun with `args`; `stdin` is fed to it when given.
pub fn podrun(args: &[&str], stdin: Option<&str>) -> Output {
    podrun_env(args, stdin, &[])
}

pub fn podrun_env(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(PODRUN);
    cmd.args(args).env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    bounded::output(&mut cmd, stdin.map(|s| s.as_bytes().to_vec()), bounded::LIMIT)
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A scratch file that is removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str, content: &str) -> TempFile {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!("podrun-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!("{}-{name}", N.fetch_add(1, Ordering::Relaxed)));
        std::fs::write(&path, content).expect("write temp file");
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The docker CLI against `host` (`-H`), or the default engine (DOCKER_HOST).
pub fn docker_on(host: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new("docker");
    if let Some(host) = host {
        cmd.args(["-H", host]);
    }
    cmd.args(args);
    bounded::output(&mut cmd, None, bounded::LIMIT)
}

/// The version the engine at `host` (DOCKER_HOST's when None) says it is, as podrun names it
/// in a refusal (`20.10.24+dfsg1`, `5.4.2`): tests ask it rather than assume one release.
pub fn engine_version(host: Option<&str>) -> String {
    let out = docker_on(host, &["version", "--format", "{{.Server.Version}}"]);
    assert!(out.status.success(), "docker version: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The API version the engine at `host` speaks (`(1, 45)` for Docker 26.1).
pub fn engine_api(host: Option<&str>) -> (u32, u32) {
    let out = docker_on(host, &["version", "--format", "{{.Server.APIVersion}}"]);
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let (major, minor) = text.split_once('.').unwrap_or_else(|| panic!("docker version: {out:?}"));
    (major.parse().expect("API major"), minor.parse().expect("API minor"))
}

/// Whether end-to-end tests must run (PODRUN_E2E=required, as scripts/test sets it, or CI=true):
/// then whatever they need and do not find is a failure, never a skip.
pub fn e2e_required() -> bool {
    std::env::var("PODRUN_E2E").is_ok_and(|v| v == "required") || std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A namespace of the test's own, whose containers are all removed when it is dropped (also
/// when the test fails), so tests never see or disturb each other's pods.
pub struct Namespace {
    name: String,
    /// The engine, when not the default one (DOCKER_HOST): the Podman tests'.
    host: Option<String>,
    /// A CRI runtime's endpoint instead of a Docker API.
    cri: Option<String>,
}

impl Namespace {
    pub fn new(test: &str) -> Namespace {
        Namespace::on(None, test)
    }

    /// `new` on the engine at `host` (`unix:///path`), or on the default one.
    pub fn on(host: Option<&str>, test: &str) -> Namespace {
        let ns = format!("t{}-{test}", std::process::id()).replace('_', "-");
        let ns: String = ns.chars().take(63).collect();
        let ns = Namespace { name: ns.trim_end_matches('-').to_owned(), host: host.map(str::to_owned), cri: None };
        ns.cleanup();
        ns
    }

    /// `new` on the CRI runtime at `endpoint`: a name of its own (`c` before the test's), as
    /// the same test may run on Docker at the same time, and pods of one name share podrun's
    /// files on the host.
    pub fn on_cri(endpoint: &str, test: &str) -> Namespace {
        let ns = format!("c{}-{test}", std::process::id()).replace('_', "-");
        let ns: String = ns.chars().take(63).collect();
        let ns = Namespace { name: ns.trim_end_matches('-').to_owned(), host: None, cri: Some(endpoint.to_owned()) };
        ns.cleanup();
        ns
    }

    /// `existing` on `target`.
    pub fn existing_for(target: Target, name: &str) -> Namespace {
        match target {
            Target::Cri(endpoint) => {
                let ns = Namespace { name: name.to_owned(), host: None, cri: Some(endpoint.to_owned()) };
                ns.cleanup();
                ns
            }
            _ => Namespace::existing_on(target.host(), name),
        }
    }

    /// `new` on `target`.
    pub fn for_target(target: Target, test: &str) -> Namespace {
        match target {
            Target::Cri(endpoint) => Namespace::on_cri(endpoint, test),
            _ => Namespace::on(target.host(), test),
        }
    }

    /// A namespace a manifest names itself (such as `default`): used by one test at a time.
    pub fn existing(name: &str) -> Namespace {
        Namespace::existing_on(None, name)
    }

    /// `existing` on the engine at `host`, or on the default one.
    pub fn existing_on(host: Option<&str>, name: &str) -> Namespace {
        let ns = Namespace { name: name.to_owned(), host: host.map(str::to_owned), cri: None };
        ns.cleanup();
        ns
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// podrun with `args`, on this namespace's engine when it is a CRI runtime (else the
    /// default engine: the Podman tests name theirs themselves).
    pub fn podrun(&self, args: &[&str]) -> Output {
        match &self.cri {
            Some(endpoint) => cri::podrun_cri(endpoint, args),
            None => podrun(args, None),
        }
    }

    fn docker(&self, args: &[&str]) -> Output {
        docker_on(self.host.as_deref(), args)
    }

    /// The names of the pods in this namespace, by their containers' labels, sorted.
    pub fn pod_names(&self) -> Vec<String> {
        let label = "{{index .Config.Labels \"io.kubernetes.pod.name\"}}";
        let mut v: Vec<String> = self.containers().iter().map(|(id, _)| self.inspect(id, label)).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Ids of the containers in this namespace (podrun's own only), with their names.
    pub fn containers(&self) -> Vec<(String, String)> {
        if let Some(endpoint) = &self.cri {
            let mut v: Vec<(String, String)> =
                cri::containers(endpoint, &self.name).into_iter().map(|c| (c.id.clone(), c.name())).collect();
            v.sort_by(|a, b| a.1.cmp(&b.1));
            return v;
        }
        let filter = format!("label=io.kubernetes.pod.namespace={}", self.name);
        let out = self.docker(&[
            "ps",
            "-a",
            "--no-trunc",
            "--filter",
            &filter,
            "--filter",
            "label=io.podrun.managed=true",
            "--format",
            "{{.ID}} {{.Names}}",
        ]);
        let mut v: Vec<(String, String)> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned())))
            .collect();
        v.sort_by(|a, b| a.1.cmp(&b.1));
        v
    }

    /// How many of this namespace's containers are running.
    pub fn running(&self) -> usize {
        self.containers().iter().filter(|(id, _)| self.inspect(id, "{{.State.Running}}") == "true").count()
    }

    pub fn inspect(&self, container: &str, format: &str) -> String {
        String::from_utf8_lossy(&self.docker(&["inspect", "--format", format, container]).stdout).trim().to_owned()
    }

    pub fn logs(&self, container: &str) -> String {
        if let Some(endpoint) = &self.cri {
            return cri::containers(endpoint, &self.name)
                .into_iter()
                .find(|c| c.id == container)
                .map(|c| c.logs())
                .unwrap_or_default();
        }
        let o = self.docker(&["logs", container]);
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    }

    fn cleanup(&self) {
        if let Some(endpoint) = &self.cri {
            let mut pods: Vec<String> = cri::containers(endpoint, &self.name)
                .into_iter()
                .filter_map(|c| c.labels.get("io.kubernetes.pod.name").cloned())
                .collect();
            pods.sort();
            pods.dedup();
            for pod in pods {
                cri::podrun_cri(endpoint, &["delete", &pod, "-n", &self.name, "--grace-period", "0", "-q"]);
            }
            return;
        }
        // Through podrun first, so its files on the host go with the containers.
        let filter = format!("label=io.kubernetes.pod.namespace={}", self.name);
        let out = self.docker(&[
            "ps",
            "-a",
            "--filter",
            &filter,
            "--filter",
            "label=io.podrun.managed=true",
            "--format",
            "{{.Label \"io.kubernetes.pod.name\"}}",
        ]);
        let mut pods: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
        pods.sort();
        pods.dedup();
        for pod in pods {
            let env: Vec<(&str, &str)> = self.host.iter().map(|h| ("DOCKER_HOST", h.as_str())).collect();
            podrun_env(&["delete", &pod, "-n", &self.name, "--grace-period", "0", "-q"], None, &env);
        }
        // Infra containers last: Podman refuses to remove one that others still join.
        let (infra, members): (Vec<_>, Vec<_>) = self.containers().into_iter().partition(|(_, n)| n.contains("_POD_"));
        for batch in [members, infra] {
            if !batch.is_empty() {
                let mut args = vec!["rm", "-f", "-v"];
                args.extend(batch.iter().map(|(id, _)| id.as_str()));
                self.docker(&args);
            }
        }
    }
}

impl Drop for Namespace {
    fn drop(&mut self) {
        self.cleanup();
    }
}

/// The Podman service to test against, or None (after counting `test` as skipped); see
/// `require_podman!`.
pub fn podman(test: &str) -> Option<String> {
    let host = std::env::var("PODRUN_PODMAN_HOST").ok().filter(|h| !h.is_empty());
    let required = e2e_required();
    match host {
        Some(host) => {
            let version = docker_on(Some(&host), &["version", "--format", "{{.Server.Version}}"]);
            assert!(version.status.success(), "no Podman service answers at PODRUN_PODMAN_HOST={host}: {version:?}");
            Some(host)
        }
        None => {
            assert!(!required, "PODRUN_PODMAN_HOST is not set, and end-to-end tests are required (PODRUN_E2E/CI)");
            require::log_skip(test, "no Podman service (PODRUN_PODMAN_HOST; scripts/test starts one)");
            None
        }
    }
}

/// podrun with `--host HOST` in front of `args`.
pub fn podrun_on(host: &str, args: &[&str]) -> Output {
    let mut all = vec!["--host", host];
    all.extend_from_slice(args);
    podrun(&all, None)
}

/// An ordinary user with a rootless Podman service of its own, as `scripts/test` makes one
/// (PODRUN_ROOTLESS_USER, PODRUN_ROOTLESS_HOST, PODRUN_ROOTLESS_RUNTIME_DIR): the rootless
/// suites run podrun as that user, against that service.
#[derive(Debug, Clone)]
pub struct Rootless {
    pub user: String,
    /// The service, `unix:///run/user/UID/podman/podman.sock`.
    pub host: String,
    /// The user's XDG_RUNTIME_DIR.
    pub runtime_dir: String,
    pub home: String,
}

impl Rootless {
    /// podrun run as the user (its HOME and XDG_RUNTIME_DIR, so its state is under the user's
    /// XDG directories), on the user's service.
    /// The binary and the files it is given are copied where the user can read them first: a
    /// clone in root's home (0700) is closed to it. It runs from /, for the same reason.
    pub fn podrun(&self, args: &[&str]) -> Output {
        let env = [
            format!("HOME={}", self.home),
            format!("XDG_RUNTIME_DIR={}", self.runtime_dir),
            format!("DOCKER_HOST={}", self.host),
        ];
        let staged: Vec<String> = args.iter().map(|a| self.stage(a)).collect();
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", &self.user, "--", "env", "-u", "PODRUN_STATE_DIR", "-u", "XDG_STATE_HOME", "NO_COLOR=1"])
            .args(&env)
            .arg(self.staged_podrun())
            .args(&staged)
            .current_dir("/");
        bounded::output(&mut cmd, None, bounded::LIMIT)
    }

    /// The podrun binary, copied once per test process.
    fn staged_podrun(&self) -> String {
        static STAGED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        STAGED.get_or_init(|| self.stage(PODRUN)).clone()
    }

    /// `arg` itself, or for an existing file a copy of it in a directory of the user's runtime
    /// directory (each file once, named by its path), readable by the user.
    fn stage(&self, arg: &str) -> String {
        let path = Path::new(arg);
        if !path.is_absolute() || !path.is_file() {
            return arg.to_owned();
        }
        let dir = Path::new(&self.runtime_dir).join("podrun-test-files");
        std::fs::create_dir_all(&dir).expect("the staging directory");
        let _ = std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o755));
        let name = format!("{:016x}-{}", fnv(arg), path.file_name().unwrap_or_default().to_string_lossy());
        let copy = dir.join(name);
        // A copy of its own per call: tests rewrite their temporary files between calls.
        let tmp =
            dir.join(format!(".{}.{}", std::process::id(), fnv(&format!("{arg}{:?}", std::time::Instant::now()))));
        std::fs::copy(path, &tmp).expect("copy a file for the rootless user");
        let mode = if arg == PODRUN { 0o755 } else { 0o644 };
        std::fs::set_permissions(&tmp, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
        std::fs::rename(&tmp, &copy).expect("put the copy in place");
        copy.to_string_lossy().into_owned()
    }

    /// The cgroup version of the engine's host (`docker info`), 1 when it does not say.
    pub fn cgroup_version(&self) -> u8 {
        let out = docker_on(Some(&self.host), &["info", "--format", "{{.CgroupVersion}}"]);
        if String::from_utf8_lossy(&out.stdout).trim() == "2" {
            2
        } else {
            1
        }
    }
}

/// The rootless user and service to test with, or None (after counting `test` as skipped); see
/// `require_rootless!`.
pub fn rootless(test: &str) -> Option<Rootless> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    // A pass that leaves rootless Podman out on purpose (scripts/test's Debian 13 pass: the
    // rootless suites run once, on the host's Podman).
    if var("PODRUN_ROOTLESS_HOST").as_deref() == Some("none") {
        require::log_skip(test, "rootless Podman is not in this pass (PODRUN_ROOTLESS_HOST=none)");
        return None;
    }
    let (Some(user), Some(host), Some(runtime_dir)) =
        (var("PODRUN_ROOTLESS_USER"), var("PODRUN_ROOTLESS_HOST"), var("PODRUN_ROOTLESS_RUNTIME_DIR"))
    else {
        // Only root can run podrun as another user: an ordinary developer's run skips them, as
        // scripts/test says; CI runs as root.
        let root = std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !e2e_required() || (!root && !ci),
            "PODRUN_ROOTLESS_USER, PODRUN_ROOTLESS_HOST and PODRUN_ROOTLESS_RUNTIME_DIR are not all set, and \
             end-to-end tests are required (PODRUN_E2E/CI): scripts/test makes a rootless user and service"
        );
        require::log_skip(test, "no rootless Podman service (PODRUN_ROOTLESS_*; scripts/test makes one, as root)");
        return None;
    };
    let passwd = Command::new("getent").args(["passwd", &user]).output().expect("run getent");
    let home = String::from_utf8_lossy(&passwd.stdout).trim().split(':').nth(5).unwrap_or_default().to_owned();
    assert!(!home.is_empty(), "PODRUN_ROOTLESS_USER={user}: no such user");
    let version = docker_on(Some(&host), &["version", "--format", "{{.Server.Version}}"]);
    assert!(version.status.success(), "no rootless Podman service answers at PODRUN_ROOTLESS_HOST={host}: {version:?}");
    Some(Rootless { user, host, runtime_dir, home })
}

/// Where an end-to-end suite runs podrun: on an engine as this process's user (None: the
/// default engine), or as a rootless user on its own service.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    Engine(Option<&'a str>),
    Rootless(&'a Rootless),
    /// A CRI runtime, by its endpoint.
    Cri(&'a str),
}

impl Target<'_> {
    /// The engine, for the docker CLI's checks (None: the default one).
    pub fn host(&self) -> Option<&str> {
        match self {
            Target::Engine(host) => *host,
            Target::Rootless(r) => Some(&r.host),
            Target::Cri(_) => None,
        }
    }

    pub fn podrun(&self, args: &[String]) -> Output {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match self {
            Target::Engine(None) => podrun(&args, None),
            Target::Engine(Some(host)) => podrun_on(host, &args),
            Target::Rootless(r) => r.podrun(&args),
            Target::Cri(endpoint) => cri::podrun_cri(endpoint, &args),
        }
    }

    /// `podrun ARGS` on this target, with the arguments as written.
    pub fn run(&self, args: &[&str]) -> Output {
        self.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
    }

    /// `apply -n NS` of the manifest text `manifest` on this target, waiting at most 90 s.
    pub fn apply_in(&self, ns: &Namespace, manifest: &str) -> Output {
        let f = TempFile::new("pod.yaml", manifest);
        self.run(&["apply", "-n", ns.name(), f.path(), "--timeout", "90s"])
    }

    /// `kubectl exec`-style: `sh -c CMD` in container `c` of pod `pod`: its exit code and output.
    pub fn exec_sh(&self, ns: &Namespace, pod: &str, c: &str, cmd: &str) -> (i32, String) {
        let o = self.run(&["exec", "-n", ns.name(), pod, "-c", c, "--", "sh", "-c", cmd]);
        (code(&o), stdout(&o))
    }

    /// For messages: `docker`, `podman` or `rootless`.
    pub fn name(&self) -> &'static str {
        match self {
            Target::Engine(None) => "docker",
            Target::Engine(Some(_)) => "podman",
            Target::Rootless(_) => "rootless",
            Target::Cri(_) => "containerd",
        }
    }
}

/// The text of `LOOP`, for manifests written as constants (`concat!`).
macro_rules! loop_sh {
    () => {
        "trap \"exit 0\" TERM; while true; do sleep 1 & wait; done"
    };
}

/// A container command that runs until SIGTERM, and ends at once on it.
pub const LOOP: &str = loop_sh!();

/// Applies the manifest text `manifest` in namespace `ns`, with `extra` arguments.
pub fn apply(ns: &Namespace, manifest: &str, extra: &[&str]) -> Output {
    apply_file(ns, &TempFile::new("pod.yaml", manifest), extra)
}

/// Applies the manifest file `f` in namespace `ns`, with `extra` arguments.
pub fn apply_file(ns: &Namespace, f: &TempFile, extra: &[&str]) -> Output {
    ns.podrun(&apply_args(f.path(), ns, extra))
}

/// The command line of every apply above and in `StateDir`: `apply FILE -n NS EXTRA..`.
fn apply_args<'a>(file: &'a str, ns: &'a Namespace, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["apply", file, "-n", ns.name()];
    args.extend_from_slice(extra);
    args
}

/// Fails the test, with podrun's stderr, unless podrun exited 0.
pub fn succeeded(out: &Output) {
    assert_eq!(code(out), 0, "{}", stderr(out));
}

/// `podrun get POD -o json`: the Pod object.
pub fn get_json(ns: &Namespace, pod: &str) -> serde_json::Value {
    let out = ns.podrun(&["get", pod, "-n", ns.name(), "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("get -o json is JSON")
}

/// Waits until `done` holds, looking every 100 ms, and fails the test with `what` (and what
/// `done` last saw) when it does not within `within`; what it yields when it holds.
pub fn wait_until<R, T: std::fmt::Debug>(what: &str, within: Duration, done: impl FnMut() -> Result<R, T>) -> R {
    wait_until_every(what, within, Duration::from_millis(100), done)
}

/// `wait_until`, looking every `every`: for the waits that must catch a moment that passes.
pub fn wait_until_every<R, T: std::fmt::Debug>(
    what: &str,
    within: Duration,
    every: Duration,
    done: impl FnMut() -> Result<R, T>,
) -> R {
    poll(within, every, done).unwrap_or_else(|seen| panic!("{what}: not within {within:?}; last seen: {seen:?}"))
}

/// Looks every `every` until `done` holds, for `within` at most: what it yields then, or what
/// it last saw. For the waits whose caller, not the test harness, says what went wrong.
pub fn poll<R, T>(within: Duration, every: Duration, mut done: impl FnMut() -> Result<R, T>) -> Result<R, T> {
    let deadline = Instant::now() + within;
    loop {
        match done() {
            Ok(held) => return Ok(held),
            Err(seen) if Instant::now() >= deadline => return Err(seen),
            Err(_) => std::thread::sleep(every),
        }
    }
}

/// A podrun in the background, killed when dropped (the test passed or not).
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A state directory of the test's own (PODRUN_STATE_DIR), fresh, so podrun's files (and gc)
/// see no other test's; removed, with podrun's /dev/shm directory for it, when dropped.
pub struct StateDir(pub PathBuf);

impl StateDir {
    pub fn new(test: &str) -> StateDir {
        let dir = std::env::temp_dir().join(format!("podrun-state-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("state dir");
        StateDir(dir)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 state dir")
    }

    /// podrun with this state directory, on the engine at `host` (DOCKER_HOST) or the default.
    pub fn run_on(&self, host: Option<&str>, args: &[&str]) -> Output {
        let mut env = vec![("PODRUN_STATE_DIR", self.path())];
        env.extend(host.map(|h| ("DOCKER_HOST", h)));
        podrun_env(args, None, &env)
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.run_on(None, args)
    }

    /// `apply` of the manifest text in namespace `ns` with this state directory.
    pub fn apply(&self, ns: &Namespace, manifest: &str, extra: &[&str]) -> Output {
        let f = TempFile::new("pod.yaml", manifest);
        self.apply_file_on(None, ns, f.path(), extra)
    }

    /// `apply` of the manifest file `file` in namespace `ns` with this state directory, on the
    /// engine at `host` (DOCKER_HOST) or the default.
    pub fn apply_file_on(&self, host: Option<&str>, ns: &Namespace, file: &str, extra: &[&str]) -> Output {
        self.run_on(host, &apply_args(file, ns, extra))
    }

    /// The pods podrun keeps files for.
    pub fn pod_dirs(&self) -> Vec<String> {
        match std::fs::read_dir(self.0.join("pods")) {
            Ok(entries) => {
                entries.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect()
            }
            Err(_) => Vec::new(),
        }
    }
}

impl Drop for StateDir {
    fn drop(&mut self) {
        // The pods' sub-path mount points first (a namespace's cleanup deletes its pods through
        // the default state directory, not this one): a recursive removal must never go
        // through one.
        // So are the tmpfs mounts of Memory emptyDirs, in podrun's /dev/shm directory.
        let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let shm = shm_base(&self.0, 0);
        let roots: Vec<String> =
            [Some(self.0.clone()), shm.clone()].into_iter().flatten().map(|p| format!("{}/", p.display())).collect();
        for point in info.lines().filter_map(|l| l.split(' ').nth(4)).filter(|p| roots.iter().any(|r| p.starts_with(r)))
        {
            let _ = Command::new("umount").args(["-l", point]).status();
        }
        // podrun keeps its /dev/shm directory for the boot; the test's goes with the test.
        if let Some(shm) = shm {
            let _ = std::fs::remove_dir_all(shm);
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The id of the container of `ns` named `container` (any attempt).
pub fn id_of(ns: &Namespace, container: &str) -> String {
    ns.containers()
        .into_iter()
        .find(|(_, n)| n.contains(&format!("_{container}_")))
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no container {container}"))
}

/// `sh -c script` in container `id` (through the docker CLI): its stdout and stderr.
pub fn exec(id: &str, script: &str) -> String {
    let out = Command::new("docker").args(["exec", id, "sh", "-c", script]).output().expect("docker exec");
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// podrun's /dev/shm directory for the state directory `state` (`PodFiles::open`): an HMAC of
/// the boot id (and, past the first, the generation) under the directory's key, once it has one.
pub fn shm_base(state: &std::path::Path, generation: u32) -> Option<PathBuf> {
    let key = std::fs::read(state.join("seal.key")).ok()?;
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    let mut purpose = b"shm\0".to_vec();
    purpose.extend(boot.trim().as_bytes());
    if generation > 0 {
        purpose.extend(format!("\0{generation}").as_bytes());
    }
    let tag = ring::hmac::sign(&ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &key), &purpose);
    let hex: String = tag.as_ref()[..16].iter().map(|b| format!("{b:02x}")).collect();
    Some(PathBuf::from(format!("/dev/shm/podrun-{hex}")))
}

/// The lowest OOM score the local Docker engine can give a container: its daemon's own when it
/// lacks CAP_SYS_RESOURCE (bit 24 of CapEff), else -1000 (see docs/pod-on-the-engine.md).
pub fn engine_oom_floor() -> i64 {
    let sh = |script: &str| {
        let out = Command::new("sh").args(["-c", script]).output().expect("sh");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let pid = sh("pgrep -x dockerd | head -1");
    assert!(!pid.is_empty(), "a dockerd runs");
    let caps = sh(&format!("awk '/^CapEff:/ {{print $2}}' /proc/{pid}/status"));
    let caps = u64::from_str_radix(&caps, 16).expect("CapEff is hex");
    if caps & (1 << 24) != 0 {
        -1000
    } else {
        sh(&format!("cat /proc/{pid}/oom_score_adj")).parse().expect("a score")
    }
}

/// FNV-1a of `s`: names for staged copies.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100000001b3))
}
