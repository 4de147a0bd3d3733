//! The same pod on every engine and version: what Docker, Podman and the CRI runtimes used to
//! do differently for the same manifest, each case run on every engine it concerns.

use crate::common::*;

/// What `cmd` prints in container `c` of pod `pod`, which must exit 0.
fn exec_in(target: Target, ns: &Namespace, pod: &str, c: &str, cmd: &str) -> String {
    let (status, out) = target.exec_sh(ns, pod, c, cmd);
    assert_eq!(status, 0, "{}: exec {cmd}: {out}", target.name());
    out
}

/// A sysctl named with slashes (valid in Kubernetes: `kernel/shm_rmid_forced`) reaches the
/// engine dotted, as the kubelet converts it: Podman refuses the slashed form.
fn a_slashed_sysctl_is_set(target: Target) {
    let ns = Namespace::for_target(target, "parity-sysctl");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: tuned}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         securityContext: {{sysctls: [{{name: kernel/shm_rmid_forced, value: '1'}}]}}\n  \
         containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}]\n"
    );
    let o = target.apply_in(&ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(exec_in(target, &ns, "tuned", "c", "cat /proc/sys/kernel/shm_rmid_forced"), "1\n", "{}", target.name());
}

#[test]
fn e2e_docker_a_slashed_sysctl_is_set() {
    require_engine!();
    a_slashed_sysctl_is_set(Target::Engine(None));
}

#[test]
fn e2e_podman_a_slashed_sysctl_is_set() {
    require_podman!(host);
    a_slashed_sysctl_is_set(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_a_slashed_sysctl_is_set() {
    require_cri!(endpoint);
    a_slashed_sysctl_is_set(Target::Cri(&endpoint));
}

/// A hostNetwork pod's containers are in the host's UTS namespace, as cri-dockerd and the CRI
/// runtimes put them: on Docker a container that joins the infra's network kept a UTS
/// namespace of its own.
fn a_host_network_pod_shares_the_hosts_uts_namespace(target: Target) {
    let ns = Namespace::for_target(target, "parity-uts");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: hn}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         hostNetwork: true\n  containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}]\n"
    );
    let o = target.apply_in(&ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let host = std::fs::read_link("/proc/self/ns/uts").expect("this process's UTS namespace");
    let inside = exec_in(target, &ns, "hn", "c", "readlink /proc/self/ns/uts");
    assert_eq!(inside.trim(), host.to_string_lossy(), "{}", target.name());
}

#[test]
fn e2e_docker_a_host_network_pod_shares_the_hosts_uts_namespace() {
    require_engine!();
    a_host_network_pod_shares_the_hosts_uts_namespace(Target::Engine(None));
}

#[test]
fn e2e_podman_a_host_network_pod_shares_the_hosts_uts_namespace() {
    require_podman!(host);
    a_host_network_pod_shares_the_hosts_uts_namespace(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_a_host_network_pod_shares_the_hosts_uts_namespace() {
    require_cri!(endpoint);
    a_host_network_pod_shares_the_hosts_uts_namespace(Target::Cri(&endpoint));
}

/// Every pod's host IP is the node's address on every engine (in its status and in the
/// downward API's `status.hostIP`), and a hostNetwork pod's pod IP too: containerd's pods had
/// none, Docker's and Podman's the bridge's gateway.
fn the_host_ip_is_the_nodes(target: Target) {
    let node = crate::e2e_node::node_ip();
    assert!(!node.is_empty(), "this host has a node IP");
    let ns = Namespace::for_target(target, "parity-hostip");
    for (name, host_network) in [("bridged", false), ("hn", true)] {
        let pod = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             hostNetwork: {host_network}\n  containers:\n  - name: c\n    image: busybox:1.28\n    \
             command: [sh, -c, '{LOOP}']\n    env:\n    \
             - {{name: HOST_IP, valueFrom: {{fieldRef: {{fieldPath: status.hostIP}}}}}}\n    \
             - {{name: POD_IP, valueFrom: {{fieldRef: {{fieldPath: status.podIP}}}}}}\n"
        );
        let o = target.apply_in(&ns, &pod);
        assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
        let env = exec_in(target, &ns, name, "c", "echo $HOST_IP $POD_IP");
        let args: Vec<String> = ["get", "-n", ns.name(), name, "-o", "json"].iter().map(|a| (*a).to_owned()).collect();
        let o = target.podrun(&args);
        let st: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
        let st = &st["status"];
        assert_eq!(st["hostIP"], node.as_str(), "{} {name}: {st}", target.name());
        assert_eq!(st["hostIPs"], serde_json::json!([{"ip": node}]), "{} {name}: {st}", target.name());
        let pod_ip = st["podIP"].as_str().unwrap_or_default();
        assert_eq!(env.split_whitespace().collect::<Vec<_>>(), [node.as_str(), pod_ip], "{} {name}", target.name());
        if host_network {
            assert_eq!(pod_ip, node, "{} {name}: {st}", target.name());
        }
    }
}

#[test]
fn e2e_docker_the_host_ip_is_the_nodes() {
    require_engine!();
    the_host_ip_is_the_nodes(Target::Engine(None));
}

#[test]
fn e2e_podman_the_host_ip_is_the_nodes() {
    require_podman!(host);
    the_host_ip_is_the_nodes(Target::Engine(Some(&host)));
}

#[test]
fn e2e_cri_the_host_ip_is_the_nodes() {
    require_cri!(endpoint);
    the_host_ip_is_the_nodes(Target::Cri(&endpoint));
}
