//! `podrun apply`: load and check every pod first (nothing is created if any is invalid), then
//! run each pod's driver concurrently and report. Beside the drivers, `--logs` shows the
//! containers' output; after them, `--rm` removes the pods and `--exit-code-from` picks the
//! exit code.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::signal::unix::{signal, SignalKind};
use tokio::time::Instant;

use crate::cli::{ApplyArgs, Cli, OutputArg, PullArg, WaitForArg};
use crate::driver::{self, CrashBackoff, DriveOptions, Interrupt, PodFailure, PodResult};
use crate::error_chain::chain;
use crate::exit::{self, UsageError};
use crate::manifest::types::PullPolicy;
use crate::manifest::{LoadOptions, Loaded, LoadedPod};
use crate::plan;
use crate::pod::files::PodFiles;
use crate::pod::{prepare, volumes, DesiredPod};
use crate::report::logs::{self, LogPod, LogStreamer};
use crate::report::{self, output, summary, Format, PodKey, ReportOptions, Reporter};
use crate::runtime::bounded::Bounded;
use crate::runtime::labels;
use crate::runtime::{infra_image, EngineInfo, EngineSecurity, Runtime, RuntimeError, Selector};
use crate::status::WaitFor;

use super::static_dir;

/// How long past `--timeout` an engine call may still run: the drivers end at the deadline on
/// their own, after one last look, which a working engine answers in milliseconds.
const ENGINE_GRACE: Duration = Duration::from_secs(2);
/// Under supervision, how long one engine call may take (a stop its grace period more, a pull
/// as long as it takes): the kubelet's default `--runtime-request-timeout`. One cut off fails
/// the pod's run, which supervision takes up again with backoff.
const SUPERVISED_CALL_LIMIT: Duration = Duration::from_secs(120);

