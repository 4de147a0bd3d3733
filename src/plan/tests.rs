//! The planner's cases as one named table, after the kubelet's TestComputePodActions
//! (kuberuntime_manager_test.go): each case is a pod, what the engine shows of it, and the whole
//! plan expected of the two, without an engine. [`the_planner_plans_every_case`] runs the table
//! and names each case that fails.

use std::collections::BTreeSet;
use std::time::SystemTime;

use super::*;
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::observed::PodObservation;
use crate::runtime::labels;
use crate::runtime::Observed;

const INFRA: &str = "localhost/podrun-pause:test";

fn desired(yaml: &str) -> DesiredPod {
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

// --- the pods the cases start from ---

/// Two app containers, `a` (with `extra` in its mapping) and `b`.
fn two_apps(policy: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  containers:\n  - {{name: a, image: 'img:1'{extra}}}\n  - {{name: b, image: 'img:2'}}\n"
    )
}

/// An init container `i1`, a sidecar `side`, an init container `i2`, then the app container `a`.
fn with_init(policy: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  initContainers:\n  - {{name: i1, image: 'img:1'}}\n  - {{name: side, image: 'img:1', restartPolicy: Always}}\n  - {{name: i2, image: 'img:1'}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
    )
}

/// One regular init container `i1` (with `own` in its mapping) before the app container `a`.
fn one_init(policy: &str, own: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  initContainers:\n  - {{name: i1, image: 'img:1'{own}}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
    )
}

/// [`with_init`] under Always, with `i1` on a new image.
const NEW_I1: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - {name: i1, image: 'img:2'}\n  - {name: side, image: 'img:1', restartPolicy: Always}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";

/// [`with_init`] under Always, with the sidecar on a new image.
const NEW_SIDECAR: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - {name: i1, image: 'img:1'}\n  - {name: side, image: 'img:2', restartPolicy: Always}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";

const SIDECAR_WITH_STARTUP_PROBE: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  initContainers:\n  - name: side\n    image: 'img:1'\n    restartPolicy: Always\n    startupProbe: {exec: {command: ['true']}}\n  - {name: i2, image: 'img:1'}\n  containers:\n  - {name: a, image: 'img:1'}\n";

/// Three containers sharing images under different pull policies.
const SHARED_IMAGES: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: 'x:1'}\n  - {name: b, image: 'x:1', imagePullPolicy: Always}\n  - {name: c, image: 'y:1', imagePullPolicy: Never}\n";

const RULE_42: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]";
const NOT_IN_0_1: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: NotIn, values: [0, 1]}}]";
const RULE_3: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [3]}}]";
const RULE_137: &str = ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [137]}}]";

// --- what the engine shows ---

/// An engine container exactly as podrun would have created it.
fn instance(d: &DesiredPod, name: &str, attempt: u32, state: State) -> Observed {
    let c = d.find(name).unwrap();
    let infra = crate::pod::InfraRef { id: "infra-id".into(), ip: None, host_ip: None };
    let spec = d.create_spec(c, attempt, Some(&infra)).unwrap().0;
    Observed {
        id: format!("{name}-{attempt}"),
        name: spec.name,
        labels: spec.labels,
        image: c.image.clone(),
        image_id: "sha256:1".into(),
        state,
        ip: None,
        gateway: None,
        sealed: true,
        scheme: crate::runtime::IdScheme::default(),
    }
}

fn running() -> State {
    State::Running { started_at: Some("2026-01-01T00:00:00Z".into()) }
}

fn exited(code: i64) -> State {
    State::Exited { exit_code: code, started_at: None, finished_at: None, oom_killed: false, error: None }
}

fn exited_at(code: i64, finished: SystemTime) -> State {
    let t = humantime::format_rfc3339_nanos(finished).to_string();
    State::Exited { exit_code: code, started_at: Some(t.clone()), finished_at: Some(t), oom_killed: false, error: None }
}

/// The time every case is planned at.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

/// [`two_apps`] running, as the engine shows it.
fn running_pod() -> Vec<(&'static str, u32, State)> {
    vec![("POD", 0, running()), ("a", 0, running()), ("b", 0, running())]
}

/// [`two_apps`] running, but `a` exited with `code`.
fn a_exited(code: i64) -> Vec<(&'static str, u32, State)> {
    vec![("POD", 0, running()), ("a", 0, exited(code)), ("b", 0, running())]
}

// --- the plan a case expects ---

