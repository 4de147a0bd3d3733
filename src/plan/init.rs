//! The init containers' part of a plan (kuberuntime_manager.go: computeInitContainerActions):
//! one at a time, in order, the regular ones each run to completion, the sidecars kept going
//! beside the ones after them.

use crate::pod::observed::{Instances, PodObservation};
use crate::pod::{DesiredContainer, DesiredPod};
use crate::runtime::labels;
use crate::runtime::{Observed, State};

use super::{create, exit_code, remove, restart, start, Context, Plan};

/// What the init containers' steps are planned from.
pub(super) struct InitPass<'a, 'c> {
    pub desired: &'a DesiredPod,
    pub obs: &'a PodObservation,
    pub ctx: &'a Context<'c>,
    /// The pod's infra container is being (re)created: every container starts over.
    pub fresh: bool,
    /// Every app container has finished for good.
    pub done: bool,
}

impl InitPass<'_, '_> {
    /// Plans the init containers, in order. Returns whether initialization is over, so the app
    /// containers may be started.
    pub fn steps(&self, p: &mut Plan) -> bool {
        let initialized = self.initialized();
        for (i, c) in self.desired.init.iter().enumerate() {
            // A later init container that ran says this one ran to completion: the kubelet goes
            // by the last one it sees, as the earlier ones may have been removed.
            let ran_before = initialized
                || (!self.fresh && self.desired.init[i + 1..].iter().any(|l| self.obs.get(&l.name).current.is_some()));
            if ran_before && !c.sidecar {
                continue;
            }
            if !self.step(c, ran_before, p) {
                return false;
            }
        }
        true
    }

    /// An app container created or running means the pod was initialized, whatever is left of
    /// its init containers (they may have been removed since): the kubelet does not run them
    /// again (computeInitContainerActions), only keeps its sidecars going. An exited app
    /// container does not say so: after a reboot every container has exited.
    fn initialized(&self) -> bool {
        !self.fresh
            && self.desired.containers.iter().any(|c| {
                self.obs
                    .get(&c.name)
                    .current
                    .as_ref()
                    .is_some_and(|cur| matches!(cur.state, State::Created | State::Running { .. }))
            })
    }

    /// Plans one init container (`ran_before`: it is known to have run). Returns whether the
    /// ones after it may go ahead in this sync.
    fn step(&self, c: &DesiredContainer, ran_before: bool, p: &mut Plan) -> bool {
        let inst = self.obs.get(&c.name);
        // The next init container may start as soon as a sidecar has started: at once for a
        // sidecar without a startup probe, only after its probe passed for one with (seen
        // in a later sync, through `not_started`).
        let started_once_running =
            c.sidecar && self.desired.manifest_container(c).is_none_or(|m| m.startup_probe.is_none());
        let goes_on = started_once_running || ran_before;
        let current = if self.fresh { None } else { inst.current.as_ref() };
        let Some(cur) = current else {
            let why = if self.fresh { "the pod is being created" } else { "the container does not exist" };
            p.init.push(create(c, inst, why));
            return goes_on;
        };
        // A sidecar whose spec changed is restarted with the new one, alone.
        let changed = c.sidecar && cur.label(labels::SPEC_HASH) != Some(c.spec_hash.as_str());
        if changed && matches!(cur.state, State::Running { .. } | State::Created) {
            p.remove.push(remove(cur, "its spec changed"));
            p.init.push(create(c, inst, "its spec changed"));
            return goes_on;
        }
        match (&cur.state, c.sidecar) {
            (State::Created, _) => {
                p.init.push(start(c, cur));
                goes_on
            }
            (State::Running { .. }, true) => self.running_sidecar(c, inst, cur, ran_before, p),
            (State::Running { .. }, false) => false,
            (State::Exited { .. } | State::Dead, true) => {
                if !self.done {
                    if let Some(step) = restart(c, inst, cur, self.ctx, p) {
                        p.init.push(step);
                    }
                }
                true
            }
            (State::Exited { exit_code: 0, .. }, false) => true,
            (State::Exited { .. } | State::Dead, false) => {
                self.failed(c, inst, cur, p);
                false
            }
            (State::Other(_), sidecar) => sidecar,
        }
    }

    /// A running sidecar: restarted if its liveness probe failed, whatever the pod's policy.
    /// Returns whether the init containers after it may go ahead: once it has started, its
    /// startup probe, if it has one, passed.
    fn running_sidecar(
        &self,
        c: &DesiredContainer,
        inst: &Instances,
        cur: &Observed,
        ran_before: bool,
        p: &mut Plan,
    ) -> bool {
        if self.ctx.unhealthy.contains(&cur.id) {
            p.stop.push(cur.clone());
            p.remove.extend(inst.previous.iter().map(|prev| remove(prev, "an older instance")));
            p.init.push(create(c, inst, "liveness probe failed"));
        }
        !self.ctx.not_started.contains(&cur.id) || ran_before
    }

    /// A failed init container: if its restart policy (its own, else the pod's) or a rule does
    /// not restart it, the pod has failed (the verdict says so); otherwise it is retried, and
    /// nothing after it starts meanwhile.
    fn failed(&self, c: &DesiredContainer, inst: &Instances, cur: &Observed, p: &mut Plan) {
        if self.desired.restarts_after(c, exit_code(cur).unwrap_or(1)) {
            if let Some(step) = restart(c, inst, cur, self.ctx, p) {
                p.init.push(step);
            }
        }
    }
}
