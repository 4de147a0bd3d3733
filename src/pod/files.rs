//! podrun's files on the host, per pod: the termination-log file each container instance
//! writes its termination message to (bind-mounted at its terminationMessagePath, as the
//! kubelet does, because a file written inside the container is gone once it stops), the pod's
//! /etc/hosts (`etc-hosts`, as the kubelet names it), and what podrun last saw of the pod
//! (`record.json`, see `pod::record`).
//!
//! Layout: `<root>/pods/<pod uid>/<container>-<attempt>/termination-log`, `<root>/pods/<pod
//! uid>/etc-hosts`, `<root>/pods/<pod uid>/record.json`; `pod::volumes` keeps its volumes in
//! `volumes/` and its sub-path mount points in `volume-subpaths/` there. The root is
//! `$PODRUN_STATE_DIR`, else `/var/lib/podrun` for root, else `$XDG_STATE_HOME/podrun` (or
//! `~/.local/state/podrun`). Directories are private (0700); the termination-log file is
//! writable by any user (0666), since the container may run as anyone: it is reached only
//! through the bind mount.

use std::fs;
use std::io::{self, Read, Seek};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The kubelet's limit for a termination message read from the file.
pub const MAX_MESSAGE_BYTES: u64 = 4096;
/// The directory of a pod's sub-path mount points (see `pod::volumes::subpath`), in its
/// directory.
pub const VOLUME_SUBPATHS: &str = "volume-subpaths";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodFiles {
    root: PathBuf,
}

impl PodFiles {
    pub fn new(root: impl Into<PathBuf>) -> PodFiles {
        PodFiles { root: root.into() }
    }

    /// The default root for this user (see the module doc).
    pub fn default_root() -> PathBuf {
        if let Some(dir) = std::env::var_os("PODRUN_STATE_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        // Root or not, without libc: /proc/self belongs to the process's effective uid.
        let is_root = fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0).unwrap_or(false);
        if is_root {
            return PathBuf::from("/var/lib/podrun");
        }
        let state = std::env::var_os("XDG_STATE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
            .unwrap_or_else(std::env::temp_dir);
        state.join("podrun")
    }

    pub fn pod_dir(&self, uid: &str) -> PathBuf {
        self.root.join("pods").join(uid)
    }

    fn instance_dir(&self, uid: &str, container: &str, attempt: u32) -> PathBuf {
        self.pod_dir(uid).join(format!("{container}-{attempt}"))
    }

    pub fn termination_log(&self, uid: &str, container: &str, attempt: u32) -> PathBuf {
        self.instance_dir(uid, container, attempt).join("termination-log")
    }

    /// Creates an empty termination-log file for one instance and returns its path.
    pub fn prepare_termination_log(&self, uid: &str, container: &str, attempt: u32) -> io::Result<PathBuf> {
        let dir = self.instance_dir(uid, container, attempt);
        fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
        let path = dir.join("termination-log");
        fs::File::create(&path)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o666))?;
        Ok(path)
    }

    /// Writes the pod's /etc/hosts (see `pod::hosts`), readable by any user the containers run
    /// as, and returns its path.
    pub fn write_etc_hosts(&self, uid: &str, content: &str) -> io::Result<PathBuf> {
        let dir = self.pod_dir(uid);
        fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
        let path = dir.join("etc-hosts");
        fs::write(&path, content)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644))?;
        Ok(path)
    }

    /// Replaces the pod's record (see `pod::record`) at once: a reader sees the old or the new.
    pub fn write_record(&self, uid: &str, record: &super::record::PodRecord) -> io::Result<()> {
        let dir = self.pod_dir(uid);
        fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
        let tmp = dir.join(format!(".record.json.{}", std::process::id()));
        fs::write(&tmp, record.to_json())?;
        fs::rename(&tmp, dir.join("record.json"))
    }

    /// The pod's record, if podrun left one (and it reads as one).
    pub fn read_record(&self, uid: &str) -> Option<super::record::PodRecord> {
        let text = fs::read_to_string(self.pod_dir(uid).join("record.json")).ok()?;
        super::record::PodRecord::from_json(&text)
    }

    /// The message an instance left, at most 4096 bytes; `None` when there is no file.
    pub fn read_termination_log(&self, uid: &str, container: &str, attempt: u32) -> Option<String> {
        read_limited(&self.termination_log(uid, container, attempt), MAX_MESSAGE_BYTES)
    }

    pub fn remove_instance(&self, uid: &str, container: &str, attempt: u32) {
        remove_dir(&self.instance_dir(uid, container, attempt));
    }

    /// The pods that have a directory here, with when it last changed.
    pub fn pod_dirs(&self) -> Vec<(String, Option<std::time::SystemTime>)> {
        let Ok(entries) = fs::read_dir(self.root.join("pods")) else { return Vec::new() };
        let mut dirs: Vec<_> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.metadata().ok()?.modified().ok())))
            .collect();
        dirs.sort();
        dirs
    }

    /// Removes the pod's directory, unless sub-path mount points are left in it (their
    /// removal, `pod::volumes::remove_pod_volumes`, comes first): a recursive removal would go
    /// through a mount point into the volume it shows, or into a hostPath.
    pub fn remove_pod(&self, uid: &str) {
        let dir = self.pod_dir(uid);
        if fs::symlink_metadata(dir.join(VOLUME_SUBPATHS)).is_ok() {
            tracing::warn!(dir = %dir.display(), "not removing podrun's files: sub-path mount points are left there");
            return;
        }
        remove_dir(&dir);
    }
}

