//! What apply waits for by default, and its verdict, as one named table after the kubelet's
//! TestComputePodActions style: each case is a pod (its restartPolicy, its containers' own
//! `restartPolicy` and `restartPolicyRules`, after Kubernetes' e2e restart-policy pods), what
//! its two app containers show, the goal `WaitFor::default_for` picks, and the verdict.

use std::time::{Duration, SystemTime};

use super::compute::{verdict, Verdict, WaitFor};
use super::{fixtures, ContainerState, ContainerStatus, Phase, PodStatus};
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::DesiredPod;

/// What a container shows.
#[derive(Debug, Clone, Copy)]
enum Seen {
    Up,
    Exited(i64),
    /// Waiting out its backoff after an exit with this code.
    BackOff(i64),
}

struct Case {
    name: &'static str,
    policy: &'static str,
    /// `a`'s and `b`'s own settings, as YAML flow-mapping entries.
    own: [&'static str; 2],
    /// With a native sidecar before them.
    sidecar: bool,
    seen: [Seen; 2],
    goal: WaitFor,
    /// `None`: done; `Some("")`: pending; `Some(name)`: that container failed.
    want: Option<&'static str>,
}

const PENDING: Option<&str> = Some("");

fn case(
    name: &'static str,
    policy: &'static str,
    own: [&'static str; 2],
    seen: [Seen; 2],
    goal: WaitFor,
    want: Option<&'static str>,
) -> Case {
    Case { name, policy, own, sidecar: false, seen, goal, want }
}

const ALWAYS: &str = ", restartPolicy: Always";
const NEVER: &str = ", restartPolicy: Never";
const ON_FAILURE: &str = ", restartPolicy: OnFailure";

fn cases() -> Vec<Case> {
    [pod_policy_cases(), own_policy_cases(), rule_cases()].into_iter().flatten().collect()
}

/// The pod's restartPolicy alone: one goal for every container.
fn pod_policy_cases() -> Vec<Case> {
    use Seen::{BackOff, Exited, Up};
    use WaitFor::{Complete, Running};
    vec![
        case("Always pod, both up: running", "Always", ["", ""], [Up, Up], Running, None),
        case("Always pod, a restarting: not yet", "Always", ["", ""], [BackOff(1), Up], Running, PENDING),
        case("Never pod, both exited 0: complete", "Never", ["", ""], [Exited(0), Exited(0)], Complete, None),
        case("Never pod, b up: not yet", "Never", ["", ""], [Exited(0), Up], Complete, PENDING),
        case("Never pod, a exited 1: failed", "Never", ["", ""], [Exited(1), Up], Complete, Some("a")),
        case("OnFailure pod, a exited 1: restarted", "OnFailure", ["", ""], [Exited(1), Exited(0)], Complete, PENDING),
        case("OnFailure pod, both exited 0", "OnFailure", ["", ""], [Exited(0), Exited(0)], Complete, None),
        // A native sidecar is an init container: the goal is the app containers'.
        Case {
            sidecar: true,
            ..case("Never pod, a sidecar", "Never", ["", ""], [Exited(0), Exited(0)], Complete, None)
        },
    ]
}

/// A container's own restartPolicy (e2e: "should restart container on container-level
/// restart policy Always" in a Never pod, and Never in an Always pod).
fn own_policy_cases() -> Vec<Case> {
    use Seen::{Exited, Up};
    use WaitFor::{Each, Running};
    vec![
        case("Never pod, Always a up, b exited 0: each done", "Never", [ALWAYS, ""], [Up, Exited(0)], Each, None),
        case("Never pod, Always a up, b up: b to end", "Never", [ALWAYS, ""], [Up, Up], Each, PENDING),
        case("Never pod, Always a exited 0: restarted", "Never", [ALWAYS, ""], [Exited(0), Exited(0)], Each, PENDING),
        case("Never pod, Always a up, b exited 1: failed", "Never", [ALWAYS, ""], [Up, Exited(1)], Each, Some("b")),
        case("Never pod, both Always, up: running", "Never", [ALWAYS, ALWAYS], [Up, Up], Running, None),
        case("Always pod, Never a exited 0, b up", "Always", [NEVER, ""], [Exited(0), Up], Each, None),
        case("Always pod, Never a exited 2: failed", "Always", [NEVER, ""], [Exited(2), Up], Each, Some("a")),
        case("Always pod, OnFailure a exited 3: restarted", "Always", [ON_FAILURE, ""], [Exited(3), Up], Each, PENDING),
    ]
}

/// restartPolicyRules (e2e: "should restart container on rule match", "should not restart
/// container on rule mismatch"): 42 restarts, 1 ends.
fn rule_cases() -> Vec<Case> {
    use Seen::{BackOff, Exited, Up};
    use WaitFor::{Complete, Each};
    vec![
        case(
            "rule In [42], exit 42: restarted",
            "Never",
            [RULE_42_NEVER, ""],
            [Exited(42), Exited(0)],
            Complete,
            PENDING,
        ),
        case(
            "rule In [42], backing off: restarted",
            "Never",
            [RULE_42_NEVER, ""],
            [BackOff(42), Exited(0)],
            Complete,
            PENDING,
        ),
        case("rule In [42], exit 1: failed", "Never", [RULE_42_NEVER, ""], [Exited(1), Exited(0)], Complete, Some("a")),
        // OnFailure with a rule that restarts 0 too: every exit is restarted.
        case(
            "OnFailure a with rule In [0]: runs for good",
            "Never",
            [RULE_0_ON_FAILURE, ""],
            [Up, Exited(0)],
            Each,
            None,
        ),
    ]
}

const RULE_42_NEVER: &str = concat!(
    ", restartPolicy: Never",
    ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]"
);
const RULE_0_ON_FAILURE: &str = concat!(
    ", restartPolicy: OnFailure",
    ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [0]}}]"
);