pub async fn run(cli: &Cli, args: &ApplyArgs) -> anyhow::Result<u8> {
    let deadline = Instant::now() + args.timeout;
    let opts =
        LoadOptions { namespace: args.namespace.clone(), strict: args.strict, unknown_fields: args.validate.into() };
    let paths = args.manifest.paths();
    if args.prune && paths.iter().any(|p| p == "-") {
        return Err(UsageError("--prune needs manifest files or directories, not standard input".into()).into());
    }
    // Listened to from the start: SIGHUP's default action would end podrun, and one sent while
    // the first pass runs is for the supervision after it.
    let hangup = if args.supervise { Some(signal(SignalKind::hangup())?) } else { None };
    // Taken before reading, so a change made while the first pass runs is seen afterwards.
    let fingerprint = if args.supervise { super::supervise::Fingerprint::of(args) } else { None };

    // Live lines redraw in place; log lines written to the same terminal beside them would
    // tear the display, so with --logs on a terminal progress comes as plain lines.
    let logs_on_term = args.logs && console::Term::stdout().is_term();
    let live = console::Term::stderr().is_term() && !logs_on_term;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live });
    let listing = super::manifest_dir::list(&paths, args.supervise)?;
    listing.tell(&|w| reporter.warning(w));
    let files = listing.files.clone();
    // Supervising, a manifest that does not load is left out and the others run; otherwise
    // nothing runs unless everything loads.
    let (loaded, mut skipped) = if args.supervise {
        static_dir::load_each(&files, &args.configs, &opts)?
    } else {
        (super::load_manifests(&files, &args.configs, &opts)?, Vec::new())
    };
    if let Some(name) = &args.exit_code_from {
        check_exit_code_from(name, &loaded.pods)?;
    }
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    if files.is_empty() {
        reporter.warning(&format!(
            "{}: no manifest (*.yaml, *.yml, *.json) yet; supervising the directory until one appears",
            paths.join(", ")
        ));
    }

    // Every engine call ends by the deadline, connecting too: a frozen engine cannot hold
    // podrun past --timeout.
    let bound = deadline + ENGINE_GRACE;
    let (connected, files) = tokio::time::timeout_at(bound, super::connect(cli))
        .await
        .map_err(|_| RuntimeError::Deadline { what: "connect to the engine".into() })??;
    let rt = Arc::new(Bounded::new(connected, Some(bound)));
    let infra = args.infra_image.clone().unwrap_or_else(infra_image::default_infra_image);
    let crash = CrashBackoff { base: args.crash_backoff, max: args.crash_backoff_max.max(args.crash_backoff) };
    let engine = rt.info().await?;
    let security = engine_security(&*rt, &loaded).await?;
    let mut env = environment(args, &infra, rt.local_files(), &engine, security, &loaded);
    env.oom_score_floor = rt.oom_score_floor().await;
    env.capacity = rt.capacity().await?;
    let pods = if args.supervise {
        let (pods, unprepared) = static_dir::prepare_each(&loaded.pods, &env, &mut |w| reporter.warning(&w));
        skipped.extend(unprepared);
        pods
    } else {
        prepare::prepare_pods(&loaded.pods, &env, &mut |w| reporter.warning(&w))
            .map_err(|e| UsageError(e.to_string()))?
    };
    for s in &skipped {
        reporter.warning(&s.describe());
    }
    let sources: BTreeMap<(&str, &str), String> =
        loaded.pods.iter().filter_map(|p| Some(((p.namespace(), p.name()), listing.source_of(&p.doc.file)?))).collect();
    let pods: Vec<DesiredPod> = pods
        .into_iter()
        .map(|mut d| {
            d.source = sources.get(&(d.namespace.as_str(), d.name.as_str())).cloned();
            d
        })
        .collect();
    if args.dry_run {
        return dry_run(&*rt, &pods, crash, cli.quiet).await;
    }
    driver::ensure_infra_image(&*rt, &infra).await?;

    let interrupt = Interrupt::listen()?;
    let drive = drive_options(args, deadline, crash, files);
    let logs = if args.logs {
        let several = pods.len() > 1;
        let targets = pods
            .iter()
            .map(|d| LogPod { selector: Selector::pod(&d.namespace, &d.name), prefix: several.then(|| d.name.clone()) })
            .collect();
        Some(LogStreamer::start(rt.clone(), targets, logs::colour_stdout()).await)
    } else {
        None
    };
    let runs = pods.into_iter().map(|desired| {
        let (rt, reporter, interrupt) = (rt.clone(), reporter.clone(), interrupt.clone());
        let drive = drive.clone();
        async move {
            let result = driver::run_pod(rt, desired, drive, reporter.clone(), interrupt).await;
            reporter.done(&result);
            result
        }
    });
    let results: Vec<PodResult> = join_all(runs).await;
    if let Some(logs) = logs {
        // Before any removal: what the containers wrote is read to its end first.
        logs.stop().await;
    }
    // Cleaning up after the run takes what it takes, unless the engine fell silent: then it
    // stays bound, and what cannot be done is said.
    if !results.iter().any(|r| matches!(r.outcome, Err(PodFailure::Runtime(RuntimeError::Deadline { .. })))) {
        rt.set_deadline(None);
    }
    if args.rm {
        for r in &results {
            remove(&*rt, r, drive.files.as_ref(), &*reporter).await;
        }
    } else if args.cleanup_on_failure {
        for r in results.iter().filter(|r| r.outcome.is_err() && !r.created.is_empty()) {
            remove_created(&*rt, r, drive.files.as_ref(), &*reporter).await;
        }
    }
    let pruned = if !args.prune {
        exit::SUCCESS
    } else if skipped.is_empty() {
        prune(&*rt, &loaded.pods, &listing.sources(), args, drive.files.as_ref(), &*reporter).await
    } else {
        // A manifest being written may name pods that run now: none is deleted on its account.
        reporter.warning("--prune: nothing pruned while a manifest is left out");
        exit::SUCCESS
    };
    reporter.finish();

    print_summary(&results, args, cli.quiet);
    if let (Some(name), [r]) = (&args.exit_code_from, results.as_slice()) {
        return Ok(exit::from_container(&r.outcome, name, last_exit(r, name)));
    }
    // The first failing pod, in manifest order, decides the exit code.
    let code = results.iter().find_map(|r| r.outcome.as_ref().err()).map_or(exit::SUCCESS, exit::for_pod);
    let code = if code == exit::SUCCESS { pruned } else { code };
    // Listened to only under --supervise.
    if let Some(hangup) = hangup.filter(|_| interrupt.fired().is_none()) {
        // Supervision has no deadline (see `driver::supervise::forever`); each engine call has
        // a bound instead, so a frozen engine is ridden out as an outage.
        rt.set_deadline(None);
        rt.set_per_call(Some(SUPERVISED_CALL_LIMIT));
        return super::supervise::run(rt, results, &drive, cli, args, (fingerprint, &skipped), hangup, interrupt).await;
    }
    Ok(code)
}

