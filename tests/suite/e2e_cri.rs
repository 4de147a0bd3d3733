//! podrun on a CRI runtime (containerd with its CRI plugin), end to end: the same pods, results,
//! exit codes and commands as on the Docker API.
//!
//! `scripts/test` starts a containerd of its own (scripts/containerd-test) and names it in
//! PODRUN_CRI_ENDPOINT. Without it these tests say so and pass, unless end-to-end tests are
//! required (PODRUN_E2E=required, as scripts/test sets it, or CI=true): then it is a failure.
//! What the tests see of the runtime without podrun comes from containerd's own client (`ctr`)
//! and the log files the runtime writes (`common::cri`).

use std::process::Command;
use std::time::Duration;

use crate::common::cri::{containers, ctr, podrun_cri, podrun_cri_fed, Feed};
use crate::common::*;

/// An init container writes the page into an emptyDir; `server` serves it on port 8080 (ready
/// once it listens); `client` fetches it from 127.0.0.1 through the pod's network namespace.
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
    livenessProbe:
      httpGet: {path: /index.html, port: 8080}
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
    readinessProbe:
      exec: {command: [test, -e, /proc/1]}
      periodSeconds: 1
"#;

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn e2e_cri_runs_a_pod_reapplies_it_idempotently_and_deletes_it() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "web");
    let out = apply(&ns, WEB, &["--wait-for", "ready", "--timeout", "60s", "-o", "json"]);
    succeeded(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let status = &v["items"][0]["status"];
    assert_eq!(status["phase"], "Running", "{status}");
    assert!(status["podIP"].as_str().is_some_and(|ip| ip.starts_with("10.")), "{status}");
    assert_eq!(status["initContainerStatuses"][0]["state"]["terminated"]["reason"], "Completed", "{status}");
    for c in status["containerStatuses"].as_array().expect("containerStatuses") {
        assert!(c["state"]["running"].is_object(), "{c}");
        assert_eq!(c["ready"], true, "{c}");
    }
    // The sandbox, the init container and the two app containers, as containerd holds them.
    let before = ns.containers();
    assert_eq!(before.len(), 4, "{before:?}");
    assert_eq!(containers(&endpoint, ns.name()).iter().filter(|c| c.is_sandbox()).count(), 1);

    // The client reached the server through the pod's network and saw the init container's
    // file; its hostname is the pod's. Read through podrun and, independently, from the file.
    let logs = || stdout(&ns.podrun(&["logs", "web", "-c", "client", "-n", ns.name()]));
    let seen = wait_until("the client's page", Duration::from_secs(20), || {
        let l = logs();
        if l.contains("page-from-init") {
            Ok(l)
        } else {
            Err(l)
        }
    });
    assert!(seen.contains("hostname=web"), "{seen}");
    let client = containers(&endpoint, ns.name()).into_iter().find(|c| c.name().contains("_client_")).expect("client");
    assert!(client.logs().contains("page-from-init"), "{}", client.logs());

    // Re-applied: nothing is recreated.
    succeeded(&apply(&ns, WEB, &["--wait-for", "ready", "--timeout", "60s"]));
    assert_eq!(ns.containers(), before);

    // exec without a terminal: both streams and the exit code.
    let out = ns.podrun(&[
        "exec",
        "web",
        "-c",
        "server",
        "-n",
        ns.name(),
        "--",
        "sh",
        "-c",
        "cat /www/index.html; echo err >&2; exit 3",
    ]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(stdout(&out), "page-from-init\n");
    assert!(stderr(&out).contains("err"), "{}", stderr(&out));

    let out = ns.podrun(&["get", "-n", ns.name()]);
    succeeded(&out);
    assert!(stdout(&out).contains("2/2"), "{}", stdout(&out));

    let out = ns.podrun(&["delete", "web", "-n", ns.name()]);
    succeeded(&out);
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    // The runtime's leftovers go too: the pod's log folder.
    let uid = v["items"][0]["metadata"]["uid"].as_str().unwrap_or_default().to_owned();
    let logs = format!("/var/log/pods/{}_web_{uid}", ns.name());
    assert!(!std::path::Path::new(&logs).exists(), "{logs} is left");
}

#[test]
fn e2e_cri_a_crash_loop_counts_restarts_keeps_the_previous_logs_and_exits_6() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "crash");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n  - {name: c, image: 'busybox:1.28', command: [sh, -c, 'echo boom; exit 2']}\n";
    let out = apply(&ns, pod, &["--retries", "3", "--crash-backoff", "200ms", "-o", "json"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let v = json(&out);
    let c = &v["items"][0]["status"]["containerStatuses"][0];
    assert_eq!(c["restartCount"], 3, "{c}");
    assert_eq!(c["lastState"]["terminated"]["exitCode"], 2, "{c}");
    assert_eq!(c["lastState"]["terminated"]["reason"], "Error", "{c}");
    let out = ns.podrun(&["logs", "crash", "-n", ns.name(), "--previous"]);
    succeeded(&out);
    assert_eq!(stdout(&out), "boom\n");
    let instances = ns.containers().into_iter().filter(|(_, n)| n.contains("_c_")).count();
    assert!(instances <= 2, "{instances} instances kept");
}

#[test]
fn e2e_cri_a_failing_liveness_probe_restarts_the_container() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "liveness");
    // Probed while apply waits: the first instance turns unhealthy and is killed; the next one
    // (the emptyDir remembers) completes, which ends the OnFailure pod.
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: l}}\nspec:\n  restartPolicy: OnFailure\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, emptyDir: {{}}}}]\n  containers:\n  - name: c\n    image: busybox:1.28\n    volumeMounts: [{{name: d, mountPath: /d}}]\n    command: [sh, -c, 'if [ -f /d/ran ]; then exit 0; fi; touch /d/ran /tmp/healthy; sleep 1; rm /tmp/healthy; {LOOP}']\n    livenessProbe: {{exec: {{command: [test, -f, /tmp/healthy]}}, periodSeconds: 1, failureThreshold: 2}}\n"
    );
    let out = apply(&ns, &manifest, &["-o", "json", "--timeout", "60s", "--crash-backoff", "100ms"]);
    succeeded(&out);
    let st = &json(&out)["items"][0]["status"];
    let c = &st["containerStatuses"][0];
    assert_eq!(c["restartCount"], 1, "{c}");
    assert!(c["lastState"]["terminated"]["message"].as_str().unwrap_or("").contains("liveness probe failed"), "{c}");
    assert_eq!(st["phase"], "Succeeded");
    assert_eq!(c["image"], "busybox:1.28", "the image as the pod names it: {c}");
}

