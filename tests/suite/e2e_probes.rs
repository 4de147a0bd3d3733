//! Probes end to end: readiness gating `--wait-for ready`, liveness restarts, startup gating,
//! and each handler type (exec, httpGet, tcpSocket), against the real engine.

use std::time::{Duration, Instant};

use crate::common::*;

/// The first pod's `status` in the List `apply -o json` prints.
fn status(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    v["items"][0]["status"].clone()
}

fn pod(name: &str, container: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n{container}")
}

#[test]
fn e2e_readiness_gates_wait_for_ready() {
    require_engine!();
    let ns = Namespace::new("ready");
    let container = format!(
        "  - name: c\n    image: busybox:1.28\n    command: [sh, -c, 'sleep 2; touch /tmp/ready; {LOOP}']\n    readinessProbe: {{exec: {{command: [test, -f, /tmp/ready]}}, periodSeconds: 1}}\n"
    );
    let manifest = pod("r", &container);
    // `running` does not wait for readiness.
    let out = apply(&ns, &manifest, &["-o", "json", "--wait-for", "running"]);
    succeeded(&out);
    let st = status(&out);
    assert_eq!(st["containerStatuses"][0]["ready"], false, "{st}");
    assert_eq!(st["conditions"].as_array().unwrap().iter().find(|c| c["type"] == "Ready").unwrap()["status"], "False");
    // `ready` does.
    let start = Instant::now();
    let out = apply(&ns, &manifest, &["-o", "json", "--wait-for", "ready"]);
    succeeded(&out);
    let st = status(&out);
    assert_eq!(st["containerStatuses"][0]["ready"], true, "{st}");
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn e2e_a_failing_liveness_probe_restarts_the_container() {
    require_engine!();
    let ns = Namespace::new("liveness");
    // The first instance turns unhealthy after a moment and is killed; the one after it (the
    // emptyDir remembers) completes, which ends the OnFailure pod.
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: l}}\nspec:\n  restartPolicy: OnFailure\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, emptyDir: {{}}}}]\n  containers:\n  - name: c\n    image: busybox:1.28\n    volumeMounts: [{{name: d, mountPath: /d}}]\n    command: [sh, -c, 'if [ -f /d/ran ]; then exit 0; fi; touch /d/ran /tmp/healthy; sleep 1; rm /tmp/healthy; {LOOP}']\n    livenessProbe: {{exec: {{command: [test, -f, /tmp/healthy]}}, periodSeconds: 1, failureThreshold: 2}}\n"
    );
    let out = apply(&ns, &manifest, &["-o", "json", "--timeout", "60s", "--crash-backoff", "100ms"]);
    succeeded(&out);
    let st = status(&out);
    let c = &st["containerStatuses"][0];
    assert_eq!(c["restartCount"], 1, "{c}");
    let last = &c["lastState"]["terminated"];
    assert!(last["message"].as_str().unwrap_or("").contains("liveness probe failed"), "{c}");
    assert_eq!(st["phase"], "Succeeded");
}

#[test]
fn e2e_startup_probe_gates_readiness() {
    require_engine!();
    let ns = Namespace::new("startup");
    let container = format!(
        "  - name: c\n    image: busybox:1.28\n    command: [sh, -c, 'sleep 2; touch /tmp/started; {LOOP}']\n    startupProbe: {{exec: {{command: [test, -f, /tmp/started]}}, periodSeconds: 1, failureThreshold: 30}}\n"
    );
    let start = Instant::now();
    let out = apply(&ns, &pod("s", &container), &["-o", "json", "--wait-for", "ready"]);
    succeeded(&out);
    assert!(start.elapsed() >= Duration::from_secs(2), "not ready before the startup probe passed");
    let c = &status(&out)["containerStatuses"][0];
    assert_eq!(c["started"], true, "{c}");
    assert_eq!(c["ready"], true, "{c}");
}

