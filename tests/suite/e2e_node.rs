//! What a kubelet's node does for a pod that podrun must do too, end to end on the real
//! engine: the node's IP for hostNetwork pods, the seccomp default, OOM score adjustment by
//! QoS class, and admission (sysctls, the host's CPU and memory) before anything is created.

use std::process::Command;

use crate::common::*;

/// The only pod of `apply -o json`'s List.
fn applied(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)));
    v["items"][0].clone()
}

fn sh(script: &str) -> String {
    let out = Command::new("sh").args(["-c", script]).output().expect("sh");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The node IP as a kubelet without --node-ip picks it, by other means than podrun's: the host
/// name's addresses that are this host's own and not loopback or link-local, else the address
/// of the IPv4 default route's interface (iproute2 and getent).
pub fn node_ip() -> String {
    sh(r#"for a in $(getent ahostsv4 "$(hostname)" | awk '{print $1}' | sort -u); do
          case $a in 127.*|169.254.*) ;; *) ip -o addr | grep -q " inet $a/" && { echo "$a"; exit; } ;; esac
        done
        dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit }}')
        ip -4 -o addr show dev "$dev" scope global | awk '{split($4, a, "/"); print a[1]; exit}'"#)
}

#[test]
fn e2e_a_host_network_pod_has_the_nodes_ip() {
    require_engine!();
    let expected = node_ip();
    assert!(!expected.is_empty(), "this host has a node IP");
    let ns = Namespace::new("hostnet-ip");
    let pod = format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: hn}}
spec:
  terminationGracePeriodSeconds: 1
  hostNetwork: true
  containers:
  - name: c
    image: busybox:1.28
    command: [sh, -c, 'echo "pod=$POD_IP host=$HOST_IP ips=$POD_IPS"; {LOOP}']
    env:
    - {{name: POD_IP, valueFrom: {{fieldRef: {{fieldPath: status.podIP}}}}}}
    - {{name: HOST_IP, valueFrom: {{fieldRef: {{fieldPath: status.hostIP}}}}}}
    - {{name: POD_IPS, valueFrom: {{fieldRef: {{fieldPath: status.podIPs}}}}}}
"#
    );
    let out = apply(&ns, &pod, &["-o", "json"]);
    succeeded(&out);
    let st = &applied(&out)["status"];
    for key in ["podIP", "hostIP"] {
        assert_eq!(st[key], expected.as_str(), "{key}: {st}");
    }
    assert_eq!(st["podIPs"], serde_json::json!([{"ip": expected}]), "{st}");
    assert_eq!(st["hostIPs"], serde_json::json!([{"ip": expected}]), "{st}");
    let logs = ns.logs(&id_of(&ns, "c"));
    assert!(logs.contains(&format!("pod={expected} host={expected} ips={expected}")), "{logs}");
    // podrun get, from another process, says the same.
    let st = &get_json(&ns, "hn")["status"];
    assert_eq!(
        (st["podIP"].as_str(), st["hostIP"].as_str()),
        (Some(expected.as_str()), Some(expected.as_str())),
        "{st}"
    );
    assert_eq!(st["podIPs"], serde_json::json!([{"ip": expected}]), "{st}");
}

/// `Seccomp:` of /proc/self/status in each container of the pod `s` (0: none, 2: a filter).
fn seccomp_modes(ns: &Namespace, containers: &[&str]) -> Vec<String> {
    containers
        .iter()
        .map(|c| {
            let status = exec(&id_of(ns, c), "grep '^Seccomp:' /proc/self/status");
            status.trim().trim_start_matches("Seccomp:").trim().to_owned()
        })
        .collect()
}

