//! Caps on what the engine sends back to bollard. bollard collects a whole answer before it
//! decodes it, and buffers a stream's line or frame until it ends, with no limit of its own;
//! its custom transport hands it hyper's own body, which podrun cannot wrap. So the cap sits
//! under hyper, on the connection: [`Guarded`] notes each request as it is written and follows
//! the answer's HTTP/1.1 framing (its head, `Content-Length`, chunks, an upgrade) as it is
//! read, and ends the read with a [`Refusal`] once the answer passes its cap:
//!
//! - a response head: [`MAX_HEAD`];
//! - an answer read whole (inspect, list, info, version, and any error answer): [`MAX_ANSWER`];
//! - a stream of JSON lines (events, pull and load progress): each line, [`MAX_ITEM`];
//! - a stream of output frames (logs, exec): each frame, or a line outside frames, [`MAX_ITEM`];
//! - a file's bytes (`GET .../archive`): no cap here, as bollard hands them on as they come and
//!   podrun keeps only what it asked for.
//!
//! podrun's own requests ([`super::raw`]) read with their own bounds.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The longest response head podrun reads (hyper's own limit is 400 KiB).
pub const MAX_HEAD: usize = 64 * 1024;
/// The largest answer read whole: a list of many containers is a few MiB.
pub const MAX_ANSWER: u64 = 64 * 1024 * 1024;
/// The longest line of a JSON stream, and the largest frame of an output stream: the engines
/// send a line of progress or an event in well under a KiB, and output in frames of 32 KiB at
/// most.
pub const MAX_ITEM: u64 = 1024 * 1024;
/// The longest chunk-size or trailer line.
const MAX_LINE: usize = 1024;
/// How much of a request line is kept to name the request.
const MAX_REQUEST_LINE: usize = 256;

/// An engine's answer podrun stopped reading, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the engine's answer to {request} {why}; podrun read no further")]
pub struct Refusal {
    /// `GET /v1.41/containers/json`, without the query.
    pub request: String,
    pub why: Why,
}

/// How an answer broke its cap or its framing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Why {
    #[error("is not HTTP")]
    NotHttp,
    #[error("has a head longer than {} KiB", MAX_HEAD / 1024)]
    Head,
    #[error("is larger than {} MiB, the cap on an answer", MAX_ANSWER >> 20)]
    Answer,
    #[error("has a line or frame larger than {} MiB, the cap on one item of a stream", MAX_ITEM >> 20)]
    Item,
    #[error("has a garbled chunk")]
    Chunk,
}

/// A connection whose answers are capped.
pub struct Guarded<T> {
    inner: T,
    exchange: Exchange,
}

impl<T> Guarded<T> {
    pub fn new(inner: T) -> Guarded<T> {
        Guarded { inner, exchange: Exchange::default() }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(refusal) = &this.exchange.refused {
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, refusal.clone())));
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            if let Err(refusal) = this.exchange.received(&buf.filled()[before..]) {
                return Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, refusal)));
            }
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = polled {
            this.exchange.sent(&buf[..n]);
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// One request and its answer at a time, as HTTP/1.1 has them on a connection.
#[derive(Debug, Default)]
struct Exchange {
    /// The request line of the request last written, as far as it came.
    line: Vec<u8>,
    line_done: bool,
    /// The last answer is complete: the next write is a new request.
    answered: bool,
    response: Response,
    refused: Option<Refusal>,
}

impl Exchange {
    fn sent(&mut self, bytes: &[u8]) {
        if self.answered {
            *self = Exchange::default();
        }
        if !self.line_done {
            let end = bytes.iter().position(|b| *b == b'\n');
            let first = &bytes[..end.unwrap_or(bytes.len())];
            let room = MAX_REQUEST_LINE.saturating_sub(self.line.len());
            self.line.extend_from_slice(&first[..first.len().min(room)]);
            self.line_done = end.is_some();
        }
    }

    fn received(&mut self, mut bytes: &[u8]) -> Result<(), Refusal> {
        while !bytes.is_empty() {
            let request = Request::parse(&self.line);
            match self.response.take(bytes, &request) {
                Ok(used) => bytes = &bytes[used..],
                Err(why) => {
                    let refusal = Refusal { request: request.name(), why };
                    self.refused = Some(refusal.clone());
                    return Err(refusal);
                }
            }
            if matches!(self.response.phase, Phase::Done) {
                self.answered = true;
                // Bytes past the end of an answer are hyper's to refuse; they are counted
                // as another answer meanwhile.
                self.response = Response::default();
            }
        }
        Ok(())
    }
}

/// A request, as far as its line tells.
struct Request<'a> {
    method: &'a str,
    /// The path without the API version and the query: `containers/abc/logs`.
    path: &'a str,
    /// The path as sent, without the query.
    full: &'a str,
}

