//! Nothing left behind: podrun killed (SIGKILL) at each step of an apply, then `gc` (and
//! `delete`) leave no pod cgroup in any hierarchy, no mount, no pod's files under the state
//! directory and no container, as the kubelet's orphan cleanup leaves none of a pod that is
//! gone. Each step is seen from outside (the pod's cgroup, its containers made, then running)
//! and podrun is killed as soon as it is seen: no hook in podrun. On Docker and Podman the
//! containers are then removed through the engine, behind podrun's back, and `gc` alone must
//! clean up; on containerd (no such tool here) `delete` removes what still runs. `delete` alone
//! takes what is left of a pod killed before its first container.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// The steps of an apply podrun is killed at, in the order they come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The pod's cgroup is made, no container yet.
    Cgroup,
    InfraCreated,
    InfraRunning,
    AppCreated,
    AppRunning,
}

const STEPS: [Step; 5] = [Step::Cgroup, Step::InfraCreated, Step::InfraRunning, Step::AppCreated, Step::AppRunning];

/// `gc --min-age`: long enough that a pod another test is making right now, on any engine, is
/// never this test's to collect.
const MIN_AGE_SECS: u64 = 15;

/// A pod with a cgroup of its own (pod-level limits), a Memory emptyDir (a tmpfs podrun
/// mounts) shown through a subPath too (a bind mount under the state directory).
fn manifest(name: &str) -> String {
    format!(
        r"apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  terminationGracePeriodSeconds: 1
  resources:
    limits: {{cpu: 500m, memory: 64Mi}}
  volumes:
  - {{name: mem, emptyDir: {{medium: Memory, sizeLimit: 8Mi}}}}
  - {{name: disk, emptyDir: {{}}}}
  containers:
  - name: app
    image: busybox:latest
    command: [sh, -c, 'trap exit TERM; while true; do sleep 1; done']
    volumeMounts:
    - {{name: mem, mountPath: /mem}}
    - {{name: disk, mountPath: /part, subPath: part}}
"
    )
}

