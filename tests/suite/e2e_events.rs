//! Events and `describe` on Docker, Podman and containerd (CRI): the kubelet's events recorded
//! for a pod's life (an image already present, creations, starts, readiness probe failures, a
//! crash loop's back-offs, a container stopped for a changed spec), kept across apply runs and
//! gone with the pod, kept by `apply --supervise` and a second supervisor after the first was
//! killed; `podrun events` as `kubectl events` prints them (table, EventList, `-w`), and `podrun
//! describe` in kubectl's layout. Pulls come from a registry of the test's own (`e2e_images`', which Podman
//! refuses over plain HTTP: there a registry that does not answer gives the failed pulls).

use std::time::Duration;

use crate::common::*;
use crate::e2e_images::Registry;

fn run(target: Target, args: &[&str]) -> std::process::Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// `ready` runs `script`, its readiness probe failing (every second) until /tmp/ok exists.
fn probed(script: &str) -> String {
    format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: ready, labels: {{app: events}}}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: busybox
    imagePullPolicy: IfNotPresent
    command: [sh, -c, '{script}']
    readinessProbe:
      exec: {{command: [test, -e, /tmp/ok]}}
      periodSeconds: 1
      failureThreshold: 1
"#
    )
}

const CRASH: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: crash}
spec:
  restartPolicy: Always
  terminationGracePeriodSeconds: 1
  containers:
  - name: crash
    image: busybox
    imagePullPolicy: IfNotPresent
    command: [sh, -c, 'exit 1']
"#;

fn applied(target: Target, ns: &Namespace, manifest: &str, extra: &[&str]) -> std::process::Output {
    let f = TempFile::new("events.yaml", manifest);
    let mut args = vec!["apply", f.path(), "-n", ns.name(), "--timeout", "90s"];
    args.extend_from_slice(extra);
    run(target, &args)
}

/// The pod's events as `podrun events --for pod/POD -o json` gives them.
fn events_json(target: Target, ns: &Namespace, pod: &str) -> Vec<serde_json::Value> {
    let o = run(target, &["events", "-n", ns.name(), "--for", &format!("pod/{pod}"), "-o", "json"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("an EventList");
    assert_eq!(list["kind"], "EventList");
    list["items"].as_array().cloned().unwrap_or_default()
}

fn find<'a>(events: &'a [serde_json::Value], reason: &str, message: &str) -> Option<&'a serde_json::Value> {
    events.iter().find(|e| e["reason"] == reason && e["message"].as_str().is_some_and(|m| m.starts_with(message)))
}

