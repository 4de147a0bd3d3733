//! A pod's own cgroup with its pod-level limits (`spec.resources`), as the kubelet makes one
//! before the pod's sandbox (pkg/kubelet/cm, pod_container_manager): cgroupfs, under podrun's
//! own parent, one folder per pod named for its uid, which every container of the pod
//! (its infra container too) is put under as its cgroup parent. podrun writes the pod's
//! limits there (memory and CPU, v1 or v2) and removes the folder with the pod: rmdir only,
//! which a cgroup still in use refuses. No file or folder of it is opened through a link.
//! `found` lists the pod cgroups there are, in every hierarchy, for the removal of those whose
//! pod is gone (`gc`, `delete`: the kubelet's orphaned pod cgroups).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::CpuSettings;
use crate::manifest::defaults::is_pod_uid;

/// Where the cgroups are mounted.
const MOUNT: &str = "/sys/fs/cgroup";
/// podrun's parent of the pods' cgroups.
pub const ROOT: &str = "/podrun";

/// The limits of a pod's cgroup, with the kubelet's arithmetic (CFS quota over a 100 ms period
/// from the pod's CPU limit, shares from its request, bytes from its memory limit).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodCgroup {
    pub cpu: CpuSettings,
    /// Bytes.
    pub memory_limit: Option<i64>,
}

/// The cgroup parent of a pod's containers: `/podrun/pod<uid>`.
pub fn parent(uid: &str) -> String {
    format!("{ROOT}/pod{}", component(uid))
}

/// `s` as one path component: a `/` or a leading `.` can never lead elsewhere, whatever a
/// label held.
pub fn component(s: &str) -> String {
    let s: String = s.chars().map(|c| if c == '/' || c == '\0' { '_' } else { c }).collect();
    if s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

fn is_v2() -> bool {
    Path::new(MOUNT).join("cgroup.controllers").exists()
}

/// Whether podrun can make pod cgroups on this host: it runs as root and the cgroup
/// hierarchies it writes are there.
pub fn available() -> bool {
    if !rustix::process::geteuid().is_root() {
        return false;
    }
    if is_v2() {
        return true;
    }
    ["memory", "cpu"].iter().all(|c| Path::new(MOUNT).join(c).join("cgroup.procs").exists())
}

/// A folder made if missing; one that is there must be a real folder, not a link.
fn folder(path: &Path) -> io::Result<()> {
    match std::fs::create_dir(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if std::fs::symlink_metadata(path)?.is_dir() {
                Ok(())
            } else {
                Err(io::Error::other(format!("{} is not a folder", path.display())))
            }
        }
        Err(e) => Err(e),
    }
}

/// Writes one cgroup file, opened without following a link.
fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(
            rustix::fs::OFlags::NOFOLLOW.bits().cast_signed() | rustix::fs::OFlags::CLOEXEC.bits().cast_signed(),
        )
        .open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    f.write_all(value.as_bytes()).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// The pod's folders under `base`, made where missing.
fn pod_folder(base: &Path, uid: &str) -> io::Result<PathBuf> {
    let root = base.join(ROOT.trim_start_matches('/'));
    folder(&root)?;
    let pod = root.join(format!("pod{}", component(uid)));
    folder(&pod)?;
    Ok(pod)
}

