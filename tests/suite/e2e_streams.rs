//! Streams are bounded and complete, end to end: a container writing hundreds of MiB is shown
//! by `apply --logs` to its last byte (or podrun says how much it showed and why it stopped),
//! `podrun logs` and `--tail 5` read a large CRI log, all in a peak memory far below the
//! output's size (measured with GNU time; the figures are in docs/performance.md), and under
//! `--supervise` a CRI container's log is rotated, within its file bound, and read whole
//! across its files; on Docker, Podman and containerd, many short lines come out whole and in
//! order through `apply --logs`, `logs` and `exec`, which write them in batches.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::cri::podrun_cri;
use crate::common::*;

/// Lines of 128 bytes: 127 characters and the newline.
const LINE: usize = 128;
const OUT_BYTES: usize = 160 * 1024 * 1024;
const ERR_BYTES: usize = 40 * 1024 * 1024;
/// What the container writes after the bulk, and so the last 5 lines of its log (2 s after the
/// bulk: the runtime copies stdout and stderr apart, so its last stderr lines could otherwise
/// come after them in the log).
const END: &str = "end-1\nend-2\nend-3\nend-4\nend-5\n";
/// The peak memory (RSS) podrun must stay under, whatever the output's size.
const RSS_BOUND_KIB: u64 = 100 * 1024;

fn big_pod() -> String {
    let out = "o".repeat(LINE - 1);
    let err = "e".repeat(LINE - 1);
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: big}}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: out\n    image: busybox:1.28\n    command: [sh, -c, 'yes {out} | head -c {OUT_BYTES}; yes {err} | head -c {ERR_BYTES} >&2; sleep 2; for i in 1 2 3 4 5; do echo end-$i; done']\n"
    )
}

/// What podrun printed on standard output, counted as it came.
#[derive(Debug, Default)]
struct Seen {
    /// Bytes per prefix (`out` of `out | text`; "" for lines without one), newlines counted,
    /// prefixes not.
    bytes: BTreeMap<String, u64>,
    last: VecDeque<String>,
}

/// podrun run under GNU time: what it printed, its peak RSS (KiB), its standard error's text
/// (a few KiB at most of it kept) and its exit code.
struct Measured {
    seen: Seen,
    rss_kib: u64,
    stderr: String,
    code: i32,
}

fn measure(args: &[&str], prefixed: bool) -> Measured {
    // A folder of each run's own: the suite's tests run side by side in one process.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = crate::common::StateDir::new(&format!("time-{}", RUNS.fetch_add(1, Ordering::Relaxed)));
    let report = format!("{}/time.txt", dir.path());
    let mut child = Command::new("/usr/bin/time")
        .args(["-v", "-o", &report, PODRUN])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run podrun under /usr/bin/time (package time)");
    let mut err = child.stderr.take().expect("stderr");
    let errors = std::thread::spawn(move || {
        let (mut kept, mut buf) = (Vec::new(), vec![0u8; 64 * 1024]);
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 {
                break;
            }
            if kept.len() < 64 * 1024 {
                kept.extend_from_slice(&buf[..n]);
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    });
    let mut seen = Seen::default();
    let mut out = BufReader::with_capacity(1 << 20, child.stdout.take().expect("stdout"));
    let mut line = Vec::new();
    while out.read_until(b'\n', &mut line).expect("read podrun's output") > 0 {
        let text = String::from_utf8_lossy(&line);
        let (prefix, rest) = match text.split_once(" | ") {
            Some((p, r)) if prefixed => (p.to_owned(), r.to_owned()),
            _ => (String::new(), text.into_owned()),
        };
        *seen.bytes.entry(prefix).or_default() += rest.len() as u64;
        if seen.last.len() == 10 {
            seen.last.pop_front();
        }
        seen.last.push_back(rest.trim_end().to_owned());
        line.clear();
    }
    let status = child.wait().expect("wait for podrun");
    let stderr = errors.join().expect("stderr reader");
    let time = std::fs::read_to_string(&report).expect("GNU time's report");
    let rss_kib = time
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes): "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak RSS in GNU time's report:\n{time}"));
    Measured { seen, rss_kib, stderr, code: status.code().unwrap_or(-1) }
}

/// `apply --logs` of the big pod on `ns`'s engine: every byte shown, in bounded memory.
fn logs_are_complete_and_bounded(ns: &Namespace, endpoint: Option<&str>) {
    let f = TempFile::new("big.yaml", &big_pod());
    let mut args = endpoint.map_or_else(Vec::new, |e| vec!["--runtime-endpoint", e]);
    args.extend(["apply", f.path(), "-n", ns.name(), "--logs", "--timeout", "10m"]);
    let m = measure(&args, true);
    eprintln!("apply --logs: peak RSS {} KiB; seen {:?}", m.rss_kib, m.seen.bytes);
    assert_eq!(m.code, 0, "stderr:\n{}", m.stderr);
    let written = (OUT_BYTES + ERR_BYTES + END.len()) as u64;
    assert_eq!(m.seen.bytes.get("out").copied(), Some(written), "stderr:\n{}", m.stderr);
    assert!(!m.stderr.contains("bytes shown"), "a stream was given up:\n{}", m.stderr);
    assert!(m.rss_kib < RSS_BOUND_KIB, "peak RSS {} KiB", m.rss_kib);
}

