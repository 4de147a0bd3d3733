//! kubectl's habits on Docker, Podman and containerd (CRI): `apply -f A -f B -R` on a nested
//! directory, `--dry-run=client` creating nothing with no engine at all, `wait
//! --for=condition=...` and `--for=delete`, `top pod` of a running pod, and `delete a b` with
//! resource words and a pod that is not there.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::bounded;
use crate::common::*;

/// A running pod that holds 8 MiB in a shell variable, so its working set is well above 0.
const HOLDING: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: NAME}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'x=$(head -c 8388608 /dev/zero | tr "\000" a); trap "exit 0" TERM; while true; do sleep 1 & wait; done']
"#;

/// A pod that completes: its Ready condition is False.
const DONE: &str = r#"apiVersion: v1
kind: Pod
metadata: {name: done}
spec:
  restartPolicy: Never
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'exit 0']
"#;

/// The names of the pods podrun runs in `ns`, as `get -o json` lists them.
fn pods(target: Target, ns: &Namespace) -> Vec<String> {
    let o = run(target, &["get", "-n", ns.name(), "-o", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    if stdout(&o).trim().is_empty() {
        return Vec::new();
    }
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON List");
    let mut names: Vec<String> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["metadata"]["name"].as_str().map(str::to_owned))
        .collect();
    names.sort();
    names
}

fn run(target: Target, args: &[&str]) -> std::process::Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// `podrun ARGS -n NS` on `target`, expecting exit `want`.
fn ran(target: Target, ns: &Namespace, args: &[&str], want: i32) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["-n", ns.name()]);
    let o = run(target, &all);
    assert_eq!(code(&o), want, "{}: {all:?}: {}{}", target.name(), stdout(&o), stderr(&o));
    o
}

/// A directory with `a` at its top and `b` two levels down, and a file beside it with `done`.
struct Manifests {
    dir: std::path::PathBuf,
    file: TempFile,
}

impl Manifests {
    fn new(test: &str) -> Manifests {
        let dir = std::env::temp_dir().join(format!("podrun-{test}-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub/deep")).unwrap();
        std::fs::write(dir.join("a.yaml"), HOLDING.replace("NAME", "a")).unwrap();
        std::fs::write(dir.join("sub/deep/b.yaml"), HOLDING.replace("NAME", "b")).unwrap();
        Manifests { dir, file: TempFile::new("done.yaml", DONE) }
    }

    fn dir(&self) -> &str {
        self.dir.to_str().unwrap()
    }
}

impl Drop for Manifests {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Client dry runs need no engine: an address nothing answers at.
fn client_dry_runs(target: Target, m: &Manifests, ns: &Namespace) {
    let nowhere = "unix:///nonexistent/podrun-habits.sock";
    let o = podrun(
        &["--host", nowhere, "apply", "-f", m.dir(), "-R", "-f", m.file.path(), "--dry-run=client", "-n", ns.name()],
        None,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "pod/a created (dry run)\npod/b created (dry run)\npod/done created (dry run)\n");
    let o = podrun(&["--host", nowhere, "delete", "a", "pod/b", "--dry-run=client", "-n", ns.name()], None);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "pod \"a\" deleted (dry run)\npod \"b\" deleted (dry run)\n");
    // Without -R the subdirectory is not read.
    let o = podrun(&["validate", "-f", m.dir(), "-n", ns.name()], None);
    assert_eq!((code(&o), stdout(&o)), (0, format!("pod {}/a: valid\n", ns.name())), "{}", stderr(&o));
    assert!(pods(target, ns).is_empty(), "a client dry run creates nothing");
}

/// The CPU and memory figures of `top`'s row for `pod`: millicores and Mi.
fn figures(table: &str, pod: &str) -> (u64, u64) {
    let row = table.lines().find(|l| l.split_whitespace().next() == Some(pod)).unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    let cpu = cells[cells.len() - 2].strip_suffix('m').and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("{row}"));
    let mem = cells[cells.len() - 1].strip_suffix("Mi").and_then(|m| m.parse().ok()).unwrap_or_else(|| panic!("{row}"));
    (cpu, mem)
}

