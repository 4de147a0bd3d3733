//! In-place resize (InPlacePodVerticalScaling, GA in Kubernetes 1.35), as the kubelet decides
//! it (kuberuntime_manager.go, computePodResizeAction): a running container whose spec is
//! unchanged but whose CPU or memory is is resized in place, unless its resizePolicy says
//! `RestartContainer` for a resource that changed, which restarts it. A limit set where there
//! was none (or dropped) cannot be applied to a running container, and an engine that cannot
//! update a container in place restarts it too.

use crate::pod::{DesiredContainer, DesiredPod};
use crate::runtime::{labels, resources_parts as parts, Observed};

/// What a running container's resources need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    Nothing,
    InPlace,
    /// A restart, and why.
    Restart(super::Reason),
}

/// Whether a limit (a part's first number) is set in one and not the other.
fn limit_toggled(old: &str, new: &str) -> bool {
    let set = |v: &str| v.split('/').next().is_some_and(|n| n != "0");
    set(old) != set(new)
}

/// The engine's word on what the container has (else what it was made with), against what
/// `c` must have.
pub fn need(desired: &DesiredPod, c: &DesiredContainer, cur: &Observed) -> Need {
    let Some(now) = cur.label(labels::RESOURCES_NOW).or_else(|| cur.label(labels::RESOURCES)) else {
        return Need::Nothing;
    };
    let wanted = c.settings.resources_text();
    let (now_cpu, now_memory) = parts(now);
    let (cpu, memory) = parts(&wanted);
    let changes: Vec<&str> = [("cpu", now_cpu != cpu), ("memory", now_memory != memory)]
        .into_iter()
        .filter_map(|(resource, changed)| changed.then_some(resource))
        .collect();
    if changes.is_empty() {
        return Need::Nothing;
    }
    if changes.iter().any(|r| c.restart_on_resize.iter().any(|p| p == r)) {
        return Need::Restart("its resources changed and its resizePolicy restarts it".into());
    }
    let toggled = [(now_cpu, cpu), (now_memory, memory)]
        .into_iter()
        .any(|(old, new)| matches!((old, new), (Some(o), Some(n)) if limit_toggled(o, n)));
    if toggled {
        return Need::Restart(
            "a limit of its resources was added or removed, which a running container cannot take".into(),
        );
    }
    if !desired.resize_in_place {
        let engine = if desired.engine.is_empty() { "the engine" } else { desired.engine.as_str() };
        return Need::Restart(format!("its resources changed and {engine} cannot resize a container in place").into());
    }
    Need::InPlace
}
