//! Env from files (`valueFrom.fileKeyRef`, EnvFiles, beta and on by default since Kubernetes
//! 1.35) on every local engine, after the Kubernetes e2e test "should be able to populate
//! environment variables from a file" (test/e2e/common/node): an init container writes an env
//! file into an emptyDir, and the app container gets its keys; an optional missing key leaves
//! the variable unset; a missing key fails the container with CreateContainerConfigError.

use std::process::Output;

use crate::common::*;
use crate::e2e_engine_volumes::{guard, Forwarder};

/// `key` of the app's first variable, and whether it is optional.
fn pod(key: &str, optional: bool) -> String {
    pod_writing(
        key,
        optional,
        r##"printf \"# written by setup\\nCONFIG_1='value1'\\nCONFIG_2='two words'\\n\" > /data/config.env"##,
    )
}

/// The pod, its init container running `setup` (a double-quoted YAML string's text).
fn pod_writing(key: &str, optional: bool, setup: &str) -> String {
    format!(
        r##"apiVersion: v1
kind: Pod
metadata: {{name: envfile}}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: setup
    image: busybox
    command: [sh, -c, "{setup}"]
    volumeMounts: [{{name: config, mountPath: /data}}]
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'echo "1=$CONFIG_1 2=$CONFIG_2 opt=${{OPT-unset}}"']
    env:
    - name: CONFIG_1
      valueFrom: {{fileKeyRef: {{volumeName: config, path: config.env, key: {key}, optional: {optional}}}}}
    - name: CONFIG_2
      valueFrom: {{fileKeyRef: {{volumeName: config, path: config.env, key: CONFIG_2}}}}
    - name: OPT
      valueFrom: {{fileKeyRef: {{volumeName: config, path: config.env, key: NOT_THERE, optional: true}}}}
  volumes:
  - {{name: config, emptyDir: {{}}}}
"##
    )
}

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

