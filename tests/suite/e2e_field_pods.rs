//! Static pods from the field (`tests/manifests/static`, modelled on kubeadm's control plane,
//! kube-vip, and the kubeadm HA guide's keepalived and haproxy; see the README there): every
//! one validates and dry-runs, and each runs on the real engine, under test images tagged with
//! the images' own names (scripts/build-test-images: a stand-in that runs until SIGTERM), with
//! the container settings its manifest asks for: host namespaces, mounts and their modes,
//! capabilities, environment and command. Host paths are moved under a directory the test
//! owns, and `kube-system` into the test's own namespace.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::manifests::owned;
use crate::common::*;
use serde_yaml::Value;

/// A directory of the test's own, removed with what is in it.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("podrun-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn field_pods() -> Vec<PathBuf> {
    owned("static")
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn e2e_every_field_static_pod_validates_and_dry_runs() {
    require_engine!();
    let ns = Namespace::new("field-dry");
    for f in field_pods() {
        let path = f.to_str().unwrap();
        let out = podrun(&["validate", path], None);
        assert_eq!(code(&out), 0, "{}: {}", file_name(&f), stderr(&out));
        let text = std::fs::read_to_string(&f)
            .unwrap()
            .replace("namespace: kube-system", &format!("namespace: {}", ns.name()));
        let moved = TempFile::new(&file_name(&f), &text);
        let out = podrun(&["apply", moved.path(), "--dry-run"], None);
        assert_eq!(code(&out), 0, "{}: {}", file_name(&f), stderr(&out));
        let manifest: Value = serde_yaml::from_str(&text).unwrap();
        for c in manifest["spec"]["containers"].as_sequence().unwrap() {
            let name = c["name"].as_str().unwrap();
            let image = c["image"].as_str().unwrap();
            let plan = stdout(&out);
            assert!(plan.contains(&format!("create container {name}")), "{}: {plan}", file_name(&f));
            assert!(plan.contains(&format!("image {image} for {name}")), "{}: {plan}", file_name(&f));
        }
    }
    assert!(ns.containers().is_empty(), "a dry run creates nothing");
}

/// The manifest with its host paths under `root` (made there, with a file where the pod
/// mounts a file), and in the namespace `ns`.
fn moved_under(f: &Path, root: &Path, ns: &Namespace) -> String {
    let text = std::fs::read_to_string(f).unwrap();
    let mut manifest: Value = serde_yaml::from_str(&text).unwrap();
    manifest["metadata"]["namespace"] = Value::from(ns.name());
    for v in manifest["spec"]["volumes"].as_sequence_mut().into_iter().flatten() {
        let Some(host) = v.get_mut("hostPath") else { continue };
        let path = host["path"].as_str().unwrap().to_owned();
        let moved = root.join(path.trim_start_matches('/'));
        let kind = host.get("type").and_then(Value::as_str).unwrap_or("");
        let is_file = kind.starts_with("File") || Path::new(&path).extension().is_some();
        std::fs::create_dir_all(if is_file { moved.parent().unwrap() } else { &moved }).unwrap();
        if is_file && kind.is_empty() {
            // A plain hostPath must exist: the node's file, here the test's.
            std::fs::write(&moved, "# the test's\n").unwrap();
        }
        host["path"] = Value::from(moved.to_str().unwrap());
    }
    serde_yaml::to_string(&manifest).unwrap()
}

/// The container of `ns` whose Kubernetes name is `container` (the pod's name may hold it too).
fn container_id(ns: &Namespace, container: &str) -> String {
    let out = docker_on(
        None,
        &[
            "ps",
            "-q",
            "--no-trunc",
            "--filter",
            &format!("label=io.kubernetes.pod.namespace={}", ns.name()),
            "--filter",
            &format!("label=io.kubernetes.container.name={container}"),
        ],
    );
    let ids = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(!ids.is_empty() && !ids.contains('\n'), "{container}: {ids:?}");
    ids
}