#[test]
fn e2e_apply_logs_shows_hundreds_of_mib_whole_in_bounded_memory() {
    require_engine!();
    let ns = Namespace::new("streams-apply");
    logs_are_complete_and_bounded(&ns, None);
}

#[test]
fn e2e_cri_apply_logs_and_logs_of_a_large_log_are_whole_and_bounded() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "streams");
    logs_are_complete_and_bounded(&ns, Some(&endpoint));

    let all = measure(&["--runtime-endpoint", &endpoint, "logs", "big", "-n", ns.name()], false);
    eprintln!("logs: peak RSS {} KiB; seen {:?}", all.rss_kib, all.seen.bytes);
    assert_eq!(all.code, 0, "{}", all.stderr);
    // Standard error's lines go to podrun's standard error.
    assert_eq!(all.seen.bytes.get("").copied(), Some((OUT_BYTES + END.len()) as u64));
    assert!(all.rss_kib < RSS_BOUND_KIB, "peak RSS {} KiB", all.rss_kib);

    let tail = measure(&["--runtime-endpoint", &endpoint, "logs", "big", "-n", ns.name(), "--tail", "5"], false);
    eprintln!("logs --tail 5: peak RSS {} KiB", tail.rss_kib);
    assert_eq!(tail.code, 0, "{}", tail.stderr);
    assert_eq!(
        tail.seen.last.iter().map(|l| format!("{l}\n")).collect::<String>(),
        END,
        "{:?} {}",
        tail.seen.last,
        tail.stderr
    );
    assert!(tail.rss_kib < RSS_BOUND_KIB, "peak RSS {} KiB", tail.rss_kib);
}

/// N of a line `line-N xxx...`.
fn number(line: &str) -> u32 {
    line.strip_prefix("line-").and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).expect(line)
}

#[test]
fn e2e_cri_supervise_rotates_a_log_within_its_files_and_logs_reads_across_them() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "rotate");
    // 400 lines of about 1 KiB, 50 a second: past 64 KiB every second or two.
    let script = "P=$(head -c 1000 /dev/zero | tr \"\\\\0\" x); i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo line-$i $P; [ $((i % 50)) -eq 0 ] && sleep 1; done; exec sleep 3600";
    let f = TempFile::new(
        "rot.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: rot}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{script}']}}\n"
        ),
    );
    let _supervisor = Killed(
        Command::new(PODRUN)
            .args(["--runtime-endpoint", &endpoint, "apply", f.path(), "-n", ns.name(), "--supervise"])
            .args(["--container-log-max-size", "64Ki", "--container-log-max-files", "3"])
            .args(["--container-log-monitor-interval", "1s"])
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run podrun"),
    );
    let logs = || podrun_cri(&endpoint, &["logs", "rot", "-n", ns.name()]);
    wait_until("the first line is written", Duration::from_secs(30), || {
        let out = logs();
        if stdout(&out).starts_with("line-") {
            Ok(())
        } else {
            Err(stderr(&out))
        }
    });
    // A follower started now goes on across the rotations.
    let mut follower = Killed(
        Command::new(PODRUN)
            .args(["--runtime-endpoint", &endpoint, "logs", "-f", "rot", "-n", ns.name()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run podrun logs -f"),
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let out = follower.0.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut followed: Vec<u32> = Vec::new();
    while followed.last() != Some(&400) {
        let line = rx.recv_timeout(Duration::from_secs(60)).expect("logs -f gave the lines up to line-400");
        followed.push(number(&line));
    }
    drop(follower);
    assert!(followed[0] < 100, "logs -f began late: {followed:?}");
    assert!(followed.windows(2).all(|w| w[1] == w[0] + 1), "logs -f lost or repeated lines: {followed:?}");
    wait_until("the last line is written", Duration::from_secs(60), || {
        let out = logs();
        if stdout(&out).lines().last().is_some_and(|l| l.starts_with("line-400 ")) {
            Ok(())
        } else {
            Err(stderr(&out))
        }
    });
    let dir = std::fs::read_dir("/var/log/pods")
        .expect("the CRI log root")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&format!("{}_rot_", ns.name()))))
        .expect("the pod's log folder")
        .join("c");
    let files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the container's log folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.iter().any(|f| f.starts_with("0.log.")), "not rotated: {files:?}");
    assert!(files.len() <= 3, "more than 3 files: {files:?}");
    assert!(files.iter().all(|f| f == "0.log" || f.starts_with("0.log.")), "{files:?}");
    // Read across the files, in order: consecutive lines up to the last, the oldest removed.
    let text = stdout(&logs());
    let numbers: Vec<u32> = text.lines().map(number).collect();
    assert_eq!(numbers.last(), Some(&400));
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "lines out of order or missing: {numbers:?}");
    assert!(numbers[0] > 1, "nothing was removed: 3 files of 64 KiB cannot hold 400 KiB");
}

