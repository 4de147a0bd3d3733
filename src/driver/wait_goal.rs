//! What `podrun wait` waits for: one of apply's states (judged by `status::waited`, failing at
//! once for a container that failed for good), a pod condition with a status, or the pod's
//! deletion; the last two as `kubectl wait --for=condition=...|delete` waits, until the deadline
//! with no failure before it.

use crate::status::engine_pods::ListedPod;
use crate::status::{waited, Uptime, Verdict, WaitFor};

/// The goal of a wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// A state; `None`: as apply's default, by the pod's restart policy.
    State(Option<WaitFor>),
    /// The condition `type_` (its API name) with `status` (`True`, `False`, `Unknown`).
    Condition { type_: &'static str, status: &'static str },
    /// None of the pod's containers left.
    Delete,
}

impl Goal {
    /// The verdict on `pod` as seen now; `wait_for` is the state the pod is judged by.
    pub fn verdict(self, pod: &ListedPod, wait_for: WaitFor, uptime: Uptime) -> Verdict {
        match self {
            Goal::State(_) => waited::verdict(pod, wait_for, uptime),
            Goal::Condition { .. } if self.met(pod) => Verdict::Done,
            Goal::Condition { .. } | Goal::Delete => Verdict::Pending,
        }
    }

    /// Whether the pod has the condition asked for (a condition it does not report has none).
    fn met(self, pod: &ListedPod) -> bool {
        let Goal::Condition { type_, status } = self else { return false };
        pod.status.conditions.iter().any(|c| c.type_ == type_ && c.status == status)
    }

    /// Whether a pod whose removal began is still waited for: only its deletion waits on
    /// until it is gone; every other goal ends there.
    pub fn waits_through_removal(self) -> bool {
        self == Goal::Delete
    }

    /// What a wait at its deadline still waited for, for the kubectl forms: the goal's words
    /// and where the pod stands; None for a state (apply's own words say it).
    pub fn short_of(self, pod: &ListedPod) -> Option<(&'static str, String)> {
        match self {
            Goal::State(_) => None,
            Goal::Condition { type_, status } => {
                let now = pod.status.conditions.iter().find(|c| c.type_ == type_).map(|c| c.status.clone());
                let now = now.map_or_else(|| "not reported".to_owned(), |s| format!("{type_}={s}"));
                Some((type_, format!("{now}, waiting for {type_}={status}")))
            }
            Goal::Delete => Some(("deleted", "its containers are still there".to_owned())),
        }
    }
}