impl<'a> Request<'a> {
    fn parse(line: &'a [u8]) -> Request<'a> {
        let line = std::str::from_utf8(line).unwrap_or("");
        let mut words = line.split_whitespace();
        let method = words.next().unwrap_or("");
        let full = words.next().unwrap_or("").split('?').next().unwrap_or("");
        let path = full.trim_start_matches('/');
        let path = match path.split_once('/') {
            Some((version, rest))
                if version.starts_with('v') && version[1..].chars().all(|c| c.is_ascii_digit() || c == '.') =>
            {
                rest
            }
            _ => path,
        };
        Request { method, path, full }
    }

    fn name(&self) -> String {
        if self.method.is_empty() {
            "a request".to_owned()
        } else {
            // podrun's own request, as bollard wrote it: nothing of the engine's.
            format!("{} {}", self.method, self.full)
        }
    }

    /// What a successful answer to this request is.
    fn kind(&self) -> Kind {
        let parts: Vec<&str> = self.path.split('/').collect();
        match (self.method, parts.as_slice()) {
            ("GET", ["events"] | ["libpod", "events"]) | ("POST", ["images", "create" | "load"] | ["build"]) => {
                Kind::Lines
            }
            ("POST", ["exec", _, "start"] | ["containers", _, "attach"]) | ("GET", ["containers", _, "logs"]) => {
                Kind::Frames
            }
            ("GET", ["containers", _, "archive" | "export"] | ["images", .., "get"]) => Kind::Bytes,
            _ => Kind::Answer,
        }
    }

    fn has_body(&self) -> bool {
        self.method != "HEAD"
    }
}

/// How an answer's body is read, and so what it is capped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Answer,
    Lines,
    Frames,
    Bytes,
}

#[derive(Debug, Default)]
struct Response {
    phase: Phase,
}

#[derive(Debug)]
enum Phase {
    Head(Vec<u8>),
    Body { framing: Framing, items: Items },
    Done,
}

impl Default for Phase {
    fn default() -> Phase {
        Phase::Head(Vec::new())
    }
}

#[derive(Debug)]
enum Framing {
    Length(u64),
    /// To the end of the connection (no length, HTTP/1.0, or an upgraded connection).
    ToClose,
    Chunked(Chunk),
}

#[derive(Debug)]
enum Chunk {
    Size(Vec<u8>),
    Data(u64),
    /// The line end after a chunk's data.
    DataEnd,
    Trailer(Vec<u8>),
    End,
}

impl Response {
    /// Takes in what came; returns how much of it belongs to this answer.
    fn take(&mut self, bytes: &[u8], request: &Request) -> Result<usize, Why> {
        let mut used = 0;
        while used < bytes.len() {
            let rest = &bytes[used..];
            used += match &mut self.phase {
                Phase::Head(head) => {
                    let old = head.len();
                    let part = &rest[..rest.len().min((MAX_HEAD + 4).saturating_sub(old))];
                    head.extend_from_slice(part);
                    if !head.starts_with(&b"HTTP/1."[..head.len().min(7)]) {
                        return Err(Why::NotHttp);
                    }
                    match head_end(head) {
                        None if head.len() > MAX_HEAD => return Err(Why::Head),
                        None => part.len(),
                        Some(end) => {
                            let next = after_head(&head[..end], request)?;
                            self.phase = next;
                            end - old
                        }
                    }
                }
                Phase::Body { framing, items } => body(framing, items, rest)?,
                Phase::Done => return Ok(used),
            };
            if let Phase::Body { framing: Framing::Length(0) | Framing::Chunked(Chunk::End), .. } = self.phase {
                self.phase = Phase::Done;
            }
        }
        Ok(used)
    }
}

