//! An exec on the runtime's streaming server over SPDY/3.1, as kubectl's SPDY client speaks
//! it: an HTTP/1.1 upgrade that names `v4.channel.k8s.io`, then one stream per channel, each
//! opened by podrun with a `streamtype` header (error, stdin, stdout, stderr, resize). The
//! error stream brings the command's status, a JSON `metav1.Status`. Unlike a WebSocket, a
//! stream half-closes: the end of input reaches the command as a DATA frame with FIN on the
//! stdin stream.
//!
//! Flow control: the servers (Go's spdystream) neither send WINDOW_UPDATE nor act on it; TCP
//! alone holds each side back. So windows are kept only with a server that shows it keeps them
//! (a SETTINGS with an initial window, or a WINDOW_UPDATE): then its window bounds the input,
//! and its output's window is given back as it is taken. Kept with spdystream, the input would
//! stop at 64 KiB; and every byte podrun writes that the server has not read when it closes
//! the connection turns the close into a reset, which drops the output still on its way (the
//! end of a large output went missing in 4 of 10 runs when window updates were sent).

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
const RESIZE: u32 = 9;
/// The most of a status taken (it is a short JSON object).
const MAX_STATUS: usize = 64 * 1024;
/// Control frames waiting to be written at most (pings answered, streams refused).
const MAX_CONTROL: usize = 16;
/// How long the status may take once the output has ended and the input was cut: it comes
/// within milliseconds of the command's end, unless the runtime holds it (`no_status`); a
/// command that closed its output and still runs has this long to end.
const STATUS_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

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
    let Some((read, write, rest)) =
        tokio::time::timeout(timeout, upgrade(url, what)).await.map_err(|_| no_answer())??
    else {
        return Ok(Opened::Refused);
    };
    let mut decoder = spdy::Decoder::new();
    decoder.push(&rest);
    let (read, write, decoder, mut pending) =
        tokio::time::timeout(timeout, open_streams(read, write, decoder, shape, url, what))
            .await
            .map_err(|_| no_answer())??;
    let (tx, rx) = mpsc::channel(16);
    let control = Arc::new(Control::default());
    let window = Arc::new(SendWindow::default());
    // A window the server set while the streams opened holds from the first byte of input.
    pending.retain(|frame| !window.follow(frame));
    tokio::spawn(write_loop(write, rx, Arc::clone(&control)));
    if shape.tty {
        execs.set_resizer(id, Resizer::Spdy { tx: tx.clone(), stream: RESIZE });
    }
    let output_ended = Arc::new(Notify::new());
    let input = shape.input.then(|| {
        let (local, remote) = tokio::io::duplex(super::stream::INPUT_CHUNK);
        tokio::spawn(pump_input(remote, tx, Arc::clone(&window), Arc::clone(&output_ended)));
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
        outputs_open: if shape.tty { 1 } else { 2 },
        output_ended,
        input: shape.input,
        status_due: None,
        done: false,
        buf: vec![0u8; 32 * 1024],
    };
    let output = stream::unfold(reader, |mut r| async move { r.next().await.map(|item| (item, r)) }).boxed();
    Ok(Opened::Session(Session { output, input }))
}

