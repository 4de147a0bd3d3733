//! Kubelet-grade sync end to end: init containers, restarts and crash backoff, re-apply and
//! drift, lifecycle hooks, grace periods, concurrency and signals, against the real engine.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

fn two_containers(b_command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: drift}}\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n  - {{name: a, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n  - {{name: b, image: 'busybox:1.28', command: [sh, -c, '{b_command}']}}\n"
    )
}

fn id_of(ns: &Namespace, container: &str) -> Option<String> {
    ns.containers().into_iter().find(|(_, n)| n.contains(&format!("_{container}_"))).map(|(id, _)| id)
}

#[test]
fn e2e_init_containers_run_in_order_before_the_app_containers() {
    require_engine!();
    let ns = Namespace::new("init");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: init}}\nspec:\n  terminationGracePeriodSeconds: 2\n  initContainers:\n  - {{name: one, image: 'busybox:1.28', command: [sh, -c, 'sleep 1']}}\n  - {{name: side, image: 'busybox:1.28', restartPolicy: Always, command: [sh, -c, '{LOOP}']}}\n  - {{name: two, image: 'busybox:1.28', command: [sh, -c, 'exit 0']}}\n  containers:\n  - {{name: app, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    let out = apply(&ns, &pod, &["-o", "json"]);
    succeeded(&out);
    let time = |c: &str, what: &str| ns.inspect(&id_of(&ns, c).expect(c), &format!("{{{{.State.{what}}}}}"));
    assert!(time("one", "FinishedAt") <= time("side", "StartedAt"), "one before side");
    assert!(time("side", "StartedAt") <= time("two", "StartedAt"), "side before two");
    assert!(time("two", "FinishedAt") <= time("app", "StartedAt"), "two before app");
    let v = json(&out);
    let init = v["items"][0]["status"]["initContainerStatuses"].as_array().expect("initContainerStatuses").clone();
    assert_eq!(init.len(), 3);
    assert_eq!(init[0]["state"]["terminated"]["reason"], "Completed");
    assert!(init[1]["state"]["running"].is_object(), "the sidecar keeps running");
    // Init containers that succeeded are not rerun by a later apply.
    let before = ns.containers();
    let again = apply(&ns, &pod, &[]);
    succeeded(&again);
    assert_eq!(ns.containers(), before);
}

#[test]
fn e2e_a_crash_loop_counts_restarts_and_exits_6() {
    require_engine!();
    let ns = Namespace::new("crash");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n  - {name: c, image: 'busybox:1.28', command: [sh, -c, 'echo boom; exit 2']}\n";
    let out = apply(&ns, pod, &["--retries", "3", "--crash-backoff", "200ms", "-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let v = json(&out);
    let c = &v["items"][0]["status"]["containerStatuses"][0];
    assert_eq!(c["restartCount"], 3, "{c}");
    assert_eq!(c["lastState"]["terminated"]["exitCode"], 2, "{c}");
    assert!(stderr(&out).contains("CrashLoopBackOff") || stderr(&out).contains("exit code 2"), "{}", stderr(&out));
    // Dead instances do not pile up: the current one and at most one before it.
    let instances = ns.containers().into_iter().filter(|(_, n)| n.contains("_c_")).count();
    assert!(instances <= 2, "{instances} instances kept");
}

#[test]
fn e2e_onfailure_completion_is_success() {
    require_engine!();
    let ns = Namespace::new("onfailure");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: job}\nspec:\n  restartPolicy: OnFailure\n  containers:\n  - {name: c, image: 'busybox:1.28', command: [sh, -c, 'sleep 1; exit 0']}\n";
    let out = apply(&ns, pod, &["-o", "json"]);
    succeeded(&out);
    let v = json(&out);
    assert_eq!(v["items"][0]["status"]["phase"], "Succeeded");
    assert_eq!(v["items"][0]["status"]["containerStatuses"][0]["restartCount"], 0);
}

#[test]
fn e2e_drift_recreates_only_what_changed() {
    require_engine!();
    let ns = Namespace::new("drift");
    let out = apply(&ns, &two_containers(LOOP), &[]);
    succeeded(&out);
    let (infra, a, b) = (id_of(&ns, "POD").unwrap(), id_of(&ns, "a").unwrap(), id_of(&ns, "b").unwrap());

    // A changed container alone is recreated.
    let changed = two_containers(&format!("echo changed; {LOOP}"));
    let out = apply(&ns, &changed, &[]);
    succeeded(&out);
    assert_eq!(id_of(&ns, "POD").unwrap(), infra);
    assert_eq!(id_of(&ns, "a").unwrap(), a);
    assert_ne!(id_of(&ns, "b").unwrap(), b);

    // A container gone from the manifest is removed.
    let only_a = changed.split("  - {name: b").next().unwrap().to_owned();
    let out = apply(&ns, &only_a, &[]);
    succeeded(&out);
    assert!(id_of(&ns, "b").is_none());
    assert_eq!(id_of(&ns, "a").unwrap(), a);

    // A lost infra container means a new pod.
    Command::new("docker").args(["rm", "-f", &infra]).output().unwrap();
    let out = apply(&ns, &only_a, &[]);
    succeeded(&out);
    assert_ne!(id_of(&ns, "POD").unwrap(), infra);
    assert_ne!(id_of(&ns, "a").unwrap(), a);
    assert_eq!(ns.containers().len(), 2, "{:?}", ns.containers());
}

#[test]
fn e2e_parallel_applies_make_one_pod() {
    require_engine!();
    let ns = Namespace::new("parallel");
    let f = TempFile::new("pod.yaml", &two_containers(LOOP));
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(PODRUN)
                .args(["apply", f.path(), "-n", ns.name(), "-q"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn podrun")
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(ns.containers().len(), 3, "{:?}", ns.containers());
}

/// `n` applies of `f` at once, each with `extra`: their outputs.
fn concurrent_applies(ns: &Namespace, f: &TempFile, n: usize, extra: &[&str]) -> Vec<std::process::Output> {
    let children: Vec<_> = (0..n)
        .map(|_| {
            Command::new(PODRUN)
                .args(["apply", f.path(), "-n", ns.name(), "-q"])
                .args(extra)
                .env("NO_COLOR", "1")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn podrun")
        })
        .collect();
    children.into_iter().map(|c| c.wait_with_output().expect("wait for podrun")).collect()
}

#[test]
fn e2e_concurrent_applies_of_a_pod_with_volume_files_all_succeed() {
    require_engine!();
    let ns = Namespace::new("parallel-files");
    // Files volumes (a ConfigMap's, a Secret's, downward API), rewritten by every apply.
    for round in 0..3 {
        let pod = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cfg}}\ndata: {{a: 'round {round}', b: x, c: y}}\n---\n\
             apiVersion: v1\nkind: Secret\nmetadata: {{name: sec}}\nstringData: {{k: 'v{round}', l: w}}\n---\n\
             apiVersion: v1\nkind: Pod\nmetadata: {{name: files, labels: {{round: '{round}'}}}}\nspec:\n  \
             terminationGracePeriodSeconds: 1\n  volumes:\n  - {{name: c, configMap: {{name: cfg}}}}\n  \
             - {{name: s, secret: {{secretName: sec}}}}\n  - name: d\n    downwardAPI: {{items: [{{path: labels, \
             fieldRef: {{fieldPath: metadata.labels}}}}]}}\n  - {{name: e, emptyDir: {{}}}}\n  containers:\n  \
             - name: a\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    volumeMounts:\n    \
             - {{name: c, mountPath: /c}}\n    - {{name: s, mountPath: /s}}\n    - {{name: d, mountPath: /d}}\n    \
             - {{name: e, mountPath: /e, subPath: sub/dir}}\n"
        );
        let f = TempFile::new("pod.yaml", &pod);
        for (i, out) in concurrent_applies(&ns, &f, 4, &[]).iter().enumerate() {
            assert_eq!(code(out), 0, "round {round}, apply {i}: {}{}", stdout(out), stderr(out));
        }
        assert_eq!(ns.containers().len(), 2, "round {round}: {:?}", ns.containers());
        let a = id_of(&ns, "a").expect("container a");
        let seen = exec(&a, "cat /c/a /s/k; ls -a /c /s | grep -c podrun-tmp");
        assert_eq!(seen, format!("round {round}v{round}0\n"), "round {round}: files written, no temporary left");
        // Every other round starts from nothing: the pod is created by four at once.
        if round % 2 == 1 {
            let del = podrun(&["delete", "files", "-n", ns.name()], None);
            succeeded(&del);
        }
    }
}

#[test]
fn e2e_a_delete_during_an_apply_wins_and_leaves_nothing() {
    require_engine!();
    let ns = Namespace::new("delete-during-apply");
    // Never ready: the apply waits on it until its timeout, unless the pod goes.
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: unready}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         initContainers:\n  - {{name: init, image: 'busybox:1.28', command: [sh, -c, 'true']}}\n  containers:\n  \
         - name: app\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    \
         readinessProbe: {{exec: {{command: ['false']}}, periodSeconds: 1}}\n"
    );
    let f = TempFile::new("pod.yaml", &pod);
    for round in 0..2 {
        let child = Command::new(PODRUN)
            .args(["apply", f.path(), "-n", ns.name(), "--wait-for", "ready", "--timeout", "120s"])
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn podrun");
        wait_until(&format!("round {round}: the app container runs"), Duration::from_secs(60), || {
            match id_of(&ns, "app") {
                Some(app) if ns.inspect(&app, "{{.State.Running}}") == "true" => Ok(()),
                other => Err(other),
            }
        });
        let del = podrun(&["delete", "unready", "-n", ns.name()], None);
        assert_eq!(code(&del), 0, "round {round}: {}", stderr(&del));
        let deleted = Instant::now();
        let out = child.wait_with_output().unwrap();
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(code(&out), 7, "round {round}: {said}");
        assert!(deleted.elapsed() < Duration::from_secs(15), "round {round}: ended promptly: {said}");
        assert!(said.contains("pod t") && said.contains("deleted while this run went on"), "round {round}: {said}");
        assert!(!said.contains("ok ("), "round {round}: {said}");
        assert!(ns.containers().is_empty(), "round {round}: {:?}", ns.containers());
    }
}

