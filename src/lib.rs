//! podrun: run a Kubernetes Pod manifest once on the local container engine.
//!
//! Layers, from the outside in: `cli` (flags) and `commands` (one module per subcommand) drive
//! `driver` (the observe/plan/act loop), which asks `plan` (pure kubelet rules) what to do
//! and `runtime` (the engine, behind one trait) to do it. `manifest` loads and checks the
//! user's YAML and knows nothing of engines; `pod` turns a manifest into the desired state;
//! `status` computes Kubernetes-shaped status; `report` shows it; `exit` names the exit codes.

mod cli;
mod clock;
mod commands;
mod driver;
mod exit;
mod fnv;
mod manifest;
mod plan;
mod pod;
mod probe;
mod report;
mod runtime;
mod sd_notify;
mod status;
#[cfg(test)]
mod test_support;
mod tty;

// The binary's needs, and nothing else: the library is private to podrun.
pub use cli::Cli;
pub use commands::run;
pub use exit::{for_error as exit_code, USAGE};
pub use report::output::{clap_message, log_writer, report_error, settle};
