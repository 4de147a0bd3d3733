//! `apply --supervise` keeps each pod by a worker of its own, end to end on every engine: a
//! killed container of one pod is back within seconds while another pod waits out a long
//! crash-loop backoff and a SIGHUP re-reads the manifests; SIGHUPs leave a probed pod's exec
//! instances as they were; an edited pod starts anew (restart count 0); a changed `--config`
//! URL is taken.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::url_server::{Answer, Server};
use crate::common::*;

/// `podrun apply DIR --supervise` on `target`, in the background; killed when dropped, its
/// directory removed.
struct Supervisor {
    child: Killed,
    dir: PathBuf,
}

impl Supervisor {
    fn start(target: Target, ns: &Namespace, test: &str, files: &[(&str, &str)], extra: &[&str]) -> Supervisor {
        let dir = std::env::temp_dir().join(format!("podrun-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("pods")).unwrap();
        for (name, text) in files {
            write(&dir, name, text);
        }
        let mut args: Vec<String> = match target {
            Target::Engine(Some(host)) => vec!["--host".into(), host.into()],
            Target::Cri(endpoint) => vec!["--runtime-endpoint".into(), endpoint.into()],
            _ => Vec::new(),
        };
        let pods = dir.join("pods").to_str().unwrap().to_owned();
        args.extend(["apply".into(), pods, "-n".into(), ns.name().into(), "--supervise".into(), "-v".into()]);
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        let child = Command::new(PODRUN)
            .args(&args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("podrun.log")).unwrap())
            .spawn()
            .expect("run podrun");
        Supervisor { child: Killed(child), dir }
    }

    fn write(&self, name: &str, text: &str) {
        write(&self.dir, name, text);
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("podrun.log")).unwrap_or_default()
    }

    /// Waits up to two minutes until `text` is said `times` times, podrun staying up.
    fn wait_said(&mut self, text: &str, times: usize) {
        wait_until(&format!("podrun says {text:?} {times} times"), Duration::from_secs(120), || {
            let log = self.log();
            assert!(self.child.0.try_wait().unwrap().is_none(), "podrun ended: {log}");
            if log.matches(text).count() >= times {
                Ok(())
            } else {
                Err(log)
            }
        });
    }

    fn signal(&self, sig: &str) {
        Command::new("kill").args([sig, &self.child.0.id().to_string()]).status().unwrap();
    }
}

/// Writes a manifest into `dir`'s pods by rename, as config tools do.
fn write(dir: &std::path::Path, name: &str, text: &str) {
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(tmp, dir.join("pods").join(name)).unwrap();
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The first container's status of pod `pod`, as `podrun get` shows it.
fn status(target: Target, ns: &Namespace, pod: &str) -> serde_json::Value {
    let out = target.podrun(&["get", pod, "-n", ns.name(), "-o", "json"].map(String::from));
    if code(&out) != 0 {
        return serde_json::Value::Null;
    }
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap_or_default();
    v["status"]["containerStatuses"][0].clone()
}

/// The id of the current container `container` of pod `pod` (the highest attempt).
fn current(ns: &Namespace, pod: &str, container: &str) -> String {
    let mark = format!("_{pod}_{container}_");
    let mut all: Vec<(u32, String)> = ns
        .containers()
        .into_iter()
        .filter_map(|(id, name)| Some((name.split(&mark).nth(1)?.parse().ok()?, id)))
        .collect();
    all.sort();
    all.pop().map(|(_, id)| id).unwrap_or_else(|| panic!("no {pod}/{container}: {:?}", ns.containers()))
}

fn kill(target: Target, id: &str) {
    let out = match target {
        Target::Cri(endpoint) => cri::ctr(endpoint, &["tasks", "kill", "-s", "SIGKILL", id]),
        _ => docker_on(target.host(), &["kill", id]),
    };
    assert!(out.status.success(), "kill {id}: {out:?}");
}

/// A pod whose container runs until stopped, with a readiness probe run every second.
fn steady(env: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: steady}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: busybox:1.28\n    env: [{{name: V, value: '{env}'}}]\n    command: [sh, -c, '{LOOP}']\n    readinessProbe: {{exec: {{command: ['true']}}, periodSeconds: 1}}\n"
    )
}

const CRASH: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, 'exit 1']\n";

fn running_again(target: Target, ns: &Namespace, pod: &str, restarts: u64) -> bool {
    let st = status(target, ns, pod);
    st["state"]["running"].is_object() && st["restartCount"].as_u64() == Some(restarts)
}