fn top(target: Target, ns: &Namespace) {
    let o = ran(target, ns, &["top", "pod", "a"], 0);
    let table = stdout(&o);
    assert!(table.starts_with("NAME   CPU(cores)   MEMORY(bytes)\n"), "{table}");
    let (cpu, mem) = figures(&table, "a");
    assert!((1..512).contains(&mem), "{}: 8 MiB held: {table}", target.name());
    assert!(cpu < 2000, "{}: an idle shell: {table}", target.name());
    let o = ran(target, ns, &["top", "pods", "--containers", "--no-headers"], 0);
    let rows: Vec<&str> = stdout(&o)
        .lines()
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>())
        .map(|c| {
            assert_eq!(c.len(), 2, "{}", stdout(&o));
            if c[0] == "a" {
                "a/app"
            } else if c[0] == "b" {
                "b/app"
            } else {
                "other"
            }
        })
        .collect();
    assert_eq!(rows, ["a/app", "b/app"], "{}: the infra container and the completed pod have no row", stdout(&o));
    let o = ran(target, ns, &["top", "po", "nope"], 1);
    assert!(stderr(&o).contains(r#"pods "nope" not found"#), "{}", stderr(&o));
}

fn waits(target: Target, ns: &Namespace) {
    for cond in ["condition=Ready", "condition=ready=TRUE", "condition=ContainersReady", "condition=Initialized"] {
        let o = ran(target, ns, &["wait", "a", &format!("--for={cond}"), "--timeout", "60s"], 0);
        assert_eq!(stdout(&o), "pod/a condition met\n", "{}", target.name());
    }
    ran(target, ns, &["wait", "a", "b", "--for=condition=PodScheduled"], 0);
    // kubectl's forms of the pod: `pod/NAME`, and the resource word first.
    let o = ran(target, ns, &["wait", "--for=condition=Ready", "pod/a", "pod/b"], 0);
    assert_eq!(stdout(&o), "pod/a condition met\npod/b condition met\n", "{}", target.name());
    ran(target, ns, &["wait", "pods", "a", "--for=condition=Ready"], 0);
    ran(target, ns, &["logs", "pod/a"], 0);
    let o = run(target, &["exec", "-n", ns.name(), "pod/a", "--", "true"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    ran(target, ns, &["wait", "svc/a", "--for=condition=Ready"], 2);
    ran(target, ns, &["wait", "a", "--for=condition=PodReadyToStartContainers"], 0);
    let o = ran(target, ns, &["wait", "done", "--for=condition=Ready=false"], 0);
    assert_eq!(stdout(&o), "pod/done condition met\n");
    let o = ran(target, ns, &["wait", "a", "--for=condition=Ready=false", "--timeout", "2s"], 5);
    assert!(
        stderr(&o).contains("not Ready after") && stderr(&o).contains("Ready=True, waiting for Ready=False"),
        "{}",
        stderr(&o)
    );
    let o = ran(target, ns, &["wait", "a", "--for=condition=Redy"], 2);
    assert!(stderr(&o).contains("podrun reports no pod condition"), "{}", stderr(&o));
    // A deletion: at once for a pod not there, the deadline for one that stays.
    let o = ran(target, ns, &["wait", "nope", "--for=delete"], 0);
    assert_eq!(stdout(&o), "");
    let o = ran(target, ns, &["wait", "a", "--for=delete", "--timeout", "2s"], 5);
    assert!(stderr(&o).contains("not deleted after"), "{}", stderr(&o));
}

/// `wait --for=delete` in the background ends once `delete` has removed the pod.
fn wait_for_a_delete(target: Target, ns: &Namespace) {
    let mut cmd = Command::new(PODRUN);
    match target {
        Target::Engine(Some(host)) => drop(cmd.args(["--host", host])),
        Target::Cri(endpoint) => drop(cmd.args(["--runtime-endpoint", endpoint])),
        Target::Engine(None) | Target::Rootless(_) => {}
    }
    cmd.args(["wait", "b", "--for=delete", "--timeout", "60s", "-n", ns.name()]);
    let mut child = cmd.env("NO_COLOR", "1").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let out = bounded::drain(child.stdout.take().unwrap());
    let err = bounded::drain(child.stderr.take().unwrap());
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().unwrap().is_none(), "the wait ended before the delete");
    // Several names, kubectl's resource word, one not there: the rest deleted, NotFound, exit 1.
    let o = ran(target, ns, &["delete", "pods", "b", "nope"], 1);
    assert!(stderr(&o).contains(r#"Error from server (NotFound): pods "nope" not found"#), "{}", stderr(&o));
    let status = bounded::wait(&mut child, Duration::from_secs(60));
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    let said = String::from_utf8_lossy(&err);
    assert_eq!(status.and_then(|s| s.code()), Some(0), "{}: {said}", target.name());
    assert_eq!(String::from_utf8_lossy(&out), "pod/b condition met\n", "{said}");
}

fn habits(target: Target, ns: &Namespace) {
    let m = Manifests::new(&format!("habits-{}", target.name()));
    client_dry_runs(target, &m, ns);
    ran(target, ns, &["apply", "-f", m.dir(), "-R", "-f", m.file.path(), "--timeout", "120s"], 0);
    assert_eq!(pods(target, ns), ["a", "b", "done"], "{}", target.name());
    top(target, ns);
    waits(target, ns);
    // A server dry run looks, and deletes nothing.
    let o = ran(target, ns, &["delete", "pod/a", "--dry-run"], 0);
    assert_eq!(stdout(&o), "pod \"a\" deleted (server dry run)\n");
    assert_eq!(pods(target, ns), ["a", "b", "done"]);
    wait_for_a_delete(target, ns);
    ran(target, ns, &["delete", "pod/a", "pod/done"], 0);
    assert!(pods(target, ns).is_empty(), "{}: {:?}", target.name(), pods(target, ns));
}

#[test]
fn docker_habits() {
    require_engine!();
    let ns = Namespace::new("habits-docker");
    habits(Target::Engine(None), &ns);
}

#[test]
fn podman_habits() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "habits-podman");
    habits(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_habits() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "habits-cri");
    habits(Target::Cri(&endpoint), &ns);
}
