//! Static pods: `podrun apply DIR` (several manifests at once), `--prune` and `--dry-run`, end
//! to end against the real engine.

mod common;

use std::path::PathBuf;

use common::*;

/// A directory of the test's own, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("podrun-static-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        Dir(d)
    }

    fn write(&self, name: &str, content: &str) {
        std::fs::write(self.0.join(name), content).expect("write manifest");
    }

    fn remove(&self, name: &str) {
        std::fs::remove_file(self.0.join(name)).expect("remove manifest");
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 path")
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sleeper(name: &str, command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, '{command}']\n"
    )
}

const LOOP: &str = "trap \"exit 0\" TERM; while true; do sleep 1 & wait; done";

fn pods_of(ns: &Namespace) -> Vec<String> {
    let mut v: Vec<String> = ns
        .containers()
        .iter()
        .map(|(id, _)| ns.inspect(id, "{{index .Config.Labels \"io.kubernetes.pod.name\"}}"))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn e2e_apply_dir_runs_every_pod_and_prune_deletes_the_removed_one() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-dir");
    let dir = Dir::new("dir");
    dir.write("a.yaml", &sleeper("alpha", LOOP));
    dir.write("b.yml", &sleeper("beta", LOOP));
    dir.write("notes.txt", "not a manifest");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pods_of(&ns), ["alpha", "beta"]);
    assert_eq!(ns.running(), 4);

    dir.remove("b.yml");
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--prune", "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pods_of(&ns), ["alpha"]);
    assert_eq!(ns.running(), 2);

    let out = podrun(&["delete", dir.path(), "-n", ns.name(), "--grace-period", "0"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(ns.containers().is_empty());
}

#[test]
fn e2e_a_failing_pod_in_the_dir_fails_the_run_and_the_other_runs() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-fail");
    let dir = Dir::new("fail");
    dir.write("good.yaml", &sleeper("good", LOOP));
    dir.write("bad.yaml", &sleeper("bad", "exit 3").replace("spec:\n", "spec:\n  restartPolicy: Never\n"));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_ne!(code(&out), 0, "{}", stdout(&out));
    let label =
        "{{index .Config.Labels \"io.kubernetes.pod.name\"}}/{{index .Config.Labels \"io.kubernetes.container.name\"}}";
    let good =
        ns.containers().into_iter().find(|(id, _)| ns.inspect(id, label) == "good/main").expect("good's container");
    assert_eq!(ns.inspect(&good.0, "{{.State.Running}}"), "true");
}

#[test]
fn e2e_dry_run_plans_creation_and_recreation_and_changes_nothing() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("static-dry");
    let dir = Dir::new("dry");
    dir.write("p.yaml", &sleeper("planned", LOOP));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("create container main"), "{text}");
    assert!(text.contains("create infra container POD"), "{text}");
    assert!(ns.containers().is_empty());

    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--timeout", "60s"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let before = ns.containers();
    dir.write("p.yaml", &sleeper("planned", &format!("echo changed; {LOOP}")));
    let out = podrun(&["apply", dir.path(), "-n", ns.name(), "--dry-run"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("recreate container main: its spec changed"), "{text}");
    assert_eq!(ns.containers(), before);
}
