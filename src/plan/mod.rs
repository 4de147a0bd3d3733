//! The planner: a pure function from the desired pod and what the engine shows to the actions
//! that bring the one toward the other. This is where the kubelet's rules live
//! (kuberuntime_manager.go: computePodActions); it never talks to an engine.
//!
//! A plan is carried out in a fixed order: remove, then the infra container, then the app
//! containers (concurrently). App containers that need the infra container's id get it from the
//! step before them, so a whole pod is created in one sync.

#[cfg(test)]
mod tests;

use crate::manifest::types::PullPolicy;
use crate::pod::observed::{Instances, PodObservation};
use crate::pod::{DesiredContainer, DesiredPod};
use crate::runtime::{Observed, State};

/// Stop (with the pod's grace period) and remove a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub container: Observed,
    pub reason: &'static str,
}

/// What to do with one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Create instance number `attempt`, then start it.
    Create { attempt: u32, reason: &'static str },
    /// Start an instance that was created but never started (an interrupted earlier run).
    Start { id: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerStep {
    /// The Kubernetes container name (`POD` for the infra container).
    pub container: String,
    pub step: Step,
}

/// An image the plan needs before it creates anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageNeed {
    pub image: String,
    pub policy: PullPolicy,
    /// The containers that use it, for reporting a failure against each.
    pub containers: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Images to make present first; if one cannot be had, nothing else is done.
    pub images: Vec<ImageNeed>,
    pub remove: Vec<Removal>,
    pub infra: Option<ContainerStep>,
    pub apps: Vec<ContainerStep>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.infra.is_none() && self.apps.is_empty()
    }
}

fn create(c: &DesiredContainer, inst: &Instances, reason: &'static str) -> ContainerStep {
    ContainerStep { container: c.name.clone(), step: Step::Create { attempt: inst.next_attempt(), reason } }
}

fn remove(c: &Observed, reason: &'static str) -> Removal {
    Removal { container: c.clone(), reason }
}

/// Whether the pod's infra container must be (re)created, and why.
fn infra_needs_create(desired: &DesiredPod, infra: &Instances) -> Option<&'static str> {
    let Some(c) = &infra.current else { return Some("the pod has no infra container") };
    if c.label(crate::pod::labels::SPEC_HASH) != Some(desired.infra.spec_hash.as_str()) {
        return Some("the pod's infra spec changed");
    }
    match c.state {
        State::Running { .. } | State::Created => None,
        _ => Some("the infra container is not running"),
    }
}

/// Whether any app container has run before in this pod (a restart policy may forbid a rerun).
fn has_run(obs: &PodObservation) -> bool {
    obs.containers
        .values()
        .any(|i| i.current.as_ref().is_some_and(|c| c.state != State::Created) || i.previous.is_some())
}

pub fn plan(desired: &DesiredPod, obs: &PodObservation) -> Plan {
    let mut p = Plan { remove: obs.stale.iter().map(|(c, why)| remove(c, why)).collect(), ..Plan::default() };

    if let Some(why) = infra_needs_create(desired, &obs.infra) {
        let infra_dead = obs.infra.current.as_ref().is_some_and(|c| c.is_dead());
        // The kubelet does not bring a finished pod back under Never: its containers ran.
        if infra_dead && desired.restart_policy == crate::manifest::types::RestartPolicy::Never && has_run(obs) {
            return p;
        }
        // A new sandbox means every container starts over, as the kubelet does.
        p.remove.extend(obs.infra.current.iter().map(|c| remove(c, why)));
        for inst in obs.containers.values() {
            p.remove.extend(inst.current.iter().map(|c| remove(c, "the pod's infra container is being recreated")));
        }
        p.infra = Some(create(&desired.infra, &obs.infra, why));
        for c in &desired.containers {
            let inst = obs.containers.get(&c.name).cloned().unwrap_or_default();
            p.apps.push(create(c, &inst, "the pod is being created"));
        }
    } else {
        if let Some(Observed { id, state: State::Created, .. }) = &obs.infra.current {
            p.infra =
                Some(ContainerStep { container: desired.infra.name.clone(), step: Step::Start { id: id.clone() } });
        }
        for c in &desired.containers {
            let inst = obs.containers.get(&c.name).cloned().unwrap_or_default();
            if let Some(step) = app_step(desired, c, &inst, &mut p.remove) {
                p.apps.push(step);
            }
        }
    }
    p.images = images_for(desired, &p);
    p
}

fn app_step(
    desired: &DesiredPod,
    c: &DesiredContainer,
    inst: &Instances,
    removals: &mut Vec<Removal>,
) -> Option<ContainerStep> {
    let Some(cur) = &inst.current else { return Some(create(c, inst, "the container does not exist")) };
    if cur.label(crate::pod::labels::SPEC_HASH) != Some(c.spec_hash.as_str()) {
        removals.push(remove(cur, "its spec changed"));
        // The replaced instance is gone, so no dead instance beyond the previous one is kept.
        return Some(create(c, inst, "its spec changed"));
    }
    match &cur.state {
        State::Created => Some(ContainerStep { container: c.name.clone(), step: Step::Start { id: cur.id.clone() } }),
        State::Exited { exit_code, .. } if desired.restart_policy.restarts_after(*exit_code) => {
            // The exited instance becomes the kept previous one; the older one goes.
            removals.extend(inst.previous.iter().map(|p| remove(p, "an older instance")));
            Some(create(c, inst, "restart policy"))
        }
        State::Dead if desired.restart_policy.restarts_after(1) => {
            removals.extend(inst.previous.iter().map(|p| remove(p, "an older instance")));
            Some(create(c, inst, "restart policy"))
        }
        _ => None,
    }
}

/// One entry per distinct image among the app containers the plan creates. (The infra image
/// is podrun's own, built locally by the driver, never pulled.)
fn images_for(desired: &DesiredPod, p: &Plan) -> Vec<ImageNeed> {
    let mut needs: Vec<ImageNeed> = Vec::new();
    for step in &p.apps {
        if !matches!(step.step, Step::Create { .. }) {
            continue;
        }
        let Some(c) = desired.find(&step.container) else { continue };
        match needs.iter_mut().find(|n| n.image == c.image) {
            Some(n) => {
                n.containers.push(c.name.clone());
                // The strictest wins: if any user of the image wants it pulled, pull it once.
                if c.pull_policy == PullPolicy::Always {
                    n.policy = PullPolicy::Always;
                }
            }
            None => needs.push(ImageNeed {
                image: c.image.clone(),
                policy: c.pull_policy,
                containers: vec![c.name.clone()],
            }),
        }
    }
    needs
}
