//! Container logs as the runtime writes them: the CRI log format (`<RFC 3339 time> <stdout|stderr>
//! <P|F> <text>`, a long line split into `P` parts ending with an `F` one), read from the files
//! podrun asked the runtime to write, without following links.

use std::collections::VecDeque;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use futures_util::stream::BoxStream;
use tokio::io::AsyncReadExt;

use crate::runtime::{LogChunk, LogOptions, LogStream, RuntimeError};

/// How often a followed log is read again for what was written since.
const FOLLOW_POLL: Duration = Duration::from_millis(100);

/// One record of a CRI log file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<'a> {
    pub time: &'a str,
    pub stream: LogStream,
    /// Whether this ends a line (`F`), or is a part of a longer one (`P`).
    pub full: bool,
    pub text: &'a [u8],
}

/// One line of the file (without its newline), or None when it is not a CRI record.
pub fn parse(line: &[u8]) -> Option<Record<'_>> {
    let mut parts = line.splitn(4, |&b| b == b' ');
    let time = std::str::from_utf8(parts.next()?).ok()?;
    let stream = match parts.next()? {
        b"stdout" => LogStream::Stdout,
        b"stderr" => LogStream::Stderr,
        _ => return None,
    };
    // Tags are `:`-separated; the first says partial or full.
    let tag = parts.next()?;
    let full = tag.split(|&b| b == b':').next() != Some(b"P");
    Some(Record { time, stream, full, text: parts.next().unwrap_or_default() })
}

/// Cuts records into chunks as `opts` asks: a newline after each full line, the time before
/// each line when asked, nothing from before `since`.
#[derive(Debug, Default)]
struct Chunker {
    timestamps: bool,
    since: Option<SystemTime>,
    /// Whether the next record starts a line (the last one was full).
    at_line_start: bool,
    /// Whether the line under way is left out (written before `since`).
    skipping: bool,
}

impl Chunker {
    fn new(opts: &LogOptions) -> Chunker {
        Chunker { timestamps: opts.timestamps, since: opts.since, at_line_start: true, skipping: false }
    }

    fn chunk(&mut self, r: &Record) -> Option<LogChunk> {
        if self.at_line_start {
            self.skipping = match (self.since, crate::clock::parse_time(r.time)) {
                (Some(since), Some(t)) => t < since,
                _ => false,
            };
        }
        let start = self.at_line_start;
        self.at_line_start = r.full;
        if self.skipping {
            return None;
        }
        let mut bytes = Vec::with_capacity(r.text.len() + 40);
        if start && self.timestamps {
            bytes.extend_from_slice(r.time.as_bytes());
            bytes.push(b' ');
        }
        bytes.extend_from_slice(r.text);
        if r.full {
            bytes.push(b'\n');
        }
        Some(LogChunk { stream: r.stream, bytes })
    }
}

/// Opens podrun's log file of a container, never through a link.
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32 | rustix::fs::OFlags::CLOEXEC.bits() as i32)
        .open(path)
}

/// The chunks of the whole lines in `data`, and how many bytes of it were used (an unfinished
/// last line waits for more).
fn chunks_of(data: &[u8], chunker: &mut Chunker, out: &mut Vec<LogChunk>) -> usize {
    let mut used = 0;
    while let Some(i) = data[used..].iter().position(|&b| b == b'\n') {
        if let Some(c) = parse(&data[used..used + i]).and_then(|r| chunker.chunk(&r)) {
            out.push(c);
        }
        used += i + 1;
    }
    used
}

/// The last `n` lines of `chunks` (a line may be several chunks).
fn last_lines(chunks: Vec<LogChunk>, n: usize) -> Vec<LogChunk> {
    let mut kept: VecDeque<LogChunk> = VecDeque::new();
    let mut lines = 0;
    for c in chunks.into_iter().rev() {
        if c.bytes.ends_with(b"\n") {
            if lines == n {
                break;
            }
            lines += 1;
        }
        kept.push_front(c);
    }
    kept.into()
}

/// What the file holds now, as `opts` selects it (without following), and how far it was read.
pub fn read_all(path: &Path, opts: &LogOptions) -> std::io::Result<(Vec<LogChunk>, u64)> {
    let mut data = Vec::new();
    open(path)?.read_to_end(&mut data)?;
    let mut chunker = Chunker::new(opts);
    let mut out = Vec::new();
    let used = chunks_of(&data, &mut chunker, &mut out);
    if let Some(n) = opts.tail {
        out = last_lines(out, n);
    }
    Ok((out, used as u64))
}

