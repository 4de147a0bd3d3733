//! The probes' HTTP client: one GET written by hand over TCP, or over TLS for `scheme: HTTPS`
//! (a probe needs a request and the head of its answer, not a client library), its redirects
//! followed as the kubelet's client follows them (`redirects`). HTTPS is probed as the kubelet
//! does it: the server's certificate is not verified (see `runtime::insecure_tls`).

use std::sync::{Arc, OnceLock};

use rustls::crypto::ring;
use rustls::pki_types::{InvalidDnsNameError, ServerName};
use rustls::ClientConfig;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_rustls::TlsConnector;

use crate::manifest::defaults::DEFAULT_HTTP_GET_PATH;
use crate::manifest::types::HttpGetAction;
use crate::runtime::insecure_tls::AcceptAnyCertificate;

use super::join_host_port;
use super::port::{connect, DialError};
use super::redirects::{self, Hop, RedirectError};

/// What the kubelet sends, so servers that log or special-case probes recognise podrun's.
pub const USER_AGENT: &str = "kube-probe/1.35";

/// What the kubelet sends with a lifecycle hook's request.
pub const HOOK_USER_AGENT: &str = "kube-lifecycle/1.35";

/// The head of any sane server's answer fits; a longer one is not read.
const MAX_HEAD: usize = 64 * 1024;

/// Why a GET got no status code.
#[derive(Debug, thiserror::Error)]
pub enum GetError {
    #[error(transparent)]
    Dial(#[from] DialError),
    #[error(transparent)]
    Redirect(#[from] RedirectError),
    #[error("Get {location:?}: stopped after {} redirects", redirects::MAX_REQUESTS)]
    TooManyRedirects { location: String },
    #[error("TLS server name {host:?}")]
    ServerName {
        host: String,
        #[source]
        source: InvalidDnsNameError,
    },
    /// `plain`: the server answered with something that is not TLS (Go's "server gave HTTP
    /// response to HTTPS client").
    #[error("TLS handshake with {address}")]
    Handshake {
        address: String,
        plain: bool,
        #[source]
        source: std::io::Error,
    },
    #[error("not an HTTP response: {0:?}")]
    NotHttp(String),
    #[error("sending the request")]
    Send(#[source] std::io::Error),
    #[error("invalid HTTP header name {0:?}")]
    HeaderName(String),
    #[error("invalid value for HTTP header {0:?}")]
    HeaderValue(String),
    #[error("the response's head is too long")]
    HeadTooLong,
    #[error("reading the response")]
    Read(#[source] std::io::Error),
    #[error("the connection closed before a response")]
    Closed,
}

/// The answer a GET ended with.
#[derive(Debug)]
pub(super) struct Answer {
    pub(super) code: u16,
    /// Where a redirect that was not followed pointed.
    pub(super) location: Option<String>,
}

/// Sends a GET, over TLS when `tls`, and follows its redirects as the kubelet's client does
/// (`redirects`); returns the last answer.
pub(super) async fn get(
    http: &HttpGetAction,
    host: &str,
    port: u16,
    tls: bool,
    agent: &str,
) -> Result<Answer, GetError> {
    let first = Hop::first(tls, host, port, request_target(http.path.as_deref()));
    let mut hop = first.clone();
    for made in 1.. {
        let head = send(http, &hop, agent).await?;
        let location = head.location.filter(|_| redirects::is_followed(head.code));
        let Some(location) = location else {
            return Ok(Answer { code: head.code, location: None });
        };
        match redirects::follow(&first, &hop, &location)? {
            None => return Ok(Answer { code: head.code, location: Some(location) }),
            Some(_) if made >= redirects::MAX_REQUESTS => {
                return Err(GetError::TooManyRedirects { location });
            }
            Some(next) => hop = next,
        }
    }
    unreachable!("the loop returns")
}

/// The status code and `Location` of one answer.
struct Head {
    code: u16,
    location: Option<String>,
}

/// Sends one request and reads the head of its answer.
async fn send(http: &HttpGetAction, hop: &Hop, agent: &str) -> Result<Head, GetError> {
    let (host, port) = (hop.host.as_str(), hop.port);
    let request = request(http, hop, agent)?;
    let stream = connect(host, port).await?;
    let head = if hop.tls {
        // The server name is the probe's host or the pod IP, as in the kubelet's request URL;
        // rustls sends it as SNI only when it is a DNS name, as Go does.
        let name = ServerName::try_from(host.to_owned())
            .map_err(|source| GetError::ServerName { host: host.to_owned(), source })?;
        let stream = TlsConnector::from(tls_config()).connect(name, stream).await.map_err(|source| {
            GetError::Handshake { address: join_host_port(host, port), plain: answered_without_tls(&source), source }
        })?;
        exchange(stream, &request).await?
    } else {
        exchange(stream, &request).await?
    };
    let mut lines = head.lines();
    let line = lines.next().unwrap_or_default();
    let code = status_code(line).ok_or_else(|| GetError::NotHttp(line.trim_end().to_owned()))?;
    let location = lines.find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.trim().eq_ignore_ascii_case("Location").then(|| value.trim().to_owned())
    });
    Ok(Head { code, location: location.filter(|l| !l.is_empty()) })
}

/// Whether a failed TLS handshake got an answer that is not a TLS record at all (a plain HTTP
/// server answering the ClientHello with `HTTP/1.1 400 ...`).
fn answered_without_tls(e: &std::io::Error) -> bool {
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>());
    matches!(inner, Some(rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType)))
}

