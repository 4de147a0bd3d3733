//! podrun's entry point: parse, set up logging, run, map the result to the exit code.

use std::process::ExitCode;

use clap::Parser;
use podrun::cli::Cli;
use podrun::{commands, exit};

fn init_logging(verbose: u8) {
    let default = if verbose >= 2 { "podrun=debug" } else { "podrun=warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("PODRUN_LOG").unwrap_or_else(|_| default.into());
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false).init();
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        console::set_colors_enabled(false);
        console::set_colors_enabled_stderr(false);
    }
    init_logging(cli.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("podrun: cannot start: {e}");
            return ExitCode::from(exit::INTERNAL);
        }
    };
    match runtime.block_on(commands::run(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("podrun: {e:#}");
            ExitCode::from(exit::for_error(&e))
        }
    }
}
