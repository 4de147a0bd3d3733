//! `podrun logs`: a container's output, as `kubectl logs` prints it. The pod is found by
//! podrun's labels; the container by its `io.kubernetes.container.name` label.

use futures_util::stream::{self, BoxStream};
use futures_util::StreamExt;

use crate::cli::{Cli, LogsArgs};
use crate::escape::Escaped;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::types::LabelSelector;
use crate::report::{self, output, ReportOptions};
use crate::runtime::engine::Engine;
use crate::runtime::{
    ContainerRuntime, LineSplitter, LogChunk, LogOptions, LogRuntime, LogStream, Observed, RuntimeError, Selector,
};
use crate::status::engine_pods::ListedPod;

use super::Refusal;

pub async fn run(cli: &Cli, args: &LogsArgs) -> anyhow::Result<u8> {
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let rt = super::connect(cli).await?.0;
    let named = args.pod.as_deref().map(super::pod_args::pod_name).transpose()?;
    let pods = match (&named, &args.selector) {
        (Some(name), _) => {
            let Some(pod) = super::find_pod(&rt, &namespace, name).await? else {
                reporter.say(&super::pod_not_found(name));
                return Ok(exit::INTERNAL);
            };
            vec![pod]
        }
        (None, selector) => {
            let pods = selected(&rt, &namespace, selector.as_ref()).await?;
            if pods.is_empty() {
                reporter.say(&format!("No resources found in {namespace} namespace."));
                return Ok(exit::SUCCESS);
            }
            pods
        }
    };
    let mut targets = Vec::new();
    for pod in &pods {
        match self::targets(pod, args) {
            Ok(t) => targets.extend(t.into_iter().map(|(name, c)| (pod.name.clone(), name, c))),
            Err(Refusal::Failed(e)) => {
                reporter.say(&e.to_string());
                return Ok(exit::INTERNAL);
            }
            Err(Refusal::Usage(e)) => return Err(e.into()),
        }
    }
    if let (None, false, false, [pod], [(_, name, _)]) =
        (&args.container, args.all_containers, cli.quiet, pods.as_slice(), targets.as_slice())
    {
        if let Some(note) = pod.defaulted_note(name) {
            reporter.say(&note);
        }
    }
    if args.follow && targets.len() > args.max_log_requests {
        return Err(UsageError::Said(format!(
            "you are attempting to follow {} log streams, but maximum allowed concurrency is {}, use \
             --max-log-requests to increase the limit",
            targets.len(),
            args.max_log_requests
        ))
        .into());
    }
    let since = args.since.map(|d| crate::clock::now().checked_sub(d).unwrap_or(std::time::UNIX_EPOCH));
    // As kubectl: with a selector, the last 10 lines unless --tail says.
    let tail = args.tail.or(args.selector.as_ref().map(|_| SELECTED_TAIL));
    let opts = LogOptions { tail, since, timestamps: args.timestamps, follow: args.follow };
    let streams: Vec<_> = targets
        .into_iter()
        .map(|(pod, name, c)| {
            let prefix = args.prefix.then(|| format!("[pod/{}/{}] ", Escaped(&pod), Escaped(&name)));
            prefixed(rt.logs(&c.id, &opts), prefix)
        })
        .collect();
    // Followed containers run side by side, so their output is interleaved as it comes;
    // otherwise one after the other, each whole.
    let mut all: BoxStream<'static, Result<LogChunk, RuntimeError>> =
        if args.follow { stream::select_all(streams).boxed() } else { stream::iter(streams).flatten().boxed() };
    // Written in batches, at once when the engine pauses (`output::Batch`).
    let mut batch = output::Batch::new();
    while let Some(chunk) = batch.next(&mut all).await? {
        let chunk = chunk?;
        match chunk.stream {
            // A reader that went away (`| head`) has all it wanted: podrun stops, and exits 141.
            LogStream::Stdout => batch.out(&chunk.bytes)?,
            LogStream::Stderr => {
                // What came before it on stdout shows first, as it came.
                batch.flush()?;
                output::err(&chunk.bytes);
            }
        }
    }
    batch.flush()?;
    Ok(exit::SUCCESS)
}

