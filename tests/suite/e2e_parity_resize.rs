//! In-place resize (InPlacePodVerticalScaling) on every engine that can: Docker's and Podman
//! 5's container update, the CRI's UpdateContainerResources. A re-apply with new CPU and
//! memory limits keeps the container (same id, no restart), its cgroup has the new limits, and
//! the status reports what the engine says the container has. Podman 4.3, which has no update
//! call, restarts the container, and says so naming itself and its version.

use crate::common::*;

/// pod_resize.go's Burstable pod, with busybox: both resources resized without a restart.
fn pod(cpu: &str, memory: &str) -> String {
    format!(
        r"apiVersion: v1
kind: Pod
metadata: {{name: rsz}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox:1.36
    command: [sh, -c, '{LOOP}']
    resizePolicy:
    - {{resourceName: cpu, restartPolicy: NotRequired}}
    - {{resourceName: memory, restartPolicy: NotRequired}}
    resources:
      requests: {{cpu: 100m, memory: 32Mi}}
      limits: {{cpu: {cpu}, memory: {memory}}}
"
    )
}

/// The container's memory limit and CFS quota as its own cgroups show them (v1, else v2).
fn limits_seen(target: Target, ns: &Namespace) -> String {
    let script = "cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max; \
                  cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max";
    let out = target.run(&["exec", "rsz", "-n", ns.name(), "-c", "c", "--", "sh", "-c", script]);
    assert_eq!(code(&out), 0, "{}: {}", target.name(), stderr(&out));
    stdout(&out).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The container's id and restart count, and the pod as `apply -o json` printed it.
fn applied(target: Target, ns: &Namespace, cpu: &str, memory: &str) -> (String, u64, serde_json::Value, String) {
    let file = TempFile::new("rsz.yaml", &pod(cpu, memory));
    let out = target.run(&["apply", file.path(), "-n", ns.name(), "-o", "json", "--timeout", "90s"]);
    assert_eq!(code(&out), 0, "{}: {}", target.name(), stderr(&out));
    let all: serde_json::Value =
        serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)));
    let st = all["items"][0]["status"]["containerStatuses"][0].clone();
    let id = st["containerID"].as_str().unwrap_or_default().to_owned();
    (id, st["restartCount"].as_u64().unwrap_or(99), st, stderr(&out))
}

/// `restarts_as`: None where the engine resizes in place, else the engine's name and version
/// the restart's reason must give.
fn new_limits_are_applied(target: Target, test: &str, restarts_as: Option<&str>) {
    let ns = Namespace::for_target(target, test);
    let (id, restarts, _, _) = applied(target, &ns, "200m", "64Mi");
    assert_eq!(restarts, 0);
    assert_eq!(limits_seen(target, &ns), "67108864 20000", "{}", target.name());
    let (new_id, new_restarts, st, log) = applied(target, &ns, "300m", "96Mi");
    match restarts_as {
        None => {
            assert!(log.contains("resizing c in place"), "{}: {log}", target.name());
            assert_eq!(
                (new_id.as_str(), new_restarts),
                (id.as_str(), 0),
                "{}: the same container: {log}",
                target.name()
            );
        }
        Some(engine) => {
            let why = format!("its resources changed and {engine} cannot resize a container in place");
            assert!(log.contains(&why), "{}: {log}", target.name());
            assert_ne!(new_id, id, "{}: restarted: {log}", target.name());
            assert_eq!(new_restarts, 1, "{}: restarted once: {log}", target.name());
        }
    }
    assert_eq!(limits_seen(target, &ns), "100663296 30000", "{}: the new limits", target.name());
    assert_eq!(st["resources"]["limits"]["memory"], "96Mi", "{}: {st}", target.name());
    assert_eq!(st["resources"]["limits"]["cpu"], "300m", "{}: {st}", target.name());
    // Once applied, a third apply changes nothing.
    let (again, again_restarts, _, log) = applied(target, &ns, "300m", "96Mi");
    assert_eq!((again, again_restarts), (new_id, new_restarts), "{}: {log}", target.name());
    assert!(!log.contains("resizing"), "{}: {log}", target.name());
}

#[test]
fn e2e_parity_resize_in_place_on_docker() {
    require_engine!();
    new_limits_are_applied(Target::Engine(None), "parity-resize", None);
}

/// Podman from 5 resizes in place; 4.3's compatible API has no container update.
#[test]
fn e2e_parity_resize_on_podman() {
    require_engine!();
    require_podman!(host);
    let version = engine_version(Some(&host));
    let major: u32 = version.split('.').next().and_then(|m| m.parse().ok()).expect("Podman's version");
    let engine = format!("Podman Engine {version}");
    let restarts_as = (major < 5).then_some(engine.as_str());
    new_limits_are_applied(Target::Engine(Some(&host)), "parity-resize-podman", restarts_as);
}

#[test]
fn e2e_parity_resize_in_place_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    new_limits_are_applied(Target::Cri(&endpoint), "parity-resize-cri", None);
}
