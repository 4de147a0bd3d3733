//! Connecting to an engine: the transport, the first request, and which engine and API version
//! answer.

use std::sync::Arc;
use std::time::Duration;

use bollard::errors::Error as BollardError;

use super::transport::Dialer;
use super::{convert, raw, DockerRuntime, Endpoint};
use crate::runtime::seal::Seal;
use crate::runtime::{parse_api_version, BadAnswer, Cause, EngineInfo, RuntimeError, Unreachability};

/// How long an engine that took the connection may take to answer the first request before
/// podrun calls it unreachable. A missing socket or a refused connection fails at once; this
/// only bounds an engine that is there but slow, as Podman's service is on a loaded host (5 s
/// was seen to run out in CI, making a delete fail with exit 3 though the engine was up).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// Per-request timeout: long enough for a stop with a long grace period or a big pull; the
/// driver's own deadline bounds the run as a whole.
const REQUEST_TIMEOUT_SECS: u64 = 3600;

impl DockerRuntime {
    /// Connects to `endpoint` (`unix:///path`, `tcp://host:port`, `http://...`, with TLS when
    /// the endpoint has TLS material, `ssh://[user@]host[:port]`; see [`context::resolve`]) and
    /// agrees on an API version the engine speaks. Unreachable within a few seconds is an error
    /// naming the endpoint (and its context), and for TLS and SSH saying what refused.
    pub async fn connect(endpoint: &Endpoint, seal: Seal) -> Result<DockerRuntime, RuntimeError> {
        let unreachable = |why: Unreachability| RuntimeError::Unreachable { endpoint: endpoint.to_string(), why };
        let host = &endpoint.host;
        let dialer = Dialer::new(host, endpoint.tls.as_ref())
            .map_err(|e| unreachable(Unreachability::Endpoint(Cause(Arc::new(e)))))?;
        // Every transport goes through podrun's dialer, whose connections cap each answer.
        let docker = dialer
            .bollard(REQUEST_TIMEOUT_SECS)
            .map_err(|e| unreachable(Unreachability::Connection(Cause(Arc::new(e)))))?;
        let no_answer = || Unreachability::NoAnswer(CONNECT_TIMEOUT);
        let dialer_ref = &dialer;
        let failed = |e: BollardError| async move {
            let refused = dialer_ref.explain(&e).await;
            unreachable(refused.map_or_else(|| Unreachability::Client(Cause(Arc::new(e))), Unreachability::Refused))
        };
        // `GET /_ping` answers in a millisecond, and its headers say what the engine is and which
        // API it speaks; `GET /version` takes 10 ms on Docker and 0.7 s on Podman (which runs
        // conmon and the OCI runtime to learn their versions), on every command. A request of
        // podrun's own needs a connection of its own: nothing over a unix socket or plain TCP,
        // a handshake over TLS, an ssh process over SSH; those two ask `/version` on bollard's
        // pooled connection instead, as does an answer without the headers (a proxy).
        let identified = if matches!(dialer, Dialer::Unix(_) | Dialer::Tcp(_)) {
            let head = match tokio::time::timeout(CONNECT_TIMEOUT, raw::ping(&dialer, &endpoint.to_string())).await {
                Err(_) => return Err(unreachable(no_answer())),
                Ok(Err(RuntimeError::Unreachable { why, .. })) => return Err(unreachable(why)),
                Ok(Err(_)) => None,
                Ok(Ok(head)) => Some(head),
            };
            head.as_ref().and_then(identify)
        } else {
            None
        };
        let (engine, info) = match identified {
            Some(found) => found,
            None => {
                let version = match tokio::time::timeout(CONNECT_TIMEOUT, docker.version()).await {
                    Err(_) => return Err(unreachable(no_answer())),
                    Ok(Err(e)) => return Err(failed(e).await),
                    Ok(Ok(version)) => version,
                };
                let engine = convert::Engine::of(&version);
                let name = version
                    .components
                    .as_ref()
                    .and_then(|cs| cs.first())
                    .map(|c| c.name.clone())
                    .unwrap_or_else(|| "Engine".to_owned());
                let api_version = version.api_version.unwrap_or_default();
                (engine, EngineInfo { name, version: version.version.unwrap_or_default(), api_version })
            }
        };
        let api = agreed_api(&info.api_version).ok_or_else(|| bad_api(&info.api_version))?;
        Ok(DockerRuntime {
            docker,
            endpoint: endpoint.clone(),
            dialer,
            engine,
            info,
            api,
            seal,
            failed_starts: Arc::default(),
        })
    }
}

