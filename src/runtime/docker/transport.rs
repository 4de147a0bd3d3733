//! How podrun reaches the engine, byte for byte: a unix socket, TCP, TLS over TCP, or an `ssh`
//! process running `docker system dial-stdio` on the far side. One [`Dialer`] serves both
//! bollard (through its custom transport, with hyper's connection pool, for TLS and SSH) and
//! [`super::raw`], which sends its own requests for terminal exec and raw logs, so every
//! transport carries both.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bollard::{BollardRequest, Docker};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};

use super::guard::Guarded;
use super::ssh::SshCommand;
use super::tls::{self, TlsClient};
use crate::runtime::hyper_conn::HyperConn;

/// A byte stream to the engine.
pub trait Conn: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Conn for T {}

/// How long a TCP connection (and its TLS handshake) may take before the engine counts as
/// unreachable: the Docker CLI's dial timeout.
const DIAL_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a failed TLS connection's diagnosis waits for the engine's alert.
const ALERT_WAIT: Duration = Duration::from_secs(1);

/// Where the bytes go.
#[derive(Debug, Clone)]
pub enum Dialer {
    Unix(String),
    /// `host:port`
    Tcp(String),
    Tls {
        addr: String,
        client: TlsClient,
    },
    Ssh(Arc<SshCommand>),
}

/// An endpoint podrun cannot dial as written.
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    #[error("unsupported address: use unix:///path, tcp://host:port or ssh://[user@]host")]
    Unsupported,
    #[error("no host in the address")]
    NoHost,
    #[error(transparent)]
    Ssh(#[from] super::ssh::UrlError),
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
}

impl Dialer {
    /// The dialer for `host` (`unix:///path`, `tcp://host:port`, `http://host:port`,
    /// `ssh://[user@]host[:port][/socket]`), with TLS when `tls` is given (tcp only).
    pub fn new(host: &str, tls: Option<&tls::TlsFiles>) -> Result<Dialer, EndpointError> {
        if let Some(path) = host.strip_prefix("unix://") {
            return Ok(Dialer::Unix(path.to_owned()));
        }
        if host.starts_with("ssh://") {
            return Ok(Dialer::Ssh(Arc::new(SshCommand::parse(host)?)));
        }
        let rest = match host.split_once("://") {
            Some(("tcp" | "http", rest)) => rest,
            Some(("https", rest)) if tls.is_some() => rest,
            _ => return Err(EndpointError::Unsupported),
        };
        let addr = rest.split('/').next().unwrap_or(rest);
        if addr.is_empty() {
            return Err(EndpointError::NoHost);
        }
        match tls {
            Some(files) => {
                // The Docker CLI's default port for TLS.
                let addr = match tls::split_host_port(addr) {
                    (_, Some(_)) => addr.to_owned(),
                    (h, None) => format!("{h}:2376"),
                };
                tls::server_name(&addr)?;
                Ok(Dialer::Tls { addr, client: TlsClient::new(files)? })
            }
            None => Ok(Dialer::Tcp(addr.to_owned())),
        }
    }

    /// Opens a connection.
    pub async fn dial(&self) -> io::Result<Box<dyn Conn>> {
        let timed_out =
            || io::Error::new(io::ErrorKind::TimedOut, format!("no connection within {}s", DIAL_TIMEOUT.as_secs()));
        match self {
            Dialer::Unix(path) => Ok(Box::new(tokio::net::UnixStream::connect(path).await?)),
            Dialer::Tcp(addr) => {
                let tcp = tokio::time::timeout(DIAL_TIMEOUT, tokio::net::TcpStream::connect(addr.as_str()))
                    .await
                    .map_err(|_| timed_out())??;
                Ok(Box::new(tcp))
            }
            Dialer::Tls { addr, client } => {
                let name = tls::server_name(addr).map_err(io::Error::other)?;
                let connect = async {
                    let tcp = tokio::net::TcpStream::connect(addr.as_str()).await?;
                    tokio_rustls::TlsConnector::from(client.config.clone()).connect(name, tcp).await
                };
                Ok(Box::new(tokio::time::timeout(DIAL_TIMEOUT, connect).await.map_err(|_| timed_out())??))
            }
            Dialer::Ssh(ssh) => Ok(Box::new(ssh.spawn()?)),
        }
    }

