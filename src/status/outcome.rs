//! The outcome of one pod's run: what the driver returns, what the reporter shows and what
//! the exit code is made of. It sits beside status, below all three.

use std::sync::Arc;

use crate::error_chain::{chain, Chain};
use crate::pod::env::EnvError;
use crate::pod::identity::IdentityError;
use crate::pod::volumes::VolumeError;
use crate::pod::DesiredPod;
use crate::runtime::RuntimeError;
use crate::status::failed::FailedContainer;
use crate::status::PodStatus;

pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGTERM: i32 = 15;

pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        SIGHUP => "SIGHUP",
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// Why a pod did not get where it was asked to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PodFailure {
    #[error("container {container:?}: image {image} is not available: {reason}: {message}")]
    Image { container: String, image: String, reason: String, message: String },
    #[error("container {container:?} failed: {description}")]
    ContainerFailed { container: String, description: String },
    /// The manifest asks for what cannot be (CreateContainerConfigError), found before
    /// anything was created in that sync. `after`: what became of the pod's containers when
    /// earlier syncs had made some (the refusal came once init containers had run), else empty.
    /// The cause is printed whole in the middle of the sentence, before `after`, so it is not
    /// also a `source` a chain printer would repeat (as with `Runtime`).
    #[error("container {container:?} cannot be configured: {}{after}", Chain(.cause))]
    Config { container: String, cause: ConfigCause, after: String },
    #[error("not {goal} after {}{elapsed}: {detail}", retries_said(*.retries))]
    NotConverged { goal: &'static str, retries: u32, elapsed: String, detail: String, crash_loop: bool },
    /// The pod was active longer than its activeDeadlineSeconds: its containers were killed.
    #[error("the pod was active longer than its activeDeadlineSeconds ({seconds}s): DeadlineExceeded")]
    DeadlineExceeded { seconds: i64 },
    /// The engine's error with its causes: this message is all the user sees of it.
    #[error("{}", Chain(.0))]
    Runtime(RuntimeError),
    #[error("interrupted by {}", signal_name(*.0))]
    Interrupted(i32),
    /// The pod was deleted while the run went on (`podrun delete`, `--rm` or `--prune` beside
    /// it, or its infra container removed by hand): the deletion wins. `by`: how the run knew.
    /// What this run still had of the pod is removed.
    #[error("deleted while this run went on ({by}){}", removed_note(*.removed))]
    Deleted { by: String, removed: usize },
}

/// "N retries and ", or nothing when no sync was retried (`podrun wait`, which only looks).
fn retries_said(retries: u32) -> String {
    if retries == 0 {
        String::new()
    } else {
        format!("{retries} retries and ")
    }
}

/// Why a container cannot be configured, as the error that said so.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ConfigCause {
    /// Its environment (a missing ConfigMap, Secret or key, a bad field reference).
    #[error(transparent)]
    Env(EnvError),
    /// Its volumes: planned, prepared on the host, or mounted. Shared, as a pod's failure is
    /// cloned and the volume's error (an OS error among its causes) cannot be.
    #[error(transparent)]
    Volume(Arc<VolumeError>),
    /// The user it would run as: runAsNonRoot against its number, an id out of range.
    #[error(transparent)]
    Identity(IdentityError),
    /// The engine refused what it needs (its image's user, an engine volume). Boxed, as the
    /// engine's error is large and a pod's failure is returned up every layer.
    #[error(transparent)]
    Runtime(Box<RuntimeError>),
}

impl From<VolumeError> for ConfigCause {
    fn from(e: VolumeError) -> Self {
        ConfigCause::Volume(Arc::new(e))
    }
}

/// Two causes are the same when they say the same: a volume's error cannot be compared
/// otherwise.
impl PartialEq for ConfigCause {
    fn eq(&self, other: &Self) -> bool {
        chain(self) == chain(other)
    }
}

impl Eq for ConfigCause {}

fn removed_note(removed: usize) -> String {
    match removed {
        0 => String::new(),
        n => format!("; removed the {n} containers this run had made"),
    }
}

/// The end of one pod's run.
#[derive(Debug, Clone)]
pub struct PodResult {
    pub desired: DesiredPod,
    /// The last status observed (or the best known one, if the engine went away).
    pub status: Option<PodStatus>,
    pub outcome: Result<(), PodFailure>,
    /// Ids of the containers this run created.
    pub created: Vec<String>,
    /// On a failure, each container that failed the run, with its last output.
    pub failed: Vec<FailedContainer>,
}