/// The case on `target`: see the module.
fn workers(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let files = [("crash.yaml", CRASH), ("steady.yaml", &steady("1"))];
    let mut sup = Supervisor::start(
        target,
        &ns,
        test,
        &files,
        &["--crash-backoff", "60s", "--crash-backoff-max", "60s", "--timeout", "20s"],
    );
    sup.wait_said("supervising: ", 1);
    sup.wait_said("/crash/main: Waiting: CrashLoopBackOff (back-off 1m", 1);
    wait_until("steady ready", Duration::from_secs(60), || {
        running_again(target, &ns, "steady", 0).then_some(()).ok_or(())
    });

    // A SIGHUP, and a moment later a kill of steady's container while crash waits out its
    // backoff (and, once, a re-read's pass on crash until --timeout): steady is back at once.
    sup.signal("-HUP");
    std::thread::sleep(Duration::from_secs(3));
    kill(target, &current(&ns, "steady", "main"));
    let killed = Instant::now();
    wait_until("steady restarted", Duration::from_secs(30), || {
        running_again(target, &ns, "steady", 1).then_some(()).ok_or_else(|| sup.log())
    });
    assert!(killed.elapsed() < Duration::from_secs(5), "restarted after {:?}:\n{}", killed.elapsed(), sup.log());

    // SIGHUPs leave the probed pod's exec instances as they were. Docker lists the execs not
    // started or still running; Podman every one until the container goes, so there the count
    // grows with each probe whatever podrun does.
    if matches!(target, Target::Engine(None)) {
        let id = current(&ns, "steady", "main");
        let execs = || ns.inspect(&id, "{{len .ExecIDs}}").parse::<usize>().unwrap_or(0);
        let before = execs();
        for _ in 0..30 {
            sup.signal("-HUP");
            std::thread::sleep(Duration::from_millis(200));
        }
        std::thread::sleep(Duration::from_secs(3));
        assert!(execs() <= before + 2, "{before} exec instances before, {} after 30 SIGHUPs", execs());
    }

    // Edited: a new pod, its restart count 0.
    sup.write("steady.yaml", &steady("2"));
    sup.signal("-HUP");
    sup.wait_said("its manifest changed: replacing it with a new pod", 1);
    wait_until("steady anew", Duration::from_secs(60), || {
        let st = status(target, &ns, "steady");
        let anew = st["state"]["running"].is_object() && st["restartCount"] == 0;
        anew.then_some(()).ok_or(st)
    });
    sup.signal("-TERM");
    let ended = wait_until("podrun stops", Duration::from_secs(30), || sup.child.0.try_wait().unwrap().ok_or(()));
    assert_eq!(ended.code(), Some(0), "{}", sup.log());
}

#[test]
fn e2e_supervise_workers_on_docker() {
    require_engine!();
    workers(Target::Engine(None), "workers-docker");
}

#[test]
fn e2e_supervise_workers_on_podman() {
    require_engine!();
    require_podman!(host);
    workers(Target::Engine(Some(&host)), "workers-podman");
}

#[test]
fn e2e_supervise_workers_on_containerd() {
    require_cri!(endpoint);
    workers(Target::Cri(&endpoint), "workers-cri");
}

/// A `--config` URL whose Secret changes is taken by the 20 s re-read (it was refused as
/// defining the Secret twice, against its own old version): the pod using it is applied again,
/// and its next container has the new value. The sources are the engine's no concern: Docker
/// alone.
#[test]
fn e2e_supervise_takes_a_changed_config_url() {
    require_engine!();
    let ns = Namespace::new("config-url");
    let server = Server::start(None);
    let secret = |v: &str| format!("apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\nstringData: {{k: {v}}}\n");
    server.set("/config.yaml", Answer::Body(secret("one")));
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: uses}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, 'trap \"exit 0\" TERM; while true; do sleep 1 & wait; done']\n    env: [{name: K, valueFrom: {secretKeyRef: {name: s, key: k}}}]\n";
    let url = server.url("/config.yaml");
    let mut sup =
        Supervisor::start(Target::Engine(None), &ns, "config-url", &[("uses.yaml", pod)], &["--config", &url]);
    sup.wait_said("supervising: ", 1);
    server.set("/config.yaml", Answer::Body(secret("two")));
    sup.wait_said("uses: what it refers to changed: applying it again", 1);
    assert!(!sup.log().contains("both define"), "refused:\n{}", sup.log());
    // A running container keeps the environment it was made with, as under a kubelet; the next
    // one has the new value.
    kill(Target::Engine(None), &current(&ns, "uses", "main"));
    let env = || {
        let id = current(&ns, "uses", "main");
        ns.inspect(&id, "{{range .Config.Env}}{{println .}}{{end}}")
    };
    wait_until("the new value in the pod", Duration::from_secs(90), || {
        assert!(!sup.log().contains("both define"), "refused:\n{}", sup.log());
        env().lines().any(|l| l == "K=two").then_some(()).ok_or_else(|| sup.log())
    });
    sup.signal("-TERM");
    let ended = wait_until("podrun stops", Duration::from_secs(30), || sup.child.0.try_wait().unwrap().ok_or(()));
    assert_eq!(ended.code(), Some(0), "{}", sup.log());
}
