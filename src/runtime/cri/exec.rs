//! Commands in a running container: `ExecSync`, which returns the exit code and both outputs
//! once the command has ended.

use std::time::Duration;

use super::api;
use super::CriRuntime;
use crate::runtime::{ExecRequest, ExecSession, LogChunk, LogStream, NotSupported, RuntimeError};

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
    rt.channel.runtime.clone().exec_sync(req).await.map(tonic::Response::into_inner).map_err(|s| match s.code() {
        // Not running (or gone since it was chosen): as the Docker API's 409.
        tonic::Code::FailedPrecondition => RuntimeError::Conflict { what: format!("exec in container {id}") },
        _ => rt.error(&format!("exec in container {id}"), s),
    })
}

/// `podrun exec` without a terminal or input: the command runs to its end, then its output is
/// given (the CRI's streaming server, for a terminal and input, is not spoken yet).
pub(super) async fn attach(rt: &CriRuntime, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
    if req.tty || req.stdin {
        return Err(RuntimeError::Unsupported {
            what: format!("exec in container {id}"),
            why: NotSupported::Cri("give an exec a terminal or input yet (run it without -i and -t)"),
        });
    }
    let r = run(rt, id, &req.cmd, None).await?;
    let exec_id = rt.remember_exit(i64::from(r.exit_code));
    let chunks: Vec<Result<LogChunk, RuntimeError>> = [(LogStream::Stdout, r.stdout), (LogStream::Stderr, r.stderr)]
        .into_iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(stream, bytes)| Ok(LogChunk { stream, bytes }))
        .collect();
    Ok(ExecSession { id: exec_id, output: Box::pin(futures_util::stream::iter(chunks)), input: None })
}