const SECCOMP_POD: &str = concat!(
    r#"apiVersion: v1
kind: Pod
metadata: {name: s}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: unset, image: busybox:1.28, command: [sh, -c, '"#,
    loop_sh!(),
    r#"']}
  - name: runtime
    image: busybox:1.28
    command: [sh, -c, '"#,
    loop_sh!(),
    r#"']
    securityContext: {seccompProfile: {type: RuntimeDefault}}
  - name: unconfined
    image: busybox:1.28
    command: [sh, -c, '"#,
    loop_sh!(),
    r#"']
    securityContext: {seccompProfile: {type: Unconfined}}
"#
);

#[test]
fn e2e_containers_without_a_seccomp_profile_run_unconfined_as_under_a_kubelet() {
    require_engine!();
    let names = ["unset", "runtime", "unconfined"];
    let ns = Namespace::new("seccomp");
    let out = apply(&ns, SECCOMP_POD, &[]);
    succeeded(&out);
    assert_eq!(seccomp_modes(&ns, &names), ["0", "2", "0"]);

    // --seccomp-default: the engine's profile where none is named; explicit ones still win.
    let ns = Namespace::new("seccomp-default");
    let out = apply(&ns, SECCOMP_POD, &["--seccomp-default"]);
    succeeded(&out);
    assert_eq!(seccomp_modes(&ns, &names), ["2", "2", "0"]);

    // The pod's securityContext counts as the container's, and a container's own overrides it.
    let ns = Namespace::new("seccomp-pod");
    let pod = SECCOMP_POD
        .replace("spec:\n", "spec:\n  securityContext: {seccompProfile: {type: RuntimeDefault}}\n")
        .replace("type: RuntimeDefault}}\n  - name: unconfined", "type: Unconfined}}\n  - name: unconfined");
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
    assert_eq!(seccomp_modes(&ns, &names), ["2", "0", "0"]);
}

fn oom_pod(name: &str, spec: &str, resources: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n{spec}  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    resources: {resources}\n"
    )
}

fn oom_score(ns: &Namespace) -> i64 {
    let score = exec(&id_of(ns, "c"), "cat /proc/1/oom_score_adj");
    score.trim().parse().unwrap_or_else(|_| panic!("{score:?}"))
}

#[test]
fn e2e_oom_scores_follow_the_qos_class_as_the_kubelet_sets_them() {
    require_engine!();
    let memory = sh("awk '/^MemTotal:/ {print $2}' /proc/meminfo").parse::<i64>().expect("MemTotal in kB") * 1024;
    let floor = engine_oom_floor();

    let ns = Namespace::new("oom-besteffort");
    let out = apply(&ns, &oom_pod("b", "", "{}"), &["-o", "json"]);
    succeeded(&out);
    assert_eq!(applied(&out)["status"]["qosClass"], "BestEffort");
    assert_eq!(oom_score(&ns), 1000);
    assert_eq!(get_json(&ns, "b")["status"]["qosClass"], "BestEffort");

    let ns = Namespace::new("oom-burstable");
    let request = 256 << 20;
    let out = apply(&ns, &oom_pod("u", "", "{requests: {memory: 256Mi}}"), &["-o", "json"]);
    succeeded(&out);
    assert_eq!(applied(&out)["status"]["qosClass"], "Burstable");
    let expected = (1000 - 1000 * request / memory).clamp(3, 999);
    assert_eq!(oom_score(&ns), expected, "1000 - 1000 * {request} / {memory}");
    assert!(!stderr(&out).contains("OOM score"), "{}", stderr(&out));

    // Guaranteed: -997, raised to what the engine can give; the pod runs either way, and when
    // raised podrun says why. Its infra container gets a sandbox's -998, likewise.
    let ns = Namespace::new("oom-guaranteed");
    let resources = "{limits: {cpu: 100m, memory: 64Mi}}";
    let out = apply(&ns, &oom_pod("g", "", resources), &["-o", "json"]);
    succeeded(&out);
    assert_eq!(applied(&out)["status"]["qosClass"], "Guaranteed");
    assert_eq!(oom_score(&ns), (-997).max(floor));
    let infra = ns.containers().into_iter().find(|(_, n)| n.contains("_POD_")).expect("an infra container").0;
    assert_eq!(ns.inspect(&infra, "{{.HostConfig.OomScoreAdj}}").trim(), (-998).max(floor).to_string());
    let warned = stderr(&out).contains("the engine lacks CAP_SYS_RESOURCE: no score below its own");
    assert_eq!(warned, floor > -997, "{}", stderr(&out));

    // A static pod of the system-node-critical class is node-critical: -997 whatever its QoS,
    // and its priorityClassName is not one that "only matters on a cluster".
    let ns = Namespace::new("oom-critical");
    let out = apply(&ns, &oom_pod("n", "  priorityClassName: system-node-critical\n", "{}"), &["-o", "json"]);
    succeeded(&out);
    assert_eq!(applied(&out)["status"]["qosClass"], "BestEffort");
    assert_eq!(oom_score(&ns), (-997).max(floor));
    assert!(!stderr(&out).contains("priorityClassName"), "{}", stderr(&out));
    let ns = Namespace::new("oom-cluster-critical");
    let out = apply(&ns, &oom_pod("k", "  priorityClassName: system-cluster-critical\n", "{}"), &[]);
    succeeded(&out);
    assert_eq!(oom_score(&ns), 1000, "system-cluster-critical is not node-critical");
    assert!(stderr(&out).contains("only matter on a cluster: spec.priorityClassName"), "{}", stderr(&out));
}

/// The kubelet's admission, before anything is created: a sysctl outside the safe set and
/// `--allowed-unsafe-sysctls` is SysctlForbidden, a pod requesting more CPU or memory than
/// the node has is OutOfcpu or OutOfmemory; each exit 2 with the kubelet's reason. Before,
/// the engine's infra container failed and the run retried until its deadline.
#[test]
fn e2e_the_node_refuses_a_forbidden_sysctl_and_a_pod_that_does_not_fit() {
    require_engine!();
    let ns = Namespace::new("admission");
    let sysctl = |name: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: tuned}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             securityContext: {{sysctls: [{{name: {name}, value: '1024'}}]}}\n  \
             containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}]\n"
        )
    };
    let out = apply(&ns, &sysctl("kernel.msgmax"), &["--timeout", "30s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("SysctlForbidden: Pod was rejected: forbidden sysctl: \"kernel.msgmax\" not allowlisted"),
        "{}",
        stderr(&out)
    );
    assert!(ns.containers().is_empty(), "nothing created: {:?}", ns.containers());
    // Allowed, it is set in the pod's own IPC namespace; a safe one needs no flag.
    let out = apply(&ns, &sysctl("kernel.msgmax"), &["--timeout", "30s", "--allowed-unsafe-sysctls", "kernel.msg*"]);
    succeeded(&out);
    assert_eq!(exec(&id_of(&ns, "c"), "cat /proc/sys/kernel/msgmax"), "1024\n");
    let out = podrun(&["delete", "tuned", "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
    let out = apply(&ns, &sysctl("net.ipv4.ip_unprivileged_port_start"), &["--timeout", "30s"]);
    succeeded(&out);
    let out = podrun(&["delete", "tuned", "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
    // A pattern for a sysctl the kernel does not keep per pod is a usage error.
    let out = apply(&ns, &sysctl("vm.swappiness"), &["--allowed-unsafe-sysctls", "vm.*"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("not known to be namespaced"), "{}", stderr(&out));

    // More CPU or memory than the host has.
    let cpus = std::thread::available_parallelism().unwrap().get();
    let big = |resources: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: big}}\nspec:\n  \
             containers: [{{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}'], resources: {resources}}}]\n"
        )
    };
    let out = apply(&ns, &big(&format!("{{requests: {{cpu: '{}'}}}}", cpus + 1)), &["--timeout", "30s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let want = format!(
        "OutOfcpu: Pod was rejected: Node didn't have enough resource: cpu, requested: {}, used: 0, capacity: {}",
        (cpus + 1) * 1000,
        cpus * 1000
    );
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
    let out = apply(&ns, &big("{limits: {memory: 64Ti}}"), &["--timeout", "30s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("OutOfmemory: Pod was rejected: Node didn't have enough resource: memory"),
        "{}",
        stderr(&out)
    );
    assert!(ns.containers().is_empty(), "nothing created: {:?}", ns.containers());
}

/// The node's admission of what it cannot run, before anything is created, on Docker and
/// through the CRI alike: a pod for Windows (PodOSNotSupported), a pod still gated (a static
/// pod may not be), a pod asking for a device no plugin gives (OutOf<resource>); exit 2 with
/// the kubelet's reason. Before, each ran: on Linux, ungated, without the device.
fn the_node_refuses_what_it_cannot_run(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let cases = [
        ("  os: {name: windows}\n", "{}", "PodOSNotSupported: Pod was rejected: Failed to admit pod as the OS field doesn't match node OS"),
        ("  schedulingGates: [{name: example.com/quota}]\n", "{}", "SchedulingGated: Pod was rejected: the pod has schedulingGates (\"example.com/quota\")"),
        ("", "{limits: {example.com/widget: 1}}", "OutOfexample.com/widget: Pod was rejected: Node didn't have enough resource: example.com/widget, requested: 1, used: 0, capacity: 0"),
    ];
    for (spec, resources, want) in cases {
        let manifest = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: refused}}\nspec:\n{spec}  restartPolicy: Never\n  \
             containers: [{{name: c, image: busybox:1.28, command: ['true'], resources: {resources}}}]\n"
        );
        let f = TempFile::new("pod.yaml", &manifest);
        let out = target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "30s"].map(str::to_owned));
        assert_eq!(code(&out), 2, "{} on {}: {}", want, target.name(), stderr(&out));
        assert!(stderr(&out).contains(want), "on {}: {}", target.name(), stderr(&out));
        assert!(ns.containers().is_empty(), "nothing created: {:?}", ns.containers());
    }
    // Linux, ungated, no device: it runs.
    let f = TempFile::new(
        "pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: fine}\nspec:\n  os: {name: linux}\n  restartPolicy: Never\n  \
         containers: [{name: c, image: busybox:1.28, command: ['true']}]\n",
    );
    let out = target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"].map(str::to_owned));
    assert_eq!(code(&out), 0, "on {}: {}", target.name(), stderr(&out));
}

#[test]
fn e2e_the_node_refuses_what_it_cannot_run_on_docker() {
    require_engine!();
    the_node_refuses_what_it_cannot_run(Target::Engine(None), "cannot-run");
}

#[test]
fn e2e_the_node_refuses_what_it_cannot_run_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    the_node_refuses_what_it_cannot_run(Target::Cri(&endpoint), "cannot-run-cri");
}