#[test]
fn e2e_cri_sidecars_start_before_and_stop_after_the_app_container() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "sidecar");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: side}}\nspec:\n  terminationGracePeriodSeconds: 1\n  initContainers:\n  - name: first\n    image: busybox:1.28\n    command: [sh, -c, 'echo first']\n  - name: logger\n    image: busybox:1.28\n    restartPolicy: Always\n    command: [sh, -c, '{LOOP}']\n    startupProbe:\n      exec: {{command: ['true']}}\n      periodSeconds: 1\n  containers:\n  - name: app\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n"
    );
    let out = apply(&ns, &pod, &["--wait-for", "ready", "--timeout", "60s", "-o", "json"]);
    succeeded(&out);
    let v = json(&out);
    let inits = v["items"][0]["status"]["initContainerStatuses"].as_array().expect("init statuses").clone();
    assert_eq!(inits[0]["state"]["terminated"]["reason"], "Completed", "{inits:?}");
    assert!(inits[1]["state"]["running"].is_object(), "{inits:?}");
    assert!(stderr(&out).contains("creating logger"), "{}", stderr(&out));
    succeeded(&ns.podrun(&["delete", "side", "-n", ns.name()]));
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_cri_supervise_brings_back_a_container_killed_from_outside() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "supervise");
    let f = TempFile::new(
        "pod.yaml",
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: sup}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n"
        ),
    );
    let _supervisor = Killed(
        Command::new(PODRUN)
            .args(["--runtime-endpoint", &endpoint, "apply", f.path(), "-n", ns.name(), "--supervise"])
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run podrun"),
    );
    // Not found until the supervisor's first pass has made it.
    let running = || {
        let out = ns.podrun(&["get", "sup", "-n", ns.name(), "-o", "json"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let c = v["status"]["containerStatuses"][0].clone();
        (c["state"]["running"].is_object(), c["restartCount"].as_u64().unwrap_or(0))
    };
    wait_until("the pod runs", Duration::from_secs(30), || match running() {
        (true, 0) => Ok(()),
        other => Err(other),
    });
    let app = containers(&endpoint, ns.name()).into_iter().find(|c| c.name().contains("_c_")).expect("app");
    let sock = endpoint.trim_start_matches("unix://");
    let kill = Command::new("ctr")
        .args(["--address", sock, "-n", "k8s.io", "tasks", "kill", "-s", "SIGKILL", &app.id])
        .output()
        .expect("ctr");
    assert!(kill.status.success(), "{kill:?}");
    wait_until("the container restarted", Duration::from_secs(40), || match running() {
        (true, n) if n >= 1 => Ok(()),
        other => Err(other),
    });
}

#[test]
fn e2e_cri_pulls_from_a_registry_with_credentials_and_refuses_an_absent_image() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "pull");
    let mut reg = crate::e2e_images::Registry::start("cri-auth", Some("alice:wonderland"));
    let image = reg.push("cri-private", Some(("alice", "wonderland")));
    let secret = |user: &str, pass: &str| reg.pull_secret(user, pass);
    let pod = |image: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: img}}\nspec:\n  terminationGracePeriodSeconds: 1\n  imagePullSecrets: [{{name: regcred}}]\n  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: IfNotPresent, command: [sh, -c, '{LOOP}']}}\n"
        )
    };
    let out = apply(
        &ns,
        &format!("{}{}", secret("alice", "wrong"), pod(&image)),
        &["--retries", "1", "--retry-delay", "100ms"],
    );
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(!stderr(&out).contains("wrong"), "credentials are never shown: {}", stderr(&out));
    let out = apply(&ns, &format!("{}{}", secret("alice", "wonderland"), pod(&image)), &["--timeout", "60s"]);
    succeeded(&out);
    assert!(!stderr(&out).contains("wonderland"), "{}", stderr(&out));
    succeeded(&ns.podrun(&["delete", "img", "-n", ns.name()]));
    // The image, removed from the runtime again.
    let sock = endpoint.trim_start_matches("unix://");
    let _ = Command::new("ctr").args(["--address", sock, "-n", "k8s.io", "images", "rm", &image]).output();

    // A tag the registry does not have: not found, for good (exit 4), nothing left.
    let absent = format!("127.0.0.1:{}/cri-absent-{}:1", reg.port, std::process::id());
    let out = apply(&ns, &format!("{}{}", secret("alice", "wonderland"), pod(&absent)), &["--retries", "1"]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains("not found"), "{}", stderr(&out));
}

