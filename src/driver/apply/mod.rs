//! `podrun apply`'s flow below its flags: load and check every pod first (nothing is created
//! if any is invalid), then run each pod's driver concurrently and report. Beside the drivers,
//! `--logs` shows the containers' output; after them, `--rm` and `--cleanup-on-failure` remove
//! what they made (`cleanup`), `--prune` the pods no manifest names anymore (`prune`),
//! `--exit-code-from` and `--abort-on-container-exit` pick the exit code (`exit_code_from`)
//! and `--supervise` keeps the pods (`supervision`). `--dry-run` stops after the look (`dry_run`).

mod cleanup;
mod dry_run;
mod engine;
mod error;
mod exit_code_from;
mod mode;
mod prune;
mod reread;
mod supervision;
mod watchdog;
mod workers;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::signal::unix::{signal, Signal, SignalKind};
use tokio::time::Instant;

pub use error::ApplyError;

use crate::driver::manifests;
use crate::driver::manifests::listing::{self, Listing};
use crate::driver::manifests::static_dir::Skipped;
use crate::driver::{self, CrashBackoff, DriveOptions, Interrupt, PodFailure, PodResult};
use crate::exit;
use crate::manifest::types::PullPolicy;
use crate::manifest::{LoadOptions, Loaded};
use crate::pod::files::PodFiles;
use crate::pod::DesiredPod;
use crate::report::logs::{self, LogPod, LogStreamer};
use crate::report::{self, output, summary, Format, ReportOptions, Reporter};
use crate::runtime::bounded::Bounded;
use crate::runtime::{LogRotation, NodeRuntime, Runtime, RuntimeError, Selector};
use crate::status::WaitFor;

use mode::Mode;

/// How long past `--timeout` an engine call may still run: the drivers end at the deadline on
/// their own, after one last look, which a working engine answers in milliseconds.
const ENGINE_GRACE: Duration = Duration::from_secs(2);
/// Under supervision, how long one engine call may take (a stop its grace period more, a pull
/// as long as it takes): the kubelet's default `--runtime-request-timeout`. One cut off fails
/// the pod's run, which supervision takes up again with backoff.
const SUPERVISED_CALL_LIMIT: Duration = Duration::from_secs(120);
/// Under supervision, how long a pass whose drivers run may take to end after SIGINT or
/// SIGTERM (they stop at once, and supervision gives them 5 s) before it is dropped where it
/// waits.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// What apply was asked to do, from its flags.
#[derive(Debug, Clone)]
pub struct ApplyOptions {
    /// The manifest files, directories and URLs, `-` for standard input.
    pub paths: Vec<String>,
    /// `-R`: directories' subdirectories too.
    pub recursive: bool,
    /// `--header`: sent with every request for a URL source.
    pub headers: Vec<manifests::remote::Header>,
    /// `--config` files of ConfigMaps and Secrets.
    pub configs: Vec<String>,
    pub load: LoadOptions,
    pub timeout: Duration,
    /// `--wait-for`; `None`: the default for the pod's restart policy (complete under
    /// `--exit-code-from`).
    pub wait_for: Option<WaitFor>,
    pub retries: u32,
    pub retry_delay: Duration,
    pub backoff: f64,
    pub crash: CrashBackoff,
    pub min_uptime: Duration,
    pub cleanup_on_failure: bool,
    pub rm: bool,
    pub logs: bool,
    pub exit_code_from: Option<String>,
    /// `--abort-on-container-exit` (implied by `--exit-code-from`).
    pub abort_on_container_exit: bool,
    pub output: Format,
    pub network: Option<String>,
    /// `--infra-image`, else podrun's own.
    pub infra_image: String,
    pub pull: Option<PullPolicy>,
    pub seccomp_default: bool,
    pub allowed_unsafe_sysctls: Vec<String>,
    pub prune: bool,
    pub dry_run: bool,
    pub supervise: bool,
    /// How `--supervise` rotates the logs a CRI runtime writes.
    pub log_rotation: LogRotation,
    /// How often `--supervise` looks at the logs for rotation.
    pub log_monitor: Duration,
    /// `--auto-update`: under `--supervise`, the images kept current.
    pub auto_update: Option<driver::auto_update::AutoUpdate>,
    /// `--image-pull-credentials-verification-policy`: who may use an image pulled with
    /// credentials (`pull_verify`).
    pub pull_verification: driver::pull_verify::Policy,
    pub quiet: bool,
    pub verbose: bool,
}

