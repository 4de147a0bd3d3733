//! An exec on the runtime's streaming server over SPDY/3.1, as kubectl's SPDY client speaks
//! it: an HTTP/1.1 upgrade that names `v4.channel.k8s.io`, then one stream per channel, each
//! opened by podrun with a `streamtype` header (error, stdin, stdout, stderr, resize). The
//! error stream brings the command's status, a JSON `metav1.Status`. Unlike a WebSocket, a
//! stream half-closes: the end of input reaches the command as a DATA frame with FIN on the
//! stdin stream.
//!
//! Flow control: podrun gives the server's output back its window as it is taken. The servers
//! (Go's spdystream) neither send WINDOW_UPDATE nor read it, and TCP alone holds them back, so
//! the server's window is kept to only once the server shows it keeps one (a SETTINGS with an
//! initial window, or a WINDOW_UPDATE): kept from the start, the input would stop at 64 KiB.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::stream::{self, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::{mpsc, Notify};

use super::spdy::{self, Frame};
use super::stream::{dial, outcome, read_head, Execs, Outcome, Resizer, Session, PROTOCOL};
use crate::runtime::{Cause, LogChunk, LogStream, RuntimeError, Unreachability};

/// The streams podrun opens, in the order kubectl opens them (client streams are odd).
const ERROR: u32 = 1;
const STDIN: u32 = 3;
const STDOUT: u32 = 5;
const STDERR: u32 = 7;
pub const RESIZE: u32 = 9;
/// The most of a status taken (it is a short JSON object).
const MAX_STATUS: usize = 64 * 1024;
/// Control frames waiting to be written at most (pings answered, streams refused).
const MAX_CONTROL: usize = 16;

/// What opening a session gave.
pub enum Opened {
    Session(Session),
    /// The server does not take SPDY here: a WebSocket may serve, on a new URL (this one was
    /// used up).
    Refused,
}

/// Which streams a session opens: they must match the `Exec` request's.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The request asked for stdin (the stream is opened; written to only with `input`).
    pub stdin: bool,
    /// podrun's caller writes the input.
    pub input: bool,
    pub tty: bool,
}

/// Opens the exec at `url` (`Exec`'s answer) over SPDY as exec `id` of `execs`; `what` names
/// it in errors.
///
/// # Errors
/// A URL podrun cannot use, a server that cannot be reached, answers 404 (the URL is used up or
/// too old), upgrades to something else, or does not accept the streams.
pub async fn open(url: &str, id: &str, what: &str, shape: Shape, execs: &Arc<Execs>) -> Result<Opened, RuntimeError> {
    let timeout = super::stream::HANDSHAKE_TIMEOUT;
    let no_answer = || RuntimeError::Unreachable { endpoint: url.to_owned(), why: Unreachability::NoAnswer(timeout) };
    let (read, write, rest) =
        match tokio::time::timeout(timeout, upgrade(url, what)).await.map_err(|_| no_answer())?? {
            Ok(conn) => conn,
            Err(()) => return Ok(Opened::Refused),
        };
    let mut decoder = spdy::Decoder::new();
    decoder.push(&rest);
    let (read, write, decoder, pending) =
        tokio::time::timeout(timeout, open_streams(read, write, decoder, shape, url, what))
            .await
            .map_err(|_| no_answer())??;
    let (tx, rx) = mpsc::channel(16);
    let control = Arc::new(Control::default());
    let window = Arc::new(SendWindow::default());
    tokio::spawn(write_loop(write, rx, Arc::clone(&control)));
    if shape.tty {
        execs.set_resizer(id, Resizer::Spdy(tx.clone()));
    }
    let input = shape.input.then(|| {
        let (local, remote) = tokio::io::duplex(super::stream::INPUT_CHUNK);
        tokio::spawn(pump_input(remote, tx, Arc::clone(&window)));
        Box::pin(local) as std::pin::Pin<Box<dyn AsyncWrite + Send>>
    });
    let reader = Reader {
        read,
        decoder,
        pending,
        control,
        window,
        execs: Arc::clone(execs),
        id: id.to_owned(),
        what: what.to_owned(),
        status: Vec::new(),
        done: false,
        buf: vec![0u8; 32 * 1024],
    };
    let output = stream::unfold(reader, |mut r| async move { r.next().await.map(|item| (item, r)) }).boxed();
    Ok(Opened::Session(Session { output, input }))
}

