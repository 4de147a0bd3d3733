//! TLS to a `tcp://` engine, as the Docker CLI sets it up: the CA that signs the engine's
//! certificate (ca.pem), podrun's client certificate and key (cert.pem, key.pem), and whether
//! the engine's certificate is verified at all (`--tls` without `--tlsverify`, or a context's
//! `SkipTLSVerify`, turns that off). The files come from DOCKER_CERT_PATH and the `--tls*`
//! flags, or from a context's TLS directory ([`super::context`]).
//!
//! Every failure is a sentence for exit 3 that names the file at fault or says which side
//! refused: a file that is missing or holds no certificate or key, the engine's certificate
//! not signed by the CA (or expired, or for another name), the engine refusing podrun's
//! certificate (none given, another CA's, expired). Built on the rustls (with ring) podrun
//! already has for HTTPS probes; no second TLS stack.

use std::error::Error as StdError;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod ca_files;

use crate::runtime::insecure_tls::AcceptAnyCertificate;
use ca_files::{certificates, read_capped};
use rustls::crypto::ring;
use rustls::pki_types::pem::{Error as PemError, PemObject};
use rustls::pki_types::{InvalidDnsNameError, PrivateKeyDer, ServerName};
use rustls::{AlertDescription, CertificateError, ClientConfig, RootCertStore};

/// The TLS material of an endpoint, as paths (read when podrun connects).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TlsFiles {
    /// The CA that signs the engine's certificate; None: the system's CAs.
    pub ca: Option<PathBuf>,
    /// podrun's client certificate and its key; None: no client certificate.
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    /// Whether the engine's certificate is verified.
    pub verify: bool,
}

