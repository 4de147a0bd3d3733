//! A plan in words, for `apply --dry-run`: one line per action, naming containers and reasons
//! only (never environment, arguments or any other value a manifest may hold secrets in).

use std::collections::BTreeSet;
use std::fmt::Write;

use super::{ContainerStep, ImageNeed, Plan, Step};
use crate::escape::Escaped;
use crate::manifest::types::{PullPolicy, Volume};
use crate::pod::volumes::claim_volume;
use crate::pod::DesiredPod;
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

/// The lines of one plan's actions (its images aside).
fn action_lines(plan: &Plan) -> Vec<String> {
    let mut lines = Vec::new();
    for c in &plan.stop {
        lines.push(format!("stop container {}", name_of(c)));
    }
    for r in &plan.remove {
        lines.push(format!("remove container {}: {}", name_of(&r.container), r.reason));
    }
    for c in &plan.resize {
        lines.push(format!("resize container {} in place: its resources changed", name_of(c)));
    }
    lines.extend(plan.infra.iter().map(|s| step_line(s, "infra container")));
    lines.extend(plan.init.iter().map(|s| step_line(s, "init container")));
    lines.extend(plan.apps.iter().map(|s| step_line(s, "container")));
    for b in &plan.backoff {
        lines.push(format!("restart container {} after its crash backoff ({:?})", b.container, b.delay));
    }
    lines
}

/// Every image the plans need, once each, with what would be done about it: so an air-gapped
/// host knows every image it must have.
fn image_lines(plans: &[Plan], missing: &BTreeSet<String>) -> Vec<String> {
    let mut needs: Vec<ImageNeed> = Vec::new();
    for i in plans.iter().flat_map(|p| &p.images) {
        match needs.iter_mut().find(|n| n.image == i.image) {
            Some(n) => {
                for c in &i.containers {
                    if !n.containers.contains(c) {
                        n.containers.push(c.clone());
                    }
                }
                if i.policy == PullPolicy::Always {
                    n.policy = PullPolicy::Always;
                }
            }
            None => needs.push(i.clone()),
        }
    }
    needs
        .iter()
        .map(|i| {
            let users = i.containers.join(", ");
            match (i.policy, missing.contains(&i.image)) {
                (PullPolicy::Always, _) => format!("pull image {} for {users} (imagePullPolicy Always)", i.image),
                (PullPolicy::Never, true) => {
                    format!("image {} for {users} is missing and imagePullPolicy is Never", i.image)
                }
                (_, true) => format!("pull image {} for {users} (not present)", i.image),
                (policy, false) => format!("use image {} for {users} (present; imagePullPolicy {policy:?})", i.image),
            }
        })
        .collect()
}

/// What a volume is made of: names and paths from the manifest, never contents.
fn volume_line(v: &Volume, namespace: &str) -> String {
    let what = if let Some(e) = &v.empty_dir {
        match e.medium.as_deref() {
            Some("Memory") => "emptyDir on memory (tmpfs)".to_owned(),
            _ => "emptyDir (a directory of the pod's)".to_owned(),
        }
    } else if let Some(h) = &v.host_path {
        format!("hostPath {}", h.path)
    } else if let Some(c) = &v.config_map {
        format!("configMap {}", c.name)
    } else if let Some(s) = &v.secret {
        format!("secret {}", s.secret_name)
    } else if v.downward_api.is_some() {
        "downwardAPI".to_owned()
    } else if let Some(p) = &v.projected {
        format!("projected ({} sources)", p.sources.len())
    } else if let Some(c) = &v.persistent_volume_claim {
        format!(
            "persistentVolumeClaim {} (engine volume {})",
            c.claim_name,
            claim_volume(namespace, &c.claim_name).name
        )
    } else {
        v.other_sources.keys().next().cloned().unwrap_or_else(|| "no source".to_owned())
    };
    format!("volume {}: {what}", v.name)
}

