//! podrun against Podman's Docker-compatible API (`podman system service`), end to end.
//!
//! `scripts/test` starts a Podman service of its own and names it in PODRUN_PODMAN_HOST
//! (`unix:///path`). Without it these tests say so and pass, unless end-to-end tests are
//! required (PODRUN_E2E=required, as scripts/test sets it, or CI=true): then it is a failure.

use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::*;

/// An init container writes the page into an emptyDir; `server` serves it on port 8080 (ready
/// once it listens); `client` fetches it from 127.0.0.1 (the pod's shared network namespace)
/// and prints it, after its hostname (the pod's, through the shared UTS namespace).
const WEB: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  terminationGracePeriodSeconds: 2
  volumes:
  - {name: www, emptyDir: {}}
  initContainers:
  - name: init
    image: busybox:1.28
    command: [sh, -c, 'echo page-from-init > /www/index.html']
    volumeMounts: [{name: www, mountPath: /www}]
  containers:
  - name: server
    image: busybox:1.28
    command: [sh, -c, 'trap "exit 0" TERM; httpd -f -p 8080 -h /www & wait']
    volumeMounts: [{name: www, mountPath: /www}]
    readinessProbe:
      tcpSocket: {port: 8080}
      periodSeconds: 1
  - name: client
    image: busybox:1.28
    command:
    - sh
    - -c
    - |
      trap "exit 0" TERM
      echo "hostname=$(cat /proc/sys/kernel/hostname)"
      until wget -q -O - http://127.0.0.1:8080/index.html; do sleep 0.2; done
      while true; do sleep 1 & wait; done
"#;

