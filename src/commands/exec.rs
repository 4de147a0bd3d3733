//! `podrun exec`: a command in a running container of a pod, as `kubectl exec` runs it. Its
//! output goes to podrun's stdout and stderr, podrun's stdin is passed on with -i, it gets a
//! terminal with -t, and its exit status becomes podrun's.

use std::io::{IsTerminal, Read};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{FutureExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use crate::cli::{Cli, ExecArgs};
use crate::driver::signals::Interrupt;
use crate::exit;
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::report::output::{self, OutputError};
use crate::report::{self, ReportOptions};
use crate::runtime::{
    ExecRequest, ExecSession, LogChunk, LogStream, Observed, Runtime, RuntimeError, State, StreamingRuntime,
};
use crate::status::engine_pods::ListedPod;
use crate::tty::{self, RawMode};

use super::Refusal;

pub async fn run(cli: &Cli, args: &ExecArgs) -> anyhow::Result<u8> {
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let name = super::pod_args::pod_name(&args.pod)?;
    let rt = Arc::new(super::connect(cli).await?.0);
    let Some(pod) = super::find_pod(&*rt, &namespace, &name).await? else {
        reporter.say(&super::pod_not_found(&name));
        return Ok(exit::INTERNAL);
    };
    let (name, container) = match target(&pod, args.container.as_deref()) {
        Ok(t) => t,
        Err(Refusal::Usage(e)) => return Err(e.into()),
        Err(Refusal::Failed(e)) => {
            reporter.say(&format!("error: {e}"));
            return Ok(exit::INTERNAL);
        }
    };
    if args.container.is_none() && !cli.quiet {
        if let Some(note) = pod.defaulted_note(name) {
            reporter.say(&note);
        }
    }
    // As kubectl: a terminal needs one to read from; without it the command still runs, plainly.
    let stdin_is_terminal = std::io::stdin().is_terminal();
    let tty = args.tty && (!args.stdin || stdin_is_terminal);
    if args.tty && !tty && !cli.quiet {
        reporter.say("Unable to use a TTY - input is not a terminal or the right kind of file");
    }
    let req = ExecRequest { cmd: args.command.clone(), tty, stdin: args.stdin };
    let mut interrupt = Interrupt::listen()?;
    let session = match rt.exec_attach(&container.id, &req).await {
        Ok(s) => s,
        Err(RuntimeError::Conflict { .. } | RuntimeError::NotFound { .. }) => {
            let e = NoTarget::NotRunning { container: name.to_owned(), pod: pod.name.clone() };
            reporter.say(&format!("error: {e}"));
            return Ok(exit::INTERNAL);
        }
        Err(e) => return Err(e.into()),
    };
    // Keys go to the command as typed only while it reads them from a terminal.
    let raw = if tty && args.stdin { Some(RawMode::enable()?) } else { None };
    if tty {
        // Listening before the first resize, so a change of size in between is not missed.
        let winch = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::window_change()).ok();
        initial_size(&*rt, &session.id).await;
        if let Some(winch) = winch {
            tokio::spawn(follow_size(Arc::clone(&rt), session.id.clone(), winch));
        }
    }
    let stdin = args.stdin.then(read_stdin);
    let mut batch = output::Batch::new();
    let ended = tokio::select! {
        ended = attach(&*rt, session, stdin, |chunk| write_local(&mut batch, chunk)) => ended?,
        sig = interrupt.wait() => {
            drop(raw);
            // The command goes on in the container: the engine has no way to signal an exec.
            tracing::warn!("interrupted; the command may still run in the container");
            return Ok(128 + u8::try_from(sig).unwrap_or(0));
        }
    };
    drop(raw);
    match ended {
        Ended::Exited(code) => Ok(exit_status(code)),
        // The command may go on in the container; podrun exits 141 (closed) or 1 (full disk).
        Ended::OutputGone(e) => Err(e.into()),
    }
}

/// Why the container asked for cannot be run in, in kubectl's words.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum NoTarget {
    #[error("container {container:?} is not valid for pod {pod:?}")]
    Unknown { container: String, pod: String },
    #[error("cannot exec in container {container:?} of pod {pod:?}: it exited with code {code}")]
    Exited { container: String, pod: String, code: i64 },
    #[error("container {container:?} in pod {pod:?} is not running")]
    NotRunning { container: String, pod: String },
}