fn variables_come_from_the_file_an_init_container_wrote(target: Target, ns: &Namespace) {
    let f = TempFile::new("envfile.yaml", &pod("CONFIG_1", false));
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let logs = run(target, &["logs", "envfile", "-c", "app", "-n", ns.name()]);
    assert_eq!(stdout(&logs).trim(), "1=value1 2=two words opt=unset", "{}: {}", target.name(), stderr(&logs));
    let o = run(target, &["delete", "envfile", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// As on a node, CreateContainerConfigError is retried (a sidecar may write the file later)
/// until the deadline: exit 5, the error named, the app container never made.
fn a_missing_key_fails_the_container_unless_optional(target: Target, ns: &Namespace) {
    let f = TempFile::new("envfile.yaml", &pod("MISSING", false));
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "15s"]);
    let err = stderr(&o);
    assert_eq!(code(&o), 5, "{}: {err}", target.name());
    assert!(
        err.contains(
            "app: Waiting: CreateContainerConfigError (spec.containers[0].env[0].valueFrom.fileKeyRef: environment \
             variable key \"MISSING\" not found in file \"config.env\" in volume \"config\")"
        ),
        "{}: {err}",
        target.name()
    );
    // No value of the file is shown, and the app container was never made.
    assert!(!err.contains("value1") && !err.contains("two words"), "{}: {err}", target.name());
    let made = ns.containers();
    assert!(!made.is_empty() && made.iter().all(|(_, n)| !n.contains("app")), "{}: {made:?}", target.name());
    run(target, &["delete", "envfile", "-n", ns.name()]);
    // Optional, the same key leaves the variable unset and the pod runs.
    let f = TempFile::new("envfile.yaml", &pod("MISSING", true));
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let logs = run(target, &["logs", "envfile", "-c", "app", "-n", ns.name()]);
    assert_eq!(stdout(&logs).trim(), "1= 2=two words opt=unset", "{}", target.name());
    let o = run(target, &["delete", "envfile", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn docker_variables_come_from_the_file_an_init_container_wrote() {
    require_engine!();
    let ns = Namespace::new("ef-docker");
    variables_come_from_the_file_an_init_container_wrote(Target::Engine(None), &ns);
}

#[test]
fn podman_variables_come_from_the_file_an_init_container_wrote() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "ef-podman");
    variables_come_from_the_file_an_init_container_wrote(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_variables_come_from_the_file_an_init_container_wrote() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "ef-cri");
    variables_come_from_the_file_an_init_container_wrote(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_a_missing_key_fails_the_container_unless_optional() {
    require_engine!();
    let ns = Namespace::new("ef-docker-missing");
    a_missing_key_fails_the_container_unless_optional(Target::Engine(None), &ns);
}

#[test]
fn podman_a_missing_key_fails_the_container_unless_optional() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "ef-podman-missing");
    a_missing_key_fails_the_container_unless_optional(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_a_missing_key_fails_the_container_unless_optional() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "ef-cri-missing");
    a_missing_key_fails_the_container_unless_optional(Target::Cri(&endpoint), &ns);
}

/// On an engine podrun cannot see the files of (plain `tcp://` to the test engine), the file is
/// read through the engine's archive API from the infra container, which mounts the emptyDir.
#[test]
fn remote_variables_come_from_the_file_through_the_engine() {
    require_engine!();
    require_tool!("socat");
    let fwd = Forwarder::start("envfile", None);
    let host = fwd.host();
    let state = StateDir::new("env-files-remote");
    let _volumes = guard(None, "ef-remote");
    let ns = Namespace::new("ef-remote");
    let f = TempFile::new("envfile.yaml", &pod("CONFIG_1", false));
    let o = state.run_on(Some(&host), &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let logs = state.run_on(Some(&host), &["logs", "envfile", "-c", "app", "-n", ns.name()]);
    assert_eq!(stdout(&logs).trim(), "1=value1 2=two words opt=unset", "{}", stderr(&logs));
    // A link in the volume is not followed there either (the archive holds the link itself).
    let link = pod_writing("CONFIG_1", false, "ln -s /etc/hostname /data/config.env");
    let f = TempFile::new("envfile.yaml", &link);
    state.run_on(Some(&host), &["delete", "envfile", "-n", ns.name()]);
    let o = state.run_on(Some(&host), &["apply", f.path(), "-n", ns.name(), "--timeout", "10s"]);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(stderr(&o).contains("it is a symbolic link, which podrun does not follow"), "{}", stderr(&o));
    let o = state.run_on(Some(&host), &["delete", "envfile", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// An init container that swaps the env file for a link to a file of this host (a canary the
/// test owns) gets nothing from it: podrun follows no link in the volume, and says so.
#[test]
fn a_link_to_a_host_file_is_not_followed() {
    require_engine!();
    let canary_dir = std::env::temp_dir().join(format!("podrun-envfile-canary-{}", std::process::id()));
    std::fs::create_dir_all(&canary_dir).unwrap();
    let canary = canary_dir.join("secret.env");
    std::fs::write(&canary, "CONFIG_1='canary-from-the-host'\n").unwrap();
    let ns = Namespace::new("ef-link");
    let link = pod_writing("CONFIG_1", false, &format!("ln -s {} /data/config.env", canary.display()));
    let f = TempFile::new("envfile.yaml", &link);
    let o = podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "10s"], None);
    let err = stderr(&o);
    let _ = std::fs::remove_dir_all(&canary_dir);
    assert_eq!(code(&o), 5, "{err}");
    assert!(err.contains("fileKeyRef: couldn't parse env file"), "{err}");
    assert!(err.contains("it is a symbolic link, which podrun does not follow"), "{err}");
    assert!(!err.contains("canary-from-the-host"), "{err}");
    assert!(ns.containers().iter().all(|(_, n)| !n.contains("app")));
}
