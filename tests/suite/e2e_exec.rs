//! `podrun exec` end to end, against the real engine: output, exit status, stdin, and a real
//! terminal (tmux) for -it, raw mode and resizing.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;

/// Two long-running containers after an init container; `b` is the default one by annotation,
/// and has an env var.
const PAIR: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata:
  name: pair
  annotations: {kubectl.kubernetes.io/default-container: b}
spec:
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: setup
    image: busybox:1.28
    command: [sh, -c, 'exit 0']
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, '",
    loop_sh!(),
    "']
  - name: b
    image: busybox:1.28
    env: [{name: GREETING, value: hello}]
    command: [sh, -c, '",
    loop_sh!(),
    "']
"
);

fn started(test: &str) -> Namespace {
    let ns = Namespace::new(test);
    let f = TempFile::new("pod.yaml", PAIR);
    let out = podrun(&["apply", f.path(), "-n", ns.name(), "-q"], None);
    succeeded(&out);
    ns
}

#[test]
fn e2e_exec_passes_output_stdin_and_the_exit_status() {
    require_engine!();
    let ns = started("exec");
    let exec = |args: &[&str], stdin: Option<&str>| {
        let mut all = vec!["exec", "-n", ns.name()];
        all.extend_from_slice(args);
        podrun(&all, stdin)
    };

    // The default container (the annotation's), its environment, both streams, the exit code.
    let out = exec(&["pair", "--", "sh", "-c", "echo $GREETING; echo oops >&2; exit 7"], None);
    assert_eq!(code(&out), 7, "{}", stderr(&out));
    assert_eq!(stdout(&out), "hello\n");
    assert!(stderr(&out).contains("oops\n"), "{}", stderr(&out));
    assert!(stderr(&out).contains(r#"Defaulted container "b" out of: a, b, setup (init)"#), "{}", stderr(&out));

    // -c picks the container; -q drops the note.
    let out = exec(&["pair", "-c", "a", "-q", "--", "sh", "-c", "echo ${GREETING:-unset}"], None);
    succeeded(&out);
    assert_eq!(stdout(&out), "unset\n");
    assert_eq!(stderr(&out), "");

    // -i: stdin reaches the command, and its end is the command's end of input.
    let big: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    let out = exec(&["pair", "-i", "-q", "--", "wc", "-l"], Some(&big));
    succeeded(&out);
    assert_eq!(stdout(&out).trim(), "20000");

    // Without -i the command's stdin is closed, so a reader ends at once.
    let out = exec(&["pair", "-q", "--", "cat"], Some("ignored"));
    succeeded(&out);
    assert_eq!(stdout(&out), "");

    // -it without a terminal: kubectl's warning, and the command runs without one.
    let out = exec(&["pair", "-it", "--", "sh", "-c", "tty || true"], Some(""));
    succeeded(&out);
    assert_eq!(stdout(&out), "not a tty\n");
    assert!(stderr(&out).contains("Unable to use a TTY"), "{}", stderr(&out));
    // -t alone gives the command a terminal, as docker exec -t does.
    let out = exec(&["pair", "-t", "-q", "--", "tty"], None);
    succeeded(&out);
    assert!(stdout(&out).starts_with("/dev/pts/"), "{}", stdout(&out));
    // A terminal's output is passed on byte for byte, even where it looks like a frame header.
    let out = exec(
        &["pair", "-t", "-q", "--", "sh", "-c", r"printf '\001\000\000\000\000\000\000\377x'; sleep 1; echo end"],
        None,
    );
    succeeded(&out);
    assert_eq!(out.stdout, b"\x01\0\0\0\0\0\0\xffxend\r\n", "{:?}", out.stdout);

    // A command that cannot run: the engine's status for it (126 or 127, as docker exec).
    let out = exec(&["pair", "-q", "--", "no-such-command"], None);
    assert!(matches!(code(&out), 126 | 127), "{} {}", code(&out), stderr(&out));

    // podrun's own errors: exit 1, with kubectl's words.
    let out = exec(&["nopod", "--", "true"], None);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains(r#"pods "nopod" not found"#), "{}", stderr(&out));
    let out = exec(&["pair", "-c", "zz", "--", "true"], None);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains(r#"container "zz" is not valid for pod "pair""#), "{}", stderr(&out));
    let out = exec(&["pair", "-c", "setup", "--", "true"], None);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("exited with code 0"), "{}", stderr(&out));
    // No command: a usage error.
    let out = exec(&["pair"], None);
    assert_eq!(code(&out), 2);
}

pub(crate) fn tmux(args: &[&str]) -> std::process::Output {
    Command::new("tmux").args(args).stdin(Stdio::null()).output().expect("run tmux")
}

/// A tmux server of the test's own (its own socket), killed when dropped.
pub(crate) struct Tmux(pub(crate) String);

impl Tmux {
    pub(crate) fn run(&self, args: &[&str]) -> std::process::Output {
        let mut all = vec!["-L", self.0.as_str()];
        all.extend_from_slice(args);
        tmux(&all)
    }

    pub(crate) fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Waits (bounded) until the screen shows `text`, and returns the screen.
    pub(crate) fn wait_for(&self, text: &str) -> String {
        wait_until(&format!("the screen shows {text:?}"), Duration::from_secs(20), || {
            let shown = self.screen();
            if shown.contains(text) {
                Ok(shown)
            } else {
                Err(shown)
            }
        })
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

#[test]
fn e2e_exec_it_gives_a_terminal_that_follows_podrun_s() {
    require_engine!();
    require_tool!("tmux");
    let ns = started("exec-tty");
    let t = Tmux(format!("podrun-test-{}", std::process::id()));
    // The shell line after podrun shows its exit status and whether the terminal is sane again
    // (echo on: raw mode was undone).
    let cmd = format!(
        "{PODRUN} exec -it -q -n {} pair -- sh; echo podrun-exit=$?; stty -a | grep -o -- '-\\?echo ' | head -1; sleep 60",
        ns.name()
    );
    let out = tmux(&["-L", &t.0, "new-session", "-d", "-s", "t", "-x", "101", "-y", "33", &cmd]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    t.wait_for("/ #");
    t.keys(&["stty size; tty", "Enter"]);
    t.wait_for("33 101");
    let screen = t.wait_for("/dev/pts/");
    assert!(screen.contains("/dev/pts/"), "{screen}");

    // Resizing podrun's terminal resizes the command's.
    assert!(t.run(&["resize-window", "-t", "t", "-x", "87", "-y", "21"]).status.success());
    // The new size reaches the command a moment later: ask until it says so.
    wait_until("the command's terminal is 21x87", Duration::from_secs(20), || {
        t.keys(&["clear; stty size", "Enter"]);
        std::thread::sleep(Duration::from_millis(200));
        let screen = t.screen();
        if screen.contains("21 87") {
            Ok(())
        } else {
            Err(screen)
        }
    });

    // Ctrl-C goes to the command (it interrupts the sleep), not to podrun.
    t.keys(&["sleep 30", "Enter"]);
    // Ctrl-C only once the command runs, or the shell would take it instead.
    let b = id_of(&ns, "b");
    wait_until("sleep 30 runs in container b", Duration::from_secs(20), || {
        let ps = exec(&b, "ps");
        if ps.contains("sleep 30") {
            Ok(())
        } else {
            Err(ps)
        }
    });
    t.keys(&["C-c"]);
    t.keys(&["echo after-sleep=$?", "Enter"]);
    t.wait_for("after-sleep=130");

    t.keys(&["exit 5", "Enter"]);
    t.wait_for("podrun-exit=5");
    // The terminal is back in cooked mode: `echo` on, not `-echo`. stty's line comes a moment
    // after podrun's exit status (more under load): waited for below that line only, since
    // the commands typed before show "echo" too.
    let (screen, flag) = wait_until("stty answers", Duration::from_secs(20), || {
        let screen = t.screen();
        let tail = screen.split("podrun-exit=5").nth(1).unwrap_or_default().to_owned();
        match tail.lines().map(str::trim).find(|l| *l == "echo" || *l == "-echo") {
            Some(flag) => Ok((screen.clone(), flag.to_owned())),
            None => Err(screen),
        }
    });
    assert_eq!(flag, "echo", "terminal not restored:\n{screen}");
}

/// podrun's words in front of the command on `target` (`--host`, `--runtime-endpoint`).
fn engine_args(target: Target<'_>) -> Vec<String> {
    match target {
        Target::Engine(Some(host)) => vec!["--host".into(), host.into()],
        Target::Cri(endpoint) => vec!["--runtime-endpoint".into(), endpoint.into()],
        _ => Vec::new(),
    }
}

/// `podrun exec -i` of a command that exits at once without reading its input, fed input
/// that keeps coming (`flood`: as fast as podrun takes it; else none, the pipe held open)
/// until podrun has exited. A podrun still running after 30 s is killed and the test fails.
fn exec_ignoring_input(target: Target<'_>, ns: &Namespace, flood: bool) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(PODRUN)
        .args(engine_args(target))
        .args(["exec", "-i", "-n", ns.name(), "sh", "--", "sh", "-c", "echo hi; exit 5"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run podrun");
    let mut stdin = child.stdin.take().expect("stdin");
    // The feeder stops when podrun's end closes the pipe (or after 4 GiB, a bound of its own).
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b'y'; 64 * 1024];
        for _ in 0..(if flood { 65_536 } else { 0 }) {
            if stdin.write_all(&chunk).is_err() {
                return None;
            }
        }
        Some(stdin)
    });
    let out = bounded::drain(child.stdout.take().expect("stdout"));
    let err = bounded::drain(child.stderr.take().expect("stderr"));
    let Some(status) = bounded::wait(&mut child, Duration::from_secs(30)) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{}: podrun exec did not end within 30 s of a command that ended at once", target.name());
    };
    drop(feeder.join());
    std::process::Output { status, stdout: out.join().expect("stdout"), stderr: err.join().expect("stderr") }
}

/// A command that exits without reading its input ends the exec, and podrun exits with its
/// code, whatever input is still coming; on a CRI runtime that withholds the status until
/// the input is taken (containerd), podrun ends within seconds and says so.
fn exec_ends_when_the_command_ends(target: Target<'_>, ns: &Namespace) {
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: sh}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    let f = TempFile::new("sh.yaml", &pod);
    let out = target.podrun(&["apply".into(), f.path().into(), "-n".into(), ns.name().into(), "-q".into()]);
    assert_eq!(code(&out), 0, "{}: {}", target.name(), stderr(&out));
    for flood in [false, true, true, true, true] {
        let out = exec_ignoring_input(target, ns, flood);
        let (name, err) = (target.name(), stderr(&out));
        // Podman 4.3 flooded with input may reset its own attach session before it has sent
        // the output, and says so itself: the exit code must still be the command's.
        let reset = name == "podman" && flood && err.contains("connection reset by peer");
        assert!(stdout(&out) == "hi\n" || (reset && stdout(&out).is_empty()), "{name}: {}: {err}", stdout(&out));
        let withheld = matches!(target, Target::Cri(_)) && err.contains("the runtime gave no exit status within 5s");
        assert!(code(&out) == 5 || (flood && withheld && code(&out) == 1), "{name}: exit {}: {err}", code(&out));
    }
}

#[test]
fn e2e_exec_ends_when_the_command_ends_whatever_input_is_coming() {
    require_engine!();
    let ns = Namespace::new("exec-ends");
    exec_ends_when_the_command_ends(Target::Engine(None), &ns);
}

#[test]
fn e2e_podman_exec_ends_when_the_command_ends_whatever_input_is_coming() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "exec-ends-podman");
    exec_ends_when_the_command_ends(Target::Engine(Some(&host)), &ns);
}

#[test]
fn e2e_cri_exec_ends_when_the_command_ends_whatever_input_is_coming() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "exec-ends-cri");
    exec_ends_when_the_command_ends(Target::Cri(&endpoint), &ns);
}
