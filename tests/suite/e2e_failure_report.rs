//! The report of a failed run on Docker, Podman and containerd (CRI): for a non-zero exit
//! under restartPolicy Never, a StartError, a crash loop and a readiness probe that never
//! passes, stderr ends with the container's cause, its last output and the commands to run
//! next (`podrun wait` tells the same); `-o json` carries the termination message where
//! kubectl puts it; `get`'s STATUS is kubectl's for each; `delete` says when it waits out a
//! grace period.

use std::process::Output;

use crate::common::*;

fn pod(name: &str, policy: &str, containers: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: {policy}\n  \
         terminationGracePeriodSeconds: 2\n  containers:\n{containers}"
    )
}

fn container(name: &str, script: &str) -> String {
    format!("  - name: {name}\n    image: busybox\n    command: [sh, -c, '{script}']\n")
}

const PROBED: &str = "  - name: web
    image: busybox
    command: [sh, -c, 'echo serving; exec sleep 3600']
    readinessProbe:
      exec: {command: [sh, -c, 'echo not yet; exit 1']}
      periodSeconds: 1
";

const NO_BINARY: &str = "  - name: main\n    image: busybox\n    command: [/no/such/binary]\n";

fn applied(target: Target, ns: &Namespace, manifest: &str, args: &[&str], want: i32) -> Output {
    let f = TempFile::new("report.yaml", manifest);
    let mut all = vec!["apply".to_owned(), f.path().to_owned(), "-n".into(), ns.name().into()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let o = target.podrun(&all);
    assert_eq!(code(&o), want, "{}: {}{}", target.name(), stdout(&o), stderr(&o));
    o
}

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// `get`'s STATUS of `pod` in `ns`.
fn status_of(target: Target, ns: &Namespace, pod: &str) -> String {
    let o = run(target, &["get", pod, "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let row = out.lines().nth(1).unwrap_or_default().to_owned();
    row.split_whitespace().nth(2).unwrap_or_default().to_owned()
}

fn said(o: &Output, what: &[&str]) {
    let err = stderr(o);
    for w in what {
        assert!(err.contains(w), "{w:?} not in:\n{err}");
    }
}

fn reports(target: Target, ns: &Namespace) {
    let n = ns.name();
    // restartPolicy Never, one container exits 1 after a line and a termination message.
    let failing = "echo about to fail; echo disk full > /dev/termination-log; exit 1";
    let mixed = pod("mixed", "Never", &(container("fails", failing) + &container("ok", "exit 0")));
    let o = applied(target, ns, &mixed, &["--timeout", "60s", "-o", "json"], 6);
    said(
        &o,
        &[
            "  container fails: Error (exit code 1)\n    message: disk full\n",
            "    last output of its last run (1 line):\n      | about to fail\n",
            &format!("    next: podrun logs mixed -n {n} -c fails; podrun get mixed -n {n} -o json"),
        ],
    );
    assert!(!stderr(&o).contains("container ok:"), "{}", stderr(&o));
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON List");
    let fails = &list["items"][0]["status"]["containerStatuses"][0];
    assert_eq!(fails["name"], "fails");
    assert_eq!(fails["state"]["terminated"]["message"], "disk full\n", "{fails}");
    assert_eq!(status_of(target, ns, "mixed"), "Error");
    // `podrun wait` tells the same.
    let o = run(target, &["wait", "mixed", "-n", n, "--for", "complete"]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    said(&o, &["  container fails: Error (exit code 1)", "      | about to fail"]);

    applied(target, ns, &pod("done", "Never", &container("main", "exit 0")), &["--timeout", "60s"], 0);
    assert_eq!(status_of(target, ns, "done"), "Completed");

    // A command that does not exist: the engine's words, no output, what to run next.
    let o = applied(target, ns, &pod("nostart", "Never", NO_BINARY), &["--timeout", "60s"], 6);
    said(&o, &["  container main: ", "/no/such/binary", &format!("    next: podrun logs nostart -n {n} -c main")]);

    // A crash loop, cut short by --retries: its exit and its last words.
    let crash = pod("crash", "Always", &container("main", "echo starting; echo FATAL: db unreachable; exit 3"));
    let args = ["--timeout", "90s", "--retries", "2", "--min-uptime", "5s"];
    let o = applied(target, ns, &crash, &args, 6);
    said(
        &o,
        &[
            "  container main: ",
            "(exit code 3)",
            "      | FATAL: db unreachable",
            &format!("podrun logs crash -n {n} -c main"),
        ],
    );
    let status = status_of(target, ns, "crash");
    assert!(["Error", "CrashLoopBackOff"].contains(&status.as_str()), "{status}");

    // A readiness probe that never passes: what it said, the container's output, READY false.
    let o = applied(target, ns, &pod("unready", "Always", PROBED), &["--timeout", "8s", "--wait-for", "ready"], 5);
    said(
        &o,
        &[
            "  container web: Unhealthy\n",
            r#"    probe: readiness probe failed: command "sh -c echo not yet; exit 1" exited with code 1"#,
            "      | serving\n",
            &format!("    next: podrun logs unready -n {n} -c web; podrun get unready -n {n} -o json"),
        ],
    );
    let table = stdout(&o);
    assert!(table.lines().next().unwrap_or_default().contains("READY"), "{table}");
    assert!(table.lines().nth(1).unwrap_or_default().contains(" false "), "{table}");
    assert_eq!(status_of(target, ns, "unready"), "Running");

    // Its main process ignores SIGTERM (PID 1): delete waits out the 2 s, and says so.
    let o = run(target, &["delete", "unready", "-n", n]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    said(&o, &[&format!("{n}/unready: stopping (grace period 2s)..."), &format!("{n}/unready: deleted")]);
    let o = run(target, &["delete", "--all", "-n", n]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn docker_failure_reports_explain() {
    require_engine!();
    let ns = Namespace::new("report-docker");
    reports(Target::Engine(None), &ns);
}

#[test]
fn podman_failure_reports_explain() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "report-podman");
    reports(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_failure_reports_explain() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "report-cri");
    reports(Target::Cri(&endpoint), &ns);
}