/// A step of a plan, as a case states it (without its reason).
#[derive(Debug, PartialEq, Eq)]
enum Act {
    Create { container: String, attempt: u32 },
    Start { container: String, id: String, attempt: u32 },
}

fn create(container: &str, attempt: u32) -> Act {
    Act::Create { container: container.into(), attempt }
}

/// The start of instance `attempt` of `container`, created but never started.
fn start(container: &str, attempt: u32) -> Act {
    Act::Start { container: container.into(), id: format!("{container}-{attempt}"), attempt }
}

/// A plan as a case states it: engine containers by id, steps without their reasons.
#[derive(Debug, Default, PartialEq, Eq)]
struct Actions {
    images: Vec<ImageNeed>,
    stop: Vec<String>,
    remove: Vec<String>,
    infra: Option<Act>,
    init: Vec<Act>,
    apps: Vec<Act>,
    backoff: Vec<BackOff>,
    resize: Vec<String>,
}

impl Actions {
    fn of(p: &Plan) -> Actions {
        let act = |s: &ContainerStep| match &s.step {
            Step::Create { attempt, .. } => Act::Create { container: s.container.clone(), attempt: *attempt },
            Step::Start { id, attempt } => {
                Act::Start { container: s.container.clone(), id: id.clone(), attempt: *attempt }
            }
        };
        let ids = |v: &[Observed]| v.iter().map(|c| c.id.clone()).collect();
        Actions {
            images: p.images.clone(),
            stop: ids(&p.stop),
            remove: p.remove.iter().map(|r| r.container.id.clone()).collect(),
            infra: p.infra.as_ref().map(act),
            init: p.init.iter().map(act).collect(),
            apps: p.apps.iter().map(act).collect(),
            backoff: p.backoff.clone(),
            resize: ids(&p.resize),
        }
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|&s| s.to_owned()).collect()
}

/// An image pulled if not present (the default for a tag other than `latest`) for `containers`.
fn pull(image: &str, containers: &[&str]) -> ImageNeed {
    ImageNeed { image: image.into(), policy: PullPolicy::IfNotPresent, containers: ids(containers) }
}

/// The plan of a restart of `a` in [`two_apps`], its first instance kept for lastState.
fn restart_a() -> Actions {
    Actions { apps: vec![create("a", 1)], images: vec![pull("img:1", &["a"])], ..Actions::default() }
}

/// The plan that makes [`two_apps`] anew after its infra container `POD-0` ended.
fn pod_anew() -> Actions {
    Actions {
        remove: ids(&["POD-0", "a-0", "b-0"]),
        infra: Some(create("POD", 1)),
        apps: vec![create("a", 1), create("b", 1)],
        images: vec![pull("img:1", &["a"]), pull("img:2", &["b"])],
        ..Actions::default()
    }
}

// --- the table ---

