//! The planner: a pure function from the desired pod and what the engine shows to the actions
//! that bring the one toward the other. This is where the kubelet's rules live
//! (kuberuntime_manager.go: computePodActions); it never talks to an engine, and takes the
//! time as an input.
//!
//! A plan is carried out in a fixed order: stop finished pods' sidecars, remove, the infra
//! container, the init steps one after another, then the app containers concurrently. Steps
//! that need the infra container's id get it from the step before them, so a whole pod is
//! created in one sync.

pub mod backoff;
mod init;
pub mod render;
pub mod resize;
pub mod rollout;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime};

pub use backoff::CrashBackoff;

use crate::manifest::types::{PullPolicy, RestartPolicy};
use crate::pod::observed::{attempt_of, Instances, PodObservation};
use crate::pod::{DesiredContainer, DesiredPod};
use crate::runtime::labels;
use crate::runtime::{Observed, State};

/// What the planner needs besides the two states.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub now: SystemTime,
    pub crash: CrashBackoff,
    /// Container instances (by engine id) whose liveness or startup probe failed for good: the
    /// kubelet kills them, and their restart policy decides what follows.
    pub unhealthy: &'a BTreeSet<String>,
    /// Running container instances (by id) whose startup probe has not passed yet: a sidecar
    /// among them holds back the init containers after it.
    pub not_started: &'a BTreeSet<String>,
    /// App container instances (by id) the driver asks to have replaced for a reason the
    /// kubelet does not have: `--auto-update` found their image moved, or is rolling it back.
    /// Replaced as a changed spec is (stopped with their hooks and grace, made again).
    pub replace: &'a BTreeSet<String>,
}

/// Stop (with the pod's grace period) and remove a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub container: Observed,
    pub reason: Reason,
}

/// Why a container is made or removed, as the events say it.
pub type Reason = std::borrow::Cow<'static, str>;

/// What to do with one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Create instance number `attempt`, then start it.
    Create { attempt: u32, reason: Reason },
    /// Start an instance that was created but never started (an interrupted earlier run).
    /// `attempt`: its instance number, so its configuration can be made again as it was
    /// created (its sub-path mounts are prepared anew before the start).
    Start { id: String, attempt: u32 },
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

/// A container that must be restarted, but not before `until` (CrashLoopBackOff).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackOff {
    pub container: String,
    pub until: SystemTime,
    pub delay: Duration,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Images to make present first; if one cannot be had, nothing else is done.
    pub images: Vec<ImageNeed>,
    /// Containers to stop (and keep): sidecars once every app container finished for good,
    /// and containers whose liveness probe failed.
    pub stop: Vec<Observed>,
    pub remove: Vec<Removal>,
    pub infra: Option<ContainerStep>,
    /// Init containers to create or start, in order.
    pub init: Vec<ContainerStep>,
    pub apps: Vec<ContainerStep>,
    /// Restarts held back by the crash backoff.
    pub backoff: Vec<BackOff>,
    /// Running containers whose resources are changed in place (`resize`).
    pub resize: Vec<Observed>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.stop.is_empty()
            && self.remove.is_empty()
            && self.resize.is_empty()
            && self.infra.is_none()
            && self.init.is_empty()
            && self.apps.is_empty()
    }

    /// Whether carrying it out repairs something (a restart, a replacement, a removal) rather
    /// than making progress (a container's first instance): repairs use up the retries.
    pub fn is_repair(&self) -> bool {
        !self.remove.is_empty()
            || self.infra.iter().chain(&self.init).chain(&self.apps).any(|s| match s.step {
                Step::Create { attempt, .. } => attempt > 0,
                Step::Start { .. } => false,
            })
    }

    /// When the earliest held-back restart may go ahead.
    pub fn next_restart(&self) -> Option<SystemTime> {
        self.backoff.iter().map(|b| b.until).min()
    }
}

fn create(c: &DesiredContainer, inst: &Instances, reason: impl Into<Reason>) -> ContainerStep {
    let reason = reason.into();
    ContainerStep { container: c.name.clone(), step: Step::Create { attempt: inst.next_attempt(), reason } }
}

fn start(c: &DesiredContainer, cur: &Observed) -> ContainerStep {
    ContainerStep { container: c.name.clone(), step: Step::Start { id: cur.id.clone(), attempt: attempt_of(cur) } }
}

