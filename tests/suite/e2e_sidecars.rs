//! Sidecars and start order as the kubelet has them, end to end on the real engine: app
//! containers start one after another behind a postStart hook, sidecars stop last and in
//! reverse order, the pod is ready only with its sidecars ready, and a changed sidecar is
//! restarted alone.

use crate::common::*;

/// A container that, on SIGTERM, takes a second before it exits: two stopped together end
/// within moments of each other, two stopped one after the other a second apart.
const SLOW_STOP: &str = "trap \"sleep 1; exit 0\" TERM; while true; do sleep 1 & wait; done";

fn finished_at(ns: &Namespace, container: &str) -> chrono_free::Instant {
    chrono_free::parse(&ns.inspect(&id_of(ns, container), "{{.State.FinishedAt}}"))
}

/// RFC 3339 times as the engine prints them, to nanoseconds since midnight (the test's pods
/// live seconds, not days).
mod chrono_free {
    pub type Instant = f64;

    pub fn parse(t: &str) -> Instant {
        let time = t.split('T').nth(1).unwrap_or_else(|| panic!("not a time: {t:?}"));
        let time = time.trim_end_matches('Z');
        let mut parts = time.split(':');
        let h: f64 = parts.next().unwrap().parse().unwrap();
        let m: f64 = parts.next().unwrap().parse().unwrap();
        let s: f64 = parts.next().unwrap().parse().unwrap();
        h * 3600.0 + m * 60.0 + s
    }
}

#[test]
fn e2e_an_app_container_starts_only_once_the_post_start_hook_before_it_has_finished() {
    require_engine!();
    let ns = Namespace::new("poststart-order");
    // a's hook takes two seconds, then leaves a mark; b looks for it as soon as it starts.
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: order}}\nspec:\n  terminationGracePeriodSeconds: 5\n  \
         volumes: [{{name: s, emptyDir: {{}}}}]\n  containers:\n  - name: a\n    image: busybox:1.28\n    \
         command: [sh, -c, '{LOOP}']\n    volumeMounts: [{{name: s, mountPath: /s}}]\n    \
         lifecycle: {{postStart: {{exec: {{command: [sh, -c, 'sleep 2; touch /s/ready']}}}}}}\n  \
         - name: b\n    image: busybox:1.28\n    \
         command: [sh, -c, 'if [ -f /s/ready ]; then echo after > /s/b; else echo before > /s/b; fi; {LOOP}']\n    \
         volumeMounts: [{{name: s, mountPath: /s}}]\n"
    );
    let out = apply(&ns, &pod, &["--timeout", "60s"]);
    succeeded(&out);
    assert_eq!(exec(&id_of(&ns, "b"), "cat /s/b"), "after\n");
}

#[test]
fn e2e_sidecars_stop_after_the_app_containers_last_started_first() {
    require_engine!();
    let ns = Namespace::new("sidecar-stop-order");
    // The app container ends; the pod is done (Never), and its two sidecars are stopped.
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: job}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 10\n  initContainers:\n  \
         - {{name: logs, image: busybox:1.28, restartPolicy: Always, command: [sh, -c, '{SLOW_STOP}']}}\n  \
         - {{name: proxy, image: busybox:1.28, restartPolicy: Always, command: [sh, -c, '{SLOW_STOP}']}}\n  \
         containers:\n  - {{name: work, image: busybox:1.28, command: [sh, -c, 'sleep 1']}}\n"
    );
    let out = apply(&ns, &pod, &["--timeout", "60s"]);
    succeeded(&out);
    let (work, proxy, logs) = (finished_at(&ns, "work"), finished_at(&ns, "proxy"), finished_at(&ns, "logs"));
    assert!(proxy > work, "the sidecars stop after the app container: {work} {proxy}");
    // logs got its stop signal only once proxy (which takes a second to go) had exited.
    assert!(logs - proxy >= 0.9, "the first sidecar stops once the later one has exited: {proxy} {logs}");
}

#[test]
fn e2e_the_pod_is_ready_only_once_its_sidecars_are() {
    require_engine!();
    let ns = Namespace::new("sidecar-ready");
    let pod = |probe: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             initContainers:\n  - name: proxy\n    image: busybox:1.28\n    restartPolicy: Always\n    \
             command: [sh, -c, '{LOOP}']\n    readinessProbe: {{exec: {{command: ['{probe}']}}, periodSeconds: 1}}\n  \
             containers:\n  - {{name: app, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
        )
    };
    let out = apply(&ns, &pod("false"), &["--wait-for", "ready", "--timeout", "6s", "-o", "json"]);
    assert_eq!(code(&out), 5, "not ready while the sidecar is not: {}", stderr(&out));
    let list: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)));
    let st = &list["items"][0];
    let conditions = st["status"]["conditions"].as_array().expect("conditions").clone();
    let cond = |t: &str| conditions.iter().find(|c| c["type"] == t).map(|c| c["status"].clone());
    assert_eq!(cond("ContainersReady"), Some("False".into()), "{conditions:?}");
    assert_eq!(cond("Ready"), Some("False".into()), "{conditions:?}");
    assert_eq!(st["status"]["containerStatuses"][0]["ready"], true, "the app container itself is ready");
    let out = podrun(&["delete", "web", "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&out);
    let out = apply(&ns, &pod("true"), &["--wait-for", "ready", "--timeout", "60s"]);
    succeeded(&out);
    // kubectl's READY counts the sidecar beside the app container.
    let out = podrun(&["get", "web", "-n", ns.name()], None);
    succeeded(&out);
    let row = stdout(&out).lines().nth(1).unwrap_or_default().to_owned();
    assert_eq!(row.split_whitespace().nth(1), Some("2/2"), "{}", stdout(&out));
}

#[test]
fn e2e_a_changed_sidecar_is_restarted_alone() {
    require_engine!();
    let ns = Namespace::new("sidecar-change");
    let pod = |version: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
             initContainers:\n  - {{name: setup, image: busybox:1.28, command: ['true']}}\n  \
             - name: proxy\n    image: busybox:1.28\n    restartPolicy: Always\n    \
             env: [{{name: VERSION, value: '{version}'}}]\n    command: [sh, -c, '{LOOP}']\n  \
             containers:\n  - {{name: app, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
        )
    };
    let out = apply(&ns, &pod("1"), &["--timeout", "60s"]);
    succeeded(&out);
    let (infra, app, proxy) = (id_of(&ns, "POD"), id_of(&ns, "app"), id_of(&ns, "proxy"));
    let out = apply(&ns, &pod("2"), &["--timeout", "60s"]);
    succeeded(&out);
    assert_eq!(id_of(&ns, "POD"), infra, "the pod's sandbox stays");
    assert_eq!(id_of(&ns, "app"), app, "the app container is not touched");
    let now = id_of(&ns, "proxy");
    assert_ne!(now, proxy, "the sidecar is made anew");
    assert_eq!(exec(&now, "echo $VERSION"), "2\n");
    let setups = ns.containers().iter().filter(|(_, n)| n.contains("_setup_")).count();
    assert_eq!(setups, 1, "the init container does not run again: {:?}", ns.containers());
}