#[test]
fn e2e_cri_flags_for_the_docker_api_alone_are_refused_with_nothing_made() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "docker-only");
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    for (flag, value) in [("--network", "n"), ("--infra-image", "busybox:1.28")] {
        let out = apply(&ns, &pod, &[flag, value]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(stderr(&out).contains(&format!("{flag}: a CRI runtime")), "{}", stderr(&out));
        assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    }
}

#[test]
fn e2e_cri_an_unreachable_runtime_is_exit_3_naming_it() {
    let out = podrun_cri("unix:///nonexistent/podrun-test.sock", &["get"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("/nonexistent/podrun-test.sock"), "{}", stderr(&out));
    let out = podrun_cri("tcp://127.0.0.1:1", &["get"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("unix:///path"), "{}", stderr(&out));
}

/// Puts the runtime's sandbox image back when dropped, from the archive it was saved to.
struct SandboxImage<'a> {
    endpoint: &'a str,
    archive: std::path::PathBuf,
}

impl Drop for SandboxImage<'_> {
    fn drop(&mut self) {
        let archive = self.archive.to_string_lossy().into_owned();
        let back = ctr(self.endpoint, &["images", "import", &archive]);
        assert!(back.status.success(), "the sandbox image could not be put back: {back:?}");
        let _ = std::fs::remove_file(&self.archive);
    }
}