/// How each pod's driver runs, from apply's flags.
fn drive_options(args: &ApplyArgs, deadline: Instant, crash: CrashBackoff, files: Option<PodFiles>) -> DriveOptions {
    DriveOptions {
        wait_for: match args.wait_for {
            Some(WaitForArg::Running) => Some(WaitFor::Running),
            Some(WaitForArg::Complete) => Some(WaitFor::Complete),
            Some(WaitForArg::Ready) => Some(WaitFor::Ready),
            Some(WaitForArg::None) => Some(WaitFor::None),
            // A container's exit code is only there once it has exited.
            None if args.exit_code_from.is_some() => Some(WaitFor::Complete),
            None => None,
        },
        retries: args.retries,
        retry_delay: args.retry_delay,
        backoff: args.backoff,
        deadline,
        crash,
        files,
        min_uptime: args.min_uptime,
        pulls: Arc::new(driver::pulls::Pulls::new()),
    }
}

/// The summary of every pod, on stdout (always in JSON; in text unless `--quiet`).
fn print_summary(results: &[PodResult], args: &ApplyArgs, quiet: bool) {
    let format = match args.output {
        OutputArg::Text => Format::Text,
        OutputArg::Json => Format::Json,
    };
    if format == Format::Json || !quiet {
        let colour = console::Term::stdout().is_term() && console::colors_enabled();
        // A closed or full stdout is recorded, and ends podrun (141, or 1) once the pods are
        // settled: their work is never cut short for it.
        let _ = output::print(&summary::render(results, format, colour));
    }
}

/// Whether the engine is rootless, asked only when a pod needs to know (see
/// `prepare::needs_engine_security`).
pub(super) async fn engine_security<R: Runtime>(rt: &R, loaded: &Loaded) -> anyhow::Result<Option<EngineSecurity>> {
    Ok(if prepare::needs_engine_security(&loaded.pods) { Some(rt.security().await?) } else { None })
}

/// What pod preparation takes from apply's flags and the engine.
pub(super) fn environment<'a>(
    args: &'a ApplyArgs,
    infra_image: &'a str,
    local_files: bool,
    engine: &'a EngineInfo,
    security: Option<EngineSecurity>,
    loaded: &Loaded,
) -> prepare::Environment<'a> {
    prepare::Environment {
        infra_image,
        network: args.network.as_deref(),
        pull: args.pull.map(|pull| match pull {
            PullArg::Always => PullPolicy::Always,
            PullArg::Missing => PullPolicy::IfNotPresent,
            PullArg::Never => PullPolicy::Never,
        }),
        local_files,
        engine,
        configs: Arc::new(loaded.configs.clone()),
        security,
        seccomp_default: args.seccomp_default,
        // Asked of the engine by the caller: `Runtime::oom_score_floor`, `Runtime::capacity`.
        oom_score_floor: None,
        allowed_unsafe_sysctls: args.allowed_unsafe_sysctls.clone(),
        capacity: None,
    }
}

/// `--dry-run`: what the syncs would do to each pod until it is started, from what the engine
/// shows now (see `plan::rollout`).
async fn dry_run<R: Runtime>(rt: &R, pods: &[DesiredPod], crash: CrashBackoff, quiet: bool) -> anyhow::Result<u8> {
    let none = BTreeSet::new();
    let ctx = plan::Context { now: crate::clock::now(), crash, unhealthy: &none, not_started: &none };
    let mut out = String::new();
    for d in pods {
        let observed = rt.list(&Selector::pod(&d.namespace, &d.name)).await?;
        let plans = plan::rollout::rollout(d, &observed, &ctx);
        let mut missing = BTreeSet::new();
        for i in plans.iter().flat_map(|p| &p.images) {
            if !missing.contains(&i.image) && !rt.image_present(&i.image).await? {
                missing.insert(i.image.clone());
            }
        }
        out.push_str(&plan::render::render(d, &plans, &missing));
    }
    if !quiet {
        output::print(&out)?;
    }
    Ok(exit::SUCCESS)
}

