//! An exec on the runtime's streaming server over a WebSocket, as kubectl speaks to it, for a
//! server that refuses SPDY (`spdy_exec`): the `v4.channel.k8s.io` subprotocol, each binary
//! message one channel's bytes after a byte that names the channel (0 stdin, 1 stdout, 2
//! stderr, 3 the command's status, a JSON `metav1.Status`, 4 terminal resizes,
//! `{"Width":..,"Height":..}`). Also what both transports share: the execs under way, the
//! status's reading, the connection to the server.
//!
//! The end of input cannot be told over v4: a WebSocket has no half-close, and v4 has no
//! message for it (v5, which has one, is newer than the runtimes podrun meets). So when
//! podrun's stdin ends, nothing is sent: the command reads on, while a command that stops
//! reading on its own (`head -n1`, a shell's `read`) ends as usual.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use base64::Engine as _;
use futures_util::stream::{self, BoxStream, StreamExt};
use ring::rand::{SecureRandom, SystemRandom};
use serde::Deserialize;
use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;

use super::websocket::{self, Decoder, Message};
use crate::runtime::{Cause, LogChunk, LogStream, RuntimeError, TermSize, Unreachability};

/// The subprotocol spoken: binary channels, with a JSON status.
pub const PROTOCOL: &str = "v4.channel.k8s.io";
/// The largest message taken from the server (its output comes in messages of 32 KiB or less).
const MAX_MESSAGE: usize = 16 * 1024 * 1024;
/// The longest response head read before the server's answer is given up on.
const MAX_HEAD: usize = 16 * 1024;
/// How long the connection and the handshake may take.
pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// The bytes of input one stdin message carries at most.
pub(super) const INPUT_CHUNK: usize = 32 * 1024;

const STDIN: u8 = 0;
const STDOUT: u8 = 1;
const STDERR: u8 = 2;
const STATUS: u8 = 3;
const RESIZE: u8 = 4;

/// What goes to the server, in order, through the one task that writes.
#[derive(Debug)]
pub(super) enum Out {
    /// Bytes on a channel.
    Channel(u8, Vec<u8>),
    Pong(Vec<u8>),
    /// The answer to the server's close; nothing is written after it.
    Close,
}

/// The execs under way and the exit codes of those that ended, by podrun's id of them.
#[derive(Debug, Default)]
pub struct Execs {
    next: std::sync::atomic::AtomicU64,
    exits: Mutex<HashMap<String, i64>>,
    /// Where an exec's terminal resizes go, while it runs.
    resizers: Mutex<HashMap<String, Resizer>>,
}

/// The way to an exec's terminal size: its session's queue of what goes to the server.
#[derive(Debug, Clone)]
pub(super) enum Resizer {
    WebSocket(mpsc::Sender<Out>),
    /// Encoded frames; the size goes as a DATA frame on the resize stream, `stream`.
    Spdy {
        tx: mpsc::Sender<Vec<u8>>,
        stream: u32,
    },
}

impl Execs {
    /// A new exec's id.
    pub fn new_id(&self) -> String {
        format!("exec-{}", self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1)
    }

    pub fn set_exit(&self, id: &str, code: i64) {
        self.exits.lock().unwrap_or_else(PoisonError::into_inner).insert(id.to_owned(), code);
    }

    pub fn exit(&self, id: &str) -> Option<i64> {
        self.exits.lock().unwrap_or_else(PoisonError::into_inner).get(id).copied()
    }

    /// Gives exec `id`'s terminal `size`; nothing for an exec that has ended (or has no
    /// terminal, or is not known).
    pub async fn resize(&self, id: &str, size: TermSize) {
        let tx = self.resizers.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned();
        let json = format!(r#"{{"Width":{},"Height":{}}}"#, size.cols, size.rows);
        match tx {
            Some(Resizer::WebSocket(tx)) => {
                let _ = tx.send(Out::Channel(RESIZE, json.into_bytes())).await;
            }
            Some(Resizer::Spdy { tx, stream }) => {
                // The server reads the stream with a JSON decoder, one value after another.
                let _ = tx.send(super::spdy::data(stream, format!("{json}\n").as_bytes(), false)).await;
            }
            None => {}
        }
    }

    /// Keeps where exec `id`'s terminal resizes go while it runs.
    pub(super) fn set_resizer(&self, id: &str, resizer: Resizer) {
        self.resizers.lock().unwrap_or_else(PoisonError::into_inner).insert(id.to_owned(), resizer);
    }

    pub(super) fn forget(&self, id: &str) {
        self.resizers.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
    }
}

/// How the command ended, as its status message says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Exited(i64),
    /// The runtime could not run it (or the status does not say how it ended): its words.
    Failed(String),
}

