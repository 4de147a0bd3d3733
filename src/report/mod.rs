//! Reporting: everything podrun tells the user goes through here. Live progress goes to
//! stderr (one live line per container on a terminal, timestamped lines otherwise); the final
//! result goes to stdout, as a table or, with `-o json`, as a Kubernetes `List` of Pods.
//! `output` is the one writer of stdout and stderr, for every command.

mod live;
pub mod logs;
pub mod output;
mod plain;
pub mod summary;

use std::fmt;
use std::sync::Arc;

use crate::escape::Escaped;
use crate::pod::DesiredPod;
use crate::runtime::PullProgress;
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
    if summary == "Running" {
        return console::Style::new().green();
    }
    match Reason::named(summary) {
        Some(Reason::Completed) => console::Style::new().green(),
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
        ) => console::Style::new().red(),
        _ => console::Style::new().yellow(),
    }
}

/// The end of one pod's run (`apply`) or wait (`podrun wait`), as the reporter and the
/// summary show it: the pod, its last status, and the outcome.
#[derive(Debug, Clone)]
pub struct Ended<'a> {
    pub key: PodKey,
    pub status: Option<&'a PodStatus>,
    pub outcome: &'a Result<(), PodFailure>,
}

impl<'a> From<&'a PodResult> for Ended<'a> {
    fn from(r: &'a PodResult) -> Self {
        Ended { key: PodKey::of(&r.desired), status: r.status.as_ref(), outcome: &r.outcome }
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
