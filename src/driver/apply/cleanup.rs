//! What is removed after the run: `--rm` removes each pod whole, `--cleanup-on-failure` what
//! this run made for a pod that failed. A failure is a warning: the exit code stays the run's.

use crate::driver::{self, PodResult};
use crate::error_chain::chain;
use crate::pod::files::PodFiles;
use crate::pod::volumes;
use crate::report::{PodKey, Reporter};
use crate::runtime::{Runtime, Selector};

/// `--cleanup-on-failure`: the containers this run created for a failed pod go; a failure is a
/// warning.
pub(super) async fn remove_created<R: Runtime>(
    rt: &R,
    r: &PodResult,
    files: Option<&PodFiles>,
    reporter: &dyn Reporter,
) {
    let sel = Selector::pod(&r.desired.namespace, &r.desired.name);
    match driver::remove_pod(rt, &sel, None, Some(&r.created), files).await {
        // None left: the run removed them itself (a refusal, a deletion).
        Ok(0) => {}
        Ok(n) => reporter.event(&PodKey::of(&r.desired), &format!("removed the {n} containers this run created")),
        Err(e) => reporter.warning(&format!("cleanup of {}: {}", PodKey::of(&r.desired), chain(&e))),
    }
}

/// `--rm`: the pod goes whole, whatever the outcome: every container podrun made for it (not
/// only this run's), then podrun's files for it. A failure is a warning: the exit code stays
/// the run's.
pub(super) async fn remove<R: Runtime>(rt: &R, r: &PodResult, files: Option<&PodFiles>, reporter: &dyn Reporter) {
    let key = PodKey::of(&r.desired);
    let sel = Selector::pod(&r.desired.namespace, &r.desired.name);
    match driver::remove_pod(rt, &sel, None, None, files).await {
        Ok(n) => {
            // Files made before any container was (volume directories) have no container to
            // name the pod's uid by, so its own uid is cleaned up too.
            if let Some(files) = files {
                volumes::remove_pod_volumes(files, &r.desired.uid);
                files.remove_pod(&r.desired.uid);
            }
            if let Err(e) = driver::remove_engine_volumes(rt, &r.desired.uid).await {
                reporter.warning(&format!("removal of {key}'s volumes: {e}"));
            }
            reporter.event(&key, &format!("removed the pod ({n} containers)"));
        }
        Err(e) => reporter.warning(&format!("removal of {key}: {}", chain(&e))),
    }
}