#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    status: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    details: Option<Details>,
}

#[derive(Deserialize)]
struct Details {
    #[serde(default)]
    causes: Vec<StatusCause>,
}

#[derive(Deserialize)]
struct StatusCause {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
}

/// The outcome a status message (channel 3) tells: `Success` is 0; a `Failure` for
/// `NonZeroExitCode` carries the code in its `ExitCode` cause.
pub fn outcome(json: &[u8]) -> Outcome {
    let Ok(s) = serde_json::from_slice::<Status>(json) else {
        return Outcome::Failed(String::from_utf8_lossy(json).trim().to_owned());
    };
    if s.status == "Success" {
        return Outcome::Exited(0);
    }
    let code = (s.reason == "NonZeroExitCode")
        .then(|| s.details.as_ref()?.causes.iter().find(|c| c.reason == "ExitCode")?.message.trim().parse().ok())
        .flatten();
    match code {
        Some(code) => Outcome::Exited(code),
        None if s.message.is_empty() => Outcome::Failed(format!("the exec ended with status {:?}", s.status)),
        None => Outcome::Failed(s.message),
    }
}

/// What the streaming session gives: the command's output and, with `stdin`, its input.
pub struct Session {
    pub output: BoxStream<'static, Result<LogChunk, RuntimeError>>,
    pub input: Option<std::pin::Pin<Box<dyn AsyncWrite + Send>>>,
}

/// Opens the exec at `url` (`Exec`'s answer) as exec `id` of `execs`; `what` names it in errors.
///
/// # Errors
/// A URL podrun cannot use, a server that cannot be reached or refuses the WebSocket.
pub async fn open(
    url: &str,
    id: &str,
    what: &str,
    stdin: bool,
    tty: bool,
    execs: &Arc<Execs>,
) -> Result<Session, RuntimeError> {
    let (read, write, rest) = tokio::time::timeout(HANDSHAKE_TIMEOUT, connect(url, what)).await.map_err(|_| {
        RuntimeError::Unreachable { endpoint: url.to_owned(), why: Unreachability::NoAnswer(HANDSHAKE_TIMEOUT) }
    })??;
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(write_loop(write, rx));
    if tty {
        execs.set_resizer(id, Resizer::WebSocket(tx.clone()));
    }
    let input = stdin.then(|| {
        let (local, remote) = tokio::io::duplex(INPUT_CHUNK);
        tokio::spawn(pump_input(remote, tx.clone()));
        Box::pin(local) as std::pin::Pin<Box<dyn AsyncWrite + Send>>
    });
    let mut decoder = Decoder::new(MAX_MESSAGE);
    decoder.push(&rest);
    let reader = Reader {
        read,
        decoder,
        out: tx,
        execs: Arc::clone(execs),
        id: id.to_owned(),
        what: what.to_owned(),
        status: false,
        done: false,
        buf: vec![0u8; 32 * 1024],
    };
    let output = stream::unfold(reader, |mut r| async move { r.next().await.map(|item| (item, r)) }).boxed();
    Ok(Session { output, input })
}

/// Connects to the server of `url` and opens the WebSocket: the connection's halves and the
/// bytes read past the server's answer.
async fn connect(url: &str, what: &str) -> Result<(OwnedReadHalf, OwnedWriteHalf, Vec<u8>), RuntimeError> {
    let (mut read, mut write, target) = dial(url, what).await?;
    let unreachable = |e: std::io::Error| RuntimeError::Unreachable {
        endpoint: url.to_owned(),
        why: Unreachability::Connection(Cause(Arc::new(e))),
    };
    let mut key = [0u8; 16];
    SystemRandom::new().fill(&mut key).map_err(|_| unreachable(std::io::Error::other("no random bytes")))?;
    let key = base64::engine::general_purpose::STANDARD.encode(key);
    let request = websocket::handshake_request(&target.authority, &target.path, &key, &[PROTOCOL]);
    write.write_all(request.as_bytes()).await.map_err(unreachable)?;
    let (head, rest) = read_head(&mut read).await.map_err(unreachable)?;
    check_answer(&head, &key, &rest).map_err(|(status, message)| match status {
        // The URL is for one use, and for a while.
        404 => RuntimeError::NotFound { what: what.to_owned() },
        status => RuntimeError::Engine { what: what.to_owned(), status, message },
    })?;
    Ok((read, write, rest))
}

/// Where an exec URL points on its server.
pub(super) struct Target {
    pub authority: String,
    pub path: String,
}

