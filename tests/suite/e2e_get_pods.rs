//! `podrun get` on Docker, Podman and containerd (CRI): pods applied from a file read back as
//! the file said (`-o json` compared field by field with the manifest: labels, annotations,
//! command, env names, ports, volumes, the API server's defaults), and never a Secret's value;
//! kubectl's resource words and several names, its selectors, `--show-labels`, `-L`,
//! `--no-headers`, and `-w` printing a line when a pod goes, until SIGINT (exit 130).

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::common::*;

/// The Secret whose value must never show, and a pod that reads it by reference.
const WEB: &str = r#"apiVersion: v1
kind: Secret
metadata: {name: token}
stringData: {key: s3cr3t-never-shown}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web, tier: front}
  annotations: {note: "said in the file"}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'trap "exit 0" TERM; while true; do sleep 1 & wait; done']
    env:
    - {name: PLAIN, value: one}
    - name: TOKEN
      valueFrom: {secretKeyRef: {name: token, key: key}}
    ports:
    - {name: http, containerPort: 8080}
    volumeMounts:
    - {name: scratch, mountPath: /scratch}
    - {name: secret, mountPath: /secret}
  volumes:
  - {name: scratch, emptyDir: {}}
  - {name: secret, secret: {secretName: token}}
"#;

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// `podrun get ARGS -n NS`, expecting exit `want`.
fn get(target: Target, ns: &Namespace, args: &[&str], want: i32) -> Output {
    let mut all = vec!["get", "-n", ns.name()];
    all.extend_from_slice(args);
    let o = run(target, &all);
    assert_eq!(code(&o), want, "{}: get {args:?}: {}{}", target.name(), stdout(&o), stderr(&o));
    o
}

/// Applies `manifest` in `ns`; it must succeed.
fn applied(target: Target, ns: &Namespace, manifest: &str) {
    let f = TempFile::new("get.yaml", manifest);
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
}

/// The Pod document of `WEB`, as JSON.
fn manifest_pod() -> Value {
    let doc = WEB.split("---\n").nth(1).expect("the pod's document");
    serde_yaml::from_str(doc).expect("the manifest is YAML")
}

/// `get web -o json` is the Pod of the file, field by field, with the API server's defaults.
fn whole_object(target: Target, ns: &Namespace) {
    applied(target, ns, WEB);
    let o = get(target, ns, &["web", "-o", "json"], 0);
    assert!(!stdout(&o).contains("s3cr3t"), "{}: a Secret's value in get -o json", target.name());
    let pod: Value = serde_json::from_slice(&o.stdout).expect("get -o json is JSON");
    let want = manifest_pod();
    let (meta, spec, c) = (&pod["metadata"], &pod["spec"], &pod["spec"]["containers"][0]);
    let wc = &want["spec"]["containers"][0];
    assert_eq!((meta["name"].as_str(), meta["namespace"].as_str()), (Some("web"), Some(ns.name())));
    assert_eq!(meta["labels"], want["metadata"]["labels"]);
    assert_eq!(meta["annotations"], want["metadata"]["annotations"]);
    assert!(meta["uid"].as_str().is_some_and(|u| !u.is_empty()), "{meta}");
    assert!(meta["creationTimestamp"].as_str().is_some_and(|t| t.ends_with('Z')), "{meta}");
    assert_eq!(meta["generation"], 1);
    assert_eq!(c["name"], wc["name"]);
    assert_eq!(c["image"], wc["image"]);
    assert_eq!(c["command"], wc["command"]);
    let names = |env: &Value| -> Vec<String> {
        env.as_array().into_iter().flatten().filter_map(|e| e["name"].as_str().map(str::to_owned)).collect()
    };
    assert_eq!(names(&c["env"]), names(&wc["env"]));
    assert_eq!(c["env"][1]["valueFrom"], wc["env"][1]["valueFrom"], "the reference, not the value");
    assert_eq!(c["ports"][0]["name"], "http");
    assert_eq!(c["ports"][0]["containerPort"], 8080);
    assert_eq!(c["volumeMounts"], wc["volumeMounts"]);
    assert_eq!(names(&spec["volumes"]), ["scratch", "secret"]);
    assert_eq!(spec["volumes"][1]["secret"]["secretName"], "token");
    // The API server's defaults.
    assert_eq!(spec["restartPolicy"], "Always");
    assert_eq!(spec["terminationGracePeriodSeconds"], 1);
    assert_eq!(c["imagePullPolicy"], "Always");
    assert_eq!(c["terminationMessagePath"], "/dev/termination-log");
    assert_eq!(c["terminationMessagePolicy"], "File");
    assert_eq!(pod["status"]["phase"], "Running");

    // The same in YAML, and in the List of every pod.
    let o = get(target, ns, &["web", "-o", "yaml"], 0);
    let yaml: Value = serde_yaml::from_slice(&o.stdout).expect("get -o yaml is YAML");
    assert_eq!(yaml["metadata"]["labels"], want["metadata"]["labels"]);
    let o = get(target, ns, &["-o", "json"], 0);
    let list: Value = serde_json::from_slice(&o.stdout).expect("a JSON List");
    assert_eq!(list["items"][0]["spec"]["containers"][0]["command"], wc["command"]);
    assert!(!stdout(&o).contains("s3cr3t"));
}

