//! Attacks from the engine's side: a stand-in Docker engine on a unix socket of the test's own
//! that answers `/_ping` and `/version` as an engine does, then answers the next request with
//! endless JSON, with garbage, or with an endless header. podrun must give up with the engine
//! error (exit 3) naming the endpoint and the cap, soon, and without holding the answer in
//! memory: its peak RSS stays far below what it was sent.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::code;

/// What the stand-in sends after the handshake.
#[derive(Clone, Copy)]
enum Attack {
    EndlessJson,
    Garbage,
    EndlessHeader,
}

/// How much the stand-in sends at most before it gives up on podrun hanging up: far more than
/// any cap, and bounded so the test ends.
const MAX_SENT: u64 = 4 << 30;

struct StandIn {
    dir: PathBuf,
    stop: Arc<AtomicBool>,
    sent: Arc<AtomicU64>,
}

impl StandIn {
    /// `on_ping`: the attack answers the first request (`GET /_ping`), else the first after
    /// the handshake.
    fn start(name: &str, attack: Attack, on_ping: bool) -> StandIn {
        let dir = std::env::temp_dir().join(format!("podrun-caps-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let listener = UnixListener::bind(dir.join("engine.sock")).unwrap();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let sent = Arc::new(AtomicU64::new(0));
        let (stop2, sent2) = (Arc::clone(&stop), Arc::clone(&sent));
        std::thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let sent = Arc::clone(&sent2);
                        std::thread::spawn(move || serve(conn, attack, on_ping, &sent));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        StandIn { dir, stop, sent }
    }

    fn host(&self) -> String {
        format!("unix://{}", self.dir.join("engine.sock").display())
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Answers requests on one connection until podrun hangs up.
fn serve(conn: UnixStream, attack: Attack, on_ping: bool, sent: &AtomicU64) {
    conn.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut out = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
        // The rest of the head; the stand-in's requests of interest have no body.
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == "\r\n" {
                break;
            }
        }
        let ok = |body: &str| {
            format!(
                "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nServer: Docker/20.10.24 (linux)\r\nContent-Type: \
                 application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        };
        let answer = if path.ends_with("/_ping") && !on_ping {
            ok("OK")
        } else if path.ends_with("/version") {
            ok(r#"{"Version":"20.10.24","ApiVersion":"1.41","Components":[{"Name":"Engine","Version":"20.10.24"}]}"#)
        } else {
            let _ = attack_with(&mut out, attack, sent);
            return;
        };
        if out.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

/// Sends `attack` until podrun hangs up (or `MAX_SENT`).
fn attack_with(out: &mut UnixStream, attack: Attack, sent: &AtomicU64) -> std::io::Result<()> {
    let container = format!(r#"{{"Id":"{}","Names":["/x"],"Labels":{{"a":"b"}}}},"#, "a".repeat(64));
    let (head, piece) = match attack {
        Attack::EndlessJson => {
            let data = container.repeat(500);
            (
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n"
                    .to_owned(),
                format!("{:x}\r\n{data}\r\n", data.len()),
            )
        }
        Attack::Garbage => (String::new(), "\u{1}\u{0}garbage, not HTTP \u{7f}\r\n".repeat(1000)),
        // One endless line: many short ones meet hyper's limit of 100 headers first.
        Attack::EndlessHeader => ("HTTP/1.1 200 OK\r\nX-Endless: ".to_owned(), "a".repeat(32 * 1024)),
    };
    out.write_all(head.as_bytes())?;
    while sent.load(Ordering::Relaxed) < MAX_SENT {
        out.write_all(piece.as_bytes())?;
        sent.fetch_add(piece.len() as u64, Ordering::Relaxed);
    }
    Ok(())
}

/// Runs `podrun ARGS` against the stand-in under GNU time: its exit code, standard error,
/// peak RSS in KiB, and how long it took.
fn run_against(engine: &StandIn, args: &[&str]) -> (i32, String, u64, Duration) {
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(crate::common::PODRUN)
        .args(args)
        .env("DOCKER_HOST", engine.host())
        .env_remove("DOCKER_CONTEXT")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run podrun under /usr/bin/time (Debian package time)");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let rss = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes): "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak RSS from /usr/bin/time in: {stderr}"));
    (code(&out), stderr, rss, took)
}

/// The bound on podrun's peak RSS facing an endless answer: its 64 MiB cap on an answer, plus
/// podrun itself; what it was sent (up to 4 GiB) would be far more.
const MAX_RSS_KIB: u64 = 256 * 1024;

fn assert_refused(name: &str, attack: Attack, on_ping: bool, args: &[&str], says: &str) {
    let engine = StandIn::start(name, attack, on_ping);
    let (exit, stderr, rss, took) = run_against(&engine, args);
    let sent = engine.sent.load(Ordering::Relaxed);
    eprintln!("{name}: exit {exit}, peak RSS {rss} KiB, {took:?}, {sent} bytes sent");
    assert_eq!(exit, 3, "the engine's error, exit 3: {stderr}");
    assert!(stderr.contains(&engine.host()), "the message names the endpoint: {stderr}");
    assert!(stderr.contains(says), "the message says {says:?}: {stderr}");
    assert!(rss < MAX_RSS_KIB, "peak RSS {rss} KiB, over {MAX_RSS_KIB} KiB");
    assert!(sent < MAX_SENT, "podrun hung up before the stand-in gave up ({sent} bytes sent)");
}

#[test]
fn an_endless_json_answer_is_cut_at_its_cap() {
    assert_refused(
        "json-get",
        Attack::EndlessJson,
        false,
        &["get", "-A"],
        "is larger than 64 MiB, the cap on an answer",
    );
}

#[test]
fn an_endless_json_answer_ends_apply_too() {
    let manifest = crate::common::TempFile::new(
        "caps-apply.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: caps\nspec:\n  containers:\n  - name: c\n    image: busybox\n",
    );
    let path = manifest.0.to_string_lossy().into_owned();
    assert_refused(
        "json-apply",
        Attack::EndlessJson,
        false,
        &["apply", "-f", &path, "--timeout", "5m"],
        "is larger than 64 MiB, the cap on an answer",
    );
}

#[test]
fn garbage_for_an_answer_is_the_engine_error() {
    assert_refused("garbage", Attack::Garbage, false, &["get", "-A"], "is not HTTP");
    // podrun's own first request, which reads the engine's name from the answer's head.
    assert_refused("ping-garbage", Attack::Garbage, true, &["get", "-A"], "not an HTTP response");
}

#[test]
fn an_endless_header_is_cut_at_its_cap() {
    assert_refused("header", Attack::EndlessHeader, false, &["get", "-A"], "has a head longer than 64 KiB");
    assert_refused(
        "ping-header",
        Attack::EndlessHeader,
        true,
        &["get", "-A"],
        "the engine's response head is longer than 16 KiB",
    );
}
