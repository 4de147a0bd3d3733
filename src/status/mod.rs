//! Pod status: the Kubernetes-shaped report of a pod, and whether a run is done.

pub mod compute;
pub mod conditions;
#[cfg(test)]
mod display_status_cases;
pub mod engine_pods;
pub mod failed;
#[cfg(test)]
pub mod fixtures;
mod host_ips;
pub mod ids;
pub mod outcome;
pub mod pod_object;
pub mod reason;
pub mod types;
pub mod unverified_summary;
#[cfg(test)]
mod verdict_cases;
pub mod waited;

pub use compute::{compute, verdict, Notes, ProbeState, Uptime, Verdict, WaitFor};
pub use reason::Reason;
pub use types::*;
