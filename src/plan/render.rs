//! A plan in words, for `apply --dry-run`: one line per action, naming containers and reasons
//! only (never environment, arguments or any other value a manifest may hold secrets in).

use std::collections::BTreeSet;
use std::fmt::Write;

use super::{ContainerStep, Plan, Step};
use crate::manifest::types::PullPolicy;
use crate::runtime::labels;
use crate::runtime::Observed;

fn name_of(c: &Observed) -> &str {
    c.label(labels::CONTAINER_NAME).unwrap_or(labels::INFRA_CONTAINER_NAME)
}

fn step_line(s: &ContainerStep, what: &str) -> String {
    match &s.step {
        Step::Create { attempt, reason } if *attempt > 0 || *reason == "its spec changed" => {
            format!("recreate {what} {}: {reason}", s.container)
        }
        Step::Create { reason, .. } => format!("create {what} {}: {reason}", s.container),
        Step::Start { .. } => format!("start {what} {} (created, never started)", s.container),
    }
}

/// What `plan` would do to the pod `key`: a heading line, then one indented line per action.
/// `missing` holds the images that are not present in the engine.
pub fn render(key: &str, plan: &Plan, missing: &BTreeSet<String>) -> String {
    let mut lines = Vec::new();
    for i in &plan.images {
        let users = i.containers.join(", ");
        match (i.policy, missing.contains(&i.image)) {
            (PullPolicy::Always, _) => {
                lines.push(format!("pull image {} for {users} (imagePullPolicy Always)", i.image))
            }
            (PullPolicy::Never, true) => {
                lines.push(format!("image {} for {users} is missing and imagePullPolicy is Never", i.image))
            }
            (_, true) => lines.push(format!("pull image {} for {users} (not present)", i.image)),
            (_, false) => {}
        }
    }
    for c in &plan.stop {
        lines.push(format!("stop container {}", name_of(c)));
    }
    for r in &plan.remove {
        lines.push(format!("remove container {}: {}", name_of(&r.container), r.reason));
    }
    lines.extend(plan.infra.iter().map(|s| step_line(s, "infra container")));
    lines.extend(plan.init.iter().map(|s| step_line(s, "init container")));
    lines.extend(plan.apps.iter().map(|s| step_line(s, "container")));
    for b in &plan.backoff {
        lines.push(format!("restart container {} after its crash backoff ({:?})", b.container, b.delay));
    }
    let mut out = String::new();
    if lines.is_empty() {
        let _ = writeln!(out, "pod {key}: up to date, nothing to do");
    } else {
        let _ = writeln!(out, "pod {key}: would");
        for l in lines {
            let _ = writeln!(out, "  {l}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use super::*;
    use crate::plan::{BackOff, ImageNeed, Removal};
    use crate::runtime::State;

    fn observed(name: &str) -> Observed {
        Observed {
            id: "abc".into(),
            name: format!("k8s_{name}_p"),
            labels: BTreeMap::from([(labels::CONTAINER_NAME.to_owned(), name.to_owned())]),
            image: "busybox".into(),
            image_id: String::new(),
            state: State::Running { started_at: None },
            ip: None,
            gateway: None,
            sealed: true,
        }
    }

    #[test]
    fn an_empty_plan_says_nothing_to_do() {
        assert_eq!(render("ns/p", &Plan::default(), &BTreeSet::new()), "pod ns/p: up to date, nothing to do\n");
    }

    #[test]
    fn every_action_gets_a_line_with_names_and_reasons() {
        let plan = Plan {
            images: vec![
                ImageNeed {
                    image: "busybox:1.28".into(),
                    policy: PullPolicy::IfNotPresent,
                    containers: vec!["a".into()],
                },
                ImageNeed { image: "here:1".into(), policy: PullPolicy::IfNotPresent, containers: vec!["b".into()] },
            ],
            stop: vec![observed("side")],
            remove: vec![Removal { container: observed("a"), reason: "its spec changed" }],
            infra: Some(ContainerStep {
                container: "POD".into(),
                step: Step::Create { attempt: 0, reason: "the pod has no infra container" },
            }),
            init: vec![ContainerStep { container: "i".into(), step: Step::Start { id: "x".into(), attempt: 0 } }],
            apps: vec![
                ContainerStep { container: "a".into(), step: Step::Create { attempt: 1, reason: "its spec changed" } },
                ContainerStep {
                    container: "b".into(),
                    step: Step::Create { attempt: 0, reason: "the pod is being created" },
                },
            ],
            backoff: vec![BackOff {
                container: "c".into(),
                until: std::time::UNIX_EPOCH,
                delay: Duration::from_secs(2),
            }],
        };
        let out = render("ns/p", &plan, &BTreeSet::from(["busybox:1.28".to_owned()]));
        assert_eq!(
            out,
            "pod ns/p: would\n\
             \x20 pull image busybox:1.28 for a (not present)\n\
             \x20 stop container side\n\
             \x20 remove container a: its spec changed\n\
             \x20 create infra container POD: the pod has no infra container\n\
             \x20 start init container i (created, never started)\n\
             \x20 recreate container a: its spec changed\n\
             \x20 create container b: the pod is being created\n\
             \x20 restart container c after its crash backoff (2s)\n"
        );
    }
}
