//! Commands in a running container: `ExecSync`, which returns the exit code and both outputs
//! once the command has ended, and `Exec`, whose URL on the runtime's streaming server gives
//! the command's output as it comes, its input and its terminal (see `stream`).

use std::time::Duration;

use super::api;
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
/// server, with a terminal (`tty`: one output stream) and input when asked. The exit code is
/// kept for `exec_exit_code` as the status message brings it.
pub(super) async fn attach(rt: &CriRuntime, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
    let what = format!("exec in container {id}");
    let url = rt
        .channel
        .runtime
        .clone()
        .exec(api::ExecRequest {
            container_id: id.to_owned(),
            cmd: req.cmd.clone(),
            tty: req.tty,
            // A terminal without input loses the command's output more often than not
            // (containerd 1.6: most `exec -t -- tty` printed nothing): its input is asked for
            // too, and never written to, which the command cannot tell from none.
            stdin: req.stdin || req.tty,
            stdout: true,
            // A terminal's output is one stream.
            stderr: !req.tty,
        })
        .await
        .map_err(|s| exec_error(rt, id, s))?
        .into_inner()
        .url;
    let exec_id = rt.execs.new_id();
    let session = stream::open(&url, &exec_id, &what, req.stdin, req.tty, &rt.execs).await?;
    Ok(ExecSession { id: exec_id, output: session.output, input: session.input })
}
