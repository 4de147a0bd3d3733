//! Container logs as the runtime writes them: the CRI log format (`<RFC 3339 time> <stdout|stderr>
//! <P|F> <text>`, a long line split into `P` parts ending with an `F` one), read from the files
//! podrun asked the runtime to write, without following links.
//!
//! A log is read in blocks of [`BLOCK`] bytes and handed on record by record through a bounded
//! channel, so memory stays the same whatever its size; `--tail N` finds where its last N lines
//! start by reading blocks backwards from the end. A log rotated under `--supervise`
//! ([`super::rotate`]) is its rotated files, oldest first, then the current one; a follower
//! that finds the current file renamed reads the old one to its end and goes on in the new.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use futures_util::stream::BoxStream;
use tokio::sync::mpsc::Sender;

use crate::runtime::{LogChunk, LogOptions, LogStream, RuntimeError};

/// How often a followed log is read again for what was written since.
const FOLLOW_POLL: Duration = Duration::from_millis(100);
/// How many polls a stopped container's log may keep growing for (see `settle`): 5 s at most.
const SETTLE_POLLS: usize = 50;
/// How many polls in a row must find a stopped container's log unchanged before it ends.
const SETTLE_QUIET: usize = 3;
/// How much of a file is read at once.
const BLOCK: usize = 64 * 1024;
/// The longest record kept while its end is awaited: the runtime splits lines at 16 KiB, so
/// anything longer is not a record and is skipped to the next newline.
const MAX_RECORD: usize = 1024 * 1024;
/// How much of a record is read to tell a full line from a part (time, stream and tag).
const HEADER: usize = 96;

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
pub(super) fn open(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32 | rustix::fs::OFlags::CLOEXEC.bits() as i32)
        .open(path)
}

/// The rotated files of the log at `path` (`<name>.<timestamp>`, as [`super::rotate`] and the
/// kubelet name them), oldest first. None when the folder does not exist.
pub(super) fn rotated(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Ok(Vec::new());
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry?;
        let Some(file) = entry.file_name().to_str().map(str::to_owned) else { continue };
        let stamp = file.strip_prefix(name).and_then(|r| r.strip_prefix('.'));
        if stamp.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'-')) {
            found.push(file);
        }
    }
    // The timestamp's layout sorts as time does.
    found.sort();
    Ok(found.into_iter().map(|f| dir.join(f)).collect())
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

/// Cuts blocks of a log into chunks, keeping an unfinished record for the next block.
struct Reader {
    chunker: Chunker,
    pending: Vec<u8>,
    /// Whether the bytes up to the next newline are skipped (they were not a record).
    junk: bool,
}

impl Reader {
    fn feed(&mut self, mut data: &[u8], out: &mut Vec<LogChunk>) {
        if self.junk {
            let Some(i) = data.iter().position(|&b| b == b'\n') else { return };
            data = &data[i + 1..];
            self.junk = false;
        }
        self.pending.extend_from_slice(data);
        let used = chunks_of(&self.pending, &mut self.chunker, out);
        self.pending.drain(..used);
        if self.pending.len() > MAX_RECORD {
            self.pending = Vec::new();
            self.junk = true;
        }
    }
}

/// Whether the record at `at` (its newline at `end`) is a full line, or the last part of one.
fn full_record(file: &File, at: u64, end: u64) -> std::io::Result<bool> {
    let mut head = [0u8; HEADER];
    let n = usize::try_from(end - at).map_or(HEADER, |n| n.min(HEADER));
    file.read_exact_at(&mut head[..n], at)?;
    Ok(parse(&head[..n]).is_some_and(|r| r.full))
}

/// Where the last `need - 1` lines of `file` (its first `len` bytes) start: just past the
/// newline of the `need`-th full record from the end, read backwards a block at a time. When
/// the file has fewer, 0 and how many full records it has.
fn tail_start(file: &File, len: u64, need: usize) -> std::io::Result<(u64, usize)> {
    let mut block = vec![0u8; BLOCK];
    let mut found = 0;
    let mut end = len;
    // The newline that ends the record whose start is being looked for.
    let mut record_end: Option<u64> = None;
    loop {
        let start = end.saturating_sub(BLOCK as u64);
        let buf = &mut block[..usize::try_from(end - start).unwrap_or(BLOCK)];
        file.read_exact_at(buf, start)?;
        let newlines = buf.iter().enumerate().rev().filter(|(_, &b)| b == b'\n').map(|(i, _)| start + i as u64);
        // The start of the file ends the search as a newline before it would.
        let bounds: Vec<u64> = newlines.collect();
        let last = (start == 0).then_some(None);
        for p in bounds.into_iter().map(Some).chain(last) {
            if let Some(e) = record_end {
                let at = p.map_or(0, |p| p + 1);
                if at < e && full_record(file, at, e)? {
                    found += 1;
                    if found == need {
                        return Ok((e + 1, found));
                    }
                }
            }
            record_end = p;
        }
        if start == 0 {
            return Ok((0, found));
        }
        end = start;
    }
}