/// The log at `path` as a stream: what it holds, then (following) what is written until
/// `running` says the container has stopped.
pub fn stream<F, Fut>(
    what: String,
    path: PathBuf,
    opts: LogOptions,
    running: F,
) -> BoxStream<'static, Result<LogChunk, RuntimeError>>
where
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<LogChunk, RuntimeError>>(64);
    tokio::spawn(async move {
        let (first, mut offset) = match read_all(&path, &opts) {
            Ok(r) => r,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // No output yet: the runtime makes the file when the container first writes.
                (Vec::new(), 0)
            }
            Err(e) => {
                let _ = tx
                    .send(Err(RuntimeError::Client { what, source: crate::runtime::Cause(std::sync::Arc::new(e)) }))
                    .await;
                return;
            }
        };
        for c in first {
            if tx.send(Ok(c)).await.is_err() {
                return;
            }
        }
        if !opts.follow {
            return;
        }
        let mut chunker = Chunker::new(&LogOptions { since: None, ..opts.clone() });
        let mut pending: Vec<u8> = Vec::new();
        loop {
            let still = running().await;
            let mut fresh = Vec::new();
            if let Ok(file) = open(&path) {
                let mut file = tokio::fs::File::from_std(file);
                if tokio::io::AsyncSeekExt::seek(&mut file, std::io::SeekFrom::Start(offset)).await.is_ok() {
                    let _ = file.read_to_end(&mut fresh).await;
                }
            }
            offset += fresh.len() as u64;
            pending.extend_from_slice(&fresh);
            let mut out = Vec::new();
            let used = chunks_of(&pending, &mut chunker, &mut out);
            pending.drain(..used);
            for c in out {
                if tx.send(Ok(c)).await.is_err() {
                    return;
                }
            }
            if !still {
                return;
            }
            tokio::time::sleep(FOLLOW_POLL).await;
        }
    });
    Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_read_as_the_runtime_writes_them() {
        let r = parse(b"2026-12-01T21:05:30.0718Z stdout F hello world").unwrap();
        assert_eq!(r.stream, LogStream::Stdout);
        assert!(r.full);
        assert_eq!(r.text, b"hello world");
        let p = parse(b"2026-12-01T21:05:30.07Z stderr P part").unwrap();
        assert!(!p.full);
        assert_eq!(parse(b"2026-12-01T21:05:30Z stdout F ").unwrap().text, b"");
        assert_eq!(parse(b"garbage"), None);
    }

    #[test]
    fn partial_lines_join_and_tail_counts_whole_lines() {
        let data = b"2026-12-01T00:00:01Z stdout F one\n\
                     2026-12-01T00:00:02Z stdout P tw\n\
                     2026-12-01T00:00:02Z stdout F o\n\
                     2026-12-01T00:00:03Z stderr F three\n\
                     2026-12-01T00:00:04Z stdout F unfini";
        let mut out = Vec::new();
        let used = chunks_of(data, &mut Chunker::new(&LogOptions::default()), &mut out);
        assert_eq!(used, data.len() - "2026-12-01T00:00:04Z stdout F unfini".len());
        let text: Vec<u8> = out.iter().flat_map(|c| c.bytes.clone()).collect();
        assert_eq!(text, b"one\ntwo\nthree\n");
        let tail: Vec<u8> = last_lines(out, 2).iter().flat_map(|c| c.bytes.clone()).collect();
        assert_eq!(tail, b"two\nthree\n");
    }

    #[test]
    fn timestamps_and_since_apply_per_line() {
        let data =
            b"2026-12-01T00:00:01Z stdout F old\n2026-12-01T00:00:05Z stdout P ne\n2026-12-01T00:00:06Z stdout F w\n";
        let opts = LogOptions {
            timestamps: true,
            since: crate::clock::parse_time("2026-12-01T00:00:03Z"),
            ..Default::default()
        };
        let mut out = Vec::new();
        chunks_of(data, &mut Chunker::new(&opts), &mut out);
        let text: Vec<u8> = out.iter().flat_map(|c| c.bytes.clone()).collect();
        assert_eq!(String::from_utf8(text).unwrap(), "2026-12-01T00:00:05Z new\n");
    }
}
