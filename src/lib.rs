//! podrun: run a Kubernetes Pod manifest once on the local container engine.
//!
//! The modules form layers: each uses only the layers below it, never a neighbour or a layer
//! above, and inside a folder no two siblings import each other, even through others. The
//! order, lowest first, with what each layer is for, is written once: `LAYERS` in
//! `tests/suite/layers.rs`, which fails on an import that breaks it (and
//! `tests/suite/folder_cycles.rs` on a cycle inside a folder).
//!
//! The library is private to the binary: what `main.rs` uses is its only public surface.

mod cli;
mod clock;
mod commands;
mod driver;
mod error_chain;
mod escape;
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