fn desired(c: &Case) -> DesiredPod {
    let side =
        if c.sidecar { "  initContainers:\n  - {name: side, image: 'img:1', restartPolicy: Always}\n" } else { "" };
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  restartPolicy: {}\n{side}  containers:\n  - {{name: a, image: 'img:1'{}}}\n  - {{name: b, image: 'img:1'{}}}\n",
        c.policy, c.own[0], c.own[1]
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    DesiredPod::from_loaded(&loaded.pods[0], "pause", None)
}

fn status(name: &str, seen: Seen) -> ContainerStatus {
    let (state, last_state) = match seen {
        Seen::Up => (fixtures::running(), ContainerState::default()),
        Seen::Exited(code) => (fixtures::exited(code), ContainerState::default()),
        Seen::BackOff(code) => (ContainerState::waiting("CrashLoopBackOff", None), fixtures::exited(code)),
    };
    let restart_count = u32::from(matches!(seen, Seen::BackOff(_)));
    ContainerStatus { last_state, restart_count, image: "img:1".into(), ..fixtures::container(name, state) }
}

#[test]
fn the_default_goal_and_verdict_follow_each_containers_restart_policy() {
    let now = SystemTime::now() + Duration::from_secs(60);
    for c in cases() {
        let d = desired(&c);
        let goal = WaitFor::default_for(&d.apps_restarting_always());
        assert_eq!(goal, c.goal, "{}: goal", c.name);
        let apps = vec![status("a", c.seen[0]), status("b", c.seen[1])];
        let st = PodStatus::assemble(Phase::Running, true, None, None, (vec![], &[]), apps);
        let got = match verdict(&d, &st, true, goal, Duration::from_millis(200), now) {
            Verdict::Done => None,
            Verdict::Pending => PENDING,
            Verdict::Failed { container, .. } => Some(if container == "a" { "a" } else { "b" }),
        };
        assert_eq!(got, c.want, "{}: verdict", c.name);
    }
}
