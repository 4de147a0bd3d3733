//! Reporting: everything podrun tells the user goes through here. Live progress goes to
//! stderr (one live line per container on a terminal, timestamped lines otherwise); the final
//! result goes to stdout, as a table or, with `-o json`, as a Kubernetes `List` of Pods.
//! `output` is the one writer of stdout and stderr, for every command.

mod clap_text;
pub mod describe;
pub mod events;
mod explained;
pub mod jsonpath;
mod live;
pub mod logs;
pub mod output;
mod plain;
pub mod printers;
pub mod summary;
mod tabwriter;

use std::fmt;
use std::sync::Arc;

use crate::escape::Escaped;
use crate::pod::DesiredPod;
use crate::runtime::PullProgress;
use crate::status::failed::FailedContainer;
use crate::status::outcome::{PodFailure, PodResult};
use crate::status::{PodStatus, Reason};

/// A pod's name as people write it: `namespace/name` (displayed escaped, as every name podrun
/// prints: see `crate::escape`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PodKey {
    pub namespace: String,
    pub name: String,
}

impl PodKey {
    pub fn of(d: &DesiredPod) -> PodKey {
        PodKey { namespace: d.namespace.clone(), name: d.name.clone() }
    }
}

impl fmt::Display for PodKey {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", Escaped(&self.namespace), Escaped(&self.name))
    }
}

/// The progress side of reporting. Implementations are shared by concurrent pod drivers, and
/// escape what they are given (`crate::escape`): callers pass names and messages as they are.
pub trait Reporter: Send + Sync {
    fn warning(&self, msg: &str);
    /// Something podrun is doing: pulling, creating, removing.
    fn event(&self, pod: &PodKey, msg: &str);
    /// Something about the run as a whole (`--supervise` taking over).
    fn note(&self, msg: &str);
    /// An image pull of the pod's, as it goes.
    fn pull(&self, pod: &PodKey, image: &str, event: PullEvent);
    /// The pod's status as just observed; implementations show what changed.
    fn status(&self, pod: &PodKey, status: &PodStatus);
    /// One pod's run (or wait) is over.
    fn done(&self, ended: &Ended<'_>);
    /// All runs are over: clear any live display before the summary is printed.
    fn finish(&self);
    /// A line on standard error as it is, whatever `--quiet` says: the words kubectl has for a
    /// pod it cannot find, or for a container it cannot use.
    fn say(&self, line: &str);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PullEvent {
    Started,
    Progress(PullProgress),
    Done { bytes: u64, elapsed: std::time::Duration },
    Failed,
}

/// `12.3 MB`, for pull sizes.
pub(crate) fn bytes(n: u64) -> String {
    indicatif::HumanBytes(n).to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy)]
pub struct ReportOptions {
    pub quiet: bool,
    pub verbose: bool,
    /// Live lines when stderr is a terminal; plain lines otherwise.
    pub live: bool,
}

pub fn reporter(opts: ReportOptions) -> Arc<dyn Reporter> {
    if opts.quiet {
        Arc::new(plain::Plain::quiet())
    } else if opts.live {
        Arc::new(live::Live::new(opts.verbose))
    } else {
        Arc::new(plain::Plain::new())
    }
}

/// Colours for states, applied only where the stream's colours are on.
pub(crate) fn state_style(summary: &str) -> console::Style {
    if summary == "Running" || Reason::named(summary) == Some(Reason::Completed) {
        console::Style::new().green()
    } else if is_failing(summary) {
        console::Style::new().red()
    } else {
        console::Style::new().yellow()
    }
}

/// Whether a container's one-word state is a failure.
fn is_failing(summary: &str) -> bool {
    matches!(
        Reason::named(summary),
        Some(
            Reason::Error
                | Reason::OOMKilled
                | Reason::StartError
                | Reason::CrashLoopBackOff
                | Reason::ErrImagePull
                | Reason::ErrImageNeverPull
                | Reason::InvalidImageName
                | Reason::ImagePullBackOff
                | Reason::CreateContainerError
                | Reason::RunContainerError,
        )
    )
}

/// The end of one pod's run (`apply`) or wait (`podrun wait`), as the reporter and the
/// summary show it: the pod, its last status, and the outcome.
#[derive(Debug, Clone)]
pub struct Ended<'a> {
    pub key: PodKey,
    pub status: Option<&'a PodStatus>,
    pub outcome: &'a Result<(), PodFailure>,
    /// On a failure, each container that failed it, with its last output.
    pub failed: &'a [FailedContainer],
}

impl<'a> From<&'a PodResult> for Ended<'a> {
    fn from(r: &'a PodResult) -> Self {
        Ended { key: PodKey::of(&r.desired), status: r.status.as_ref(), outcome: &r.outcome, failed: &r.failed }
    }
}

/// One line for the end of a pod's run, escaped.
pub(crate) fn outcome_line(r: &Ended<'_>) -> String {
    let key = &r.key;
    match r.outcome {
        Ok(()) => {
            let phase = r.status.map(|s| format!("{:?}", s.phase)).unwrap_or_default();
            format!("pod {key}: ok ({phase})")
        }
        Err(e) => format!("pod {key}: {}", Escaped(e)),
    }
}

/// What follows the pod's line on a failure: each container that failed, and why (escaped).
pub(crate) fn failure_lines(r: &Ended<'_>) -> Vec<String> {
    explained::lines(&r.key, r.failed)
}

/// Whether a container's state is a failure of the run: its mark on the final lines.
pub(crate) fn failed_mark(r: &Ended<'_>, c: &crate::status::ContainerStatus) -> bool {
    r.failed.iter().any(|f| f.name == c.name)
        || c.state.terminated.as_ref().is_some_and(|t| t.exit_code != 0)
        || is_failing(&c.state.summary())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::fixtures::{container as c, exited, running};
    use crate::status::{ContainerState, Phase};

    #[test]
    fn a_failed_container_never_gets_the_success_mark() {
        let (fails, ok, up, pull) = (
            c("fails", exited(1)),
            c("ok", exited(0)),
            c("up", running()),
            c("pull", ContainerState::waiting("ImagePullBackOff", None)),
        );
        let st = PodStatus::assemble(Phase::Failed, true, None, None, (vec![], &[]), vec![]);
        let outcome = Err(PodFailure::ContainerFailed { container: "fails".into(), description: String::new() });
        let ended = Ended {
            key: PodKey { namespace: "ns".into(), name: "p".into() },
            status: Some(&st),
            outcome: &outcome,
            failed: &[],
        };
        assert!(failed_mark(&ended, &fails));
        assert!(failed_mark(&ended, &pull));
        assert!(!failed_mark(&ended, &ok));
        assert!(!failed_mark(&ended, &up));
        assert_eq!(outcome_line(&ended), "pod ns/p: container \"fails\" failed: ");
    }
}