/// Connects to the streaming server of `url` (plain HTTP, as containerd's and CRI-O's are
/// unless set up with TLS): the connection's halves and what the request names.
pub(super) async fn dial(url: &str, what: &str) -> Result<(OwnedReadHalf, OwnedWriteHalf, Target), RuntimeError> {
    let bad_url = |why: &str| RuntimeError::Client {
        what: what.to_owned(),
        source: Cause(Arc::new(std::io::Error::other(format!("the runtime's exec URL {url:?} {why}")))),
    };
    let uri: hyper::Uri = url.parse().map_err(|_| bad_url("is not a URL"))?;
    if uri.scheme_str() != Some("http") {
        return Err(bad_url("is not plain http (a TLS streaming server is not supported)"));
    }
    let (Some(host), Some(authority)) = (uri.host(), uri.authority()) else { return Err(bad_url("has no host")) };
    let port = uri.port_u16().unwrap_or(80);
    let path = uri.path_and_query().map_or("/", hyper::http::uri::PathAndQuery::as_str);
    let stream = tokio::net::TcpStream::connect((host.trim_start_matches('[').trim_end_matches(']'), port))
        .await
        .map_err(|e| RuntimeError::Unreachable {
            endpoint: url.to_owned(),
            why: Unreachability::Connection(Cause(Arc::new(e))),
        })?;
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    Ok((read, write, Target { authority: authority.as_str().to_owned(), path: path.to_owned() }))
}

/// Whether the server's answer `head` opens the WebSocket asked for with `key`; if not, its
/// status code and what it said (`body`: what came after the head).
fn check_answer(head: &str, key: &str, body: &[u8]) -> Result<(), (u16, String)> {
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    if status != 101 {
        let said = String::from_utf8_lossy(body).trim().to_owned();
        return Err((status, if said.is_empty() { "the WebSocket was refused".to_owned() } else { said }));
    }
    let wrong = |why: &str| Err((status, format!("a broken WebSocket answer: {why}")));
    if !header("upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket")) {
        return wrong("no Upgrade: websocket");
    }
    if header("sec-websocket-accept") != Some(websocket::accept_key(key).as_str()) {
        return wrong("its Sec-WebSocket-Accept does not match the key");
    }
    if header("sec-websocket-protocol") != Some(PROTOCOL) {
        return wrong(&format!("the server does not speak {PROTOCOL}"));
    }
    Ok(())
}

/// Reads the response head; returns it and the bytes read past it.
pub(super) async fn read_head(read: &mut OwnedReadHalf) -> std::io::Result<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buf.split_off(i + 4);
            return Ok((String::from_utf8_lossy(&buf).into_owned(), rest));
        }
        if buf.len() > MAX_HEAD {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "response head too long"));
        }
        let n = read.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed before an answer"));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Writes what `rx` gives as masked frames, until every sender is gone, the server's close has
/// been answered, or a write fails.
async fn write_loop(mut write: OwnedWriteHalf, mut rx: mpsc::Receiver<Out>) {
    let random = SystemRandom::new();
    while let Some(out) = rx.recv().await {
        let mut mask = [0u8; 4];
        if random.fill(&mut mask).is_err() {
            return;
        }
        let (frame, last) = match out {
            Out::Channel(channel, bytes) => {
                let mut payload = Vec::with_capacity(bytes.len() + 1);
                payload.push(channel);
                payload.extend_from_slice(&bytes);
                (websocket::encode(websocket::OP_BINARY, &payload, mask), false)
            }
            Out::Pong(payload) => (websocket::encode(websocket::OP_PONG, &payload, mask), false),
            Out::Close => (websocket::encode(websocket::OP_CLOSE, &websocket::CLOSE_NORMAL.to_be_bytes(), mask), true),
        };
        if write.write_all(&frame).await.is_err() || last {
            let _ = write.shutdown().await;
            return;
        }
    }
}

