//! A pod's own cgroup with its pod-level limits (`spec.resources`), as the kubelet makes one
//! before the pod's sandbox (pkg/kubelet/cm, pod_container_manager): cgroupfs, under podrun's
//! own parent, one folder per pod named for its uid, which every container of the pod
//! (its infra container too) is put under as its cgroup parent. podrun writes the pod's
//! limits there (memory and CPU, v1 or v2) and removes the folder with the pod: rmdir only,
//! which a cgroup still in use refuses. No file or folder of it is opened through a link.

use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::CpuSettings;

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

/// Removes a pod's (empty) cgroup folders under every mounted hierarchy: rmdir only, which a
/// cgroup in use refuses, and which never follows a link. Whether none is left.
pub fn remove(uid: &str) -> bool {
    let rel = parent(uid);
    let rel = rel.trim_start_matches('/');
    let root = Path::new(MOUNT);
    let mut dirs = vec![root.join(rel)];
    if let Ok(entries) = std::fs::read_dir(root) {
        dirs.extend(entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| e.path().join(rel)));
    }
    for dir in &dirs {
        if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        // Children first (the engine's per-container folders, normally gone already).
        if let Ok(children) = std::fs::read_dir(dir) {
            for child in children.flatten() {
                if child.file_type().is_ok_and(|t| t.is_dir()) {
                    let _ = std::fs::remove_dir(child.path());
                }
            }
        }
        let _ = std::fs::remove_dir(dir);
    }
    !dirs.iter().any(|d| std::fs::symlink_metadata(d).is_ok())
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
}
