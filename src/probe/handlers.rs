//! One probe attempt, as the kubelet's prober makes it: `exec` runs a command in the
//! container, `httpGet` sends one HTTP/1.1 GET and reads the status line, `tcpSocket` opens a
//! connection. Every attempt is bounded by the probe's `timeoutSeconds`; running out of time
//! is a failure, like any other.
//!
//! The request goes out through the probes' own HTTP client (`http`), the connection through
//! `port`. Nothing here panics on what a manifest holds; a probe that validation would have
//! refused (an unknown scheme, a port that cannot be resolved) fails every attempt with a
//! message saying why, so it is never silently skipped.
//!
//! The same HTTP client sends lifecycle hooks' `httpGet` ([`run_http_hook`]), where only the
//! exchange counts, not the status code.

use std::time::Duration;

use crate::error_chain::{chain, Chain};
use crate::manifest::defaults::DEFAULT_PROBE_TIMEOUT_SECONDS;
use crate::manifest::types::{ContainerPort, ExecAction, HttpGetAction, Probe, TcpSocketAction};
use crate::runtime::Runtime;

use super::grpc::{self, GrpcError};
use super::http::{self, GetError, HOOK_USER_AGENT, USER_AGENT};
pub use super::port::resolve_port;
use super::port::{connect, DialError, PortError};

/// The result of one probe attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// A success the kubelet warns about (its ProbeWarning event): an HTTP redirect it did
    /// not follow, with why.
    Warning(String),
    /// Why, for the report (`HTTP probe failed with statuscode: 500`).
    Failure(String),
    /// The probe could not be run at all: the engine failed to exec the command (it went
    /// away, or the container stopped meanwhile). The kubelet throws such a result away
    /// ("Prober error, throw away the result"), so it neither fails nor passes the probe.
    Error(String),
}

/// Why an attempt did not succeed: the check failed, or it could not be made.
enum Missed {
    Failed(String),
    Errored(String),
}

impl From<CheckError> for Missed {
    fn from(e: CheckError) -> Missed {
        Missed::Failed(chain(&e))
    }
}

