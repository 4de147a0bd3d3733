//! `podrun get` and `podrun logs` end to end, against the real engine: pods found by labels.

use crate::common::*;

/// Two containers that say who they are, then sleep until stopped.
const PAIR: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: pair}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, 'echo first-a; echo second-a; ",
    loop_sh!(),
    "']
  - name: b
    image: busybox:1.28
    command: [sh, -c, 'echo from-b; ",
    loop_sh!(),
    "']
"
);

#[test]
fn e2e_get_lists_a_running_pod_as_kubectl_does() {
    require_engine!();
    let ns = Namespace::new("get");
    let out = apply(&ns, PAIR, &[]);
    succeeded(&out);

    let out = podrun(&["get", "-n", ns.name()], None);
    succeeded(&out);
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["NAME", "READY", "STATUS", "RESTARTS", "AGE"], "{text}");
    assert_eq!(rows[1][..4], ["pair", "2/2", "Running", "0"], "{text}");

    // One pod by name is the Pod object itself, as `kubectl get pod pair -o json` prints it.
    let out = podrun(&["get", "pair", "-n", ns.name(), "-o", "json"], None);
    succeeded(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(v["kind"], "Pod");
    assert_eq!(v["metadata"]["name"], "pair");
    assert_eq!(v["status"]["phase"], "Running");
    assert!(v["status"]["podIP"].as_str().is_some_and(|ip| !ip.is_empty()), "{v}");
    let names: Vec<&str> = v["status"]["containerStatuses"]
        .as_array()
        .expect("containerStatuses")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    let out = podrun(&["get", "pair", "-n", ns.name(), "-o", "yaml"], None);
    succeeded(&out);
    assert!(stdout(&out).starts_with("apiVersion: v1\nkind: Pod\n"), "{}", stdout(&out));

    // Without a name, or with several, a List, as kubectl prints it; a name not found is said
    // on stderr after the List of those found, and exits 1.
    for (args, want) in [(&[][..], 0), (&["pair", "pair"][..], 0), (&["pair", "nope"][..], 1)] {
        let mut argv = vec!["get", "-n", ns.name(), "-o", "json"];
        argv.extend_from_slice(args);
        let out = podrun(&argv, None);
        assert_eq!(code(&out), want, "{args:?}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(v["kind"], "List", "{args:?}");
        let items = v["items"].as_array().expect("items");
        assert_eq!(items.len(), args.iter().filter(|a| **a == "pair").count().max(1), "{args:?}: {v}");
        assert!(items.iter().all(|p| p["kind"] == "Pod" && p["metadata"]["name"] == "pair"), "{v}");
        assert!(items[0]["status"]["podIP"].is_string(), "{v}");
        let missing = stderr(&out).contains(r#"Error from server (NotFound): pods "nope" not found"#);
        assert_eq!(missing, want == 1, "{}", stderr(&out));
    }

    let out = podrun(&["get", "-A", "-o", "wide"], None);
    succeeded(&out);
    let text = stdout(&out);
    assert!(text.starts_with("NAMESPACE"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with(ns.name()) && l.contains("pair") && l.contains("busybox:1.28")),
        "{text}"
    );
}

#[test]
fn e2e_get_of_a_missing_pod_fails_and_an_empty_namespace_says_so() {
    require_engine!();
    let ns = Namespace::new("get-missing");
    let out = podrun(&["get", "nope", "-n", ns.name()], None);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains(r#"Error from server (NotFound): pods "nope" not found"#), "{}", stderr(&out));
    let out = podrun(&["get", "-n", ns.name()], None);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains(&format!("No resources found in {} namespace.", ns.name())));
    let out = podrun(&["logs", "nope", "-n", ns.name()], None);
    assert_eq!(code(&out), 1);
}

#[test]
fn e2e_logs_print_a_containers_output() {
    require_engine!();
    let ns = Namespace::new("logs");
    let out = apply(&ns, PAIR, &[]);
    succeeded(&out);
    // The output may reach the engine a moment after the pod runs.
    let logs = |extra: &[&str]| {
        let mut args = vec!["logs", "pair", "-n", ns.name()];
        args.extend_from_slice(extra);
        podrun(&args, None)
    };
    wait_until("a's logs hold second-a", std::time::Duration::from_secs(5), || {
        let said = stdout(&logs(&["-c", "a"]));
        if said.contains("second-a") {
            Ok(())
        } else {
            Err(said)
        }
    });
    let out = logs(&["-c", "a"]);
    succeeded(&out);
    assert_eq!(stdout(&out), "first-a\nsecond-a\n");
    assert_eq!(stdout(&logs(&["-c", "a", "--tail", "1"])), "second-a\n");

    // Without -c, kubectl's default: the first app container, with a note saying so.
    let out = logs(&[]);
    succeeded(&out);
    assert_eq!(stdout(&out), "first-a\nsecond-a\n");
    assert!(stderr(&out).contains(r#"Defaulted container "a" out of: a, b"#), "{}", stderr(&out));

    let out = logs(&["--all-containers", "--prefix"]);
    succeeded(&out);
    assert_eq!(stdout(&out), "[pod/pair/a] first-a\n[pod/pair/a] second-a\n[pod/pair/b] from-b\n");

    let out = logs(&["-c", "nope"]);
    assert_eq!(code(&out), 1);
}

#[test]
fn e2e_previous_logs_are_the_instance_before_the_restart() {
    require_engine!();
    let ns = Namespace::new("logs-previous");
    let pod = "\
apiVersion: v1
kind: Pod
metadata: {name: crash}
spec:
  restartPolicy: Always
  containers:
  - name: c
    image: busybox:1.28
    # The count lives in an emptyDir, which outlives the container's restarts.
    command: [sh, -c, 'n=$(cat /d/n 2>/dev/null || echo 0); echo attempt-$n; echo $((n+1)) > /d/n; exit 1']
    volumeMounts: [{name: d, mountPath: /d}]
  volumes: [{name: d, emptyDir: {}}]
";
    let out = apply(&ns, pod, &["--retries", "1", "--crash-backoff", "100ms", "--timeout", "60s"]);
    assert_ne!(code(&out), 0, "the container keeps failing");

    let current = podrun(&["logs", "crash", "-n", ns.name()], None);
    let previous = podrun(&["logs", "crash", "-n", ns.name(), "--previous"], None);
    succeeded(&current);
    succeeded(&previous);
    // Two attempts kept (the current and the previous), with consecutive counts.
    let n = |s: String| s.trim().trim_start_matches("attempt-").parse::<u32>().unwrap_or(u32::MAX);
    let (prev, cur) = (n(stdout(&previous)), n(stdout(&current)));
    assert_eq!(prev.checked_add(1), Some(cur), "previous {prev}, current {cur}");

    let out = podrun(&["get", "crash", "-n", ns.name()], None);
    let text = stdout(&out);
    let row: Vec<&str> = text.lines().nth(1).unwrap_or_default().split_whitespace().collect();
    assert_eq!(row[..3], ["crash", "0/1", "Error"], "{text}");
    assert_ne!(row[3], "0", "{text}");
}

/// A container with a terminal writes raw bytes (no stream frames): its logs come byte for
/// byte, also where they look like a frame header, whole or followed, and with `apply --logs`.
#[test]
fn e2e_logs_of_a_terminal_container_are_byte_for_byte() {
    require_engine!();
    let ns = Namespace::new("logs-tty");
    let pod = r#"apiVersion: v1
kind: Pod
metadata: {name: term}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox:1.28
    tty: true
    command: [sh, -c, 'printf "\\001\\000\\000\\000\\000\\000\\000\\177x\\n"; echo end']
"#;
    let out = apply(&ns, pod, &["--logs", "-q"]);
    succeeded(&out);
    assert_eq!(out.stdout, b"c | \x01\0\0\0\0\0\0\x7fx\nc | end\n", "apply --logs: {:?}", out.stdout);
    let want = b"\x01\0\0\0\0\0\0\x7fx\r\nend\r\n";
    for extra in [&[][..], &["-f"][..]] {
        let mut args = vec!["logs", "term", "-n", ns.name()];
        args.extend_from_slice(extra);
        let out = podrun(&args, None);
        succeeded(&out);
        assert_eq!(out.stdout, want, "logs {extra:?}: {:?}", out.stdout);
    }
}