/// The engine and its versions as `GET /_ping`'s headers give them: Docker answers
/// `Server: Docker/20.10.24 (linux)`, Podman `Server: Libpod/4.3.1 (linux)` and
/// `Libpod-Api-Version`; both `Api-Version`. `None` when they do not say.
fn identify(head: &raw::Head) -> Option<(convert::Engine, EngineInfo)> {
    let api_version = head.header("api-version")?.to_owned();
    let server = head.header("server")?;
    let (product, rest) = server.split_once('/')?;
    let version = rest.split_whitespace().next()?.to_owned();
    let (engine, name) = match product {
        "Libpod" => (convert::Engine::Podman, "Podman Engine"),
        "Docker" if head.header("libpod-api-version").is_none() => (convert::Engine::Docker, "Docker Engine"),
        _ => return None,
    };
    Some((engine, EngineInfo { name: name.to_owned(), version, api_version }))
}

/// The API version podrun speaks with an engine that speaks up to `engine`: the lower of the
/// two.
fn agreed_api(engine: &str) -> Option<(usize, usize)> {
    let ours = bollard::API_DEFAULT_VERSION;
    Some(parse_api_version(engine)?.min((ours.major_version, ours.minor_version)))
}

fn bad_api(api_version: &str) -> RuntimeError {
    RuntimeError::Protocol { what: "engine version".to_owned(), why: BadAnswer::ApiVersion(api_version.to_owned()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ping_says_which_engine_answers() {
        let head = |text: &str| raw::Head::parse(text).unwrap();
        let (engine, info) =
            identify(&head("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nServer: Docker/20.10.24+dfsg1 (linux)\r\n"))
                .unwrap();
        assert_eq!(engine, convert::Engine::Docker);
        assert_eq!(
            (info.name.as_str(), info.version.as_str(), info.api_version.as_str()),
            ("Docker Engine", "20.10.24+dfsg1", "1.41")
        );
        let podman =
            "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nLibpod-Api-Version: 4.3.1\r\nServer: Libpod/4.3.1 (linux)\r\n";
        let (engine, info) = identify(&head(podman)).unwrap();
        assert_eq!(engine, convert::Engine::Podman);
        assert_eq!((info.name.as_str(), info.version.as_str()), ("Podman Engine", "4.3.1"));
        // Without the headers (a proxy in front of the engine), podrun asks `/version`.
        assert!(identify(&head("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\n")).is_none());
        assert!(identify(&head("HTTP/1.1 200 OK\r\nServer: nginx/1.22\r\nApi-Version: 1.41\r\n")).is_none());
        assert!(identify(&head("HTTP/1.1 200 OK\r\nServer: Docker/27.0.0\r\n")).is_none());
        assert_eq!(agreed_api("1.41"), Some((1, 41)));
        assert_eq!(
            agreed_api("9.99"),
            Some((bollard::API_DEFAULT_VERSION.major_version, bollard::API_DEFAULT_VERSION.minor_version))
        );
        assert_eq!(agreed_api("latest"), None);
    }

    #[test]
    fn api_versions_are_major_dot_minor() {
        assert_eq!(parse_api_version("1.41"), Some((1, 41)));
        assert_eq!(parse_api_version("1.9"), Some((1, 9)), "1.9 is older than 1.41, not 1.90");
        assert!((1, 9) < (1, 41));
        for bad in ["", "1", "1.", ".41", "1.41.0", "v1.41", "one.two"] {
            assert_eq!(parse_api_version(bad), None, "{bad:?}");
        }
    }
}
