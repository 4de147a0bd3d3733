//! `podrun apply`: its flags as `driver::apply`'s options, and the run they ask for.

use std::sync::Arc;

use crate::cli::{ApplyArgs, Cli, CredentialsPolicyArg, DryRunArg, OutputArg, PullArg, WaitForArg};
use crate::driver::apply::{self, ApplyOptions};
use crate::driver::auto_update::{AutoUpdate, Updates};
use crate::driver::manifests::remote::header;
use crate::driver::pull_verify;
use crate::driver::CrashBackoff;
use crate::exit::UsageError;
use crate::manifest::types::PullPolicy;
use crate::manifest::LoadOptions;
use crate::report::{self, Format, ReportOptions};
use crate::runtime::engine::Engine;
use crate::runtime::{infra_image, LogRotation};
use crate::status::WaitFor;

pub async fn run(cli: &Cli, args: &ApplyArgs) -> anyhow::Result<u8> {
    // Before any pod is looked at: the node's addresses are fixed for the process.
    if let Some(choice) = &args.node_ip {
        crate::runtime::node_ip::configure(choice.clone());
    }
    let verification = pull_verification(args)?;
    if args.dry_run() == DryRunArg::Client {
        let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
        return super::dry_run::applied_client(cli, args, &*reporter).await;
    }
    let connect = || async {
        let (rt, files) = super::connect(cli).await?;
        if matches!(rt, Engine::Cri(_)) {
            docker_only(args)?;
        }
        if args.node_ip.is_some() && files.is_none() {
            // Checked against this host's interfaces, they say nothing of the engine's host.
            return Err(UsageError::Said(format!(
                "--node-ip: the engine at {} is not on this host; its pods' host IP is its network's gateway",
                crate::escape::escape(&rt.address())
            ))
            .into());
        }
        Ok::<_, anyhow::Error>((rt, files))
    };
    let opts = ApplyOptions {
        headers: header::parse_all(&args.manifest.headers)?,
        pull_verification: verification,
        ..options(cli, args)
    };
    apply::run(&opts, connect).await.map_err(apply::ApplyError::into_cause)
}

/// Refuses the flags a CRI runtime has nothing for, before anything is made.
fn docker_only(args: &ApplyArgs) -> Result<(), UsageError> {
    if args.network.is_some() {
        return Err(UsageError::NotOnCri {
            flag: "--network",
            why: "a CRI runtime has no named networks; the pod joins the runtime's CNI network",
        });
    }
    if args.infra_image.is_some() {
        return Err(UsageError::NotOnCri {
            flag: "--infra-image",
            why: "a CRI runtime runs its own sandbox image (containerd's sandbox_image, CRI-O's pause_image)",
        });
    }
    Ok(())
}

/// `--image-pull-credentials-verification-policy` with its allowlist.
fn pull_verification(args: &ApplyArgs) -> Result<pull_verify::Policy, UsageError> {
    let name = match args.image_pull_credentials_verification_policy {
        CredentialsPolicyArg::NeverVerify => "NeverVerify",
        CredentialsPolicyArg::NeverVerifyPreloadedImages => "NeverVerifyPreloadedImages",
        CredentialsPolicyArg::NeverVerifyAllowlistedImages => "NeverVerifyAllowlistedImages",
        CredentialsPolicyArg::AlwaysVerify => "AlwaysVerify",
    };
    pull_verify::Policy::named(name, &args.preloaded_images_verification_allowlist)
        .map_err(|e| UsageError::Said(crate::escape::escape(&e.to_string()).into_owned()))
}

fn options(cli: &Cli, args: &ApplyArgs) -> ApplyOptions {
    ApplyOptions {
        paths: args.manifest.paths(),
        recursive: args.manifest.recursive,
        headers: Vec::new(),
        configs: args.configs.clone(),
        load: LoadOptions {
            namespace: args.namespace.clone(),
            strict: args.strict,
            unknown_fields: args.field_validation().into(),
        },
        timeout: args.timeout,
        wait_for: args.wait_for.map(|w| match w {
            WaitForArg::Running => WaitFor::Running,
            WaitForArg::Complete => WaitFor::Complete,
            WaitForArg::Ready => WaitFor::Ready,
            WaitForArg::None => WaitFor::None,
        }),
        retries: args.retries,
        retry_delay: args.retry_delay,
        backoff: args.backoff,
        crash: CrashBackoff { base: args.crash_backoff, max: args.crash_backoff_max.max(args.crash_backoff) },
        min_uptime: args.min_uptime,
        cleanup_on_failure: args.cleanup_on_failure,
        rm: args.rm,
        logs: args.logs,
        exit_code_from: args.exit_code_from.clone(),
        abort_on_container_exit: args.abort_on_container_exit || args.exit_code_from.is_some(),
        output: match args.output {
            OutputArg::Text => Format::Text,
            OutputArg::Json => Format::Json,
        },
        network: args.network.clone(),
        infra_image: args.infra_image.clone().unwrap_or_else(infra_image::default_infra_image),
        pull: args.pull.map(|pull| match pull {
            PullArg::Always => PullPolicy::Always,
            PullArg::Missing => PullPolicy::IfNotPresent,
            PullArg::Never => PullPolicy::Never,
        }),
        seccomp_default: args.seccomp_default,
        allowed_unsafe_sysctls: args.allowed_unsafe_sysctls.clone(),
        prune: args.prune,
        dry_run: args.dry_run() == DryRunArg::Server,
        supervise: args.supervise,
        log_rotation: LogRotation {
            max_size: args.container_log_max_size,
            max_files: args.container_log_max_files as usize,
        },
        log_monitor: args.container_log_monitor_interval,
        auto_update: args.auto_update.filter(|d| !d.is_zero()).map(|every| AutoUpdate {
            every,
            settle: args.auto_update_settle,
            state: Arc::new(Updates::new(true)),
        }),
        pull_verification: pull_verify::Policy::default(),
        quiet: cli.quiet,
        verbose: cli.verbose > 0,
    }
}