/// What the `plans` (see `rollout`) would do to the pod `desired`: a heading line, then one
/// indented line per image, per action (those after the first sync's marked `then`), and per
/// volume. `missing` holds the images that are not present in the engine. Names, images and
/// paths come from the manifest and the engine: each line is escaped (`crate::escape`).
pub fn render(desired: &DesiredPod, plans: &[Plan], missing: &BTreeSet<String>) -> String {
    let key = format!("{}/{}", Escaped(&desired.namespace), Escaped(&desired.name));
    let mut lines = image_lines(plans, missing);
    for (i, p) in plans.iter().enumerate() {
        let then = if i == 0 { "" } else { "then " };
        lines.extend(action_lines(p).into_iter().map(|l| format!("{then}{l}")));
    }
    let mut out = String::new();
    if plans.iter().all(|p| action_lines(p).is_empty()) {
        let _ = writeln!(out, "pod {key}: up to date, nothing to do");
        return out;
    }
    let _ = writeln!(out, "pod {key}: would");
    let volumes = desired.manifest.spec.volumes.iter().map(|v| volume_line(v, &desired.namespace));
    for l in lines.into_iter().chain(volumes) {
        let _ = writeln!(out, "  {}", Escaped(l));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use super::*;
    use crate::manifest::{load, LoadOptions, Source};
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
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    fn desired(volumes: &str) -> DesiredPod {
        let yaml = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns}}\nspec:\n  containers:\n  - {{name: a, image: 'img:1'}}\n{volumes}"
        );
        let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
        DesiredPod::from_loaded(&loaded.pods[0], "pause", None)
    }

    #[test]
    fn an_empty_plan_says_nothing_to_do() {
        let out = render(&desired(""), &[Plan::default()], &BTreeSet::new());
        assert_eq!(out, "pod ns/p: up to date, nothing to do\n");
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
            remove: vec![Removal { container: observed("a"), reason: "its spec changed".into() }],
            infra: Some(ContainerStep {
                container: "POD".into(),
                step: Step::Create { attempt: 0, reason: "the pod has no infra container".into() },
            }),
            init: vec![ContainerStep { container: "i".into(), step: Step::Start { id: "x".into(), attempt: 0 } }],
            apps: vec![
                ContainerStep {
                    container: "a".into(),
                    step: Step::Create { attempt: 1, reason: "its spec changed".into() },
                },
                ContainerStep {
                    container: "b".into(),
                    step: Step::Create { attempt: 0, reason: "the pod is being created".into() },
                },
            ],
            backoff: vec![BackOff {
                container: "c".into(),
                until: std::time::UNIX_EPOCH,
                delay: Duration::from_secs(2),
            }],
            resize: vec![observed("e")],
        };
        let later = Plan {
            images: vec![ImageNeed {
                image: "busybox:1.28".into(),
                policy: PullPolicy::Always,
                containers: vec!["d".into()],
            }],
            apps: vec![ContainerStep {
                container: "d".into(),
                step: Step::Create { attempt: 0, reason: "the pod is being created".into() },
            }],
            ..Plan::default()
        };
        let volumes = "  volumes:\n  - {name: data, persistentVolumeClaim: {claimName: db}}\n  - {name: scratch, emptyDir: {}}\n  - {name: token, secret: {secretName: api}}\n";
        let out = render(&desired(volumes), &[plan, later], &BTreeSet::from(["busybox:1.28".to_owned()]));
        assert_eq!(
            out,
            "pod ns/p: would\n\
             \x20 pull image busybox:1.28 for a, d (imagePullPolicy Always)\n\
             \x20 use image here:1 for b (present; imagePullPolicy IfNotPresent)\n\
             \x20 stop container side\n\
             \x20 remove container a: its spec changed\n\
             \x20 resize container e in place: its resources changed\n\
             \x20 create infra container POD: the pod has no infra container\n\
             \x20 start init container i (created, never started)\n\
             \x20 recreate container a: its spec changed\n\
             \x20 create container b: the pod is being created\n\
             \x20 restart container c after its crash backoff (2s)\n\
             \x20 then create container d: the pod is being created\n\
             \x20 volume data: persistentVolumeClaim db (engine volume podrun-ns-db)\n\
             \x20 volume scratch: emptyDir (a directory of the pod's)\n\
             \x20 volume token: secret api\n"
        );
    }
}