/// Passes what is written to the exec's input on as stdin messages. At its end nothing is sent
/// (see the module's note: v4 cannot tell it).
async fn pump_input(mut remote: tokio::io::DuplexStream, tx: mpsc::Sender<Out>) {
    let mut buf = vec![0u8; INPUT_CHUNK];
    loop {
        match remote.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if tx.send(Out::Channel(STDIN, buf[..n].to_vec())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The read side of a session: the server's messages as output chunks.
struct Reader {
    read: OwnedReadHalf,
    decoder: Decoder,
    out: mpsc::Sender<Out>,
    execs: Arc<Execs>,
    id: String,
    what: String,
    /// Whether the status message came.
    status: bool,
    done: bool,
    /// One read buffer for the whole session.
    buf: Vec<u8>,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<LogChunk, RuntimeError>> {
        while !self.done {
            let message = match self.decoder.next_message() {
                Ok(Some(m)) => m,
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
            };
            // Kinds and sizes only: the output may hold a Secret's value.
            tracing::trace!(exec = %self.id, "streaming server: {}", describe(&message));
            match message {
                Message::Binary(payload) => match payload.split_first() {
                    // Empty messages open the channels.
                    Some((&STDOUT, bytes)) if !bytes.is_empty() => {
                        return Some(Ok(LogChunk { stream: LogStream::Stdout, bytes: bytes.to_vec() }))
                    }
                    Some((&STDERR, bytes)) if !bytes.is_empty() => {
                        return Some(Ok(LogChunk { stream: LogStream::Stderr, bytes: bytes.to_vec() }))
                    }
                    Some((&STATUS, json)) => {
                        self.status = true;
                        match outcome(json) {
                            Outcome::Exited(code) => self.execs.set_exit(&self.id, code),
                            Outcome::Failed(why) => {
                                self.done = true;
                                return Some(Err(RuntimeError::Engine {
                                    what: self.what.clone(),
                                    status: 500,
                                    message: why,
                                }));
                            }
                        }
                    }
                    _ => {}
                },
                Message::Ping(payload) => {
                    // Never waits: a full queue of input must not hold up reading.
                    let _ = self.out.try_send(Out::Pong(payload));
                }
                Message::Close(_) => {
                    let _ = self.out.try_send(Out::Close);
                    return self.end();
                }
                Message::Text(_) | Message::Pong(_) => {}
            }
        }
        None
    }

    /// The end of the server's messages: the output's end, or an error when no status came
    /// (the exit code would never be known).
    fn end(&mut self) -> Option<Result<LogChunk, RuntimeError>> {
        self.done = true;
        self.execs.forget(&self.id);
        (!self.status).then(|| Err(self.failed("the connection ended before the command's exit status".to_owned())))
    }

    fn failed(&self, why: String) -> RuntimeError {
        RuntimeError::Client { what: self.what.clone(), source: Cause(Arc::new(std::io::Error::other(why))) }
    }
}

/// A message's kind, channel and size, for a trace.
fn describe(m: &Message) -> String {
    match m {
        Message::Binary(p) => format!("channel {:?}, {} bytes", p.first(), p.len().saturating_sub(1)),
        Message::Text(p) => format!("text, {} bytes", p.len()),
        Message::Ping(_) => "ping".to_owned(),
        Message::Pong(_) => "pong".to_owned(),
        Message::Close(code) => format!("close {code:?}"),
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.execs.forget(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_gives_the_exit_code() {
        assert_eq!(outcome(br#"{"metadata":{},"status":"Success"}"#), Outcome::Exited(0));
        let failure = br#"{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 7], exit code 7","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"7"}]}}"#;
        assert_eq!(outcome(failure), Outcome::Exited(7));
        let internal = br#"{"metadata":{},"status":"Failure","message":"Internal error occurred: error executing command in container: no such file","reason":"InternalError","details":{"causes":[{"message":"no such file"}]},"code":500}"#;
        assert_eq!(
            outcome(internal),
            Outcome::Failed("Internal error occurred: error executing command in container: no such file".into())
        );
        // No exit code where one should be; not JSON at all.
        assert!(matches!(
            outcome(br#"{"status":"Failure","reason":"NonZeroExitCode","message":"m"}"#),
            Outcome::Failed(m) if m == "m"
        ));
        assert_eq!(outcome(b"exec failed\n"), Outcome::Failed("exec failed".into()));
        assert!(matches!(outcome(br#"{"status":"Failure"}"#), Outcome::Failed(_)));
    }

    #[test]
    fn only_the_right_answer_opens_the_websocket() {
        let key = "dGhlIHNhbXBsZSBub25jZQ==";
        let ok = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                  Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n";
        assert_eq!(check_answer(ok, key, b""), Ok(()));
        assert_eq!(check_answer(ok, "b3RoZXIga2V5", b"").unwrap_err().0, 101);
        let other = ok.replace("v4.channel.k8s.io", "channel.k8s.io");
        assert!(check_answer(&other, key, b"").unwrap_err().1.contains("does not speak"));
        assert_eq!(
            check_answer("HTTP/1.1 404 Not Found\r\n\r\n", key, b"404 page not found\n"),
            Err((404, "404 page not found".into()))
        );
    }

    /// A server on a socket pair: the session's output, its exit code, and what it sent.
    #[tokio::test]
    async fn a_session_passes_output_input_and_resizes_and_keeps_the_exit_code() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            let mut head = Vec::new();
            while !head.ends_with(b"\r\n\r\n") {
                let mut b = [0u8; 1];
                conn.read_exact(&mut b).await.unwrap();
                head.push(b[0]);
            }
            let head = String::from_utf8(head).unwrap();
            let key = head.lines().find_map(|l| l.strip_prefix("Sec-WebSocket-Key: ")).unwrap();
            let answer = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Accept: {}\r\nSec-WebSocket-Protocol: {PROTOCOL}\r\n\r\n",
                websocket::accept_key(key)
            );
            let frame = |op: u8, p: &[u8]| {
                let mut f = vec![0x80 | op, u8::try_from(p.len()).unwrap()];
                f.extend_from_slice(p);
                f
            };
            let mut out = answer.into_bytes();
            out.extend(frame(websocket::OP_BINARY, b"\x01"));
            out.extend(frame(websocket::OP_BINARY, b"\x01out"));
            out.extend(frame(websocket::OP_PING, b"p"));
            out.extend(frame(websocket::OP_BINARY, b"\x02err"));
            conn.write_all(&out).await.unwrap();
            // The client's frames: a resize, the input, the pong (in some order).
            let mut d = Decoder::new(1 << 20);
            let mut got = Vec::new();
            let mut buf = [0u8; 1024];
            while got.len() < 3 {
                let n = conn.read(&mut buf).await.unwrap();
                d.push(&buf[..n]);
                while let Some(m) = d.next_message().unwrap() {
                    got.push(m);
                }
            }
            let status = br#"{"metadata":{},"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"7"}]}}"#;
            let mut end = vec![0x82, 126];
            end.extend_from_slice(&u16::try_from(status.len() + 1).unwrap().to_be_bytes());
            end.push(STATUS);
            end.extend_from_slice(status);
            end.extend(frame(websocket::OP_CLOSE, &websocket::CLOSE_NORMAL.to_be_bytes()));
            conn.write_all(&end).await.unwrap();
            // The client answers the close.
            let mut rest = Vec::new();
            conn.read_to_end(&mut rest).await.unwrap();
            d.push(&rest);
            got.push(d.next_message().unwrap().unwrap());
            got
        });
        let execs = Arc::new(Execs::default());
        let id = execs.new_id();
        let url = format!("http://{addr}/exec/token");
        let mut s = open(&url, &id, "exec", true, true, &execs).await.unwrap();
        execs.resize(&id, TermSize { rows: 24, cols: 80 }).await;
        let mut input = s.input.take().unwrap();
        input.write_all(b"in").await.unwrap();
        let chunks: Vec<LogChunk> = s.output.map(Result::unwrap).collect().await;
        assert_eq!(
            chunks,
            [
                LogChunk { stream: LogStream::Stdout, bytes: b"out".to_vec() },
                LogChunk { stream: LogStream::Stderr, bytes: b"err".to_vec() },
            ]
        );
        assert_eq!(execs.exit(&id), Some(7));
        drop(input);
        let got = server.await.unwrap();
        let resize = [&[RESIZE][..], br#"{"Width":80,"Height":24}"#].concat();
        assert!(got.contains(&Message::Binary(resize)), "{got:?}");
        assert!(got.contains(&Message::Binary(b"\x00in".to_vec())), "{got:?}");
        assert!(got.contains(&Message::Pong(b"p".to_vec())), "{got:?}");
        assert_eq!(got.last(), Some(&Message::Close(Some(websocket::CLOSE_NORMAL))));
        assert!(execs.resizers.lock().unwrap().is_empty(), "the ended exec is forgotten");
    }

    #[tokio::test]
    async fn a_connection_that_ends_before_the_status_is_an_error() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            let mut buf = vec![0u8; 4096];
            let n = conn.read(&mut buf).await.unwrap();
            let head = String::from_utf8_lossy(&buf[..n]).into_owned();
            let key = head.lines().find_map(|l| l.strip_prefix("Sec-WebSocket-Key: ")).unwrap().to_owned();
            let answer = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Accept: {}\r\nSec-WebSocket-Protocol: {PROTOCOL}\r\n\r\n",
                websocket::accept_key(&key)
            );
            conn.write_all(&[answer.as_bytes(), b"\x82\x03\x01hi"].concat()).await.unwrap();
        });
        let execs = Arc::new(Execs::default());
        let s = open(&format!("http://{addr}/exec/t"), "exec-1", "exec", false, false, &execs).await.unwrap();
        let items: Vec<_> = s.output.collect().await;
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].as_ref().unwrap().bytes, b"hi");
        assert!(matches!(&items[1], Err(RuntimeError::Client { .. })));
        assert_eq!(execs.exit("exec-1"), None);
    }
}