struct Case {
    name: String,
    /// The manifest the pod is planned from.
    pod: String,
    /// The manifest the containers the engine shows were made from, when not `pod` (its spec
    /// changed since).
    made_from: Option<String>,
    /// What the planned pod has beyond its manifest (what the engine can do), as the kubelet's
    /// mutatePodFn.
    mutate_pod: fn(&mut DesiredPod),
    /// What the engine shows, as podrun made it: container, attempt, state.
    seen: Vec<(&'static str, u32, State)>,
    /// What the engine shows beyond that (foreign labels, ids, seals), as the kubelet's
    /// mutateStatusFn.
    mutate_seen: fn(&mut Vec<Observed>),
    /// Instances whose liveness probe failed for good.
    unhealthy: Vec<&'static str>,
    /// Running instances whose startup probe has not passed yet.
    not_started: Vec<&'static str>,
    /// Instances the driver asks to have replaced (an image `--auto-update` moved).
    replace: Vec<&'static str>,
    crash: CrashBackoff,
    want: Actions,
}

/// [`two_apps`] under Always, running, nothing probed: the case the others change.
fn base(name: impl Into<String>) -> Case {
    Case {
        name: name.into(),
        pod: two_apps("Always", ""),
        made_from: None,
        mutate_pod: |_| {},
        seen: running_pod(),
        mutate_seen: |_| {},
        unhealthy: Vec::new(),
        not_started: Vec::new(),
        replace: Vec::new(),
        crash: CrashBackoff::default(),
        want: Actions::default(),
    }
}

fn cases() -> Vec<Case> {
    let mut cases = pod_cases();
    cases.extend(restart_cases());
    cases.extend(init_cases());
    cases.extend(sidecar_cases());
    cases.extend(backoff_and_probe_cases());
    cases.extend(resize_cases());
    cases
}

/// The pod as a whole: its infra container, its containers' specs, whose containers are whose.
fn pod_cases() -> Vec<Case> {
    vec![
        Case {
            seen: Vec::new(),
            want: Actions {
                infra: Some(create("POD", 0)),
                apps: vec![create("a", 0), create("b", 0)],
                // One need per distinct image; the infra image is never pulled.
                images: vec![pull("img:1", &["a"]), pull("img:2", &["b"])],
                ..Actions::default()
            },
            ..base("an empty engine gets the whole pod")
        },
        base("a running pod needs nothing"),
        Case {
            pod: two_apps("Always", ", command: [sh]"),
            made_from: Some(two_apps("Always", "")),
            want: Actions { remove: ids(&["a-0"]), ..restart_a() },
            ..base("a changed container alone is recreated")
        },
        Case {
            mutate_seen: |seen| {
                let mut extra = seen[1].clone();
                extra.id = "c-0".into();
                extra.labels.insert(labels::CONTAINER_NAME.into(), "c".into());
                seen.push(extra);
            },
            want: Actions { remove: ids(&["c-0"]), ..Actions::default() },
            ..base("a container gone from the manifest is removed")
        },
        Case {
            seen: vec![("a", 0, running()), ("b", 2, running())],
            want: Actions {
                remove: ids(&["a-0", "b-2"]),
                infra: Some(create("POD", 0)),
                // Restart counts carry over, as the kubelet keeps them across a sandbox change.
                apps: vec![create("a", 1), create("b", 3)],
                images: vec![pull("img:1", &["a"]), pull("img:2", &["b"])],
                ..Actions::default()
            },
            ..base("a missing infra container recreates the pod")
        },
        Case {
            seen: vec![("POD", 0, exited(137)), ("a", 0, running()), ("b", 0, running())],
            want: pod_anew(),
            ..base("a dead infra container recreates the pod")
        },
        Case {
            pod: two_apps("Never", ""),
            seen: vec![("POD", 0, exited(0)), ("a", 0, exited(0)), ("b", 0, exited(1))],
            ..base("a finished pod under Never is not rerun")
        },
        // The kubelet brings a finished pod's sandbox back when a container of it may still
        // restart (shouldRestartOnFailure), even under a pod policy of Never.
        Case {
            pod: two_apps("Never", ", restartPolicy: Always"),
            seen: vec![("POD", 0, exited(0)), ("a", 0, exited(1)), ("b", 0, exited(1))],
            want: pod_anew(),
            ..base("a finished Never pod with a container restarting Always is brought back")
        },
        Case {
            pod: two_apps("Always", ", restartPolicy: Never"),
            seen: vec![("POD", 0, exited(0)), ("a", 0, exited(1)), ("b", 0, exited(1))],
            want: pod_anew(),
            ..base("a finished pod whose other container takes the pod's Always is brought back")
        },
        Case {
            mutate_seen: |seen| {
                for c in seen {
                    c.labels.insert(labels::POD_UID.into(), "other".into());
                }
            },
            want: Actions {
                remove: ids(&["POD-0", "a-0", "b-0"]),
                infra: Some(create("POD", 0)),
                apps: vec![create("a", 0), create("b", 0)],
                images: vec![pull("img:1", &["a"]), pull("img:2", &["b"])],
                ..Actions::default()
            },
            ..base("another pod UID is removed entirely")
        },
        Case {
            mutate_seen: |seen| {
                // podrun's labels, copied whole, without its seal: what an image can carry.
                let mut stranger = seen[1].clone();
                stranger.sealed = false;
                stranger.id = "stranger".into();
                seen.push(stranger);
            },
            ..base("containers podrun does not own are never touched")
        },
        Case {
            seen: vec![
                ("POD", 0, running()),
                ("a", 2, exited(1)),
                ("b", 0, running()),
                ("a", 1, exited(1)),
                ("a", 0, exited(1)),
            ],
            // a-0 is beyond the one kept dead instance; a-1 goes because a-2 becomes the kept one.
            want: Actions {
                remove: ids(&["a-0", "a-1"]),
                apps: vec![create("a", 3)],
                images: vec![pull("img:1", &["a"])],
                ..Actions::default()
            },
            ..base("only one dead instance is kept")
        },
        Case {
            seen: vec![("POD", 0, running()), ("a", 0, running()), ("b", 0, State::Created)],
            // Starting needs no image check.
            want: Actions { apps: vec![start("b", 0)], ..Actions::default() },
            ..base("created but not started is started")
        },
        Case {
            pod: SHARED_IMAGES.into(),
            seen: Vec::new(),
            want: Actions {
                infra: Some(create("POD", 0)),
                apps: vec![create("a", 0), create("b", 0), create("c", 0)],
                images: vec![
                    ImageNeed { image: "x:1".into(), policy: PullPolicy::Always, containers: ids(&["a", "b"]) },
                    ImageNeed { image: "y:1".into(), policy: PullPolicy::Never, containers: ids(&["c"]) },
                ],
                ..Actions::default()
            },
            ..base("images are resolved once with the strictest policy")
        },
    ]
}

/// An exited app container under the pod's restart policy, the container's own, and its rules
/// (ContainerRestartRules, after pkg/api/v1/pod/util_test.go TestContainerShouldRestart and the
/// node e2e tests of test/e2e/common/node): the first matching rule, else the container's
/// policy, else the pod's. The exited instance is kept for lastState.
fn restart_cases() -> Vec<Case> {
    // Without a policy of its own, the pod's.
    let pod_policy = [
        ("Always", 0, true),
        ("Always", 1, true),
        ("OnFailure", 0, false),
        ("OnFailure", 1, true),
        ("Never", 0, false),
        ("Never", 1, false),
    ];
    let pod_rows = pod_policy.into_iter().map(|(pod, code, restarts)| (pod, String::new(), code, restarts));
    let own_rows = [
        // The container's own policy overrides the pod's.
        ("Always", ", restartPolicy: Never".to_owned(), 1, false),
        ("Always", ", restartPolicy: Never".to_owned(), 0, false),
        ("Never", ", restartPolicy: Always".to_owned(), 1, true),
        ("Never", ", restartPolicy: Always".to_owned(), 0, true),
        ("Never", ", restartPolicy: OnFailure".to_owned(), 1, true),
        ("Always", ", restartPolicy: OnFailure".to_owned(), 0, false),
        // A matching Restart rule restarts whatever the policies say; no match falls back to
        // the container's policy.
        ("Never", format!(", restartPolicy: Never{RULE_42}"), 42, true),
        ("Never", format!(", restartPolicy: Never{RULE_42}"), 1, false),
        ("Always", format!(", restartPolicy: Never{RULE_42}"), 0, false),
        ("Never", format!(", restartPolicy: OnFailure{RULE_42}"), 3, true),
        ("Never", format!(", restartPolicy: Never{NOT_IN_0_1}"), 2, true),
        ("Never", format!(", restartPolicy: Never{NOT_IN_0_1}"), 1, false),
    ];
    (pod_rows.chain(own_rows))
        .map(|(pod, own, code, restarts)| Case {
            pod: two_apps(pod, &own),
            seen: a_exited(code),
            want: if restarts { restart_a() } else { Actions::default() },
            ..base(format!("pod {pod}, container a{own}, exit {code}: {}", if restarts { "restarted" } else { "kept" }))
        })
        .collect()
}

/// Init containers run one at a time, in order, before the app containers, and not again once
/// they ran.
fn init_cases() -> Vec<Case> {
    let init = |name: &str, seen: Vec<(&'static str, u32, State)>, want: Actions| Case {
        pod: with_init("Always"),
        seen,
        want,
        ..base(name)
    };
    let only_init = |v: Vec<Act>, images: Vec<ImageNeed>| Actions { init: v, images, ..Actions::default() };
    let initialized = || {
        vec![
            ("POD", 0, running()),
            ("a", 0, running()),
            ("i1", 0, exited(1)),
            ("side", 0, running()),
            ("i2", 0, State::Created),
        ]
    };
    let mut cases = vec![
        init(
            "a new pod gets its infra container and its first init container only",
            Vec::new(),
            Actions { infra: Some(create("POD", 0)), ..only_init(vec![create("i1", 0)], vec![pull("img:1", &["i1"])]) },
        ),
        init(
            "a running init container is waited for",
            vec![("POD", 0, running()), ("i1", 0, running())],
            Actions::default(),
        ),
        init(
            "after an init container, a sidecar starts and the next init container right after it, in one sync",
            vec![("POD", 0, running()), ("i1", 0, exited(0))],
            only_init(vec![create("side", 0), create("i2", 0)], vec![pull("img:1", &["side", "i2"])]),
        ),
        init(
            "after the last init container the app containers start; finished init containers are not rerun",
            vec![("POD", 0, running()), ("i1", 0, exited(0)), ("side", 0, running()), ("i2", 0, exited(0))],
            Actions { apps: vec![create("a", 0)], images: vec![pull("img:1", &["a"])], ..Actions::default() },
        ),
        // The app runs; every init container has been removed since (by hand, by a deletion
        // under way): only the sidecar, which the pod keeps running, is made again.
        init(
            "init containers removed after the pod was initialized are not run again, its sidecar is",
            vec![("POD", 0, running()), ("a", 0, running())],
            only_init(vec![create("side", 0)], vec![pull("img:1", &["side"])]),
        ),
        init(
            "a failed or created-but-not-started init container of an initialized pod is left",
            initialized(),
            Actions::default(),
        ),
        // An exited one does not say so (after a reboot every container has exited, and the pod
        // starts over with its infra container).
        init(
            "a created app container says the pod was initialized",
            initialized().into_iter().map(|(n, a, s)| (n, a, if n == "a" { State::Created } else { s })).collect(),
            Actions { apps: vec![start("a", 0)], ..Actions::default() },
        ),
        // i1 is gone, but i2 (after it) completed: i1 had completed too.
        init(
            "an init container removed after a later one ran is not run again",
            vec![("POD", 0, running()), ("side", 0, running()), ("i2", 0, exited(0))],
            Actions { apps: vec![create("a", 0)], images: vec![pull("img:1", &["a"])], ..Actions::default() },
        ),
        // Only the last one seen counts: with i2 gone as well, the sidecar's start says i1
        // ran, and i2 runs again.
        init(
            "only the last init container seen says the ones before it ran",
            vec![("POD", 0, running()), ("side", 0, running())],
            only_init(vec![create("i2", 0)], vec![pull("img:1", &["i2"])]),
        ),
        Case {
            pod: NEW_I1.into(),
            made_from: Some(with_init("Always")),
            seen: vec![("POD", 0, running()), ("i1", 0, exited(0))],
            want: Actions {
                remove: ids(&["POD-0", "i1-0"]),
                infra: Some(create("POD", 1)),
                init: vec![create("i1", 1)],
                images: vec![pull("img:2", &["i1"])],
                ..Actions::default()
            },
            ..base("changing an init container recreates the pod")
        },
    ];
    // Nothing after a failed init container starts; it is retried unless its policy (its own,
    // else the pod's) or a rule says no, as for an app container.
    let failed = [
        ("Always", with_init("Always"), 1, true),
        ("OnFailure", with_init("OnFailure"), 1, true),
        ("Never", with_init("Never"), 1, false),
        ("Always, i1 Never", one_init("Always", ", restartPolicy: Never"), 1, false),
        ("Never, i1 OnFailure", one_init("Never", ", restartPolicy: OnFailure"), 1, true),
        ("Never, i1 Never with a rule for 3", one_init("Never", &format!(", restartPolicy: Never{RULE_3}")), 3, true),
        ("Never, i1 Never with a rule for 3", one_init("Never", &format!(", restartPolicy: Never{RULE_3}")), 4, false),
    ];
    cases.extend(failed.into_iter().map(|(what, pod, code, retried)| Case {
        pod,
        seen: vec![("POD", 0, running()), ("i1", 0, exited(code))],
        want: if retried { only_init(vec![create("i1", 1)], vec![pull("img:1", &["i1"])]) } else { Actions::default() },
        ..base(format!(
            "init container i1 failed (pod {what}), exit {code}: {}",
            if retried { "retried" } else { "the pod failed" }
        ))
    }));
    cases
}

/// Sidecars: restarted whatever the pod's policy, alone when their spec changed, stopped once
/// the pod is done, and holding the init containers after them until they started.
fn sidecar_cases() -> Vec<Case> {
    let initialized = |side: State, a: State| {
        vec![("POD", 0, running()), ("i1", 0, exited(0)), ("side", 0, side), ("i2", 0, exited(0)), ("a", 0, a)]
    };
    vec![
        Case {
            pod: with_init("Never"),
            seen: initialized(exited(1), running()),
            want: Actions {
                init: vec![create("side", 1)],
                images: vec![pull("img:1", &["side"])],
                ..Actions::default()
            },
            ..base("a sidecar restarts whatever the pod's restart policy")
        },
        Case {
            pod: with_init("Never"),
            seen: initialized(running(), exited(0)),
            want: Actions { stop: ids(&["side-0"]), ..Actions::default() },
            ..base("a sidecar is stopped once the pod is done")
        },
        Case {
            pod: NEW_SIDECAR.into(),
            made_from: Some(with_init("Always")),
            seen: initialized(running(), running()),
            want: Actions {
                remove: ids(&["side-0"]),
                init: vec![create("side", 1)],
                images: vec![pull("img:2", &["side"])],
                ..Actions::default()
            },
            ..base("a changed sidecar is restarted alone")
        },
        Case {
            pod: with_init("Always"),
            seen: vec![("POD", 0, running()), ("i1", 0, exited(0)), ("side", 0, running())],
            not_started: vec!["side-0"],
            ..base("a sidecar holds the next init container until its startup probe passes")
        },
        Case {
            pod: with_init("Always"),
            seen: vec![("POD", 0, running()), ("i1", 0, exited(0)), ("side", 0, running())],
            want: Actions { init: vec![create("i2", 0)], images: vec![pull("img:1", &["i2"])], ..Actions::default() },
            ..base("a started sidecar lets the next init container go")
        },
        // Neither i2 nor the app container may start before the sidecar's startup probe
        // passed, which a later sync sees.
        Case {
            pod: SIDECAR_WITH_STARTUP_PROBE.into(),
            seen: Vec::new(),
            want: Actions {
                infra: Some(create("POD", 0)),
                init: vec![create("side", 0)],
                images: vec![pull("img:1", &["side"])],
                ..Actions::default()
            },
            ..base("a sidecar with a startup probe is created alone")
        },
        Case {
            pod: SIDECAR_WITH_STARTUP_PROBE.into(),
            seen: vec![("POD", 0, running()), ("side", 0, State::Created)],
            want: Actions { init: vec![start("side", 0)], ..Actions::default() },
            ..base("a sidecar with a startup probe is started, and nothing after it")
        },
    ]
}

/// The crash backoff, and containers whose liveness probe failed.
fn backoff_and_probe_cases() -> Vec<Case> {
    let crash = CrashBackoff { base: Duration::from_secs(10), max: Duration::from_secs(300) };
    let a_exited_at = |attempt: u32, ago: u64| {
        vec![("POD", 0, running()), ("a", attempt, exited_at(1, now() - Duration::from_secs(ago))), ("b", 0, running())]
    };
    let mut cases = vec![
        Case {
            seen: a_exited_at(0, 0),
            crash,
            want: restart_a(),
            ..base("crash backoff: the first restart is immediate")
        },
        Case {
            seen: a_exited_at(2, 5),
            crash,
            want: Actions {
                backoff: vec![BackOff {
                    container: "a".into(),
                    until: now() + Duration::from_secs(15),
                    delay: Duration::from_secs(20),
                }],
                ..Actions::default()
            },
            ..base("crash backoff: after the third exit, 20 s after it finished")
        },
        Case {
            seen: a_exited_at(2, 21),
            crash,
            want: Actions { apps: vec![create("a", 3)], images: vec![pull("img:1", &["a"])], ..Actions::default() },
            ..base("crash backoff: once it has passed, the restart goes ahead")
        },
        Case {
            unhealthy: vec!["a-0"],
            want: Actions { stop: ids(&["a-0"]), ..restart_a() },
            ..base("a failed liveness probe kills the container, restarted unless the policy is Never")
        },
        Case {
            replace: vec!["a-0"],
            want: Actions { remove: ids(&["a-0"]), ..restart_a() },
            ..base("an instance the driver asks to replace (its image moved) is replaced as a changed spec")
        },
        Case {
            pod: two_apps("Never", ""),
            replace: vec!["a-0"],
            want: Actions { remove: ids(&["a-0"]), ..restart_a() },
            ..base("a replaced instance is made again whatever the restart policy, as a changed spec")
        },
        Case { replace: vec!["a-9"], ..base("a replacement asked for an instance gone already changes nothing") },
        Case {
            pod: two_apps("Never", ""),
            unhealthy: vec!["a-0"],
            want: Actions { stop: ids(&["a-0"]), ..Actions::default() },
            ..base("a failed liveness probe kills the container, under Never for good")
        },
    ];
    // A container killed after its liveness probe failed follows its own policy, not its rules.
    let own = [
        ("Always", ", restartPolicy: Never".to_owned(), false),
        ("Never", ", restartPolicy: OnFailure".to_owned(), true),
        ("Never", format!(", restartPolicy: Never{RULE_137}"), false),
        ("Never", String::new(), false),
    ];
    cases.extend(own.into_iter().map(|(pod, own, restarts)| {
        let kept = Actions { stop: ids(&["a-0"]), ..Actions::default() };
        Case {
            pod: two_apps(pod, &own),
            unhealthy: vec!["a-0"],
            want: if restarts { Actions { stop: ids(&["a-0"]), ..restart_a() } } else { kept },
            ..base(format!(
                "pod {pod}, container a{own}, liveness probe failed: {}",
                if restarts { "restarted" } else { "stopped" }
            ))
        }
    }));
    cases
}

/// One app container `a` with `resources` and `resizePolicy`.
fn resizable(resources: &str, policy: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  containers:\n  - name: a\n    image: 'img:1'\n    resizePolicy: {policy}\n    resources: {resources}\n"
    )
}

