//! Commands run in a container: to their exit code, or attached (with a terminal or not).

use bollard::container::LogOutput;
use bollard::exec::{CreateExecOptions, ResizeExecOptions, StartExecOptions, StartExecResults};
use futures_util::StreamExt;

use super::exec_end;
use super::{raw, DockerRuntime};
use crate::runtime::{BadAnswer, Cause, ExecRequest, ExecSession, LogChunk, LogStream, RuntimeError, TermSize};

/// Runs `cmd` in container `id` to its exit code. The exec is created, started and waited for
/// in a task of its own, so a caller that stops waiting (a probe's timeout, a driver stopped)
/// never leaves it created and not started: the engine keeps such an exec, listed among the
/// container's `ExecIDs`, until the container is removed. One started whose caller went is
/// ended (`exec_end`), or ends on its own.
pub(super) async fn exec(rt: &DockerRuntime, id: &str, cmd: &[String]) -> Result<i64, RuntimeError> {
    let (rt, id, cmd) = (rt.clone(), id.to_owned(), cmd.to_vec());
    // Dropped with this call: the task hears its caller went.
    let (_waiting, gone) = tokio::sync::oneshot::channel::<()>();
    let what = format!("exec in container {id}");
    tokio::spawn(async move { exec_to_end(&rt, &id, &cmd, gone).await })
        .await
        .map_err(|e| RuntimeError::Client { what, source: Cause(std::sync::Arc::new(e)) })?
}

/// How often a command whose caller went is looked for, to be ended, before it is left to end
/// on its own: the engine may start its process a moment after the start call answered.
const END_TRIES: u32 = 10;

async fn exec_to_end(
    rt: &DockerRuntime,
    id: &str,
    cmd: &[String],
    mut gone: tokio::sync::oneshot::Receiver<()>,
) -> Result<i64, RuntimeError> {
    let what = format!("exec in container {id}");
    let opts = CreateExecOptions::<String> {
        cmd: Some(cmd.to_vec()),
        attach_stdout: Some(true),
        attach_stderr: Some(true),
        ..Default::default()
    };
    let exec = rt.docker.create_exec(id, opts).await.map_err(|e| rt.error(&what, e))?;
    // Attached, so the output ends when the command does; the output is not needed.
    if let StartExecResults::Attached { mut output, .. } =
        rt.docker.start_exec(&exec.id, None).await.map_err(|e| rt.error(&what, e))?
    {
        let ended = tokio::select! {
            () = async { while output.next().await.is_some() {} } => true,
            _ = &mut gone => false,
        };
        if !ended {
            // The caller stopped waiting: the command is ended too, as containerd's ExecSync
            // ends one at its timeout.
            for _ in 0..END_TRIES {
                if exec_end::end(rt, id, &exec.id).await {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            let why = std::io::Error::other("the caller stopped waiting");
            return Err(RuntimeError::Client { what, source: Cause(std::sync::Arc::new(why)) });
        }
    }
    let info = rt.docker.inspect_exec(&exec.id).await.map_err(|e| rt.error(&what, e))?;
    Ok(info.exit_code.unwrap_or(-1))
}

pub(super) async fn exec_attach(rt: &DockerRuntime, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
    let what = format!("exec in container {id}");
    let opts = CreateExecOptions::<String> {
        cmd: Some(req.cmd.clone()),
        attach_stdin: Some(req.stdin),
        attach_stdout: Some(true),
        attach_stderr: Some(true),
        tty: Some(req.tty),
        ..Default::default()
    };
    let exec = rt.docker.create_exec(id, opts).await.map_err(|e| rt.error(&what, e))?;
    if req.tty {
        // A terminal's output is raw bytes, which bollard would take for frames now and then.
        let (output, input) =
            raw::start_exec(&rt.dialer, &rt.endpoint.to_string(), &rt.api_version(), &exec.id).await?;
        return Ok(ExecSession { id: exec.id, output, input: req.stdin.then_some(input) });
    }
    let start = StartExecOptions { detach: false, tty: req.tty, output_capacity: None };
    let StartExecResults::Attached { output, input } =
        rt.docker.start_exec(&exec.id, Some(start)).await.map_err(|e| rt.error(&what, e))?
    else {
        return Err(RuntimeError::Protocol { what, why: BadAnswer::NotAttached });
    };
    let this = rt.clone();
    let output = output
        .filter_map(move |chunk| {
            let item = match chunk {
                Ok(LogOutput::StdErr { message }) => {
                    Some(Ok(LogChunk { stream: LogStream::Stderr, bytes: message.to_vec() }))
                }
                // A terminal's output (Console) is one stream: stdout.
                Ok(LogOutput::StdOut { message } | LogOutput::Console { message }) => {
                    Some(Ok(LogChunk { stream: LogStream::Stdout, bytes: message.to_vec() }))
                }
                Ok(LogOutput::StdIn { .. }) => None,
                Err(e) => Some(Err(this.error(&what, e))),
            };
            std::future::ready(item)
        })
        .boxed();
    Ok(ExecSession { id: exec.id, output, input: req.stdin.then_some(input) })
}

pub(super) async fn exec_resize(rt: &DockerRuntime, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
    let opts = ResizeExecOptions { height: size.rows, width: size.cols };
    rt.docker.resize_exec(exec_id, opts).await.map_err(|e| rt.error(&format!("resize exec {exec_id}"), e))
}

pub(super) async fn exec_exit_code(rt: &DockerRuntime, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
    let info = rt.docker.inspect_exec(exec_id).await.map_err(|e| rt.error(&format!("inspect exec {exec_id}"), e))?;
    Ok(if info.running == Some(true) { None } else { info.exit_code })
}
