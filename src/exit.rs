//! podrun's exit codes, and which error maps to which. Documented in README.md; scripts rely
//! on them, so they never change meaning.

use crate::escape::Escaped;
use crate::manifest::ManifestError;
use crate::pod::files::StateError;
use crate::pod::needed_configs::MissingConfigs;
use crate::pod::prepare::PrepareError;
use crate::report::output::OutputError;
use crate::runtime::docker::context::ContextError;
use crate::runtime::RuntimeError;
use crate::status::outcome::PodFailure;

pub const SUCCESS: u8 = 0;
pub const INTERNAL: u8 = 1;
pub const USAGE: u8 = 2;
pub const ENGINE_UNREACHABLE: u8 = 3;
pub const IMAGE_UNAVAILABLE: u8 = 4;
pub const NOT_CONVERGED: u8 = 5;
pub const CONTAINER_FAILED: u8 = 6;
/// The pod was deleted (`podrun delete`) while apply ran.
pub const DELETED: u8 = 7;
/// What `delete` was asked to remove is (partly) there but not podrun's to touch: containers
/// with podrun's labels whose seal does not verify (made under another state directory, or a
/// forgery). They are named and left alone.
pub const NOT_OWNED: u8 = 8;
/// Standard output was closed (`| head`): what a shell reports for a tool killed by SIGPIPE.
pub const BROKEN_PIPE: u8 = 128 + 13;

