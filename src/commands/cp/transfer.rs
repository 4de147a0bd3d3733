//! The engine's end of `podrun cp`: a tar archive to or from a container, chunk by chunk. The
//! Docker API (Docker, Podman) copies through its archive calls, which work on a container
//! that exited too; a CRI runtime has no such call, so the copy runs `tar` in the running
//! container through exec, as kubectl does.

use std::time::Duration;

use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;

use crate::runtime::engine::Engine;
use crate::runtime::{ContainerRuntime, ExecRequest, LogStream, RuntimeError, StreamingRuntime, UploadStream};

/// How much of a command's stderr is kept to say why it failed.
const MAX_STDERR: usize = 4096;
/// How long `test -d` may take in the container (kubectl's bound).
const DIR_CHECK: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Engine(#[from] RuntimeError),
    /// `tar` in the container failed: what it wrote on stderr, then kubectl's line.
    #[error("{stderr}command terminated with exit code {code}")]
    Exec { code: i64, stderr: String },
    #[error("the engine gave no exit code for the copy's tar command")]
    NoExitCode,
}

/// An archive's bytes as they come.
pub type Bytes = BoxStream<'static, Result<Vec<u8>, CopyError>>;

/// Where an archive comes from or goes to: a container, by the archive API or by exec.
#[derive(Clone)]
pub struct Container {
    pub rt: Engine,
    pub id: String,
    /// Whether the copy runs `tar` through exec (a CRI runtime).
    pub exec: bool,
}

impl Container {
    /// The archive of `path`: `None` when the archive API finds no such path (through exec,
    /// `tar`'s own error ends the stream).
    pub async fn download(&self, path: &str) -> Result<Option<Bytes>, CopyError> {
        if self.exec {
            let cmd = ["tar", "cf", "-", path].map(str::to_owned).to_vec();
            return Ok(Some(self.exec_output(cmd, None).await?));
        }
        let stream = self.rt.get_archive_stream(&self.id, path).await?;
        Ok(stream.map(|s| s.map(|chunk| chunk.map_err(CopyError::Engine)).boxed()))
    }

    /// Extracts the archive `tar` into the directory `dir`; `no_preserve` as kubectl's.
    pub async fn upload(&self, dir: &str, tar: UploadStream, no_preserve: bool) -> Result<(), CopyError> {
        if !self.exec {
            return Ok(self.rt.put_archive_stream(&self.id, dir, tar).await?);
        }
        let mut cmd: Vec<String> = if no_preserve {
            ["tar", "--no-same-permissions", "--no-same-owner", "-xmf", "-"].map(str::to_owned).to_vec()
        } else {
            ["tar", "-xmf", "-"].map(str::to_owned).to_vec()
        };
        cmd.extend(["-C".to_owned(), dir.to_owned()]);
        let mut output = self.exec_output(cmd, Some(tar)).await?;
        while let Some(chunk) = output.next().await {
            chunk?;
        }
        Ok(())
    }

    /// Whether `path` is a directory in the container (following no link): kubectl's
    /// `test -d` through exec, the type of the archive's first entry otherwise.
    pub async fn is_dir(&self, path: &str) -> Result<bool, CopyError> {
        if self.exec {
            let cmd = ["test", "-d", path].map(str::to_owned).to_vec();
            return Ok(self.rt.exec(&self.id, &cmd, Some(DIR_CHECK)).await? == 0);
        }
        match self.first_type(path).await? {
            Some(b'5') => Ok(true),
            // A link (Docker archives it as the link, Podman as what it leads to): with a
            // slash, Docker archives what it leads to, and refuses a file.
            Some(b'2') => {
                let through = format!("{}/", path.trim_end_matches('/'));
                match self.first_type(&through).await {
                    Ok(kind) => Ok(kind == Some(b'5')),
                    Err(CopyError::Engine(e @ RuntimeError::Unreachable { .. })) => Err(e.into()),
                    Err(_) => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }

    /// The type flag of the first entry of `path`'s archive; `None` when there is no such path.
    async fn first_type(&self, path: &str) -> Result<Option<u8>, CopyError> {
        let Some(mut stream) = self.rt.get_archive_stream(&self.id, path).await? else { return Ok(None) };
        let mut head = Vec::with_capacity(512);
        while head.len() < 512 {
            match stream.next().await {
                Some(chunk) => head.extend_from_slice(&chunk?),
                None => break,
            }
        }
        // A header's type flag is its byte 156.
        Ok((head.len() >= 512).then(|| head[156]))
    }

    /// A command's stdout as a stream, `input` written to its stdin; a failure of the command
    /// ends the stream with `CopyError::Exec`.
    async fn exec_output(&self, cmd: Vec<String>, input: Option<UploadStream>) -> Result<Bytes, CopyError> {
        let req = ExecRequest { cmd, tty: false, stdin: input.is_some() };
        let session = self.rt.exec_attach(&self.id, &req).await?;
        if let (Some(mut stdin), Some(mut input)) = (session.input, input) {
            tokio::spawn(async move {
                while let Some(Ok(chunk)) = input.next().await {
                    if stdin.write_all(&chunk).await.is_err() {
                        return;
                    }
                }
                let _ = stdin.shutdown().await;
            });
        }
        let state = Running { rt: self.rt.clone(), id: session.id, output: session.output, stderr: Vec::new() };
        Ok(futures_util::stream::unfold(Some(state), next_output).boxed())
    }
}

/// An exec whose output is being read.
struct Running {
    rt: Engine,
    id: String,
    output: BoxStream<'static, Result<crate::runtime::LogChunk, RuntimeError>>,
    stderr: Vec<u8>,
}

/// The command's next chunk of stdout; at the end of its output, its exit status.
async fn next_output(state: Option<Running>) -> Option<(Result<Vec<u8>, CopyError>, Option<Running>)> {
    let mut st = state?;
    loop {
        match st.output.next().await {
            Some(Ok(chunk)) if chunk.stream == LogStream::Stdout => return Some((Ok(chunk.bytes), Some(st))),
            Some(Ok(chunk)) => {
                let room = MAX_STDERR.saturating_sub(st.stderr.len());
                st.stderr.extend_from_slice(&chunk.bytes[..chunk.bytes.len().min(room)]);
            }
            Some(Err(e)) => return Some((Err(e.into()), None)),
            None => {
                return match exit_code(&st.rt, &st.id).await {
                    Ok(0) => None,
                    Ok(code) => {
                        let stderr = String::from_utf8_lossy(&st.stderr).into_owned();
                        Some((Err(CopyError::Exec { code, stderr }), None))
                    }
                    Err(e) => Some((Err(e), None)),
                };
            }
        }
    }
}

/// The exit code of an exec whose output ended: the engine's state can lag a moment.
async fn exit_code(rt: &Engine, id: &str) -> Result<i64, CopyError> {
    let mut delay = Duration::from_millis(5);
    for _ in 0..40 {
        if let Some(code) = rt.exec_exit_code(id).await? {
            return Ok(code);
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_millis(500));
    }
    Err(CopyError::NoExitCode)
}