#[test]
fn e2e_cri_a_missing_sandbox_image_is_exit_4_naming_it_with_nothing_created() {
    // The image every pod's sandbox needs: no other CRI test may run meanwhile.
    require_cri!(endpoint, alone);
    let ns = Namespace::on_cri(&endpoint, "sandbox-image");
    let pause = "registry.k8s.io/pause:3.6";
    let archive = std::env::temp_dir().join(format!("podrun-pause-{}.tar", std::process::id()));
    let saved = ctr(&endpoint, &["images", "export", &archive.to_string_lossy(), pause]);
    assert!(saved.status.success(), "{saved:?}");
    let _restore = SandboxImage { endpoint: &endpoint, archive };
    assert!(ctr(&endpoint, &["images", "rm", pause]).status.success());
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: nopause}}\nspec:\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    let out = apply(&ns, &pod, &["--timeout", "30s"]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains(pause) && stderr(&out).contains("images import"), "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

#[test]
fn e2e_cri_exec_passes_input_and_gives_a_terminal() {
    require_cri!(endpoint);
    require_tool!("tmux");
    let ns = Namespace::on_cri(&endpoint, "exec");
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: sh}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    succeeded(&apply(&ns, &pod, &["--timeout", "60s"]));
    // Input, line by line, read by a command that stops reading on its own.
    let args = [
        "--runtime-endpoint",
        endpoint.as_str(),
        "exec",
        "-i",
        "-n",
        ns.name(),
        "sh",
        "--",
        "sh",
        "-c",
        "read x; read y; echo \"$y $x\"; exit 3",
    ];
    let out = crate::common::podrun_env(&args, Some("a\nb\n"), &[]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(stdout(&out), "b a\n");

    // A terminal: the command has one, follows podrun's size, and its exit status comes back.
    let t = crate::e2e_exec::Tmux(format!("podrun-cri-{}", std::process::id()));
    let cmd = format!(
        "{PODRUN} --runtime-endpoint {endpoint} exec -it -q -n {} sh -- sh; echo podrun-exit=$?; sleep 60",
        ns.name()
    );
    let out = crate::e2e_exec::tmux(&["-L", &t.0, "new-session", "-d", "-s", "t", "-x", "101", "-y", "33", &cmd]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    t.wait_for("/ #");
    wait_until("the command's terminal is 33x101", Duration::from_secs(20), || {
        t.keys(&["clear; stty size; tty", "Enter"]);
        std::thread::sleep(Duration::from_millis(200));
        let screen = t.screen();
        if screen.contains("33 101") && screen.contains("/dev/pts/") {
            Ok(())
        } else {
            Err(screen)
        }
    });
    t.keys(&["exit 5", "Enter"]);
    t.wait_for("podrun-exit=5");
}

/// The busybox pod the input tests exec in.
fn shell_pod(endpoint: &str, test: &str) -> Namespace {
    let ns = Namespace::on_cri(endpoint, test);
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: sh}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    succeeded(&apply(&ns, &pod, &["--timeout", "60s"]));
    ns
}

#[test]
fn e2e_cri_exec_input_ends_and_the_command_with_it() {
    require_cri!(endpoint);
    let ns = shell_pod(&endpoint, "exec-eof");
    let exec = |cmd: &[&str], feed: Feed| {
        let mut args = vec!["exec", "-i", "-n", ns.name(), "sh", "--"];
        args.extend_from_slice(cmd);
        podrun_cri_fed(&endpoint, &args, feed, Duration::from_secs(120))
    };
    let bytes = |chunk: &[u8], times: usize| Feed::Bytes { chunk: chunk.to_vec(), times };
    // `wc -c` counts until the end of its input: it ends only if the end reaches it.
    for (feed, count) in [(bytes(b"", 0), 0), (bytes(b"a few\n", 1), 6), (bytes(&vec![b'x'; 1 << 20], 64), 64 << 20)] {
        let out = exec(&["wc", "-c"], feed);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(stdout(&out).trim(), count.to_string(), "{}", stderr(&out));
    }
    // The exit code of a command that read to the end.
    let out = exec(&["sh", "-c", "cat >/dev/null; echo read-all; exit 9"], bytes(b"input\n", 3));
    assert_eq!((code(&out), stdout(&out).as_str()), (9, "read-all\n"), "{}", stderr(&out));
    // A command that never reads its input ends, and so does podrun, its input still open.
    let out = exec(&["sh", "-c", "echo ignored; echo on-stderr >&2; exit 4"], Feed::HeldOpen);
    assert_eq!((code(&out), stdout(&out).as_str()), (4, "ignored\n"), "{}", stderr(&out));
    assert!(stderr(&out).contains("on-stderr"), "{}", stderr(&out));
}

#[test]
fn e2e_cri_exec_takes_a_tar_stream() {
    // The README's copy into a container: `tar c ... | podrun exec -i ... tar x`.
    require_cri!(endpoint);
    let ns = shell_pod(&endpoint, "exec-tar");
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let mut archive = tar::Builder::new(Vec::new());
    for (path, data) in [("small.txt", &b"small file\n"[..]), ("d/e/big.bin", &big[..])] {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        archive.append_data(&mut header, path, data).unwrap();
    }
    let archive = archive.into_inner().unwrap();
    let timeout = Duration::from_secs(120);
    let args =
        ["exec", "-i", "-n", ns.name(), "sh", "--", "sh", "-c", "mkdir -p /copy && tar x -C /copy && echo unpacked"];
    let out = podrun_cri_fed(&endpoint, &args, Feed::Bytes { chunk: archive, times: 1 }, timeout);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "unpacked\n"), "{}", stderr(&out));
    // The big file back several times: its end came after the connection's close in 4 of 10
    // reads when podrun wrote to a server that had stopped reading.
    let small = ("/copy/small.txt", &b"small file\n"[..]);
    for (path, want) in std::iter::once(small).chain(std::iter::repeat_n(("/copy/d/e/big.bin", &big[..]), 5)) {
        let args = ["exec", "-n", ns.name(), "sh", "--", "cat", path];
        let out = podrun_cri_fed(&endpoint, &args, Feed::HeldOpen, timeout);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(out.stdout == want, "{path}: {} bytes back, {} sent", out.stdout.len(), want.len());
    }
}

