//! Volumes over a pod's life, on every local engine (Docker, Podman, containerd through CRI):
//! a Memory emptyDir is a tmpfs of its size (at most the node's memory), shared by the pod's
//! containers and unmounted when the pod goes; the files of a configMap volume, in the
//! kubelet's layout, follow the ConfigMap on a re-apply, in place, without a container
//! restart, while a subPath mount and the environment keep what they had; a re-apply whose new
//! files cannot be written fails (exit 2, with the cause), the pod running on with the files it
//! had.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::common::*;

/// Two containers sharing a 16 MiB Memory emptyDir.
const MEMORY: &str = concat!(
    "apiVersion: v1\nkind: Pod\nmetadata: {name: mem}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n",
    "  - {name: a, image: busybox, command: [sh, -c, '",
    loop_sh!(),
    "'], volumeMounts: [{name: m, mountPath: /m}]}\n",
    "  - {name: b, image: busybox, command: [sh, -c, '",
    loop_sh!(),
    "'], volumeMounts: [{name: m, mountPath: /m}]}\n",
    "  volumes:\n  - {name: m, emptyDir: {medium: Memory, sizeLimit: 16Mi}}\n",
);

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

fn exec(target: Target, ns: &Namespace, pod: &str, container: &str, script: &str) -> Output {
    run(target, &["exec", "-n", ns.name(), pod, "-c", container, "--", "sh", "-c", script])
}

/// The mounts of this host's mount table whose mount point names `needle`.
fn host_mounts(needle: &str) -> Vec<String> {
    let table = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    table
        .lines()
        .filter(|l| l.split(' ').nth(4).is_some_and(|point| point.contains(needle)))
        .map(str::to_owned)
        .collect()
}