/// The last `limit` bytes of the file, as the kubelet reads a termination message
/// (`tail.ReadAtMost`).
fn read_limited(path: &Path, limit: u64) -> Option<String> {
    let mut buf = Vec::new();
    let mut f = fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(io::SeekFrom::Start(len.saturating_sub(limit))).ok()?;
    f.take(limit).read_to_end(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// Best effort: a leftover directory is harmless, and a failure here must not fail a delete.
fn remove_dir(dir: &Path) {
    if let Err(e) = fs::remove_dir_all(dir) {
        if e.kind() != io::ErrorKind::NotFound {
            tracing::warn!(dir = %dir.display(), error = %e, "could not remove podrun's files");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PodFiles {
        let root = std::env::temp_dir().join(format!("podrun-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        PodFiles::new(root)
    }

    #[test]
    fn termination_log_lifecycle() {
        let f = scratch("lifecycle");
        let path = f.prepare_termination_log("uid-1", "c", 2).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o666);
        assert_eq!(fs::metadata(path.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(f.read_termination_log("uid-1", "c", 2).as_deref(), Some(""));
        fs::write(&path, format!("{}{}", "x".repeat(5000), "y".repeat(4000))).unwrap();
        assert_eq!(f.read_termination_log("uid-1", "c", 2).unwrap(), format!("{}{}", "x".repeat(96), "y".repeat(4000)));
        f.remove_instance("uid-1", "c", 2);
        assert_eq!(f.read_termination_log("uid-1", "c", 2), None);
        f.prepare_termination_log("uid-1", "d", 0).unwrap();
        f.remove_pod("uid-1");
        assert!(!f.pod_dir("uid-1").exists());
        let _ = fs::remove_dir_all(&f.root);
    }

    #[test]
    fn a_pod_directory_with_sub_path_mount_points_left_is_not_removed() {
        let f = scratch("subpaths");
        let point = f.pod_dir("uid-1").join(VOLUME_SUBPATHS).join("v/c/0");
        fs::create_dir_all(&point).unwrap();
        fs::write(point.join("what-a-mount-shows"), "x").unwrap();
        f.remove_pod("uid-1");
        assert!(point.join("what-a-mount-shows").exists(), "never removed recursively");
        let _ = fs::remove_dir_all(&f.root);
    }
}
