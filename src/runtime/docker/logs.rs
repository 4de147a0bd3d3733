//! A container's output: read once, tailed, or followed line by line to its end.

use std::collections::VecDeque;

use bollard::container::LogOutput;
use bollard::query_parameters::LogsOptionsBuilder;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use super::retry::decoded;
use super::{raw, DockerRuntime};
use crate::runtime::{Followed, LineSplitter, LogChunk, LogLine, LogOptions, LogStream, RuntimeError};

impl DockerRuntime {
    /// A container's output as `opts` selects it, chunk by chunk: read raw for a container with
    /// a terminal (see [`raw`]), as bollard decodes the engine's frames otherwise. A failure is
    /// an item of the stream (a container that does not exist is `NotFound`).
    pub(super) fn log_chunks(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        let (this, id, opts) = (self.clone(), id.to_owned(), opts.clone());
        futures_util::stream::once(async move {
            let what = format!("logs of container {id}");
            let tty = match decoded(|| this.docker.inspect_container(&id, None)).await {
                Ok(c) => c.config.and_then(|c| c.tty).unwrap_or(false),
                Err(e) => return futures_util::stream::iter([Err(this.error(&what, e))]).boxed(),
            };
            if !tty {
                return this.decoded_logs(&id, &opts);
            }
            let secs = |t: std::time::SystemTime| t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            let query = format!(
                "stdout=1&stderr=1&follow={}&timestamps={}&tail={}&since={}",
                u8::from(opts.follow),
                u8::from(opts.timestamps),
                opts.tail.map_or_else(|| "all".to_owned(), |n| n.to_string()),
                opts.since.map_or(0, secs),
            );
            match raw::logs(&this.dialer, &this.endpoint.to_string(), &this.api_version(), &id, &query).await {
                Ok(s) => s,
                Err(e) => futures_util::stream::iter([Err(e)]).boxed(),
            }
        })
        .flatten()
        .boxed()
    }

    /// `log_chunks` for a container without a terminal: bollard's frame decoding.
    pub(super) fn decoded_logs(
        &self,
        id: &str,
        opts: &LogOptions,
    ) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        let tail = opts.tail.map_or_else(|| "all".to_owned(), |n| n.to_string());
        let mut b = LogsOptionsBuilder::default()
            .follow(opts.follow)
            .stdout(true)
            .stderr(true)
            .timestamps(opts.timestamps)
            .tail(&tail);
        if let Some(since) = opts.since {
            // The engine takes whole seconds; a time before 1970 or past 2038 means "all".
            let secs = since.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            b = b.since(i32::try_from(secs).unwrap_or(0));
        }
        let (this, what) = (self.clone(), format!("logs of container {id}"));
        self.docker
            .logs(id, Some(b.build()))
            .map(move |chunk| {
                let chunk = chunk.map_err(|e| this.error(&what, e))?;
                let stream = match chunk {
                    LogOutput::StdErr { .. } => LogStream::Stderr,
                    // A TTY container's output (Console) is one stream: stdout.
                    _ => LogStream::Stdout,
                };
                Ok(LogChunk { stream, bytes: chunk.into_bytes().to_vec() })
            })
            .boxed()
    }
}

/// Where `Runtime::logs_follow` is in a container's output.
struct FollowState {
    chunks: BoxStream<'static, Result<LogChunk, RuntimeError>>,
    rt: DockerRuntime,
    id: String,
    /// Per stream: stdout, stderr.
    splitters: [LineSplitter; 2],
    /// Bytes received so far, per stream.
    got: [usize; 2],
    /// Bytes still to skip, per stream, in the catch-up read.
    skip: [usize; 2],
    /// Lines split off but not yet handed out: one chunk may hold several.
    ready: VecDeque<Followed>,
    /// Whether the follow ended and the catch-up read has begun.
    caught_up: bool,
    ended: bool,
}

pub(super) async fn logs_tail(rt: &DockerRuntime, id: &str, lines: usize) -> Result<String, RuntimeError> {
    let opts = LogOptions { tail: Some(lines), ..LogOptions::default() };
    let mut out = String::new();
    let mut stream = rt.log_chunks(id, &opts);
    while let Some(chunk) = stream.next().await {
        out.push_str(&String::from_utf8_lossy(&chunk?.bytes));
    }
    Ok(out)
}

pub(super) fn logs_follow(rt: &DockerRuntime, id: &str) -> BoxStream<'static, Followed> {
    // since 0: everything the container wrote. podrun never restarts a container in place
    // (a restart is a new container), so that is its output since its start.
    let opts = LogOptions { follow: true, since: Some(std::time::UNIX_EPOCH), ..LogOptions::default() };
    let state = FollowState {
        chunks: rt.log_chunks(id, &opts),
        rt: rt.clone(),
        id: id.to_owned(),
        splitters: [LineSplitter::default(), LineSplitter::default()],
        got: [0, 0],
        skip: [0, 0],
        ready: VecDeque::new(),
        caught_up: false,
        ended: false,
    };
    futures_util::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(line) = st.ready.pop_front() {
                return Some((line, st));
            }
            if st.ended {
                return None;
            }
            match st.chunks.next().await {
                Some(Ok(LogChunk { stream, bytes })) => {
                    let i = usize::from(stream == LogStream::Stderr);
                    st.got[i] += bytes.len();
                    // In the catch-up read, what the follow gave already is skipped.
                    let n = st.skip[i].min(bytes.len());
                    st.skip[i] -= n;
                    if n > 0 {
                        st.ready.push_back(Followed::Skipped(n));
                    }
                    let lines = st.splitters[i].push(&bytes[n..]);
                    st.ready.extend(lines.into_iter().map(|line| Followed::Line(LogLine { stream, line })));
                }
                // The container stopped (or went away, or the engine did). The engine may
                // end a follow before the last of the output reached it (an unfinished last
                // line, typically), so the logs are read once more, past what was seen.
                Some(Err(_)) | None if !st.caught_up => {
                    st.caught_up = true;
                    st.skip = st.got;
                    st.chunks = st.rt.log_chunks(&st.id, &LogOptions::default());
                }
                // What was read is all there is, unfinished lines included.
                Some(Err(_)) | None => {
                    st.ended = true;
                    for (stream, i) in [(LogStream::Stdout, 0), (LogStream::Stderr, 1)] {
                        if let Some(line) = st.splitters[i].finish() {
                            st.ready.push_back(Followed::Line(LogLine { stream, line }));
                        }
                    }
                }
            }
        }
    })
    .boxed()
}
