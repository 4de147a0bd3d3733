//! Docker Engine (and Podman's Docker-compatible API), through bollard. The only module that
//! speaks bollard. Engine errors are told apart by HTTP status code (404, 409, 304), never by
//! message text: message wording changes between engine versions (kubernetes PR #79623).

pub mod context;
mod convert;
mod progress;
mod raw;
mod security;
mod ssh;
pub mod tls;
mod transport;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use super::concurrency::bounded;
use bollard::auth::DockerCredentials;
use bollard::container::LogOutput;
use bollard::errors::Error as BollardError;
use bollard::exec::{CreateExecOptions, ResizeExecOptions, StartExecOptions, StartExecResults};
use bollard::models::VolumeCreateRequest;
use bollard::query_parameters::{
    CreateContainerOptionsBuilder, CreateImageOptionsBuilder, DownloadFromContainerOptionsBuilder,
    EventsOptionsBuilder, ImportImageOptionsBuilder, KillContainerOptionsBuilder, ListContainersOptionsBuilder,
    ListVolumesOptionsBuilder, LogsOptionsBuilder, RemoveContainerOptionsBuilder, RemoveVolumeOptionsBuilder,
    StopContainerOptionsBuilder, UploadToContainerOptionsBuilder,
};
use bollard::Docker;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;

pub use self::context::Endpoint;
use self::progress::LayerProgress;
use self::transport::Dialer;
use super::auth::Credentials;
use super::{
    parse_api_version, registry, Capacity, CreateSpec, EngineInfo, EngineSecurity, ExecRequest, ExecSession,
    LineSplitter, LogChunk, LogLine, LogOptions, LogStream, Mount, Observed, OomFloor, PullProgress, Runtime,
    RuntimeError, Selector, TermSize, Tmpfs, VolumeInfo, RECURSIVE_READ_ONLY_API,
};
use crate::runtime::labels;
use crate::runtime::seal::{Kind, Seal};

/// The default engine endpoint when neither `--host`, DOCKER_HOST nor a context says otherwise.
pub const DEFAULT_HOST: &str = "unix:///var/run/docker.sock";
/// How long an engine that took the connection may take to answer the first request before
/// podrun calls it unreachable. A missing socket or a refused connection fails at once; this
/// only bounds an engine that is there but slow, as Podman's service is on a loaded host (5 s
/// was seen to run out in CI, making a delete fail with exit 3 though the engine was up).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// Per-request timeout: long enough for a stop with a long grace period or a big pull; the
/// driver's own deadline bounds the run as a whole.
const REQUEST_TIMEOUT_SECS: u64 = 3600;
/// How often, and how far apart, a container list or inspect whose answer cannot be used is
/// asked again (see [`decoded`]): 40 × 25 ms, a second at most.
const UNDECODABLE_RETRIES: u32 = 40;
const UNDECODABLE_DELAY: Duration = Duration::from_millis(25);
/// After a refused create, how many more times (50 ms apart) the name's holder is looked for.
const NAME_HOLDER_LOOKS: u32 = 20;

/// `e` and its causes, each once: bollard's own text often leaves out the cause that matters
/// (a refused connection, a closed stream).
fn causes(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = err.source();
    }
    parts.join(": ")
}

/// Runs `call`, a read (a container list or inspect), until its answer can be used, a second at
/// most. Podman (4.3) trips over containers that exit while it reads them: it reports one that
/// has just exited as `stopped` until its cleanup has run, tens of milliseconds later (a state
/// the Docker API does not have, so bollard cannot decode the answer), and a list can fail
/// with 500 when a container's process went away mid-read (`read /proc/PID/cgroup`). podrun
/// looks right after each `die` event, in exactly that window; asking again a moment later gets
/// a good answer. A read is safe to repeat. What still fails after that is the error it is.
async fn decoded<T, F, Fut>(mut call: F) -> Result<T, BollardError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, BollardError>>,
{
    let mut retries = 0;
    loop {
        match call().await {
            Err(
                BollardError::JsonDataError { .. } | BollardError::DockerResponseServerError { status_code: 500, .. },
            ) if retries < UNDECODABLE_RETRIES => {
                retries += 1;
                tokio::time::sleep(UNDECODABLE_DELAY).await;
            }
            r => return r,
        }
    }
}

#[derive(Debug, Clone)]
pub struct DockerRuntime {
    docker: Docker,
    endpoint: Endpoint,
    /// How bytes reach the engine, for requests podrun sends itself ([`raw`]).
    dialer: Dialer,
    /// Podman's Docker-compatible API rather than Docker Engine: see `convert::Engine`.
    engine: convert::Engine,
    /// What the engine is, as `GET /_ping` (or `GET /version`) said on connecting.
    info: EngineInfo,
    /// The API version agreed with the engine (major, minor): the lower of bollard's and the
    /// engine's.
    api: (usize, usize),
    /// podrun's key: what it creates gets its seal, and it acts only on what has it.
    seal: Seal,
}

impl DockerRuntime {
    /// The API version agreed with the engine, for tests of what older engines refuse.
    #[cfg(test)]
    pub(crate) fn api(&self) -> (usize, usize) {
        self.api
    }

