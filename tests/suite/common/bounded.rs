//! Commands the tests run, each with a time limit: an engine that wedges (Podman 4.3's storage
//! locks have) or a podrun that hangs fails its test after the limit, with what the command
//! printed so far, instead of holding the whole suite until CI's own limit ends it unread.

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longer than any command of the suite takes (the longest, a corpus run or hundreds of MiB
/// of logs, take about two minutes on the test machines), far below CI's limit.
pub const LIMIT: Duration = Duration::from_secs(600);

/// `cmd`'s output, `stdin` fed to it when given; killed and the test failed past `within`.
pub fn output(cmd: &mut Command, stdin: Option<Vec<u8>>, within: Duration) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("run {cmd:?}: {e}"));
    let feeder = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin");
        // A command that stops reading early closes the pipe: the rest is not wanted.
        std::thread::spawn(move || drop(pipe.write_all(&input)))
    });
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let Some(status) = wait(&mut child, within) else {
        let _ = child.kill();
        let _ = child.wait();
        let err = err.join().unwrap_or_default();
        panic!("{cmd:?} did not end within {within:?}; it printed:\n{}", String::from_utf8_lossy(&err))
    };
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    Output { status, stdout: out.join().expect("stdout"), stderr: err.join().expect("stderr") }
}

/// Reads `from` to its end on a thread of its own.
pub fn drain(mut from: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = from.read_to_end(&mut buf);
        buf
    })
}

/// `child`'s exit status, or `None` once `within` has passed with it still running.
pub fn wait(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().expect("wait for the command") {
            return Some(status);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}