/// Runs apply as `opts` says; `connect` reaches the engine (and podrun's state directory), and
/// is awaited only once every pod has loaded. Ok is the exit code.
///
/// # Errors
/// What ended the run before its pods did: bad input, an engine podrun cannot reach, ...
pub async fn run<R, E, C>(opts: &ApplyOptions, connect: impl FnOnce() -> C) -> Result<u8, ApplyError<E>>
where
    R: Runtime + 'static,
    C: Future<Output = Result<(R, Option<PodFiles>), E>>,
{
    if opts.prune && opts.paths.iter().any(|p| p == "-") {
        return Err(
            exit::UsageError::Said("--prune needs manifest files or directories, not standard input".into()).into()
        );
    }
    match Mode::of(opts) {
        Mode::Once => pass(opts, Mode::Once, connect(), None, &AtomicBool::new(false)).await,
        Mode::Supervise => {
            // SIGHUP, SIGINT and SIGTERM are listened to before anything else, once for the life
            // of the process (tokio's handlers, once set, stay): a default action would end
            // podrun, and a signal sent while the first pass runs is for the supervision after it.
            let mut signals = (signal(SignalKind::hangup())?, Interrupt::listen()?);
            let _watchdog = watchdog::start(&signals.1);
            supervised_pass(opts, connect(), &mut signals).await
        }
    }
}

/// The pass under supervision. Before the drivers run (loading, connecting) a signal ends the
/// pass at once, as its default action would have; drivers stop on it themselves.
async fn supervised_pass<R, E, C>(
    opts: &ApplyOptions,
    connect: C,
    signals: &mut (Signal, Interrupt),
) -> Result<u8, ApplyError<E>>
where
    R: Runtime + 'static,
    C: Future<Output = Result<(R, Option<PodFiles>), E>>,
{
    let driving = AtomicBool::new(false);
    let mut stop = signals.1.clone();
    let pass = pass(opts, Mode::Supervise, connect, Some(signals), &driving);
    tokio::pin!(pass);
    tokio::select! {
        r = &mut pass => r,
        sig = stop.wait() => {
            let grace = if driving.load(Ordering::Relaxed) { STOP_GRACE } else { Duration::ZERO };
            match tokio::time::timeout(grace, &mut pass).await {
                Ok(r) => r,
                Err(_) => Ok(u8::try_from(128 + sig).unwrap_or(exit::INTERNAL)),
            }
        }
    }
}

/// What the shared phases of a pass made ready: the manifests read, the engine reached, the
/// pods prepared (those left out under supervision in `skipped`).
struct Ready<R> {
    listing: Listing,
    loaded: Loaded,
    skipped: Vec<Skipped>,
    pods: Vec<DesiredPod>,
    rt: Arc<Bounded<R>>,
    files: Option<PodFiles>,
}