/// Where a head ends (past its blank line), if it has.
fn head_end(head: &[u8]) -> Option<usize> {
    head.iter().enumerate().filter(|(_, b)| **b == b'\n').find_map(|(i, _)| match head.get(i + 1..) {
        Some([b'\n', ..]) => Some(i + 2),
        Some([b'\r', b'\n', ..]) => Some(i + 3),
        _ => None,
    })
}

/// What follows a head: a body framed as its headers say, another head (`100 Continue`), or
/// nothing.
fn after_head(head: &[u8], request: &Request) -> Result<Phase, Why> {
    let text = std::str::from_utf8(head).map_err(|_| Why::NotHttp)?;
    let mut lines = text.lines();
    let status: u16 =
        lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).ok_or(Why::NotHttp)?;
    let kind = if (200..300).contains(&status) || status == 101 { request.kind() } else { Kind::Answer };
    let items = Items::new(kind);
    match status {
        101 => return Ok(Phase::Body { framing: Framing::ToClose, items }),
        100..=199 => return Ok(Phase::Head(Vec::new())),
        204 | 304 => return Ok(Phase::Done),
        _ if !request.has_body() => return Ok(Phase::Done),
        _ => {}
    }
    let mut framing = Framing::ToClose;
    for (name, value) in lines.filter_map(|l| l.split_once(':')) {
        let value = value.trim();
        if name.trim().eq_ignore_ascii_case("transfer-encoding") && value.to_ascii_lowercase().contains("chunked") {
            framing = Framing::Chunked(Chunk::Size(Vec::new()));
            break;
        }
        if name.trim().eq_ignore_ascii_case("content-length") {
            framing = Framing::Length(value.parse().map_err(|_| Why::NotHttp)?);
        }
    }
    Ok(Phase::Body { framing, items })
}

/// Takes in body bytes as framed; returns how many belong to the body.
fn body(framing: &mut Framing, items: &mut Items, rest: &[u8]) -> Result<usize, Why> {
    match framing {
        Framing::ToClose => {
            items.feed(rest)?;
            Ok(rest.len())
        }
        Framing::Length(left) => {
            let n = rest.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
            items.feed(&rest[..n])?;
            *left -= n as u64;
            Ok(n)
        }
        Framing::Chunked(chunk) => chunked(chunk, items, rest),
    }
}

fn chunked(chunk: &mut Chunk, items: &mut Items, rest: &[u8]) -> Result<usize, Why> {
    match chunk {
        Chunk::Size(line) => {
            let Some((taken, full)) = line_of(line, rest)? else { return Ok(rest.len()) };
            let size = full.split(|b| *b == b';').next().unwrap_or(&[]);
            let size = std::str::from_utf8(size).map_err(|_| Why::Chunk)?.trim();
            let size = u64::from_str_radix(size, 16).map_err(|_| Why::Chunk)?;
            *chunk = if size == 0 { Chunk::Trailer(Vec::new()) } else { Chunk::Data(size) };
            Ok(taken)
        }
        Chunk::Data(left) => {
            let n = rest.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
            items.feed(&rest[..n])?;
            *left -= n as u64;
            if *left == 0 {
                *chunk = Chunk::DataEnd;
            }
            Ok(n)
        }
        Chunk::DataEnd => match rest[0] {
            b'\r' => Ok(1),
            b'\n' => {
                *chunk = Chunk::Size(Vec::new());
                Ok(1)
            }
            _ => Err(Why::Chunk),
        },
        Chunk::End => Ok(0),
        Chunk::Trailer(line) => {
            let Some((taken, full)) = line_of(line, rest)? else { return Ok(rest.len()) };
            // A blank line ends the trailers, and the body.
            *chunk = if full.is_empty() { Chunk::End } else { Chunk::Trailer(Vec::new()) };
            Ok(taken)
        }
    }
}

