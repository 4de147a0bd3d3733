//! `podrun get` on Docker, Podman and containerd (CRI): pods applied from a file read back as
//! the file said (`-o json` compared field by field with the manifest: labels, annotations,
//! command, env names, ports, volumes, the API server's defaults), and never a Secret's value.

use std::process::Output;

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
