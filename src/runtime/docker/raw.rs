//! The output of a container with a terminal, taken as the raw bytes it is.
//!
//! bollard decodes the engine's streams as Docker's multiplexed frames whenever a chunk starts
//! with a byte 0, 1 or 2, although a terminal's output is never multiplexed: a program that
//! wrote such a byte first (binary output, NUL padding) lost 8 bytes and, with the "frame
//! length" read from them, had the rest of its output held back until it ended. So for a
//! terminal podrun sends the one request itself, over a connection of its own to the same
//! endpoint, and reads what follows the response head as is: `POST /exec/{id}/start` upgraded
//! for `exec -t`, and `GET /containers/{id}/logs` as HTTP/1.0 (so the body comes unchunked, to
//! the connection's end) for the logs of a `tty: true` container. Streams without a terminal
//! keep bollard's (correct) frame decoding. [`get`] reads a whole answer the same way, for the
//! one request bollard has no call for (Podman's own `/libpod/info`), and [`ping`] the headers
//! of `GET /_ping`, which bollard does not return.

use std::pin::Pin;

use futures_util::stream::{self, BoxStream, StreamExt};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::transport::{Conn, Dialer};
use crate::runtime::{Cause, LogChunk, LogStream, RuntimeError, Unreachability};

/// The longest response head podrun reads before giving up on the engine's answer.
const MAX_HEAD: usize = 16 * 1024;

/// Connects to the engine through `dialer` (`endpoint` names it in errors: a unix socket, TCP,
/// TLS or SSH) and sends `request`; returns the connection past the response head, the head,
/// and the bytes read past it. An answer other than `ok` is an error by its status code (404,
/// 409), as bollard's are.
async fn request(
    dialer: &Dialer,
    endpoint: &str,
    what: &str,
    request: &str,
    ok: &[u16],
) -> Result<(Box<dyn Conn>, Head, Vec<u8>), RuntimeError> {
    let unreachable =
        |e: std::io::Error| RuntimeError::Unreachable { endpoint: endpoint.to_owned(), why: connection(e) };
    let mut conn = dialer.dial().await.map_err(unreachable)?;
    conn.write_all(request.as_bytes()).await.map_err(unreachable)?;
    // A TLS stream holds what is written until flushed.
    conn.flush().await.map_err(unreachable)?;
    let (head, rest) = read_head(&mut conn).await.map_err(unreachable)?;
    match head.status {
        s if ok.contains(&s) => Ok((conn, head, rest)),
        404 => Err(RuntimeError::NotFound { what: what.to_owned() }),
        409 => Err(RuntimeError::Conflict { what: what.to_owned() }),
        status => {
            let message = String::from_utf8_lossy(&rest).trim().to_owned();
            Err(RuntimeError::Engine { what: what.to_owned(), status, message })
        }
    }
}

/// Starts exec `exec_id` (created with a terminal) at the engine `dialer` reaches, speaking API
/// `api` (`1.41`): its raw output, and its input.
pub async fn start_exec(
    dialer: &Dialer,
    endpoint: &str,
    api: &str,
    exec_id: &str,
) -> Result<(BoxStream<'static, Result<LogChunk, RuntimeError>>, Pin<Box<dyn AsyncWrite + Send>>), RuntimeError> {
    let body = r#"{"Detach":false,"Tty":true}"#;
    let req = format!(
        "POST /v{api}/exec/{exec_id}/start HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json\r\n\
         Connection: Upgrade\r\nUpgrade: tcp\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // 101 Switching Protocols; an engine that does not upgrade answers 200 and streams on.
    let (conn, _, rest) = request(dialer, endpoint, &format!("start exec {exec_id}"), &req, &[101, 200]).await?;
    let (read, write) = tokio::io::split(conn);
    Ok((output(rest, read), Box::pin(write)))
}

/// The logs of container `id` (one with a terminal) as `query` selects them
/// (`stdout=1&stderr=1&follow=1...`): raw bytes, to the end of the connection.
pub async fn logs(
    dialer: &Dialer,
    endpoint: &str,
    api: &str,
    id: &str,
    query: &str,
) -> Result<BoxStream<'static, Result<LogChunk, RuntimeError>>, RuntimeError> {
    // HTTP/1.0: the engine cannot chunk the body, and ends it by closing the connection.
    let req = format!("GET /v{api}/containers/{id}/logs?{query} HTTP/1.0\r\nHost: docker\r\n\r\n");
    let (conn, _, rest) = request(dialer, endpoint, &format!("logs of container {id}"), &req, &[200]).await?;
    Ok(output(rest, conn))
}

