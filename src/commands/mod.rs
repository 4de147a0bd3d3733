//! One module per subcommand; each returns the exit code, or an error that `exit` maps to one.

pub mod apply;
pub mod completions;
pub mod delete;
pub mod exec;
pub mod gc;
pub mod get;
pub mod logs;
pub mod manifest_dir;
pub mod static_dir;
pub mod supervise;
pub mod validate;
pub mod watch;

use crate::cli::{Cli, Command};
use crate::exit::UsageError;
use crate::manifest::{self, LoadOptions, Loaded, ManifestError, Source};
use crate::pod::files::PodFiles;
use crate::runtime::docker::{context, DockerRuntime};
use crate::runtime::{Runtime, RuntimeError, Selector};
use crate::status::listing::{self, ListedPod};

/// Runs the command `cli` names; Ok is the exit code.
///
/// # Errors
/// Whatever ended the command (bad input, an engine podrun cannot reach, ...);
/// `exit::for_error` gives its exit code.
pub async fn run(cli: Cli) -> anyhow::Result<u8> {
    context::check_flags(cli.context.as_deref(), cli.host.as_deref())?;
    match &cli.command {
        Command::Apply(args) => apply::run(&cli, args).await,
        Command::Validate(args) => validate::run(&cli, args),
        Command::Delete(args) => delete::run(&cli, args).await,
        Command::Gc(args) => gc::run(&cli, args).await,
        Command::Get(args) => get::run(&cli, args).await,
        Command::Logs(args) => logs::run(&cli, args).await,
        Command::Exec(args) => exec::run(&cli, args).await,
        Command::Completions { shell } => completions::completions(*shell),
        Command::Man => completions::man(),
    }
}

/// Reads and loads manifests and `--config` files, as apply and validate both do.
pub(crate) fn load_manifests(files: &[String], configs: &[String], opts: &LoadOptions) -> anyhow::Result<Loaded> {
    // Only a watched static pod directory that is empty yet gets here with no file: no pods.
    if files.is_empty() {
        return Ok(Loaded::default());
    }
    // Standard input can be read once; a second `-` would silently read nothing.
    if files.iter().chain(configs).filter(|f| *f == "-").count() > 1 {
        return Err(UsageError("- (standard input) can be given only once".into()).into());
    }
    // Every file is read and checked, so that one error report names every bad manifest.
    let mut errors = Vec::new();
    let mut read = |paths: &[String]| {
        let mut sources = Vec::with_capacity(paths.len());
        for p in paths {
            match Source::read(p) {
                Ok(s) => sources.push(s),
                Err(e) => errors.push(e),
            }
        }
        sources
    };
    let (sources, config_sources) = (read(files), read(configs));
    match manifest::load_all(&sources, &config_sources, opts) {
        Ok(loaded) if errors.is_empty() => return Ok(loaded),
        Ok(_) => {}
        // Those that could be read hold no pod: the files that could not are the news.
        Err(ManifestError::NoPod { .. }) if !errors.is_empty() => {}
        Err(e) => errors.push(e),
    }
    Err(ManifestError::of(errors).map_or_else(|| anyhow::anyhow!("no manifest loaded"), Into::into))
}

/// The manifest files `paths` name (see `manifest_dir::list`), without a word on what was left
/// out.
pub(crate) fn expand_paths(paths: &[String], empty_ok: bool) -> anyhow::Result<Vec<String>> {
    Ok(manifest_dir::list(paths, empty_ok)?.files)
}

/// Connects to the engine `--context`, `--host`, DOCKER_HOST, DOCKER_CONTEXT or the Docker
/// config's currentContext selects, and checks it answers: unreachable is exit 3, within seconds.
/// Opens podrun's state directory first (its key seals what podrun creates: `runtime::seal`);
/// its files for pods come back when the engine is on this host and can mount them.
pub(crate) async fn connect(cli: &Cli) -> anyhow::Result<(DockerRuntime, Option<PodFiles>)> {
    let tls = context::TlsOptions {
        tls: cli.tls,
        verify: cli.tlsverify,
        cacert: cli.tlscacert.as_deref(),
        cert: cli.tlscert.as_deref(),
        key: cli.tlskey.as_deref(),
        cert_path: None,
    };
    let endpoint = context::resolve_with_tls(cli.context.as_deref(), cli.host.as_deref(), tls)?;
    let (files, seal) = PodFiles::open(&PodFiles::default_root())?;
    let rt = DockerRuntime::connect(&endpoint, seal).await?;
    let info = rt.info().await?;
    tracing::debug!(endpoint = %rt.endpoint(), engine = %info.name, version = %info.version, api = %info.api_version, "connected");
    let files = rt.local_files().then_some(files);
    Ok((rt, files))
}

/// The pod named `name` in `namespace`, as the engine shows it. An earlier pod of the same name
/// may linger beside the current one: the newest wins.
pub(crate) async fn find_pod(
    rt: &impl Runtime,
    namespace: &str,
    name: &str,
) -> Result<Option<ListedPod>, RuntimeError> {
    let pods = listing::group(rt.list(&Selector::pod(namespace, name)).await?);
    Ok(pods.into_iter().max_by(|a, b| a.started_at().cmp(&b.started_at())))
}

/// What kubectl prints for a pod that does not exist.
pub(crate) fn pod_not_found(name: &str) -> String {
    format!("Error from server (NotFound): pods {name:?} not found")
}

/// Why no container of a pod could be chosen: a usage error (exit 2), or the pod's state, which
/// kubectl reports as the API server's answer (exit 1).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    Usage(String),
    Failed(String),
}

/// The container `named`, else the pod's default one, as kubectl chooses it; a pod without one
/// (several app containers, none marked default) needs a name: a usage error listing them.
pub(crate) fn container_name<'a>(pod: &'a ListedPod, named: Option<&'a str>) -> Result<&'a str, Refusal> {
    match named {
        Some(n) => Ok(n),
        None => pod.default_container().map_err(|candidates| {
            Refusal::Usage(format!(
                "a container name must be specified for pod {}, choose one of: [{}]",
                pod.name,
                candidates.join(" ")
            ))
        }),
    }
}