/// The HTTP/1.1 upgrade to SPDY/3.1: the connection and the bytes read past the answer, or the
/// answer of a server that refuses SPDY.
async fn upgrade(url: &str, what: &str) -> Result<Result<(OwnedReadHalf, OwnedWriteHalf, Vec<u8>), ()>, RuntimeError> {
    let (mut read, mut write, target) = dial(url, what).await?;
    let unreachable = |e: std::io::Error| RuntimeError::Unreachable {
        endpoint: url.to_owned(),
        why: Unreachability::Connection(Cause(Arc::new(e))),
    };
    // POST, as kubectl sends it; the servers take GET too.
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\
         X-Stream-Protocol-Version: {PROTOCOL}\r\nContent-Length: 0\r\n\r\n",
        target.path, target.authority
    );
    write.write_all(request.as_bytes()).await.map_err(unreachable)?;
    let (head, rest) = read_head(&mut read).await.map_err(unreachable)?;
    match check_answer(&head, &rest) {
        Ok(()) => Ok(Ok((read, write, rest))),
        // The URL is for one use, and for a while.
        Err((404, _)) => Err(RuntimeError::NotFound { what: what.to_owned() }),
        // No upgrade to SPDY, or not with v4: a bad request, forbidden, not implemented.
        Err((status @ (400 | 403 | 405 | 426 | 501), message)) => {
            tracing::debug!(status, "the streaming server refused SPDY: {}", message.escape_debug());
            Ok(Err(()))
        }
        Err((status, message)) => Err(RuntimeError::Engine { what: what.to_owned(), status, message }),
    }
}

/// Whether the server's answer `head` upgrades to SPDY/3.1 with v4; if not, its status code and
/// what it said (`body`: what came after the head).
fn check_answer(head: &str, body: &[u8]) -> Result<(), (u16, String)> {
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    if status != 101 {
        let said = String::from_utf8_lossy(body).trim().to_owned();
        return Err((status, if said.is_empty() { "the upgrade to SPDY/3.1 was refused".to_owned() } else { said }));
    }
    if !header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("SPDY/3.1")) {
        return Err((status, "a broken answer: no Upgrade: SPDY/3.1".to_owned()));
    }
    if header("x-stream-protocol-version") != Some(PROTOCOL) {
        return Err((status, format!("a broken answer: the server does not speak {PROTOCOL}")));
    }
    Ok(())
}

/// Opens the session's streams and waits for the server to accept each, as kubectl does: the
/// server drops data on a stream it has not answered yet. Gives back the frames that came
/// meanwhile.
async fn open_streams(
    mut read: OwnedReadHalf,
    mut write: OwnedWriteHalf,
    mut decoder: spdy::Decoder,
    shape: Shape,
    url: &str,
    what: &str,
) -> Result<(OwnedReadHalf, OwnedWriteHalf, spdy::Decoder, VecDeque<Frame>), RuntimeError> {
    let broken = |why: String| RuntimeError::Client {
        what: what.to_owned(),
        source: Cause(Arc::new(std::io::Error::other(why))),
    };
    let unreachable = |e: std::io::Error| RuntimeError::Unreachable {
        endpoint: url.to_owned(),
        why: Unreachability::Connection(Cause(Arc::new(e))),
    };
    let mut streams = vec![(ERROR, "error")];
    streams.extend(shape.stdin.then_some((STDIN, "stdin")));
    streams.push((STDOUT, "stdout"));
    streams.extend((!shape.tty).then_some((STDERR, "stderr")));
    streams.extend(shape.tty.then_some((RESIZE, "resize")));
    let mut encoder = spdy::Encoder::new();
    let mut frames = Vec::new();
    for (stream, kind) in &streams {
        frames.extend(encoder.syn_stream(*stream, &[("streamType", kind)]).map_err(|e| broken(e.to_string()))?);
    }
    write.write_all(&frames).await.map_err(unreachable)?;
    let mut waiting: Vec<u32> = streams.iter().map(|(s, _)| *s).collect();
    let mut pending = VecDeque::new();
    let mut buf = vec![0u8; 4096];
    while !waiting.is_empty() {
        match decoder.next_frame().map_err(|e| broken(e.to_string()))? {
            Some(Frame::SynReply { stream, .. }) => waiting.retain(|s| *s != stream),
            Some(Frame::RstStream { stream, status }) if waiting.contains(&stream) => {
                return Err(broken(format!("the server refused stream {stream} (status {status})")));
            }
            Some(frame) => pending.push_back(frame),
            None => match read.read(&mut buf).await.map_err(unreachable)? {
                0 => return Err(broken("the connection ended before the streams were open".to_owned())),
                n => decoder.push(&buf[..n]),
            },
        }
    }
    Ok((read, write, decoder, pending))
}

