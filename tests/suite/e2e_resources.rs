//! Pod-level resources end to end, after Kubernetes' test/e2e/node/pod_level_resources.go: the
//! pod's containers run under a cgroup of the pod's own with the pod's limits (busybox reads
//! its cgroup path and the host reads the limits), a container allocating beyond the pod's
//! memory limit is OOM-killed, the QoS class comes from the pod's resources, and the cgroup
//! goes with the pod. On an engine that cannot give a pod cgroup (rootless Podman), the pod is
//! refused before anything is made, naming the engine.

use crate::common::*;

/// The pod: limits at pod level only; its container prints its cgroups, then allocates
/// 128 MiB (dd's buffer) under the pod's 48 MiB.
const POD: &str = r"apiVersion: v1
kind: Pod
metadata: {name: plr}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  resources:
    limits: {cpu: 500m, memory: 48Mi}
  containers:
  - name: c
    image: busybox:latest
    command: [sh, -c, 'cat /proc/self/cgroup; exec dd if=/dev/zero of=/dev/null bs=128M count=1']
";

fn json(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)));
    v["items"][0].clone()
}

fn args(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| (*s).to_owned()).collect()
}

/// A cgroup file of the pod's, as the host sees it (cgroup v1, or v2's `v2` name).
fn pod_cgroup_file(uid: &str, v1: (&str, &str), v2: &str) -> Option<String> {
    let unified = std::path::Path::new("/sys/fs/cgroup/cgroup.controllers").exists();
    let path = if unified {
        format!("/sys/fs/cgroup/podrun/pod{uid}/{v2}")
    } else {
        format!("/sys/fs/cgroup/{}/podrun/pod{uid}/{}", v1.0, v1.1)
    };
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

fn pod_level_limits_make_a_pod_cgroup(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let file = TempFile::new("plr.yaml", POD);
    let out = target.podrun(&args(&["apply", file.path(), "-n", ns.name(), "-o", "json", "--timeout", "90s"]));
    // The container was OOM-killed: the pod fails (exit 6 for a failed pod).
    assert_eq!(code(&out), 6, "on {}: {}", target.name(), stderr(&out));
    let pod = json(&out);
    let uid = pod["metadata"]["uid"].as_str().expect("a uid").to_owned();
    assert_eq!(pod["status"]["qosClass"], "Guaranteed", "from the pod's own resources: {}", pod["status"]);
    let state = &pod["status"]["containerStatuses"][0]["state"]["terminated"];
    assert_eq!(state["exitCode"], 137, "killed by the kernel's OOM killer, on {}: {state}", target.name());
    // The kernel's own count: the pod's memory limit was reached (v1 counts it in the pod's
    // cgroup as `memory.failcnt`, v2 as `max` in `memory.events`; the kill itself is counted in
    // the container's cgroup, gone with the container).
    let unified = std::path::Path::new("/sys/fs/cgroup/cgroup.controllers").exists();
    let hits = pod_cgroup_file(&uid, ("memory", "memory.failcnt"), "memory.events").and_then(|t| {
        if unified {
            t.lines().find_map(|l| l.strip_prefix("max ")?.trim().parse::<u64>().ok())
        } else {
            t.parse::<u64>().ok()
        }
    });
    assert!(hits.is_some_and(|n| n >= 1), "the pod's memory limit was reached, on {}: {hits:?}", target.name());
    // Podman 4.3 on cgroup v1 does not tell an OOM kill from another SIGKILL; Docker 20.10 tells
    // it from its shim's OOM event, which a container that dies this fast can outrun (its exit
    // is then all Docker records, reason Error, as a kubelet on cri-dockerd would show too).
    match target.name() {
        "podman" => {}
        "docker" => assert!(matches!(state["reason"].as_str(), Some("OOMKilled" | "Error")), "on docker: {state}"),
        _ => assert_eq!(state["reason"], "OOMKilled", "on {}: {state}", target.name()),
    }
    let logs = target.podrun(&args(&["logs", "plr", "-n", ns.name()]));
    assert!(stdout(&logs).contains(&format!("/podrun/pod{uid}/")), "under the pod's cgroup: {}", stdout(&logs));
    assert_eq!(pod_cgroup_file(&uid, ("memory", "memory.limit_in_bytes"), "memory.max").as_deref(), Some("50331648"));
    let quota = pod_cgroup_file(&uid, ("cpu", "cpu.cfs_quota_us"), "cpu.max");
    assert!(quota.as_deref().is_some_and(|q| q.starts_with("50000")), "{quota:?}");
    let out = target.podrun(&args(&["delete", "plr", "-n", ns.name()]));
    succeeded(&out);
    assert_eq!(pod_cgroup_file(&uid, ("memory", "memory.limit_in_bytes"), "memory.max"), None, "gone with the pod");
}

#[test]
fn e2e_resources_pod_level_limits_on_docker() {
    require_engine!();
    pod_level_limits_make_a_pod_cgroup(Target::Engine(None), "plr");
}

#[test]
fn e2e_resources_pod_level_limits_on_podman() {
    require_engine!();
    require_podman!(host);
    pod_level_limits_make_a_pod_cgroup(Target::Engine(Some(&host)), "plr-podman");
}

#[test]
fn e2e_resources_pod_level_limits_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    pod_level_limits_make_a_pod_cgroup(Target::Cri(&endpoint), "plr-cri");
}