/// Makes the pod's cgroup (if missing) and writes its limits; a limit it does not set is
/// written as none, so a changed pod never keeps an old one.
pub fn ensure(uid: &str, limits: &PodCgroup) -> io::Result<()> {
    let cpu = limits.cpu;
    if is_v2() {
        let base = Path::new(MOUNT);
        let _ = write(&base.join(ROOT.trim_start_matches('/')).join("cgroup.subtree_control"), "+cpu +memory");
        let pod = pod_folder(base, uid)?;
        let mem = limits.memory_limit.map_or_else(|| "max".to_owned(), |b| b.to_string());
        write(&pod.join("memory.max"), &mem)?;
        let period = cpu.period.unwrap_or(100_000);
        let quota = cpu.quota.map_or_else(|| "max".to_owned(), |q| q.to_string());
        write(&pod.join("cpu.max"), &format!("{quota} {period}"))?;
        if let Some(shares) = cpu.shares {
            // The kubelet's CpuSharesToCPUWeight.
            write(&pod.join("cpu.weight"), &(1 + ((shares - 2) * 9999) / 262_142).to_string())?;
        }
        return Ok(());
    }
    let memory = pod_folder(&Path::new(MOUNT).join("memory"), uid)?;
    write(&memory.join("memory.limit_in_bytes"), &limits.memory_limit.unwrap_or(-1).to_string())?;
    let cpu_dir = pod_folder(&Path::new(MOUNT).join("cpu"), uid)?;
    write(&cpu_dir.join("cpu.cfs_period_us"), &cpu.period.unwrap_or(100_000).to_string())?;
    write(&cpu_dir.join("cpu.cfs_quota_us"), &cpu.quota.unwrap_or(-1).to_string())?;
    if let Some(shares) = cpu.shares {
        write(&cpu_dir.join("cpu.shares"), &shares.to_string())?;
    }
    Ok(())
}

/// The hierarchies a pod's cgroup can be in: the unified one at the mount (v2), or each
/// hierarchy mounted under it (v1, and a hybrid host's `unified` among them): real folders
/// only, not their aliases (`cpu` may be a link to `cpu,cpuacct`). On v2 the folders under the
/// mount are cgroups, not hierarchies, and none of them is podrun's.
fn hierarchies() -> Vec<PathBuf> {
    let root = Path::new(MOUNT);
    if is_v2() {
        return vec![root.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(root) else { return Vec::new() };
    let real = entries.flatten().take(MAX_HIERARCHIES).filter(|e| e.file_type().is_ok_and(|t| t.is_dir()));
    real.map(|e| e.path()).collect()
}

/// At most this many hierarchies, pods per hierarchy, and folders per level are looked at:
/// bounded work whatever the host holds.
const MAX_HIERARCHIES: usize = 64;
const MAX_ENTRIES: usize = 65_536;
/// How deep the engine's folders under a pod's may go (a container's, its runtime's own).
const MAX_DEPTH: u32 = 4;

/// A pod cgroup found under podrun's parent: its pod's uid, and when its youngest folder (over
/// the hierarchies) last changed; `None` when one of them could not tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub uid: String,
    pub changed: Option<SystemTime>,
}

/// The pod cgroups under podrun's parent in every hierarchy, one per pod uid: only folders
/// named `pod<uid>` with a uid podrun gives (`manifest::defaults::is_pod_uid`), and only
/// through real folders, never a link.
pub fn found() -> Vec<Found> {
    found_in(&hierarchies())
}

/// `found`, in the hierarchies mounted at `hierarchies`.
fn found_in(hierarchies: &[PathBuf]) -> Vec<Found> {
    let mut pods: BTreeMap<String, Option<SystemTime>> = BTreeMap::new();
    for hierarchy in hierarchies {
        let parent = hierarchy.join(ROOT.trim_start_matches('/'));
        if !is_real_dir(&parent) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&parent) else { continue };
        for e in entries.flatten().take(MAX_ENTRIES) {
            let name = e.file_name();
            let Some(uid) = name.to_str().and_then(|n| n.strip_prefix("pod")).filter(|u| is_pod_uid(u)) else {
                continue;
            };
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let changed = e.metadata().ok().and_then(|m| m.modified().ok());
            let youngest = match pods.get(uid) {
                None => changed,
                Some(seen) => seen.zip(changed).map(|(a, b)| a.max(b)),
            };
            pods.insert(uid.to_owned(), youngest);
        }
    }
    pods.into_iter().map(|(uid, changed)| Found { uid, changed }).collect()
}

/// Removes `dir` and the folders under it, deepest first: rmdir only, which a cgroup with
/// processes (or a folder that is not a cgroup's) refuses, and which never follows a link.
fn remove_tree(dir: &Path, depth: u32) {
    if !is_real_dir(dir) {
        return;
    }
    if depth > 0 {
        if let Ok(children) = std::fs::read_dir(dir) {
            for child in children.flatten().take(MAX_ENTRIES) {
                if child.file_type().is_ok_and(|t| t.is_dir()) {
                    remove_tree(&child.path(), depth - 1);
                }
            }
        }
    }
    let _ = std::fs::remove_dir(dir);
}

