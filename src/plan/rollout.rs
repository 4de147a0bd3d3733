//! The whole way from what the engine shows to the pod started, for `apply --dry-run`: one sync
//! plans only what can be done now (the infra container and the first init container of a new
//! pod), so the plans after it are found by carrying each out on a copy of the observation, as
//! if every step succeeded (an init container runs to completion, every other container
//! starts), and planning again. Nothing here talks to an engine.

use std::collections::BTreeMap;

use super::{plan, Context, Plan, Step};
use crate::pod::observed::PodObservation;
use crate::pod::{DesiredPod, Role};
use crate::runtime::labels;
use crate::runtime::{Observed, State};

/// The plans one after another until the pod is started (or nothing more can be done without
/// waiting: a crash backoff, a container to finish). The first is what a sync does now.
pub fn rollout(desired: &DesiredPod, observed: &[Observed], ctx: &Context) -> Vec<Plan> {
    let mut now: Vec<Observed> = observed.to_vec();
    let mut plans = Vec::new();
    // Each round makes at least one container: more rounds than containers means no progress.
    let rounds = desired.init.len() + desired.containers.len() + 2;
    for round in 0..rounds {
        let p = plan(desired, &PodObservation::new(desired, &now), ctx);
        if p.is_empty() {
            if round == 0 {
                plans.push(p);
            }
            break;
        }
        carry_out(desired, &p, &mut now, round);
        plans.push(p);
    }
    plans
}

/// `p` done, as it would be if every step succeeded.
fn carry_out(desired: &DesiredPod, p: &Plan, now: &mut Vec<Observed>, round: usize) {
    let exited = State::Exited { exit_code: 0, started_at: None, finished_at: None, oom_killed: false, error: None };
    for c in now.iter_mut().filter(|c| p.stop.iter().any(|s| s.id == c.id)) {
        c.state = exited.clone();
    }
    now.retain(|c| !p.remove.iter().any(|r| r.container.id == c.id));
    for (i, step) in p.infra.iter().chain(&p.init).chain(&p.apps).enumerate() {
        let Some(c) = desired.find(&step.container) else { continue };
        // A regular init container runs to completion; everything else keeps running.
        let state =
            if c.role == Role::Init && !c.sidecar { exited.clone() } else { State::Running { started_at: None } };
        match &step.step {
            Step::Start { id, .. } => {
                if let Some(o) = now.iter_mut().find(|o| o.id == *id) {
                    o.state = state;
                }
            }
            Step::Create { attempt, .. } => {
                let mut l = BTreeMap::new();
                for key in labels::SEALED {
                    l.insert((*key).to_owned(), String::new());
                }
                l.insert(labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned());
                l.insert(labels::POD_UID.to_owned(), desired.uid.clone());
                l.insert(labels::CONTAINER_NAME.to_owned(), c.name.clone());
                l.insert(labels::SPEC_HASH.to_owned(), c.spec_hash.clone());
                l.insert(labels::ROLE.to_owned(), c.role.as_str().to_owned());
                l.insert(labels::ATTEMPT.to_owned(), attempt.to_string());
                // The runtime of the pod's other containers: a dry run makes none.
                let scheme = now.first().map(|o| o.scheme.clone()).unwrap_or_default();
                now.push(Observed {
                    id: format!("dry-run-{round}-{i}"),
                    name: format!("{}-{attempt}", c.name),
                    labels: l,
                    image: c.image.clone(),
                    image_id: String::new(),
                    state,
                    ip: None,
                    gateway: None,
                    sealed: true,
                    scheme,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::time::SystemTime;

    use super::*;
    use crate::manifest::{load, LoadOptions, Source};
    use crate::plan::CrashBackoff;

    fn desired(yaml: &str) -> DesiredPod {
        let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
        DesiredPod::from_loaded(&loaded.pods[0], "localhost/podrun-pause:test", None)
    }

    fn names(p: &Plan) -> Vec<String> {
        p.infra.iter().chain(&p.init).chain(&p.apps).map(|s| s.container.clone()).collect()
    }

    #[test]
    fn a_new_pod_is_planned_to_the_end_init_containers_one_by_one() {
        let d = desired(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - {name: i1, image: 'a:1'}\n  - {name: side, image: 's:1', restartPolicy: Always}\n  - {name: i2, image: 'b:1'}\n  containers:\n  - {name: app, image: 'c:1'}\n  - {name: two, image: 'c:1'}\n",
        );
        let none = BTreeSet::new();
        let ctx = Context {
            now: SystemTime::now(),
            crash: CrashBackoff::default(),
            unhealthy: &none,
            not_started: &none,
            replace: &none,
        };
        let plans = rollout(&d, &[], &ctx);
        let steps: Vec<Vec<String>> = plans.iter().map(names).collect();
        assert_eq!(steps, [vec!["POD", "i1"], vec!["side", "i2"], vec!["app", "two"]]);
        let images: Vec<&str> = plans.iter().flat_map(|p| &p.images).map(|i| i.image.as_str()).collect();
        assert_eq!(images, ["a:1", "s:1", "b:1", "c:1"]);
        // A started pod: one empty plan.
        let mut now = Vec::new();
        for (round, p) in plans.iter().enumerate() {
            carry_out(&d, p, &mut now, round);
        }
        let again = rollout(&d, &now, &ctx);
        assert_eq!(again.len(), 1);
        assert!(again[0].is_empty());
    }
}
