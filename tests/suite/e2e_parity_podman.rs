//! The same pod on every engine: the volumes the kubelet sets up (only those a container uses),
//! a manifest's own `HOSTNAME`, and what Podman's Docker-compatible API adds to every container
//! that Kubernetes' runtimes do not. Those additions cannot be switched off through that API:
//! these cases pin them per engine as docs/engines.md ("What differs under Podman") describes
//! them, so a Podman release that changes one fails here and the documentation is brought up
//! to date.

use crate::common::*;

/// A directory of the test's own, removed when dropped.
struct ScratchDir(std::path::PathBuf);

impl ScratchDir {
    fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("podrun-parity-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        ScratchDir(dir)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A hostPath volume no container mounts is not set up, as the kubelet sets up only the
/// volumes containers use: its type is not checked (a missing `Directory` does not refuse the
/// pod) and nothing is created at its path (not even for `DirectoryOrCreate`).
fn an_unused_missing_host_path_does_not_refuse_the_pod(target: Target) {
    let ns = Namespace::for_target(target, "parity-unused-vol");
    let scratch = ScratchDir::new(&format!("unused-{}", target.name()));
    let (missing, create) = (scratch.0.join("missing"), scratch.0.join("not-created"));
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: unused}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         volumes:\n  - {{name: gone, hostPath: {{path: {missing:?}, type: Directory}}}}\n  - {{name: made, \
         hostPath: {{path: {create:?}, type: DirectoryOrCreate}}}}\n  - {{name: scratch, emptyDir: {{}}}}\n  \
         containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}'], volumeMounts: [{{name: \
         scratch, mountPath: /scratch}}]}}]\n"
    );
    let o = target.apply_in(&ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(target.exec_sh(&ns, "unused", "c", "touch /scratch/x && echo ok"), (0, "ok\n".into()));
    assert!(!missing.exists(), "{}: {} was created", target.name(), missing.display());
    assert!(!create.exists(), "{}: {} was created for an unused volume", target.name(), create.display());
}

#[test]
fn e2e_docker_an_unused_missing_host_path_does_not_refuse_the_pod() {
    require_engine!();
    an_unused_missing_host_path_does_not_refuse_the_pod(Target::Engine(None));
}

