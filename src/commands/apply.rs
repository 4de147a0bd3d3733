//! `podrun apply`: load and check every pod first (nothing is created if any is invalid), then
//! run each pod's driver concurrently and report.

use std::sync::Arc;

use futures_util::future::join_all;
use tokio::time::Instant;

use crate::cli::{ApplyArgs, Cli, OutputArg, PullArg, WaitForArg};
use crate::driver::{self, CrashBackoff, DriveOptions, Interrupt, PodResult};
use crate::exit::{self, UsageError};
use crate::manifest::types::PullPolicy;
use crate::manifest::LoadOptions;
use crate::pod::downward::PodFacts;
use crate::pod::files::PodFiles;
use crate::pod::{settings, volumes, DesiredPod};
use crate::report::{self, summary, Format, PodKey, ReportOptions};
use crate::runtime::{infra_image, Runtime, Selector};
use crate::status::WaitFor;

pub async fn run(cli: &Cli, args: &ApplyArgs) -> anyhow::Result<u8> {
    let opts = LoadOptions { namespace: args.namespace.clone(), strict: args.strict };
    let loaded = super::load_manifests(&[args.manifest.path().to_owned()], &args.configs, &opts)?;

    let stderr_is_term = console::Term::stderr().is_term();
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: stderr_is_term });
    for w in &loaded.warnings {
        reporter.warning(w);
    }

    let rt = Arc::new(super::connect(cli).await?);
    let infra = args.infra_image.clone().unwrap_or_else(infra_image::default_infra_image);
    driver::ensure_infra_image(&*rt, &infra).await?;

    let interrupt = Interrupt::listen()?;
    let drive = DriveOptions {
        wait_for: args.wait_for.map(|w| match w {
            WaitForArg::Running => WaitFor::Running,
            WaitForArg::Complete => WaitFor::Complete,
            WaitForArg::Ready => WaitFor::Ready,
            WaitForArg::None => WaitFor::None,
        }),
        retries: args.retries,
        retry_delay: args.retry_delay,
        backoff: args.backoff,
        deadline: Instant::now() + args.timeout,
        crash: CrashBackoff { base: args.crash_backoff, max: args.crash_backoff_max.max(args.crash_backoff) },
        files: rt.local_files().then(|| PodFiles::new(PodFiles::default_root())),
    };
    let engine = rt.info().await?;
    let host = PodFacts::of_host();
    let configs = Arc::new(loaded.configs.clone());
    let mut pods = Vec::new();
    for p in &loaded.pods {
        let mut d = DesiredPod::from_loaded(p, &infra, args.network.as_deref());
        d.host = host.clone();
        d.configs = configs.clone();
        if let Some(pull) = args.pull {
            let policy = match pull {
                PullArg::Always => PullPolicy::Always,
                PullArg::Missing => PullPolicy::IfNotPresent,
                PullArg::Never => PullPolicy::Never,
            };
            for c in d.init.iter_mut().chain(&mut d.containers) {
                c.pull_policy = policy;
            }
        }
        if rt.local_files() {
            let root = PodFiles::default_root();
            settings::resolve_host_profiles(&mut d.init, &root)
                .and_then(|()| settings::resolve_host_profiles(&mut d.containers, &root))
                .map_err(|e| UsageError(format!("{}: pod {}: {e}", p.doc, PodKey::of(&d))))?;
        }
        // Volumes are checked now, against the engine too, so a pod that can never get its
        // volumes is refused before anything is created.
        if rt.local_files() && !d.manifest.spec.volumes.is_empty() {
            let refuse = |e: volumes::VolumeError| UsageError(format!("{}: pod {}: {e}", p.doc, PodKey::of(&d)));
            let setup =
                volumes::plan_volumes(&d.manifest, &PodFiles::new(PodFiles::default_root()), &d.configs, &d.host)
                    .map_err(refuse)?;
            setup.check_engine(&engine).map_err(refuse)?;
            for w in setup.warnings() {
                reporter.warning(&format!("{}: {w}", PodKey::of(&d)));
            }
        }
        pods.push(d);
    }
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
    if args.cleanup_on_failure {
        for r in results.iter().filter(|r| r.outcome.is_err() && !r.created.is_empty()) {
            let sel = Selector::pod(&r.desired.namespace, &r.desired.name);
            match driver::remove_pod(&*rt, &sel, None, Some(&r.created), drive.files.as_ref()).await {
                Ok(n) => {
                    reporter.event(&PodKey::of(&r.desired), &format!("removed the {n} containers this run created"))
                }
                Err(e) => reporter.warning(&format!("cleanup of {}: {e}", PodKey::of(&r.desired))),
            }
        }
    }
    reporter.finish();

    let format = match args.output {
        OutputArg::Text => Format::Text,
        OutputArg::Json => Format::Json,
    };
    if format == Format::Json || !cli.quiet {
        let colour = console::Term::stdout().is_term() && console::colors_enabled();
        print!("{}", summary::render(&results, format, colour));
    }
    // The first failing pod, in manifest order, decides the exit code.
    Ok(results.iter().find_map(|r| r.outcome.as_ref().err()).map_or(exit::SUCCESS, exit::for_pod))
}