const BURSTABLE: &str = "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 64Mi}}";
const MEMORY_LIMIT_UP: &str = "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 96Mi}}";
const NOT_REQUIRED: &str =
    "[{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: NotRequired}]";
const RESTART_MEMORY: &str = "[{resourceName: memory, restartPolicy: RestartContainer}]";

/// In-place resize of a running [`BURSTABLE`] container, as computePodResizeAction decides it:
/// resized in place, restarted, or left.
fn resize_cases() -> Vec<Case> {
    #[derive(Clone, Copy)]
    enum Outcome {
        Nothing,
        InPlace,
        Restart,
    }
    let rows = [
        ("unchanged", BURSTABLE, "[]", true, Outcome::Nothing),
        ("memory limit up", MEMORY_LIMIT_UP, NOT_REQUIRED, true, Outcome::InPlace),
        (
            "memory limit down (allowed under NotRequired since 1.33)",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 200m, memory: 48Mi}}",
            "[]",
            true,
            Outcome::InPlace,
        ),
        (
            "cpu request up",
            "{requests: {cpu: 150m, memory: 32Mi}, limits: {cpu: 200m, memory: 64Mi}}",
            "[]",
            true,
            Outcome::InPlace,
        ),
        ("memory under RestartContainer", MEMORY_LIMIT_UP, RESTART_MEMORY, true, Outcome::Restart),
        (
            "cpu under RestartContainer for memory only",
            "{requests: {cpu: 150m, memory: 32Mi}, limits: {cpu: 300m, memory: 64Mi}}",
            RESTART_MEMORY,
            true,
            Outcome::InPlace,
        ),
        (
            "a cpu limit removed",
            "{requests: {cpu: 100m, memory: 32Mi}, limits: {memory: 64Mi}}",
            "[]",
            true,
            Outcome::Restart,
        ),
        ("an engine that cannot update", MEMORY_LIMIT_UP, "[]", false, Outcome::Restart),
    ];
    let mut cases: Vec<Case> = (rows.into_iter())
        .map(|(what, after, policy, in_place, outcome)| Case {
            pod: resizable(after, policy),
            made_from: Some(resizable(BURSTABLE, policy)),
            mutate_pod: if in_place { |d| d.resize_in_place = true } else { |_| {} },
            seen: vec![("POD", 0, running()), ("a", 0, running())],
            want: match outcome {
                Outcome::Nothing => Actions::default(),
                Outcome::InPlace => Actions { resize: ids(&["a-0"]), ..Actions::default() },
                Outcome::Restart => Actions { remove: ids(&["a-0"]), ..restart_a() },
            },
            ..base(format!("resize: {what}"))
        })
        .collect();
    // A container resized in place keeps its labels: once the engine reports the new
    // resources, nothing more is done.
    cases.push(Case {
        pod: resizable(MEMORY_LIMIT_UP, "[]"),
        made_from: Some(resizable(BURSTABLE, "[]")),
        mutate_pod: |d| d.resize_in_place = true,
        seen: vec![("POD", 0, running()), ("a", 0, running())],
        mutate_seen: |seen| {
            let now = desired(&resizable(MEMORY_LIMIT_UP, "[]")).containers[0].settings.resources_text();
            seen[1].labels.insert(labels::RESOURCES_NOW.to_owned(), now);
        },
        ..base("resize: what the engine reports wins over the label")
    });
    cases
}

