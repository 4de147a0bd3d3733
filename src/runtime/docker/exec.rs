//! Commands run in a container: to their exit code, or attached (with a terminal or not).

use bollard::container::LogOutput;
use bollard::exec::{CreateExecOptions, ResizeExecOptions, StartExecOptions, StartExecResults};
use futures_util::StreamExt;

use super::exec_end::EndOnDrop;
use super::{raw, DockerRuntime};
use crate::runtime::{BadAnswer, ExecRequest, ExecSession, LogChunk, LogStream, RuntimeError, TermSize};

pub(super) async fn exec(rt: &DockerRuntime, id: &str, cmd: &[String]) -> Result<i64, RuntimeError> {
    let what = format!("exec in container {id}");
    let opts = CreateExecOptions::<String> {
        cmd: Some(cmd.to_vec()),
        attach_stdout: Some(true),
        attach_stderr: Some(true),
        ..Default::default()
    };
    let exec = rt.docker.create_exec(id, opts).await.map_err(|e| rt.error(&what, e))?;
    // A caller that stops waiting (a probe's timeout) ends the command too.
    let end = EndOnDrop::new(rt, id, &exec.id);
    // Attached, so the call returns when the command ends; its output is not needed.
    if let StartExecResults::Attached { mut output, .. } =
        rt.docker.start_exec(&exec.id, None).await.map_err(|e| rt.error(&what, e))?
    {
        while output.next().await.is_some() {}
    }
    end.done();
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