/// TLS material that does not load, naming the file and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("TLS")]
    Protocols(#[source] rustls::Error),
    #[error("client certificate {} and key {}", cert.display(), key.display())]
    ClientAuth {
        cert: PathBuf,
        key: PathBuf,
        #[source]
        source: rustls::Error,
    },
    #[error("client certificate {} is given without a key", .0.display())]
    CertWithoutKey(PathBuf),
    #[error("client key {} is given without a certificate", .0.display())]
    KeyWithoutCert(PathBuf),
    #[error("no CA certificate given (ca.pem), and no system CA bundle found")]
    NoCa,
    #[error("CA certificate {}", path.display())]
    BadCa {
        path: PathBuf,
        #[source]
        source: rustls::Error,
    },
    #[error("cannot read the {what} {}", path.display())]
    Read {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The parser's complaint is part of the sentence, in brackets.
    #[error("{what} {}: not a PEM certificate ({pem})", path.display())]
    NotPem { what: &'static str, path: PathBuf, pem: PemError },
    #[error("{what} {}: no PEM certificate in it", path.display())]
    NoCertificate { what: &'static str, path: PathBuf },
    #[error("client key {}: it is encrypted, which podrun (like the Docker CLI) cannot use", path.display())]
    Encrypted { path: PathBuf },
    #[error("client key {}: no PEM private key in it ({pem})", path.display())]
    NoKey { path: PathBuf, pem: PemError },
    #[error("the {what} {}: larger than {} MiB, more than podrun reads", path.display(), limit >> 20)]
    TooLarge { what: &'static str, path: PathBuf, limit: u64 },
    #[error("the CA directory {}: more than {limit} entries, more than podrun reads", path.display())]
    TooManyFiles { path: PathBuf, limit: usize },
    #[error("{}: not a host name for TLS ({name})", crate::escape::Escaped(host))]
    ServerName { host: String, name: InvalidDnsNameError },
}

/// A client configuration ready to connect, with what is needed to explain a failure.
#[derive(Debug, Clone)]
pub struct TlsClient {
    pub config: Arc<ClientConfig>,
    files: TlsFiles,
}

impl TlsClient {
    /// Reads the files and builds the configuration; an error names the file and what is wrong.
    pub fn new(files: &TlsFiles) -> Result<TlsClient, TlsError> {
        let provider = Arc::new(ring::default_provider());
        let algorithms = provider.signature_verification_algorithms;
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(TlsError::Protocols)?;
        let builder = if files.verify {
            builder.with_root_certificates(roots(files.ca.as_deref())?)
        } else {
            builder.dangerous().with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate(algorithms)))
        };
        let config = match (&files.cert, &files.key) {
            (Some(cert), Some(key)) => {
                let chain = certificates(cert, "client certificate")?;
                let key_der = private_key(key)?;
                builder.with_client_auth_cert(chain, key_der).map_err(|source| TlsError::ClientAuth {
                    cert: cert.clone(),
                    key: key.clone(),
                    source,
                })?
            }
            (None, None) => builder.with_no_client_auth(),
            (Some(cert), None) => return Err(TlsError::CertWithoutKey(cert.clone())),
            (None, Some(key)) => return Err(TlsError::KeyWithoutCert(key.clone())),
        };
        let mut config = config;
        // No session resumption, as Go's client (the Docker CLI's) has none by default: an
        // OpenSSL-based endpoint with client certificates (socat, a TLS proxy) was seen to end
        // resumed handshakes with an internal_error alert.
        config.resumption = rustls::client::Resumption::disabled();
        Ok(TlsClient { config: Arc::new(config), files: files.clone() })
    }

    /// Why a connection failed, in words, if a TLS error is among `e`'s causes: which side
    /// refused, and the file involved.
    pub fn explain(&self, e: &(dyn StdError + 'static)) -> Option<String> {
        let err = find_rustls_error(e)?;
        let ca = || self.files.ca.as_ref().map_or_else(|| "the system's CAs".to_owned(), |p| p.display().to_string());
        let ours = || match &self.files.cert {
            Some(cert) => format!("podrun's client certificate {}", cert.display()),
            None => "podrun's connection (no client certificate given)".to_owned(),
        };
        Some(match err {
            rustls::Error::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer | CertificateError::BadSignature => {
                    format!("the engine's certificate is not signed by the CA in {}", ca())
                }
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    "the engine's certificate has expired".to_owned()
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    "the engine's certificate is not valid yet (check the clocks)".to_owned()
                }
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                    "the engine's certificate is not valid for the address podrun dialed".to_owned()
                }
                other => format!("the engine's certificate is not acceptable: {other:?}"),
            },
            rustls::Error::AlertReceived(alert) => match alert {
                AlertDescription::CertificateRequired => match &self.files.cert {
                    Some(_) => format!("the engine requires a client certificate and refused {}", ours()),
                    None => {
                        "the engine requires a client certificate, and none was given (cert.pem and key.pem)".to_owned()
                    }
                },
                AlertDescription::HandshakeFailure if self.files.cert.is_none() => {
                    "the engine refused the connection: it requires a client certificate, and none was given \
                     (cert.pem and key.pem)"
                        .to_owned()
                }
                AlertDescription::CertificateExpired => format!("the engine refused {}: it has expired", ours()),
                AlertDescription::UnknownCA => {
                    format!("the engine refused {}: it is not signed by a CA the engine trusts", ours())
                }
                AlertDescription::BadCertificate
                | AlertDescription::UnsupportedCertificate
                | AlertDescription::CertificateRevoked
                | AlertDescription::CertificateUnknown
                | AlertDescription::AccessDenied
                | AlertDescription::DecryptError => format!("the engine refused {} ({alert:?})", ours()),
                other => format!("the engine ended the TLS handshake ({other:?})"),
            },
            rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
                "the engine does not speak TLS on this port (is it a plain tcp:// engine, port 2375?)".to_owned()
            }
            other => format!("TLS: {other}"),
        })
    }
}

/// The first rustls error among `e` and its causes (io errors carry it as their inner error).
fn find_rustls_error<'a>(e: &'a (dyn StdError + 'static)) -> Option<&'a rustls::Error> {
    let mut next = Some(e);
    while let Some(err) = next {
        if let Some(r) = err.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            if let Some(r) = io.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
                return Some(r);
            }
        }
        next = err.source();
    }
    None
}

/// The CAs to trust: those in `ca`, else the system's (`ca_files`).
fn roots(ca: Option<&Path>) -> Result<Arc<RootCertStore>, TlsError> {
    let Some(path) = ca else { return ca_files::system_roots() };
    let mut store = RootCertStore::empty();
    for cert in certificates(path, "CA certificate")? {
        store.add(cert).map_err(|source| TlsError::BadCa { path: path.to_owned(), source })?;
    }
    Ok(Arc::new(store))
}