/// The plan of one case, at [`now`].
fn plan_case(case: &Case) -> Plan {
    let mut d = desired(&case.pod);
    let made = case.made_from.as_deref().map_or_else(|| d.clone(), desired);
    (case.mutate_pod)(&mut d);
    let mut seen: Vec<Observed> = case.seen.iter().map(|(n, a, s)| instance(&made, n, *a, s.clone())).collect();
    (case.mutate_seen)(&mut seen);
    let unhealthy: BTreeSet<String> = case.unhealthy.iter().map(|&s| s.to_owned()).collect();
    let not_started: BTreeSet<String> = case.not_started.iter().map(|&s| s.to_owned()).collect();
    let replace: BTreeSet<String> = case.replace.iter().map(|&s| s.to_owned()).collect();
    let ctx =
        Context { now: now(), crash: case.crash, unhealthy: &unhealthy, not_started: &not_started, replace: &replace };
    plan(&d, &PodObservation::new(&d, &seen), &ctx)
}

#[test]
fn the_planner_plans_every_case() {
    let cases = cases();
    let mut names = BTreeSet::new();
    let mut failed = Vec::new();
    for case in &cases {
        assert!(names.insert(case.name.as_str()), "two cases named {:?}", case.name);
        let p = plan_case(case);
        let got = Actions::of(&p);
        if got != case.want {
            failed.push(format!("{}:\n  want {:?}\n  got  {:?}", case.name, case.want, got));
        }
        // When the earliest held-back restart may go ahead.
        if p.next_restart() != case.want.backoff.iter().map(|b| b.until).min() {
            failed.push(format!("{}: next restart {:?}", case.name, p.next_restart()));
        }
    }
    assert!(failed.is_empty(), "{} of {} cases failed:\n{}", failed.len(), cases.len(), failed.join("\n"));
}