#[test]
fn e2e_cri_gc_leaves_the_files_of_a_pod_on_docker() {
    // One state directory for both engines, as on a host that runs both: gc through the CRI
    // runtime must not take the Docker pod's files for an orphan's.
    require_cri!(endpoint);
    require_engine!();
    let ns = Namespace::new("cri-gc-docker");
    let state = StateDir::new("cri-gc-docker");
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: keep}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, emptyDir: {{}}}}]\n  containers:\n  - {{name: c, image: busybox:1.28, command: [sh, -c, '{LOOP}'], volumeMounts: [{{name: d, mountPath: /d}}]}}\n");
    succeeded(&state.apply(&ns, &pod, &["--timeout", "60s"]));
    assert_eq!(state.pod_dirs().len(), 1);
    let out = state.run(&["--runtime-endpoint", &endpoint, "gc", "--min-age", "0s"]);
    succeeded(&out);
    assert!(!stdout(&out).contains("files of pod"), "{}", stdout(&out));
    assert_eq!(state.pod_dirs().len(), 1, "the Docker pod's files are kept");
    // Through Docker, once the pod is gone, they go.
    succeeded(&state.run(&["delete", "keep", "-n", ns.name()]));
    assert_eq!(state.pod_dirs().len(), 0);
}

/// A pod applied through the CRI runtime with one state directory, then `delete`, `get` and
/// `gc` with another: its sandbox and containers stay running, each command names them with
/// what to do, and `delete` exits 8. gc runs runtime-wide with a fresh key: nothing carries its
/// seal but what this test makes.
#[test]
fn e2e_cri_a_pod_of_another_state_directory_is_named_and_left_running() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "other-state");
    let (a, b) = (StateDir::new("cri-other-state-a"), StateDir::new("cri-other-state-b"));
    let pod = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: a, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n  - {{name: b, image: busybox:1.28, command: [sh, -c, '{LOOP}']}}\n");
    let file = TempFile::new("web.yaml", &pod);
    let with = |state: &StateDir, args: &[&str]| {
        let mut all = vec!["--runtime-endpoint", endpoint.as_str()];
        all.extend_from_slice(args);
        state.run(&all)
    };
    succeeded(&with(&a, &["apply", file.path(), "-n", ns.name(), "--timeout", "60s"]));
    assert_eq!(containers(&endpoint, ns.name()).len(), 3, "the sandbox and two containers");

    let said = format!("3 container(s) of pod {}/web (", ns.name());
    let told = |out: &std::process::Output| {
        let err = stderr(out);
        assert!(err.contains(&said), "{err}");
        assert!(err.contains(&format!("not made under this state directory ({})", b.path())), "{err}");
        assert!(err.contains("PODRUN_STATE_DIR") && err.contains("crictl rmp -f"), "{err}");
    };
    let out = with(&b, &["delete", "web", "-n", ns.name()]);
    assert_eq!(code(&out), 8, "{}", stderr(&out));
    told(&out);
    assert!(!stderr(&out).contains("nothing to delete"), "{}", stderr(&out));
    let out = with(&b, &["get", "-n", ns.name()]);
    succeeded(&out);
    let shown = format!(
        "1 pod of another state directory is not shown: {}/web (this state directory is {};",
        ns.name(),
        b.path()
    );
    assert!(stderr(&out).contains(&shown), "{}", stderr(&out));
    let out = with(&b, &["gc", "--min-age", "0s"]);
    succeeded(&out);
    told(&out);

    assert_eq!(containers(&endpoint, ns.name()).len(), 3, "nothing removed");
    let out = with(&a, &["get", "web", "-n", ns.name()]);
    succeeded(&out);
    assert!(stdout(&out).contains("2/2") && stdout(&out).contains("Running"), "{}", stdout(&out));

    // The state directory that made it deletes it.
    let out = with(&a, &["delete", "web", "-n", ns.name()]);
    succeeded(&out);
    assert!(containers(&endpoint, ns.name()).is_empty(), "removed by the podrun that made it");
}