/// The container to run in (by `-c`, else the pod's default one) and its running instance.
fn target<'a>(pod: &'a ListedPod, named: Option<&'a str>) -> Result<(&'a str, &'a Observed), Refusal<NoTarget>> {
    let name = super::container_name(pod, named)?;
    let (container, pod_name) = (name.to_owned(), pod.name.clone());
    let Some(inst) = pod.instances(name) else {
        return Err(Refusal::Failed(NoTarget::Unknown { container, pod: pod_name }));
    };
    match inst.current.as_ref() {
        Some(c) if c.is_running() => Ok((name, c)),
        Some(Observed { state: State::Exited { exit_code, .. }, .. }) => {
            Err(Refusal::Failed(NoTarget::Exited { container, pod: pod_name, code: *exit_code }))
        }
        _ => Err(Refusal::Failed(NoTarget::NotRunning { container, pod: pod_name })),
    }
}

/// How an attached command ended.
#[derive(Debug)]
enum Ended {
    /// It exited with this code.
    Exited(i64),
    /// podrun could no longer write its output (the reader went away, the disk is full); the
    /// command may still run.
    OutputGone(OutputError),
}

/// Runs an attached session to its end: `stdin`'s chunks go to the command (then EOF), its
/// output goes to `out` chunk by chunk (`None` when it pauses: nothing more for
/// `output::PAUSE`), and
/// once the output ends, the exit code is read.
async fn attach<R: Runtime>(
    rt: &R,
    session: ExecSession,
    stdin: Option<mpsc::Receiver<Vec<u8>>>,
    mut out: impl FnMut(Option<&LogChunk>) -> Result<(), OutputError>,
) -> Result<Ended, RuntimeError> {
    let ExecSession { id, mut output, input } = session;
    if let (Some(mut input), Some(mut stdin)) = (input, stdin) {
        tokio::spawn(async move {
            while let Some(chunk) = stdin.recv().await {
                if input.write_all(&chunk).await.and(input.flush().await).is_err() {
                    // The command stopped reading (it ended, or closed its stdin).
                    return;
                }
            }
            // End of podrun's input: the command sees the end of its own.
            let _ = input.shutdown().await;
        });
    }
    loop {
        let waiting = output.next().now_or_never();
        let chunk = match waiting {
            Some(chunk) => chunk,
            None => match tokio::time::timeout(output::PAUSE, output.next()).await {
                Ok(chunk) => chunk,
                Err(_) => match out(None) {
                    Ok(()) => output.next().await,
                    Err(e) => return Ok(Ended::OutputGone(e)),
                },
            },
        };
        let chunk = match chunk {
            Some(Ok(chunk)) => chunk,
            Some(Err(e)) => {
                let ended = broken_off(rt, &id, e).await?;
                return Ok(out(None).map_or_else(Ended::OutputGone, |()| ended));
            }
            None => break,
        };
        if let Err(e) = out(Some(&chunk)) {
            return Ok(Ended::OutputGone(e));
        }
    }
    if let Err(e) = out(None) {
        return Ok(Ended::OutputGone(e));
    }
    // The engine closes the output as the command ends; the exec's state can lag a moment.
    let mut delay = Duration::from_millis(5);
    loop {
        if let Some(code) = rt.exec_exit_code(&id).await? {
            return Ok(Ended::Exited(code));
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_millis(500));
    }
}

/// A session that broke off: Podman resets it as the command ends while input the command did
/// not read is still coming. The command's exit code when the engine says it has ended (asked
/// a few times, under 3 s in all, as its state can lag), else the session's error.
async fn broken_off<R: Runtime>(rt: &R, id: &str, e: RuntimeError) -> Result<Ended, RuntimeError> {
    let mut delay = Duration::from_millis(10);
    for _ in 0..8 {
        if let Ok(Some(code)) = rt.exec_exit_code(id).await {
            return Ok(Ended::Exited(code));
        }
        tokio::time::sleep(delay).await;
        delay *= 2;
    }
    Err(e)
}