/// Sends the request and reads the answer's head, over TCP or TLS alike.
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, request: &str) -> Result<String, GetError> {
    stream.write_all(request.as_bytes()).await.map_err(GetError::Send)?;
    // A TLS stream may hold the request in its buffer until flushed; for TCP this is a no-op.
    stream.flush().await.map_err(GetError::Send)?;
    read_head(&mut stream).await
}

/// The client side of HTTPS probes, built once: ring's algorithms, TLS 1.2 and 1.3, no client
/// certificate, and no verification of the server's certificate.
fn tls_config() -> Arc<ClientConfig> {
    static CONFIG: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let provider = Arc::new(ring::default_provider());
            let verifier = AcceptAnyCertificate(provider.signature_verification_algorithms);
            let config = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("ring supports the default protocol versions")
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(verifier))
                .with_no_client_auth();
            Arc::new(config)
        })
        .clone()
}

/// The request, headers in the kubelet's manner: the probe's own headers, a `Host` header
/// unless the probe sets one (and this request keeps it), `User-Agent` and `Accept` unless
/// the probe sets them (set to an empty value, they are left out), and after a redirect the
/// `Referer` Go's client adds.
fn request(http: &HttpGetAction, hop: &Hop, agent: &str) -> Result<String, GetError> {
    let mut out = format!("GET {} HTTP/1.1\r\n", hop.target);
    let is = |name: &str| http.http_headers.iter().any(|h| h.name.eq_ignore_ascii_case(name));
    let own_host = is("Host") && hop.custom_host;
    if !own_host {
        out += &format!("Host: {}\r\n", hop.authority);
    }
    for h in &http.http_headers {
        // Checked by validation too; repeated because a bad one would corrupt the request.
        if h.name.is_empty() || !h.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Err(GetError::HeaderName(h.name.clone()));
        }
        if h.value.contains(['\r', '\n']) {
            return Err(GetError::HeaderValue(h.name.clone()));
        }
        // The connection is podrun's: it closes it after the answer's head.
        if h.name.eq_ignore_ascii_case("Connection") || (h.name.eq_ignore_ascii_case("Host") && !own_host) {
            continue;
        }
        let defaulted = h.name.eq_ignore_ascii_case("User-Agent") || h.name.eq_ignore_ascii_case("Accept");
        if defaulted && h.value.is_empty() {
            continue;
        }
        out += &format!("{}: {}\r\n", h.name, h.value);
    }
    if !is("User-Agent") {
        out += &format!("User-Agent: {agent}\r\n");
    }
    if !is("Accept") {
        out += "Accept: */*\r\n";
    }
    if let Some(referer) = hop.referer.as_ref().filter(|_| !is("Referer")) {
        out += &format!("Referer: {referer}\r\n");
    }
    out += "Connection: close\r\n\r\n";
    Ok(out)
}

/// The path as a request target: rooted, without a fragment (never sent), and with bytes that
/// cannot appear in a request line (spaces, controls, non-ASCII) percent-encoded, as Go's URL
/// handling would.
fn request_target(path: Option<&str>) -> String {
    let path = path.filter(|p| !p.is_empty()).unwrap_or(DEFAULT_HTTP_GET_PATH);
    let path = path.split('#').next().unwrap_or_default();
    let mut out = String::with_capacity(path.len() + 1);
    if !path.starts_with('/') {
        out.push('/');
    }
    for b in path.bytes() {
        if b <= b' ' || b >= 0x7f || b == b'"' || b == b'<' || b == b'>' {
            out += &format!("%{b:02X}");
        } else {
            out.push(char::from(b));
        }
    }
    out
}

/// Reads up to the end of the answer's head (status line and headers); the body is never
/// read. A head cut short by the end of the connection is taken as it is.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Result<String, GetError> {
    let mut buf = Vec::with_capacity(512);
    let mut chunk = [0u8; 1024];
    loop {
        if let Some(end) = head_end(&buf) {
            buf.truncate(end);
            break;
        }
        if buf.len() > MAX_HEAD {
            return Err(GetError::HeadTooLong);
        }
        let n = stream.read(&mut chunk).await.map_err(GetError::Read)?;
        if n == 0 {
            if buf.is_empty() {
                return Err(GetError::Closed);
            }
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Where the head ends: at the first empty line (CRLF or bare LF), or at the end of a first
/// line that is not HTTP at all, so such an answer is not waited on.
fn head_end(buf: &[u8]) -> Option<usize> {
    let first = buf.iter().position(|b| *b == b'\n')?;
    if !buf.starts_with(b"HTTP/") {
        return Some(first);
    }
    let mut at = first + 1;
    while let Some(n) = buf[at..].iter().position(|b| *b == b'\n') {
        if buf[at..at + n].iter().all(|b| *b == b'\r') {
            return Some(at);
        }
        at += n + 1;
    }
    None
}

/// `HTTP/1.1 200 OK` gives 200.
fn status_code(line: &str) -> Option<u16> {
    let rest = line.strip_prefix("HTTP/")?;
    let mut parts = rest.split(' ');
    parts.next()?;
    let code = parts.next()?.trim_end_matches('\r');
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    code.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_targets_and_status_lines() {
        assert_eq!(request_target(None), "/");
        assert_eq!(request_target(Some("healthz")), "/healthz");
        assert_eq!(request_target(Some("/a b\r\nX: y#frag")), "/a%20b%0D%0AX:%20y");
        assert_eq!(status_code("HTTP/1.1 200 OK\r"), Some(200));
        assert_eq!(status_code("HTTP/1.0 404"), Some(404));
        assert_eq!(status_code("HTTP/1.1 20 OK"), None);
        assert_eq!(status_code("garbage"), None);
        assert_eq!(join_host_port("::1", 80), "[::1]:80");
    }
}