    /// Why a request failed, in words, when the transport knows better than the error's text:
    /// which side of a TLS handshake refused, or what `ssh` said.
    pub async fn explain(&self, e: &(dyn std::error::Error + 'static)) -> Option<String> {
        match self {
            Dialer::Tls { client, .. } => match client.explain(e) {
                Some(said) => Some(said),
                None => self.refusal_after_handshake(client).await,
            },
            Dialer::Ssh(ssh) => ssh.last_error().await,
            Dialer::Unix(_) | Dialer::Tcp(_) => None,
        }
    }

    /// Under TLS 1.3 the engine judges podrun's certificate after podrun's side of the
    /// handshake has ended, so its alert can come after the request already failed on a
    /// closed connection, with no TLS error among the causes. One more handshake, and a read
    /// that waits a moment for the engine's word, finds the alert if there is one.
    async fn refusal_after_handshake(&self, client: &TlsClient) -> Option<String> {
        let mut conn = match self.dial().await {
            Ok(conn) => conn,
            Err(e) => return client.explain(&e),
        };
        let mut byte = [0u8; 1];
        match tokio::time::timeout(ALERT_WAIT, conn.read(&mut byte)).await {
            Ok(Err(e)) => client.explain(&e),
            Ok(Ok(_)) | Err(_) => None,
        }
    }

    /// A bollard client that sends every request through this dialer, each answer capped
    /// ([`super::guard`]). A TLS or SSH connection is costly to make, so those are kept in
    /// hyper's pool; a unix or plain TCP one is made for each request, as bollard's own clients
    /// make them: a kept connection to an engine that is shutting down still answers after its
    /// socket is gone, and would make one outage look like two.
    pub fn bollard(&self, timeout_secs: u64) -> Result<Docker, bollard::errors::Error> {
        let mut builder = hyper_util::client::legacy::Client::builder(TokioExecutor::new());
        if matches!(self, Dialer::Unix(_) | Dialer::Tcp(_)) {
            builder.pool_max_idle_per_host(0);
        }
        let client = builder.build(Connector(self.clone()));
        let client = Arc::new(client);
        Docker::connect_with_custom_transport(
            move |req: BollardRequest| {
                let client = Arc::clone(&client);
                Box::pin(async move { client.request(req).await.map_err(bollard::errors::Error::from) })
                    as Pin<Box<dyn Future<Output = _> + Send>>
            },
            // The Host header bollard sends; the dialer decides where the bytes go.
            Some("http://docker"),
            timeout_secs,
            bollard::API_DEFAULT_VERSION,
        )
    }
}

/// The dialer as hyper's connector.
#[derive(Clone)]
struct Connector(Dialer);

impl tower_service::Service<hyper::Uri> for Connector {
    type Response = TokioIo<Stream>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<TokioIo<Stream>>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: hyper::Uri) -> Self::Future {
        let dialer = self.0.clone();
        Box::pin(async move { Ok(TokioIo::new(HyperConn(Guarded::new(dialer.dial().await?)))) })
    }
}

/// A connection as hyper wants it.
pub type Stream = HyperConn<Guarded<Box<dyn Conn>>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_pick_their_transport() {
        assert!(
            matches!(Dialer::new("unix:///var/run/docker.sock", None), Ok(Dialer::Unix(p)) if p == "/var/run/docker.sock")
        );
        assert!(matches!(Dialer::new("tcp://10.0.0.1:2375", None), Ok(Dialer::Tcp(a)) if a == "10.0.0.1:2375"));
        assert!(matches!(Dialer::new("http://h:2375/", None), Ok(Dialer::Tcp(a)) if a == "h:2375"));
        let unverified = tls::TlsFiles { verify: false, ..tls::TlsFiles::default() };
        assert!(
            matches!(Dialer::new("tcp://docker", Some(&unverified)), Ok(Dialer::Tls { addr, .. }) if addr == "docker:2376")
        );
        assert!(matches!(Dialer::new("ssh://me@h:22", None), Ok(Dialer::Ssh(_))));
        assert!(Dialer::new("npipe:////./pipe/docker_engine", None).is_err());
        assert!(Dialer::new("tcp://", None).is_err());
    }
}
