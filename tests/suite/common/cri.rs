//! A CRI runtime for the suites (`scripts/test` starts a containerd of its own and names it in
//! PODRUN_CRI_ENDPOINT), and what the tests see of it without podrun: containerd's own client
//! (`ctr`) for the containers and their labels, and the log files the runtime writes.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

use super::{e2e_required, podrun_env, require};

/// CRI tests hold it shared; one that changes what the runtime holds for every pod (its
/// sandbox image) holds it alone.
static CRI_USE: RwLock<()> = RwLock::new(());

/// A test's hold on the CRI runtime, released when the test ends.
pub enum CriUse {
    Shared(#[allow(dead_code)] RwLockReadGuard<'static, ()>),
    Alone(#[allow(dead_code)] RwLockWriteGuard<'static, ()>),
}

/// `cri`, holding the runtime for the rest of the test (`alone`, or beside the others).
pub fn hold(alone: bool, test: &str) -> Option<(String, CriUse)> {
    let endpoint = cri(test)?;
    // A test that failed while holding it poisons the lock; the others still run.
    let hold = if alone {
        CriUse::Alone(CRI_USE.write().unwrap_or_else(std::sync::PoisonError::into_inner))
    } else {
        CriUse::Shared(CRI_USE.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    };
    Some((endpoint, hold))
}

/// The CRI runtime to test against, or None (after counting `test` as skipped); see
/// `require_cri!`.
pub fn cri(test: &str) -> Option<String> {
    match std::env::var("PODRUN_CRI_ENDPOINT").ok().filter(|h| !h.is_empty()) {
        Some(endpoint) => Some(endpoint),
        None => {
            assert!(
                !e2e_required(),
                "PODRUN_CRI_ENDPOINT is not set, and end-to-end tests are required (PODRUN_E2E/CI)"
            );
            require::log_skip(test, "no CRI runtime (PODRUN_CRI_ENDPOINT; scripts/test starts a containerd)");
            None
        }
    }
}

/// podrun with `--runtime-endpoint ENDPOINT` in front of `args`.
pub fn podrun_cri(endpoint: &str, args: &[&str]) -> Output {
    let mut all = vec!["--runtime-endpoint", endpoint];
    all.extend_from_slice(args);
    podrun_env(&all, None, &[])
}

/// What podrun's standard input gets in `podrun_cri_fed`.
pub enum Feed {
    /// These bytes, `times` times over, then the end of input.
    Bytes { chunk: Vec<u8>, times: usize },
    /// Nothing, and no end either until podrun has exited.
    HeldOpen,
}

/// podrun with `--runtime-endpoint ENDPOINT` and `args`, its standard input fed from a thread
/// of its own. A podrun still running after `within` is killed and the test fails: a hang is a
/// failure, not a stuck suite.
pub fn podrun_cri_fed(endpoint: &str, args: &[&str], feed: Feed, within: Duration) -> Output {
    let mut child = Command::new(super::PODRUN)
        .args(["--runtime-endpoint", endpoint])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run podrun");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut held = None;
    let feeder = match feed {
        Feed::Bytes { chunk, times } => Some(std::thread::spawn(move || {
            // A command that stops reading early closes the pipe: the rest is not wanted.
            for _ in 0..times {
                if stdin.write_all(&chunk).is_err() {
                    return;
                }
            }
        })),
        Feed::HeldOpen => {
            held = Some(stdin);
            None
        }
    };
    let out = super::bounded::drain(child.stdout.take().expect("stdout"));
    let err = super::bounded::drain(child.stderr.take().expect("stderr"));
    let Some(status) = super::bounded::wait(&mut child, within) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("podrun {args:?} did not end within {within:?}");
    };
    drop(held);
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    Output { status, stdout: out.join().expect("stdout"), stderr: err.join().expect("stderr") }
}

pub fn ctr(endpoint: &str, args: &[&str]) -> Output {
    let sock = endpoint.trim_start_matches("unix://");
    let mut cmd = Command::new("ctr");
    cmd.args(["--address", sock, "-n", "k8s.io"]).args(args);
    super::bounded::output(&mut cmd, None, super::bounded::LIMIT)
}

/// The version the containerd at `endpoint` says it is (`1.7.24~ds1`), as podrun names it in
/// a refusal: tests ask it rather than assume one release.
pub fn containerd_version(endpoint: &str) -> String {
    let out = ctr(endpoint, &["version"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let server = text.split("Server:").nth(1).unwrap_or_default();
    let version = server.lines().find_map(|l| l.trim().strip_prefix("Version:")).map(str::trim);
    version.unwrap_or_else(|| panic!("no server version from ctr version: {out:?}")).to_owned()
}

/// Whether the containerd at `endpoint` is at least `major.minor`.
pub fn containerd_at_least(endpoint: &str, major: u32, minor: u32) -> bool {
    let v = containerd_version(endpoint);
    let mut parts = v.split(|c: char| !c.is_ascii_digit()).map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (major, minor)
}

/// A container (or sandbox) of the runtime, as containerd holds it.
#[derive(Debug, Clone)]
pub struct CriContainer {
    pub id: String,
    pub labels: BTreeMap<String, String>,
}

impl CriContainer {
    fn label(&self, key: &str) -> &str {
        self.labels.get(key).map_or("", String::as_str)
    }

    pub fn is_sandbox(&self) -> bool {
        self.label("io.cri-containerd.kind") == "sandbox"
    }

    /// podrun's name of it: `podrun_<ns>_<pod>_<container>_<attempt>` (`POD` for the sandbox).
    pub fn name(&self) -> String {
        let container = if self.is_sandbox() { "POD" } else { self.label("io.kubernetes.container.name") };
        format!(
            "podrun_{}_{}_{container}_{}",
            self.label("io.kubernetes.pod.namespace"),
            self.label("io.kubernetes.pod.name"),
            self.label("io.podrun.attempt")
        )
    }

    /// What the runtime wrote of its output (both streams, in the file's order), read from the
    /// log file in the kubelet's layout.
    pub fn logs(&self) -> String {
        let path = format!(
            "/var/log/pods/{}_{}_{}/{}/{}.log",
            self.label("io.kubernetes.pod.namespace"),
            self.label("io.kubernetes.pod.name"),
            self.label("io.kubernetes.pod.uid"),
            self.label("io.kubernetes.container.name"),
            self.label("io.podrun.attempt")
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut out = String::new();
        for line in text.lines() {
            let mut parts = line.splitn(4, ' ');
            let (_, _, tag, body) = (parts.next(), parts.next(), parts.next(), parts.next().unwrap_or(""));
            out.push_str(body);
            if tag != Some("P") {
                out.push('\n');
            }
        }
        out
    }
}

/// The runtime's containers and sandboxes with podrun's label in namespace `ns`.
pub fn containers(endpoint: &str, ns: &str) -> Vec<CriContainer> {
    let filter = format!("labels.\"io.kubernetes.pod.namespace\"=={ns}");
    let ids = ctr(endpoint, &["containers", "ls", "-q", &filter]);
    String::from_utf8_lossy(&ids.stdout)
        .lines()
        .filter_map(|id| {
            let info = ctr(endpoint, &["containers", "info", id]);
            let v: serde_json::Value = serde_json::from_slice(&info.stdout).ok()?;
            let labels: BTreeMap<String, String> = serde_json::from_value(v["Labels"].clone()).ok()?;
            (labels.get("io.podrun.managed").map(String::as_str) == Some("true"))
                .then(|| CriContainer { id: id.to_owned(), labels })
        })
        .collect()
}

/// Removes podrun's volume folders (`/var/lib/podrun/volumes/<name>`, a CRI runtime's named
/// volumes) whose labels put them in namespace `ns`.
pub fn remove_volumes(ns: &str) {
    let root = std::path::Path::new("/var/lib/podrun/volumes");
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let labels = std::fs::read(entry.path().join("labels.json")).unwrap_or_default();
        let labels: BTreeMap<String, String> = serde_json::from_slice(&labels).unwrap_or_default();
        if labels.get("io.kubernetes.pod.namespace").map(String::as_str) == Some(ns) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
