//! The one writer of podrun's standard output and standard error: everything podrun prints goes
//! through here, so a reader that went away or a full disk is met the same way by every command.
//!
//! - Standard output closed (EPIPE: `| head`, `| jq` that failed): the write fails with
//!   [`OutputError::Closed`], and that is recorded. The command stops printing, never its work
//!   (apply finishes or stops its pods as usual), and podrun then exits 141, quietly, as a
//!   classic tool killed by SIGPIPE does (Rust ignores SIGPIPE, so podrun sees EPIPE instead).
//! - Any other failure of standard output (ENOSPC: `> /dev/full`, a full disk): recorded the
//!   same way; podrun then says `cannot write to standard output: ...` and exits 1.
//! - Standard error: a failure is dropped. There is no one left to tell, and a pod is never
//!   failed for it.
//!
//! Once standard output has failed, later writes fail at once without trying, so a reader never
//! gets output with a hole in it.
//!
//! A stream relayed to standard output (a container's output: `logs`, `apply --logs`, `exec`)
//! goes through a [`Batch`]: its pieces gather in a bounded buffer written at once when it
//! fills, or when the stream pauses (nothing more for [`PAUSE`]), so many short lines cost one
//! write, and what is followed or typed at still shows as soon as it comes.

use std::io::{self, Write};
use std::sync::{Arc, OnceLock};

use futures_util::{FutureExt, Stream, StreamExt};

use crate::escape::{escape, escape_lines};

/// Why standard output can no longer be written.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OutputError {
    /// The reader went away (EPIPE).
    #[error("standard output was closed")]
    Closed,
    #[error("cannot write to standard output: {0}")]
    Failed(Arc<io::Error>),
}

/// Standard output, and its first failure if it had one.
static STDOUT: Stdout = Stdout::new();

/// Writes `bytes` to standard output at once (flushed: a followed container's output, or an
/// exec'd command's prompt, must show as it comes), whole (under the lock, so lines of
/// concurrent writers never mix).
pub fn out(bytes: &[u8]) -> Result<(), OutputError> {
    STDOUT.write(&mut io::stdout().lock(), bytes)
}

/// [`out`] for text.
pub fn print(text: &str) -> Result<(), OutputError> {
    out(text.as_bytes())
}

/// [`out`] for a line of text (the newline is added).
pub fn println(line: &str) -> Result<(), OutputError> {
    print(&format!("{line}\n"))
}

/// The most a [`Batch`] holds before it writes.
pub const BATCH_BYTES: usize = 64 * 1024;
/// How long a stream relayed through a [`Batch`] may have nothing new before the batch is
/// written: a stream handed over from another thread is often not ready at once between two
/// pieces, and a write at each such gap would be a write a line; a pause this short is not seen.
pub const PAUSE: std::time::Duration = std::time::Duration::from_millis(5);