/// The body of `GET path` (`/v4.0.0/libpod/info`), read to its end (HTTP/1.0, as for logs);
/// one longer than `limit` bytes is an error.
pub async fn get(dialer: &Dialer, host: &str, what: &str, path: &str, limit: usize) -> Result<Vec<u8>, RuntimeError> {
    let req = format!("GET {path} HTTP/1.0\r\nHost: docker\r\n\r\n");
    let (conn, _, mut body) = request(dialer, host, what, &req, &[200]).await?;
    let failed = |e| RuntimeError::Unreachable { endpoint: host.to_owned(), why: connection(e) };
    conn.take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut body)
        .await
        .map_err(failed)?;
    if body.len() > limit {
        let too_long = format!("the engine's answer to GET {path} is larger than {} KiB, the cap on it", limit / 1024);
        return Err(failed(std::io::Error::new(std::io::ErrorKind::InvalidData, too_long)));
    }
    Ok(body)
}

/// The response headers of the engine's `GET /_ping`, which say what it is (see
/// `DockerRuntime::connect`).
pub async fn ping(dialer: &Dialer, endpoint: &str) -> Result<Head, RuntimeError> {
    let req = "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n";
    let (_, head, _) = request(dialer, endpoint, "ping", req, &[200]).await?;
    Ok(head)
}

/// A response head: its status code and headers.
#[derive(Debug)]
pub struct Head {
    pub status: u16,
    /// Each header's name in lower case, and its value.
    headers: Vec<(String, String)>,
}

impl Head {
    pub(super) fn parse(text: &str) -> Option<Head> {
        let mut lines = text.split("\r\n");
        let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        Some(Head { status, headers })
    }

    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Reads the response head; returns it and the bytes read past it.
async fn read_head(conn: &mut (impl AsyncRead + Unpin)) -> std::io::Result<(Head, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > MAX_HEAD {
            let why = format!("the engine's response head is longer than {} KiB, the cap on it", MAX_HEAD / 1024);
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
        }
        let n = conn.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed before an answer"));
        }
        buf.extend_from_slice(&chunk[..n]);
        if !buf.starts_with(&b"HTTP/"[..buf.len().min(5)]) {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP response"));
        }
    };
    let head = Head::parse(&String::from_utf8_lossy(&buf[..end]))
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP response"))?;
    Ok((head, buf[end..].to_vec()))
}

/// The terminal's output as it comes, starting with what came with the response head.
fn output(
    first: Vec<u8>,
    read: impl AsyncRead + Send + Unpin + 'static,
) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
    let chunk = |bytes: Vec<u8>| Ok(LogChunk { stream: LogStream::Stdout, bytes });
    let first = stream::iter((!first.is_empty()).then(|| chunk(first)));
    // One read buffer for the whole stream; each chunk gets only the bytes it holds.
    let rest = stream::unfold((read, vec![0u8; 32 * 1024]), move |(mut read, mut buf)| async move {
        match read.read(&mut buf).await {
            // The end of the stream, or a broken connection: the command's output is over.
            Ok(0) | Err(_) => None,
            Ok(n) => Some((chunk(buf[..n].to_vec()), (read, buf))),
        }
    });
    first.chain(rest).boxed()
}

/// A failed connection or read, in the io error's own words.
fn connection(e: std::io::Error) -> Unreachability {
    Unreachability::Connection(Cause(std::sync::Arc::new(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_head_is_parsed_and_what_follows_is_kept_whole() {
        let (mut client, mut server) = tokio::io::duplex(1024);
        server
            .write_all(b"HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\n\r\n\x01\x00\x00\x00\x00\x00\x00\x05hi")
            .await
            .unwrap();
        let (head, rest) = read_head(&mut client).await.unwrap();
        assert_eq!(head.status, 101);
        assert_eq!(head.header("connection"), Some("Upgrade"));
        assert_eq!(rest, b"\x01\x00\x00\x00\x00\x00\x00\x05hi");
        drop(server);
        let (read, _write) = tokio::io::split(client);
        let got: Vec<u8> = output(rest, read).map(|c| c.unwrap().bytes).concat().await;
        assert_eq!(got, b"\x01\x00\x00\x00\x00\x00\x00\x05hi", "no byte taken for a frame header");
    }

    #[tokio::test]
    async fn a_closed_or_garbled_answer_is_an_error() {
        let (mut client, server) = tokio::io::duplex(64);
        drop(server);
        assert!(read_head(&mut client).await.is_err());
        let (mut client, mut server) = tokio::io::duplex(64);
        server.write_all(b"garbage\r\n\r\n").await.unwrap();
        assert!(read_head(&mut client).await.is_err());
    }

    #[test]
    fn headers_are_found_by_any_case_and_trimmed() {
        let head =
            Head::parse("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nServer:Docker/20.10.24 (linux)\r\nbad line\r\n\r\n")
                .unwrap();
        assert_eq!(head.status, 200);
        assert_eq!(head.header("api-version"), Some("1.41"));
        assert_eq!(head.header("SERVER"), Some("Docker/20.10.24 (linux)"));
        assert_eq!(head.header("Libpod-Api-Version"), None);
    }
}