/// Where `--tail n` starts among `files` (oldest first): the file and the offset in it.
fn tail_position(files: &[PathBuf], n: usize) -> std::io::Result<(usize, u64)> {
    let mut need = n + 1;
    for (i, path) in files.iter().enumerate().rev() {
        let file = match open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        let len = file.metadata()?.len();
        let (at, found) = tail_start(&file, len, need)?;
        if found == need {
            return Ok((i, at));
        }
        need -= found;
    }
    Ok((0, 0))
}

/// Sends what `file` holds from where it is to its end, a block at a time. False once no one
/// listens.
async fn send_rest(
    file: &mut File,
    reader: &mut Reader,
    tx: &Sender<Result<LogChunk, RuntimeError>>,
) -> std::io::Result<bool> {
    let mut block = vec![0u8; BLOCK];
    loop {
        let n = file.read(&mut block)?;
        if n == 0 {
            return Ok(true);
        }
        let mut out = Vec::new();
        reader.feed(&block[..n], &mut out);
        for c in out {
            if tx.send(Ok(c)).await.is_err() {
                return Ok(false);
            }
        }
    }
}

/// Whether `path` now names a file other than `file` (the log was rotated: renamed, and the
/// runtime writes a new one), or none.
fn replaced(path: &Path, file: &File) -> bool {
    match (std::fs::symlink_metadata(path), file.metadata()) {
        (Ok(now), Ok(open)) => now.ino() != open.ino() || now.dev() != open.dev(),
        (Err(_), _) => false,
        (_, Err(_)) => true,
    }
}

/// The log at `path` as a stream: what it holds (its rotated files first), then (following)
/// what is written until `running` says the container has stopped.
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
        if let Err(e) = send_log(&path, &opts, running, &tx).await {
            let _ = tx
                .send(Err(RuntimeError::Client { what, source: crate::runtime::Cause(std::sync::Arc::new(e)) }))
                .await;
        }
    });
    Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)))
}

async fn send_log<F, Fut>(
    path: &Path,
    opts: &LogOptions,
    running: F,
    tx: &Sender<Result<LogChunk, RuntimeError>>,
) -> std::io::Result<()>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let mut files = rotated(path)?;
    files.push(path.to_owned());
    let (first, mut offset) = match opts.tail {
        Some(n) => tail_position(&files, n)?,
        None => (0, 0),
    };
    let mut reader = Reader { chunker: Chunker::new(opts), pending: Vec::new(), junk: false };
    let mut current = None;
    for (i, p) in files.iter().enumerate().skip(first) {
        let mut file = match open(p) {
            Ok(f) => f,
            // Rotated away meanwhile, or (the current one) not written yet: the runtime makes
            // the file when the container first writes.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(std::mem::take(&mut offset)))?;
        if !send_rest(&mut file, &mut reader, tx).await? {
            return Ok(());
        }
        if i + 1 < files.len() {
            // A rotated file ends with a whole record; nothing carries over.
            reader.pending.clear();
        } else {
            current = Some(file);
        }
    }
    if !opts.follow {
        return Ok(());
    }
    loop {
        let still = running().await;
        loop {
            let Some(file) = current.as_mut() else {
                current = match open(path) {
                    Ok(f) => Some(f),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    Err(e) => return Err(e),
                };
                if current.is_none() {
                    break;
                }
                continue;
            };
            if !send_rest(file, &mut reader, tx).await? {
                return Ok(());
            }
            if !replaced(path, file) {
                break;
            }
            // Rotated: what the runtime wrote before it reopened is read above; the rest is in
            // the new file.
            if !send_rest(file, &mut reader, tx).await? {
                return Ok(());
            }
            reader.pending.clear();
            current = None;
        }
        if !still {
            return settle(current.as_mut(), &mut reader, tx).await;
        }
        tokio::time::sleep(FOLLOW_POLL).await;
    }
}