/// The HTTP/1.1 upgrade to SPDY/3.1: the connection and the bytes read past the answer, or the
/// answer of a server that refuses SPDY.
async fn upgrade(url: &str, what: &str) -> Result<Option<(OwnedReadHalf, OwnedWriteHalf, Vec<u8>)>, RuntimeError> {
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
        Ok(()) => Ok(Some((read, write, rest))),
        // The URL is for one use, and for a while.
        Err((404, _)) => Err(RuntimeError::NotFound { what: what.to_owned() }),
        // No upgrade to SPDY, or not with v4: a bad request, forbidden, not implemented.
        Err((status @ (400 | 403 | 405 | 426 | 501), message)) => {
            tracing::debug!(status, "the streaming server refused SPDY: {}", message.escape_debug());
            Ok(None)
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
    /// Follows what `frame` says of the window for podrun's input, if it says anything.
    fn follow(&self, frame: &Frame) -> bool {
        match frame {
            Frame::WindowUpdate { stream, delta } => {
                if *stream == STDIN {
                    self.grant(i64::from(*delta));
                }
                true
            }
            Frame::Settings(entries) => {
                for (_, value) in entries.iter().filter(|(id, _)| *id == spdy::SETTINGS_INITIAL_WINDOW_SIZE) {
                    self.grant(i64::from(*value) - i64::from(spdy::INITIAL_WINDOW));
                }
                true
            }
            _ => false,
        }
    }

    /// The server gave `delta` more bytes (a WINDOW_UPDATE), or changed the initial window by
    /// `delta` (SETTINGS).
    fn grant(&self, delta: i64) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *s = (s.0.saturating_add(delta), true);
        drop(s);
        self.opened.notify_one();
    }

    /// Whether the server keeps windows (and so wants podrun's back).
    fn kept(&self) -> bool {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).1
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
                    let _ = write.write_all(&frames).await;
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
/// server's window; its end as a FIN. The input also ends once the command's output has
/// (`output_ended`): containerd sends the exit status only once it has handed over all the
/// input it was sent, which a command that exited without reading never takes.
async fn pump_input(
    mut remote: tokio::io::DuplexStream,
    tx: mpsc::Sender<Vec<u8>>,
    window: Arc<SendWindow>,
    output_ended: Arc<Notify>,
) {
    let pump = async {
        let mut buf = vec![0u8; super::stream::INPUT_CHUNK];
        loop {
            let n = remote.read(&mut buf).await.unwrap_or(0);
            if n == 0 {
                return true;
            }
            let mut sent = 0;
            while sent < n {
                let k = window.take(n - sent).await;
                if tx.send(spdy::data(STDIN, &buf[sent..sent + k], false)).await.is_err() {
                    return false;
                }
                sent += k;
            }
        }
    };
    let input_ended = tokio::select! {
        biased;
        () = output_ended.notified() => {
            // The rest of the input is not wanted: the writer's next write fails.
            drop(remote);
            true
        }
        ended = pump => ended,
    };
    if input_ended {
        let _ = tx.send(spdy::data(STDIN, &[], true)).await;
    }
}

/// What one frame from the server leads to.
enum Step {
    /// Nothing for the caller yet: on to the next frame.
    More,
    /// This for the caller: a chunk, an error, or (None) the end.
    Give(Option<Result<LogChunk, RuntimeError>>),
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
    /// Output streams the server has not ended yet; at none, the input ends (`pump_input`).
    outputs_open: u8,
    output_ended: Arc<Notify>,
    /// podrun's caller writes the input.
    input: bool,
    /// When the status must have come, once the output ended with input given (`STATUS_WAIT`).
    status_due: Option<tokio::time::Instant>,
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
                        let read = self.read.read(&mut self.buf);
                        let read = match self.status_due {
                            Some(due) => match tokio::time::timeout_at(due, read).await {
                                Ok(read) => read,
                                Err(_) => return self.no_status(),
                            },
                            None => read.await,
                        };
                        match read {
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
            if let Step::Give(item) = self.take(frame) {
                return item;
            }
        }
        None
    }

    /// What a frame gives: an output chunk, the session's end, or nothing yet.
    fn take(&mut self, frame: Frame) -> Step {
        // Kinds and sizes only: the output may hold a Secret's value.
        tracing::trace!(exec = %self.id, "streaming server: {}", describe(&frame));
        match frame {
            Frame::Data { stream, data, fin } => {
                if !data.is_empty() && self.window.kept() {
                    self.control.credit(stream, data.len());
                }
                if fin && matches!(stream, STDOUT | STDERR) {
                    self.output_stream_ended();
                }
                let to = match stream {
                    STDOUT => LogStream::Stdout,
                    STDERR => LogStream::Stderr,
                    ERROR if self.status.len() + data.len() > MAX_STATUS => {
                        self.done = true;
                        return Step::Give(Some(Err(self.failed(format!("a status over {MAX_STATUS} bytes")))));
                    }
                    ERROR => {
                        // The status comes after the last output: nothing more is written, as
                        // the server closes the connection next, and bytes it has not read then
                        // make its close a reset, which can drop the status on the way.
                        self.control.close();
                        self.status.extend_from_slice(&data);
                        return Step::More;
                    }
                    _ => return Step::More,
                };
                if data.is_empty() {
                    Step::More
                } else {
                    Step::Give(Some(Ok(LogChunk { stream: to, bytes: data })))
                }
            }
            // The server's pings have even ids; odd ones would answer podrun's, which sends none.
            Frame::Ping(id) if id % 2 == 0 => {
                self.control.send(spdy::ping(id));
                Step::More
            }
            Frame::SynStream { stream, .. } => {
                self.control.send(spdy::rst_stream(stream, spdy::REFUSED_STREAM));
                Step::More
            }
            Frame::WindowUpdate { .. } | Frame::Settings(_) => {
                self.window.follow(&frame);
                Step::More
            }
            // The server is done: it closes the connection next.
            Frame::GoAway { .. } => Step::Give(self.end()),
            _ => Step::More,
        }
    }

    fn output_stream_ended(&mut self) {
        self.outputs_open = self.outputs_open.saturating_sub(1);
        if self.outputs_open == 0 {
            self.output_ended.notify_one();
            if self.input {
                self.status_due = Some(tokio::time::Instant::now() + STATUS_WAIT);
            }
        }
    }

    /// The output ended, input was given, and no status came within `STATUS_WAIT`: the
    /// session ends without it.
    fn no_status(&mut self) -> Option<Result<LogChunk, RuntimeError>> {
        self.done = true;
        self.execs.forget(&self.id);
        self.control.close();
        Some(Err(self.failed(format!(
            "the command's output ended, but the runtime gave no exit status within {}s: it holds the \
             status until the command has taken all the input sent to it (a command that exits \
             without reading its input never does)",
            STATUS_WAIT.as_secs()
        ))))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::TermSize;
    use tokio::net::TcpStream;

    const STATUS_7: &[u8] = br#"{"metadata":{},"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"7"}]}}"#;

    /// A server on a loopback port, and the exec URL pointing at it.
    async fn server() -> (tokio::net::TcpListener, String) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/exec/token", listener.local_addr().unwrap());
        (listener, url)
    }

    async fn request_head(conn: &mut TcpStream) -> String {
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut b = [0u8; 1];
            conn.read_exact(&mut b).await.unwrap();
            head.push(b[0]);
        }
        String::from_utf8(head).unwrap()
    }

    const UPGRADED: &str =
        "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n";

    /// Reads the client's frames into `got` until `enough` holds of them.
    async fn read_until(
        conn: &mut TcpStream,
        dec: &mut spdy::Decoder,
        got: &mut Vec<Frame>,
        enough: impl Fn(&[Frame]) -> bool,
    ) {
        let mut buf = vec![0u8; 64 * 1024];
        while !enough(got) {
            while let Some(f) = dec.next_frame().unwrap() {
                got.push(f);
            }
            if enough(got) {
                return;
            }
            let n = conn.read(&mut buf).await.unwrap();
            assert!(n > 0, "the client closed the connection; it sent {got:?}");
            dec.push(&buf[..n]);
        }
    }

    /// The bytes of `stream`'s DATA frames in `got`, and whether a FIN ended it.
    fn stream_data(got: &[Frame], of: u32) -> (Vec<u8>, bool) {
        let mut bytes = Vec::new();
        let mut ended = false;
        for f in got {
            if let Frame::Data { stream, fin, data } = f {
                if *stream == of {
                    bytes.extend_from_slice(data);
                    ended |= *fin;
                }
            }
        }
        (bytes, ended)
    }

    /// The streams a client opened, by id, with their type.
    fn opened(got: &[Frame]) -> Vec<(u32, String)> {
        got.iter()
            .filter_map(|f| match f {
                Frame::SynStream { stream, headers } => {
                    Some((*stream, headers.iter().find(|(n, _)| n == "streamtype")?.1.clone()))
                }
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn a_session_opens_the_streams_ends_the_input_keeps_windows_and_the_exit_code() {
        let (listener, url) = server().await;
        let server = tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            let head = request_head(&mut conn).await;
            assert!(head.starts_with("POST /exec/token HTTP/1.1\r\n"), "{head}");
            assert!(
                head.contains("\r\nUpgrade: SPDY/3.1\r\n")
                    && head.contains("\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n"),
                "{head}"
            );
            // A server that keeps windows: 4 bytes of input to begin with.
            conn.write_all(&[UPGRADED.as_bytes(), &spdy::settings(spdy::SETTINGS_INITIAL_WINDOW_SIZE, 4)].concat())
                .await
                .unwrap();
            let (mut dec, mut enc, mut got) = (spdy::Decoder::new(), spdy::Encoder::new(), Vec::new());
            read_until(&mut conn, &mut dec, &mut got, |g| opened(g).len() == 4).await;
            let want: Vec<(u32, String)> = [(1, "error"), (3, "stdin"), (5, "stdout"), (7, "stderr")]
                .iter()
                .map(|(s, t)| (*s, (*t).to_owned()))
                .collect();
            assert_eq!(opened(&got), want);
            for stream in [1, 3, 5, 7] {
                conn.write_all(&enc.syn_reply(stream, false, &[])).await.unwrap();
            }
            // The input stops at the window, and goes on once it opens.
            read_until(&mut conn, &mut dec, &mut got, |g| stream_data(g, 3).0.len() >= 4).await;
            assert_eq!(stream_data(&got, 3), (b"hell".to_vec(), false));
            conn.write_all(&spdy::window_update(3, 1000)).await.unwrap();
            read_until(&mut conn, &mut dec, &mut got, |g| stream_data(g, 3).1).await;
            assert_eq!(stream_data(&got, 3), (b"hello world".to_vec(), true));
            // Output: its window comes back as it is taken; a ping is answered.
            conn.write_all(&[spdy::data(5, b"out", false), spdy::data(7, b"err", false), spdy::ping(2)].concat())
                .await
                .unwrap();
            read_until(&mut conn, &mut dec, &mut got, |g| {
                g.contains(&Frame::Ping(2)) && g.contains(&Frame::WindowUpdate { stream: 5, delta: 3 })
            })
            .await;
            conn.write_all(&[spdy::data(1, STATUS_7, false), spdy::goaway(0)].concat()).await.unwrap();
            let mut rest = Vec::new();
            conn.read_to_end(&mut rest).await.unwrap();
        });
        let execs = Arc::new(Execs::default());
        let id = execs.new_id();
        let shape = Shape { stdin: true, input: true, tty: false };
        let Opened::Session(mut s) = open(&url, &id, "exec", shape, &execs).await.unwrap() else { panic!("refused") };
        let mut input = s.input.take().unwrap();
        input.write_all(b"hello world").await.unwrap();
        input.shutdown().await.unwrap();
        // The input goes out before any output is read: the window the server set with the
        // upgrade holds already.
        for _ in 0..16 {
            tokio::task::yield_now().await;
        }
        let chunks: Vec<LogChunk> = s.output.map(Result::unwrap).collect().await;
        assert_eq!(
            chunks,
            [
                LogChunk { stream: LogStream::Stdout, bytes: b"out".to_vec() },
                LogChunk { stream: LogStream::Stderr, bytes: b"err".to_vec() },
            ]
        );
        assert_eq!(execs.exit(&id), Some(7));
        server.await.unwrap();
    }

    #[tokio::test]
    async fn a_terminal_gets_a_resize_stream_and_its_input_stays_open() {
        let (listener, url) = server().await;
        let server = tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            request_head(&mut conn).await;
            conn.write_all(UPGRADED.as_bytes()).await.unwrap();
            let (mut dec, mut enc, mut got) = (spdy::Decoder::new(), spdy::Encoder::new(), Vec::new());
            read_until(&mut conn, &mut dec, &mut got, |g| opened(g).len() == 4).await;
            let types: Vec<u32> = opened(&got).iter().map(|(s, _)| *s).collect();
            assert_eq!(types, [1, 3, 5, 9]);
            assert_eq!(opened(&got)[3].1, "resize");
            for stream in [1, 3, 5, 9] {
                conn.write_all(&enc.syn_reply(stream, false, &[])).await.unwrap();
            }
            read_until(&mut conn, &mut dec, &mut got, |g| !stream_data(g, 9).0.is_empty()).await;
            assert_eq!(stream_data(&got, 9).0, b"{\"Width\":80,\"Height\":24}\n");
            conn.write_all(&[spdy::data(5, b"$ ", false), spdy::data(1, br#"{"status":"Success"}"#, false)].concat())
                .await
                .unwrap();
            // The connection's end, without a GOAWAY, ends the session too.
            drop(conn);
            got
        });
        let execs = Arc::new(Execs::default());
        let id = execs.new_id();
        let shape = Shape { stdin: true, input: false, tty: true };
        let Opened::Session(s) = open(&url, &id, "exec", shape, &execs).await.unwrap() else { panic!("refused") };
        assert!(s.input.is_none());
        execs.resize(&id, TermSize { rows: 24, cols: 80 }).await;
        let chunks: Vec<LogChunk> = s.output.map(Result::unwrap).collect().await;
        assert_eq!(chunks, [LogChunk { stream: LogStream::Stdout, bytes: b"$ ".to_vec() }]);
        assert_eq!(execs.exit(&id), Some(0));
        let got = server.await.unwrap();
        assert_eq!(stream_data(&got, 3), (Vec::new(), false), "no input, and no end of it");
    }

    /// The output's end ends the input, the caller's still open; a status that then comes ends
    /// the session with it, and one withheld ends it after `STATUS_WAIT`, saying so.
    #[tokio::test]
    async fn the_end_of_the_output_ends_the_input_and_a_withheld_status_the_session() {
        for withheld in [false, true] {
            let (listener, url) = server().await;
            let server = tokio::spawn(async move {
                let (mut conn, _) = listener.accept().await.unwrap();
                request_head(&mut conn).await;
                conn.write_all(UPGRADED.as_bytes()).await.unwrap();
                let (mut dec, mut enc, mut got) = (spdy::Decoder::new(), spdy::Encoder::new(), Vec::new());
                read_until(&mut conn, &mut dec, &mut got, |g| opened(g).len() == 4).await;
                for stream in [1, 3, 5, 7] {
                    conn.write_all(&enc.syn_reply(stream, false, &[])).await.unwrap();
                }
                read_until(&mut conn, &mut dec, &mut got, |g| !stream_data(g, 3).0.is_empty()).await;
                conn.write_all(&[spdy::data(5, b"hi\n", false), spdy::data(5, b"", true)].concat()).await.unwrap();
                conn.write_all(&spdy::data(7, b"", true)).await.unwrap();
                read_until(&mut conn, &mut dec, &mut got, |g| stream_data(g, 3).1).await;
                if !withheld {
                    conn.write_all(&[spdy::data(1, STATUS_7, false), spdy::goaway(0)].concat()).await.unwrap();
                }
                let mut rest = Vec::new();
                let _ = conn.read_to_end(&mut rest).await;
            });
            let execs = Arc::new(Execs::default());
            let id = execs.new_id();
            let shape = Shape { stdin: true, input: true, tty: false };
            let Opened::Session(mut s) = open(&url, &id, "exec", shape, &execs).await.unwrap() else { panic!() };
            let mut input = s.input.take().unwrap();
            input.write_all(b"unread").await.unwrap();
            let started = std::time::Instant::now();
            let items: Vec<Result<LogChunk, RuntimeError>> = s.output.collect().await;
            assert!(matches!(&items[0], Ok(c) if c.bytes == b"hi\n"), "{items:?}");
            if withheld {
                let said = items.get(1).and_then(|r| r.as_ref().err()).map(|e| crate::error_chain::chain(e));
                assert!(said.is_some_and(|s| s.contains("gave no exit status within 5s")), "{items:?}");
                assert!(started.elapsed() >= STATUS_WAIT, "{:?}", started.elapsed());
                assert_eq!(execs.exit(&id), None);
            } else {
                assert_eq!(items.len(), 1, "{items:?}");
                assert_eq!(execs.exit(&id), Some(7));
            }
            assert!(input.write_all(&vec![b'x'; 256 * 1024]).await.is_err(), "the rest of the input is not taken");
            server.await.unwrap();
        }
    }

    #[tokio::test]
    async fn a_server_that_refuses_spdy_leaves_the_websocket_and_a_used_url_is_not_found() {
        for (answer, refused) in
            [("HTTP/1.1 400 Bad Request\r\n\r\nno upgrade", true), ("HTTP/1.1 404 Not Found\r\n\r\n", false)]
        {
            let (listener, url) = server().await;
            tokio::spawn(async move {
                let (mut conn, _) = listener.accept().await.unwrap();
                request_head(&mut conn).await;
                conn.write_all(answer.as_bytes()).await.unwrap();
            });
            let execs = Arc::new(Execs::default());
            let shape = Shape { stdin: true, input: true, tty: false };
            match open(&url, "exec-1", "exec", shape, &execs).await {
                Ok(Opened::Refused) => assert!(refused, "{answer}"),
                Err(RuntimeError::NotFound { .. }) => assert!(!refused, "{answer}"),
                Ok(Opened::Session(_)) => panic!("a session on {answer:?}"),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn only_an_upgrade_to_spdy_with_v4_is_taken() {
        assert_eq!(check_answer(UPGRADED, b""), Ok(()));
        let v3 = UPGRADED.replace("v4.channel", "v3.channel");
        assert!(check_answer(&v3, b"").unwrap_err().1.contains("does not speak"));
        let ws = UPGRADED.replace("SPDY/3.1", "websocket");
        assert!(check_answer(&ws, b"").unwrap_err().1.contains("no Upgrade"));
        assert_eq!(check_answer("HTTP/1.1 403 Forbidden\r\n\r\n", b"x\n"), Err((403, "x".to_owned())));
    }
}
