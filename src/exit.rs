//! podrun's exit codes, and which error maps to which. Documented in README.md; scripts rely
//! on them, so they never change meaning.

use crate::driver::PodFailure;
use crate::manifest::ManifestError;
use crate::runtime::RuntimeError;

pub const SUCCESS: u8 = 0;
pub const INTERNAL: u8 = 1;
pub const USAGE: u8 = 2;
pub const ENGINE_UNREACHABLE: u8 = 3;
pub const IMAGE_UNAVAILABLE: u8 = 4;
pub const NOT_CONVERGED: u8 = 5;
pub const CONTAINER_FAILED: u8 = 6;

/// Wrong use of podrun that clap cannot see (a bad pod name, say): exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

pub fn for_runtime(e: &RuntimeError) -> u8 {
    match e {
        RuntimeError::Unreachable { .. } => ENGINE_UNREACHABLE,
        _ => INTERNAL,
    }
}

pub fn for_pod(f: &PodFailure) -> u8 {
    match f {
        PodFailure::Image { .. } => IMAGE_UNAVAILABLE,
        PodFailure::ContainerFailed { .. } => CONTAINER_FAILED,
        PodFailure::Config { .. } => USAGE,
        PodFailure::NotConverged { crash_loop: true, .. } => CONTAINER_FAILED,
        PodFailure::NotConverged { .. } => NOT_CONVERGED,
        PodFailure::Runtime(e) => for_runtime(e),
        PodFailure::Interrupted(sig) => 128 + *sig as u8,
    }
}

/// The exit code for an error that ended a command.
pub fn for_error(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<ManifestError>().is_some() || e.downcast_ref::<UsageError>().is_some() {
        USAGE
    } else if let Some(r) = e.downcast_ref::<RuntimeError>() {
        for_runtime(r)
    } else {
        INTERNAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::signals;

    #[test]
    fn interrupts_exit_128_plus_the_signal() {
        assert_eq!(for_pod(&PodFailure::Interrupted(signals::SIGINT)), 130);
        assert_eq!(for_pod(&PodFailure::Interrupted(signals::SIGTERM)), 143);
    }

    #[test]
    fn errors_map_to_their_codes() {
        let unreachable = RuntimeError::Unreachable { endpoint: "x".into(), detail: "y".into() };
        assert_eq!(for_error(&anyhow::Error::new(unreachable)), 3);
        assert_eq!(for_error(&anyhow::Error::new(UsageError("x".into()))), 2);
        assert_eq!(for_error(&anyhow::anyhow!("boom")), 1);
    }
}