/// The pass: read and prepare, drive, report, and under `--supervise` supervise until the end.
async fn pass<R, E, C>(
    opts: &ApplyOptions,
    mode: Mode,
    connect: C,
    signals: Option<&mut (Signal, Interrupt)>,
    driving: &AtomicBool,
) -> Result<u8, ApplyError<E>>
where
    R: Runtime + 'static,
    C: Future<Output = Result<(R, Option<PodFiles>), E>>,
{
    let deadline = Instant::now() + opts.timeout;
    // Live lines redraw in place; log lines written to the same terminal beside them would
    // tear the display, so with --logs on a terminal progress comes as plain lines.
    let logs_on_term = opts.logs && console::Term::stdout().is_term();
    let live = console::Term::stderr().is_term() && !logs_on_term;
    let reporter = report::reporter(ReportOptions { quiet: opts.quiet, verbose: opts.verbose, live });
    let sources: Vec<String> = opts.paths.iter().chain(&opts.configs).cloned().collect();
    let check = |s: &_| manifests::static_dir::loads(s, &opts.configs, &opts.load);
    manifests::remote::refresh(&sources, &opts.headers, Some(&check), &|w| reporter.warning(w)).await;
    // Taken before reading, so a change made while the first pass runs is seen afterwards.
    let fingerprint = if mode == Mode::Supervise {
        supervision::Fingerprint::of(&opts.paths, &opts.configs, opts.recursive)
    } else {
        None
    };

    let Ready { listing, loaded, skipped, pods, rt, files } = ready(opts, mode, connect, deadline, &*reporter).await?;
    if opts.dry_run {
        return dry_run::dry_run(&*rt, &pods, opts.crash, opts.quiet).await;
    }
    driver::ensure_infra_image(&*rt, &opts.infra_image).await?;

    let interrupt = match &signals {
        Some((_, interrupt)) => interrupt.clone(),
        None => Interrupt::listen()?,
    };
    let drive = drive_options(opts, deadline, files);
    driving.store(true, Ordering::Relaxed);
    let results = drive_all(&rt, pods, &drive, &reporter, &interrupt, opts.logs).await;
    // Cleaning up after the run takes what it takes, unless the engine fell silent: then it
    // stays bound, and what cannot be done is said.
    if !results.iter().any(|r| matches!(r.outcome, Err(PodFailure::Runtime(RuntimeError::Deadline { .. })))) {
        rt.set_deadline(None);
    }
    clean_up(&*rt, opts, &results, drive.files.as_ref(), &*reporter).await;
    let pruned = prune_after(&*rt, opts, &loaded, &listing, &skipped, drive.files.as_ref(), &*reporter).await;
    reporter.finish();

    print_summary(&results, opts);
    if let (Some(name), [r]) = (&opts.exit_code_from, results.as_slice()) {
        return Ok(exit::from_container(&r.outcome, name, exit_code_from::last_exit(r, name)));
    }
    if let (true, [r]) = (opts.abort_on_container_exit, results.as_slice()) {
        return Ok(exit_code_from::aborted(r));
    }
    // The first failing pod, in manifest order, decides the exit code.
    let code = results.iter().find_map(|r| r.outcome.as_ref().err()).map_or(exit::SUCCESS, exit::for_pod);
    let code = if code == exit::SUCCESS { pruned } else { code };
    // Listened to only under --supervise.
    if let Some((hangup, _)) = signals.filter(|_| interrupt.fired().is_none()) {
        // Supervision has no deadline (see `driver::supervise::forever`); each engine call has
        // a bound instead, so a frozen engine is ridden out as an outage.
        rt.set_deadline(None);
        rt.set_per_call(Some(SUPERVISED_CALL_LIMIT));
        let seen = (fingerprint, skipped.as_slice(), &loaded);
        return Ok(supervision::run(rt, results, &drive, opts, seen, hangup, interrupt).await);
    }
    Ok(code)
}

/// The shared phases of a pass: the manifests read and loaded, the engine reached (within the
/// deadline), asked what preparation needs, and the pods prepared, as `mode` loads and
/// prepares them.
async fn ready<R, E, C>(
    opts: &ApplyOptions,
    mode: Mode,
    connect: C,
    deadline: Instant,
    reporter: &dyn Reporter,
) -> Result<Ready<R>, ApplyError<E>>
where
    R: Runtime + 'static,
    C: Future<Output = Result<(R, Option<PodFiles>), E>>,
{
    let (listing, loaded, mut skipped) = read(opts, mode, reporter)?;
    // Every engine call ends by the deadline, connecting too: a frozen engine cannot hold
    // podrun past --timeout.
    let bound = deadline + ENGINE_GRACE;
    let (connected, files) = tokio::time::timeout_at(bound, connect)
        .await
        .map_err(|_| RuntimeError::Deadline { what: "connect to the engine".into() })?
        .map_err(ApplyError::Connect)?;
    let rt = Arc::new(Bounded::new(connected, Some(bound)));
    let engine = engine::Engine::ask(&*rt, &loaded).await?;
    let env = engine.environment(opts, rt.local_files(), &loaded);
    let (pods, unprepared) = mode.prepare(&loaded.pods, &env, &mut |w| reporter.warning(&w))?;
    skipped.extend(unprepared);
    for s in &skipped {
        reporter.warning(&s.describe());
    }
    let pods = with_sources(pods, &loaded, &listing);
    Ok(Ready { listing, loaded, skipped, pods, rt, files })
}

/// `--prune`, once the drivers are done: the pods no manifest names anymore are removed. Its
/// exit code, success when not asked.
async fn prune_after<R: Runtime>(
    rt: &R,
    opts: &ApplyOptions,
    loaded: &Loaded,
    listing: &Listing,
    skipped: &[Skipped],
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
) -> u8 {
    if !opts.prune {
        exit::SUCCESS
    } else if skipped.is_empty() {
        let namespace = opts.load.namespace.as_deref();
        prune::prune(rt, &loaded.pods, &listing.sources(), namespace, files, reporter).await
    } else {
        // A manifest being written may name pods that run now: none is deleted on its account.
        reporter.warning("--prune: nothing pruned while a manifest is left out");
        exit::SUCCESS
    }
}

