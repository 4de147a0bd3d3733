//! What Kubernetes' node conformance tests assert of a kubelet, end to end on the real engine:
//! the hosts file, the pod's status (hostIP, phases, readiness, termination messages) after
//! podrun has exited, probe-level grace periods and activeDeadlineSeconds.

mod common;

use std::process::Command;

use common::*;

const LOOP: &str = "trap \"exit 0\" TERM; while true; do sleep 1 & wait; done";

fn apply(ns: &Namespace, manifest: &str, extra: &[&str]) -> std::process::Output {
    let f = TempFile::new("pod.yaml", manifest);
    let mut args = vec!["apply", f.path(), "-n", ns.name()];
    args.extend_from_slice(extra);
    podrun(&args, None)
}

fn id_of(ns: &Namespace, container: &str) -> String {
    ns.containers()
        .into_iter()
        .find(|(_, n)| n.contains(&format!("_{container}_")))
        .map(|(id, _)| id)
        .unwrap_or_else(|| panic!("no container {container}"))
}

fn exec(id: &str, script: &str) -> String {
    let out = Command::new("docker").args(["exec", id, "sh", "-c", script]).output().expect("docker exec");
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// `podrun get POD -o json`: the Pod object.
fn get_json(ns: &Namespace, pod: &str) -> serde_json::Value {
    let out = podrun(&["get", pod, "-n", ns.name(), "-o", "json"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("get -o json is JSON")
}

/// The only pod of `apply -o json`'s List.
fn applied(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)));
    v["items"][0].clone()
}

#[test]
fn e2e_host_aliases_are_written_as_the_kubelet_writes_them() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("hostaliases");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  hostname: h\n  hostAliases:\n  - {{ip: 10.1.2.3, hostnames: [foo.local, bar.local]}}\n  - {{ip: 10.1.2.4, hostnames: [baz]}}\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let hosts = exec(&id_of(&ns, "c"), "cat /etc/hosts");
    assert!(hosts.starts_with("# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n"), "{hosts}");
    assert!(
        hosts.ends_with("\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n10.1.2.4\tbaz\n"),
        "one line per IP, its hostnames tab-separated: {hosts}"
    );
    let ip = get_json(&ns, "p")["status"]["podIP"].as_str().unwrap_or_default().to_owned();
    assert!(hosts.contains(&format!("\n{ip}\th\n")), "the pod's own address and hostname: {hosts}");
}

#[test]
fn e2e_host_ip_is_the_engine_hosts_address_on_the_pod_network() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("hostip");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    env: [{{name: HOST_IP, valueFrom: {{fieldRef: {{fieldPath: status.hostIP}}}}}}]\n"
    );
    let out = apply(&ns, &pod, &["-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let infra = id_of(&ns, "POD");
    let gateway = ns.inspect(&infra, "{{range .NetworkSettings.Networks}}{{.Gateway}}{{end}}");
    assert!(!gateway.is_empty(), "the pod's network has a gateway");
    let st = &applied(&out)["status"];
    assert_eq!(st["hostIP"], gateway.as_str(), "{st}");
    assert_eq!(st["hostIPs"][0]["ip"], gateway.as_str());
    let got = get_json(&ns, "p");
    assert_eq!(got["status"]["hostIP"], gateway.as_str(), "podrun get says the same");
    assert_eq!(exec(&id_of(&ns, "c"), "echo $HOST_IP").trim(), gateway, "as the downward API gives it");
}

#[test]
fn e2e_a_liveness_probes_grace_period_overrides_the_pods() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("probegrace");
    // The container ignores SIGTERM: only SIGKILL, at the end of the grace period, ends it. The
    // pod's 500 s would hold the kill past the timeout; the probe's 2 s end it at once.
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 500\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, 'trap \"\" TERM; while true; do sleep 1; done']\n    livenessProbe: {exec: {command: [sh, -c, 'exit 1']}, periodSeconds: 1, failureThreshold: 1, terminationGracePeriodSeconds: 2}\n";
    let started = std::time::Instant::now();
    let out = apply(&ns, pod, &["--timeout", "60s", "-o", "json"]);
    let took = started.elapsed();
    assert_eq!(code(&out), 6, "the container was killed, and Never does not restart it: {}", stderr(&out));
    assert!(took < std::time::Duration::from_secs(30), "killed after the probe's grace, not the pod's: {took:?}");
    let t = &applied(&out)["status"]["containerStatuses"][0]["state"]["terminated"];
    assert_eq!(t["exitCode"], 137, "SIGKILL at the end of the probe's grace period: {t}");
    assert!(t["message"].as_str().unwrap_or_default().contains("liveness probe failed"), "{t}");
}