/// Writes a chunk of the command's output where it belongs: stdout in batches, written as soon
/// as the output pauses (`None`: an interactive command's prompt has no newline to wait for),
/// stderr at once, after what came before it on stdout. Only stdout failing ends the session;
/// what the command writes to a closed stderr is dropped.
fn write_local(batch: &mut output::Batch, chunk: Option<&LogChunk>) -> Result<(), OutputError> {
    let Some(chunk) = chunk else { return batch.flush() };
    match chunk.stream {
        LogStream::Stdout => batch.out(&chunk.bytes),
        LogStream::Stderr => {
            batch.flush()?;
            output::err(&chunk.bytes);
            Ok(())
        }
    }
}

/// podrun's standard input, chunk by chunk as it is read; the channel closes at its end. A
/// plain thread reads it: a read blocked on a terminal cannot be cancelled, and a thread of the
/// async runtime's blocking pool would keep podrun from exiting until a key is pressed.
fn read_stdin() -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel(16);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; 32 * 1024];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    if tx.blocking_send(buf[..n].to_vec()).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    });
    rx
}

/// Gives the command's terminal podrun's size before a key reaches the command (no input is
/// read until it returns), so a command typed at once (`stty size`) sees it. The engine may
/// refuse a resize until the exec's process runs; as the Docker CLI, podrun tries again a few
/// times, 10 ms, 20 ms, ... apart (under 0.4 s in all).
async fn initial_size<R: Runtime>(rt: &R, exec_id: &str) {
    let Some(size) = tty::size() else { return };
    for attempt in 1..=9u64 {
        if attempt > 1 {
            tokio::time::sleep(Duration::from_millis(10 * (attempt - 1))).await;
        }
        match rt.exec_resize(exec_id, size).await {
            Ok(()) => return,
            Err(e) => tracing::debug!("resize of the exec's terminal failed (attempt {attempt}): {e}"),
        }
    }
}

/// Gives the command's terminal podrun's size again whenever podrun's terminal is resized
/// (SIGWINCH).
async fn follow_size<R: Runtime>(rt: Arc<R>, exec_id: String, mut winch: tokio::signal::unix::Signal) {
    while winch.recv().await.is_some() {
        if let Some(size) = tty::size() {
            if let Err(e) = rt.exec_resize(&exec_id, size).await {
                tracing::debug!("resize of the exec's terminal failed: {e}");
            }
        }
    }
}