/// Lines the order test's container writes (`seq 1 N`): many short lines, which podrun writes
/// out in batches.
const SEQ_LINES: u32 = 100_000;

/// `1\n2\n...N\n`.
fn seq_text(n: u32) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

/// Many short lines come out whole and in order through every stream podrun relays in batches:
/// `apply --logs`, `logs`, `logs -f` of a stopped container, `logs --prefix`, and `exec`; what
/// the container wrote to stderr goes to podrun's stderr (`logs`) or among the lines (`apply
/// --logs`). The writer is an init container, so it has written everything before the pod is
/// running (`apply --logs` shows a container that still runs at the end only for a moment),
/// and it pauses before it exits: containerd 1.6 loses what it has not copied yet from a
/// container that exits (docs/engines.md).
fn many_lines_whole_and_in_order(target: Target, ns: &Namespace) {
    let f = TempFile::new(
        "seq.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: seq}}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n  initContainers:\n  - {{name: lines, image: busybox:1.28, command: [sh, -c, 'seq 1 {SEQ_LINES}; echo gone >&2; sleep 2']}}\n  containers:\n  - {{name: idle, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
        ),
    );
    let run = |args: &[&str]| {
        let mut all: Vec<String> = vec![args[0].to_owned(), "-n".to_owned(), ns.name().to_owned()];
        all.extend(args[1..].iter().map(|a| (*a).to_owned()));
        let o = target.podrun(&all);
        assert_eq!(code(&o), 0, "{}: {args:?}: {}", target.name(), stderr(&o));
        o
    };
    let want = seq_text(SEQ_LINES);
    let o = run(&["apply", f.path(), "--logs", "--wait-for", "running", "--timeout", "5m"]);
    // Podman 4.3's logs API, following a container that wrote many lines quickly, answers
    // with them out of order and some missing or twice (its own `follow=1` answer, read with
    // curl, is so): what follows a container there is not checked line by line.
    let follows_whole = target.name() != "podman";
    let shown = stdout(&o);
    // Podman may end the followed stream before its last lines (the same answer).
    assert!(!follows_whole || shown.lines().any(|l| l == "lines | gone"), "{}: {}", target.name(), stderr(&o));
    let numbers: String = shown
        .lines()
        .filter_map(|l| l.strip_prefix("lines | ").filter(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .map(|n| format!("{n}\n"))
        .collect();

    // The log as the engine keeps it: every line.
    let o = run(&["logs", "seq", "-c", "lines"]);
    let log = stdout(&o);
    assert!(stderr(&o).contains("gone"), "{}: {}", target.name(), stderr(&o));
    assert!(log == want, "{}: logs: {} bytes, not the lines in order", target.name(), log.len());
    if follows_whole {
        assert!(numbers == log, "{}: apply --logs: {} bytes, not the log in order", target.name(), numbers.len());
    }
    if follows_whole {
        let o = run(&["logs", "seq", "-c", "lines", "-f"]);
        assert!(stdout(&o) == log, "{}: logs -f: {} bytes, not the log in order", target.name(), o.stdout.len());
    }
    let o = run(&["logs", "seq", "-c", "lines", "--prefix"]);
    let prefixed: String = log.lines().map(|l| format!("[pod/seq/lines] {l}\n")).collect();
    assert!(stdout(&o) == prefixed, "{}: --prefix: {} bytes, not the lines in order", target.name(), o.stdout.len());

    let n = SEQ_LINES.to_string();
    let o = run(&["exec", "seq", "-c", "idle", "--", "seq", "1", &n]);
    assert!(stdout(&o) == want, "{}: exec: {} bytes, not the lines in order", target.name(), o.stdout.len());
    let o = run(&["exec", "seq", "-c", "idle", "--", "sh", "-c", "echo out; echo err >&2; echo out2"]);
    assert_eq!(stdout(&o), "out\nout2\n", "{}", target.name());
    assert_eq!(stderr(&o), "err\n", "{}", target.name());
    run(&["delete", "seq"]);
}

#[test]
fn e2e_docker_many_lines_whole_and_in_order() {
    require_engine!();
    let ns = Namespace::new("streams-order");
    many_lines_whole_and_in_order(Target::Engine(None), &ns);
}

#[test]
fn e2e_podman_many_lines_whole_and_in_order() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "streams-order-podman");
    many_lines_whole_and_in_order(Target::Engine(Some(&host)), &ns);
}

#[test]
fn e2e_cri_many_lines_whole_and_in_order() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "streams-order-cri");
    many_lines_whole_and_in_order(Target::Cri(&endpoint), &ns);
}