// --- what is not a case of the table ---

/// A resize the engine cannot do in place restarts the container, and the reason names the
/// engine and its version, not "the engine".
#[test]
fn a_resize_the_engine_cannot_do_names_the_engine() {
    let made = desired(&resizable(BURSTABLE, "[]"));
    let mut d = desired(&resizable(MEMORY_LIMIT_UP, "[]"));
    d.engine = "Podman Engine 4.3.1".into();
    let seen = instance(&made, "a", 0, running());
    let why = "its resources changed and Podman Engine 4.3.1 cannot resize a container in place";
    assert_eq!(resize::need(&d, &d.containers[0], &seen), resize::Need::Restart(why.into()));
    d.resize_in_place = true;
    assert_eq!(resize::need(&d, &d.containers[0], &seen), resize::Need::InPlace);
}

/// `Plan::is_repair` is the plan's own verdict on itself, not a planner rule: first starts
/// are progress, restarts are repairs (they use up the retries).
#[test]
fn first_starts_are_progress_and_restarts_are_repairs() {
    assert!(!plan_case(&Case { seen: Vec::new(), ..base("an empty engine") }).is_repair());
    assert!(plan_case(&Case { seen: a_exited(1), ..base("a restart") }).is_repair());
}

/// A resize that changes the QoS class is no resize: the container's spec hash holds the
/// class, so it is made anew.
#[test]
fn a_new_qos_class_makes_a_new_container() {
    let guaranteed = "{requests: {cpu: 200m, memory: 64Mi}, limits: {cpu: 200m, memory: 64Mi}}";
    let old = desired(&resizable(BURSTABLE, "[]"));
    let new = desired(&resizable(guaranteed, "[]"));
    assert_ne!(old.containers[0].spec_hash, new.containers[0].spec_hash);
    let same_class =
        desired(&resizable("{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 300m, memory: 96Mi}}", "[]"));
    assert_eq!(old.containers[0].spec_hash, same_class.containers[0].spec_hash);
}

/// What the cases take for granted of their pods: only Always makes a sidecar, and a sidecar's
/// spec is not the pod's sandbox's.
#[test]
fn the_cases_pods_are_what_they_say() {
    let rule = format!(", restartPolicy: Never{RULE_3}");
    for own in [", restartPolicy: Never", ", restartPolicy: OnFailure", &rule] {
        assert!(!desired(&one_init("Never", own)).init[0].sidecar, "only Always makes a sidecar");
    }
    let (old, new) = (desired(&with_init("Always")), desired(NEW_SIDECAR));
    assert_eq!(new.infra.spec_hash, old.infra.spec_hash, "the pod's sandbox stays");
}
