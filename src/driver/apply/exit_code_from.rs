//! `--exit-code-from CONTAINER` and `--abort-on-container-exit`: the container named and the
//! one pod they need, checked before anything runs, and the exit code once the run is over.
//! The run itself ends as the driver's `abort` says.

use crate::driver::PodResult;
use crate::exit::{self, UsageError};
use crate::manifest::LoadedPod;
use crate::status::outcome::PodFailure;

/// `--exit-code-from` names one container of one pod, or it could not say whose code it is.
pub(super) fn check(name: &str, pods: &[LoadedPod]) -> Result<(), UsageError> {
    let p = one_pod(&format!("--exit-code-from {name}"), pods)?;
    let spec = &p.pod.spec;
    let names: Vec<&str> = spec.init_containers.iter().chain(&spec.containers).map(|c| c.name.as_str()).collect();
    if names.contains(&name) {
        Ok(())
    } else {
        Err(UsageError::Said(format!(
            "{}: --exit-code-from {name}: pod {} has no such container (it has: {})",
            p.doc,
            p.pod.metadata.name,
            names.join(", ")
        )))
    }
}

/// The one pod `flag` speaks for: with several, whose containers' exits would end the run is
/// not said.
pub(super) fn one_pod<'a>(flag: &str, pods: &'a [LoadedPod]) -> Result<&'a LoadedPod, UsageError> {
    match pods {
        [p] => Ok(p),
        _ => Err(UsageError::Said(format!("{flag}: the manifest has {} pods; it needs exactly one", pods.len()))),
    }
}

/// The exit code of the container's last termination, if it has terminated.
pub(super) fn last_exit(r: &PodResult, container: &str) -> Option<i64> {
    let c = r.status.as_ref()?.all().find(|c| c.name == container)?;
    c.state.terminated.as_ref().or(c.last_state.terminated.as_ref()).map(|t| t.exit_code)
}

/// The exit code under `--abort-on-container-exit` alone, as compose gives it: the code of the
/// container that ended the run (0 when it exited 0: the run succeeded), podrun's own for any
/// other end.
pub(super) fn aborted(r: &PodResult) -> u8 {
    match &r.outcome {
        Err(PodFailure::ContainerFailed { container, .. }) => {
            exit::from_container(&r.outcome, container, last_exit(r, container))
        }
        outcome => outcome.as_ref().err().map_or(exit::SUCCESS, exit::for_pod),
    }
}