fn remove(c: &Observed, reason: impl Into<Reason>) -> Removal {
    Removal { container: c.clone(), reason: reason.into() }
}

/// Whether the pod's infra container must be (re)created, and why.
fn infra_needs_create(desired: &DesiredPod, infra: &Instances) -> Option<&'static str> {
    let Some(c) = &infra.current else { return Some("the pod has no infra container") };
    if c.label(labels::SPEC_HASH) != Some(desired.infra.spec_hash.as_str()) {
        return Some("the pod's spec changed");
    }
    match c.state {
        State::Running { .. } | State::Created => None,
        _ => Some("the infra container is not running"),
    }
}

/// Whether any container has run before in this pod (a restart policy may forbid a rerun).
fn has_run(obs: &PodObservation) -> bool {
    obs.containers
        .values()
        .any(|i| i.current.as_ref().is_some_and(|c| c.state != State::Created) || i.previous.is_some())
}

fn exit_code(c: &Observed) -> Option<i64> {
    match c.state {
        State::Exited { exit_code, .. } => Some(exit_code),
        State::Dead => Some(137),
        _ => None,
    }
}

/// Every app container has terminated and will not be restarted.
fn apps_done(desired: &DesiredPod, obs: &PodObservation) -> bool {
    desired.containers.iter().all(|c| {
        obs.get(&c.name).current.as_ref().and_then(exit_code).is_some_and(|code| !desired.restarts_after(c, code))
    })
}

/// Whether the pod may bring a container back after an exit (kuberuntime_manager.go:
/// shouldRestartOnFailure): its policy is not Never, or an app container's own policy or
/// rules may restart it.
fn restarts_on_failure(desired: &DesiredPod) -> bool {
    desired.restart_policy != RestartPolicy::Never || desired.containers.iter().any(|c| desired.may_restart(c))
}

pub fn plan(desired: &DesiredPod, obs: &PodObservation, ctx: &Context) -> Plan {
    let mut p = Plan { remove: obs.stale.iter().map(|(c, why)| remove(c, *why)).collect(), ..Plan::default() };
    let fresh = match infra_needs_create(desired, &obs.infra) {
        Some(why) => {
            let infra_dead = obs.infra.current.as_ref().is_some_and(Observed::is_dead);
            // The kubelet does not bring a finished pod back under Never: its containers ran.
            if infra_dead && !restarts_on_failure(desired) && has_run(obs) {
                return p;
            }
            // A new infra container means every container starts over, as the kubelet does.
            p.remove.extend(obs.infra.current.iter().map(|c| remove(c, why)));
            for inst in obs.containers.values() {
                p.remove.extend(inst.current.iter().map(|c| remove(c, "the pod's infra container is being recreated")));
            }
            p.infra = Some(create(&desired.infra, &obs.infra, why));
            true
        }
        None => {
            if let Some(cur @ Observed { state: State::Created, .. }) = &obs.infra.current {
                p.infra = Some(start(&desired.infra, cur));
            }
            false
        }
    };
    let done = !fresh && apps_done(desired, obs);
    let init = init::InitPass { desired, obs, ctx, fresh, done };
    if init.steps(&mut p) {
        for c in &desired.containers {
            let inst = obs.get(&c.name);
            if fresh {
                p.apps.push(create(c, inst, "the pod is being created"));
            } else if let Some(step) = app_step(desired, c, inst, ctx, &mut p) {
                p.apps.push(step);
            }
        }
    }
    if done {
        // The pod has finished: its sidecars are stopped, as the kubelet stops them.
        for c in desired.init.iter().filter(|c| c.sidecar) {
            p.stop.extend(obs.get(&c.name).current.iter().filter(|c| c.is_running()).cloned());
        }
    }
    p.images = images_for(desired, &p);
    p
}