#[test]
fn e2e_a_refusal_after_init_containers_ran_leaves_nothing_of_the_run() {
    require_engine!();
    let ns = Namespace::new("late-refusal");
    // The init container turns the app's sub-path into a link out of the volume: the app's
    // mount is refused only once it has run.
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: late}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         volumes:\n  - {{name: work, emptyDir: {{}}}}\n  initContainers:\n  - name: plant\n    \
         image: busybox:1.28\n    command: [sh, -c, 'ln -s /etc /work/sub']\n    \
         volumeMounts: [{{name: work, mountPath: /work}}]\n  containers:\n  - name: app\n    \
         image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    \
         volumeMounts: [{{name: work, mountPath: /w, subPath: sub}}]\n"
    );
    for extra in [&[][..], &["--cleanup-on-failure"][..]] {
        let out = apply(&ns, &pod, extra);
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(code(&out), 2, "{extra:?}: {said}");
        assert!(said.contains("container \"app\" cannot be configured"), "{extra:?}: {said}");
        assert!(said.contains("had been made: removed them"), "{extra:?}: {said}");
        assert!(ns.containers().is_empty(), "{extra:?}: {:?}", ns.containers());
    }
}

#[test]
fn e2e_sigint_stops_promptly_and_leaves_a_consistent_pod() {
    require_engine!();
    let ns = Namespace::new("sigint");
    let f = TempFile::new("pod.yaml", &two_containers(LOOP));
    // Waiting for completion of containers that never complete: only a signal ends it.
    let child = Command::new(PODRUN)
        .args(["apply", f.path(), "-n", ns.name(), "--wait-for", "complete"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn podrun");
    wait_until("the three containers running", Duration::from_secs(30), || {
        if ns.running() >= 3 {
            Ok(())
        } else {
            Err(ns.containers())
        }
    });
    let sent = Instant::now();
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(sent.elapsed() < Duration::from_secs(5), "stopped promptly");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Running"), "the state as it stands is printed");
    // What exists stays as it was, labelled: a later apply picks it up unchanged.
    let before = ns.containers();
    let again = apply_file(&ns, &f, &[]);
    succeeded(&again);
    assert_eq!(ns.containers(), before);
}

#[test]
fn e2e_a_killed_apply_is_completed_by_the_next() {
    require_engine!();
    let ns = Namespace::new("kill9");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: k}}\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n{}",
        (0..6).map(|i| format!("  - {{name: c{i}, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n")).collect::<String>()
    );
    let f = TempFile::new("pod.yaml", &pod);
    let mut child = Command::new(PODRUN)
        .args(["apply", f.path(), "-n", ns.name(), "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as it has created something, mid-apply.
    wait_until_every("a first container", Duration::from_secs(30), Duration::from_millis(5), || {
        if ns.containers().is_empty() {
            Err(())
        } else {
            Ok(())
        }
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let out = apply_file(&ns, &f, &[]);
    succeeded(&out);
    assert_eq!(ns.containers().len(), 7, "{:?}", ns.containers());
}

fn one_container(name: &str, command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{command}']}}\n"
    )
}

#[test]
fn e2e_grace_period_kills_what_ignores_sigterm() {
    require_engine!();
    let ns = Namespace::new("grace");
    let stubborn = one_container("g", "trap \"\" TERM; while true; do sleep 1; done");
    let out = apply(&ns, &stubborn, &[]);
    succeeded(&out);
    let id = id_of(&ns, "c").unwrap();
    let start = Instant::now();
    let del = podrun(&["delete", "g", "-n", ns.name()], None);
    succeeded(&del);
    // Not a benchmark: the grace period is the lower bound of a stop SIGTERM cannot end.
    assert!(start.elapsed() >= Duration::from_secs(2), "{:?}", start.elapsed());
    assert!(ns.containers().is_empty());
    drop(id);

    // One that handles SIGTERM is stopped by it, cleanly, long before its grace period.
    let polite =
        one_container("p", LOOP).replace("terminationGracePeriodSeconds: 2", "terminationGracePeriodSeconds: 30");
    let out = apply(&ns, &polite, &[]);
    succeeded(&out);
    let id = id_of(&ns, "c").unwrap();
    let start = Instant::now();
    let del = podrun(&["delete", "p", "-n", ns.name()], None);
    succeeded(&del);
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    drop(id);
}

#[test]
fn e2e_lifecycle_hooks_run() {
    require_engine!();
    let ns = Namespace::new("hooks");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: h}}\nspec:\n  terminationGracePeriodSeconds: 5\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    lifecycle:\n      postStart: {{exec: {{command: [sh, -c, 'echo hi > /tmp/post-start']}}}}\n      preStop: {{exec: {{command: [touch, /tmp/pre-stop-ran]}}}}\n"
    );
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
    let id = id_of(&ns, "c").unwrap();
    let cat = Command::new("docker").args(["exec", &id, "cat", "/tmp/post-start"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&cat.stdout).trim(), "hi");
    let since = ns.inspect(&id, "{{.State.StartedAt}}");
    let del = podrun(&["delete", "h", "-n", ns.name()], None);
    succeeded(&del);
    let until = humantime::format_rfc3339_seconds(std::time::SystemTime::now() + Duration::from_secs(1)).to_string();
    let events = Command::new("docker")
        .args([
            "events",
            "--since",
            &since,
            "--until",
            &until,
            "--filter",
            &format!("container={id}"),
            "--format",
            "{{.Action}}",
        ])
        .output()
        .unwrap();
    let events = String::from_utf8_lossy(&events.stdout);
    assert!(events.contains("exec_start: touch /tmp/pre-stop-ran"), "{events}");

    // A failing postStart hook kills the container; under Never the pod fails.
    let bad =
        pod.replace("spec:\n", "spec:\n  restartPolicy: Never\n").replace("'echo hi > /tmp/post-start'", "'exit 1'");
    assert_ne!(bad, pod);
    let out = apply(&ns, &bad, &[]);
    assert_eq!(code(&out), 6, "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn e2e_http_lifecycle_hooks_reach_the_pod() {
    require_engine!();
    let ns = Namespace::new("httphooks");
    // httpd logs each request (-vv) to its stderr, which tee copies into a host directory: the
    // container's logs show the postStart request, the file outlives the container for preStop.
    let dir = std::env::temp_dir().join(format!("podrun-e2e-httphooks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: h}}\nspec:\n  terminationGracePeriodSeconds: 2\n  volumes: [{{name: log, hostPath: {{path: '{}', type: Directory}}}}]\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, 'mkdir -p /www; httpd -f -vv -p 8080 -h /www 2>&1 | tee -a /log/requests']\n    ports: [{{name: http, containerPort: 8080}}]\n    volumeMounts: [{{name: log, mountPath: /log}}]\n    lifecycle:\n      postStart: {{httpGet: {{path: /post-start-hook, port: http, httpHeaders: [{{name: X-Hook, value: post}}]}}}}\n      preStop: {{httpGet: {{path: /pre-stop-hook, port: 8080}}}}\n",
        dir.display()
    );
    // The hook may come before httpd listens (the kubelet does not order them either); the
    // container is then killed and restarted under restartPolicy Always, and the next one's
    // hook gets through. The 404 each request gets does not fail a hook.
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
    let logs = podrun(&["logs", "h", "-n", ns.name()], None);
    assert!(stdout(&logs).contains("url:/post-start-hook"), "{}{}", stdout(&logs), stderr(&logs));
    assert!(stdout(&logs).contains("response:404"), "{}", stdout(&logs));
    let del = podrun(&["delete", "h", "-n", ns.name()], None);
    succeeded(&del);
    assert!(ns.containers().is_empty());
    let requests = std::fs::read_to_string(dir.join("requests")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(requests.contains("url:/pre-stop-hook"), "{requests}");

    // A postStart request that cannot connect kills the container, as a failed exec does;
    // under Never the pod fails.
    let bad = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: b}}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 2\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    lifecycle:\n      postStart: {{httpGet: {{path: /nobody-listens, port: 9999}}}}\n"
    );
    let out = apply(&ns, &bad, &["-o", "json"]);
    assert_eq!(code(&out), 6, "{}{}", stdout(&out), stderr(&out));
    assert!(stderr(&out).contains("postStart hook of c failed: GET /nobody-listens: dial tcp"), "{}", stderr(&out));
    let v = json(&out);
    let state = &v["items"][0]["status"]["containerStatuses"][0]["state"];
    assert_eq!(state["terminated"]["exitCode"], 137, "killed: {state}");
}