fn inspect_json(id: &str) -> serde_json::Value {
    let out = docker_on(None, &["inspect", id]);
    let all: serde_json::Value = serde_json::from_slice(&out.stdout).expect("docker inspect");
    all[0].clone()
}

/// Every setting of `container` in `manifest` that the engine shows, checked against it.
fn check_container(file: &str, manifest: &Value, container: &Value, ns: &Namespace) {
    let name = container["name"].as_str().unwrap();
    let app = inspect_json(&container_id(ns, name));
    let infra = inspect_json(&container_id(ns, "POD"));
    assert_eq!(app["State"]["Running"], true, "{file}/{name}: {app:#}");
    // Host namespaces are the infra container's; the members join it.
    let host_network = manifest["spec"]["hostNetwork"].as_bool().unwrap_or(false);
    assert_eq!(infra["HostConfig"]["NetworkMode"] == "host", host_network, "{file}: {:#}", infra["HostConfig"]);
    let joined = app["HostConfig"]["NetworkMode"].as_str().unwrap_or_default();
    assert!(joined.starts_with("container:") || (host_network && joined == "host"), "{file}/{name}: {joined}");
    // Each volume mount, at its path, read-only as asked, from the (moved) host path.
    let volumes = manifest["spec"]["volumes"].as_sequence().cloned().unwrap_or_default();
    let mounts = app["Mounts"].as_array().cloned().unwrap_or_default();
    for m in container["volumeMounts"].as_sequence().into_iter().flatten() {
        let target = m["mountPath"].as_str().unwrap();
        let found = mounts
            .iter()
            .find(|x| x["Destination"] == target)
            .unwrap_or_else(|| panic!("{file}/{name}: nothing mounted at {target}: {mounts:#?}"));
        let read_only = m["readOnly"].as_bool().unwrap_or(false);
        assert_eq!(found["RW"], !read_only, "{file}/{name}: {target}: {found}");
        let volume = volumes.iter().find(|v| v["name"] == m["name"]).unwrap();
        if let Some(path) = volume["hostPath"]["path"].as_str() {
            assert_eq!(found["Source"], path, "{file}/{name}: {target}");
        }
    }
    // Added capabilities.
    let added: Vec<String> = app["HostConfig"]["CapAdd"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().map(|c| c.trim_start_matches("CAP_").to_owned()))
        .collect();
    for cap in container["securityContext"]["capabilities"]["add"].as_sequence().into_iter().flatten() {
        let cap = cap.as_str().unwrap();
        assert!(added.iter().any(|a| a == cap), "{file}/{name}: {cap} not added: {added:?}");
    }
    // Literal environment values.
    let env: Vec<String> =
        app["Config"]["Env"].as_array().into_iter().flatten().filter_map(|e| e.as_str().map(str::to_owned)).collect();
    for e in container["env"].as_sequence().into_iter().flatten() {
        if let Some(value) = e["value"].as_str() {
            let want = format!("{}={value}", e["name"].as_str().unwrap());
            assert!(env.contains(&want), "{file}/{name}: {want} not in {env:?}");
        }
    }
    // The command and arguments reach the program ($(VAR) expanded), as the stand-in says.
    // What it said by then is checked below, also when it never says it is the stand-in.
    let said = poll(Duration::from_secs(10), Duration::from_millis(100), || {
        let said = ns.logs(&container_id(ns, name));
        if said.contains("stand-in for") {
            Ok(said)
        } else {
            Err(said)
        }
    })
    .unwrap_or_else(|said| said);
    let args: Vec<&str> = container["command"]
        .as_sequence()
        .into_iter()
        .flatten()
        .skip(1)
        .chain(container["args"].as_sequence().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    for a in args.iter().filter(|a| !a.contains("$(")) {
        assert!(said.contains(a), "{file}/{name}: {a} not passed: {said}");
    }
    assert!(!said.contains("$("), "{file}/{name}: unexpanded: {said}");
    // A hostNetwork pod's status.podIP is the node's address, never empty (Typhoon passes it
    // as --advertise-address).
    for e in container["env"].as_sequence().into_iter().flatten() {
        if e["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP" {
            let var = e["name"].as_str().unwrap();
            let value = env.iter().find_map(|x| x.strip_prefix(&format!("{var}="))).unwrap_or_default();
            assert!(value.parse::<std::net::IpAddr>().is_ok(), "{file}/{name}: {var}={value:?}");
            assert!(!said.contains("=\n") && !said.contains("= "), "{file}/{name}: an empty expansion: {said}");
        }
    }
    // Seccomp: the runtime's default where the pod or the container asks for it, else none,
    // as under a kubelet with its default settings.
    let profile = |sc: &Value| sc["seccompProfile"]["type"].as_str().map(str::to_owned);
    let asked = profile(&container["securityContext"]).or_else(|| profile(&manifest["spec"]["securityContext"]));
    let mode = exec(&container_id(ns, name), "awk '/^Seccomp:/ {print $2}' /proc/1/status");
    let want = if asked.as_deref() == Some("RuntimeDefault") { "2" } else { "0" };
    assert_eq!(mode.trim(), want, "{file}/{name}: seccomp");
    // The OOM score the kubelet gives (pkg/kubelet/qos/policy.go), where the engine can.
    let score: i64 = exec(&container_id(ns, name), "cat /proc/1/oom_score_adj").trim().parse().unwrap();
    assert_eq!(score, expected_oom_score(file, manifest).max(engine_oom_floor()), "{file}/{name}: oom_score_adj");
}

/// The kubelet's OOM score for the corpus' pods: node-critical ones (kubeadm's), BestEffort
/// ones (no resources), and Burstable ones that request no memory.
fn expected_oom_score(file: &str, manifest: &Value) -> i64 {
    if manifest["spec"]["priorityClassName"] == "system-node-critical" {
        return -997;
    }
    let containers = manifest["spec"]["containers"].as_sequence().unwrap();
    let resources = |c: &Value| {
        let r = &c["resources"];
        (
            r["requests"].as_mapping().is_some_and(|m| !m.is_empty()),
            r["limits"].as_mapping().is_some_and(|m| !m.is_empty()),
        )
    };
    if containers.iter().all(|c| resources(c) == (false, false)) {
        return 1000;
    }
    let no_memory = containers.iter().all(|c| c["resources"]["requests"]["memory"].is_null() && !resources(c).1);
    assert!(no_memory, "{file}: the corpus test knows no rule for this pod's resources");
    999
}

#[test]
fn e2e_field_static_pods_run_with_the_settings_their_manifests_ask_for() {
    require_engine!();
    let root = TempDir::new("field-pods");
    for f in field_pods() {
        let file = file_name(&f);
        let ns = Namespace::new(&format!("field-{}", file.trim_end_matches(".yaml")));
        let text = moved_under(&f, root.path(), &ns);
        let manifest: Value = serde_yaml::from_str(&text).unwrap();
        let moved = TempFile::new(&file, &text);
        // Started is enough: nothing answers their probes here.
        let out = podrun(&["apply", moved.path(), "--wait-for", "none", "--timeout", "60s"], None);
        assert_eq!(code(&out), 0, "{file}: {}", stderr(&out));
        wait_until(&format!("{file}: two containers running"), Duration::from_secs(30), || {
            if ns.running() >= 2 {
                Ok(())
            } else {
                Err(ns.containers())
            }
        });
        for c in manifest["spec"]["containers"].as_sequence().unwrap() {
            check_container(&file, &manifest, c, &ns);
        }
        let out = podrun(&["delete", moved.path(), "--grace-period", "0"], None);
        assert_eq!(code(&out), 0, "{file}: {}", stderr(&out));
    }
}