/// Removes a pod's (empty) cgroup folders under every mounted hierarchy, the engine's folders
/// under them first (normally gone already): rmdir only, which a cgroup in use refuses. Whether
/// none is left.
pub fn remove(uid: &str) -> bool {
    let pod = format!("pod{}", component(uid));
    let parents = hierarchies().into_iter().map(|h| h.join(ROOT.trim_start_matches('/')));
    let dirs: Vec<PathBuf> = parents.filter(|p| is_real_dir(p)).map(|p| p.join(&pod)).collect();
    for dir in &dirs {
        remove_tree(dir, MAX_DEPTH);
    }
    !dirs.iter().any(|d| std::fs::symlink_metadata(d).is_ok())
}

/// Whether `path` is a folder itself, not a link to one.
fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_folder_per_pod_under_podrun_s_own() {
        assert_eq!(parent("u-1"), "/podrun/podu-1");
        assert_eq!(parent("../x"), "/podrun/pod_.._x");
        assert_eq!(component(".hidden"), "_.hidden");
    }

    const UID: &str = "0f3c2b1a-1111-4222-8333-444455556666";
    const OTHER: &str = "1f3c2b1a-1111-4222-8333-444455556666";

    #[test]
    fn found_are_pod_folders_of_podrun_s_own_in_every_hierarchy_never_links() {
        let dir = crate::test_support::TempDir::new("pod-cgroups");
        let (memory, cpu, elsewhere) = (dir.join("memory"), dir.join("cpu"), dir.join("elsewhere"));
        for d in [memory.join("podrun"), cpu.join("podrun"), elsewhere.join("podrun")] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::create_dir(memory.join(format!("podrun/pod{UID}"))).unwrap();
        std::fs::create_dir_all(cpu.join(format!("podrun/pod{UID}/container"))).unwrap();
        // Not a uid podrun gives, not a folder, not named pod<uid>, or outside podrun's parent.
        std::fs::create_dir(memory.join("podrun/pod..")).unwrap();
        std::fs::create_dir(memory.join("podrun/podABC")).unwrap();
        std::fs::create_dir(memory.join(format!("podrun/x{OTHER}"))).unwrap();
        std::fs::write(cpu.join(format!("podrun/pod{OTHER}")), "").unwrap();
        std::fs::create_dir(memory.join(format!("pod{OTHER}"))).unwrap();
        // Links: a pod folder that is one, and a parent that is one.
        std::fs::create_dir_all(elsewhere.join(format!("podrun/pod{OTHER}/container"))).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.join(format!("podrun/pod{OTHER}")),
            memory.join("podrun/pod2f3c2b1a-1111-4222-8333-444455556666"),
        )
        .unwrap();
        let linked = dir.join("linked");
        std::fs::create_dir(&linked).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("podrun"), linked.join("podrun")).unwrap();
        let found = found_in(&[memory.clone(), cpu.clone(), linked]);
        assert_eq!(found.iter().map(|f| f.uid.as_str()).collect::<Vec<_>>(), [UID]);
        assert!(found[0].changed.is_some());
        // Removal goes deepest first, rmdir only: a folder with a file in it stays.
        let pod = cpu.join(format!("podrun/pod{UID}"));
        std::fs::write(pod.join("container/procs"), "1").unwrap();
        remove_tree(&pod, MAX_DEPTH);
        assert!(pod.join("container").exists(), "a folder in use stays, and its parent");
        std::fs::remove_file(pod.join("container/procs")).unwrap();
        remove_tree(&pod, MAX_DEPTH);
        assert!(!pod.exists());
        // Through a link nothing is removed.
        remove_tree(&memory.join("podrun/pod2f3c2b1a-1111-4222-8333-444455556666"), MAX_DEPTH);
        assert!(elsewhere.join(format!("podrun/pod{OTHER}/container")).is_dir());
    }
}