/// Why a network probe failed, or an HTTP hook's exchange.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("unsupported scheme {0:?}")]
    Scheme(String),
    #[error("port {0} out of range")]
    GrpcPort(i64),
    #[error(transparent)]
    Port(#[from] PortError),
    #[error(transparent)]
    Dial(#[from] DialError),
    #[error(transparent)]
    Get(#[from] GetError),
    #[error(transparent)]
    Grpc(#[from] GrpcError),
    #[error("HTTP probe failed with statuscode: {0}")]
    Status(u16),
}

/// Why a lifecycle hook's `httpGet` failed, displayed whole, its causes included: the driver
/// puts it into the hook's failure message as it is.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    #[error("{}", Chain(.0))]
    Failed(CheckError),
    /// An HTTPS request's server answered in plain HTTP, and the request sent again over plain
    /// HTTP failed too.
    #[error("{}; over plain HTTP: {}", Chain(.tls), Chain(.plain))]
    PlainToo { tls: GetError, plain: GetError },
}

impl<E: Into<CheckError>> From<E> for HookError {
    fn from(e: E) -> HookError {
        HookError::Failed(e.into())
    }
}

/// Where a pod's network probes and HTTP hooks go when they name no `host`: the pod IP (the
/// infra container's), or 127.0.0.1 for a hostNetwork pod, whose pod IP is the host's own and
/// is reached on loopback. None: the pod has no address (its infra container is not running).
pub fn pod_address(host_network: bool, infra_ip: Option<&str>) -> Option<String> {
    if host_network {
        Some("127.0.0.1".to_owned())
    } else {
        infra_ip.filter(|ip| !ip.is_empty()).map(str::to_owned)
    }
}

/// Where network probes go: the pod IP (or 127.0.0.1 for a hostNetwork pod).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The engine's id of the container, for `exec`.
    pub container_id: &'a str,
    /// Used unless the probe names its own `host`.
    pub pod_ip: &'a str,
    /// The container's ports, for named probe ports.
    pub ports: &'a [ContainerPort],
}

/// Runs one probe attempt within its timeoutSeconds. exec: `rt.exec(id, cmd)` exit 0 = success
/// (a timeout is a failure); httpGet: HTTP/1.1 GET written by hand over tokio::net::TcpStream
/// (Host header, the probe's httpHeaders, `User-Agent: kube-probe/1.35`, `Connection: close`),
/// over TLS without certificate verification for `scheme: HTTPS`, redirects to the same host
/// followed, 2xx a success and a 3xx left unfollowed a success with a warning; tcpSocket:
/// connect succeeds. A named port resolves through `ports` by name.
pub async fn run<R: Runtime>(rt: &R, probe: &Probe, target: &Target<'_>) -> Outcome {
    let secs = timeout_seconds(probe);
    let attempt = async {
        if let Some(exec) = &probe.exec {
            run_exec(rt, exec, target, Duration::from_secs(secs)).await.map(|()| None)
        } else if let Some(http) = &probe.http_get {
            Ok(run_http_get(http, target).await?)
        } else if let Some(tcp) = &probe.tcp_socket {
            Ok(run_tcp_socket(tcp, target).await.map(|()| None)?)
        } else if let Some(g) = &probe.grpc {
            let port = u16::try_from(g.port).map_err(|_| CheckError::GrpcPort(g.port))?;
            let service = g.service.as_deref().unwrap_or("");
            Ok(grpc::check(target.pod_ip, port, service).await.map(|()| None).map_err(CheckError::from)?)
        } else {
            Err(Missed::Failed("the probe has no handler".to_owned()))
        }
    };
    match tokio::time::timeout(Duration::from_secs(secs), attempt).await {
        Ok(Ok(None)) => Outcome::Success,
        Ok(Ok(Some(warning))) => Outcome::Warning(warning),
        Ok(Err(Missed::Failed(why))) => Outcome::Failure(why),
        Ok(Err(Missed::Errored(why))) => Outcome::Error(why),
        Err(_) => Outcome::Failure(format!("timed out after {secs}s")),
    }
}

/// `timeoutSeconds`, defaulted when unset or 0 (as the API server would have) and kept within
/// the API's int32 so an absurd value cannot overflow a deadline.
fn timeout_seconds(probe: &Probe) -> u64 {
    let secs = probe.timeout_seconds.filter(|t| *t > 0).unwrap_or(DEFAULT_PROBE_TIMEOUT_SECONDS);
    secs.clamp(1, i64::from(i32::MAX)).unsigned_abs()
}

/// `timeout`: the probe's, which bounds this call too; the engine ends the command at it.
async fn run_exec<R: Runtime>(rt: &R, exec: &ExecAction, target: &Target<'_>, timeout: Duration) -> Result<(), Missed> {
    if exec.command.is_empty() {
        return Err(Missed::Failed("the exec probe has no command".to_owned()));
    }
    match rt.exec(target.container_id, &exec.command, Some(timeout)).await {
        Ok(0) => Ok(()),
        Ok(code) => Err(Missed::Failed(format!("command {:?} exited with code {code}", exec.command.join(" ")))),
        Err(e) => Err(Missed::Errored(format!("exec failed: {}", chain(&e)))),
    }
}

async fn run_tcp_socket(tcp: &TcpSocketAction, target: &Target<'_>) -> Result<(), CheckError> {
    let port = resolve_port(&tcp.port, target.ports)?;
    let host = host(tcp.host.as_deref(), target);
    // Connected is all a TCP probe asks; dropping the stream closes it.
    Ok(connect(host, port).await.map(drop)?)
}

async fn run_http_get(http: &HttpGetAction, target: &Target<'_>) -> Result<Option<String>, CheckError> {
    let tls = is_https(http)?;
    let port = resolve_port(&http.port, target.ports)?;
    let host = host(http.host.as_deref(), target);
    let answer = http::get(http, host, port, tls, USER_AGENT).await?;
    // The kubelet's rule: 2xx is healthy; a 3xx it did not follow (to another host, or one
    // Go's client does not follow) is healthy with a warning.
    match answer.code {
        200..=299 => Ok(None),
        300..=399 => Ok(Some(format!(
            "Probe terminated redirects: {}{}",
            answer.code,
            answer.location.map(|l| format!(" to {l:?}")).unwrap_or_default()
        ))),
        code => Err(CheckError::Status(code)),
    }
}

/// A lifecycle hook's `httpGet`, as the kubelet's `runHTTPHandler` sends it: the same request
/// as a probe's (to `host`, else the pod IP; the port, path, scheme and headers; the server's
/// certificate unverified), with the kubelet's `kube-lifecycle` User-Agent. Only a failed
/// exchange fails the hook (no connection, a broken TLS handshake, no HTTP answer): the status
/// code does not matter, and the body is never read. Like the kubelet, an HTTPS request whose
/// server answers in plain HTTP is sent again over plain HTTP, without its `Authorization`
/// header, and succeeds if that gets an answer. Unbounded here: the caller bounds it.
pub async fn run_http_hook(http: &HttpGetAction, target: &Target<'_>) -> Result<(), HookError> {
    let tls = is_https(http)?;
    let port = resolve_port(&http.port, target.ports)?;
    let host = host(http.host.as_deref(), target);
    match http::get(http, host, port, tls, HOOK_USER_AGENT).await {
        Ok(_) => Ok(()),
        Err(tls @ GetError::Handshake { plain: true, .. }) => {
            let mut plain = http.clone();
            plain.http_headers.retain(|h| !h.name.eq_ignore_ascii_case("Authorization"));
            http::get(&plain, host, port, false, HOOK_USER_AGENT)
                .await
                .map(drop)
                .map_err(|plain| HookError::PlainToo { tls, plain })
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether an `httpGet` goes over TLS, by its scheme.
fn is_https(http: &HttpGetAction) -> Result<bool, CheckError> {
    match http.scheme.as_deref().unwrap_or("") {
        "" | "HTTP" => Ok(false),
        "HTTPS" => Ok(true),
        other => Err(CheckError::Scheme(other.to_owned())),
    }
}

fn host<'a>(probe_host: Option<&'a str>, target: &Target<'a>) -> &'a str {
    probe_host.filter(|h| !h.is_empty()).unwrap_or(target.pod_ip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{HttpHeader, IntOrString};
    use crate::runtime::fake::FakeRuntime;
    use rustls::crypto::ring;
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;
    use tokio::sync::oneshot;
    use tokio_rustls::TlsAcceptor;

    const NO_PORTS: &[ContainerPort] = &[];

    fn target(ports: &[ContainerPort]) -> Target<'_> {
        Target { container_id: "c1", pod_ip: "127.0.0.1", ports }
    }

    fn http_probe(port: IntOrString) -> Probe {
        Probe { http_get: Some(HttpGetAction { port, ..Default::default() }), ..Default::default() }
    }

    fn tcp_probe(port: IntOrString) -> Probe {
        Probe { tcp_socket: Some(TcpSocketAction { port, host: None }), ..Default::default() }
    }

    fn exec_probe(cmd: &[&str]) -> Probe {
        let command = cmd.iter().map(|s| s.to_string()).collect();
        Probe { exec: Some(ExecAction { command }), ..Default::default() }
    }

    /// A one-shot server on loopback: answers the first request with `response` (or never,
    /// when `None`) and hands the request it read back to the test.
    async fn server(response: Option<&'static str>) -> (u16, oneshot::Receiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, rx) = oneshot::channel();
        tokio::spawn(async move {
            let Ok((mut sock, _)) = listener.accept().await else { return };
            let _ = tx.send(crate::test_support::read_http_head(&mut sock).await);
            match response {
                Some(r) => {
                    let _ = sock.write_all(r.as_bytes()).await;
                }
                // Hold the connection open without answering, past the probe's timeout.
                None => tokio::time::sleep(Duration::from_secs(30)).await,
            }
        });
        (port, rx)
    }

    async fn http_status(response: &'static str) -> Outcome {
        let (port, _) = server(Some(response)).await;
        run(&FakeRuntime::new(), &http_probe(IntOrString::Int(i64::from(port))), &target(NO_PORTS)).await
    }

    #[tokio::test]
    async fn http_2xx_and_3xx_succeed_others_fail() {
        assert_eq!(http_status("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").await, Outcome::Success);
        // A redirect not followed (to another host, or without a Location) is a success with
        // a warning, as the kubelet's ProbeWarning.
        assert_eq!(
            http_status("HTTP/1.1 302 Found\r\nLocation: http://elsewhere/\r\n\r\n").await,
            Outcome::Warning("Probe terminated redirects: 302 to \"http://elsewhere/\"".into())
        );
        assert_eq!(
            http_status("HTTP/1.1 302 Found\r\n\r\n").await,
            Outcome::Warning("Probe terminated redirects: 302".into())
        );
        assert_eq!(
            http_status("HTTP/1.1 304 Not Modified\r\nlocation: /elsewhere\r\n\r\n").await,
            Outcome::Warning("Probe terminated redirects: 304".into())
        );
        assert_eq!(
            http_status("HTTP/1.1 500 Internal Server Error\r\n\r\n").await,
            Outcome::Failure("HTTP probe failed with statuscode: 500".into())
        );
        assert!(matches!(http_status("SSH-2.0-OpenSSH\r\n").await, Outcome::Failure(m) if m.contains("not an HTTP")));
        assert!(matches!(http_status("").await, Outcome::Failure(m) if m.contains("closed")));
    }

    /// A server on loopback that answers every connection by its request's path: `/ok` 200,
    /// `/to?<location>` 302 to the location, `/loop` 302 to itself, `/moved` 301 to `/ok`,
    /// anything else 404. Each request it read goes to the channel.
    async fn redirecting_server() -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let req = crate::test_support::read_http_head(&mut sock).await;
                let path = req.split(' ').nth(1).unwrap_or_default().to_owned();
                let _ = tx.send(req);
                let response = match path.as_str() {
                    "/ok" => "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_owned(),
                    "/loop" => "HTTP/1.1 302 Found\r\nLocation: /loop\r\n\r\n".to_owned(),
                    "/moved" => "HTTP/1.1 301 Moved Permanently\r\nlocation:  /ok \r\n\r\n".to_owned(),
                    p => match p.strip_prefix("/to?") {
                        Some(loc) => format!("HTTP/1.1 302 Found\r\nLocation: {loc}\r\n\r\n"),
                        None => "HTTP/1.1 404 Not Found\r\n\r\n".to_owned(),
                    },
                };
                let _ = sock.write_all(response.as_bytes()).await;
            }
        });
        (port, rx)
    }

    fn probe_of(port: u16, path: &str) -> Probe {
        Probe {
            http_get: Some(HttpGetAction {
                port: IntOrString::Int(i64::from(port)),
                path: Some(path.into()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn drain(rx: &mut tokio::sync::mpsc::UnboundedReceiver<String>) -> Vec<String> {
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    #[tokio::test]
    async fn http_redirects_to_the_same_host_are_followed_and_the_last_answer_judged() {
        let (port, mut seen) = redirecting_server().await;
        let (other, mut seen_other) = redirecting_server().await;
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &probe_of(port, "/moved"), &target(NO_PORTS)).await, Outcome::Success);
        let requests = drain(&mut seen);
        assert_eq!(requests.len(), 2, "{requests:?}");
        assert!(requests[1].starts_with("GET /ok HTTP/1.1\r\n"), "{requests:?}");
        assert!(requests[1].contains(&format!("Referer: http://127.0.0.1:{port}/moved\r\n")), "{requests:?}");
        assert!(requests[1].contains("User-Agent: kube-probe/1.35\r\n"), "{requests:?}");
        // A redirect to a path that answers 404 fails the probe: the kubelet judges the end.
        assert_eq!(
            run(&rt, &probe_of(port, "/to?/missing"), &target(NO_PORTS)).await,
            Outcome::Failure("HTTP probe failed with statuscode: 404".into())
        );
        // The same host on another port is the same host.
        let elsewhere = format!("/to?http://127.0.0.1:{other}/ok");
        assert_eq!(run(&rt, &probe_of(port, &elsewhere), &target(NO_PORTS)).await, Outcome::Success);
        let there = drain(&mut seen_other);
        assert_eq!(there.len(), 1, "{there:?}");
        assert!(there[0].contains(&format!("Host: 127.0.0.1:{other}\r\n")), "{there:?}");
        // Another host is not visited: the redirect is the answer.
        drain(&mut seen);
        assert_eq!(
            run(&rt, &probe_of(port, "/to?http://0.0.0.0/fail"), &target(NO_PORTS)).await,
            Outcome::Warning("Probe terminated redirects: 302 to \"http://0.0.0.0/fail\"".into())
        );
        assert_eq!(drain(&mut seen).len(), 1);
    }

    #[tokio::test]
    async fn a_redirect_loop_fails_after_ten_requests() {
        let (port, mut seen) = redirecting_server().await;
        let outcome = run(&FakeRuntime::new(), &probe_of(port, "/loop"), &target(NO_PORTS)).await;
        assert_eq!(outcome, Outcome::Failure("Get \"/loop\": stopped after 10 redirects".into()));
        assert_eq!(drain(&mut seen).len(), 10);
        // A hook shares the client: a loop fails it, a redirect elsewhere is an answer.
        let e = run_http_hook(&hook(port, "/loop", "HTTP"), &target(NO_PORTS)).await.unwrap_err().to_string();
        assert!(e.ends_with("stopped after 10 redirects"), "{e}");
        assert_eq!(
            run_http_hook(&hook(port, "/to?http://0.0.0.0/", "HTTP"), &target(NO_PORTS))
                .await
                .map_err(|e| e.to_string()),
            Ok(())
        );
        assert_eq!(
            run_http_hook(&hook(port, "/to?/missing", "HTTP"), &target(NO_PORTS)).await.map_err(|e| e.to_string()),
            Ok(())
        );
        let hook_requests = drain(&mut seen);
        assert_eq!(hook_requests.len(), 10 + 1 + 2, "{hook_requests:?}");
        assert!(hook_requests[12].starts_with("GET /missing HTTP/1.1\r\n"), "{hook_requests:?}");
    }

    #[tokio::test]
    async fn the_probes_host_header_is_kept_through_a_relative_redirect_only() {
        let (port, mut seen) = redirecting_server().await;
        let with_host = |path: &str| {
            let mut probe = probe_of(port, path);
            if let Some(h) = &mut probe.http_get {
                h.http_headers = vec![HttpHeader { name: "Host".into(), value: "www.example.test".into() }];
            }
            probe
        };
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &with_host("/moved"), &target(NO_PORTS)).await, Outcome::Success);
        let requests = drain(&mut seen);
        assert!(requests.iter().all(|r| r.matches("Host:").count() == 1), "{requests:?}");
        assert!(requests[1].contains("Host: www.example.test\r\n"), "{requests:?}");
        let absolute = format!("/to?http://127.0.0.1:{port}/ok");
        assert_eq!(run(&rt, &with_host(&absolute), &target(NO_PORTS)).await, Outcome::Success);
        let requests = drain(&mut seen);
        assert!(requests[0].contains("Host: www.example.test\r\n"), "{requests:?}");
        assert!(requests[1].contains(&format!("Host: 127.0.0.1:{port}\r\n")), "{requests:?}");
        assert!(!requests[1].contains("www.example.test"), "{requests:?}");
    }

    #[tokio::test]
    async fn http_sends_the_kubelets_headers_and_the_probes() {
        let (port, request) = server(Some("HTTP/1.1 204 No Content\r\n\r\n")).await;
        let mut probe = http_probe(IntOrString::String("web".into()));
        if let Some(h) = &mut probe.http_get {
            h.path = Some("/healthz?full=1".into());
            h.http_headers = vec![
                HttpHeader { name: "X-Probe".into(), value: "yes".into() },
                HttpHeader { name: "Accept".into(), value: "application/json".into() },
            ];
        }
        let ports = [ContainerPort { name: Some("web".into()), container_port: i64::from(port), ..Default::default() }];
        assert_eq!(run(&FakeRuntime::new(), &probe, &target(&ports)).await, Outcome::Success);
        let request = request.await.unwrap();
        let lines: Vec<&str> = request.split("\r\n").collect();
        assert_eq!(lines[0], "GET /healthz?full=1 HTTP/1.1");
        assert!(lines.contains(&format!("Host: 127.0.0.1:{port}").as_str()), "{request}");
        assert!(lines.contains(&"X-Probe: yes"), "{request}");
        assert!(lines.contains(&"Accept: application/json") && !lines.contains(&"Accept: */*"), "{request}");
        assert!(lines.contains(&"User-Agent: kube-probe/1.35"), "{request}");
        assert!(lines.contains(&"Connection: close"), "{request}");
    }

    #[tokio::test]
    async fn http_times_out_on_a_server_that_never_answers() {
        let (port, _) = server(None).await;
        let probe = Probe { timeout_seconds: Some(1), ..http_probe(IntOrString::Int(i64::from(port))) };
        let started = std::time::Instant::now();
        let outcome = run(&FakeRuntime::new(), &probe, &target(NO_PORTS)).await;
        assert_eq!(outcome, Outcome::Failure("timed out after 1s".into()));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// A self-signed certificate for `localhost` and its key, made by openssl in a fresh
    /// directory (removed after loading). Without openssl the test fails: it is not optional.
    fn self_signed() -> (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>) {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("podrun-tls-test-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (key, cert) = (dir.join("key.pem"), dir.join("cert.pem"));
        let out = std::process::Command::new("/usr/bin/openssl")
            .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .expect("running /usr/bin/openssl");
        assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
        let certs = CertificateDer::pem_file_iter(&cert).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        let key = PrivateKeyDer::from_pem_file(&key).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        (certs, key)
    }

    /// An HTTPS server on loopback with a self-signed certificate: `/healthz` gets 200, any
    /// other path 500, one connection after another.
    async fn tls_server() -> u16 {
        let (certs, key) = self_signed();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let Ok(mut tls) = acceptor.accept(sock).await else { continue };
                let req = crate::test_support::read_http_head(&mut tls).await;
                let response = if req.starts_with("GET /healthz HTTP/1.1\r\n") {
                    "HTTP/1.0 200 OK\r\n\r\nok"
                } else {
                    "HTTP/1.0 500 Internal Server Error\r\n\r\n"
                };
                let _ = tls.write_all(response.as_bytes()).await;
                let _ = tls.shutdown().await;
            }
        });
        port
    }

    #[tokio::test]
    async fn https_is_probed_without_verifying_the_certificate() {
        // Self-signed, and issued for localhost while the probe dials 127.0.0.1: the kubelet
        // accepts both, and so must podrun.
        let port = tls_server().await;
        let https = |path: &str| {
            let mut probe = http_probe(IntOrString::Int(i64::from(port)));
            if let Some(h) = &mut probe.http_get {
                h.scheme = Some("HTTPS".into());
                h.path = Some(path.into());
            }
            probe
        };
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &https("/healthz"), &target(NO_PORTS)).await, Outcome::Success);
        assert_eq!(
            run(&rt, &https("/broken"), &target(NO_PORTS)).await,
            Outcome::Failure("HTTP probe failed with statuscode: 500".into())
        );
        // Plain HTTP to a TLS server is not a response.
        let mut plain = https("/healthz");
        if let Some(h) = &mut plain.http_get {
            h.scheme = None;
        }
        assert!(matches!(run(&rt, &plain, &target(NO_PORTS)).await, Outcome::Failure(_)));
    }

    #[tokio::test]
    async fn https_to_a_plain_server_and_unknown_schemes_fail() {
        // Answers in plain HTTP at once, without waiting for a request, then closes.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let _ = sock.write_all(b"HTTP/1.1 200 OK\r\n\r\n").await;
            }
        });
        let mut probe = http_probe(IntOrString::Int(i64::from(port)));
        if let Some(h) = &mut probe.http_get {
            h.scheme = Some("HTTPS".into());
        }
        let outcome = run(&FakeRuntime::new(), &probe, &target(NO_PORTS)).await;
        assert!(matches!(&outcome, Outcome::Failure(m) if m.starts_with("TLS handshake")), "{outcome:?}");
        if let Some(h) = &mut probe.http_get {
            h.scheme = Some("ftp".into());
        }
        let outcome = run(&FakeRuntime::new(), &probe, &target(NO_PORTS)).await;
        assert_eq!(outcome, Outcome::Failure("unsupported scheme \"ftp\"".into()));
        let grpc = Probe { grpc: Some(Default::default()), ..Default::default() };
        let outcome = run(&FakeRuntime::new(), &grpc, &target(NO_PORTS)).await;
        assert!(matches!(outcome, Outcome::Failure(_)), "port 0: nothing answers");
        let none = run(&FakeRuntime::new(), &Probe::default(), &target(NO_PORTS)).await;
        assert!(matches!(none, Outcome::Failure(_)));
    }

    #[tokio::test]
    async fn tcp_open_and_closed_ports() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let open = listener.local_addr().unwrap().port();
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &tcp_probe(IntOrString::Int(i64::from(open))), &target(NO_PORTS)).await, Outcome::Success);
        drop(listener);
        // The port was just released, so nothing listens there now.
        let outcome = run(&rt, &tcp_probe(IntOrString::Int(i64::from(open))), &target(NO_PORTS)).await;
        assert!(
            matches!(&outcome, Outcome::Failure(m) if m.starts_with(&format!("dial tcp 127.0.0.1:{open}"))),
            "{outcome:?}"
        );
    }

    #[tokio::test]
    async fn named_ports_resolve_through_the_containers_ports() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let ports =
            [ContainerPort { name: Some("admin".into()), container_port: i64::from(port), ..Default::default() }];
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &tcp_probe(IntOrString::String("admin".into())), &target(&ports)).await, Outcome::Success);
        let missing = run(&rt, &tcp_probe(IntOrString::String("metrics".into())), &target(&ports)).await;
        assert_eq!(missing, Outcome::Failure("port \"metrics\" not found among the container's ports".into()));
        assert_eq!(resolve_port(&IntOrString::String(port.to_string()), NO_PORTS).unwrap(), port);
        for bad in [0, -1, 65536] {
            assert!(resolve_port(&IntOrString::Int(bad), NO_PORTS).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn exec_exit_code_decides() {
        let rt = FakeRuntime::new();
        assert_eq!(run(&rt, &exec_probe(&["cat", "/tmp/healthy"]), &target(NO_PORTS)).await, Outcome::Success);
        let failed = run(&rt, &exec_probe(&["false"]), &target(NO_PORTS)).await;
        assert_eq!(failed, Outcome::Failure("command \"false\" exited with code 1".into()));
        let exec = crate::runtime::fake::Call::Exec { id: "c1".into(), cmd: vec!["cat".into(), "/tmp/healthy".into()] };
        assert!(rt.calls().contains(&exec), "{:?}", rt.calls());
        let empty = run(&rt, &exec_probe(&[]), &target(NO_PORTS)).await;
        assert!(matches!(empty, Outcome::Failure(_)));
        // An engine that cannot run the command gives no result (the kubelet throws it away),
        // so an engine restart cannot fail a liveness probe.
        let down = run(&FakeRuntime::new().unreachable(), &exec_probe(&["true"]), &target(NO_PORTS)).await;
        assert!(matches!(&down, Outcome::Error(m) if m.starts_with("exec failed")), "{down:?}");
    }

    fn hook(port: u16, path: &str, scheme: &str) -> HttpGetAction {
        HttpGetAction {
            port: IntOrString::Int(i64::from(port)),
            path: Some(path.into()),
            scheme: Some(scheme.into()),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn http_hooks_ignore_the_status_code_but_not_a_failed_exchange() {
        for status in ["HTTP/1.1 500 Internal Server Error\r\n\r\n", "HTTP/1.0 404 Not Found\r\n\r\nbody"] {
            let (port, request) = server(Some(status)).await;
            assert_eq!(
                run_http_hook(&hook(port, "/hook", "HTTP"), &target(NO_PORTS)).await.map_err(|e| e.to_string()),
                Ok(()),
                "{status}"
            );
            let request = request.await.unwrap();
            assert!(request.starts_with("GET /hook HTTP/1.1\r\n"), "{request}");
            assert!(request.contains("User-Agent: kube-lifecycle/1.35\r\n"), "{request}");
        }
        let (port, _) = server(Some("SSH-2.0-OpenSSH\r\n")).await;
        let e = run_http_hook(&hook(port, "/", "HTTP"), &target(NO_PORTS)).await.unwrap_err().to_string();
        assert!(e.contains("not an HTTP response"), "{e}");
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = run_http_hook(&hook(closed, "/", "HTTP"), &target(NO_PORTS)).await.unwrap_err().to_string();
        assert!(e.starts_with(&format!("dial tcp 127.0.0.1:{closed}")), "{e}");
        // The hook's own host wins over the pod's address.
        let (port, request) = server(Some("HTTP/1.1 200 OK\r\n\r\n")).await;
        let away = Target { container_id: "c1", pod_ip: "192.0.2.1", ports: NO_PORTS };
        let with_host = HttpGetAction { host: Some("127.0.0.1".into()), ..hook(port, "/", "HTTP") };
        assert_eq!(run_http_hook(&with_host, &away).await.map_err(|e| e.to_string()), Ok(()));
        assert!(request.await.unwrap().contains(&format!("Host: 127.0.0.1:{port}\r\n")));
    }

    #[tokio::test]
    async fn an_https_hook_is_sent_over_tls_and_again_over_http_when_the_server_answers_in_http() {
        let port = tls_server().await;
        assert_eq!(
            run_http_hook(&hook(port, "/broken", "HTTPS"), &target(NO_PORTS)).await.map_err(|e| e.to_string()),
            Ok(()),
            "500 is fine"
        );
        // A plain HTTP server answers the TLS ClientHello with a 400 in plain text: the kubelet
        // then sends the request again over HTTP, without its Authorization header.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let mut req = Vec::new();
                let mut chunk = [0u8; 4096];
                loop {
                    match sock.read(&mut chunk).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => req.extend_from_slice(&chunk[..n]),
                    }
                    if !req.starts_with(b"GET") || req.ends_with(b"\r\n\r\n") {
                        break;
                    }
                }
                let _ = tx.send(req);
                let _ = sock.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n").await;
            }
        });
        let mut secret = hook(port, "/quit", "HTTPS");
        secret.http_headers = vec![
            HttpHeader { name: "Authorization".into(), value: "Bearer s3cret".into() },
            HttpHeader { name: "X-Keep".into(), value: "1".into() },
        ];
        assert_eq!(run_http_hook(&secret, &target(NO_PORTS)).await.map_err(|e| e.to_string()), Ok(()));
        let hello = rx.recv().await.unwrap();
        assert_eq!(hello.first(), Some(&0x16), "a TLS handshake record first");
        let plain = String::from_utf8(rx.recv().await.unwrap()).unwrap();
        assert!(plain.starts_with("GET /quit HTTP/1.1\r\n") && plain.contains("X-Keep: 1\r\n"), "{plain}");
        assert!(!plain.contains("s3cret"), "{plain}");
        // A probe does not fall back: HTTPS that gets no TLS fails.
        let probe = Probe { http_get: Some(hook(port, "/", "HTTPS")), ..Default::default() };
        assert!(matches!(run(&FakeRuntime::new(), &probe, &target(NO_PORTS)).await, Outcome::Failure(_)));
    }

    #[test]
    fn the_pod_address_is_loopback_under_host_network() {
        assert_eq!(pod_address(false, Some("10.88.0.7")).as_deref(), Some("10.88.0.7"));
        assert_eq!(pod_address(false, Some("")), None);
        assert_eq!(pod_address(false, None), None);
        assert_eq!(pod_address(true, None).as_deref(), Some("127.0.0.1"));
    }
}
