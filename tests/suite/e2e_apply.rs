//! `podrun apply` and `podrun delete` end to end, against the real engine.

use std::time::{Duration, Instant};

use crate::common::*;

const SLEEPER: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: sleeper}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, '",
    loop_sh!(),
    "']
  - name: b
    image: busybox:1.28
    command: [sh, -c, '",
    loop_sh!(),
    "']
"
);

#[test]
fn e2e_containers_of_a_pod_reach_each_other_on_localhost() {
    require_engine!();
    let ns = Namespace::new("localhost");
    // The server answers one request and exits; the client succeeds once it got the answer.
    // Both exit 0 only if the client reached the server on 127.0.0.1.
    let pod = r#"
apiVersion: v1
kind: Pod
metadata: {name: pair}
spec:
  restartPolicy: Never
  containers:
  - name: server
    image: busybox:1.28
    command: [sh, -c, 'printf "HTTP/1.0 200 OK\r\n\r\npong\n" | nc -l -p 8080']
  - name: client
    image: busybox:1.28
    command: [sh, -c]
    args: ['for i in $(seq 100); do wget -q -O - http://127.0.0.1:8080/ && exit 0; sleep 0.2; done; exit 1']
"#;
    let out = apply(&ns, pod, &["--timeout", "60s"]);
    succeeded(&out);
    let client = ns.containers().into_iter().find(|(_, n)| n.contains("_client_")).expect("client container");
    assert!(ns.logs(&client.0).contains("pong"));
    // The pod's containers share the infra container's network namespace and hostname.
    let infra = ns.containers().into_iter().find(|(_, n)| n.contains("_POD_")).expect("infra container");
    assert_eq!(ns.inspect(&client.0, "{{.HostConfig.NetworkMode}}"), format!("container:{}", infra.0));
    assert_eq!(ns.inspect(&client.0, "{{.Config.Hostname}}"), "pair");
}

