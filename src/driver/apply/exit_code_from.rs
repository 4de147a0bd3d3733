//! `--exit-code-from CONTAINER`: the container it names, checked before anything runs, and its
//! exit code once the run is over.

use crate::driver::PodResult;
use crate::exit::UsageError;
use crate::manifest::LoadedPod;

/// `--exit-code-from` names one container of one pod, or it could not say whose code it is.
pub(super) fn check(name: &str, pods: &[LoadedPod]) -> Result<(), UsageError> {
    let [p] = pods else {
        return Err(UsageError::Said(format!(
            "--exit-code-from {name}: the manifest has {} pods; it needs exactly one",
            pods.len()
        )));
    };
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

/// The exit code of the container's last termination, if it has terminated.
pub(super) fn last_exit(r: &PodResult, container: &str) -> Option<i64> {
    let c = r.status.as_ref()?.all().find(|c| c.name == container)?;
    c.state.terminated.as_ref().or(c.last_state.terminated.as_ref()).map(|t| t.exit_code)
}