    /// Connects to `endpoint` (`unix:///path`, `tcp://host:port`, `http://...`, with TLS when
    /// the endpoint has TLS material, `ssh://[user@]host[:port]`; see [`context::resolve`]) and
    /// agrees on an API version the engine speaks. Unreachable within a few seconds is an error
    /// naming the endpoint (and its context), and for TLS and SSH saying what refused.
    pub async fn connect(endpoint: &Endpoint, seal: Seal) -> Result<DockerRuntime, RuntimeError> {
        let unreachable = |detail: String| RuntimeError::Unreachable { endpoint: endpoint.to_string(), detail };
        let host = &endpoint.host;
        let dialer = Dialer::new(host, endpoint.tls.as_ref()).map_err(unreachable)?;
        let docker = match &dialer {
            Dialer::Unix(path) => Docker::connect_with_unix(path, REQUEST_TIMEOUT_SECS, bollard::API_DEFAULT_VERSION),
            Dialer::Tcp(_) => Docker::connect_with_http(host, REQUEST_TIMEOUT_SECS, bollard::API_DEFAULT_VERSION),
            Dialer::Tls { .. } | Dialer::Ssh(_) => dialer.bollard(REQUEST_TIMEOUT_SECS),
        }
        .map_err(|e| unreachable(e.to_string()))?;
        let no_answer = || format!("no answer within {}s", CONNECT_TIMEOUT.as_secs());
        let dialer_ref = &dialer;
        let failed = |e: BollardError| async move {
            let detail = dialer_ref.explain(&e).await;
            unreachable(detail.unwrap_or_else(|| causes(&e)))
        };
        // `GET /_ping` answers in a millisecond, and its headers say what the engine is and which
        // API it speaks; `GET /version` takes 10 ms on Docker and 0.7 s on Podman (which runs
        // conmon and the OCI runtime to learn their versions), on every command. A request of
        // podrun's own needs a connection of its own: nothing over a unix socket or plain TCP,
        // a handshake over TLS, an ssh process over SSH; those two ask `/version` on bollard's
        // pooled connection instead, as does an answer without the headers (a proxy).
        if matches!(dialer, Dialer::Unix(_) | Dialer::Tcp(_)) {
            let head = match tokio::time::timeout(CONNECT_TIMEOUT, raw::ping(&dialer, &endpoint.to_string())).await {
                Err(_) => return Err(unreachable(no_answer())),
                Ok(Err(RuntimeError::Unreachable { detail, .. })) => return Err(unreachable(detail)),
                Ok(Err(_)) => None,
                Ok(Ok(head)) => Some(head),
            };
            if let Some((engine, info)) = head.as_ref().and_then(identify) {
                let api = agreed_api(&info.api_version).ok_or_else(|| bad_api(&info.api_version))?;
                return Ok(DockerRuntime { docker, endpoint: endpoint.clone(), dialer, engine, info, api, seal });
            }
        }
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
        let api = agreed_api(&api_version).ok_or_else(|| bad_api(&api_version))?;
        let info = EngineInfo { name, version: version.version.unwrap_or_default(), api_version };
        Ok(DockerRuntime { docker, endpoint: endpoint.clone(), dialer, engine, info, api, seal })
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The API version agreed with the engine, as the path wants it (`1.41`).
    fn api_version(&self) -> String {
        format!("{}.{}", self.api.0, self.api.1)
    }

    /// A container's output as `opts` selects it, chunk by chunk: read raw for a container with
    /// a terminal (see [`raw`]), as bollard decodes the engine's frames otherwise. A failure is
    /// an item of the stream (a container that does not exist is `NotFound`).
    fn log_chunks(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        let (this, id, opts) = (self.clone(), id.to_owned(), opts.clone());
        futures_util::stream::once(async move {
            let what = format!("logs of container {id}");
            let tty = match decoded(|| this.docker.inspect_container(&id, None)).await {
                Ok(c) => c.config.and_then(|c| c.tty).unwrap_or(false),
                Err(e) => return futures_util::stream::iter([Err(this.error(&what, e))]).boxed(),
            };
            if !tty {
                return this.decoded_logs(&id, &opts);
            }
            let secs = |t: std::time::SystemTime| t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            let query = format!(
                "stdout=1&stderr=1&follow={}&timestamps={}&tail={}&since={}",
                u8::from(opts.follow),
                u8::from(opts.timestamps),
                opts.tail.map_or_else(|| "all".to_owned(), |n| n.to_string()),
                opts.since.map_or(0, secs),
            );
            match raw::logs(&this.dialer, &this.endpoint.to_string(), &this.api_version(), &id, &query).await {
                Ok(s) => s,
                Err(e) => futures_util::stream::iter([Err(e)]).boxed(),
            }
        })
        .flatten()
        .boxed()
    }

    /// `log_chunks` for a container without a terminal: bollard's frame decoding.
    fn decoded_logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        let tail = opts.tail.map_or_else(|| "all".to_owned(), |n| n.to_string());
        let mut b = LogsOptionsBuilder::default()
            .follow(opts.follow)
            .stdout(true)
            .stderr(true)
            .timestamps(opts.timestamps)
            .tail(&tail);
        if let Some(since) = opts.since {
            // The engine takes whole seconds; a time before 1970 or past 2038 means "all".
            let secs = since.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            b = b.since(i32::try_from(secs).unwrap_or(0));
        }
        let (this, what) = (self.clone(), format!("logs of container {id}"));
        self.docker
            .logs(id, Some(b.build()))
            .map(move |chunk| {
                let chunk = chunk.map_err(|e| this.error(&what, e))?;
                let stream = match chunk {
                    LogOutput::StdErr { .. } => LogStream::Stderr,
                    // A TTY container's output (Console) is one stream: stdout.
                    _ => LogStream::Stdout,
                };
                Ok(LogChunk { stream, bytes: chunk.into_bytes().to_vec() })
            })
            .boxed()
    }

