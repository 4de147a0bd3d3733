//! A closed or full standard output, and a closed standard error, for every kind of command:
//! a closed stdout ends podrun quietly with 141 (as a tool killed by SIGPIPE), a full one with
//! a message and 1, a closed stderr changes nothing, and nothing ever panics. `apply` finishes
//! its pods first.

use std::fs::File;
use std::process::{Command, Output, Stdio};

use crate::common::*;

/// Where podrun's stdout (or stderr) goes.
#[derive(Debug, Clone, Copy)]
enum Sink {
    /// A pipe whose reader is gone before podrun starts: every write is EPIPE.
    Closed,
    /// `/dev/full`: every write is ENOSPC.
    Full,
}

impl Sink {
    fn stdio(self) -> Stdio {
        match self {
            Sink::Closed => {
                let (reader, writer) = rustix::pipe::pipe().expect("pipe");
                drop(reader);
                Stdio::from(writer)
            }
            Sink::Full => Stdio::from(File::options().write(true).open("/dev/full").expect("/dev/full")),
        }
    }
}

/// podrun with its stdout going to `out`, and stderr captured unless `closed_stderr`. A panic
/// would show its backtrace.
fn run(args: &[&str], out: Sink, closed_stderr: bool) -> Output {
    let mut cmd = Command::new(PODRUN);
    cmd.args(args).env("NO_COLOR", "1").env("RUST_BACKTRACE", "1").stdin(Stdio::null()).stdout(out.stdio());
    cmd.stderr(if closed_stderr { Sink::Closed.stdio() } else { Stdio::piped() });
    cmd.output().expect("run podrun")
}

/// What `run` gives for a closed stdout: exit 141 and nothing on stderr (no message, no panic).
fn assert_closed_quietly(args: &[&str]) {
    let o = run(args, Sink::Closed, false);
    assert_eq!(code(&o), 141, "{args:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), "", "{args:?}: a closed stdout is no error to tell of");
}

/// What `run` gives for a full stdout: exit 1 and podrun's one line on stderr.
fn assert_full_says_so(args: &[&str]) {
    let o = run(args, Sink::Full, false);
    assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("podrun: cannot write to standard output: No space left on device (os error 28)\n"),
        "{args:?}: {err}"
    );
    assert_no_panic(args, &err);
}

fn assert_no_panic(args: &[&str], err: &str) {
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{args:?}: {err}");
}

const VALID: &str =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: busybox}\n";

#[test]
fn commands_without_an_engine_survive_a_closed_or_full_stdout() {
    let f = TempFile::new("pod.yaml", VALID);
    let cases: [&[&str]; 6] =
        [&["validate", f.path()], &["completions", "bash"], &["man"], &["--help"], &["--version"], &["help", "apply"]];
    for args in cases {
        assert_closed_quietly(args);
        assert_full_says_so(args);
        // A closed stderr as well: still 141, and no panic (which would be 101).
        assert_eq!(code(&run(args, Sink::Closed, true)), 141, "{args:?}");
    }
}

#[test]
fn a_closed_stderr_changes_no_exit_code() {
    // A usage error is written on stderr, and a failed log line too (-vv, an engine that is
    // not there): dropped, with the codes unchanged.
    let o = run(&["frobnicate"], Sink::Full, true);
    assert_eq!(code(&o), 2);
    let args = ["-vv", "--host", "unix:///nonexistent/podrun.sock", "get"];
    let o = run(&args, Sink::Full, true);
    assert_eq!(code(&o), 3);
    let mut cmd = Command::new(PODRUN);
    cmd.args(args).env("PODRUN_LOG", "trace").env("RUST_BACKTRACE", "1");
    let o = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Sink::Closed.stdio()).output().expect("run");
    assert_eq!(code(&o), 3, "the logger on a closed stderr");
    // Nothing is written on stdout, so a closed stdout is no failure (as for any Unix tool).
    let f = TempFile::new("pod.yaml", VALID);
    let o = run(&["validate", "-q", f.path()], Sink::Closed, true);
    assert_eq!(code(&o), 0);
}

const SLEEPER: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: sleeper}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, 'seq 1 3000; ",
    loop_sh!(),
    "']
"
);

#[test]
fn e2e_get_and_logs_survive_a_closed_or_full_stdout() {
    require_engine!();
    let ns = Namespace::new("pipes-get");
    let f = TempFile::new("pod.yaml", SLEEPER);
    let out = podrun(&["apply", f.path(), "-n", ns.name(), "-q"], None);
    succeeded(&out);
    let n = ns.name();
    let cases: [&[&str]; 7] = [
        &["get", "-n", n],
        &["get", "-n", n, "-o", "json"],
        &["get", "-n", n, "-o", "yaml"],
        &["get", "sleeper", "-n", n, "-o", "json"],
        &["get", "sleeper", "-n", n, "-o", "wide"],
        &["logs", "sleeper", "-n", n],
        &["logs", "sleeper", "-n", n, "-f"],
    ];
    for args in cases {
        assert_closed_quietly(args);
        assert_full_says_so(args);
        assert_eq!(code(&run(args, Sink::Closed, true)), 141, "{args:?}");
    }
    assert_eq!(ns.running(), 2, "the pod is untouched: {:?}", ns.containers());
}

/// A job that writes a lot, so `--logs` meets the closed pipe long before the pod is done.
const JOB: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: job}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, 'seq 1 3000; sleep 2; echo done']
";

#[test]
fn e2e_apply_finishes_its_pod_before_it_exits_for_a_closed_or_full_stdout() {
    require_engine!();
    let ns = Namespace::new("pipes-apply");
    let f = TempFile::new("pod.yaml", JOB);
    for (sink, want) in [(Sink::Closed, 141), (Sink::Full, 1)] {
        for extra in [&["--logs"][..], &["-o", "json"][..], &["--logs", "-o", "json"][..]] {
            let mut args = vec!["apply", f.path(), "-n", ns.name(), "--timeout", "60s", "--wait-for", "complete"];
            args.extend_from_slice(extra);
            let out = run(&args, sink, false);
            let err = stderr(&out);
            assert_eq!(code(&out), want, "{sink:?} {extra:?}: {err}");
            assert_no_panic(&args, &err);
            assert!(
                err.contains("pod ") && err.contains(": ok (Succeeded)"),
                "{sink:?} {extra:?}: the run ends as usual: {err}"
            );
            // Complete and consistent: the container ran to its end, the pod reads Succeeded.
            let get = podrun(&["get", "job", "-n", ns.name(), "-o", "json"], None);
            succeeded(&get);
            let v: serde_json::Value = serde_json::from_slice(&get.stdout).expect("get -o json");
            assert_eq!(v["status"]["phase"], "Succeeded", "{sink:?} {extra:?}: {v}");
            let logs = podrun(&["logs", "job", "-n", ns.name()], None);
            assert!(stdout(&logs).ends_with("3000\ndone\n"), "{sink:?} {extra:?}: the container ran to its end");
            let del = podrun(&["delete", "job", "-n", ns.name(), "-q"], None);
            succeeded(&del);
            assert!(ns.containers().is_empty(), "{:?}", ns.containers());
        }
    }
}
