//! One module per subcommand; each returns the exit code, or an error that `exit` maps to one.

pub mod apply;
pub mod complete_names;
mod completion_hooks;
pub mod completions;
pub mod cp;
pub mod delete;
mod delete_targets;
pub mod describe;
mod dry_run;
pub mod events;
pub mod exec;
pub mod gc;
pub mod get;
mod get_look;
pub mod get_output;
mod get_table;
mod get_watch;
pub mod logs;
mod manual;
mod orphan_cgroups;
mod pod_args;
pub mod top;
mod top_usage;
pub mod validate;
pub mod wait;

use crate::cli::{Cli, Command};
use crate::exit::UsageError;
use crate::pod::files::PodFiles;
use crate::runtime::cri::{endpoint as cri_endpoint, CriRuntime};
use crate::runtime::docker::{context, DockerRuntime};
use crate::runtime::engine::Engine;
use crate::runtime::{NodeRuntime, Runtime, RuntimeError, Selector};
use crate::status::engine_pods::{self, ListedPod};

/// Runs the command `cli` names; Ok is the exit code.
///
/// # Errors
/// Whatever ended the command (bad input, an engine podrun cannot reach, ...);
/// `exit::for_error` gives its exit code.
pub async fn run(cli: Cli) -> anyhow::Result<u8> {
    context::check_flags(cli.context.as_deref(), cli.host.as_deref())?;
    match &cli.command {
        Command::Apply(args) => apply::run(&cli, args).await,
        Command::Validate(args) => validate::run(&cli, args).await,
        Command::Delete(args) => delete::run(&cli, args).await,
        Command::Gc(args) => gc::run(&cli, args).await,
        Command::Get(args) => get::run(&cli, args).await,
        Command::Wait(args) => wait::run(&cli, args).await,
        Command::Logs(args) => logs::run(&cli, args).await,
        Command::Events(args) => events::run(&cli, args).await,
        Command::Describe(args) => describe::run(&cli, args).await,
        Command::Exec(args) => exec::run(&cli, args).await,
        Command::Top(args) => top::run(&cli, args).await,
        Command::Cp(args) => cp::run(&cli, args).await,
        Command::Completions { shell } => completions::completions(*shell),
        Command::Man => completions::man(),
        Command::Complete { words } => complete_names::run(words).await,
    }
}

/// Connects to the engine the flags and environment select, and checks it answers:
/// unreachable is exit 3, within seconds. `--runtime-endpoint` (or CONTAINER_RUNTIME_ENDPOINT)
/// is a CRI runtime; `--context`, `--host`, DOCKER_HOST, DOCKER_CONTEXT or the Docker config's
/// currentContext a Docker API; with none of them and no Docker socket, the first CRI runtime
/// socket found (`cri::endpoint::DISCOVERY`), else Docker's default socket.
/// Opens podrun's state directory first (its key seals what podrun creates: `runtime::seal`);
/// its files for pods come back when the engine is on this host and can mount them.
pub(crate) async fn connect(cli: &Cli) -> anyhow::Result<(Engine, Option<PodFiles>)> {
    let tls = context::TlsOptions {
        tls: cli.tls,
        verify: cli.tlsverify,
        cacert: cli.tlscacert.as_deref(),
        cert: cli.tlscert.as_deref(),
        key: cli.tlskey.as_deref(),
        cert_path: None,
    };
    let chosen = choose_engine(cli, tls)?;
    let (files, seal) = PodFiles::open(&PodFiles::default_root())?;
    let rt = match chosen {
        Chosen::Cri(endpoint) => Engine::Cri(CriRuntime::connect(&endpoint, seal, &PodFiles::default_root()).await?),
        Chosen::Docker(endpoint) => Engine::Docker(DockerRuntime::connect(&endpoint, seal).await?),
    };
    let info = rt.info().await?;
    tracing::debug!(endpoint = %rt.endpoint(), engine = %info.name, version = %info.version, api = %info.api_version, "connected");
    let files = rt.local_files().then(|| files.for_engine(&rt.address()));
    Ok((rt, files))
}

/// The engine to connect to: a CRI endpoint, else a Docker API endpoint. With no engine named
/// anywhere and no Docker socket, the first CRI runtime socket found, else (as root) the system
/// Podman service's socket: on a node with CRI-O or containerd and Podman beside it (as RHEL's
/// nodes are), the runtime the node runs wins over a Podman socket that only waits for a client.
fn choose_engine(cli: &Cli, tls: context::TlsOptions) -> anyhow::Result<Chosen> {
    if let Some(cri) = cli.runtime_endpoint.clone().filter(|e| !e.is_empty()) {
        return Ok(Chosen::Cri(cri));
    }
    let docker = context::resolve_with_tls(cli.context.as_deref(), cli.host.as_deref(), tls)?;
    let named = cli.host.is_some()
        || cli.context.is_some()
        || ["DOCKER_HOST", "DOCKER_CONTEXT"].iter().any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
        || docker.host != crate::runtime::docker::DEFAULT_HOST
        || docker.context.is_some();
    let docker_socket = crate::runtime::docker::DEFAULT_HOST.trim_start_matches("unix://");
    if named || cri_endpoint::discover(&[docker_socket]).is_some() {
        return Ok(Chosen::Docker(docker));
    }
    if let Some(cri) = cri_endpoint::discover(cri_endpoint::DISCOVERY) {
        return Ok(Chosen::Cri(cri));
    }
    let root = rustix::process::geteuid().is_root();
    Ok(Chosen::Docker(context::system_podman(docker, root, |p| cri_endpoint::discover(&[p]).is_some())))
}

/// A CRI runtime's endpoint, or a Docker API engine's.
enum Chosen {
    Cri(String),
    Docker(context::Endpoint),
}

/// The pod named `name` in `namespace`, as the engine shows it. An earlier pod of the same name
/// may linger beside the current one: the newest wins.
pub(crate) async fn find_pod(
    rt: &impl Runtime,
    namespace: &str,
    name: &str,
) -> Result<Option<ListedPod>, RuntimeError> {
    Ok(engine_pods::newest(rt.list(&Selector::pod(namespace, name)).await?))
}

/// What kubectl prints for a pod that does not exist.
pub(crate) fn pod_not_found(name: &str) -> String {
    format!("Error from server (NotFound): pods {name:?} not found")
}

/// Why no container of a pod could be chosen: a usage error (exit 2), or the pod's state
/// (`E`, the command's own), which kubectl reports as the API server's answer (exit 1).
#[derive(Debug)]
pub(crate) enum Refusal<E> {
    Usage(UsageError),
    Failed(E),
}

impl<E> From<UsageError> for Refusal<E> {
    fn from(e: UsageError) -> Self {
        Refusal::Usage(e)
    }
}

/// The container `named`, else the pod's default one, as kubectl chooses it; a pod without one
/// (several app containers, none marked default) needs a name: a usage error listing them.
pub(crate) fn container_name<'a>(pod: &'a ListedPod, named: Option<&'a str>) -> Result<&'a str, UsageError> {
    match named {
        Some(n) => Ok(n),
        None => pod.default_container().map_err(|candidates| UsageError::NoContainerChosen {
            pod: pod.name.clone(),
            candidates: candidates.into_iter().map(str::to_owned).collect(),
        }),
    }
}