/// The private key in the PEM file `path` (PKCS#8, PKCS#1 or SEC1; not encrypted, as the Docker
/// CLI no longer reads encrypted keys either).
fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let text = read_capped(path, "client key")?;
    if text.windows(9).any(|w| w == b"ENCRYPTED") {
        return Err(TlsError::Encrypted { path: path.to_owned() });
    }
    PrivateKeyDer::from_pem_slice(&text).map_err(|pem| TlsError::NoKey { path: path.to_owned(), pem })
}

/// The name podrun expects in the engine's certificate: the host part of `host:port`.
pub fn server_name(addr: &str) -> Result<ServerName<'static>, TlsError> {
    let host = split_host_port(addr).0;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(host.to_owned()).map_err(|name| TlsError::ServerName { host: host.to_owned(), name })
}

/// `host` and `port` of `host:port` (`[v6]:port`); the port None when absent.
pub fn split_host_port(addr: &str) -> (&str, Option<&str>) {
    match addr.rsplit_once(':') {
        Some((h, p))
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (!h.contains(':') || h.ends_with(']')) =>
        {
            (h, Some(p))
        }
        _ => (addr, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_and_port_are_split_as_in_an_address() {
        assert_eq!(split_host_port("docker:2376"), ("docker", Some("2376")));
        assert_eq!(split_host_port("docker"), ("docker", None));
        assert_eq!(split_host_port("[::1]:2376"), ("[::1]", Some("2376")));
        assert_eq!(split_host_port("::1"), ("::1", None));
        assert!(matches!(server_name("127.0.0.1:2376"), Ok(ServerName::IpAddress(_))));
        assert!(matches!(server_name("[::1]:2376"), Ok(ServerName::IpAddress(_))));
        assert!(matches!(server_name("docker:2376"), Ok(ServerName::DnsName(_))));
    }

    #[test]
    fn missing_or_wrong_files_are_named() {
        let dir = crate::test_support::TempDir::new("tls-files");
        let ca = dir.join("ca.pem");
        let files = TlsFiles { ca: Some(ca.clone()), cert: None, key: None, verify: true };
        let e = TlsClient::new(&files).unwrap_err();
        let e = crate::error_chain::chain(&e);
        assert!(e.starts_with(&format!("cannot read the CA certificate {}: ", ca.display())), "{e}");
        std::fs::write(&ca, "not a certificate").unwrap();
        let e = TlsClient::new(&files).unwrap_err();
        let e = crate::error_chain::chain(&e);
        assert_eq!(e, format!("CA certificate {}: no PEM certificate in it", ca.display()));
        // Unverified: no CA is read at all.
        assert!(TlsClient::new(&TlsFiles { verify: false, ..files.clone() }).is_ok());
        let cert = dir.join("cert.pem");
        let e = TlsClient::new(&TlsFiles { verify: false, cert: Some(cert.clone()), ..files.clone() }).unwrap_err();
        let e = crate::error_chain::chain(&e);
        assert_eq!(e, format!("client certificate {} is given without a key", cert.display()));
        let key = dir.join("key.pem");
        std::fs::write(&key, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n")
            .unwrap();
        let e = TlsClient::new(&TlsFiles { verify: false, cert: Some(cert.clone()), key: Some(key.clone()), ca: None })
            .unwrap_err();
        let e = crate::error_chain::chain(&e);
        assert!(e.starts_with(&format!("cannot read the client certificate {}", cert.display())), "{e}");
    }

    #[test]
    fn handshake_errors_say_which_side_refused() {
        let client = TlsClient::new(&TlsFiles { verify: false, ..TlsFiles::default() }).unwrap();
        let io = |e: rustls::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
        let said = |e: rustls::Error| client.explain(&io(e)).unwrap();
        assert_eq!(
            said(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)),
            "the engine's certificate is not signed by the CA in the system's CAs"
        );
        assert!(said(rustls::Error::AlertReceived(AlertDescription::CertificateRequired)).contains("none was given"));
        assert!(said(rustls::Error::AlertReceived(AlertDescription::CertificateExpired)).contains("it has expired"));
        assert!(client.explain(&std::io::Error::other("plain")).is_none());
    }
}