#[test]
fn e2e_podman_an_unused_missing_host_path_does_not_refuse_the_pod() {
    require_podman!(host);
    an_unused_missing_host_path_does_not_refuse_the_pod(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_an_unused_missing_host_path_does_not_refuse_the_pod() {
    require_cri!(endpoint);
    an_unused_missing_host_path_does_not_refuse_the_pod(Target::Cri(&endpoint));
}

/// The engine's `major.minor` release, for the cases that pin Podman's behaviour per release.
fn podman_major(target: Target) -> u32 {
    let v = engine_version(target.host());
    v.split('.').next().and_then(|m| m.parse().ok()).unwrap_or_else(|| panic!("Podman version {v:?}"))
}

/// What Podman's compatible API adds, pinned per engine (docs/engines.md, "What differs under
/// Podman": read-only root file system, environment, /etc/passwd). On Docker and containerd
/// none of it is there, as on a node; on Podman 4.3 and 5.4 all of it is (TERM only on 4.3),
/// and a release that changes it fails here.
fn podmans_additions_are_pinned(target: Target) {
    let ns = Namespace::for_target(target, "parity-podman-adds");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: adds}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    env: [{{name: \
         HOSTNAME, value: from-manifest}}]\n    securityContext: {{readOnlyRootFilesystem: true, runAsUser: 4321, \
         runAsGroup: 4322}}\n  - {{name: plain, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
    );
    let o = target.apply_in(&ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let podman = matches!(target, Target::Engine(Some(_)));
    let run = |cmd: &str| target.exec_sh(&ns, "adds", "c", cmd);
    for dir in ["/tmp", "/var/tmp", "/run"] {
        let (code, _) = run(&format!("touch {dir}/x"));
        assert_eq!(code == 0, podman, "{}: touch {dir}/x under readOnlyRootFilesystem exited {code}", target.name());
    }
    // The main process's environment, as the engine started it.
    let (_, env) = run("tr '\\0' '\\n' < /proc/1/environ");
    let env: Vec<&str> = env.lines().collect();
    let has = |v: &str| env.contains(&v);
    assert_eq!(has("container=podman"), podman, "{}: {env:?}", target.name());
    assert_eq!(has("TERM=xterm"), podman && podman_major(target) == 4, "{}: {env:?}", target.name());
    assert!(has("HOSTNAME=from-manifest"), "{}: the manifest's HOSTNAME wins: {env:?}", target.name());
    let (_, passwd) = run("grep -c '^4321:' /etc/passwd; grep -c '^4322:' /etc/group; true");
    let counts: Vec<&str> = passwd.lines().collect();
    let want = if podman { ["1", "1"] } else { ["0", "0"] };
    assert_eq!(counts, want, "{}: entries for uid 4321 and gid 4322", target.name());
}

#[test]
fn e2e_docker_podmans_additions_are_pinned() {
    require_engine!();
    podmans_additions_are_pinned(Target::Engine(None));
}

#[test]
fn e2e_podman_podmans_additions_are_pinned() {
    require_podman!(host);
    podmans_additions_are_pinned(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_podmans_additions_are_pinned() {
    require_cri!(endpoint);
    podmans_additions_are_pinned(Target::Cri(&endpoint));
}

/// A container's own `HOSTNAME` (from its manifest's `env`) is the one it sees, on every
/// engine, and the pod keeps one hostname: on Podman such a container joins the infra's UTS
/// namespace by its path, as Podman writes its own value over the container's when it joins by
/// `container:<infra>` (`podman_uts`). Where the pod shares one UTS namespace (Podman, the CRI),
/// both containers are in it; Docker gives each container a namespace of its own, as
/// cri-dockerd does.
fn a_manifests_hostname_env_wins(target: Target) {
    let ns = Namespace::for_target(target, "parity-hostname-env");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: named}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers:\n  - {{name: own, image: busybox:1.28, command: [sh, -c, '{LOOP}'], env: [{{name: HOSTNAME, \
         value: mine}}]}}\n  - {{name: plain, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
    );
    let o = target.apply_in(&ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let look = "tr '\\0' '\\n' < /proc/1/environ | grep ^HOSTNAME=; hostname; readlink /proc/1/ns/uts";
    let own = target.exec_sh(&ns, "named", "own", look).1;
    let plain = target.exec_sh(&ns, "named", "plain", look).1;
    let (own, plain): (Vec<&str>, Vec<&str>) = (own.lines().collect(), plain.lines().collect());
    assert_eq!(own[..2], ["HOSTNAME=mine", "named"], "{}: {own:?}", target.name());
    assert_eq!(plain[..2], ["HOSTNAME=named", "named"], "{}: {plain:?}", target.name());
    let shared = !matches!(target, Target::Engine(None));
    assert_eq!(own[2] == plain[2], shared, "{}: UTS namespaces {own:?} {plain:?}", target.name());
}

#[test]
fn e2e_docker_a_manifests_hostname_env_wins() {
    require_engine!();
    a_manifests_hostname_env_wins(Target::Engine(None));
}

#[test]
fn e2e_podman_a_manifests_hostname_env_wins() {
    require_podman!(host);
    a_manifests_hostname_env_wins(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_a_manifests_hostname_env_wins() {
    require_cri!(endpoint);
    a_manifests_hostname_env_wins(Target::Cri(&endpoint));
}

#[test]
fn e2e_rootless_a_manifests_hostname_env_wins() {
    require_rootless!(user);
    a_manifests_hostname_env_wins(Target::Rootless(&user));
}