/// Control frames for the writer: window given back (by stream, summed until written), pings
/// answered, streams refused; and whether the session ended.
#[derive(Default)]
struct Control {
    state: Mutex<ControlState>,
    ready: Notify,
}

#[derive(Default)]
struct ControlState {
    credit: BTreeMap<u32, u32>,
    frames: Vec<Vec<u8>>,
    closed: bool,
}

impl Control {
    fn lock(&self) -> std::sync::MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `n` bytes of `stream` were taken.
    fn credit(&self, stream: u32, n: usize) {
        let mut s = self.lock();
        let c = s.credit.entry(stream).or_default();
        *c = c.saturating_add(u32::try_from(n).unwrap_or(u32::MAX)).min(0x7fff_ffff);
        drop(s);
        self.ready.notify_one();
    }

    /// A control frame to write; past the limit, dropped (a server flooding pings).
    fn send(&self, frame: Vec<u8>) {
        let mut s = self.lock();
        if s.frames.len() < MAX_CONTROL {
            s.frames.push(frame);
        }
        drop(s);
        self.ready.notify_one();
    }

    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_one();
    }

    /// What is to be written now, and whether the writer is to stop.
    fn take(&self) -> (Vec<u8>, bool) {
        let mut s = self.lock();
        let mut out: Vec<u8> = s.frames.drain(..).flatten().collect();
        for (stream, delta) in std::mem::take(&mut s.credit) {
            out.extend(spdy::window_update(stream, delta));
        }
        (out, s.closed)
    }
}

/// The server's window for podrun's input: kept to only once the server shows it keeps one.
struct SendWindow {
    /// Bytes the server takes now, and whether it is kept to.
    state: Mutex<(i64, bool)>,
    opened: Notify,
}

impl Default for SendWindow {
    fn default() -> SendWindow {
        SendWindow { state: Mutex::new((i64::from(spdy::INITIAL_WINDOW), false)), opened: Notify::new() }
    }
}

impl SendWindow {
    /// The server gave `delta` more bytes (a WINDOW_UPDATE), or changed the initial window by
    /// `delta` (SETTINGS).
    fn grant(&self, delta: i64) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *s = (s.0.saturating_add(delta), true);
        drop(s);
        self.opened.notify_one();
    }

    /// How many of `want` bytes may be sent now, waiting while the window is shut; takes them.
    async fn take(&self, want: usize) -> usize {
        loop {
            {
                let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
                let n = if s.1 { usize::try_from(s.0).unwrap_or(0).min(want) } else { want };
                if n > 0 {
                    s.0 = s.0.saturating_sub(i64::try_from(n).unwrap_or(i64::MAX));
                    return n;
                }
            }
            self.opened.notified().await;
        }
    }
}

/// Writes the frames `rx` gives and the control frames as they come, until the session ended
/// or a write fails. The connection stays open while the senders are gone: the server takes
/// its end for the session's.
async fn write_loop(mut write: OwnedWriteHalf, mut rx: mpsc::Receiver<Vec<u8>>, control: Arc<Control>) {
    let mut senders = true;
    loop {
        let frame = tokio::select! {
            biased;
            () = control.ready.notified() => {
                let (frames, closed) = control.take();
                if closed {
                    break;
                }
                frames
            }
            frame = rx.recv(), if senders => match frame {
                Some(frame) => frame,
                None => {
                    senders = false;
                    continue;
                }
            },
        };
        if write.write_all(&frame).await.is_err() {
            break;
        }
    }
    let _ = write.shutdown().await;
}

/// Passes what is written to the exec's input on as DATA frames on the stdin stream, within the
/// server's window; its end as a FIN.
async fn pump_input(mut remote: tokio::io::DuplexStream, tx: mpsc::Sender<Vec<u8>>, window: Arc<SendWindow>) {
    let mut buf = vec![0u8; super::stream::INPUT_CHUNK];
    loop {
        let n = remote.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            let _ = tx.send(spdy::data(STDIN, &[], true)).await;
            return;
        }
        let mut sent = 0;
        while sent < n {
            let k = window.take(n - sent).await;
            if tx.send(spdy::data(STDIN, &buf[sent..sent + k], false)).await.is_err() {
                return;
            }
            sent += k;
        }
    }
}