/// Reads what a stopped container's log file still gains. The runtime says the container has
/// stopped once its process is gone, while its shim may still be copying the last output from
/// the pipes into the file (stdout and stderr each on their own): the stream ends once the file
/// has not grown for `SETTLE_QUIET` polls, or after `SETTLE_POLLS`.
async fn settle(
    file: Option<&mut File>,
    reader: &mut Reader,
    tx: &Sender<Result<LogChunk, RuntimeError>>,
) -> std::io::Result<()> {
    let Some(file) = file else { return Ok(()) };
    let mut quiet = 0;
    for _ in 0..SETTLE_POLLS {
        let before = std::io::Seek::stream_position(file)?;
        tokio::time::sleep(FOLLOW_POLL).await;
        if !send_rest(file, reader, tx).await? {
            break;
        }
        quiet = if std::io::Seek::stream_position(file)? == before { quiet + 1 } else { 0 };
        if quiet == SETTLE_QUIET {
            break;
        }
    }
    Ok(())
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
    }

    /// What `stream` gives of `path` with `opts`, without following.
    async fn read(path: &Path, opts: LogOptions) -> Vec<u8> {
        let mut s = stream(String::new(), path.to_owned(), opts, || async { false });
        let mut out = Vec::new();
        while let Some(c) = futures_util::StreamExt::next(&mut s).await {
            out.extend(c.unwrap().bytes);
        }
        out
    }

    fn record(i: usize, tag: &str, text: &str) -> String {
        format!("2026-12-01T00:00:{:02}.{i}Z stdout {tag} {text}\n", i % 60)
    }

    #[tokio::test]
    async fn tail_reads_from_the_end_across_blocks_and_rotated_files() {
        let dir = crate::test_support::TempDir::new("cri-logs");
        let path = dir.join("0.log");
        // Lines long enough that a few fill a block; one split into parts across a block's edge.
        let mut old = String::new();
        for i in 0..50 {
            old += &record(i, "F", &format!("old {i} {}", "x".repeat(3000)));
        }
        std::fs::write(dir.join("0.log.20261201-000000"), &old).unwrap();
        let mut cur = String::new();
        for i in 0..3 {
            cur += &record(i, "F", &format!("new {i}"));
        }
        cur += &record(3, "P", &"p".repeat(BLOCK));
        cur += "garbage line\n";
        cur += &record(4, "F", "end");
        cur += "2026-12-01T00:00:05Z stdout F unfinished";
        std::fs::write(&path, &cur).unwrap();
        let text = |n| {
            let path = path.clone();
            async move { String::from_utf8(read(&path, LogOptions { tail: Some(n), ..Default::default() }).await).unwrap() }
        };
        assert_eq!(text(1).await, "p".repeat(BLOCK) + "end\n");
        assert_eq!(text(2).await, "new 2\n".to_owned() + &"p".repeat(BLOCK) + "end\n");
        let five = text(5).await;
        assert!(five.starts_with(&format!("old 49 {}\nnew 0\n", "x".repeat(3000))), "{}", &five[..40]);
        let all = String::from_utf8(read(&path, LogOptions::default()).await).unwrap();
        assert_eq!(text(1000).await, all);
        assert_eq!(all.lines().count(), 54);
        assert!(all.starts_with("old 0 "));
        assert_eq!(text(0).await, "");
    }

    #[test]
    fn rotated_files_are_podruns_names_only_oldest_first() {
        let dir = crate::test_support::TempDir::new("cri-rotated");
        for f in [
            "0.log",
            "0.log.20261201-000002",
            "0.log.20261201-000001",
            "0.log.x",
            "0.log.1.gz",
            "1.log.20261201-000000",
        ] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let names: Vec<_> =
            rotated(&dir.join("0.log")).unwrap().iter().map(|p| p.file_name().unwrap().to_owned()).collect();
        assert_eq!(names, ["0.log.20261201-000001", "0.log.20261201-000002"]);
    }

    #[test]
    fn a_run_without_newlines_is_skipped_in_bounded_memory() {
        let mut r = Reader { chunker: Chunker::new(&LogOptions::default()), pending: Vec::new(), junk: false };
        let mut out = Vec::new();
        for _ in 0..40 {
            r.feed(&vec![b'z'; BLOCK], &mut out);
            assert!(r.pending.len() <= MAX_RECORD + BLOCK);
        }
        r.feed(b"zz\n2026-12-01T00:00:01Z stdout F after\n", &mut out);
        assert_eq!(out, [LogChunk { stream: LogStream::Stdout, bytes: b"after\n".to_vec() }]);
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