/// podrun's uid for a pod (`manifest::defaults::derive_uid`).
fn uid(namespace: &str, name: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, format!("podrun pod uid\0{namespace}\0{name}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest.as_ref()[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// The pod's cgroup folders there are, in every hierarchy (v2's root, each v1 one).
fn cgroups_of(uid: &str) -> Vec<PathBuf> {
    let root = Path::new("/sys/fs/cgroup");
    let mut hierarchies = vec![root.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(root) {
        hierarchies.extend(entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| e.path()));
    }
    hierarchies.into_iter().map(|h| h.join(format!("podrun/pod{uid}"))).filter(|p| p.exists()).collect()
}

/// The mount points under the state directory or podrun's /dev/shm directory for it.
fn mounts(state: &StateDir) -> Vec<String> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let roots: Vec<String> = [Some(state.0.clone()), shm_base(&state.0, 0)]
        .into_iter()
        .flatten()
        .map(|p| format!("{}/", p.display()))
        .collect();
    info.lines()
        .filter_map(|l| l.split(' ').nth(4))
        .filter(|p| roots.iter().any(|r| p.starts_with(r.as_str())))
        .map(str::to_owned)
        .collect()
}

/// podrun on `target` with the test's state directory.
fn podrun_cmd(target: Target, state: &StateDir, args: &[&str]) -> Command {
    let mut cmd = Command::new(PODRUN);
    cmd.env("NO_COLOR", "1").env("PODRUN_STATE_DIR", state.path());
    match target {
        Target::Engine(Some(host)) => {
            cmd.env("DOCKER_HOST", host);
        }
        Target::Cri(endpoint) => {
            cmd.args(["--runtime-endpoint", endpoint]);
        }
        _ => {}
    }
    cmd.args(args);
    cmd
}

fn run(target: Target, state: &StateDir, args: &[&str]) -> Output {
    bounded::output(&mut podrun_cmd(target, state, args), None, Duration::from_secs(120))
}

/// Whether the container `id` runs.
fn running(target: Target, ns: &Namespace, id: &str) -> bool {
    match target {
        Target::Cri(endpoint) => {
            let out = cri::ctr(endpoint, &["tasks", "ls"]);
            String::from_utf8_lossy(&out.stdout).lines().any(|l| l.starts_with(id) && l.contains("RUNNING"))
        }
        _ => ns.inspect(id, "{{.State.Running}}") == "true",
    }
}

/// Whether the apply of pod `name` has reached `step`.
fn reached(step: Step, target: Target, ns: &Namespace, name: &str, uid: &str) -> bool {
    if step == Step::Cgroup {
        return !cgroups_of(uid).is_empty();
    }
    let of_pod: Vec<(String, String)> =
        ns.containers().into_iter().filter(|(_, n)| n.contains(&format!("_{name}_"))).collect();
    let infra = of_pod.iter().find(|(_, n)| n.contains("_POD_"));
    let app = of_pod.iter().find(|(_, n)| n.contains("_app_"));
    match step {
        Step::Cgroup => unreachable!(),
        Step::InfraCreated => infra.is_some(),
        Step::InfraRunning => infra.is_some_and(|(id, _)| running(target, ns, id)),
        Step::AppCreated => app.is_some(),
        Step::AppRunning => app.is_some_and(|(id, _)| running(target, ns, id)),
    }
}

/// Applies pod `name` in the background and kills podrun (SIGKILL) as soon as `step` is seen.
/// Whether it was seen before the apply ended.
fn kill_at(step: Step, target: Target, state: &StateDir, ns: &Namespace, name: &str) -> bool {
    let file = TempFile::new(&format!("{name}.yaml"), &manifest(name));
    let mut cmd = podrun_cmd(target, state, &["apply", file.path(), "-n", ns.name(), "--timeout", "120s"]);
    let child: Child =
        cmd.stdout(Stdio::null()).stderr(Stdio::null()).stdin(Stdio::null()).spawn().expect("podrun apply");
    let mut apply = Killed(child);
    let uid = uid(ns.name(), name);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(120) {
        if reached(step, target, ns, name, &uid) {
            let _ = apply.0.kill();
            return true;
        }
        if apply.0.try_wait().ok().flatten().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(if step == Step::Cgroup { 1 } else { 10 }));
    }
    panic!("on {}: {name} did not reach {step:?} within 120 s", target.name());
}