#[test]
fn e2e_http_and_tcp_probes() {
    require_engine!();
    let ns = Namespace::new("netprobes");
    // Traffic goes to the pod's own IP, a container this test started.
    let container = "  - name: web\n    image: busybox:1.28\n    command: [sh, -c, 'sleep 1; mkdir -p /tmp/w; echo ok > /tmp/w/healthz; exec httpd -f -p 8080 -h /tmp/w']\n    ports: [{name: http, containerPort: 8080}]\n    readinessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 1}\n    livenessProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 3, periodSeconds: 1}\n";
    let out = apply(&ns, &pod("n", container), &["-o", "json", "--wait-for", "ready"]);
    succeeded(&out);
    assert_eq!(status(&out)["containerStatuses"][0]["ready"], true);

    // A path that answers 404 never becomes ready: the run ends at its deadline (exit 5).
    let bad = container.replace("path: /healthz", "path: /missing");
    let out = apply(&ns, &pod("m", &bad), &["-o", "json", "--wait-for", "ready", "--timeout", "5s"]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
}

#[test]
fn e2e_http_probes_follow_redirects_to_the_same_host() {
    require_engine!();
    let ns = Namespace::new("redirects");
    // busybox httpd runs CGI scripts, each answering with a redirect. The probes go to the
    // pod's own IP; the one to another host name (loopback's port 9) is not to be followed.
    let manifest = format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: r}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: web
    image: busybox:1.28
    command: [sh, -c]
    args:
    - |
      mkdir -p /www/cgi-bin
      echo ok > /www/ok.html
      redirect() {{ printf '#!/bin/sh\necho "HTTP/1.0 302 Found"\necho "Location: %s"\necho\n' "$2" > /www/cgi-bin/$1; chmod +x /www/cgi-bin/$1; }}
      redirect to-ok /ok.html
      redirect to-missing /missing.html
      redirect loop /cgi-bin/loop
      redirect away http://127.0.0.1:9/elsewhere
      exec httpd -f -vv -p 8080 -h /www
    readinessProbe: {{httpGet: {{path: /cgi-bin/to-ok, port: 8080}}, periodSeconds: 1}}
  - name: missing
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    readinessProbe: {{httpGet: {{path: /cgi-bin/to-missing, port: 8080}}, periodSeconds: 1}}
  - name: loop
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    readinessProbe: {{httpGet: {{path: /cgi-bin/loop, port: 8080}}, periodSeconds: 1}}
  - name: away
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    readinessProbe: {{httpGet: {{path: /cgi-bin/away, port: 8080}}, periodSeconds: 1}}
"#
    );
    // Two of the four never become ready, so the run ends at its deadline.
    let out = apply(&ns, &manifest, &["-o", "json", "--wait-for", "ready", "--timeout", "10s"]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    let st = status(&out);
    let ready = |name: &str| {
        let all = st["containerStatuses"].as_array().unwrap_or_else(|| panic!("{st}"));
        all.iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("{name}: {st}"))["ready"].clone()
    };
    assert_eq!(ready("web"), true, "followed to a page that answers 200: {st}");
    assert_eq!(ready("missing"), false, "followed to a page that answers 404: {st}");
    assert_eq!(ready("loop"), false, "a redirect loop fails: {st}");
    assert_eq!(ready("away"), true, "a redirect to another host is a success: {st}");
    let err = stderr(&out);
    assert_eq!(err.matches("readiness probe warning: Probe terminated redirects").count(), 1, "{err}");
    assert!(err.contains("container away: readiness probe warning"), "{err}");
    // httpd logs every request: the loop was followed (ten requests an attempt; podrun may
    // have ended in the middle of one).
    let log = ns.logs(&id_of(&ns, "web"));
    let asked = log.lines().filter(|l| l.contains("url:/cgi-bin/loop")).count();
    assert!(asked >= 10, "{asked} requests of the loop: {log}");
    assert!(!log.contains("url:/elsewhere"), "{log}");
}

/// A real gRPC health server (grpcio, tests/suite/common/grpc_health_server.py) on the host's
/// loopback, killed when dropped. None when Debian's python3-grpcio is missing (scripts/test
/// installs it; then a missing one fails the test when end-to-end tests are required).
struct GrpcServer(std::process::Child, u16);