/// A pod's life in events, the table, describe, two applies, a changed spec and the deletion.
fn a_pods_life(target: Target, ns: &Namespace) {
    let up = probed(&format!("sleep 3; touch /tmp/ok; {LOOP}"));
    let o = applied(target, ns, &up, &["--wait-for", "ready"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let events = events_json(target, ns, "ready");
    let field = |e: &serde_json::Value| e["involvedObject"]["fieldPath"].as_str().unwrap_or_default().to_owned();
    let pulled = find(&events, "Pulled", "Container image \"busybox\" already present on machine").expect("Pulled");
    assert_eq!(field(pulled), "spec.containers{app}");
    assert_eq!(pulled["source"]["component"], "kubelet");
    assert_eq!(pulled["involvedObject"]["kind"], "Pod");
    assert!(find(&events, "Created", "Created container: app").is_some(), "{events:#?}");
    let started = find(&events, "Started", "Started container app").expect("Started");
    assert_eq!((started["type"].as_str(), started["count"].as_u64()), (Some("Normal"), Some(1)));
    let unhealthy = find(&events, "Unhealthy", "Readiness probe failed").expect("Unhealthy");
    assert_eq!(unhealthy["type"], "Warning");

    // The table, as kubectl events prints it.
    let o = run(target, &["events", "-n", ns.name()]);
    let table = stdout(&o);
    assert!(table.starts_with("LAST SEEN   "), "{table}");
    for word in ["TYPE", "REASON", "OBJECT", "MESSAGE", "Pod/ready", "Started container app", "Warning", "Unhealthy"] {
        assert!(table.contains(word), "{word} in {table}");
    }
    let o = run(target, &["events", "-A"]);
    let all = stdout(&o);
    assert!(
        all.starts_with("NAMESPACE   ") && all.lines().next().is_some_and(|h| h.contains("   LAST SEEN   ")),
        "{all}"
    );
    assert!(all.lines().any(|l| l.starts_with(&format!("{} ", ns.name())) && l.contains("Pod/ready")), "{all}");

    // describe: kubectl's layout, with the events at the end.
    let o = run(target, &["describe", "pod", "ready", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let line = |start: &str, has: &str| text.lines().any(|l| l.starts_with(start) && l.contains(has));
    assert!(line("Name:", "ready") && line("Namespace:", ns.name()) && line("Status:", "Running"), "{text}");
    assert!(line("Containers:", "") && line("  app:", "") && line("    State:", "Running"), "{text}");
    assert!(line("    Ready:", "True") && line("    Restart Count:", "0"), "{text}");
    assert!(line("Events:", "") && line("  Type", "Reason") && line("  Normal", "Started container app"), "{text}");
    let f = TempFile::new("ready.yaml", &up);
    for by in [["-l", "app=events"], ["-f", f.path()]] {
        let o = run(target, &["describe", by[0], by[1], "-n", ns.name()]);
        assert!(
            code(&o) == 0 && stdout(&o).starts_with("Name:") && stdout(&o).contains("Started container app"),
            "{by:?}: {}",
            stderr(&o)
        );
    }
    let o = run(target, &["describe", "ready", "nothere", "-n", ns.name()]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("pods \"nothere\" not found"), "{}", stderr(&o));

    // A second apply changes nothing, and the events stay.
    let o = applied(target, ns, &up, &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let again = events_json(target, ns, "ready");
    assert!(find(&again, "Started", "Started container app").is_some_and(|e| e["count"] == 1), "{again:#?}");
    assert!(find(&again, "Unhealthy", "Readiness probe failed").is_some());

    // A changed spec: the container is stopped (Killing) and made again.
    let o = applied(target, ns, &probed(&format!("touch /tmp/ok; {LOOP}")), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let changed = events_json(target, ns, "ready");
    let killing = find(&changed, "Killing", "Container app definition changed, will be restarted");
    assert!(killing.is_some(), "{changed:#?}");
    assert!(find(&changed, "Started", "Started container app").is_some_and(|e| e["count"] == 2), "{changed:#?}");

    // Deleted: the events go with the pod.
    let o = run(target, &["delete", "ready", "-n", ns.name(), "--grace-period", "0"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(target, &["events", "-n", ns.name(), "--for", "pod/ready"]);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""));
    assert!(stderr(&o).contains(&format!("No events found in {} namespace.", ns.name())), "{}", stderr(&o));
}

/// A crash loop: each restart's start, and a BackOff each time it waits.
fn a_crash_loop(target: Target, ns: &Namespace) {
    let o = applied(target, ns, CRASH, &["--retries", "2", "--crash-backoff", "1s"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let events = events_json(target, ns, "crash");
    let backoff =
        find(&events, "BackOff", "Back-off restarting failed container crash in pod crash_").expect("BackOff");
    assert_eq!(backoff["type"], "Warning");
    let started = find(&events, "Started", "Started container crash").expect("Started");
    assert!(started["count"].as_u64() >= Some(2), "{events:#?}");
}

/// An image pulled from the test's registry: Pulling, then Pulled with its time and size.
fn a_pull(target: Target, ns: &Namespace, test: &str) {
    let mut reg = Registry::start(test, None);
    let image = reg.push("events", None);
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: pulled}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: '{image}', command: [sh, -c, '{LOOP}']}}\n"
    );
    let o = applied(target, ns, &manifest, &[]);
    let events = events_json(target, ns, "pulled");
    if let Target::Cri(endpoint) = target {
        crate::common::cri::ctr(endpoint, &["images", "rm", &image]);
    }
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(find(&events, "Pulling", &format!("Pulling image {image:?}")).is_some(), "{events:#?}");
    let pulled = find(&events, "Pulled", &format!("Successfully pulled image {image:?} in ")).expect("Pulled");
    let message = pulled["message"].as_str().unwrap_or_default();
    assert!(message.contains(" including waiting)."), "{message}");
}

/// The events of a crash loop kept by `apply --supervise`, and by a second supervisor after the
/// first was killed: the count goes on, from the same first time.
fn supervised(target: Target, ns: &Namespace) {
    let f = TempFile::new("crash.yaml", CRASH);
    let supervise = |log: &TempFile| {
        let file = std::fs::File::create(log.path()).expect("log");
        let mut cmd = podrun_command(target);
        cmd.args(["apply", f.path(), "-n", ns.name(), "--supervise", "--crash-backoff-max", "2s"]);
        Killed(cmd.stdout(std::process::Stdio::null()).stderr(file).spawn().expect("spawn"))
    };
    let started = || find(&events_json(target, ns, "crash"), "Started", "Started container crash").cloned();
    let count = |e: &serde_json::Value| e["count"].as_u64().unwrap_or(0);
    let log = TempFile::new("supervisor.log", "");
    let first = supervise(&log);
    let before = wait_until("the supervisor to restart the container", Duration::from_secs(90), || {
        started().filter(|e| count(e) >= 3).ok_or_else(|| std::fs::read_to_string(log.path()).unwrap_or_default())
    });
    drop(first);
    let log = TempFile::new("supervisor2.log", "");
    let second = supervise(&log);
    let after = wait_until("the second supervisor to restart it", Duration::from_secs(90), || {
        started()
            .filter(|e| count(e) > count(&before) + 1)
            .ok_or_else(|| std::fs::read_to_string(log.path()).unwrap_or_default())
    });
    drop(second);
    assert_eq!(after["firstTimestamp"], before["firstTimestamp"], "one event, counted on");
    let events = events_json(target, ns, "crash");
    assert!(find(&events, "BackOff", "Back-off restarting failed container crash").is_some(), "{events:#?}");
}

/// podrun on `target`, to be started in the background.
fn podrun_command(target: Target) -> std::process::Command {
    let mut cmd = std::process::Command::new(PODRUN);
    match target {
        Target::Engine(Some(host)) => drop(cmd.args(["--host", host])),
        Target::Cri(endpoint) => drop(cmd.args(["--runtime-endpoint", endpoint])),
        _ => {}
    }
    cmd.env("NO_COLOR", "1");
    cmd
}

/// A registry that does not answer: each pull tried fails (Failed, ErrImagePull), and the wait
/// before the next is a BackOff.
fn a_failed_pull(target: Target, ns: &Namespace) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let image = format!("127.0.0.1:{port}/nothing-{}:1", std::process::id());
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: nopull}}\nspec:\n  containers:\n  - {{name: c, image: '{image}'}}\n"
    );
    let o = applied(target, ns, &manifest, &["--retries", "2", "--retry-delay", "100ms"]);
    assert_ne!(code(&o), 0, "{}", stderr(&o));
    let events = events_json(target, ns, "nopull");
    let pulling = find(&events, "Pulling", &format!("Pulling image {image:?}")).expect("Pulling");
    assert!(pulling["count"].as_u64() >= Some(2), "{events:#?}");
    let failed = find(&events, "Failed", &format!("Failed to pull image {image:?}: ")).expect("Failed");
    assert_eq!(failed["type"], "Warning");
    assert!(find(&events, "Failed", "Error: ErrImagePull").is_some(), "{events:#?}");
    assert!(find(&events, "BackOff", &format!("Back-off pulling image {image:?}")).is_some(), "{events:#?}");
    assert!(find(&events, "Failed", "Error: ImagePullBackOff").is_some(), "{events:#?}");
    // No container was made; deleted, the pod's events go all the same.
    let o = run(target, &["delete", "nopull", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(events_json(target, ns, "nopull").is_empty());
}

/// `podrun events -w` prints what comes after it started, until interrupted.
fn watched(target: Target, ns: &Namespace) {
    let mut cmd = podrun_command(target);
    let log = TempFile::new("watch.log", "");
    let file = std::fs::File::create(log.path()).expect("log");
    cmd.args(["events", "-w", "-n", ns.name()]).stdout(file).stderr(std::process::Stdio::null());
    let child = Killed(cmd.spawn().expect("spawn"));
    let o = applied(target, ns, &probed(&format!("touch /tmp/ok; {LOOP}")), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    wait_until("events -w to print the start", Duration::from_secs(30), || {
        let said = std::fs::read_to_string(log.path()).unwrap_or_default();
        if said.contains("Started container app") {
            Ok(())
        } else {
            Err(said)
        }
    });
    drop(child);
}

#[test]
fn docker_events_of_a_pods_life() {
    require_engine!();
    let ns = Namespace::new("events-docker");
    a_pods_life(Target::Engine(None), &ns);
    a_crash_loop(Target::Engine(None), &ns);
    watched(Target::Engine(None), &ns);
    supervised(Target::Engine(None), &ns);
}

#[test]
fn podman_events_of_a_pods_life() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "events-podman");
    a_pods_life(Target::Engine(Some(&host)), &ns);
    a_crash_loop(Target::Engine(Some(&host)), &ns);
    watched(Target::Engine(Some(&host)), &ns);
    supervised(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_events_of_a_pods_life() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "events-cri");
    a_pods_life(Target::Cri(&endpoint), &ns);
    a_crash_loop(Target::Cri(&endpoint), &ns);
    watched(Target::Cri(&endpoint), &ns);
    supervised(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_events_of_a_pull() {
    require_engine!();
    let ns = Namespace::new("events-pull");
    a_pull(Target::Engine(None), &ns, "events-pull");
    a_failed_pull(Target::Engine(None), &ns);
}

#[test]
fn cri_events_of_a_pull() {
    require_engine!();
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "events-pull-cri");
    a_pull(Target::Cri(&endpoint), &ns, "events-pull-cri");
    a_failed_pull(Target::Cri(&endpoint), &ns);
}

#[test]
fn podman_events_of_a_failed_pull() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "events-pullfail-podman");
    a_failed_pull(Target::Engine(Some(&host)), &ns);
}
