//! `podrun wait`: the pods its arguments name (by name, `--all`, `-l`), found in the engine as
//! `get` finds them, waited for by `driver::wait`, with apply's report and exit codes. Missing
//! pods and empty selections answer as `kubectl wait` does
//! (`staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go`): NotFound, or no matching resources, exit 1;
//! for `--for=delete` a pod not there is one waited for already. The kubectl forms of `--for`
//! (condition, delete) end with kubectl's `pod/NAME condition met`.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::cli::{Cli, OutputArg, WaitArgs, WaitForSpec, WaitUntilArg};
use crate::driver::wait::{self, WaitOptions, Waited};
use crate::driver::wait_goal::Goal;
use crate::driver::wait_until::Until;
use crate::driver::Interrupt;
use crate::exit::{self, UsageError};
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::validate::is_dns1123_subdomain;
use crate::pod::files::PodFiles;
use crate::report::{self, output, summary, Ended, Format, PodKey, ReportOptions};
use crate::runtime::bounded::Bounded;
use crate::runtime::{ContainerRuntime, Observed, Selector};
use crate::status::engine_pods::{self, ListedPod};
use crate::status::WaitFor;

/// How long past `--timeout` an engine call may still run, as apply allows it.
const ENGINE_GRACE: Duration = Duration::from_secs(2);

pub async fn run(cli: &Cli, args: &WaitArgs) -> anyhow::Result<u8> {
    let names = super::pod_args::pod_names(&args.pods)?;
    if let Some(name) = names.iter().find(|n| !is_dns1123_subdomain(n)) {
        return Err(UsageError::Said(format!("{name:?} is not a valid pod name")).into());
    }
    let deadline = Instant::now() + args.timeout;
    let namespace = args.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_owned());
    let live = console::Term::stderr().is_term();
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live });
    let (rt, files) = super::connect(cli).await?;
    let rt = Arc::new(Bounded::new(rt, Some(deadline + ENGINE_GRACE)));
    let observed = rt.list(&Selector { namespace: Some(namespace.clone()), pod: None }).await?;
    for w in engine_pods::unverified_report(&observed, &PodFiles::default_root()) {
        reporter.warning(&w);
    }
    let pods = match targets(&observed, &namespace, &names, args, files.as_ref()) {
        Ok(pods) => pods,
        Err(lines) => {
            // As kubectl: nothing is waited for when a pod is not there, and that is exit 1.
            for line in lines {
                reporter.say(&line);
            }
            return Ok(exit::INTERNAL);
        }
    };
    let interrupt = Interrupt::listen()?;
    let goal = goal(args.wait_for.as_ref());
    let until = match &args.wait_for {
        Some(WaitForSpec::JsonPath(cond)) => {
            let cond = cond.clone();
            Some(Until(Arc::new(move |pod: &ListedPod| cond.check(&super::get::pod_object(pod)))))
        }
        _ => None,
    };
    // A state is reported as apply reports it; kubectl's forms with kubectl's line.
    let as_apply = matches!(goal, Goal::State(_)) && until.is_none();
    let opts = WaitOptions { goal, deadline, files, until };
    let waited = wait::wait_all(&rt, pods, &opts, &reporter, &interrupt).await;
    reporter.finish();
    if as_apply || args.output == OutputArg::Json {
        let ready = args.wait_for == Some(WaitForSpec::State(WaitUntilArg::Ready));
        print_summary(&waited, args.output, cli.quiet, ready);
    } else if !cli.quiet {
        print_met(&waited);
    }
    // The first failing pod, in the order asked, decides the exit code, as in apply.
    Ok(waited.iter().find_map(|w| w.outcome.as_ref().err()).map_or(exit::SUCCESS, exit::for_pod))
}

/// The goal of `--for`; a jsonpath condition is decided by its own check (`Until`), beside the
/// containers' states apply waits for.
fn goal(arg: Option<&WaitForSpec>) -> Goal {
    match arg {
        None | Some(WaitForSpec::JsonPath(_)) => Goal::State(None),
        Some(WaitForSpec::State(WaitUntilArg::Running)) => Goal::State(Some(WaitFor::Running)),
        Some(WaitForSpec::State(WaitUntilArg::Ready)) => Goal::State(Some(WaitFor::Ready)),
        Some(WaitForSpec::State(WaitUntilArg::Complete)) => Goal::State(Some(WaitFor::Complete)),
        Some(WaitForSpec::Condition { type_, status }) => Goal::Condition { type_, status },
        Some(WaitForSpec::Delete) => Goal::Delete,
    }
}

/// kubectl's line for each pod that got there.
fn print_met(waited: &[Waited]) {
    for w in waited.iter().filter(|w| w.outcome.is_ok()) {
        // A closed or full stdout is recorded, and ends podrun (141, or 1): see `output`.
        let _ = output::println(&crate::escape::escape(&format!("pod/{} condition met", w.key.name)));
    }
}

/// The pods to wait for, in the order named (else by name), as the engine shows them now; or
/// kubectl's words for the pods that are not there (or for a selector that matches none).
fn targets(
    observed: &[Observed],
    namespace: &str,
    names: &[String],
    args: &WaitArgs,
    files: Option<&PodFiles>,
) -> Result<Vec<ListedPod>, Vec<String>> {
    let keys = if args.all || args.selector.is_some() {
        super::delete::pods_in_engine(observed, namespace, args.selector.as_ref(), Observed::is_owned)
    } else {
        let mut unique: Vec<&String> = Vec::new();
        for name in names {
            if !unique.contains(&name) {
                unique.push(name);
            }
        }
        unique.into_iter().map(|name| PodKey { namespace: namespace.to_owned(), name: name.clone() }).collect()
    };
    // A deletion is waited for already where there is nothing.
    let deletion = args.wait_for == Some(WaitForSpec::Delete);
    if keys.is_empty() && !deletion {
        return Err(vec!["error: no matching resources found".to_owned()]);
    }
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for key in keys {
        match wait::find(observed, &key, files) {
            Some(pod) => found.push(pod),
            None if deletion => {}
            None => missing.push(super::pod_not_found(&key.name)),
        }
    }
    if missing.is_empty() {
        Ok(found)
    } else {
        Err(missing)
    }
}

/// The summary of every pod on stdout, as apply prints it (always in JSON; in text unless
/// `--quiet`).
fn print_summary(waited: &[Waited], format: OutputArg, quiet: bool, ready: bool) {
    let format = match format {
        OutputArg::Text => Format::Text,
        OutputArg::Json => Format::Json,
    };
    if format == Format::Text && quiet {
        return;
    }
    let ended: Vec<Ended<'_>> = waited
        .iter()
        .map(|w| Ended {
            key: w.key.clone(),
            status: w.pod.as_ref().map(|p| &p.status),
            outcome: &w.outcome,
            failed: &w.failed,
        })
        .collect();
    let pods: Vec<ListedPod> = waited.iter().filter_map(|w| w.pod.clone()).collect();
    let colour = console::Term::stdout().is_term() && console::colors_enabled();
    // A closed or full stdout is recorded, and ends podrun (141, or 1): see `output`.
    let how = summary::Table { colour, ready };
    let _ = output::print(&summary::render_ended(&ended, &super::get::list(&pods), format, how));
}
