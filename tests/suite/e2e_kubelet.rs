//! What Kubernetes' node conformance tests assert of a kubelet, end to end on the real engine:
//! the hosts file, the pod's status (hostIP, phases, readiness, termination messages) after
//! podrun has exited, probe-level grace periods and activeDeadlineSeconds.

use std::process::Command;

use crate::common::*;

/// The only pod of `apply -o json`'s List.
fn applied(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)));
    v["items"][0].clone()
}

#[test]
fn e2e_host_aliases_are_written_as_the_kubelet_writes_them() {
    require_engine!();
    let ns = Namespace::new("hostaliases");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  hostname: h\n  hostAliases:\n  - {{ip: 10.1.2.3, hostnames: [foo.local, bar.local]}}\n  - {{ip: 10.1.2.4, hostnames: [baz]}}\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
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
fn e2e_a_liveness_probes_grace_period_overrides_the_pods() {
    require_engine!();
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

#[test]
fn e2e_a_failed_init_container_fails_the_pod_with_its_app_containers_waiting() {
    require_engine!();
    let ns = Namespace::new("initfail");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n  initContainers:\n  - {name: init, image: 'busybox:1.28', command: [sh, -c, 'exit 3']}\n  containers:\n  - {name: app, image: 'busybox:1.28', command: [sh, -c, 'sleep 100']}\n";
    let out = apply(&ns, pod, &["-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    // As the kubelet reports it (getPhase, convertToAPIContainerStatuses), while podrun ran
    // the pod and after it has exited.
    for (how, st) in [("apply", applied(&out)["status"].clone()), ("get", get_json(&ns, "p")["status"].clone())] {
        assert_eq!(st["phase"], "Failed", "{how}: {st}");
        assert_eq!(st["initContainerStatuses"][0]["state"]["terminated"]["exitCode"], 3, "{how}: {st}");
        let app = &st["containerStatuses"][0];
        assert_eq!(
            (app["name"].as_str(), app["state"]["waiting"]["reason"].as_str()),
            (Some("app"), Some("PodInitializing")),
            "{how}: {st}"
        );
        assert_eq!(app["ready"], false, "{how}");
    }
    let table = podrun(&["get", "p", "-n", ns.name()], None);
    assert_eq!(
        stdout(&table).lines().nth(1).map(|l| l.split_whitespace().take(3).collect::<Vec<_>>()),
        Some(vec!["p", "0/1", "Init:Error"])
    );
}

#[test]
fn e2e_get_shows_the_readiness_podrun_last_saw_never_ready_by_default() {
    require_engine!();
    let ns = Namespace::new("readiness");
    let probed = |name: &str, check: &str| {
        format!("  - name: {name}\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    readinessProbe: {{exec: {{command: [sh, -c, '{check}']}}, periodSeconds: 1}}\n")
    };
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n{}{}  - {{name: plain, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n",
        probed("never", "exit 1"),
        probed("passes", "true")
    );
    // Running is enough for apply: the probes have had a moment at most.
    let out = apply(&ns, &pod, &["--wait-for", "running"]);
    succeeded(&out);
    // Seen ready by a later run that waits for it... except the one that never passes.
    let out = apply(&ns, &pod, &["--wait-for", "ready", "--timeout", "5s"]);
    assert_eq!(code(&out), 5, "`never` never gets ready: {}", stderr(&out));
    let st = get_json(&ns, "p")["status"].clone();
    let ready: Vec<(String, bool)> = st["containerStatuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .map(|c| (c["name"].as_str().unwrap_or_default().to_owned(), c["ready"].as_bool().unwrap_or(true)))
        .collect();
    assert_eq!(
        ready,
        [("never".to_owned(), false), ("passes".to_owned(), true), ("plain".to_owned(), true)],
        "the last readiness podrun saw; no probe: ready while running: {st}"
    );
    let table = podrun(&["get", "p", "-n", ns.name()], None);
    assert!(stdout(&table).contains(" 2/3 "), "{}", stdout(&table));
}

#[test]
fn e2e_get_shows_termination_messages_as_apply_does() {
    require_engine!();
    let ns = Namespace::new("kubelet-termmsg");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: file, image: 'busybox:1.28', command: [sh, -c, 'echo from-the-file > /dev/termination-log']}\n  - {name: logs, image: 'busybox:1.28', command: [sh, -c, 'echo from-the-logs; sleep 1; exit 2'], terminationMessagePolicy: FallbackToLogsOnError}\n";
    let out = apply(&ns, pod, &["-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let message = |st: &serde_json::Value, i: usize| {
        st["containerStatuses"][i]["state"]["terminated"]["message"].as_str().unwrap_or_default().trim().to_owned()
    };
    let by_apply = applied(&out)["status"].clone();
    let by_get = get_json(&ns, "p")["status"].clone();
    for (how, st) in [("apply", &by_apply), ("get", &by_get)] {
        assert_eq!(message(st, 0), "from-the-file", "{how}: {st}");
        assert_eq!(message(st, 1), "from-the-logs", "{how}: {st}");
    }
}

#[test]
fn e2e_the_active_deadline_counts_from_the_pods_start_across_runs() {
    require_engine!();
    let ns = Namespace::new("deadline");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  activeDeadlineSeconds: 4\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    // Within the deadline: running, and apply returns.
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
    // A later run, waiting for what never comes, meets the deadline counted from the start.
    let started = std::time::Instant::now();
    let out = apply(&ns, &pod, &["--wait-for", "complete", "-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    let st = applied(&out)["status"].clone();
    assert_eq!((st["phase"].as_str(), st["reason"].as_str()), (Some("Failed"), Some("DeadlineExceeded")), "{st}");
    assert_eq!(st["message"], "Pod was active on the node longer than the specified deadline");
    assert_eq!(ns.running(), 0, "its containers were killed, the infra container too");
    assert_eq!(ns.containers().len(), 2, "and kept");
    let got = get_json(&ns, "p")["status"].clone();
    assert_eq!((got["phase"].as_str(), got["reason"].as_str()), (Some("Failed"), Some("DeadlineExceeded")), "{got}");
    // Applied again, it stays failed: nothing starts.
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert_eq!(ns.running(), 0);

    // Under --supervise too: supervision ends at the deadline, with exit 6.
    let sup = Namespace::new("deadline-sup");
    let f = TempFile::new("pod.yaml", &pod);
    let started = std::time::Instant::now();
    // Bounded: a supervision that does not end is killed, and the test fails.
    let out = Command::new("timeout")
        .args(["60", PODRUN, "apply", f.path(), "-n", sup.name(), "--supervise"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run podrun under timeout");
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(sup.running(), 0);
}
