//! One GET of a URL source, as the kubelet's http source makes it (pkg/kubelet/config/http.go)
//! with Go's client: HTTP/1.1 over TCP, or over TLS verified against the system's CAs
//! (SSL_CERT_FILE first, as Go and OpenSSL read it); redirects followed as `address` allows,
//! at most [`MAX_REDIRECTS`]; the whole of it (every connection, every answer, every byte)
//! within [`TIME_LIMIT`], and no more than the most podrun reads from any input. An answer
//! other than 2xx is an error naming its status. One connection per request, closed after it:
//! a source read every 20 s keeps nothing open between reads.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::{Body, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use rustls::ClientConfig;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use url::{Host, Url};

use crate::runtime::docker::tls::{TlsClient, TlsError, TlsFiles};

use super::address::{self, AddressError};
use super::header::Header;

/// The longest a read of a URL source takes, connecting and redirects included (the kubelet's
/// client takes 10 s; a manifest server on a slow link gets more here).
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

/// Go's client stops after this many redirects.
pub const MAX_REDIRECTS: usize = 10;

/// What podrun calls itself in requests.
const USER_AGENT: &str = concat!("podrun/", env!("CARGO_PKG_VERSION"));

/// Why a URL could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(transparent)]
    Address(#[from] AddressError),
    #[error("the system's CAs")]
    Trust(#[source] TlsError),
    #[error("cannot connect to {0}")]
    Connect(String, #[source] std::io::Error),
    #[error("TLS with {0}: {1}")]
    Tls(String, String),
    #[error("HTTP")]
    Http(#[source] hyper::Error),
    #[error("the request")]
    Request(#[source] hyper::http::Error),
    #[error("the server answered {0}")]
    Status(StatusCode),
    #[error("larger than {} MiB, the most podrun reads from one input", .0 >> 20)]
    TooLarge(u64),
    #[error("no complete answer within {}", humantime::format_duration(TIME_LIMIT))]
    TimedOut,
    #[error("stopped after {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
}

/// The body of `url`'s answer, at most `cap` bytes.
pub async fn get(url: &Url, headers: &[Header], cap: u64) -> Result<Vec<u8>, FetchError> {
    tokio::time::timeout(TIME_LIMIT, follow(url, headers, cap)).await.map_err(|_| FetchError::TimedOut)?
}

/// Requests `first`, and where its redirects lead.
async fn follow(first: &Url, headers: &[Header], cap: u64) -> Result<Vec<u8>, FetchError> {
    let mut url = first.clone();
    for _ in 0..=MAX_REDIRECTS {
        let keep_all = address::keeps_sensitive_headers(first, &url);
        let sent = headers.iter().filter(|h| keep_all || !address::SENSITIVE.contains(&h.name.as_str()));
        // The connection lives until its answer is read or given up.
        let (answer, _connection) = request(&url, sent).await?;
        let status = answer.status();
        if status.is_success() {
            return body(answer.into_body(), cap).await;
        }
        let location = answer.headers().get(header::LOCATION).map(HeaderValue::as_bytes);
        match location {
            Some(to) if is_redirect(status) => url = address::follow(&url, &String::from_utf8_lossy(to))?,
            _ => return Err(FetchError::Status(status)),
        }
    }
    Err(FetchError::TooManyRedirects)
}

/// The statuses Go's client follows with a GET.
fn is_redirect(s: StatusCode) -> bool {
    matches!(s.as_u16(), 301 | 302 | 303 | 307 | 308)
}

/// One GET of `url`, its answer's head read, and the task driving its connection.
async fn request(
    url: &Url,
    headers: impl Iterator<Item = &Header>,
) -> Result<(Response<Incoming>, Connection), FetchError> {
    let mut req = Request::get(address::target(url)).header(header::HOST, address::authority(url));
    for h in headers {
        req = req.header(&h.name, &h.value);
    }
    // The flags' User-Agent and Authorization win over podrun's own and the URL's user, as
    // in Go's client.
    let given = |name| req.headers_ref().is_some_and(|h| h.contains_key(name));
    let (agent, auth) = (!given(header::USER_AGENT), !given(header::AUTHORIZATION));
    if agent {
        req = req.header(header::USER_AGENT, USER_AGENT);
    }
    if let Some(basic) = basic_auth(url).filter(|_| auth) {
        req = req.header(header::AUTHORIZATION, basic);
    }
    let req = req.body(String::new()).map_err(FetchError::Request)?;
    let (host, port) = dial(url)?;
    let at = format!("{host}:{port}");
    let tcp = TcpStream::connect((host.as_str(), port)).await.map_err(|e| FetchError::Connect(at.clone(), e))?;
    if url.scheme() == "https" {
        let name = server_name(url)?;
        let stream =
            TlsConnector::from(trust()?).connect(name, tcp).await.map_err(|e| FetchError::Tls(at, tls_failure(&e)))?;
        exchange(stream, req).await
    } else {
        exchange(tcp, req).await
    }
}

/// The client configuration of HTTPS: the system's CAs, read again only when their files
/// changed (a bundle renewed while supervision runs is taken; see the runtime's `ca_files`),
/// and only for HTTPS (plain HTTP works without a bundle).
fn trust() -> Result<Arc<ClientConfig>, FetchError> {
    let client = TlsClient::new(&TlsFiles { verify: true, ..TlsFiles::default() }).map_err(FetchError::Trust)?;
    Ok(client.config)
}

/// Why a TLS handshake failed, in words, as far as rustls says.
fn tls_failure(e: &std::io::Error) -> String {
    use rustls::{CertificateError as C, Error as E};
    let Some(tls) = e.get_ref().and_then(|i| i.downcast_ref::<E>()) else { return e.to_string() };
    match tls {
        E::InvalidCertificate(C::UnknownIssuer | C::BadSignature) => {
            "the server's certificate is not signed by a CA podrun trusts (the system's, or SSL_CERT_FILE's)".into()
        }
        E::InvalidCertificate(C::NotValidForName | C::NotValidForNameContext { .. }) => {
            "the server's certificate is not valid for the host in the URL".into()
        }
        E::InvalidCertificate(C::Expired | C::ExpiredContext { .. }) => "the server's certificate has expired".into(),
        E::InvalidMessage(_) | E::InappropriateMessage { .. } => "the server does not speak TLS on this port".into(),
        other => other.to_string(),
    }
}

/// `Authorization: Basic` from the user and password in the URL, as Go's client sends it.
fn basic_auth(url: &Url) -> Option<HeaderValue> {
    use base64::Engine as _;
    if url.username().is_empty() && url.password().is_none() {
        return None;
    }
    let mut pair = unescape(url.username());
    pair.push(b':');
    pair.extend(unescape(url.password().unwrap_or("")));
    let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
    let mut value = HeaderValue::from_str(&format!("Basic {encoded}")).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// `s` with its `%XX` escapes decoded, as a URL writes its user and password.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex =
            b.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Where to connect: the host without brackets, and the port (the scheme's if none).
fn dial(url: &Url) -> Result<(String, u16), AddressError> {
    let host = match url.host().ok_or(AddressError::NoHost)? {
        Host::Domain(d) => d.to_owned(),
        Host::Ipv4(ip) => ip.to_string(),
        Host::Ipv6(ip) => ip.to_string(),
    };
    Ok((host, url.port_or_known_default().unwrap_or(80)))
}

fn server_name(url: &Url) -> Result<ServerName<'static>, AddressError> {
    Ok(match url.host().ok_or(AddressError::NoHost)? {
        Host::Domain(d) => ServerName::try_from(d.to_owned()).map_err(|_| AddressError::ServerName(d.to_owned()))?,
        Host::Ipv4(ip) => ServerName::IpAddress(std::net::IpAddr::V4(ip).into()),
        Host::Ipv6(ip) => ServerName::IpAddress(std::net::IpAddr::V6(ip).into()),
    })
}

/// The task driving a connection, ended when this is dropped: a server that stalls is not
/// left holding a task after its read timed out.
struct Connection(tokio::task::JoinHandle<Result<(), hyper::Error>>);

impl Drop for Connection {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Sends `req` over `io` and reads the head of the answer; the connection is driven beside it.
async fn exchange<S>(io: S, req: Request<String>) -> Result<(Response<Incoming>, Connection), FetchError>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(io)).await.map_err(FetchError::Http)?;
    let connection = Connection(tokio::spawn(conn));
    let answer = sender.send_request(req).await.map_err(FetchError::Http)?;
    Ok((answer, connection))
}

/// The answer's body, at most `cap` bytes.
async fn body(mut body: Incoming, cap: u64) -> Result<Vec<u8>, FetchError> {
    if body.size_hint().lower() > cap {
        return Err(FetchError::TooLarge(cap));
    }
    let mut bytes = Vec::new();
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        if let Ok(data) = frame.map_err(FetchError::Http)?.into_data() {
            if (bytes.len() + data.len()) as u64 > cap {
                return Err(FetchError::TooLarge(cap));
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_and_password_of_a_url_are_basic_auth() {
        let url = Url::parse("http://al%20ice:p%40ss@h/").unwrap();
        let v = basic_auth(&url).unwrap();
        assert!(v.is_sensitive());
        assert_eq!(v.to_str().unwrap(), "Basic YWwgaWNlOnBAc3M="); // "al ice:p@ss"
        assert!(basic_auth(&Url::parse("http://h/").unwrap()).is_none());
        assert_eq!(unescape("a%2"), b"a%2", "a cut escape stays as written");
    }

    #[test]
    fn where_to_connect() {
        assert_eq!(dial(&Url::parse("https://[::1]/p").unwrap()).unwrap(), ("::1".to_owned(), 443));
        assert_eq!(dial(&Url::parse("http://h.example:8080/p").unwrap()).unwrap(), ("h.example".to_owned(), 8080));
        assert!(matches!(server_name(&Url::parse("https://127.0.0.1/").unwrap()), Ok(ServerName::IpAddress(_))));
        assert!(is_redirect(StatusCode::TEMPORARY_REDIRECT) && !is_redirect(StatusCode::NOT_MODIFIED));
    }

    #[test]
    fn a_refused_certificate_is_said_in_words() {
        let io = |e: rustls::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
        let unknown = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        assert!(tls_failure(&io(unknown)).contains("not signed by a CA podrun trusts"));
        let plain = rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType);
        assert_eq!(tls_failure(&io(plain)), "the server does not speak TLS on this port");
        assert_eq!(tls_failure(&std::io::Error::other("reset")), "reset");
    }
}