/// The lines each selected pod's container shows without --tail, as kubectl's `-l`.
const SELECTED_TAIL: usize = 10;

/// The pods of `namespace` whose labels `selector` selects (every one without), by name.
async fn selected(rt: &Engine, namespace: &str, selector: Option<&LabelSelector>) -> anyhow::Result<Vec<ListedPod>> {
    let observed = rt.list(&Selector { namespace: Some(namespace.to_owned()), pod: None }).await?;
    let mut pods: Vec<ListedPod> = crate::status::engine_pods::group(observed)
        .into_iter()
        .filter(|p| selector.is_none_or(|s| s.matches(&crate::status::pod_object::labels(p)) == Some(true)))
        .collect();
    pods.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(pods)
}

/// Why a container's output cannot be printed, as the API server answers kubectl.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum NoTarget {
    #[error("Error from server (BadRequest): container {container:?} is not valid for pod {pod:?}")]
    Unknown { container: String, pod: String },
    #[error("Error from server (BadRequest): previous terminated container {container:?} in pod {pod:?} not found")]
    NoPrevious { container: String, pod: String },
    #[error("Error from server (BadRequest): container {container:?} in pod {pod:?} is waiting to start")]
    Waiting { container: String, pod: String },
}

/// The containers to print, with the instance whose output is wanted, in order.
fn targets(pod: &ListedPod, args: &LogsArgs) -> Result<Vec<(String, Observed)>, Refusal<NoTarget>> {
    let names: Vec<&str> = if args.all_containers {
        pod.init.iter().chain(&pod.containers).map(|(n, _)| n.as_str()).collect()
    } else {
        vec![super::container_name(pod, args.container.as_deref())?]
    };
    let mut out = Vec::new();
    for name in names {
        let (container, pod_name) = (name.to_owned(), pod.name.clone());
        let Some(inst) = pod.instances(name) else {
            return Err(Refusal::Failed(NoTarget::Unknown { container, pod: pod_name }));
        };
        let c = if args.previous { inst.previous.as_ref() } else { inst.current.as_ref() };
        match c {
            Some(c) => out.push((name.to_owned(), c.clone())),
            // With --all-containers a container without such an instance just has nothing.
            None if args.all_containers => {}
            None if args.previous => return Err(Refusal::Failed(NoTarget::NoPrevious { container, pod: pod_name })),
            None => return Err(Refusal::Failed(NoTarget::Waiting { container, pod: pod_name })),
        }
    }
    Ok(out)
}

/// With a prefix, the output cut into lines, each starting with it (whole lines only, so
/// prefixes never land mid-line when containers are interleaved); without, untouched.
fn prefixed(
    chunks: BoxStream<'static, Result<LogChunk, RuntimeError>>,
    prefix: Option<String>,
) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
    let Some(prefix) = prefix else { return chunks };
    let line = move |stream, l: String| Ok(LogChunk { stream, bytes: format!("{prefix}{l}\n").into_bytes() });
    let state = (chunks, [LineSplitter::default(), LineSplitter::default()], false);
    stream::unfold(state, move |(mut chunks, mut split, ended)| {
        let line = line.clone();
        async move {
            if ended {
                return None;
            }
            let out: Vec<Result<LogChunk, RuntimeError>> = match chunks.next().await {
                Some(Ok(c)) => {
                    let i = usize::from(c.stream == LogStream::Stderr);
                    split[i].push(&c.bytes).into_iter().map(|l| line(c.stream, l)).collect()
                }
                Some(Err(e)) => vec![Err(e)],
                None => {
                    let last = [LogStream::Stdout, LogStream::Stderr]
                        .into_iter()
                        .zip(split.iter_mut())
                        .filter_map(|(s, sp)| sp.finish().map(|l| line(s, l)))
                        .collect();
                    return Some((last, (chunks, split, true)));
                }
            };
            Some((out, (chunks, split, false)))
        }
    })
    .flat_map(stream::iter)
    .boxed()
}