fn app_step(
    desired: &DesiredPod,
    c: &DesiredContainer,
    inst: &Instances,
    ctx: &Context,
    p: &mut Plan,
) -> Option<ContainerStep> {
    let Some(cur) = &inst.current else { return Some(create(c, inst, "the container does not exist")) };
    let why = if cur.label(labels::SPEC_HASH) != Some(c.spec_hash.as_str()) {
        Some("its spec changed")
    } else {
        ctx.replace.contains(&cur.id).then_some("its image was updated")
    };
    if let Some(why) = why {
        p.remove.push(remove(cur, why));
        // The replaced instance is gone; the kept dead one (if any) stays as lastState.
        return Some(create(c, inst, why));
    }
    if cur.is_running() && !ctx.unhealthy.contains(&cur.id) {
        match resize::need(desired, c, cur) {
            resize::Need::Nothing => {}
            resize::Need::InPlace => p.resize.push(cur.clone()),
            resize::Need::Restart(why) => {
                p.remove.push(remove(cur, why.clone()));
                return Some(create(c, inst, why));
            }
        }
    }
    match &cur.state {
        // The kubelet kills a container whose liveness probe failed and, unless the policy is
        // Never, starts a new one whatever the exit code of the killed one.
        State::Running { .. } if ctx.unhealthy.contains(&cur.id) => {
            p.stop.push(cur.clone());
            desired.restarts_after_kill(c).then(|| {
                p.remove.extend(inst.previous.iter().map(|prev| remove(prev, "an older instance")));
                create(c, inst, "liveness probe failed")
            })
        }
        State::Created => Some(start(c, cur)),
        State::Exited { .. } | State::Dead => {
            let code = exit_code(cur).unwrap_or(1);
            if desired.restarts_after(c, code) {
                restart(c, inst, cur, ctx, p)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// A restart of `cur`, unless the crash backoff holds it back (then it is recorded in
/// `p.backoff`). The exited instance becomes the one dead instance kept; an older one goes.
fn restart(
    c: &DesiredContainer,
    inst: &Instances,
    cur: &Observed,
    ctx: &Context,
    p: &mut Plan,
) -> Option<ContainerStep> {
    if let Some((until, delay)) = ctx.crash.hold(cur, ctx.now) {
        p.backoff.push(BackOff { container: c.name.clone(), until, delay });
        return None;
    }
    p.remove.extend(inst.previous.iter().map(|prev| remove(prev, "an older instance")));
    Some(create(c, inst, "restart policy"))
}

/// One entry per distinct image among the containers the plan creates, and the images of the
/// image volumes they mount (the kubelet pulls those, by their own pull policy, before it starts
/// a container). (The infra image is podrun's own, built locally by the driver, never pulled.)
fn images_for(desired: &DesiredPod, p: &Plan) -> Vec<ImageNeed> {
    let mut needs: Vec<ImageNeed> = Vec::new();
    for step in p.init.iter().chain(&p.apps) {
        if !matches!(step.step, Step::Create { .. }) {
            continue;
        }
        let Some(c) = desired.find(&step.container) else { continue };
        need(&mut needs, &c.image, c.pull_policy, &c.name);
        for (image, policy) in image_volumes(&desired.manifest, &c.name) {
            need(&mut needs, image, policy, &c.name);
        }
    }
    needs
}

fn need(needs: &mut Vec<ImageNeed>, image: &str, policy: PullPolicy, container: &str) {
    match needs.iter_mut().find(|n| n.image == image) {
        Some(n) => {
            if !n.containers.iter().any(|c| c == container) {
                n.containers.push(container.to_owned());
            }
            // The strictest wins: if any user of the image wants it pulled, pull it once.
            if policy == PullPolicy::Always {
                n.policy = PullPolicy::Always;
            }
        }
        None => needs.push(ImageNeed { image: image.to_owned(), policy, containers: vec![container.to_owned()] }),
    }
}

/// The images (and pull policies) of the image volumes the container named `container` mounts.
fn image_volumes<'a>(pod: &'a crate::manifest::types::Pod, container: &str) -> Vec<(&'a str, PullPolicy)> {
    let Some((_, c, _)) = pod.spec.all_containers().find(|(_, c, _)| c.name == container) else { return Vec::new() };
    let mounted = |name: &str| c.volume_mounts.iter().any(|m| m.name == name);
    (pod.spec.volumes.iter())
        .filter(|v| mounted(&v.name))
        .filter_map(|v| v.image.as_ref())
        .map(|i| {
            let policy = i.pull_policy.unwrap_or_else(|| crate::manifest::defaults::default_pull_policy(&i.reference));
            (i.reference.as_str(), policy)
        })
        .collect()
}