/// The read side of a session: the server's frames as output chunks.
struct Reader {
    read: OwnedReadHalf,
    decoder: spdy::Decoder,
    /// Frames that came while the streams were being opened.
    pending: VecDeque<Frame>,
    control: Arc<Control>,
    window: Arc<SendWindow>,
    execs: Arc<Execs>,
    id: String,
    what: String,
    /// The error stream's bytes so far: the status.
    status: Vec<u8>,
    done: bool,
    /// One read buffer for the whole session.
    buf: Vec<u8>,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<LogChunk, RuntimeError>> {
        while !self.done {
            let frame = match self.pending.pop_front() {
                Some(frame) => frame,
                None => match self.decoder.next_frame() {
                    Ok(Some(frame)) => frame,
                    Ok(None) => {
                        match self.read.read(&mut self.buf).await {
                            Ok(n) if n > 0 => self.decoder.push(&self.buf[..n]),
                            // The connection's end (the server closes it after the status).
                            _ => return self.end(),
                        }
                        continue;
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(self.failed(e.to_string())));
                    }
                },
            };
            if let Some(item) = self.take(frame) {
                return item;
            }
        }
        None
    }

    /// What a frame gives: an output chunk, the session's end, or nothing yet.
    fn take(&mut self, frame: Frame) -> Option<Option<Result<LogChunk, RuntimeError>>> {
        // Kinds and sizes only: the output may hold a Secret's value.
        tracing::trace!(exec = %self.id, "streaming server: {}", describe(&frame));
        match frame {
            Frame::Data { stream, data, .. } => {
                if !data.is_empty() {
                    self.control.credit(stream, data.len());
                }
                let to = match stream {
                    STDOUT => LogStream::Stdout,
                    STDERR => LogStream::Stderr,
                    ERROR if self.status.len() + data.len() > MAX_STATUS => {
                        self.done = true;
                        return Some(Some(Err(self.failed(format!("a status over {MAX_STATUS} bytes")))));
                    }
                    ERROR => {
                        self.status.extend_from_slice(&data);
                        return None;
                    }
                    _ => return None,
                };
                (!data.is_empty()).then_some(Some(Ok(LogChunk { stream: to, bytes: data })))
            }
            // The server's pings have even ids; odd ones would answer podrun's, which sends none.
            Frame::Ping(id) if id % 2 == 0 => {
                self.control.send(spdy::ping(id));
                None
            }
            Frame::SynStream { stream } => {
                self.control.send(spdy::rst_stream(stream, spdy::REFUSED_STREAM));
                None
            }
            Frame::WindowUpdate { stream: STDIN, delta } => {
                self.window.grant(i64::from(delta));
                None
            }
            Frame::Settings(entries) => {
                for (_, value) in entries.into_iter().filter(|(id, _)| *id == spdy::SETTINGS_INITIAL_WINDOW_SIZE) {
                    self.window.grant(i64::from(value) - i64::from(spdy::INITIAL_WINDOW));
                }
                None
            }
            // The server is done: it closes the connection next.
            Frame::GoAway { .. } => Some(self.end()),
            _ => None,
        }
    }

    /// The end of the server's frames: the output's end, or an error when no status came (the
    /// exit code would never be known) or the command could not be run.
    fn end(&mut self) -> Option<Result<LogChunk, RuntimeError>> {
        self.done = true;
        self.execs.forget(&self.id);
        self.control.close();
        if self.status.is_empty() {
            return Some(Err(self.failed("the connection ended before the command's exit status".to_owned())));
        }
        match outcome(&self.status) {
            Outcome::Exited(code) => {
                self.execs.set_exit(&self.id, code);
                None
            }
            Outcome::Failed(why) => {
                Some(Err(RuntimeError::Engine { what: self.what.clone(), status: 500, message: why }))
            }
        }
    }

    fn failed(&self, why: String) -> RuntimeError {
        RuntimeError::Client { what: self.what.clone(), source: Cause(Arc::new(std::io::Error::other(why))) }
    }
}

/// A frame's kind, stream and size, for a trace.
fn describe(f: &Frame) -> String {
    match f {
        Frame::Data { stream, fin, data } => {
            format!("data on {stream}, {} bytes{}", data.len(), if *fin { ", fin" } else { "" })
        }
        other => format!("{other:?}"),
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.execs.forget(&self.id);
        self.control.close();
    }
}
