//! podrun: run a Kubernetes Pod manifest once on the local container engine.
//!
//! Layers, from the outside in: `cli` (flags) and `commands` (one module per subcommand) drive
//! `driver` (the observe/plan/act loop), which asks `plan` (pure kubelet rules) what to do
//! and `runtime` (the engine, behind one trait) to do it. `manifest` loads and checks the
//! user's YAML and knows nothing of engines; `pod` turns a manifest into the desired state;
//! `status` computes Kubernetes-shaped status; `report` shows it; `exit` names the exit codes.

pub mod cli;
pub mod clock;
pub mod commands;
pub mod driver;
pub mod exit;
pub mod fnv;
pub mod manifest;
pub mod plan;
pub mod pod;
pub mod probe;
pub mod report;
pub mod runtime;
pub mod sd_notify;
pub mod status;
#[cfg(test)]
mod test_support;
pub mod tty;