/// A rootless engine's cgroups are not podrun's to set: refused, naming the engine, with
/// nothing made.
#[test]
fn e2e_resources_pod_level_limits_are_refused_on_rootless_podman() {
    require_engine!();
    require_rootless!(user);
    let target = Target::Rootless(&user);
    let ns = Namespace::for_target(target, "plr-rootless");
    let file = TempFile::new("plr.yaml", POD);
    let out = target.podrun(&args(&["apply", file.path(), "-n", ns.name(), "--timeout", "60s"]));
    assert_ne!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    let says = format!(
        "pod-level limits (spec.resources.limits) is not supported by Podman Engine {}:",
        engine_version(Some(&user.host))
    );
    assert!(err.contains(&says), "{err}");
    assert!(err.contains("rootful Docker or Podman"), "{err}");
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

/// The resize pod of pod_resize.go, with busybox: Burstable, its memory limit `{limit}`.
fn resize_pod(limit: &str, memory_policy: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: rz}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox:latest
    command: [sh, -c, '{LOOP}']
    resizePolicy:
    - {{resourceName: cpu, restartPolicy: NotRequired}}
    - {{resourceName: memory, restartPolicy: {memory_policy}}}
    resources:
      requests: {{cpu: 100m, memory: 32Mi}}
      limits: {{cpu: 200m, memory: {limit}}}
"#
    )
}

/// The container's memory limit as its own cgroup shows it (v1, or v2's memory.max).
fn memory_limit_seen(target: Target, ns: &Namespace) -> String {
    let script = "cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max";
    let out = target.podrun(&args(&["exec", "rz", "-n", ns.name(), "-c", "c", "--", "sh", "-c", script]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out).trim().to_owned()
}

fn container_of(pod: &serde_json::Value) -> (String, u64) {
    let st = &pod["status"]["containerStatuses"][0];
    (st["containerID"].as_str().unwrap_or_default().to_owned(), st["restartCount"].as_u64().unwrap_or(99))
}

/// A re-apply with a new memory limit: resized in place where the engine can (the same
/// container, no restart: pod_resize.go's "Burstable QoS pod, one container with cpu & memory
/// requests + limits - increase memory limit"), restarted where it cannot or where the
/// resizePolicy says RestartContainer; the container's cgroup has the new limit either way.
fn a_new_memory_limit_is_applied(target: Target, test: &str, memory_policy: &str, in_place: bool) {
    let ns = Namespace::for_target(target, test);
    let apply = |limit: &str| {
        let file = TempFile::new("rz.yaml", &resize_pod(limit, memory_policy));
        let out = target.podrun(&args(&["apply", file.path(), "-n", ns.name(), "-o", "json", "--timeout", "90s"]));
        assert_eq!(code(&out), 0, "on {}: {}", target.name(), stderr(&out));
        (json(&out), stderr(&out))
    };
    let (before, _) = apply("64Mi");
    assert_eq!(memory_limit_seen(target, &ns), "67108864");
    let (id, restarts) = container_of(&before);
    assert_eq!(restarts, 0);
    let (after, log) = apply("96Mi");
    let (new_id, new_restarts) = container_of(&after);
    if in_place {
        assert!(log.contains("resizing c in place"), "{log}");
        assert_eq!((new_id.as_str(), new_restarts), (id.as_str(), 0), "the same container, not restarted");
    } else {
        assert_ne!(new_id, id, "restarted: {log}");
        assert_eq!(new_restarts, 1, "restarted once: {log}");
    }
    assert_eq!(memory_limit_seen(target, &ns), "100663296", "the new limit");
    let got = target.podrun(&args(&["get", "rz", "-n", ns.name(), "-o", "json"]));
    assert_eq!(code(&got), 0, "{}", stderr(&got));
    let got: serde_json::Value = serde_json::from_str(&stdout(&got)).expect("get -o json is JSON");
    let st = &got["status"];
    assert_eq!(st["qosClass"], "Burstable", "{st}");
    let cs = &st["containerStatuses"][0];
    assert_eq!(cs["resources"]["limits"]["memory"], "96Mi", "{cs}");
    assert_eq!(cs["allocatedResources"]["memory"], "32Mi", "{cs}");
    // Once applied, a third apply changes nothing.
    let (again, log) = apply("96Mi");
    assert_eq!(container_of(&again), container_of(&after), "{log}");
    assert!(!log.contains("resizing"), "{log}");
}

#[test]
fn e2e_resources_resize_in_place_on_docker() {
    require_engine!();
    a_new_memory_limit_is_applied(Target::Engine(None), "rz", "NotRequired", true);
}

#[test]
fn e2e_resources_resize_policy_restart_container_on_docker() {
    require_engine!();
    a_new_memory_limit_is_applied(Target::Engine(None), "rz-restart", "RestartContainer", false);
}

#[test]
fn e2e_resources_resize_policy_restart_container_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    a_new_memory_limit_is_applied(Target::Cri(&endpoint), "rz-cri-restart", "RestartContainer", false);
}