/// `--prune`: deletes podrun's pods, in the namespaces the manifests use (and -n), that came
/// from the same directories or files (`sources`, see `labels::SOURCE`) and that none of the
/// manifests names anymore: a pod applied by hand from elsewhere is not this directory's to
/// delete. Returns the exit code of the first failure, else success.
async fn prune<R: Runtime>(
    rt: &R,
    pods: &[LoadedPod],
    sources: &BTreeSet<String>,
    args: &ApplyArgs,
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
) -> u8 {
    let keep: BTreeSet<(&str, &str)> = pods.iter().map(|p| (p.namespace(), p.name())).collect();
    let mut namespaces: BTreeSet<&str> = pods.iter().map(LoadedPod::namespace).collect();
    namespaces.extend(args.namespace.as_deref());
    let mut code = exit::SUCCESS;
    for ns in namespaces {
        let listed = match rt.list(&Selector { namespace: Some(ns.to_owned()), pod: None }).await {
            Ok(l) => l,
            Err(e) => {
                reporter.warning(&format!("prune in namespace {ns}: {}", chain(&e)));
                if code == exit::SUCCESS {
                    code = exit::for_runtime(&e);
                }
                continue;
            }
        };
        let names: BTreeSet<&str> = listed
            .iter()
            .filter(|c| c.is_owned() && c.label(labels::POD_NAMESPACE) == Some(ns))
            .filter(|c| c.label(labels::SOURCE).is_some_and(|s| sources.contains(s)))
            .filter_map(|c| c.label(labels::POD_NAME))
            .filter(|name| !keep.contains(&(ns, *name)))
            .collect();
        for name in names {
            let key = PodKey { namespace: ns.to_owned(), name: name.to_owned() };
            match driver::remove_pod(rt, &Selector::pod(ns, name), None, None, files).await {
                Ok(n) => reporter.event(&key, &format!("pruned: no manifest names it anymore ({n} containers)")),
                Err(e) => {
                    reporter.warning(&format!("prune of {key}: {}", chain(&e)));
                    if code == exit::SUCCESS {
                        code = exit::for_runtime(&e);
                    }
                }
            }
        }
    }
    code
}

/// `--exit-code-from` names one container of one pod, or it could not say whose code it is.
fn check_exit_code_from(name: &str, pods: &[LoadedPod]) -> Result<(), UsageError> {
    let [p] = pods else {
        return Err(UsageError(format!(
            "--exit-code-from {name}: the manifest has {} pods; it needs exactly one",
            pods.len()
        )));
    };
    let spec = &p.pod.spec;
    let names: Vec<&str> = spec.init_containers.iter().chain(&spec.containers).map(|c| c.name.as_str()).collect();
    if names.contains(&name) {
        Ok(())
    } else {
        Err(UsageError(format!(
            "{}: --exit-code-from {name}: pod {} has no such container (it has: {})",
            p.doc,
            p.pod.metadata.name,
            names.join(", ")
        )))
    }
}

/// The exit code of the container's last termination, if it has terminated.
fn last_exit(r: &PodResult, container: &str) -> Option<i64> {
    let c = r.status.as_ref()?.all().find(|c| c.name == container)?;
    c.state.terminated.as_ref().or(c.last_state.terminated.as_ref()).map(|t| t.exit_code)
}

/// `--cleanup-on-failure`: the containers this run created for a failed pod go; a failure is a
/// warning.
async fn remove_created<R: Runtime>(rt: &R, r: &PodResult, files: Option<&PodFiles>, reporter: &dyn Reporter) {
    let sel = Selector::pod(&r.desired.namespace, &r.desired.name);
    match driver::remove_pod(rt, &sel, None, Some(&r.created), files).await {
        // None left: the run removed them itself (a refusal, a deletion).
        Ok(0) => {}
        Ok(n) => reporter.event(&PodKey::of(&r.desired), &format!("removed the {n} containers this run created")),
        Err(e) => reporter.warning(&format!("cleanup of {}: {}", PodKey::of(&r.desired), chain(&e))),
    }
}

/// `--rm`: the pod goes whole, whatever the outcome: every container podrun made for it (not
/// only this run's), then podrun's files for it. A failure is a warning: the exit code stays
/// the run's.
async fn remove<R: Runtime>(rt: &R, r: &PodResult, files: Option<&PodFiles>, reporter: &dyn Reporter) {
    let key = PodKey::of(&r.desired);
    let sel = Selector::pod(&r.desired.namespace, &r.desired.name);
    match driver::remove_pod(rt, &sel, None, None, files).await {
        Ok(n) => {
            // Files made before any container was (volume directories) have no container to
            // name the pod's uid by, so its own uid is cleaned up too.
            if let Some(files) = files {
                volumes::remove_pod_volumes(files, &r.desired.uid);
                files.remove_pod(&r.desired.uid);
            }
            if let Err(e) = driver::remove_engine_volumes(rt, &r.desired.uid).await {
                reporter.warning(&format!("removal of {key}'s volumes: {e}"));
            }
            reporter.event(&key, &format!("removed the pod ({n} containers)"));
        }
        Err(e) => reporter.warning(&format!("removal of {key}: {}", chain(&e))),
    }
}
