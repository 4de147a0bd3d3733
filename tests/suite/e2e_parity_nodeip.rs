//! `--node-ip`, as the kubelet's flag: the addresses it names are the pods' host IPs (status
//! and downward API) on every engine, a dual-stack pair gives both, and an address that is not
//! this host's, or no pair, is refused before anything is made.

use crate::common::*;

/// This host's address of `family` (4 or 6) by the kernel's route to a public address: what
/// `ip route get` prints as the source. Nothing is sent.
fn host_address(family: u8) -> String {
    let to = if family == 4 { "1.1.1.1" } else { "2606:4700:4700::1111" };
    let out = std::process::Command::new("ip").args([&format!("-{family}"), "route", "get", to]).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    let words: Vec<&str> = text.split_whitespace().collect();
    let src = words.iter().position(|w| *w == "src").and_then(|i| words.get(i + 1)).copied().unwrap_or_default();
    // A link-local or ULA-less host has no address a node could take for this family.
    if src.starts_with("fe80") {
        String::new()
    } else {
        src.to_owned()
    }
}

/// Applies a pod printing its host and pod IPs from the downward API, with `--node-ip`, and
/// gives its status (from `apply -o json`) and what the container saw.
fn apply_with_node_ip(
    target: Target,
    ns: &Namespace,
    node_ip: &str,
    host_network: bool,
) -> (serde_json::Value, String) {
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: ips}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         hostNetwork: {host_network}\n  containers:\n  - name: c\n    image: busybox:1.28\n    \
         command: [sh, -c, '{LOOP}']\n    env:\n    \
         - {{name: HOST_IP, valueFrom: {{fieldRef: {{fieldPath: status.hostIP}}}}}}\n    \
         - {{name: HOST_IPS, valueFrom: {{fieldRef: {{fieldPath: status.hostIPs}}}}}}\n    \
         - {{name: POD_IPS, valueFrom: {{fieldRef: {{fieldPath: status.podIPs}}}}}}\n"
    );
    let f = TempFile::new("pod.yaml", &pod);
    let o = target.run(&["apply", "-n", ns.name(), f.path(), "--timeout", "90s", "--node-ip", node_ip, "-o", "json"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let list: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    let status = list["items"][0]["status"].clone();
    // `get`, run without the flag, shows the addresses the pod was made with.
    let o = target.run(&["get", "-n", ns.name(), "ips", "-o", "json"]);
    let got: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    for field in ["hostIP", "hostIPs", "podIP", "podIPs"] {
        assert_eq!(got["status"][field], status[field], "{}: get's {field}", target.name());
    }
    let o =
        target.run(&["exec", "-n", ns.name(), "ips", "-c", "c", "--", "sh", "-c", "echo $HOST_IP $HOST_IPS $POD_IPS"]);
    assert_eq!(code(&o), 0, "{}: exec: {}", target.name(), stderr(&o));
    (status, stdout(&o))
}

/// `--node-ip` naming this host's IPv4 address: the pod's hostIP, hostIPs and HOST_IP/HOST_IPS.
fn a_named_node_ip_is_the_host_ip(target: Target) {
    let v4 = host_address(4);
    assert!(!v4.is_empty(), "this host has an IPv4 route");
    let ns = Namespace::for_target(target, "nodeip-one");
    let (st, env) = apply_with_node_ip(target, &ns, &v4, false);
    assert_eq!(st["hostIP"], v4.as_str(), "{}: {st}", target.name());
    assert_eq!(st["hostIPs"], serde_json::json!([{"ip": v4}]), "{}: {st}", target.name());
    let pod_ip = st["podIP"].as_str().unwrap_or_default();
    assert_eq!(env.split_whitespace().collect::<Vec<_>>(), [v4.as_str(), v4.as_str(), pod_ip], "{}", target.name());
}

/// A dual-stack pair, IPv6 first: both are the pod's hostIPs, the IPv6 one its hostIP, and a
/// hostNetwork pod's podIPs (rootless Podman runs no hostNetwork pod: a bridged one there).
/// Only where the host has a global IPv6 address (else the unit tests of `runtime::node_ip`
/// stand for it).
fn a_dual_stack_pair_is_the_host_ips(target: Target) {
    let (v4, v6) = (host_address(4), host_address(6));
    if v6.is_empty() {
        skip!("{}: this host has no global IPv6 address; the dual-stack case is left to the unit tests", target.name());
    }
    let ns = Namespace::for_target(target, "nodeip-dual");
    let host_network = !matches!(target, Target::Rootless(_));
    let (st, env) = apply_with_node_ip(target, &ns, &format!("{v6},{v4}"), host_network);
    let pair = format!("{v6},{v4}");
    assert_eq!(st["hostIP"], v6.as_str(), "{}: {st}", target.name());
    assert_eq!(st["hostIPs"], serde_json::json!([{"ip": v6}, {"ip": v4}]), "{}: {st}", target.name());
    let pod_ips = if host_network {
        assert_eq!((&st["podIP"], &st["podIPs"]), (&st["hostIP"], &st["hostIPs"]), "{}: {st}", target.name());
        pair.clone()
    } else {
        st["podIP"].as_str().unwrap_or_default().to_owned()
    };
    assert_eq!(env.split_whitespace().collect::<Vec<_>>(), [v6.as_str(), &pair, &pod_ips], "{}", target.name());
}

/// Loopback, an address not this host's and two IPv4 addresses are refused as bad usage (2),
/// before anything is made.
fn a_node_ip_the_kubelet_refuses_is_refused(target: Target) {
    let ns = Namespace::for_target(target, "nodeip-bad");
    let f = TempFile::new(
        "pod.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: ips}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}]\n"
        ),
    );
    assert!(!sh_out("ip -o addr").contains(" 192.0.2.1/"), "192.0.2.1 stands for an address not this host's");
    for (bad, words) in [
        ("127.0.0.1", "nodeIP can't be loopback address"),
        ("192.0.2.1", "node IP: \"192.0.2.1\" not found in the host's network interfaces"),
        ("1.2.3.4,5.6.7.8", "must contain either a single IP or a dual-stack pair of IPs"),
    ] {
        let o = target.run(&["apply", "-n", ns.name(), f.path(), "--timeout", "30s", "--node-ip", bad]);
        assert_eq!(code(&o), 2, "{} {bad}: {}", target.name(), stderr(&o));
        assert!(stderr(&o).contains(words), "{} {bad}: {}", target.name(), stderr(&o));
        let o = target.run(&["get", "-n", ns.name(), "-o", "json"]);
        let list: serde_json::Value =
            serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
        assert_eq!(list["items"], serde_json::json!([]), "{} {bad}: nothing made", target.name());
    }
}