impl GrpcServer {
    fn start() -> Option<GrpcServer> {
        use std::io::BufRead;
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/suite/common/grpc_health_server.py");
        let has_grpc = std::process::Command::new("/usr/bin/python3")
            .args(["-c", "import grpc"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !has_grpc {
            let required = e2e_required();
            assert!(
                !required,
                "python3-grpcio is missing and end-to-end tests are required (scripts/test installs it)"
            );
            return None;
        }
        let mut child = std::process::Command::new("/usr/bin/python3")
            .args([script, "120"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start the gRPC health server");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("its port");
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the server printed {line:?}, not a port"));
        Some(GrpcServer(child, port))
    }
}

impl Drop for GrpcServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The gRPC probe client is podrun's own (HTTP/2 by hand); here it talks to grpcio's C core.
/// The pod uses the host's network, so its probes reach the server on the host's loopback.
#[test]
fn e2e_grpc_probe_against_a_real_grpc_server() {
    require_engine!();
    let Some(server) = GrpcServer::start() else { skip!("no python3-grpcio") };
    let ns = Namespace::new("grpc-real");
    let manifest = |name: &str, service: &str| {
        let container = format!(
            "  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    readinessProbe:\n      grpc: {{port: {}, service: {service}}}\n      periodSeconds: 1\n",
            server.1
        );
        pod(name, &container).replace("spec:\n", "spec:\n  hostNetwork: true\n")
    };
    let out = apply(&ns, &manifest("serving", "ok"), &["-o", "json", "--wait-for", "ready", "--timeout", "30s"]);
    succeeded(&out);
    assert_eq!(status(&out)["containerStatuses"][0]["ready"], true);

    for (name, service) in [("down", "down"), ("unknown", "nope")] {
        let out = apply(&ns, &manifest(name, service), &["-o", "json", "--wait-for", "ready", "--timeout", "4s"]);
        assert_eq!(code(&out), 5, "{name}: {}", stderr(&out));
        assert_eq!(status(&out)["containerStatuses"][0]["ready"], false, "{name}");
    }
}

/// A probe whose command outlives its timeout (`sleep 3600`, 1 s, every second) for several
/// periods: each timed-out command is ended by the engine (CRI: `ExecSync`'s timeout) or by
/// podrun (Docker API), so the container holds at most the one in flight, not one per period.
fn timed_out_exec_probes_do_not_pile_up(target: Target) {
    // A namespace of each engine's own: pods of one name share podrun's files on the host.
    let ns = Namespace::for_target(target, &format!("pileup-{}", target.name()));
    let manifest = pod(
        "p",
        &format!(
            "  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    readinessProbe: {{exec: {{command: [sleep, '3600']}}, timeoutSeconds: 1, periodSeconds: 1, failureThreshold: 1000}}\n"
        ),
    );
    let file = TempFile::new("pileup.yaml", &manifest);
    let args = ["apply", file.path(), "-n", ns.name(), "--wait-for", "ready", "--timeout", "10s"];
    let out = target.podrun(&args.map(str::to_owned));
    assert_eq!(code(&out), 5, "never ready, so not converged by the deadline: {}", stderr(&out));
    let ps = ["exec", "-n", ns.name(), "p", "--", "ps", "-o", "args"].map(str::to_owned);
    let sleeping = || {
        let out = target.podrun(&ps);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        stdout(&out).lines().filter(|l| l.trim() == "sleep 3600").count()
    };
    // The last command podrun left behind is still in flight for a moment after it exited.
    let left = poll(Duration::from_secs(5), Duration::from_millis(250), || match sleeping() {
        n if n <= 1 => Ok(n),
        n => Err(n),
    });
    assert!(matches!(left, Ok(0 | 1)), "{} timed-out probe commands left in the container: {left:?}", target.name());
}

#[test]
fn e2e_timed_out_exec_probes_are_ended_on_docker() {
    require_engine!();
    timed_out_exec_probes_do_not_pile_up(Target::Engine(None));
}

#[test]
fn e2e_timed_out_exec_probes_are_ended_on_podman() {
    require_podman!(host);
    timed_out_exec_probes_do_not_pile_up(Target::Engine(Some(&host)));
}

#[test]
fn e2e_timed_out_exec_probes_are_ended_on_containerd() {
    require_cri!(endpoint);
    timed_out_exec_probes_do_not_pile_up(Target::Cri(&endpoint));
}

#[test]
fn e2e_timed_out_exec_probes_are_ended_on_rootless_podman() {
    require_rootless!(user);
    timed_out_exec_probes_do_not_pile_up(Target::Rootless(&user));
}