/// A command's exit code as a process exit status: the low 8 bits, as the kernel keeps them.
fn exit_status(code: i64) -> u8 {
    u8::try_from(code & 0xff).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::fake::FakeRuntime;
    use crate::runtime::labels;
    use crate::status::engine_pods;
    use std::collections::BTreeMap;

    fn container(pod: &str, name: &str, role: &str, running: bool, extra: &[(&str, &str)]) -> Observed {
        let mut l: BTreeMap<String, String> = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAME, pod),
            (labels::POD_NAMESPACE, "default"),
            (labels::POD_UID, "u1"),
            (labels::CONTAINER_NAME, name),
            (labels::ROLE, role),
            (labels::ATTEMPT, "0"),
        ]
        .into_iter()
        .chain(extra.iter().copied())
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        l.insert(labels::SPEC_HASH.into(), "h".into());
        let state = if running {
            State::Running { started_at: Some("2026-11-30T10:00:00Z".into()) }
        } else {
            State::Exited { exit_code: 3, started_at: None, finished_at: None, oom_killed: false, error: None }
        };
        Observed {
            id: format!("id-{name}"),
            name: format!("podrun_default_{pod}_{name}_0"),
            labels: l,
            image: "busybox".into(),
            image_id: String::new(),
            state,
            ip: None,
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    fn pod(default: Option<&str>, apps: &[(&str, bool)]) -> ListedPod {
        let extra: Vec<(&str, &str)> = default.map(|d| (labels::DEFAULT_CONTAINER, d)).into_iter().collect();
        let mut all = vec![container("web", "POD", "infra", true, &extra)];
        all.extend(apps.iter().map(|(n, running)| container("web", n, "app", *running, &[])));
        all.push(container("web", "setup", "init", false, &[]));
        engine_pods::group(all).remove(0)
    }

    #[test]
    fn the_named_container_is_used_when_it_runs() {
        let p = pod(Some("a"), &[("a", true), ("b", true)]);
        assert_eq!(target(&p, Some("b")).unwrap().0, "b");
        assert_eq!(target(&p, Some("b")).unwrap().1.id, "id-b");
    }

    #[test]
    fn without_a_name_the_default_container_is_used() {
        let p = pod(Some("b"), &[("a", true), ("b", true)]);
        assert_eq!(target(&p, None).unwrap().0, "b");
        assert_eq!(p.defaulted_note("b").unwrap(), r#"Defaulted container "b" out of: a, b, setup (init)"#);
        // A pod applied before the label existed: its only app container, else a usage error.
        let single = pod(None, &[("a", true)]);
        assert_eq!(target(&single, None).unwrap().0, "a");
        let several = pod(None, &[("a", true), ("b", true)]);
        let Refusal::Usage(e) = target(&several, None).unwrap_err() else { panic!("not usage") };
        assert_eq!(e.to_string(), "a container name must be specified for pod web, choose one of: [a b]");
    }

    #[test]
    fn an_unknown_or_stopped_container_is_refused() {
        let p = pod(Some("a"), &[("a", true), ("b", false)]);
        let Refusal::Failed(e) = target(&p, Some("zz")).unwrap_err() else { panic!("usage") };
        assert_eq!(e.to_string(), r#"container "zz" is not valid for pod "web""#);
        let Refusal::Failed(e) = target(&p, Some("b")).unwrap_err() else { panic!("usage") };
        assert!(e.to_string().contains("exited with code 3"), "{e}");
        let Refusal::Failed(e) = target(&p, Some("setup")).unwrap_err() else { panic!("usage") };
        assert!(e.to_string().contains("exited with code 3"), "{e}");
    }

    fn fake_with_running() -> FakeRuntime {
        let rt = FakeRuntime::new();
        rt.insert(container("web", "a", "app", true, &[]));
        rt.insert(container("web", "b", "app", false, &[]));
        rt
    }

    #[tokio::test]
    async fn output_is_passed_on_and_the_exit_code_returned() {
        let rt = fake_with_running();
        let req = ExecRequest { cmd: vec!["echo".into(), "hi".into(), "there".into()], ..Default::default() };
        let session = rt.exec_attach("id-a", &req).await.unwrap();
        let mut got = Vec::new();
        let ended = attach(&rt, session, None, |c| {
            got.extend(c.cloned());
            Ok(())
        })
        .await
        .unwrap();
        assert!(matches!(ended, Ended::Exited(0)), "{ended:?}");
        assert_eq!(got, vec![LogChunk { stream: LogStream::Stdout, bytes: b"hi there\n".to_vec() }]);

        let req = ExecRequest { cmd: vec!["false".into()], stdin: true, ..Default::default() };
        let session = rt.exec_attach("id-a", &req).await.unwrap();
        let (tx, rx) = mpsc::channel(1);
        tx.send(b"input".to_vec()).await.unwrap();
        drop(tx);
        let ended = attach(&rt, session, Some(rx), |_| Ok(())).await.unwrap();
        assert!(matches!(ended, Ended::Exited(1)), "{ended:?}");
    }

    #[tokio::test]
    async fn a_reader_that_went_away_ends_the_session() {
        let rt = fake_with_running();
        let req = ExecRequest { cmd: vec!["echo".into(), "x".into()], ..Default::default() };
        let session = rt.exec_attach("id-a", &req).await.unwrap();
        let ended = attach(&rt, session, None, |_| Err(OutputError::Closed)).await.unwrap();
        assert!(matches!(ended, Ended::OutputGone(OutputError::Closed)), "{ended:?}");
    }

    #[tokio::test]
    async fn a_stopped_container_is_a_conflict() {
        let rt = fake_with_running();
        let req = ExecRequest { cmd: vec!["true".into()], ..Default::default() };
        assert!(matches!(rt.exec_attach("id-b", &req).await, Err(RuntimeError::Conflict { .. })));
    }

    #[test]
    fn exit_codes_keep_their_low_byte() {
        assert_eq!(exit_status(0), 0);
        assert_eq!(exit_status(127), 127);
        assert_eq!(exit_status(256 + 3), 3);
        assert_eq!(exit_status(-1), 255);
    }
}