/// Wrong use of podrun that clap cannot see (a bad pod name, say): exit 2.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// In podrun's own words.
    #[error("{0}")]
    Said(String),
    /// A path given that cannot be read as a directory of manifests.
    #[error("{}", Escaped(path))]
    Unreadable {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A pod that cannot run here, refused before anything is created.
    #[error(transparent)]
    Refused(#[from] PrepareError),
    /// ConfigMaps, Secrets or keys the run's pods need and were not given: all of them.
    #[error(transparent)]
    MissingConfigs(#[from] MissingConfigs),
    /// A flag for what only the Docker API has, given with a CRI runtime.
    #[error("{flag}: {why}")]
    NotOnCri { flag: &'static str, why: &'static str },
    /// `exec` or `logs` without `-c` on a pod with several app containers, none the default.
    #[error("a container name must be specified for pod {pod}, choose one of: [{}]", .candidates.join(" "))]
    NoContainerChosen { pod: String, candidates: Vec<String> },
}

pub fn for_runtime(e: &RuntimeError) -> u8 {
    match e {
        RuntimeError::Unreachable { .. } => ENGINE_UNREACHABLE,
        // The runtime's own sandbox image, absent and not to be pulled.
        RuntimeError::SandboxImage { .. } => IMAGE_UNAVAILABLE,
        // The run's deadline passed while the engine was still to answer: a timeout.
        RuntimeError::Deadline { .. } => NOT_CONVERGED,
        _ => INTERNAL,
    }
}

pub fn for_pod(f: &PodFailure) -> u8 {
    match f {
        PodFailure::Image { .. } => IMAGE_UNAVAILABLE,
        PodFailure::ContainerFailed { .. } | PodFailure::DeadlineExceeded { .. } => CONTAINER_FAILED,
        PodFailure::Config { .. } => USAGE,
        PodFailure::NotConverged { crash_loop: true, .. } => CONTAINER_FAILED,
        PodFailure::NotConverged { .. } => NOT_CONVERGED,
        PodFailure::Runtime(e) => for_runtime(e),
        // podrun handles SIGINT and SIGTERM only; a signal number past 127 would be a bug.
        PodFailure::Interrupted(sig) => u8::try_from(128 + *sig).unwrap_or(INTERNAL),
        PodFailure::Deleted { .. } => DELETED,
    }
}

/// The exit code under `apply --exit-code-from CONTAINER`, as `docker compose up
/// --exit-code-from` gives it: the container's own exit code (`last_exit`, from its last
/// termination) when the run succeeded or when that container is the one that failed. Any
/// other end keeps podrun's own code, since it says more than the container could: engine
/// unreachable (3), image unavailable (4), not converged (5), another container failed (6),
/// deleted (7), interrupted (130/143). A container that never terminated also keeps podrun's code.
pub fn from_container(outcome: &Result<(), PodFailure>, container: &str, last_exit: Option<i64>) -> u8 {
    let own = outcome.as_ref().err().map_or(SUCCESS, for_pod);
    let its_own = match outcome {
        Ok(()) => true,
        Err(PodFailure::ContainerFailed { container: c, .. }) => c == container,
        Err(_) => false,
    };
    match last_exit {
        // As a shell reports it: the low 8 bits.
        Some(code) if its_own => u8::try_from(code.rem_euclid(256)).unwrap_or(own),
        _ => own,
    }
}

/// A context podrun cannot speak to (`npipe://`) is an engine podrun cannot reach, as an
/// unreachable `--host` is; a context that does not exist, or `--context` with `--host`, is
/// wrong usage.
pub fn for_context(e: &ContextError) -> u8 {
    match e {
        ContextError::Unsupported { .. } => ENGINE_UNREACHABLE,
        ContextError::Conflict | ContextError::NotFound { .. } | ContextError::Invalid { .. } => USAGE,
    }
}

/// The exit code for an error that ended a command.
#[must_use]
pub fn for_error(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<ManifestError>().is_some()
        || e.downcast_ref::<UsageError>().is_some()
        || e.downcast_ref::<StateError>().is_some()
    {
        USAGE
    } else if let Some(r) = e.downcast_ref::<RuntimeError>() {
        for_runtime(r)
    } else if let Some(c) = e.downcast_ref::<ContextError>() {
        for_context(c)
    } else if let Some(OutputError::Closed) = e.downcast_ref::<OutputError>() {
        BROKEN_PIPE
    } else {
        INTERNAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::outcome::{SIGINT, SIGTERM};

    #[test]
    fn interrupts_exit_128_plus_the_signal() {
        assert_eq!(for_pod(&PodFailure::Interrupted(SIGINT)), 130);
        assert_eq!(for_pod(&PodFailure::Interrupted(SIGTERM)), 143);
        assert_eq!(for_pod(&PodFailure::Deleted { by: "x".into(), removed: 0 }), 7);
    }

    #[test]
    fn exit_code_from_takes_the_containers_code_only_when_it_speaks_for_the_run() {
        let failed = |c: &str| Err(PodFailure::ContainerFailed { container: c.into(), description: "x".into() });
        assert_eq!(from_container(&Ok(()), "app", Some(0)), 0);
        assert_eq!(from_container(&failed("app"), "app", Some(3)), 3);
        assert_eq!(from_container(&failed("app"), "app", Some(-1)), 255);
        assert_eq!(from_container(&failed("side"), "app", Some(0)), CONTAINER_FAILED);
        assert_eq!(from_container(&Ok(()), "app", None), 0);
        assert_eq!(from_container(&Err(PodFailure::Interrupted(SIGTERM)), "app", Some(0)), 143);
        let not_converged = PodFailure::NotConverged {
            goal: "complete",
            retries: 1,
            elapsed: "1s".into(),
            detail: "x".into(),
            crash_loop: false,
        };
        assert_eq!(from_container(&Err(not_converged), "app", Some(0)), NOT_CONVERGED);
    }

    #[test]
    fn errors_map_to_their_codes() {
        let unreachable = RuntimeError::Unreachable {
            endpoint: "x".into(),
            why: crate::runtime::Unreachability::NoAnswer(std::time::Duration::from_secs(1)),
        };
        assert_eq!(for_error(&anyhow::Error::new(unreachable)), 3);
        let late = RuntimeError::Deadline { what: "list containers".into() };
        assert_eq!(for_error(&anyhow::Error::new(late)), NOT_CONVERGED, "a timeout, as any other");
        let sandbox = RuntimeError::SandboxImage { image: "registry.k8s.io/pause:3.6".into(), detail: "x".into() };
        assert!(sandbox.to_string().contains("registry.k8s.io/pause:3.6") && sandbox.to_string().contains("import"));
        assert_eq!(for_error(&anyhow::Error::new(sandbox)), IMAGE_UNAVAILABLE);
        assert_eq!(for_error(&anyhow::Error::new(UsageError::Said("x".into()))), 2);
        assert_eq!(for_error(&anyhow::anyhow!("boom")), 1);
        assert_eq!(for_error(&anyhow::Error::new(ContextError::Conflict)), 2);
        let missing = ContextError::NotFound {
            name: "c".into(),
            origin: "o".into(),
            why: crate::runtime::docker::context::Absence::NoConfigDir,
        };
        assert_eq!(for_error(&anyhow::Error::new(missing)), 2);
        let ssh = ContextError::Unsupported { name: "c".into(), file: "f".into(), host: "ssh://h".into(), why: "w" };
        assert_eq!(for_error(&anyhow::Error::new(ssh)), 3);
        assert_eq!(for_error(&anyhow::Error::new(OutputError::Closed)), 141);
        let full = OutputError::Failed(std::sync::Arc::new(std::io::Error::from_raw_os_error(28)));
        assert_eq!(for_error(&anyhow::Error::new(full)), 1);
    }
}
