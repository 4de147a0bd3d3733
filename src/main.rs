//! podrun's entry point: parse, set up logging, run, map the result to the exit code.

use std::process::ExitCode;

use clap::Parser;
use podrun::Cli;

/// `PODRUN_LOG` takes `target=level` directives (`podrun=trace,hyper=debug`, or a bare level),
/// as `Targets` reads them: EnvFilter's span and field filters are not worth its regex engine
/// (270 KiB of code) in a tool that logs little. A malformed value leaves the
/// default.
fn init_logging(verbose: u8) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let level = if verbose >= 2 { LevelFilter::DEBUG } else { LevelFilter::WARN };
    let filter = std::env::var("PODRUN_LOG")
        .ok()
        .and_then(|s| s.parse::<Targets>().ok())
        .unwrap_or_else(|| Targets::new().with_target("podrun", level));
    let format = tracing_subscriber::fmt::layer().with_writer(podrun::log_writer).with_target(false);
    tracing_subscriber::registry().with(format).with(filter).init();
}

fn main() -> ExitCode {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        console::set_colors_enabled(false);
        console::set_colors_enabled_stderr(false);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help, version, or wrong usage: printed here rather than by clap, which would exit 0
        // on a closed stdout.
        Err(e) => {
            let code = u8::try_from(e.exit_code()).unwrap_or(podrun::USAGE);
            return end(podrun::clap_message(&e).map(|()| code).map_err(Into::into));
        }
    };
    init_logging(cli.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return end(Err(anyhow::anyhow!("cannot start: {e}"))),
    };
    end(runtime.block_on(podrun::run(cli)))
}

fn end(result: anyhow::Result<u8>) -> ExitCode {
    match podrun::settle(result) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            podrun::report_error(&e);
            ExitCode::from(podrun::exit_code(&e))
        }
    }
}