#[test]
fn e2e_podman_runs_a_pod_reapplies_it_idempotently_and_deletes_it() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "podman-web");
    let f = TempFile::new("web.yaml", WEB);
    let apply = || {
        podrun_on(&host, &["apply", f.path(), "-n", ns.name(), "--wait-for", "ready", "--timeout", "60s", "-o", "json"])
    };

    let out = apply();
    succeeded(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let status = &v["items"][0]["status"];
    assert_eq!(status["phase"], "Running", "{status}");
    assert!(status["podIP"].as_str().is_some_and(|ip| !ip.is_empty()), "{status}");
    let init = &status["initContainerStatuses"][0];
    assert_eq!(init["state"]["terminated"]["exitCode"], 0, "{init}");
    let apps = status["containerStatuses"].as_array().expect("containerStatuses");
    assert_eq!(apps.len(), 2, "{status}");
    for c in apps {
        assert!(c["state"]["running"].is_object(), "{c}");
        assert_eq!(c["ready"], true, "{c}");
        assert_eq!(c["restartCount"], 0, "{c}");
    }
    // The infra container runs podrun's pause image, loaded into Podman on first use.
    let before = ns.containers();
    assert_eq!(before.len(), 4, "infra, init and two app containers: {before:?}");
    let infra = before.iter().find(|(_, n)| n.contains("_POD_")).expect("infra container");
    assert_eq!(ns.inspect(&infra.0, "{{.State.Running}} {{.Config.User}}"), "true 65535:65535");

    // The client reached the server on localhost and saw the init container's file, and
    // its hostname is the pod's.
    let client_logs = || stdout(&podrun_on(&host, &["logs", "web", "-c", "client", "-n", ns.name()]));
    wait_until("the client's logs hold page-from-init", Duration::from_secs(20), || {
        let logs = client_logs();
        if logs.contains("page-from-init") {
            Ok(())
        } else {
            Err(logs)
        }
    });
    let logs = client_logs();
    assert!(logs.contains("hostname=web"), "{logs}");

    // Re-apply: nothing is recreated.
    let again = apply();
    succeeded(&again);
    assert_eq!(ns.containers(), before, "an unchanged manifest changes nothing");

    let get = podrun_on(&host, &["get", "web", "-n", ns.name(), "-o", "json"]);
    succeeded(&get);
    let v: serde_json::Value = serde_json::from_slice(&get.stdout).expect("get -o json");
    assert_eq!(v["status"]["phase"], "Running");

    // exec: the page the init container wrote, stdin passed on, the command's exit status.
    let mut args = vec!["--host", host.as_str(), "exec", "web", "-c", "server", "-i", "-q", "-n", ns.name()];
    args.extend(["--", "sh", "-c", "cat /www/index.html; wc -c; exit 9"]);
    let out = podrun(&args, Some("12345"));
    assert_eq!(code(&out), 9, "{}", stderr(&out));
    assert!(stdout(&out).contains("page-from-init"), "{}", stdout(&out));
    assert!(stdout(&out).trim_end().ends_with('5'), "{}", stdout(&out));
    // With a terminal: raw output (the exec is started by podrun itself, see raw_exec.rs).
    let out = podrun_on(
        &host,
        &["exec", "web", "-c", "server", "-t", "-q", "-n", ns.name(), "--", "sh", "-c", "tty; exit 4"],
    );
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("/dev/pts/") && stdout(&out).ends_with("\r\n"), "{:?}", stdout(&out));

    let del = podrun_on(&host, &["delete", f.path(), "-n", ns.name()]);
    succeeded(&del);
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    // As kubectl: a pod named that is not there is NotFound, exit 1, unless --ignore-not-found.
    let del = podrun_on(&host, &["delete", "web", "-n", ns.name()]);
    assert_eq!(code(&del), 1, "{}", stderr(&del));
    assert!(stderr(&del).contains(r#"pods "web" not found"#), "{}", stderr(&del));
    let del = podrun_on(&host, &["delete", "web", "--ignore-not-found", "-n", ns.name()]);
    assert_eq!(code(&del), 0, "{}", stderr(&del));
}

#[test]
fn e2e_podman_a_failing_container_under_never_exits_6() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "podman-fail");
    let f = TempFile::new(
        "fail.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: failing}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: bad, image: 'busybox:1.28', command: [sh, -c, 'sleep 0.5; exit 3']}\n",
    );
    let started = Instant::now();
    let out = podrun_on(&host, &["apply", f.path(), "-n", ns.name(), "--timeout", "60s"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(stdout(&out).contains("exit code 3"), "{}", stdout(&out));
    assert!(started.elapsed() < Duration::from_secs(30), "took {:?}", started.elapsed());
}

#[test]
fn e2e_podman_concurrent_applies_make_one_pod() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "podman-race");
    let f = TempFile::new(
        "race.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: race}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: a, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
        ),
    );
    // Both create the same containers by name; the loser's create is refused (Podman answers
    // 500 where Docker answers 409) and it takes the winner's container, without a warning.
    // A few rounds: which create comes second is a matter of timing.
    for round in 0..3 {
        let outs: Vec<Output> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..2)
                .map(|_| s.spawn(|| podrun_on(&host, &["apply", f.path(), "-n", ns.name(), "--timeout", "60s"])))
                .collect();
            runs.into_iter().map(|r| r.join().expect("apply thread")).collect()
        });
        for out in &outs {
            assert_eq!(code(out), 0, "round {round}: {}", stderr(out));
            assert!(!stderr(out).contains("warning"), "round {round}: {}", stderr(out));
        }
        assert_eq!(ns.containers().len(), 2, "one infra and one app container: {:?}", ns.containers());
        let del = podrun_on(&host, &["delete", "race", "-n", ns.name(), "--grace-period", "0"]);
        succeeded(&del);
    }
}

/// On Podman as on Docker: a pod applied with one state directory is named, not touched, by a
/// delete with another (exit 8), and deleted by its own.
#[test]
fn e2e_podman_a_pod_of_another_state_directory_is_named_and_left_running() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "podman-other-state");
    let (a, b) = (StateDir::new("podman-other-state-a"), StateDir::new("podman-other-state-b"));
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: a, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    let f = TempFile::new("web.yaml", &pod);
    succeeded(&a.apply_file_on(Some(&host), &ns, f.path(), &["--timeout", "60s"]));
    assert_eq!(ns.running(), 2, "{:?}", ns.containers());

    let out = b.run_on(Some(&host), &["delete", "web", "-n", ns.name()]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    let said = format!("2 container(s) of pod {}/web (", ns.name());
    assert!(stderr(&out).contains(&said) && stderr(&out).contains(b.path()), "{}", stderr(&out));
    assert_eq!(ns.running(), 2, "left running: {:?}", ns.containers());

    succeeded(&a.run_on(Some(&host), &["delete", "web", "-n", ns.name()]));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}
