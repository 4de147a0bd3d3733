//! The boot unit (manifests/podrun-static-pods.service) on a host with any one engine: the unit
//! itself checked by `systemd-analyze verify`, and the engine choice it relies on (no engine
//! named, the engines' usual sockets) tested directly, since systemd is not PID 1 on the test
//! machines. Each choice runs podrun in a mount namespace of its own whose /run is a fresh
//! tmpfs holding only the sockets of that case, bound from the tests' engines; nothing outside
//! the namespace changes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::*;

const UNIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/manifests/podrun-static-pods.service");

#[test]
fn the_unit_verifies_and_requires_no_one_engine() {
    require_tool!("systemd-analyze");
    let text = std::fs::read_to_string(UNIT).expect("read the unit");
    let settings: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let values = |key: &str| -> Vec<&str> {
        settings.iter().filter_map(|l| l.strip_prefix(key)).flat_map(|v| v.split_whitespace()).collect()
    };
    assert!(values("Requires=").is_empty() && values("BindsTo=").is_empty(), "a hard requirement:\n{text}");
    let after = values("After=");
    for engine in ["docker.service", "podman.socket", "containerd.service", "crio.service"] {
        assert!(after.contains(&engine), "not ordered after {engine}: {after:?}");
    }
    assert_eq!(values("Wants="), ["docker.socket", "podman.socket", "network-online.target"]);
    assert_eq!(values("EnvironmentFile="), ["-/etc/default/podrun"]);

    // As installed from source, with the binary under test for /usr/local/bin/podrun (verify
    // checks that ExecStart's program is there). The man page is the package's, checked there.
    let dir = std::env::temp_dir().join(format!("podrun-e2e-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("unit dir");
    let unit = dir.join("podrun-static-pods.service");
    std::fs::write(&unit, text.replace("/usr/local/bin/podrun", PODRUN)).expect("write the unit");
    let out =
        bounded::output(Command::new("systemd-analyze").args(["verify", "--man=no"]).arg(&unit), None, bounded::LIMIT);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success() && out.stderr.is_empty(), "systemd-analyze verify: {out:?}");
}

/// The sockets a case puts in its /run, each bound from one of the tests' engines.
#[derive(Clone, Copy)]
struct Host {
    docker: bool,
    containerd: bool,
    podman: bool,
}

/// The engines the cases bind from, and a directory of the test's own.
struct Sockets {
    docker: PathBuf,
    containerd: PathBuf,
    podman: PathBuf,
    dir: PathBuf,
}

impl Drop for Sockets {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The `connected` line of podrun's debug log: the endpoint it chose, or its error.
fn chosen(sockets: &Sockets, host: Host) -> (Option<i32>, String) {
    let mut script = String::from("set -e\n");
    // Bind mounts of the sockets into the test's directory first: /run is covered next.
    let mut place = |on: bool, from: &Path, name: &str, at: &str| {
        if on {
            let parked = sockets.dir.join(name);
            std::fs::write(&parked, b"").expect("mount point");
            script += &format!("mount --bind '{}' '{}'\n", from.display(), parked.display());
            script += &format!("AT_{name}='{at}'\n");
        }
    };
    place(host.docker, &sockets.docker, "docker", "/run/docker.sock");
    place(host.containerd, &sockets.containerd, "containerd", "/run/containerd/containerd.sock");
    place(host.podman, &sockets.podman, "podman", "/run/podman/podman.sock");
    script += "mount -t tmpfs podrun-e2e-run /run\n";
    script += &format!(
        "for name in docker containerd podman; do eval at=\\${{AT_$name:-}}; [ -n \"$at\" ] || continue; \
         mkdir -p \"$(dirname \"$at\")\"; : > \"$at\"; mount --bind '{}'/$name \"$at\"; done\n",
        sockets.dir.display()
    );
    script += &format!("exec '{PODRUN}' -vv get -A\n");
    let state = sockets.dir.join("state");
    let out = bounded::output(
        Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &sockets.dir)
            .env("DOCKER_CONFIG", sockets.dir.join("no-config"))
            .env("PODRUN_STATE_DIR", &state),
        None,
        Duration::from_secs(120),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = stderr.lines().find(|l| l.contains("connected")).map(str::to_owned);
    (out.status.code(), line.unwrap_or(stderr))
}

#[test]
fn with_no_engine_named_podrun_finds_whichever_the_host_has() {
    require_engine!();
    require_podman!(podman_host);
    require_cri!(cri_endpoint);
    if !rustix::process::geteuid().is_root() {
        skip!("needs root (a mount namespace of its own)");
    }
    let docker = std::env::var("DOCKER_HOST").ok().filter(|h| !h.is_empty());
    let docker = docker.as_deref().unwrap_or("unix:///var/run/docker.sock");
    let path = |address: &str| PathBuf::from(address.strip_prefix("unix://").unwrap_or(address));
    if !docker.starts_with("unix://") {
        skip!("the tests' Docker engine is not on a unix socket ({docker})");
    }
    let dir = std::env::temp_dir().join(format!("podrun-e2e-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("test dir");
    let sockets = Sockets { docker: path(docker), containerd: path(&cri_endpoint), podman: path(&podman_host), dir };

    let cases = [
        ("Docker alone", Host { docker: true, containerd: false, podman: false }, "/docker.sock"),
        (
            "containerd alone",
            Host { docker: false, containerd: true, podman: false },
            "/run/containerd/containerd.sock",
        ),
        ("Podman alone", Host { docker: false, containerd: false, podman: true }, "/run/podman/podman.sock"),
        ("all three", Host { docker: true, containerd: true, podman: true }, "/docker.sock"),
        // A CRI-O or containerd node with Podman beside it runs its pods on the node's runtime.
        ("containerd and Podman", Host { docker: false, containerd: true, podman: true }, "/containerd.sock"),
    ];
    for (case, host, socket) in cases {
        let (code, line) = chosen(&sockets, host);
        assert_eq!(code, Some(0), "{case}: podrun get failed: {line}");
        assert!(line.contains(&format!("{socket} ")) || line.ends_with(socket), "{case}: chose {line}, not {socket}");
    }
    // No engine at all: exit 3, naming Docker's socket (the default).
    let (code, line) = chosen(&sockets, Host { docker: false, containerd: false, podman: false });
    assert!(code == Some(3) && line.contains("/var/run/docker.sock"), "no engine: {code:?} {line}");
}