/// Gathers a line into `line`: `Some` (bytes taken, the line without its end) once it has
/// ended, `None` when all of `rest` went into it.
fn line_of(line: &mut Vec<u8>, rest: &[u8]) -> Result<Option<(usize, Vec<u8>)>, Why> {
    let end = rest.iter().position(|b| *b == b'\n');
    let part = &rest[..end.unwrap_or(rest.len())];
    if line.len() + part.len() > MAX_LINE {
        return Err(Why::Chunk);
    }
    line.extend_from_slice(part);
    let Some(end) = end else { return Ok(None) };
    let mut full = std::mem::take(line);
    if full.last() == Some(&b'\r') {
        full.pop();
    }
    Ok(Some((end + 1, full)))
}

/// What the body's bytes have come to, as its kind counts them.
#[derive(Debug)]
enum Items {
    Answer(u64),
    /// Bytes since the last line end.
    Lines(u64),
    Frames(Frame),
    Bytes,
}

/// Where a stream of output frames is, as bollard reads it: an 8-byte header (stream, 0, 0, 0,
/// length in 4 bytes) then the payload, or, when what comes first is not a stream number, a
/// line.
#[derive(Debug)]
enum Frame {
    Header([u8; 8], usize),
    Payload(u64),
    Line(u64),
}

impl Items {
    fn new(kind: Kind) -> Items {
        match kind {
            Kind::Answer => Items::Answer(0),
            Kind::Lines => Items::Lines(0),
            Kind::Frames => Items::Frames(Frame::Header([0; 8], 0)),
            Kind::Bytes => Items::Bytes,
        }
    }

    fn feed(&mut self, mut data: &[u8]) -> Result<(), Why> {
        match self {
            Items::Answer(total) => {
                *total += data.len() as u64;
                if *total > MAX_ANSWER {
                    return Err(Why::Answer);
                }
            }
            Items::Lines(run) => {
                *run = match data.iter().rposition(|b| *b == b'\n') {
                    Some(i) => (data.len() - i - 1) as u64,
                    None => *run + data.len() as u64,
                };
                if *run > MAX_ITEM {
                    return Err(Why::Item);
                }
            }
            Items::Frames(frame) => {
                while !data.is_empty() {
                    data = &data[frame.feed(data)?..];
                }
            }
            Items::Bytes => {}
        }
        Ok(())
    }
}