/// Removes the namespace's containers through the engine, members before infra containers (as
/// a user would with the engine's own tool).
fn remove_through_engine(target: Target, ns: &Namespace) {
    // Podman may refuse a removal while it still settles a container the killed run made
    // (its cleanup process runs beside): a few tries, then nothing may be left.
    let mut last = None;
    for _ in 0..5 {
        let (infra, members): (Vec<_>, Vec<_>) = ns.containers().into_iter().partition(|(_, n)| n.contains("_POD_"));
        if infra.is_empty() && members.is_empty() {
            return;
        }
        for batch in [members, infra] {
            if !batch.is_empty() {
                let mut args = vec!["rm", "-f", "-v"];
                args.extend(batch.iter().map(|(id, _)| id.as_str()));
                last = Some(docker_on(target.host(), &args));
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(ns.containers().is_empty(), "on {}: {:?}: {last:?}", target.name(), ns.containers());
}

/// What is left of the pods `names`: cgroups, mounts, pod files, containers.
fn left(ns: &Namespace, state: &StateDir, names: &[String]) -> Vec<String> {
    let mut left: Vec<String> =
        names.iter().flat_map(|n| cgroups_of(&uid(ns.name(), n))).map(|p| p.display().to_string()).collect();
    left.extend(mounts(state).into_iter().map(|m| format!("mount {m}")));
    left.extend(state.pod_dirs().into_iter().map(|d| format!("files of pod {d}")));
    left.extend(ns.containers().into_iter().map(|(_, n)| format!("container {n}")));
    left
}

/// Deletes the test's pods with its state directory when dropped (the test failed or not): the
/// namespace's own cleanup goes through the default state directory, which did not make them.
struct DeletedAtEnd<'a> {
    target: Target<'a>,
    state: &'a StateDir,
    ns: &'a Namespace,
    names: &'a [String],
}

impl Drop for DeletedAtEnd<'_> {
    fn drop(&mut self) {
        for name in self.names {
            run(self.target, self.state, &["delete", name, "-n", self.ns.name(), "--grace-period", "0", "-q"]);
        }
    }
}

fn nothing_left_behind(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let state = StateDir::new(test);
    let names: Vec<String> = (0..STEPS.len()).map(|i| format!("kill-{i}")).collect();
    let _delete = DeletedAtEnd { target, state: &state, ns: &ns, names: &names };
    let mut seen = Vec::new();
    for (step, name) in STEPS.iter().zip(&names) {
        if kill_at(*step, target, &state, &ns, name) {
            seen.push(*step);
        }
    }
    assert!(seen.contains(&Step::Cgroup), "on {}: never killed with only the cgroup made: {seen:?}", target.name());
    let cri = matches!(target, Target::Cri(_));
    if !cri {
        remove_through_engine(target, &ns);
    }
    // `delete` alone takes what is left of the pod killed with only its cgroup made: its files
    // and cgroup (no NotFound: it was there).
    let first = uid(ns.name(), &names[0]);
    let out = run(target, &state, &["delete", &names[0], "-n", ns.name(), "--grace-period", "0"]);
    assert_eq!(code(&out), 0, "on {}: {}", target.name(), stderr(&out));
    assert_eq!(cgroups_of(&first), Vec::<PathBuf>::new(), "on {}: {}", target.name(), stderr(&out));
    assert!(!state.pod_dirs().contains(&first), "on {}: {}", target.name(), stderr(&out));
    // Everything is older than gc's --min-age by then.
    std::thread::sleep(Duration::from_secs(MIN_AGE_SECS + 1));
    let min_age = format!("{MIN_AGE_SECS}s");
    let gc = run(target, &state, &["gc", "--min-age", &min_age]);
    assert_eq!(code(&gc), 0, "on {}: {}{}", target.name(), stdout(&gc), stderr(&gc));
    eprintln!("on {}, killed at {seen:?}; gc said:\n{}{}", target.name(), stdout(&gc), stderr(&gc));
    if !cri {
        let after_gc = left(&ns, &state, &names);
        assert!(
            after_gc.is_empty(),
            "on {}, killed at {seen:?}, gc left: {after_gc:?}\n{}",
            target.name(),
            stdout(&gc)
        );
    }
    for name in &names {
        let out = run(target, &state, &["delete", name, "-n", ns.name(), "--grace-period", "0"]);
        // A pod gc took whole is no longer there (kubectl's NotFound, 1).
        assert!(matches!(code(&out), 0 | 1), "on {}: {}", target.name(), stderr(&out));
    }
    let after = left(&ns, &state, &names);
    assert!(
        after.is_empty(),
        "on {}, killed at {seen:?}, gc and delete left: {after:?}\n{}",
        target.name(),
        stdout(&gc)
    );
}

#[test]
fn e2e_left_behind_kill_at_every_step_on_docker() {
    require_engine!();
    nothing_left_behind(Target::Engine(None), "kill-steps");
}

#[test]
fn e2e_left_behind_kill_at_every_step_on_podman() {
    require_engine!();
    require_podman!(host);
    nothing_left_behind(Target::Engine(Some(&host)), "kill-steps-podman");
}

#[test]
fn e2e_left_behind_kill_at_every_step_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    nothing_left_behind(Target::Cri(&endpoint), "kill-steps-cri");
}