#[test]
fn e2e_cleanup_on_failure_removes_what_the_run_created() {
    require_engine!();
    let ns = Namespace::new("cleanup");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: f}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: c, image: 'busybox:1.28', command: [sh, -c, 'exit 1']}\n";
    let out = apply(&ns, pod, &["--cleanup-on-failure"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

#[test]
fn e2e_termination_messages_are_reported() {
    require_engine!();
    let ns = Namespace::new("termmsg");
    // Three pods in one file, so that one failing does not end the others' runs early.
    let pod = |name: &str, container: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  containers:\n  - {container}\n")
    };
    let manifest = [
        pod("a", "{name: c, image: 'busybox:1.28', command: [sh, -c, 'echo disk full > /dev/termination-log; exit 3']}"),
        pod("b", "{name: c, image: 'busybox:1.28', terminationMessagePolicy: FallbackToLogsOnError, command: [sh, -c, 'echo last words; exit 4']}"),
        pod("c", "{name: c, image: 'busybox:1.28', terminationMessagePath: /tmp/why, command: [sh, -c, 'echo custom path > /tmp/why']}"),
    ]
    .join("---\n");
    let out = apply(&ns, &manifest, &["-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let v = json(&out);
    let msg = |i: usize| v["items"][i]["status"]["containerStatuses"][0]["state"]["terminated"]["message"].clone();
    assert_eq!(msg(0), "disk full\n");
    assert_eq!(msg(1), "last words\n");
    assert_eq!(msg(2), "custom path\n");
    assert!(stderr(&out).contains("disk full"), "the report shows it: {}", stderr(&out));
}
