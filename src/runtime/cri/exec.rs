//! Commands in a running container: `ExecSync`, which returns the exit code and both outputs
//! once the command has ended, and `Exec`, whose URL on the runtime's streaming server gives
//! the command's output as it comes, its input and its terminal (see `stream`).

use std::time::Duration;

use super::api;
use super::spdy_exec;
use super::stream;
use super::CriRuntime;
use crate::runtime::{ExecRequest, ExecSession, RuntimeError};

/// The output and exit code of `cmd` in container `id`. `timeout`: the runtime kills the
/// command after it (None: no limit).
pub(super) async fn run(
    rt: &CriRuntime,
    id: &str,
    cmd: &[String],
    timeout: Option<Duration>,
) -> Result<api::ExecSyncResponse, RuntimeError> {
    let req = api::ExecSyncRequest {
        container_id: id.to_owned(),
        cmd: cmd.to_vec(),
        timeout: timeout.map_or(0, |t| i64::try_from(t.as_secs().max(1)).unwrap_or(i64::MAX)),
    };
    rt.channel.runtime.clone().exec_sync(req).await.map(tonic::Response::into_inner).map_err(|s| exec_error(rt, id, s))
}

/// A refused exec as podrun's error.
fn exec_error(rt: &CriRuntime, id: &str, s: tonic::Status) -> RuntimeError {
    match s.code() {
        // Not running (or gone since it was chosen): as the Docker API's 409.
        tonic::Code::FailedPrecondition => RuntimeError::Conflict { what: format!("exec in container {id}") },
        _ => rt.error(&format!("exec in container {id}"), s),
    }
}

/// `podrun exec`, as kubectl runs it: `Exec` for a URL, then the session on the streaming
/// server over SPDY (which can tell the command its input ended), with a terminal (`tty`: one
/// output stream) and input when asked. A server that refuses SPDY gets a WebSocket, on a new
/// URL (the first is used up). The exit code is kept for `exec_exit_code` as the status brings
/// it.
pub(super) async fn attach(rt: &CriRuntime, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
    let what = format!("exec in container {id}");
    let exec_id = rt.execs.new_id();
    let shape = spdy_exec::Shape {
        // A terminal without input loses the command's output more often than not (containerd
        // 1.6: most `exec -t -- tty` printed nothing): its input is asked for too, and never
        // written to nor closed, which the command cannot tell from none.
        stdin: req.stdin || req.tty,
        input: req.stdin,
        tty: req.tty,
    };
    let url = exec_url(rt, id, req, shape).await?;
    let session = match spdy_exec::open(&url, &exec_id, &what, shape, &rt.execs).await? {
        spdy_exec::Opened::Session(session) => session,
        spdy_exec::Opened::Refused => {
            let url = exec_url(rt, id, req, shape).await?;
            stream::open(&url, &exec_id, &what, req.stdin, req.tty, &rt.execs).await?
        }
    };
    Ok(ExecSession { id: exec_id, output: session.output, input: session.input })
}

/// `Exec`'s one-use URL for the command of `req`.
async fn exec_url(
    rt: &CriRuntime,
    id: &str,
    req: &ExecRequest,
    shape: spdy_exec::Shape,
) -> Result<String, RuntimeError> {
    let response = rt
        .channel
        .runtime
        .clone()
        .exec(api::ExecRequest {
            container_id: id.to_owned(),
            cmd: req.cmd.clone(),
            tty: shape.tty,
            stdin: shape.stdin,
            stdout: true,
            // A terminal's output is one stream.
            stderr: !shape.tty,
        })
        .await
        .map_err(|s| exec_error(rt, id, s))?;
    Ok(response.into_inner().url)
}
