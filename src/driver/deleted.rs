//! A run overtaken by a deletion of its pod (`podrun delete`, `--rm`, `--prune` beside it):
//! the deletion wins. The run learns of it from the removal's sign (`pod::deletion`), or, with
//! no state directory to share, when the pod's infra container it had seen is gone, not by its
//! own doing. It stops acting on the pod at once: a pod being torn down looks like one to
//! repair, and a repair would race the removal. Once the removal has ended it removes what it
//! made that is still there (a container it created after the removal looked).

use std::time::Duration;

use tokio::time::Instant;

use super::act;
use super::signals::Interrupt;
use crate::pod::deletion::Deletion;
use crate::pod::files::PodFiles;
use crate::pod::DesiredPod;
use crate::runtime::labels;
use crate::runtime::{Observed, Runtime, RuntimeError, Selector};

/// How often the run looks at the removal's sign while it waits for the removal to end.
const SIGN_POLL: Duration = Duration::from_millis(100);
/// Beyond the longest grace period among the pod's containers, how long a removal may take
/// before the run stops waiting for it (the remover may have been killed).
const REMOVAL_SLACK: Duration = Duration::from_secs(10);
/// The grace period of a container whose label does not say (the Kubernetes default).
const DEFAULT_GRACE: Duration = Duration::from_secs(30);

/// How the run learnt that its pod was deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sign {
    /// A whole-pod removal began after the run did: its id.
    Removal(String),
    /// The infra container the run had seen (its id) is gone.
    InfraGone(String),
}

impl Sign {
    /// What the run says of it.
    pub fn describe(&self) -> String {
        match self {
            Sign::Removal(_) => "a removal of the whole pod began after this run did".to_owned(),
            Sign::InfraGone(id) => {
                format!("its infra container {} was removed, not by this run", id.chars().take(12).collect::<String>())
            }
        }
    }
}

/// The removal of the pod `uid` that began since the run did, whose sign was `at_start` then.
pub fn begun_since(files: Option<&PodFiles>, uid: &str, at_start: Option<&Deletion>) -> Option<Deletion> {
    let now = files?.deletion(uid)?;
    (at_start.is_none_or(|d| d.id != now.id)).then_some(now)
}

/// Waits for the removal the sign names to end (bounded by the pod's grace periods), then
/// removes the containers among `made` that are left. Returns how many it removed, or the
/// signal that cut the wait short.
pub async fn wind_up<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    files: Option<&PodFiles>,
    sign: &Sign,
    observed: &[Observed],
    made: impl std::future::Future<Output = Vec<String>>,
    interrupt: &mut Interrupt,
) -> Result<Result<usize, RuntimeError>, i32> {
    if let (Sign::Removal(id), Some(files)) = (sign, files) {
        let longest = observed
            .iter()
            .map(|c| {
                c.label(labels::GRACE_PERIOD).and_then(|g| g.parse().ok()).map_or(DEFAULT_GRACE, Duration::from_secs)
            })
            .max()
            .unwrap_or(Duration::ZERO);
        let until = Instant::now() + longest + REMOVAL_SLACK;
        let ended = |files: &PodFiles| files.deletion(&desired.uid).is_none_or(|d| d.done || d.id != *id);
        while !ended(files) && Instant::now() < until {
            tokio::select! {
                () = tokio::time::sleep(SIGN_POLL) => {}
                sig = interrupt.wait() => return Err(sig),
            }
        }
    }
    let made = made.await;
    if made.is_empty() {
        return Ok(Ok(0));
    }
    let sel = Selector::pod(&desired.namespace, &desired.name);
    Ok(act::remove_pod(rt, &sel, None, Some(&made), files).await)
}