    fn error(&self, what: &str, e: BollardError) -> RuntimeError {
        match e {
            BollardError::DockerResponseServerError { status_code: 404, .. } => {
                RuntimeError::NotFound { what: what.to_owned() }
            }
            BollardError::DockerResponseServerError { status_code: 409, .. } => {
                RuntimeError::Conflict { what: what.to_owned() }
            }
            BollardError::DockerResponseServerError { status_code, message } => {
                RuntimeError::Engine { what: what.to_owned(), status: status_code, message }
            }
            // No connection, or one broken in the middle of an answer (an engine going away
            // while it answers): the engine is unreachable, whatever the request was.
            BollardError::IOError { .. }
            | BollardError::HyperLegacyError { .. }
            | BollardError::HyperResponseError { .. }
            | BollardError::SocketNotFoundError(_)
            | BollardError::RequestTimeoutError => {
                RuntimeError::Unreachable { endpoint: self.endpoint.to_string(), detail: causes(&e) }
            }
            other => RuntimeError::Client { what: what.to_owned(), source: super::Cause(std::sync::Arc::new(other)) },
        }
    }

    fn status_of(e: &BollardError) -> Option<u16> {
        match e {
            BollardError::DockerResponseServerError { status_code, .. } => Some(*status_code),
            _ => None,
        }
    }

    async fn inspect(&self, id: &str) -> Result<Option<Observed>, RuntimeError> {
        match decoded(|| self.docker.inspect_container(id, None)).await {
            Ok(c) => Ok(Some(convert::observed(c, || self.node_ip()))),
            // Removed between the list and the inspect: it is gone, which is what the list
            // would have said a moment later.
            Err(e) if Self::status_of(&e) == Some(404) => Ok(None),
            Err(e) => Err(self.error(&format!("inspect container {id}"), e)),
        }
    }

    /// The node IP of the engine's host, when podrun runs there (read once): of a remote
    /// engine's host podrun knows no address it could vouch for (the endpoint it dials may be
    /// a forwarder or a tunnel), so a hostNetwork pod there has none, as before.
    fn node_ip(&self) -> Option<String> {
        static NODE_IP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        if !self.local_files() {
            return None;
        }
        NODE_IP.get_or_init(|| super::node_ip::of_this_host().map(|ip| ip.to_string())).clone()
    }

    /// The seal itself is checked, not just the flag the list set: an `Observed` reaches here
    /// from far above.
    fn ensure_owned(&self, what: &str, c: &Observed) -> Result<(), RuntimeError> {
        if c.is_owned() && self.seal.verify(Kind::Container, &c.name, &c.labels) {
            Ok(())
        } else {
            Err(RuntimeError::NotOwned { what: what.to_owned(), id: c.id.clone() })
        }
    }
}

/// Where `Runtime::logs_follow` is in a container's output.
struct FollowState {
    chunks: BoxStream<'static, Result<LogChunk, RuntimeError>>,
    rt: DockerRuntime,
    id: String,
    /// Per stream: stdout, stderr.
    splitters: [LineSplitter; 2],
    /// Bytes received so far, per stream.
    got: [usize; 2],
    /// Bytes still to skip, per stream, in the catch-up read.
    skip: [usize; 2],
    /// Lines split off but not yet handed out: one chunk may hold several.
    ready: VecDeque<LogLine>,
    /// Whether the follow ended and the catch-up read has begun.
    caught_up: bool,
    ended: bool,
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
    RuntimeError::Protocol {
        what: "engine version".to_owned(),
        detail: format!("the engine's API version {api_version:?} is not MAJOR.MINOR"),
    }
}

/// Docker pulls every tag of a repository when given none; Kubernetes means `:latest`.
pub fn pull_reference(image: &str) -> String {
    let last = image.rsplit('/').next().unwrap_or(image);
    if image.contains('@') || last.contains(':') {
        image.to_owned()
    } else {
        format!("{image}:latest")
    }
}

