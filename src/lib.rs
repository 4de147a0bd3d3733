//! podrun: run a Kubernetes Pod manifest once on the local container engine.
//!
//! The modules form layers: each uses only the layers below it, never a neighbour or a layer
//! above (`tests/layers.rs` holds the order and fails on an import that breaks it). Lowest
//! first:
//!
//! 1. `fnv`, `clock`, `sd_notify`, `error_chain`, `private_fs`: leaves (a stable hash,
//!    wall-clock time that moves with tokio's clock and parses the engine's timestamps,
//!    systemd's notify socket, an error printed with its causes, podrun's own files opened so
//!    nobody else's can stand in for them).
//! 2. `manifest`: loads and checks the user's YAML; knows nothing of engines.
//! 3. `runtime`: the engine behind one trait, its engine-neutral container model and podrun's
//!    label scheme (`runtime::labels`); `docker/` implements it, `fake` (tests only) too.
//! 4. `probe`, `tty`: one probe attempt through the runtime; terminal handling for exec.
//! 5. `pod`: a manifest's pod as desired containers in the runtime's terms, and as observed.
//! 6. `plan`: pure kubelet rules, desired and observed state to actions.
//! 7. `status`: Kubernetes-shaped status, the "are we done" verdict, and the outcome of a
//!    run (`status::outcome`: `PodResult`, `PodFailure`).
//! 8. `report`: what the user sees, and the one writer of standard output.
//! 9. `exit`: the exit codes, from errors and outcomes.
//! 10. `driver`: the observe/plan/act loop.
//! 11. `cli` (flags), then `commands` (one module per subcommand), then `main.rs`.
//!
//! The library is private to the binary: what `main.rs` uses is its only public surface.

mod cli;
mod clock;
mod commands;
mod driver;
mod error_chain;
mod exit;
mod fnv;
mod manifest;
mod plan;
mod pod;
mod private_fs;
mod probe;
mod report;
mod runtime;
mod sd_notify;
mod status;
#[cfg(test)]
mod test_support;
mod tty;

// What main.rs uses, and nothing else.
pub use cli::Cli;
pub use commands::run;
pub use exit::{for_error as exit_code, USAGE};
pub use report::output::{clap_message, log_writer, report_error, settle};