#[test]
fn e2e_reapply_keeps_container_ids_and_delete_removes_everything() {
    require_engine!();
    let ns = Namespace::new("reapply");
    let first = apply(&ns, SLEEPER, &[]);
    succeeded(&first);
    let before = ns.containers();
    assert_eq!(before.len(), 3, "{before:?}");
    for (id, _) in &before {
        let labels = ns.inspect(id, "{{json .Config.Labels}}");
        for key in [
            "io.kubernetes.pod.name",
            "io.kubernetes.pod.namespace",
            "io.kubernetes.pod.uid",
            "io.kubernetes.container.name",
            "io.podrun.managed",
            "io.podrun.spec-hash",
        ] {
            assert!(labels.contains(key), "{key} missing in {labels}");
        }
        assert!(!labels.contains("io.kubernetes.docker.type"));
    }
    assert!(before.iter().all(|(_, n)| !n.starts_with("k8s_")));

    let again = apply(&ns, SLEEPER, &[]);
    succeeded(&again);
    assert_eq!(ns.containers(), before, "an unchanged manifest changes nothing");

    let f = TempFile::new("pod.yaml", SLEEPER);
    let del = podrun(&["delete", f.path(), "-n", ns.name()], None);
    succeeded(&del);
    assert!(ns.containers().is_empty());
    let del = podrun(&["delete", "sleeper", "-n", ns.name()], None);
    assert_eq!(code(&del), 1, "a pod named that is not there is kubectl's NotFound: {}", stderr(&del));
    assert!(stderr(&del).contains(r#"Error from server (NotFound): pods "sleeper" not found"#), "{}", stderr(&del));
    let del = podrun(&["delete", "sleeper", "-n", ns.name(), "--ignore-not-found"], None);
    assert_eq!(code(&del), 0, "as kubectl's --ignore-not-found: {}", stderr(&del));
}

#[test]
fn e2e_json_output_has_the_kubernetes_shape() {
    require_engine!();
    let ns = Namespace::new("json");
    let out = apply(&ns, SLEEPER, &["-o", "json"]);
    succeeded(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(v["kind"], "List");
    let pod = &v["items"][0];
    assert_eq!(pod["kind"], "Pod");
    assert_eq!(pod["metadata"]["namespace"], ns.name());
    assert_eq!(pod["status"]["phase"], "Running");
    assert!(pod["status"]["podIP"].as_str().is_some_and(|ip| !ip.is_empty()));
    let statuses = pod["status"]["containerStatuses"].as_array().expect("containerStatuses");
    assert_eq!(statuses.len(), 2);
    for s in statuses {
        assert!(s["state"]["running"].is_object(), "{s}");
        assert_eq!(s["ready"], true);
        assert_eq!(s["restartCount"], 0);
        assert!(s["containerID"].as_str().is_some_and(|id| id.starts_with("docker://")));
    }
}

#[test]
fn e2e_invalid_manifests_exit_2_and_create_nothing() {
    require_engine!();
    let ns = Namespace::new("invalid");
    let cases = [
        // A typo: an error with a suggestion, naming the field path.
        (SLEEPER.replace("command:", "comand:"), "spec.containers[0].comand"),
        // An invalid name, by field path.
        (SLEEPER.replace("name: b", "name: B_b"), "spec.containers[1].name"),
        // A YAML syntax error, by line and column.
        (SLEEPER.replace("metadata: {name: sleeper}", "metadata: {name: sleeper"), ":4:"),
        // A number where Kubernetes requires a string.
        (SLEEPER.replace("image: busybox:1.28\n    command", "image: 5\n    command"), "invalid type"),
    ];
    for (manifest, expect) in cases {
        let out = apply(&ns, &manifest, &[]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(stderr(&out).contains(expect), "{expect:?} not in: {}", stderr(&out));
        assert!(ns.containers().is_empty(), "nothing is created");
    }
}

/// The API server takes a negative terminationGracePeriodSeconds with a warning and has it
/// treated as 1 (kubernetes#115606): podrun runs the pod so, and stops it with that grace.
#[test]
fn e2e_a_negative_grace_period_runs_as_one_second_with_the_api_servers_warning() {
    require_engine!();
    let ns = Namespace::new("negative-grace");
    let out =
        apply(&ns, &SLEEPER.replace("terminationGracePeriodSeconds: 2", "terminationGracePeriodSeconds: -1"), &[]);
    succeeded(&out);
    assert!(
        stderr(&out).contains(
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ),
        "{}",
        stderr(&out)
    );
    let members: Vec<(String, String)> = ns.containers().into_iter().filter(|(_, n)| !n.contains("_POD_")).collect();
    assert_eq!(members.len(), 2, "{members:?}");
    for (id, name) in &members {
        assert_eq!(ns.inspect(id, "{{index .Config.Labels \"io.podrun.grace-period\"}}"), "1", "{name}");
        assert_eq!(ns.inspect(id, "{{.Config.StopTimeout}}"), "1", "{name}");
    }
}

/// kubectl's `--validate`: a field Kubernetes does not know is refused with its place (nothing
/// created), or dropped with a warning naming it, or dropped in silence; the pod then runs as
/// if the field were not there (OpenShift's keepalived pod has `empty-dir`, which a kubelet
/// drops, leaving a volume of no source: an emptyDir).
#[test]
fn e2e_unknown_fields_are_refused_warned_about_or_dropped_as_validate_says() {
    require_engine!();
    let ns = Namespace::new("validate-flag");
    let moved = SLEEPER
        .replace("metadata: {name: sleeper}", "metadata: {name: sleeper, version: v1}")
        .replace("  - name: b\n", "    volumeMounts: [{name: scratch, mountPath: /scratch}]\n  - name: b\n")
        + "  volumes:\n  - name: scratch\n    empty-dir: {}\n";
    let f = TempFile::new("moved.yaml", &moved);
    let run = |extra: &[&str]| {
        let mut args = vec!["apply", f.path(), "-n", ns.name(), "--timeout", "60s"];
        args.extend_from_slice(extra);
        podrun(&args, None)
    };
    let strict = run(&[]);
    assert_eq!(code(&strict), 2, "{}", stderr(&strict));
    let p = f.path();
    for place in [format!("{p}:3:27: metadata.version: unknown field"), format!("{p}:16:5: spec.volumes[0].empty-dir")]
    {
        assert!(stderr(&strict).contains(&place), "{place} not in {}", stderr(&strict));
    }
    assert!(ns.containers().is_empty(), "refused: nothing created");

    let warn = run(&["--validate=warn"]);
    succeeded(&warn);
    assert!(stderr(&warn).contains(&format!("{p}:16:5: spec.volumes[0].empty-dir: unknown field \"empty-dir\" (did you mean \"emptyDir\"?); dropped (--validate=warn)")), "{}", stderr(&warn));
    let a = id_of(&ns, "a");
    assert_eq!(exec(&a, "echo hi > /scratch/f && cat /scratch/f"), "hi\n", "the volume is an emptyDir, mounted");

    let ignore = run(&["--validate=ignore"]);
    succeeded(&ignore);
    assert!(!stderr(&ignore).contains("unknown field"), "{}", stderr(&ignore));
    assert_eq!(id_of(&ns, "a"), a, "the same pod: what was dropped changes nothing");
}

#[test]
fn e2e_a_missing_image_under_never_exits_4() {
    require_engine!();
    let ns = Namespace::new("never");
    let manifest = SLEEPER.replace(
        "image: busybox:1.28\n    command: [sh, -c, 'trap",
        "image: podrun-test/absent:1\n    imagePullPolicy: Never\n    command: [sh, -c, 'trap",
    );
    let out = apply(&ns, &manifest, &[]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains("ErrImageNeverPull"), "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "no half-created pod");
}

#[test]
fn e2e_a_failing_container_under_never_exits_6_promptly() {
    require_engine!();
    let ns = Namespace::new("fail");
    let manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: failing}\nspec:\n  restartPolicy: Never\n  containers:\n  - {name: bad, image: 'busybox:1.28', command: [sh, -c, 'exit 3']}\n";
    let start = Instant::now();
    let out = apply(&ns, manifest, &[]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(stdout(&out).contains("exit code 3"), "{}", stdout(&out));
    // Not a benchmark: a bound far below the ~17 minutes the default retries would take.
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn e2e_an_unreachable_engine_exits_3_naming_it() {
    let f = TempFile::new("pod.yaml", SLEEPER);
    let out = podrun_env(&["apply", f.path()], None, &[("DOCKER_HOST", "unix:///nonexistent/podrun.sock")]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("/nonexistent/podrun.sock"), "{}", stderr(&out));
}

/// A value no output may show: random, so it cannot be there by chance.
fn marker() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    format!("mrk{:016x}{:016x}", h.finish(), std::collections::hash_map::RandomState::new().hash_one(1u8))
}

/// What of `secret` could show in `text`: itself, or its base64 at any of the three
/// alignments it could have inside a longer encoded text.
fn shows(text: &str, secret: &str) -> Option<String> {
    use base64::Engine;
    if text.contains(secret) {
        return Some(secret.to_owned());
    }
    for shift in 0..3 {
        let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{}{secret}", "x".repeat(shift)));
        // The groups that hold only the secret's bytes, whatever comes before and after it.
        let inner = &encoded[if shift == 0 { 0 } else { 4 }..encoded.len() - 4];
        if text.contains(inner) {
            return Some(inner.to_owned());
        }
    }
    None
}

#[test]
fn e2e_no_output_shows_a_secret_at_any_log_level() {
    require_engine!();
    use base64::Engine;
    let ns = Namespace::new("secrets");
    let secret = marker();
    let encoded = base64::engine::general_purpose::STANDARD.encode(&secret);
    let manifest = format!(
        r#"apiVersion: v1
kind: Secret
metadata: {{name: creds}}
data: {{token: {encoded}}}
stringData: {{path: /abs-{secret}}}
---
apiVersion: v1
kind: Pod
metadata: {{name: uses}}
spec:
  terminationGracePeriodSeconds: 1
  volumes:
  - {{name: s, secret: {{secretName: creds}}}}
  containers:
  - name: c
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    env:
    - name: TOKEN
      valueFrom: {{secretKeyRef: {{name: creds, key: token}}}}
    envFrom:
    - secretRef: {{name: creds}}
    volumeMounts:
    - {{name: s, mountPath: /s}}
---
apiVersion: v1
kind: Pod
metadata: {{name: refused}}
spec:
  volumes:
  - {{name: scratch, emptyDir: {{}}}}
  containers:
  - name: c
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    env:
    - name: P
      valueFrom: {{secretKeyRef: {{name: creds, key: path}}}}
    volumeMounts:
    - {{name: scratch, mountPath: /x, subPathExpr: $(P)}}
"#
    );
    let f = TempFile::new("secrets.yaml", &manifest);
    let trace = [("PODRUN_LOG", "trace")];
    let run = |args: &[&str]| {
        let mut all = vec![args[0], "-vv"];
        all.extend_from_slice(&args[1..]);
        podrun_env(&all, None, &trace)
    };
    let (file, name) = (f.path(), ns.name());
    let apply = run(&["apply", file, "-n", name, "--timeout", "60s"]);
    // The pod with the refused subPathExpr makes the run exit 2; the other one runs.
    assert_eq!(code(&apply), 2, "{}", stderr(&apply));
    assert!(stderr(&apply).contains("subPathExpr"), "the refusal names the field: {}", stderr(&apply));
    let uses = id_of(&ns, "c");
    assert!(exec(&uses, "echo $TOKEN; cat /s/token").contains(&secret), "the container has the secret");
    assert!(stderr(&apply).contains("DEBUG"), "debug logs are on: {}", stderr(&apply));
    let outputs = [
        ("apply", apply),
        ("apply again", run(&["apply", file, "-n", name, "--timeout", "60s"])),
        ("apply --dry-run", run(&["apply", file, "-n", name, "--dry-run"])),
        ("validate", run(&["validate", file, "-n", name])),
        ("get", run(&["get", "-n", name])),
        ("get uses -o json", run(&["get", "uses", "-n", name, "-o", "json"])),
        ("get uses -o yaml", run(&["get", "uses", "-n", name, "-o", "yaml"])),
        ("delete", run(&["delete", file, "-n", name])),
    ];
    for (what, out) in &outputs {
        for (stream, text) in [("stdout", stdout(out)), ("stderr", stderr(out))] {
            if let Some(found) = shows(&text, &secret) {
                let at = text.find(&found).unwrap_or_default();
                let around = &text[text[..at].char_indices().rev().nth(300).map_or(0, |(i, _)| i)..];
                panic!(
                    "{what} shows the secret ({found}) on {stream}: ...{}",
                    around.chars().take(600).collect::<String>()
                );
            }
        }
    }
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

#[test]
fn e2e_var_expansion_past_the_bound_is_exit_2_with_nothing_created() {
    require_engine!();
    let ns = Namespace::new("var-bomb");
    // Refused when read: 34 variables, each the one before twice over.
    let mut bomb = String::from("apiVersion: v1\nkind: Pod\nmetadata: {name: bomb}\nspec:\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, 'echo $(A34)']\n    env:\n    - {name: A1, value: x}\n");
    for i in 2..=34 {
        bomb.push_str(&format!("    - {{name: A{i}, value: '$(A{})$(A{})'}}\n", i - 1, i - 1));
    }
    let out = apply(&ns, &bomb, &["--timeout", "60s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("spec.containers[0].env[21].value"), "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());

    // Refused before anything is created, with the ConfigMap's value (which validation cannot
    // see): 600 KiB, doubled twice, passes 2 MiB at A3.
    let big = "b".repeat(600 << 10);
    let doubled = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: big}}\ndata: {{BIG: {big}}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: doubled}}\nspec:\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    env:\n    - name: A1\n      valueFrom: {{configMapKeyRef: {{name: big, key: BIG}}}}\n    - {{name: A2, value: '$(A1)$(A1)'}}\n    - {{name: A3, value: '$(A2)$(A2)'}}\n"
    );
    let out = apply(&ns, &doubled, &["--timeout", "60s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("spec.containers[0].env[2].value") && stderr(&out).contains("2097152 bytes"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("bbbb"), "no value is shown: {}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}