fn memory_empty_dir_is_a_tmpfs_of_its_size(target: Target, ns: &Namespace) {
    let f = TempFile::new("mem.yaml", MEMORY);
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let df = exec(target, ns, "mem", "a", "df -k /m | tail -1");
    assert_eq!(code(&df), 0, "{}", stderr(&df));
    let fields: Vec<String> = stdout(&df).split_whitespace().map(str::to_owned).collect();
    assert_eq!(fields.first().map(String::as_str), Some("tmpfs"), "{}: {fields:?}", target.name());
    assert_eq!(fields.get(1).map(String::as_str), Some("16384"), "{}: 16 MiB in 1K blocks: {fields:?}", target.name());
    // 32 MiB do not fit: the write fails for want of space, with at most 16 MiB written.
    let dd = exec(target, ns, "mem", "a", "dd if=/dev/zero of=/m/big bs=1048576 count=32 2>&1; echo rc=$?");
    let said = stdout(&dd);
    assert!(said.contains("No space left on device"), "{}: {said}", target.name());
    assert!(!said.contains("rc=0"), "{}: {said}", target.name());
    // The other container sees the same tmpfs, file and all.
    let size = exec(target, ns, "mem", "b", "stat -c %s /m/big");
    let written: u64 = stdout(&size).trim().parse().unwrap_or_else(|_| panic!("{}: {size:?}", target.name()));
    assert!(written > 0 && written <= 16 << 20, "{}: {written}", target.name());
    // The tmpfs is podrun's mount on this host, of the volume's size, and goes with the pod.
    let uid = get_uid(target, ns, "mem");
    let mounts = host_mounts(&format!("/{uid}/m"));
    assert_eq!(mounts.len(), 1, "{}: {mounts:?}", target.name());
    assert!(mounts[0].contains(" - tmpfs ") && mounts[0].contains("size=16384k"), "{}: {mounts:?}", target.name());
    let o = run(target, &["delete", "mem", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(host_mounts(&uid), Vec::<String>::new(), "{}: nothing of the pod stays mounted", target.name());
}

/// This host's memory in KiB (MemTotal): the node's allocatable memory as podrun takes it.
fn mem_total_kib() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap();
    let line = info.lines().find_map(|l| l.strip_prefix("MemTotal:")).expect("MemTotal");
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

/// `sizeLimit: 100Gi` on a host with less memory: the tmpfs is the node's memory, as the
/// kubelet caps it, not 100 GiB.
fn memory_empty_dir_is_capped_at_the_node(target: Target, ns: &Namespace) {
    let total = mem_total_kib();
    assert!(total < 100 << 20, "the host has less than 100 GiB: {total} KiB");
    let pod = MEMORY.replace("name: mem}", "name: big}").replace("sizeLimit: 16Mi", "sizeLimit: 100Gi");
    let f = TempFile::new("big.yaml", &pod);
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let df = exec(target, ns, "big", "a", "df -k /m | tail -1; grep ' /m ' /proc/mounts");
    assert_eq!(code(&df), 0, "{}", stderr(&df));
    let said = stdout(&df);
    let size: u64 = said.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    // The kernel rounds the size up to whole pages.
    assert!((total..total + 4).contains(&size), "{}: {size} KiB, the host has {total}: {said}", target.name());
    assert!(said.contains(&format!("size={size}k")), "{}: {said}", target.name());
    let o = run(target, &["delete", "big", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// The pod's uid, from `get -o json`.
fn get_uid(target: Target, ns: &Namespace, pod: &str) -> String {
    let o = run(target, &["get", pod, "-n", ns.name(), "-o", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["metadata"]["uid"].as_str().unwrap().to_owned()
}

/// A ConfigMap and a pod mounting it whole and one key of it by subPath, with one key in its
/// environment.
fn config_pod(greeting: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cfg}}\ndata: {{greeting: {greeting}, other: same}}\n---\n\
         apiVersion: v1\nkind: Pod\nmetadata: {{name: cfg}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers:\n  - name: c\n    image: busybox\n    command: [sh, -c, '{LOOP}']\n    \
         env: [{{name: G, valueFrom: {{configMapKeyRef: {{name: cfg, key: greeting}}}}}}]\n    volumeMounts:\n    \
         - {{name: v, mountPath: /cfg}}\n    - {{name: v, mountPath: /one/greeting, subPath: greeting}}\n  \
         volumes:\n  - {{name: v, configMap: {{name: cfg}}}}\n"
    )
}

/// The container's id and restart count, from `get -o json`.
fn instance(target: Target, ns: &Namespace) -> (String, i64) {
    let o = run(target, &["get", "cfg", "-n", ns.name(), "-o", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = &v["status"]["containerStatuses"][0];
    (c["containerID"].as_str().unwrap_or_default().to_owned(), c["restartCount"].as_i64().unwrap_or(-1))
}

fn config_map_volume_follows_its_data(target: Target, ns: &Namespace) {
    let f = TempFile::new("cfg.yaml", &config_pod("one"));
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let before = instance(target, ns);
    assert!(!before.0.is_empty() && before.1 == 0, "{}: {before:?}", target.name());
    let show = || stdout(&exec(target, ns, "cfg", "c", "cat /cfg/greeting; echo; cat /one/greeting; echo; echo $G"));
    assert_eq!(show(), "one\none\none\n", "{}", target.name());
    // The kubelet's layout: `..data` links to a timestamped data directory, each key into it.
    let layout = || stdout(&exec(target, ns, "cfg", "c", "readlink /cfg/..data; readlink /cfg/greeting"));
    let first = layout();
    assert!(first.starts_with("..20") && first.ends_with("\n..data/greeting\n"), "{}: {first}", target.name());

    let f = TempFile::new("cfg.yaml", &config_pod("two"));
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}: {}", target.name(), stderr(&o));
    // The kubelet's update comes within its sync period; podrun's with the apply, looked at
    // for a bounded time all the same.
    wait_until("the new content", Duration::from_secs(30), || {
        let seen = show();
        // The subPath mount and the environment keep what they had, as under a kubelet.
        if seen == "two\none\none\n" {
            Ok(())
        } else {
            Err(seen)
        }
    });
    assert_eq!(instance(target, ns), before, "{}: the same container, not restarted", target.name());
    let second = layout();
    assert!(second != first && second.ends_with("\n..data/greeting\n"), "{}: {second}", target.name());
    let o = run(target, &["delete", "cfg", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// podrun's state directory, where a pod's configMap volumes are (run as root, as the suite).
fn state_root() -> PathBuf {
    std::env::var_os("PODRUN_STATE_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| "/var/lib/podrun".into(), PathBuf::from)
}

/// A directory of podrun's made immutable (`chattr +i`: nothing can be made in it, by root
/// either), as a full disk would refuse the volume's new files; made writable again when
/// dropped, so the pod can be deleted.
struct Frozen(PathBuf);

impl Frozen {
    fn new(dir: PathBuf) -> Frozen {
        let ok = std::process::Command::new("chattr").arg("+i").arg(&dir).status().is_ok_and(|s| s.success());
        assert!(ok, "chattr +i {}", dir.display());
        Frozen(dir)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

fn config_map_update_that_cannot_be_written_fails_the_apply(target: Target, ns: &Namespace) {
    let f = TempFile::new("cfg.yaml", &config_pod("one"));
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let before = instance(target, ns);
    let show = || stdout(&exec(target, ns, "cfg", "c", "cat /cfg/greeting; echo; cat /one/greeting; echo; echo $G"));
    let dir = state_root().join("pods").join(get_uid(target, ns, "cfg")).join("volumes").join("v");
    assert!(dir.is_dir(), "{}: {} is not the volume's directory", target.name(), dir.display());

    let frozen = Frozen::new(dir);
    let f = TempFile::new("cfg.yaml", &config_pod("two"));
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{}: a re-apply that could not write the volume: {err}", target.name());
    assert!(
        err.contains("spec.volumes[0]: ") && err.contains("its volumes were not updated"),
        "{}: {err}",
        target.name()
    );
    assert_eq!(show(), "one\none\none\n", "{}: the pod runs on with the files it had", target.name());
    assert_eq!(instance(target, ns), before, "{}: the same container, not restarted", target.name());

    drop(frozen);
    let o = run(target, &["apply", f.path(), "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    wait_until("the new content", Duration::from_secs(30), || {
        let seen = show();
        if seen == "two\none\none\n" {
            Ok(())
        } else {
            Err(seen)
        }
    });
    let o = run(target, &["delete", "cfg", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn docker_config_map_update_that_cannot_be_written_fails_the_apply() {
    require_engine!();
    let ns = Namespace::new("vl-docker-frozen");
    config_map_update_that_cannot_be_written_fails_the_apply(Target::Engine(None), &ns);
}

#[test]
fn podman_config_map_update_that_cannot_be_written_fails_the_apply() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "vl-podman-frozen");
    config_map_update_that_cannot_be_written_fails_the_apply(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_config_map_update_that_cannot_be_written_fails_the_apply() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "vl-cri-frozen");
    config_map_update_that_cannot_be_written_fails_the_apply(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_memory_empty_dir_is_a_tmpfs_of_its_size() {
    require_engine!();
    let ns = Namespace::new("vl-docker-mem");
    memory_empty_dir_is_a_tmpfs_of_its_size(Target::Engine(None), &ns);
}

#[test]
fn podman_memory_empty_dir_is_a_tmpfs_of_its_size() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "vl-podman-mem");
    memory_empty_dir_is_a_tmpfs_of_its_size(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_memory_empty_dir_is_a_tmpfs_of_its_size() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "vl-cri-mem");
    memory_empty_dir_is_a_tmpfs_of_its_size(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_config_map_volume_follows_its_data() {
    require_engine!();
    let ns = Namespace::new("vl-docker-cfg");
    config_map_volume_follows_its_data(Target::Engine(None), &ns);
}

#[test]
fn podman_config_map_volume_follows_its_data() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "vl-podman-cfg");
    config_map_volume_follows_its_data(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_config_map_volume_follows_its_data() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "vl-cri-cfg");
    config_map_volume_follows_its_data(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_memory_empty_dir_is_capped_at_the_node() {
    require_engine!();
    let ns = Namespace::new("vl-docker-cap");
    memory_empty_dir_is_capped_at_the_node(Target::Engine(None), &ns);
}

#[test]
fn podman_memory_empty_dir_is_capped_at_the_node() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "vl-podman-cap");
    memory_empty_dir_is_capped_at_the_node(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_memory_empty_dir_is_capped_at_the_node() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "vl-cri-cap");
    memory_empty_dir_is_capped_at_the_node(Target::Cri(&endpoint), &ns);
}
