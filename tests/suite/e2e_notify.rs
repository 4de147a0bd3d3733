//! `apply --supervise` and systemd's notify socket, end to end on Docker (the notify path is
//! the same whatever the engine; its logic is unit-tested in `sd_notify` and the watchdog's):
//! a socket that is full (systemd busy, or anyone's socket) stalls nothing, and the watchdog
//! hears `WATCHDOG=1` at half of `WATCHDOG_USEC`.

use std::io::ErrorKind;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// A directory of the test's own with one manifest, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("podrun-notify-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        let pod = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: a}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n"
        );
        std::fs::write(d.join("a.yaml"), pod).expect("write manifest");
        Dir(d)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `podrun apply DIR --supervise` in the background with `NOTIFY_SOCKET` and `env`; killed
/// when dropped.
struct Supervisor {
    child: Child,
    log: PathBuf,
}

impl Supervisor {
    fn start(dir: &Dir, ns: &Namespace, socket: &Path, env: &[(&str, &str)]) -> Supervisor {
        let log = dir.join("podrun.log");
        let child = Command::new(PODRUN)
            .args(["apply", dir.0.to_str().unwrap(), "-n", ns.name(), "--supervise", "--crash-backoff", "100ms"])
            .env("NO_COLOR", "1")
            .env("NOTIFY_SOCKET", socket)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("podrun's log"))
            .spawn()
            .expect("run podrun");
        Supervisor { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits up to 60 s for `text` in podrun's log, podrun staying up meanwhile.
    fn wait_said(&mut self, text: &str) {
        wait_until(&format!("podrun says {text:?}"), Duration::from_secs(60), || {
            let log = self.log();
            assert!(self.child.try_wait().unwrap().is_none(), "podrun ended: {log}");
            if log.contains(text) {
                Ok(())
            } else {
                Err(log)
            }
        });
    }

    /// SIGTERM; the exit code, and how long podrun took to end (at most 15 s are waited).
    fn terminate(&mut self) -> (Option<i32>, Duration) {
        let sent = Instant::now();
        Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        let status = wait_until("podrun ends after SIGTERM", Duration::from_secs(15), || {
            self.child.try_wait().unwrap().ok_or(())
        });
        (status.code(), sent.elapsed())
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fills `socket`'s queue (which nobody reads) until a send would wait, and checks that a
/// fresh sender finds it full too, as podrun will.
fn fill(socket: &Path) {
    let sender = UnixDatagram::unbound().unwrap();
    sender.set_nonblocking(true).unwrap();
    let full = (0..100_000).find(|_| sender.send_to(b"X", socket).is_err_and(|e| e.kind() == ErrorKind::WouldBlock));
    assert!(full.is_some(), "the socket never filled");
    let other = UnixDatagram::unbound().unwrap();
    other.set_nonblocking(true).unwrap();
    let e = other.send_to(b"READY=1", socket).expect_err("the socket is full for every sender");
    assert_eq!(e.kind(), ErrorKind::WouldBlock);
}

/// The running instances of the pod's main container.
fn main_of(ns: &Namespace) -> Vec<(String, String)> {
    ns.containers()
        .into_iter()
        .filter(|(id, n)| n.contains("_a_main_") && ns.inspect(id, "{{.State.Running}}") == "true")
        .collect()
}

/// A notify socket whose queue is full: supervision starts all the same (a killed container
/// comes back), podrun says once that it could not tell systemd, and SIGTERM ends it at once.
#[test]
fn e2e_a_full_notify_socket_stalls_nothing() {
    require_engine!();
    let ns = Namespace::new("notify-full");
    let dir = Dir::new("full");
    let socket = dir.join("notify.sock");
    let _systemd = UnixDatagram::bind(&socket).expect("bind the notify socket");
    fill(&socket);
    let mut sup = Supervisor::start(&dir, &ns, &socket, &[]);
    sup.wait_said("supervising: 1 of 1 pods supervised");
    let (first, _) = main_of(&ns).pop().expect("the container");
    assert!(Command::new("docker").args(["kill", &first]).output().unwrap().status.success());
    wait_until("a restart after docker kill", Duration::from_secs(30), || {
        let back = main_of(&ns);
        if back.iter().any(|(_, n)| n.ends_with("_main_1")) {
            Ok(())
        } else {
            Err(back)
        }
    });
    let (code, took) = sup.terminate();
    assert_eq!(code, Some(0), "{}", sup.log());
    assert!(took < Duration::from_secs(10), "SIGTERM took {took:?}: {}", sup.log());
    let log = sup.log();
    assert_eq!(log.matches("cannot tell systemd").count(), 1, "said once: {log}");
    assert!(log.contains("Resource temporarily unavailable"), "{log}");
}

/// `WATCHDOG_USEC` set (1 s): systemd hears `WATCHDOG=1` every half second while podrun
/// supervises, and not when `WATCHDOG_PID` names another process.
#[test]
fn e2e_the_watchdog_hears_from_a_healthy_supervisor() {
    require_engine!();
    let ns = Namespace::new("notify-watchdog");
    let dir = Dir::new("watchdog");
    let socket = dir.join("notify.sock");
    let systemd = UnixDatagram::bind(&socket).expect("bind the notify socket");
    systemd.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut sup = Supervisor::start(&dir, &ns, &socket, &[("WATCHDOG_USEC", "1000000")]);
    let mut buf = [0u8; 512];
    let mut next = || {
        let n = systemd.recv(&mut buf).expect("a message to systemd within a minute");
        String::from_utf8_lossy(&buf[..n]).into_owned()
    };
    while !next().starts_with("READY=1\n") {}
    let since = Instant::now();
    let mut beats = 0;
    while since.elapsed() < Duration::from_secs(3) {
        let said = next();
        assert_eq!(said, "WATCHDOG=1", "{}", sup.log());
        beats += 1;
    }
    assert!((5..=8).contains(&beats), "{beats} WATCHDOG=1 in 3 s at a 500 ms period");
    assert_eq!(sup.terminate().0, Some(0), "{}", sup.log());
    drop(sup);

    // The variables were meant for another process (WATCHDOG_PID): no watchdog here.
    systemd.set_nonblocking(true).unwrap();
    while systemd.recv(&mut buf).is_ok() {}
    systemd.set_nonblocking(false).unwrap();
    let mut sup = Supervisor::start(&dir, &ns, &socket, &[("WATCHDOG_USEC", "1000000"), ("WATCHDOG_PID", "1")]);
    let mut said = Vec::new();
    while !said.last().is_some_and(|s: &String| s.starts_with("READY=1\n")) {
        let n = systemd.recv(&mut buf).expect("READY=1 within a minute");
        said.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    systemd.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
    while let Ok(n) = systemd.recv(&mut buf) {
        said.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    assert!(!said.iter().any(|s| s == "WATCHDOG=1"), "{said:?}: {}", sup.log());
    assert_eq!(sup.terminate().0, Some(0), "{}", sup.log());
}