/// Lists and loads the manifests as `mode` loads them, and says what the user should hear of
/// them.
fn read<E>(
    opts: &ApplyOptions,
    mode: Mode,
    reporter: &dyn Reporter,
) -> Result<(Listing, Loaded, Vec<Skipped>), ApplyError<E>> {
    let listing = listing::list_walk(&opts.paths, mode == Mode::Supervise, opts.recursive)?;
    listing.tell(&|w| reporter.warning(w));
    let files = &listing.files;
    let (loaded, skipped) = mode.load(files, &opts.configs, &opts.load)?;
    if let Some(name) = &opts.exit_code_from {
        exit_code_from::check(name, &loaded.pods)?;
    } else if opts.abort_on_container_exit {
        exit_code_from::one_pod("--abort-on-container-exit", &loaded.pods)?;
    }
    for w in &loaded.warnings {
        reporter.warning(w);
    }
    if files.is_empty() {
        reporter.warning(&format!(
            "{}: no manifest (*.yaml, *.yml, *.json) yet; supervising the directory until one appears",
            crate::escape::Escaped(opts.paths.join(", "))
        ));
    }
    Ok((listing, loaded, skipped))
}

/// The pods, each with the source its labels record (see `labels::SOURCE`).
fn with_sources(pods: Vec<DesiredPod>, loaded: &Loaded, listing: &Listing) -> Vec<DesiredPod> {
    let sources: BTreeMap<(&str, &str), String> =
        loaded.pods.iter().filter_map(|p| Some(((p.namespace(), p.name()), listing.source_of(&p.doc.file)?))).collect();
    pods.into_iter()
        .map(|mut d| {
            d.source = sources.get(&(d.namespace.as_str(), d.name.as_str())).cloned();
            d
        })
        .collect()
}

/// Runs every pod's driver concurrently, with `--logs` beside them.
async fn drive_all<R: Runtime + 'static>(
    rt: &Arc<Bounded<R>>,
    pods: Vec<DesiredPod>,
    drive: &DriveOptions,
    reporter: &Arc<dyn Reporter>,
    interrupt: &Interrupt,
    show_logs: bool,
) -> Vec<PodResult> {
    let logs = if show_logs {
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
            reporter.done(&(&result).into());
            result
        }
    });
    let results: Vec<PodResult> = join_all(runs).await;
    if let Some(logs) = logs {
        // Before any removal: what the containers wrote is read to its end first.
        logs.stop().await;
    }
    results
}

/// `--rm`, or `--cleanup-on-failure`, once the drivers are done.
async fn clean_up<R: Runtime>(
    rt: &R,
    opts: &ApplyOptions,
    results: &[PodResult],
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
) {
    if opts.rm {
        for r in results {
            cleanup::remove(rt, r, files, reporter).await;
        }
    } else if opts.cleanup_on_failure {
        for r in results.iter().filter(|r| r.outcome.is_err() && !r.created.is_empty()) {
            cleanup::remove_created(rt, r, files, reporter).await;
        }
    }
}

/// How each pod's driver runs, from apply's options.
fn drive_options(opts: &ApplyOptions, deadline: Instant, files: Option<PodFiles>) -> DriveOptions {
    // The record of image pulls lives in the state directory when the engine is this host's.
    let verifier =
        driver::pull_verify::Verifier::new(opts.pull_verification.clone(), files.as_ref().map(PodFiles::root));
    DriveOptions {
        // A container's exit code is only there once it has exited.
        wait_for: opts.wait_for.or(opts.abort_on_container_exit.then_some(WaitFor::Complete)),
        retries: opts.retries,
        retry_delay: opts.retry_delay,
        backoff: opts.backoff,
        deadline,
        crash: opts.crash,
        events: driver::events::Events::to_files(files.as_ref()),
        files,
        min_uptime: opts.min_uptime,
        pulls: Arc::new(driver::pulls::Pulls::verified_by(verifier)),
        updates: opts.auto_update.as_ref().map_or_else(Arc::default, |a| a.state.clone()),
        abort_on_exit: opts.abort_on_container_exit,
    }
}

/// The summary of every pod, on stdout (always in JSON; in text unless `--quiet`).
fn print_summary(results: &[PodResult], opts: &ApplyOptions) {
    if opts.output == Format::Json || !opts.quiet {
        let colour = console::Term::stdout().is_term() && console::colors_enabled();
        // A closed or full stdout is recorded, and ends podrun (141, or 1) once the pods are
        // settled: their work is never cut short for it.
        let how = summary::Table { colour, ready: opts.wait_for == Some(WaitFor::Ready) };
        let _ = output::print(&summary::render(results, opts.output, how));
    }
}