fn sh_out(script: &str) -> String {
    let o = std::process::Command::new("sh").args(["-c", script]).output().expect("run sh");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

macro_rules! on_every_engine {
    ($case:ident, $docker:ident, $podman:ident, $rootless:ident, $cri:ident) => {
        #[test]
        fn $docker() {
            require_engine!();
            $case(Target::Engine(None));
        }

        #[test]
        fn $podman() {
            require_podman!(host);
            $case(Target::Engine(Some(&host)));
        }

        #[test]
        fn $rootless() {
            require_rootless!(user);
            $case(Target::Rootless(&user));
        }

        #[test]
        fn $cri() {
            require_cri!(endpoint);
            $case(Target::Cri(&endpoint));
        }
    };
}

on_every_engine!(
    a_named_node_ip_is_the_host_ip,
    e2e_docker_a_named_node_ip_is_the_host_ip,
    e2e_podman_a_named_node_ip_is_the_host_ip,
    e2e_rootless_a_named_node_ip_is_the_host_ip,
    e2e_cri_a_named_node_ip_is_the_host_ip
);

on_every_engine!(
    a_dual_stack_pair_is_the_host_ips,
    e2e_docker_a_dual_stack_pair_is_the_host_ips,
    e2e_podman_a_dual_stack_pair_is_the_host_ips,
    e2e_rootless_a_dual_stack_pair_is_the_host_ips,
    e2e_cri_a_dual_stack_pair_is_the_host_ips
);

on_every_engine!(
    a_node_ip_the_kubelet_refuses_is_refused,
    e2e_docker_a_node_ip_the_kubelet_refuses_is_refused,
    e2e_podman_a_node_ip_the_kubelet_refuses_is_refused,
    e2e_rootless_a_node_ip_the_kubelet_refuses_is_refused,
    e2e_cri_a_node_ip_the_kubelet_refuses_is_refused
);