/// Three pods: two labelled, one not.
fn three() -> String {
    let pod = |meta: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {meta}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  \
             - name: app\n    image: busybox\n    command: [sh, -c, '{LOOP}']\n"
        )
    };
    [
        pod("{name: web, labels: {app: web, tier: front}}"),
        pod("{name: db, labels: {app: db, tier: back}}"),
        pod("{name: job}"),
    ]
    .join("---\n")
}

/// The first word of each row of a table, the header left out.
fn names(o: &Output) -> Vec<String> {
    stdout(o).lines().skip(1).filter_map(|l| l.split_whitespace().next().map(str::to_owned)).collect()
}

/// The pods `get ARGS` lists, sorted.
fn listed(target: Target, ns: &Namespace, args: &[&str]) -> Vec<String> {
    let mut v = names(&get(target, ns, args, 0));
    v.sort();
    v
}

/// Resource words, several names, selectors and the table's flags.
fn words_selectors_and_columns(target: Target, ns: &Namespace) {
    applied(target, ns, &three());
    for words in [&["pods"][..], &["po"], &["pod"], &[]] {
        assert_eq!(listed(target, ns, words), ["db", "job", "web"], "{}: get {words:?}", target.name());
    }
    for args in [&["pod", "web", "db"][..], &["pod/web", "po/db"], &["web", "db"], &["pods/web", "pods/db"]] {
        assert_eq!(names(&get(target, ns, args, 0)), ["web", "db"], "{}: get {args:?}", target.name());
    }
    let o = get(target, ns, &["pod", "pod/web"], 2);
    assert!(stderr(&o).contains("there is no need to specify a resource type"), "{}", stderr(&o));
    let o = get(target, ns, &["svc/web"], 2);
    assert!(stderr(&o).contains(r#"the server doesn't have a resource type "svc""#), "{}", stderr(&o));
    let o = get(target, ns, &["pods", "web", "-l", "app=web"], 2);
    assert!(stderr(&o).contains("name cannot be provided when a selector is specified"), "{}", stderr(&o));

    for (selector, want) in [
        ("app=web", &["web"][..]),
        ("app==web,tier=front", &["web"]),
        ("app!=web", &["db", "job"]),
        ("tier in (front,back)", &["db", "web"]),
        ("tier notin (front)", &["db", "job"]),
        ("app", &["db", "web"]),
        ("!app", &["job"]),
        ("", &["db", "job", "web"]),
    ] {
        assert_eq!(listed(target, ns, &["pods", "-l", selector]), want, "{}: -l {selector:?}", target.name());
    }
    let o = get(target, ns, &["-l", "app=none"], 0);
    assert!(stdout(&o).is_empty() && stderr(&o).contains("No resources found"), "{}", stderr(&o));
    let o = get(target, ns, &["-l", "app in (web"], 2);
    assert!(stderr(&o).contains("unable to parse requirement"), "{}", stderr(&o));

    let o = get(target, ns, &["web", "job", "--show-labels", "-L", "tier,app"], 0);
    let text = stdout(&o);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0][5..], ["TIER", "APP", "LABELS"], "{text}");
    assert_eq!(rows[1][5..], ["front", "web", "app=web,tier=front"], "{text}");
    assert_eq!(rows[2][0], "job");
    assert_eq!(rows[2].last(), Some(&"<none>"), "{text}");
    // logs -l: each selected pod's default container; following more than allowed is refused.
    let o = run(target, &["logs", "-n", ns.name(), "-l", "app", "--prefix"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(target, &["logs", "-n", ns.name(), "-l", "app=none"]);
    assert!(code(&o) == 0 && stderr(&o).contains("No resources found"), "{}", stderr(&o));
    let o = run(target, &["logs", "-n", ns.name(), "-l", "app", "-f", "--max-log-requests", "1"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("you are attempting to follow 2 log streams"), "{}", stderr(&o));
    let o = get(target, ns, &["web", "--no-headers"], 0);
    assert!(stdout(&o).starts_with("web ") && stdout(&o).lines().count() == 1, "{}", stdout(&o));
}

/// `get -w`: the table, then a line for a pod deleted meanwhile; SIGINT ends it with 130.
fn watch(target: Target, ns: &Namespace) {
    applied(target, ns, &three());
    let out = TempFile::new("watch.out", "");
    let mut cmd = Command::new(PODRUN);
    match target {
        Target::Engine(Some(host)) => drop(cmd.args(["--host", host])),
        Target::Cri(endpoint) => drop(cmd.args(["--runtime-endpoint", endpoint])),
        Target::Engine(None) | Target::Rootless(_) => {}
    }
    let file = std::fs::File::create(out.path()).expect("watch output");
    cmd.args(["get", "-w", "-n", ns.name(), "-L", "app"]).stdout(Stdio::from(file)).stderr(Stdio::piped());
    let child = Killed(cmd.spawn().expect("spawn podrun get -w"));
    let lines = || std::fs::read_to_string(out.path()).unwrap_or_default();
    wait_until(
        "the table",
        Duration::from_secs(30),
        || if lines().lines().count() >= 4 { Ok(()) } else { Err(lines()) },
    );
    let table = lines();
    assert!(table.starts_with("NAME ") && table.contains("APP"), "{table}");
    let o = run(target, &["delete", "db", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    wait_until("a line for db", Duration::from_secs(30), || {
        let now = lines();
        if now.lines().skip(4).any(|l| l.starts_with("db ")) {
            Ok(())
        } else {
            Err(now)
        }
    });
    assert!(!lines().lines().skip(1).any(|l| l.starts_with("NAME ")), "no header again: {}", lines());
    let mut child = child;
    Command::new("kill").args(["-INT", &child.0.id().to_string()]).status().expect("kill");
    let status = crate::common::bounded::wait(&mut child.0, Duration::from_secs(30)).expect("get -w ends on SIGINT");
    assert_eq!(status.code(), Some(130), "{}", target.name());
}

#[test]
fn docker_get_is_the_pod_of_the_file() {
    require_engine!();
    let ns = Namespace::new("get-docker-object");
    whole_object(Target::Engine(None), &ns);
}

#[test]
fn podman_get_is_the_pod_of_the_file() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "get-podman-object");
    whole_object(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_get_is_the_pod_of_the_file() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "get-cri-object");
    whole_object(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_get_takes_kubectls_words_selectors_and_columns() {
    require_engine!();
    let ns = Namespace::new("get-docker-words");
    words_selectors_and_columns(Target::Engine(None), &ns);
}

#[test]
fn podman_get_takes_kubectls_words_selectors_and_columns() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "get-podman-words");
    words_selectors_and_columns(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_get_takes_kubectls_words_selectors_and_columns() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "get-cri-words");
    words_selectors_and_columns(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_get_watches_until_interrupted() {
    require_engine!();
    let ns = Namespace::new("get-docker-watch");
    watch(Target::Engine(None), &ns);
}

#[test]
fn podman_get_watches_until_interrupted() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "get-podman-watch");
    watch(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_get_watches_until_interrupted() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "get-cri-watch");
    watch(Target::Cri(&endpoint), &ns);
}