impl Runtime for DockerRuntime {
    /// As the engine answered when podrun connected (every command connects anew).
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        Ok(self.info.clone())
    }

    async fn oom_score_floor(&self) -> Option<OomFloor> {
        // The daemon is the peer of its unix socket; an engine elsewhere is not podrun's to read.
        let Some(path) = self.endpoint.host.strip_prefix("unix://") else { return Some(OomFloor::Unseen) };
        let connect = tokio::net::UnixStream::connect(path);
        let peer = match tokio::time::timeout(std::time::Duration::from_secs(5), connect).await {
            Ok(Ok(stream)) => stream.peer_cred().ok().and_then(|c| c.pid()),
            _ => None,
        };
        match peer.and_then(super::oom_floor::of_daemon) {
            Some(super::oom_floor::Rights::AnyScore) => None,
            Some(super::oom_floor::Rights::NotBelow(own)) => Some(OomFloor::Daemon(own)),
            None => Some(OomFloor::Unseen),
        }
    }

    async fn capacity(&self) -> Result<Option<Capacity>, RuntimeError> {
        if self.local_files() {
            return Ok(None);
        }
        let info = self.docker.info().await.map_err(|e| self.error("engine info", e))?;
        let cpus = info.ncpu.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        let memory = info.mem_total.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        Ok(Some(Capacity { cpus, memory }))
    }

    async fn security(&self) -> Result<EngineSecurity, RuntimeError> {
        match self.engine {
            convert::Engine::Docker => {
                let info = self.docker.info().await.map_err(|e| self.error("engine info", e))?;
                Ok(security::of_docker(&info))
            }
            convert::Engine::Podman => {
                // Podman's own API; any version it serves answers at v4.0.0.
                let what = "engine info (/libpod/info)";
                let body =
                    raw::get(&self.dialer, &self.endpoint.to_string(), what, "/v4.0.0/libpod/info", 4 << 20).await?;
                let info = serde_json::from_slice(&body).map_err(|e| RuntimeError::Protocol {
                    what: what.to_string(),
                    detail: format!("the engine's answer is not JSON: {e}"),
                })?;
                Ok(security::of_podman(&info))
            }
        }
    }

    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        let filters: HashMap<String, Vec<String>> = HashMap::from([("label".to_owned(), sel.label_filters())]);
        let opts = ListContainersOptionsBuilder::default().all(true).filters(&filters).build();
        let summaries = decoded(|| self.docker.list_containers(Some(opts.clone())))
            .await
            .map_err(|e| self.error("list containers", e))?;
        let ids: Vec<String> = summaries.into_iter().filter_map(|s| s.id).collect();
        // Collected first: a stream over a closure taking `&String` is not provably Send.
        let inspects: Vec<_> = ids.iter().map(|id| self.inspect(id)).collect();
        let inspected = bounded(inspects).await;
        let mut out = Vec::with_capacity(ids.len());
        for r in inspected {
            // The filter ran in the engine; checking the label again here costs nothing and
            // keeps a container without it out even if a filter were ignored. Those with the
            // label but not the seal are kept, unsealed, so callers can report them.
            if let Some(mut c) = r?.filter(|c| c.label(labels::MANAGED) == Some(labels::MANAGED_VALUE)) {
                c.sealed = self.seal.verify(Kind::Container, &c.name, &c.labels);
                out.push(c);
            }
        }
        // A pulled image is known by its registry digest (`repo@sha256:...`), as the kubelet
        // reports imageID; one inspect per distinct image.
        let mut images: Vec<String> = out.iter().map(|c| c.image_id.clone()).filter(|i| !i.is_empty()).collect();
        images.sort();
        images.dedup();
        let inspects: Vec<_> = images.iter().map(|id| self.docker.inspect_image(id)).collect();
        let digests = bounded(inspects).await;
        let digest_of: HashMap<&String, String> = images
            .iter()
            .zip(digests)
            .filter_map(|(id, r)| {
                r.ok().and_then(|img| img.repo_digests).and_then(|d| d.into_iter().next()).map(|d| (id, d))
            })
            .collect();
        for c in &mut out {
            if let Some(d) = digest_of.get(&c.image_id) {
                c.image_id = d.clone();
            }
        }
        Ok(out)
    }

    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        match self.docker.inspect_image(image).await {
            Ok(_) => Ok(true),
            Err(e) if Self::status_of(&e) == Some(404) => Ok(false),
            Err(e) => Err(self.error(&format!("inspect image {image}"), e)),
        }
    }

    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        let img =
            self.docker.inspect_image(image).await.map_err(|e| self.error(&format!("inspect image {image}"), e))?;
        Ok(img.config.and_then(|c| c.user).unwrap_or_default())
    }

    async fn pull_image(
        &self,
        image: &str,
        credentials: Option<&Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        let reference = pull_reference(image);
        let opts = CreateImageOptionsBuilder::default().from_image(&reference).build();
        let auth = credentials.map(|c| DockerCredentials {
            username: Some(c.username.clone()).filter(|u| !u.is_empty()),
            password: Some(c.password.clone()).filter(|p| !p.is_empty()),
            serveraddress: Some(c.server.clone()),
            identitytoken: c.identity_token.clone(),
            ..Default::default()
        });
        let mut stream = self.docker.create_image(Some(opts), None, auth);
        let mut layers = LayerProgress::default();
        while let Some(item) = stream.next().await {
            match item {
                Ok(info) => {
                    if layers.update(&info) {
                        progress(layers.total());
                    }
                }
                Err(e) => {
                    return Err(match e {
                        BollardError::DockerResponseServerError { status_code: 404, message } => {
                            RuntimeError::ImageNotFound { image: image.to_owned(), detail: message }
                        }
                        // 500: the engine could not get it from the registry. Whether the
                        // registry answered at all (an auth failure) or not (offline) cannot be
                        // told from the status, so podrun asks the network itself.
                        BollardError::DockerResponseServerError { status_code: 500, message }
                            if !registry::reachable(image).await =>
                        {
                            RuntimeError::RegistryUnreachable { image: image.to_owned(), detail: message }
                        }
                        BollardError::DockerResponseServerError { message, .. } => {
                            RuntimeError::Image { image: image.to_owned(), detail: message }
                        }
                        // Podman answers 200 and reports every failed pull in the stream,
                        // an offline registry too: told apart as the 500 above is.
                        BollardError::DockerStreamError { error } if !registry::reachable(image).await => {
                            RuntimeError::RegistryUnreachable { image: image.to_owned(), detail: error }
                        }
                        BollardError::DockerStreamError { error } => {
                            RuntimeError::Image { image: image.to_owned(), detail: error }
                        }
                        other => self.error(&format!("pull {image}"), other),
                    });
                }
            }
        }
        Ok(())
    }

    async fn load_image(&self, image: &str, archive: Vec<u8>) -> Result<(), RuntimeError> {
        let what = format!("load image {image}");
        let opts = ImportImageOptionsBuilder::default().quiet(true).build();
        let mut stream = self.docker.import_image(opts, bollard::body_full(archive.into()), None);
        while let Some(item) = stream.next().await {
            item.map_err(|e| self.error(&what, e))?;
        }
        // The archive names the image; an engine that took it under another name (or not at
        // all) would otherwise fail later, at the create, with a less telling error.
        if self.image_present(image).await? {
            Ok(())
        } else {
            Err(RuntimeError::Protocol {
                what,
                detail: format!("the engine accepted the archive, but has no image {image}"),
            })
        }
    }

    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        if self.api < RECURSIVE_READ_ONLY_API {
            if let Some(m) = spec.mounts.iter().find(|m| matches!(m, Mount::Bind { recursive_read_only: true, .. })) {
                return Err(RuntimeError::Unsupported {
                    what: format!("create container {}", spec.name),
                    detail: format!(
                        "the mount at {} must be recursively read-only, which needs \
                     Docker API {}.{} (Engine 25) or later; this engine speaks {}.{}",
                        m.target(),
                        RECURSIVE_READ_ONLY_API.0,
                        RECURSIVE_READ_ONLY_API.1,
                        self.api.0,
                        self.api.1
                    ),
                });
            }
        }
        let opts = CreateContainerOptionsBuilder::default().name(&spec.name).build();
        let mut body = convert::create_body(spec, self.engine);
        let mut labels = spec.labels.clone();
        self.seal.stamp(Kind::Container, &spec.name, &mut labels);
        body.labels = Some(labels.into_iter().collect());
        let what = format!("create container {}", spec.name);
        let e = match self.docker.create_container(Some(opts), body).await {
            Ok(resp) => return Ok(resp.id),
            Err(e) => e,
        };
        let status = Self::status_of(&e);
        if status == Some(404) {
            // 404 on create: the image (or the infra container to join) is gone.
            if let BollardError::DockerResponseServerError { message, .. } = e {
                return Err(RuntimeError::Engine { what, status: 404, message });
            }
        }
        // Podman answers a name already in use with 500 where Docker says 409. Whether the
        // name is taken, and by whom, is asked of the engine, not read from the message.
        if status.is_some() {
            // Podman reserves a name in its storage before the container can be inspected: the
            // holder of a name in use may take a moment to show (bounded: a failure path only).
            let mut holder = self.inspect(&spec.name).await;
            for _ in 0..NAME_HOLDER_LOOKS {
                if !matches!(holder, Ok(None)) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                holder = self.inspect(&spec.name).await;
            }
            if let Ok(Some(holder)) = holder {
                return Err(if self.seal.verify(Kind::Container, &holder.name, &holder.labels) {
                    // A podrun running beside us made it.
                    RuntimeError::Conflict { what }
                } else {
                    RuntimeError::NameTaken { what, name: spec.name.clone() }
                });
            }
        }
        Err(self.error(&what, e))
    }

    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        match self.docker.start_container(id, None).await {
            // 304: already started, by us or by a podrun running beside us.
            Err(e) if Self::status_of(&e) == Some(304) => Ok(()),
            r => r.map_err(|e| self.error(&format!("start container {id}"), e)),
        }
    }

    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        self.ensure_owned("stop", c)?;
        // Whole seconds, rounded up: a grace period is never cut short.
        let secs = grace.as_secs() + u64::from(grace.subsec_nanos() > 0);
        let t = i32::try_from(secs).unwrap_or(i32::MAX);
        let opts = StopContainerOptionsBuilder::default().t(t).build();
        match self.docker.stop_container(&c.id, Some(opts)).await {
            // 304: not running; 404: gone. Either way it is stopped.
            Err(e) if matches!(Self::status_of(&e), Some(304 | 404)) => Ok(()),
            r => r.map_err(|e| self.error(&format!("stop container {}", c.name), e)),
        }
    }

    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.ensure_owned("kill", c)?;
        let opts = KillContainerOptionsBuilder::default().signal("KILL").build();
        match self.docker.kill_container(&c.id, Some(opts)).await {
            // 404: gone; 409: not running. Either way it is not running any more.
            Err(e) if matches!(Self::status_of(&e), Some(404 | 409)) => Ok(()),
            // Podman answers "not running" with 500: the container's state tells.
            Err(e @ BollardError::DockerResponseServerError { .. }) => match self.inspect(&c.id).await {
                Ok(None) => Ok(()),
                Ok(Some(now)) if !now.is_running() => Ok(()),
                _ => Err(self.error(&format!("kill container {}", c.name), e)),
            },
            r => r.map_err(|e| self.error(&format!("kill container {}", c.name), e)),
        }
    }

    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.ensure_owned("remove", c)?;
        // v: anonymous volumes the image declared go with the container, or they would leak.
        let opts = RemoveContainerOptionsBuilder::default().force(true).v(true).build();
        match self.docker.remove_container(&c.id, Some(opts)).await {
            // 404: gone already; 409: a removal is already in progress.
            Err(e) if matches!(Self::status_of(&e), Some(404 | 409)) => Ok(()),
            r => r.map_err(|e| self.error(&format!("remove container {}", c.name), e)),
        }
    }

    fn local_files(&self) -> bool {
        self.endpoint.host.starts_with("unix://")
    }

    async fn logs_tail(&self, id: &str, lines: usize) -> Result<String, RuntimeError> {
        let opts = LogOptions { tail: Some(lines), ..LogOptions::default() };
        let mut out = String::new();
        let mut stream = self.log_chunks(id, &opts);
        while let Some(chunk) = stream.next().await {
            out.push_str(&String::from_utf8_lossy(&chunk?.bytes));
        }
        Ok(out)
    }

    fn logs_follow(&self, id: &str) -> BoxStream<'static, LogLine> {
        // since 0: everything the container wrote. podrun never restarts a container in place
        // (a restart is a new container), so that is its output since its start.
        let opts = LogOptions { follow: true, since: Some(std::time::UNIX_EPOCH), ..LogOptions::default() };
        let state = FollowState {
            chunks: self.log_chunks(id, &opts),
            rt: self.clone(),
            id: id.to_owned(),
            splitters: [LineSplitter::default(), LineSplitter::default()],
            got: [0, 0],
            skip: [0, 0],
            ready: VecDeque::new(),
            caught_up: false,
            ended: false,
        };
        futures_util::stream::unfold(state, |mut st| async move {
            loop {
                if let Some(line) = st.ready.pop_front() {
                    return Some((line, st));
                }
                if st.ended {
                    return None;
                }
                match st.chunks.next().await {
                    Some(Ok(LogChunk { stream, bytes })) => {
                        let i = usize::from(stream == LogStream::Stderr);
                        st.got[i] += bytes.len();
                        // In the catch-up read, what the follow gave already is skipped.
                        let n = st.skip[i].min(bytes.len());
                        st.skip[i] -= n;
                        let lines = st.splitters[i].push(&bytes[n..]);
                        st.ready.extend(lines.into_iter().map(|line| LogLine { stream, line }));
                    }
                    // The container stopped (or went away, or the engine did). The engine may
                    // end a follow before the last of the output reached it (an unfinished last
                    // line, typically), so the logs are read once more, past what was seen.
                    Some(Err(_)) | None if !st.caught_up => {
                        st.caught_up = true;
                        st.skip = st.got;
                        st.chunks = st.rt.log_chunks(&st.id, &LogOptions::default());
                    }
                    // What was read is all there is, unfinished lines included.
                    Some(Err(_)) | None => {
                        st.ended = true;
                        for (stream, i) in [(LogStream::Stdout, 0), (LogStream::Stderr, 1)] {
                            if let Some(line) = st.splitters[i].finish() {
                                st.ready.push_back(LogLine { stream, line });
                            }
                        }
                    }
                }
            }
        })
        .boxed()
    }

    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        self.log_chunks(id, opts)
    }

    async fn exec(&self, id: &str, cmd: &[String]) -> Result<i64, RuntimeError> {
        let what = format!("exec in container {id}");
        let opts = CreateExecOptions::<String> {
            cmd: Some(cmd.to_vec()),
            attach_stdout: Some(true),
            attach_stderr: Some(true),
            ..Default::default()
        };
        let exec = self.docker.create_exec(id, opts).await.map_err(|e| self.error(&what, e))?;
        // Attached, so the call returns when the command ends; its output is not needed.
        if let StartExecResults::Attached { mut output, .. } =
            self.docker.start_exec(&exec.id, None).await.map_err(|e| self.error(&what, e))?
        {
            while output.next().await.is_some() {}
        }
        let info = self.docker.inspect_exec(&exec.id).await.map_err(|e| self.error(&what, e))?;
        Ok(info.exit_code.unwrap_or(-1))
    }

    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        let what = format!("exec in container {id}");
        let opts = CreateExecOptions::<String> {
            cmd: Some(req.cmd.clone()),
            attach_stdin: Some(req.stdin),
            attach_stdout: Some(true),
            attach_stderr: Some(true),
            tty: Some(req.tty),
            ..Default::default()
        };
        let exec = self.docker.create_exec(id, opts).await.map_err(|e| self.error(&what, e))?;
        if req.tty {
            // A terminal's output is raw bytes, which bollard would take for frames now and then.
            let (output, input) =
                raw::start_exec(&self.dialer, &self.endpoint.to_string(), &self.api_version(), &exec.id).await?;
            return Ok(ExecSession { id: exec.id, output, input: req.stdin.then_some(input) });
        }
        let start = StartExecOptions { detach: false, tty: req.tty, output_capacity: None };
        let StartExecResults::Attached { output, input } =
            self.docker.start_exec(&exec.id, Some(start)).await.map_err(|e| self.error(&what, e))?
        else {
            return Err(RuntimeError::Protocol { what, detail: "the engine did not attach to the command".into() });
        };
        let this = self.clone();
        let output = output
            .filter_map(move |chunk| {
                let item = match chunk {
                    Ok(LogOutput::StdErr { message }) => {
                        Some(Ok(LogChunk { stream: LogStream::Stderr, bytes: message.to_vec() }))
                    }
                    // A terminal's output (Console) is one stream: stdout.
                    Ok(LogOutput::StdOut { message } | LogOutput::Console { message }) => {
                        Some(Ok(LogChunk { stream: LogStream::Stdout, bytes: message.to_vec() }))
                    }
                    Ok(LogOutput::StdIn { .. }) => None,
                    Err(e) => Some(Err(this.error(&what, e))),
                };
                std::future::ready(item)
            })
            .boxed();
        Ok(ExecSession { id: exec.id, output, input: req.stdin.then_some(input) })
    }

    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        let opts = ResizeExecOptions { height: size.rows, width: size.cols };
        self.docker.resize_exec(exec_id, opts).await.map_err(|e| self.error(&format!("resize exec {exec_id}"), e))
    }

    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        let info =
            self.docker.inspect_exec(exec_id).await.map_err(|e| self.error(&format!("inspect exec {exec_id}"), e))?;
        Ok(if info.running == Some(true) { None } else { info.exit_code })
    }

    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> Result<(), RuntimeError> {
        let driver_opts = tmpfs.map(|t| {
            // The local driver mounts it (with these options) when a container first uses it,
            // and unmounts it when the last one stops.
            let mut o = format!("mode={:o}", t.mode);
            if let Some(size) = t.size {
                o = format!("size={size},{o}");
            }
            HashMap::from([
                ("type".to_owned(), "tmpfs".to_owned()),
                ("device".to_owned(), "tmpfs".to_owned()),
                ("o".to_owned(), o),
            ])
        });
        let mut labels = labels.clone();
        self.seal.stamp(Kind::Volume, name, &mut labels);
        let req = VolumeCreateRequest {
            name: Some(name.to_owned()),
            labels: Some(labels.into_iter().collect()),
            driver: tmpfs.map(|_| "local".to_owned()),
            driver_opts,
            ..Default::default()
        };
        // The engine answers a create of an existing local volume with that volume, unchanged;
        // 409 (the name taken with another driver, or a racing create) also means it exists.
        match self.docker.create_volume(req).await {
            Err(e) if Self::status_of(&e) == Some(409) => Ok(()),
            r => r.map(drop).map_err(|e| self.error(&format!("create volume {name}"), e)),
        }
    }

    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<VolumeInfo>, RuntimeError> {
        let filters = HashMap::from([("label".to_owned(), label_filters.to_vec())]);
        let opts = ListVolumesOptionsBuilder::default().filters(&filters).build();
        let list = self.docker.list_volumes(Some(opts)).await.map_err(|e| self.error("list volumes", e))?;
        // Checked again here: Podman 4.3 matches a volume carrying any one of several label
        // filters, Docker only one carrying all of them.
        let wanted = |labels: &HashMap<String, String>| {
            label_filters.iter().all(|f| match f.split_once('=') {
                Some((k, v)) => labels.get(k).is_some_and(|x| x == v),
                None => labels.contains_key(f),
            })
        };
        Ok(list
            .volumes
            .unwrap_or_default()
            .into_iter()
            .filter(|v| wanted(&v.labels))
            .map(|v| VolumeInfo {
                created: v.created_at.as_deref().and_then(crate::clock::parse_time),
                name: v.name,
                labels: v.labels.into_iter().collect(),
            })
            // Only podrun's own: what is listed here is removed on delete.
            .filter(|v| self.seal.verify(Kind::Volume, &v.name, &v.labels))
            .collect())
    }

    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        let what = format!("inspect volume {name}");
        match self.docker.inspect_volume(name).await {
            Err(e) if Self::status_of(&e) == Some(404) => {
                Err(RuntimeError::NotFound { what: format!("volume {name}") })
            }
            r => Ok(r.map_err(|e| self.error(&what, e))?.mountpoint),
        }
    }

    async fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
        let what = format!("copy files into container {id} at {path}");
        let opts = UploadToContainerOptionsBuilder::default().path(path).build();
        match self.docker.upload_to_container(id, Some(opts), bollard::body_full(tar.into())).await {
            Err(e) if Self::status_of(&e) == Some(404) => Err(RuntimeError::NotFound { what }),
            r => r.map_err(|e| self.error(&what, e)),
        }
    }

    async fn get_archive(&self, id: &str, path: &str, max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        let what = format!("copy {path} out of container {id}");
        let opts = DownloadFromContainerOptionsBuilder::default().path(path).build();
        let mut stream = self.docker.download_from_container(id, Some(opts));
        let mut out = Vec::new();
        while let Some(chunk) = stream.next().await {
            match chunk {
                Ok(bytes) => {
                    let room = max_bytes.saturating_sub(out.len());
                    out.extend_from_slice(&bytes[..bytes.len().min(room)]);
                    if out.len() >= max_bytes {
                        break;
                    }
                }
                Err(e) if Self::status_of(&e) == Some(404) => return Ok(None),
                Err(e) => return Err(self.error(&what, e)),
            }
        }
        Ok(Some(out))
    }

    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        let what = format!("remove volume {name}");
        let volume = match self.docker.inspect_volume(name).await {
            Err(e) if Self::status_of(&e) == Some(404) => return Ok(()),
            r => r.map_err(|e| self.error(&what, e))?,
        };
        // As with containers: podrun never removes data it did not create.
        if !self.seal.verify(Kind::Volume, name, &volume.labels.into_iter().collect()) {
            return Err(RuntimeError::VolumeNotOwned { name: name.to_owned() });
        }
        let opts = RemoveVolumeOptionsBuilder::default().force(false).build();
        match self.docker.remove_volume(name, Some(opts)).await {
            Err(e) if Self::status_of(&e) == Some(404) => Ok(()),
            // 409: still in use by a container. Reported as the engine said it, not as
            // `Conflict` (which reads "already exists").
            Err(BollardError::DockerResponseServerError { status_code: 409, message }) => {
                Err(RuntimeError::Engine { what, status: 409, message })
            }
            r => r.map_err(|e| self.error(&what, e)),
        }
    }

    fn changes(&self, sel: &Selector) -> BoxStream<'static, ()> {
        // The actions are picked here rather than by an `event` filter: Podman names a removal
        // `remove` (Docker: `destroy`), and matches an `event=die` filter against its own name
        // for it (`died`) although it reports `die`, so that filter would drop every exit.
        const ACTIONS: [&str; 6] = ["create", "start", "die", "destroy", "remove", "oom"];
        let filters: HashMap<String, Vec<String>> = HashMap::from([
            ("type".to_owned(), vec!["container".to_owned()]),
            ("label".to_owned(), sel.label_filters()),
        ]);
        let opts = EventsOptionsBuilder::default().filters(&filters).build();
        let mut events = self
            .docker
            .events(Some(opts))
            .take_while(|e| std::future::ready(e.is_ok()))
            .filter_map(|e| {
                let wanted = e.ok().and_then(|e| e.action).is_some_and(|a| ACTIONS.contains(&a.as_str()));
                std::future::ready(wanted.then_some(()))
            })
            .boxed();
        // The request goes out when the stream is first polled, and the driver first polls it
        // only when it waits, after its first look and actions: an exit in between would be
        // missed until the next poll. A task polls it at once instead, and hands on ticks (one
        // pending tick says all there is to say). It ends with the stream or with the reader.
        let (tx, rx) = tokio::sync::mpsc::channel::<()>(1);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    ev = events.next() => match ev {
                        Some(()) => {
                            if let Err(tokio::sync::mpsc::error::TrySendError::Closed(())) = tx.try_send(()) {
                                return;
                            }
                        }
                        None => return,
                    },
                    () = tx.closed() => return,
                }
            }
        });
        futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|()| ((), rx)) }).boxed()
    }
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

    fn undecodable() -> BollardError {
        BollardError::JsonDataError { message: "unknown variant `stopped`".into(), column: 1 }
    }

    #[tokio::test(start_paused = true)]
    async fn an_undecodable_answer_is_asked_again_for_a_while() {
        let calls = std::sync::atomic::AtomicU32::new(0);
        let call = || {
            let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async move {
                if n < 3 {
                    Err(undecodable())
                } else {
                    Ok(n)
                }
            }
        };
        assert_eq!(decoded(call).await.unwrap(), 3, "the fourth answer decodes");

        let calls = std::sync::atomic::AtomicU32::new(0);
        let start = tokio::time::Instant::now();
        let r: Result<(), _> = decoded(|| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async { Err(undecodable()) }
        })
        .await;
        assert!(matches!(r, Err(BollardError::JsonDataError { .. })));
        assert_eq!(calls.into_inner(), UNDECODABLE_RETRIES + 1);
        assert_eq!(start.elapsed(), UNDECODABLE_DELAY * UNDECODABLE_RETRIES);

        // A 500 (Podman: a process gone mid-read) is asked again too; it may pass the next time.
        let calls = std::sync::atomic::AtomicU32::new(0);
        let r: Result<u32, _> = decoded(|| {
            let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async move {
                if n == 0 {
                    Err(BollardError::DockerResponseServerError { status_code: 500, message: "x".into() })
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(r.unwrap(), 1);

        // Other errors (a container that does not exist) are answers: not asked again.
        let calls = std::sync::atomic::AtomicU32::new(0);
        let r: Result<(), _> = decoded(|| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async { Err(BollardError::DockerResponseServerError { status_code: 404, message: "x".into() }) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.into_inner(), 1);
    }

    #[test]
    fn pull_reference_adds_latest_only_when_needed() {
        assert_eq!(pull_reference("busybox"), "busybox:latest");
        assert_eq!(pull_reference("busybox:1.28"), "busybox:1.28");
        assert_eq!(pull_reference("127.0.0.1:5000/x"), "127.0.0.1:5000/x:latest");
        assert_eq!(pull_reference("127.0.0.1:5000/x:2"), "127.0.0.1:5000/x:2");
        assert_eq!(pull_reference("x@sha256:ab"), "x@sha256:ab");
    }
}
