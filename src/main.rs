//! podrun's entry point: parse, set up logging, run, map the result to the exit code.

use std::process::ExitCode;

use clap::Parser;
use podrun::Cli;

/// `PODRUN_LOG` takes `target=level` directives (`podrun=trace,bollard=warn`, or a bare level),
/// as `Targets` reads them: EnvFilter's span and field filters are not worth its regex engine
/// (270 KiB of code) in a tool that logs little. A malformed value leaves the default.
fn init_logging(verbose: u8) {
    use tracing_subscriber::filter::LevelFilter;
    use tracing_subscriber::prelude::*;
    let level = if verbose >= 2 { LevelFilter::DEBUG } else { LevelFilter::WARN };
    let filter = log_filter(std::env::var("PODRUN_LOG").ok().as_deref(), level);
    // Uncoloured: the writer escapes every control character, ESC included.
    let format = tracing_subscriber::fmt::layer().with_writer(podrun::log_writer).with_target(false).with_ansi(false);
    tracing_subscriber::registry().with(format).with(filter).init();
}

/// The filter of `PODRUN_LOG` (else podrun's own logs at `level`), with every other target
/// capped at warn: bollard logs the engine's requests and answers whole at debug and trace
/// (a create's environment, an inspect's, the archive of a secret volume), and podrun's
/// output never shows a Secret's value, whatever the level.
fn log_filter(
    spec: Option<&str>,
    level: tracing_subscriber::filter::LevelFilter,
) -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    let asked =
        spec.and_then(|s| s.parse::<Targets>().ok()).unwrap_or_else(|| Targets::new().with_target("podrun", level));
    let own = |target: &str| target == "podrun" || target.starts_with("podrun::");
    let cap = |l: LevelFilter| l.min(LevelFilter::WARN);
    let mut capped = Targets::new();
    if let Some(default) = asked.default_level() {
        capped = capped.with_default(cap(default));
        // A bare level is meant for podrun too, uncapped.
        if !asked.iter().any(|(t, _)| own(t)) {
            capped = capped.with_target("podrun", default);
        }
    }
    for (target, l) in &asked {
        capped = capped.with_target(target, if own(target) { l } else { cap(l) });
    }
    capped
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
            return end(podrun::clap_message(e).map(|()| code).map_err(Into::into));
        }
    };
    init_logging(cli.verbose);
    let mut builder = if cli.relays_only() {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    let runtime = match builder.enable_all().build() {
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

#[cfg(test)]
mod tests {
    use super::log_filter;
    use tracing::Level;
    use tracing_subscriber::filter::LevelFilter;

    #[test]
    fn dependencies_never_log_below_warn_whatever_is_asked() {
        for spec in ["trace", "debug", "bollard=trace", "podrun=trace,hyper=debug,trace", "hyper_util=trace"] {
            let f = log_filter(Some(spec), LevelFilter::WARN);
            for target in ["bollard::docker", "hyper", "hyper_util::client", "h2", "rustls"] {
                assert!(!f.would_enable(target, &Level::INFO), "{spec}: {target} at info");
                assert!(!f.would_enable(target, &Level::DEBUG), "{spec}: {target} at debug");
                assert!(!f.would_enable(target, &Level::TRACE), "{spec}: {target} at trace");
            }
        }
        let f = log_filter(Some("bollard=error"), LevelFilter::WARN);
        assert!(!f.would_enable("bollard::docker", &Level::WARN), "a lower level asked for stays");
        assert!(f.would_enable("bollard::docker", &Level::ERROR));
    }

    #[test]
    fn podrun_logs_at_the_level_asked() {
        assert!(log_filter(Some("trace"), LevelFilter::WARN).would_enable("podrun::driver", &Level::TRACE));
        assert!(log_filter(Some("podrun=debug"), LevelFilter::WARN).would_enable("podrun::driver", &Level::DEBUG));
        assert!(!log_filter(Some("podrun=debug"), LevelFilter::WARN).would_enable("podrun::driver", &Level::TRACE));
        assert!(log_filter(None, LevelFilter::DEBUG).would_enable("podrun", &Level::DEBUG));
        assert!(!log_filter(None, LevelFilter::WARN).would_enable("podrun", &Level::INFO));
        assert!(!log_filter(Some("not a filter=="), LevelFilter::WARN).would_enable("bollard", &Level::DEBUG));
    }
}