impl Frame {
    /// Takes in what it can of `data`; returns how much.
    fn feed(&mut self, data: &[u8]) -> Result<usize, Why> {
        match self {
            Frame::Header(_, 0) if data[0] > 2 => {
                *self = Frame::Line(0);
                Ok(0)
            }
            Frame::Header(header, have) => {
                let n = (8 - *have).min(data.len());
                header[*have..*have + n].copy_from_slice(&data[..n]);
                *have += n;
                if *have == 8 {
                    let len = u64::from(u32::from_be_bytes([header[4], header[5], header[6], header[7]]));
                    if len > MAX_ITEM {
                        return Err(Why::Item);
                    }
                    *self = if len == 0 { Frame::Header([0; 8], 0) } else { Frame::Payload(len) };
                }
                Ok(n)
            }
            Frame::Payload(left) => {
                let n = data.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                *left -= n as u64;
                if *left == 0 {
                    *self = Frame::Header([0; 8], 0);
                }
                Ok(n)
            }
            Frame::Line(run) => match data.iter().position(|b| *b == b'\n') {
                Some(i) => {
                    *self = Frame::Header([0; 8], 0);
                    Ok(i + 1)
                }
                None => {
                    *run += data.len() as u64;
                    if *run > MAX_ITEM {
                        return Err(Why::Item);
                    }
                    Ok(data.len())
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange(request: &str) -> Exchange {
        let mut ex = Exchange::default();
        ex.sent(request.as_bytes());
        ex
    }

    /// Feeds `bytes` `times` times, as reads of their size.
    fn feed(ex: &mut Exchange, bytes: &[u8], times: usize) -> Result<(), Refusal> {
        (0..times).try_for_each(|_| ex.received(bytes))
    }

    #[test]
    fn answers_within_their_cap_pass_and_the_next_request_starts_afresh() {
        let mut ex = exchange("GET /v1.41/containers/json?all=1 HTTP/1.1\r\nHost: docker\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]").unwrap();
        assert!(ex.answered);
        ex.sent(b"GET /v1.41/info HTTP/1.1\r\n\r\n");
        assert_eq!(ex.line, b"GET /v1.41/info HTTP/1.1\r");
        // Chunked, read a byte at a time.
        for b in b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" {
            ex.received(&[*b]).unwrap();
        }
        assert!(ex.answered);
    }

    #[test]
    fn an_endless_answer_ends_at_its_cap_naming_the_request() {
        let mut ex = exchange("GET /v1.41/containers/json?filters=x HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
        let chunk = format!("10000\r\n{}\r\n", "[".repeat(0x10000));
        let e = feed(&mut ex, chunk.as_bytes(), 2000).unwrap_err();
        assert_eq!(e.why, Why::Answer);
        assert_eq!(
            e.to_string(),
            "the engine's answer to GET /v1.41/containers/json is larger than 64 MiB, the cap on an answer; podrun \
             read no further"
        );
        // Reading on gets the same refusal.
        assert_eq!(ex.received(b"x"), Err(e));
        // An answer without framing is capped as well.
        let mut ex = exchange("GET /v1.41/version HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.0 200 OK\r\n\r\n").unwrap();
        assert_eq!(feed(&mut ex, &vec![b' '; 1 << 20], 65).unwrap_err().why, Why::Answer);
    }

    #[test]
    fn a_stream_is_capped_by_the_item_not_the_whole() {
        let mut ex = exchange("GET /v1.41/events?filters=x HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
        let line = format!("{:x}\r\n{}\n\r\n", 1001, "e".repeat(1000));
        feed(&mut ex, line.as_bytes(), 100_000).unwrap();
        let endless = format!("{:x}\r\n{}\r\n", 1000, "e".repeat(1000));
        assert_eq!(feed(&mut ex, endless.as_bytes(), 2000).unwrap_err().why, Why::Item);
        // An error answer to a stream's request is read whole: capped as an answer.
        let mut ex = exchange("POST /v1.41/images/create?fromImage=x HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 500 Oops\r\n\r\n").unwrap();
        assert_eq!(feed(&mut ex, &vec![b'\n'; 1 << 20], 65).unwrap_err().why, Why::Answer);
    }

    #[test]
    fn output_frames_are_capped_each() {
        let mut ex = exchange("POST /v1.41/exec/abc/start HTTP/1.1\r\nUpgrade: tcp\r\n\r\n");
        ex.received(b"HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\n\r\n").unwrap();
        let mut frame = vec![1, 0, 0, 0, 0, 0, 0x80, 0];
        frame.extend_from_slice(&vec![b'x'; 0x8000]);
        feed(&mut ex, &frame, 10_000).unwrap();
        ex.received(&[2, 0, 0, 0, 0, 0x20, 0, 0]).unwrap_err();
        // A line outside frames, as bollard reads one when no stream number comes first.
        let mut ex = exchange("GET /v1.41/containers/abc/logs?follow=1 HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nline\n").unwrap();
        assert_eq!(feed(&mut ex, &vec![b'x'; 1 << 16], 17).unwrap_err().why, Why::Item);
        // A file's bytes go as they come.
        let mut ex = exchange("GET /v1.41/containers/abc/archive?path=/x HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\n\r\n").unwrap();
        feed(&mut ex, &vec![0; 1 << 20], 100).unwrap();
    }

    #[test]
    fn garbage_and_endless_heads_are_refused() {
        let mut ex = exchange("GET /_ping HTTP/1.1\r\n\r\n");
        assert_eq!(ex.received(b"SSH-2.0-OpenSSH\r\n").unwrap_err().why, Why::NotHttp);
        let mut ex = exchange("GET /_ping HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\n").unwrap();
        assert_eq!(
            feed(&mut ex, b"X-Endless: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", 10_000).unwrap_err().why,
            Why::Head
        );
        let mut ex = exchange("GET /info HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
        assert_eq!(ex.received(b"zz\r\n").unwrap_err().why, Why::Chunk);
        // A 100 Continue is followed by the answer's own head.
        let mut ex = exchange("POST /v1.41/containers/create HTTP/1.1\r\n\r\n");
        ex.received(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}").unwrap();
        assert!(ex.answered);
    }
}