/// Standard output in batches (see the module doc): whole pieces, so a piece (a line) of one
/// batch never mixes with another writer's. What is left is written when the batch is
/// dropped; a failure then is recorded as any other.
#[derive(Default)]
pub struct Batch {
    buf: Vec<u8>,
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Adds `bytes`, writing the batch first when they would overfill it (a piece bigger than
    /// the batch is written on its own).
    ///
    /// # Errors
    /// Standard output failed (see [`out`]).
    pub fn out(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        if self.buf.len() + bytes.len() > BATCH_BYTES {
            self.flush()?;
        }
        if bytes.len() >= BATCH_BYTES {
            return out(bytes);
        }
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(BATCH_BYTES);
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// Writes what the batch holds.
    ///
    /// # Errors
    /// Standard output failed (see [`out`]).
    pub fn flush(&mut self) -> Result<(), OutputError> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let written = out(&self.buf);
        self.buf.clear();
        written
    }

    /// The next item of `stream`; when none comes within [`PAUSE`], the batch is written
    /// first: the output of a stream that pauses shows while it waits.
    ///
    /// # Errors
    /// Standard output failed while the batch was written.
    pub async fn next<S: Stream + Unpin>(&mut self, stream: &mut S) -> Result<Option<S::Item>, OutputError> {
        if let Some(item) = stream.next().now_or_never() {
            return Ok(item);
        }
        if !self.buf.is_empty() {
            // `next` is cancel-safe: an item not taken within the pause stays in the stream.
            if let Ok(item) = tokio::time::timeout(PAUSE, stream.next()).await {
                return Ok(item);
            }
            self.flush()?;
        }
        Ok(stream.next().await)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        // A failure is recorded (`failure`), and the command ends with it.
        let _ = self.flush();
    }
}

/// Writes `bytes` to standard error at once; a failure is dropped.
pub fn err(bytes: &[u8]) {
    let mut e = io::stderr().lock();
    let _ = e.write_all(bytes).and_then(|()| e.flush());
}

/// [`err`] for a line of text (the newline is added).
pub fn eprintln(line: &str) {
    err(format!("{line}\n").as_bytes());
}

/// The failure of standard output so far, if there was one.
pub fn failure() -> Option<OutputError> {
    STDOUT.failed.get().cloned()
}

/// A command's result, made to tell of a failed standard output: a command that went on after
/// its output failed (apply finishing its pods) ends with that failure. An error of its own
/// says more, and is kept.
///
/// # Errors
/// The command's own error, else the failure of standard output.
pub fn settle(result: anyhow::Result<u8>) -> anyhow::Result<u8> {
    match (result, failure()) {
        (Ok(_), Some(e)) => Err(e.into()),
        (result, _) => result,
    }
}

/// Says what ended podrun on standard error (`podrun: ...`), unless it was only standard output
/// closing, which a reader that went away does not need to hear about. The error may quote a
/// manifest, a file name or an engine, so its control characters are escaped (its lines kept).
pub fn report_error(e: &anyhow::Error) {
    if !matches!(e.downcast_ref::<OutputError>(), Some(OutputError::Closed)) {
        eprintln(&escape_lines(&format!("podrun: {e:#}")));
    }
}

/// Prints what clap has to say instead of running a command (help and version on standard
/// output, usage errors on standard error), coloured as clap would colour it: only where that
/// stream shows colours. The arguments it quotes are escaped as every other line (`clap_text`).
///
/// # Errors
/// Standard output failed (closed, say) while help or the version was printed.
pub fn clap_message(e: clap::Error) -> Result<(), OutputError> {
    if e.use_stderr() {
        err(super::clap_text::render(e, console::colors_enabled_stderr()).as_bytes());
        Ok(())
    } else {
        print(&super::clap_text::render(e, console::colors_enabled()))
    }
}

/// The standard error writer for the tracing logger: it never fails (a logger whose writer
/// fails reports that on standard error itself, which would panic when that is closed). A log
/// line's fields may quote a manifest or an engine, and tracing escapes ESC but not a carriage
/// return or a newline: every control character is escaped here but the line's end (so the
/// logger must not colour its lines).
#[must_use]
pub fn log_writer() -> LogWriter {
    LogWriter
}

pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        err(log_line(buf).as_bytes());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One record of the logger (it writes each whole), escaped but for its final newline.
fn log_line(record: &[u8]) -> String {
    let text = String::from_utf8_lossy(record);
    let (line, end) = text.strip_suffix('\n').map_or((&*text, ""), |l| (l, "\n"));
    format!("{}{end}", escape(line))
}

/// A stream that remembers its first failure.
struct Stdout {
    failed: OnceLock<OutputError>,
}

impl Stdout {
    const fn new() -> Stdout {
        Stdout { failed: OnceLock::new() }
    }

    fn write(&self, w: &mut impl Write, bytes: &[u8]) -> Result<(), OutputError> {
        if let Some(e) = self.failed.get() {
            return Err(e.clone());
        }
        w.write_all(bytes).and_then(|()| w.flush()).map_err(|e| self.failed.get_or_init(|| classify(e)).clone())
    }
}

fn classify(e: io::Error) -> OutputError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        OutputError::Closed
    } else {
        OutputError::Failed(Arc::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails with `errno`, counting the attempts.
    struct Failing(i32, usize);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            self.1 += 1;
            Err(io::Error::from_raw_os_error(self.0))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_closed_and_a_full_disk_an_error_in_podruns_words() {
        let closed = Stdout::new();
        assert!(matches!(closed.write(&mut Failing(32, 0), b"x"), Err(OutputError::Closed)));
        let full = Stdout::new();
        let e = full.write(&mut Failing(28, 0), b"x").unwrap_err();
        assert_eq!(e.to_string(), "cannot write to standard output: No space left on device (os error 28)");
    }

    #[test]
    fn a_log_record_is_one_line_with_nothing_raw() {
        let record = b"WARN pod ns/p: image \x1b]0;t\x07\xc2\x9b2J\rfake\nline\n";
        assert_eq!(log_line(record), "WARN pod ns/p: image \\x1b]0;t\\x07\\u{9b}2J\\rfake\\nline\n");
        assert_eq!(log_line(b"no end"), "no end");
    }

    #[test]
    fn after_a_failure_nothing_more_is_tried() {
        let s = Stdout::new();
        let mut w = Failing(32, 0);
        assert!(s.write(&mut w, b"a").is_err());
        let mut ok = Vec::new();
        assert!(matches!(s.write(&mut ok, b"b"), Err(OutputError::Closed)));
        assert!(ok.is_empty());
        assert_eq!(w.1, 1);
        let fine = Stdout::new();
        fine.write(&mut ok, b"c").unwrap();
        assert_eq!(ok, b"c");
    }
}
