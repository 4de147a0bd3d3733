//! `podrun cp`: files and directories copied out of a container of a pod and into one, as
//! `kubectl cp` copies them: `[[NAMESPACE/]POD:]PATH` on one side, a local path on the other,
//! as a tar archive streamed between them. Unlike kubectl, a container that exited can be
//! copied from and to on the Docker API (its archive calls need no running process), and
//! symbolic links are kept as links.

mod extract;
mod pack;
mod receive;
mod spec;
mod transfer;

use crate::cli::{Cli, CpArgs};
use crate::exit;
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::report::{self, ReportOptions, Reporter};
use crate::runtime::engine::Engine;
use crate::runtime::{NodeRuntime, Observed};
use crate::status::engine_pods::ListedPod;

use self::spec::Copy;
use self::transfer::{Container, CopyError};
use super::Refusal;

pub async fn run(cli: &Cli, args: &CpArgs) -> anyhow::Result<u8> {
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let copy = match spec::copy(&args.src, &args.dest) {
        Ok(c) => c,
        Err(e) => return Ok(failed(&*reporter, &e.to_string())),
    };
    if !copy.from_pod && std::fs::symlink_metadata(&copy.local).is_err() {
        let local = crate::escape::escape(&copy.local).into_owned();
        return Ok(failed(&*reporter, &format!("{local} doesn't exist in local filesystem")));
    }
    let namespace = copy.namespace.clone().or_else(|| args.namespace.clone());
    let namespace = namespace.unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let rt = super::connect(cli).await?.0;
    let Some(pod) = super::find_pod(&rt, &namespace, &copy.pod).await? else {
        reporter.say(&super::pod_not_found(&copy.pod));
        return Ok(exit::INTERNAL);
    };
    let (name, instance) = match target(&pod, args.container.as_deref()) {
        Ok(t) => t,
        Err(Refusal::Usage(e)) => return Err(e.into()),
        Err(Refusal::Failed(e)) => return Ok(failed(&*reporter, &e.to_string())),
    };
    if args.container.is_none() && !cli.quiet {
        if let Some(note) = pod.defaulted_note(name) {
            reporter.say(&note);
        }
    }
    let exec = matches!(rt, Engine::Cri(_));
    if exec && !instance.is_running() {
        let engine = rt.info().await?.name;
        let e = NoTarget::ExitedOnCri { container: name.to_owned(), pod: pod.name.clone(), engine };
        return Ok(failed(&*reporter, &e.to_string()));
    }
    let container = Container { rt: rt.clone(), id: instance.id.clone(), exec };
    let done =
        if copy.from_pod { from_pod(&container, &copy, args).await } else { to_pod(&container, &copy, args).await };
    match done {
        Ok(()) => Ok(exit::SUCCESS),
        // An engine that went away mid-copy is the engine's error, with its exit code.
        Err(Failure::Copy(CopyError::Engine(e @ crate::runtime::RuntimeError::Unreachable { .. }))) => Err(e.into()),
        Err(e) => Ok(failed(&*reporter, &e.to_string())),
    }
}

/// kubectl's `error: ...` line, escaped; exit 1.
fn failed(reporter: &dyn Reporter, message: &str) -> u8 {
    reporter.say(&format!("error: {}", crate::escape::escape_lines(message)));
    exit::INTERNAL
}

/// Why a copy did not finish.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error(transparent)]
    Copy(#[from] CopyError),
    #[error(transparent)]
    Extract(#[from] extract::ExtractError),
    #[error("{}: {source}", crate::escape::Escaped(path))]
    Local {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path:?}: No such file or directory")]
    NoSuchPath { path: String },
}

async fn from_pod(container: &Container, copy: &Copy, args: &CpArgs) -> Result<(), Failure> {
    let prefix = if container.exec { spec::exec_prefix(&copy.remote) } else { spec::archive_prefix(&copy.remote) };
    let missing = || Failure::NoSuchPath { path: copy.remote.clone() };
    let Some(first) = container.download(&copy.remote).await? else { return Err(missing()) };
    let extractor = extract::Extractor::new(
        std::path::Path::new(&copy.local),
        &prefix,
        Box::new(|line| report::output::eprintln(&line)),
    )?;
    let source = receive::Source { container: container.clone(), path: copy.remote.clone(), retries: args.retries };
    receive::receive(first, source, extractor).await
}

async fn to_pod(container: &Container, copy: &Copy, args: &CpArgs) -> Result<(), Failure> {
    let src = std::path::PathBuf::from(&copy.local);
    let local_base = src.file_name().map(|b| b.to_string_lossy().into_owned()).unwrap_or_else(|| ".".to_owned());
    // As kubectl: into a directory that exists, under SRC's name; else as PATH itself.
    let (dir, name) = if container.is_dir(&copy.remote).await? {
        // With a slash, a link to the directory is extracted through, not replaced.
        (format!("{}/", copy.remote.trim_end_matches('/')), local_base)
    } else {
        match spec::base(&copy.remote) {
            Some(base) => (spec::dir(&copy.remote), base),
            None => (copy.remote.clone(), local_base),
        }
    };
    let (tar, packing) = pack::pack(src, name, args.no_preserve);
    let uploaded = container.upload(&dir, tar, args.no_preserve).await;
    let packed = packing.await.map_err(|e| Failure::Local { path: copy.local.clone(), source: e.into() })?;
    // SRC that could not be read is the cause of an upload cut short.
    packed.map_err(|source| Failure::Local { path: copy.local.clone(), source })?;
    match uploaded {
        Err(CopyError::Engine(crate::runtime::RuntimeError::NotFound { .. })) => Err(Failure::NoSuchPath { path: dir }),
        r => Ok(r?),
    }
}

/// Why the container asked for cannot be copied from or to, in kubectl's words.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum NoTarget {
    #[error("container {container:?} is not valid for pod {pod:?}")]
    Unknown { container: String, pod: String },
    #[error("container {container:?} in pod {pod:?} is waiting to start")]
    Waiting { container: String, pod: String },
    #[error(
        "cannot copy to or from container {container:?} of pod {pod:?}: it is not running, and on {engine} \
         (a CRI runtime) podrun copies through exec in a running container, as kubectl does; Docker and \
         Podman copy from exited containers too"
    )]
    ExitedOnCri { container: String, pod: String, engine: String },
}

/// The container to copy from or to (by `-c`, else the pod's default one) and its newest
/// instance, running or not.
fn target<'a>(pod: &'a ListedPod, named: Option<&'a str>) -> Result<(&'a str, &'a Observed), Refusal<NoTarget>> {
    let name = super::container_name(pod, named)?;
    let (container, pod_name) = (name.to_owned(), pod.name.clone());
    let Some(inst) = pod.instances(name) else {
        return Err(Refusal::Failed(NoTarget::Unknown { container, pod: pod_name }));
    };
    match inst.current.as_ref() {
        Some(c) => Ok((name, c)),
        None => Err(Refusal::Failed(NoTarget::Waiting { container, pod: pod_name })),
    }
}
