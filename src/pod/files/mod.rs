//! podrun's files on the host, per pod: the termination-log file each container instance
//! writes its termination message to (bind-mounted at its terminationMessagePath, as the
//! kubelet does, because a file written inside the container is gone once it stops), the pod's
//! /etc/hosts (`etc-hosts`, as the kubelet names it), and what podrun last saw of the pod
//! (`record.json`, see `pod::record`), and its events (`events.json`, see `pod::events`).
//!
//! Layout: `<root>/pods/<pod uid>/<container>-<attempt>/termination-log`, `<root>/pods/<pod
//! uid>/etc-hosts`, `<root>/pods/<pod uid>/record.json`, and the ownership key
//! `<root>/seal.key` (`runtime::seal`); `pod::volumes` keeps a pod's volumes in `volumes/` and
//! its sub-path mount points in `volume-subpaths/` in the pod's directory. The root is
//! `$PODRUN_STATE_DIR`, else `/var/lib/podrun` for root, else `$XDG_STATE_HOME/podrun` (or
//! `~/.local/state/podrun`). It is checked before use (`private_fs::ensure_private_dir`:
//! podrun's user's, 0700, on a path nobody else can change), directories in it are private
//! (0700), and every file is opened without following links and must be a regular file. The
//! termination-log file is
//! writable by any user (0666), since the container may run as anyone: it is reached only
//! through the bind mount. Paths are built only from podrun's own pod uids
//! (`manifest::defaults::is_pod_uid`) and container names, never from other text.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::fnv::fnv1a64;
use crate::manifest::defaults::is_pod_uid;
use crate::private_fs::{self, PrivateFsError};
use crate::runtime::seal::{Seal, SealError};

mod driving;
mod events;
pub mod userns;

pub use driving::Driving;

/// The kubelet's limit for a termination message read from the file.
pub const MAX_MESSAGE_BYTES: u64 = 4096;
/// The directory of a pod's sub-path mount points (see `pod::volumes::subpath`), in its
/// directory.
pub const VOLUME_SUBPATHS: &str = "volume-subpaths";

/// A record is small; a bigger file is not podrun's.
const MAX_RECORD_BYTES: u64 = 4 << 20;

/// The tmpfs for Memory emptyDirs and secrets.
const SHM: &str = "/dev/shm";
/// How many names podrun tries there before it gives up (and says whose the first one is).
const SHM_NAMES: u32 = 8;

/// Why podrun's state directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("podrun's state directory {root}")]
    Dir {
        root: String,
        #[source]
        source: PrivateFsError,
    },
    #[error("podrun's state directory {root}")]
    Key {
        root: String,
        #[source]
        source: SealError,
    },
}

/// The file in a pod's directory naming the engine its pod runs on (see `PodFiles::engine`).
const ENGINE_FILE: &str = "engine";
/// An endpoint is a short URL; more is not read.
const MAX_ENGINE_BYTES: u64 = 4096;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodFiles {
    root: PathBuf,
    /// podrun's directory on /dev/shm (see [`PodFiles::open`]).
    shm: PathBuf,
    /// The engine the pods made through these files run on (its endpoint), written into each
    /// pod's directory: one state directory serves every engine on the host, and `gc` through
    /// one engine must not take another's pods for orphans.
    engine: Option<String>,
}

impl PodFiles {
    /// Files under `root` as given, unchecked until something is written: for planning (paths
    /// only) and tests. Its /dev/shm directory is named after the root.
    pub fn new(root: impl Into<PathBuf>) -> PodFiles {
        let root = root.into();
        let shm =
            Path::new(SHM).join(format!("podrun-{:016x}", fnv1a64(root.join("pods").as_os_str().as_encoded_bytes())));
        PodFiles { root, shm, engine: None }
    }

    /// podrun's state directory `root`, checked (and made) private, and its ownership key.
    /// Its /dev/shm directory has a name only the key gives, changing with every boot: /dev/shm
    /// is writable by anyone, and a directory someone made there first under a name they could
    /// know would stop every pod with a Secret volume (or be used).
    pub fn open(root: &Path) -> Result<(PodFiles, Seal), StateError> {
        let shown = || root.display().to_string();
        let real = private_fs::ensure_private_dir(root).map_err(|source| StateError::Dir { root: shown(), source })?;
        let seal = Seal::load(&real).map_err(|source| StateError::Key { root: shown(), source })?;
        private_fs::private_subdir(&real.join("pods")).map_err(|source| StateError::Dir { root: shown(), source })?;
        let boot = private_fs::read_head(Path::new("/proc/sys/kernel/random/boot_id"), 64).ok().flatten();
        let boot = boot.unwrap_or_default();
        // Someone who saw the name this boot could take it while it does not exist (podrun keeps
        // it once made, but a reboot's tmpfs or an admin may have removed it): then the next name.
        let name = |generation: u32| {
            let mut purpose = b"shm\0".to_vec();
            purpose.extend(boot.trim_ascii());
            if generation > 0 {
                purpose.extend(format!("\0{generation}").as_bytes());
            }
            Path::new(SHM).join(format!("podrun-{}", seal.private_name(&purpose)))
        };
        let usable = |dir: &Path| match fs::symlink_metadata(dir) {
            Err(e) => e.kind() == io::ErrorKind::NotFound,
            Ok(md) => md.is_dir() && std::os::unix::fs::MetadataExt::uid(&md) == rustix::process::geteuid().as_raw(),
        };
        let shm = (0..SHM_NAMES).map(name).find(|d| usable(d)).unwrap_or_else(|| name(0));
        Ok((PodFiles { root: real, shm, engine: None }, seal))
    }

    /// These files, for pods on the engine at `endpoint`.
    #[must_use]
    pub fn for_engine(mut self, endpoint: &str) -> PodFiles {
        self.engine = Some(endpoint.to_owned());
        self
    }

    /// Whether the pod `uid`'s files are this engine's: made through it, or made before pods
    /// named their engine (then any engine's, as they always were).
    pub fn is_this_engines(&self, uid: &str) -> bool {
        if !is_pod_uid(uid) {
            return false;
        }
        match private_fs::read_head(&self.pod_dir(uid).join(ENGINE_FILE), MAX_ENGINE_BYTES) {
            Ok(Some(named)) => self.engine.as_deref().is_none_or(|e| e.as_bytes() == named.as_slice()),
            _ => true,
        }
    }

    /// The default root for this user (see the module doc).
    pub fn default_root() -> PathBuf {
        if let Some(dir) = std::env::var_os("PODRUN_STATE_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        if rustix::process::geteuid().is_root() {
            return PathBuf::from("/var/lib/podrun");
        }
        let state = std::env::var_os("XDG_STATE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
            .unwrap_or_else(std::env::temp_dir);
        state.join("podrun")
    }

    /// podrun's directory on /dev/shm, holding one directory per pod.
    pub fn shm_base(&self) -> &Path {
        &self.shm
    }

    /// The state directory (checked, when made by [`PodFiles::open`]).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The pod's directory; `uid` is one of podrun's (the desired pod's, or a sealed label's).
    pub fn pod_dir(&self, uid: &str) -> PathBuf {
        self.root.join("pods").join(uid)
    }

    /// Makes the pod's directory (and the ones above it) private, checking each.
    pub(super) fn make_pod_dir(&self, uid: &str) -> Result<PathBuf, PrivateFsError> {
        if !is_pod_uid(uid) {
            return Err(not_a_uid(uid));
        }
        let root = private_fs::ensure_private_dir(&self.root)?;
        private_fs::private_subdir(&root.join("pods"))?;
        let dir = root.join("pods").join(uid);
        private_fs::private_subdir(&dir)?;
        if let Some(engine) = &self.engine {
            let marker = dir.join(ENGINE_FILE);
            if matches!(fs::symlink_metadata(&marker), Err(e) if e.kind() == io::ErrorKind::NotFound) {
                private_fs::replace_file(&marker, engine.as_bytes(), 0o600)?;
            }
        }
        Ok(dir)
    }

    /// An instance's directory, when `uid` and `container` can name one.
    fn instance_dir(&self, uid: &str, container: &str, attempt: u32) -> Option<PathBuf> {
        let plain = !container.is_empty() && container.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        (is_pod_uid(uid) && plain).then(|| self.pod_dir(uid).join(format!("{container}-{attempt}")))
    }

    pub fn termination_log(&self, uid: &str, container: &str, attempt: u32) -> Option<PathBuf> {
        Some(self.instance_dir(uid, container, attempt)?.join("termination-log"))
    }

    /// Creates an empty termination-log file for one instance and returns its path.
    pub fn prepare_termination_log(&self, uid: &str, container: &str, attempt: u32) -> Result<PathBuf, PrivateFsError> {
        self.make_pod_dir(uid)?;
        let path = self.termination_log(uid, container, attempt).ok_or_else(|| not_a_uid(container))?;
        let dir = path.parent().unwrap_or(&path);
        private_fs::private_subdir(dir)?;
        private_fs::create_file(&path, 0o666)?;
        Ok(path)
    }

    /// Writes the pod's /etc/hosts (see `pod::hosts`), readable by any user the containers run
    /// as, and returns its path. Written in place: a running container's bind mount holds the
    /// file, not the name.
    pub fn write_etc_hosts(&self, uid: &str, content: &str) -> Result<PathBuf, PrivateFsError> {
        let path = self.make_pod_dir(uid)?.join("etc-hosts");
        let mut f = private_fs::create_file(&path, 0o644)?;
        f.write_all(content.as_bytes()).map_err(|source| PrivateFsError::Io {
            path: path.clone(),
            what: "cannot write it",
            source,
        })?;
        Ok(path)
    }

    /// Replaces the pod's record (see `pod::record`) at once: a reader sees the old or the new.
    pub fn write_record(&self, uid: &str, record: &super::record::PodRecord) -> Result<(), PrivateFsError> {
        let path = self.make_pod_dir(uid)?.join("record.json");
        private_fs::replace_file(&path, record.to_json().as_bytes(), 0o600)
    }

    /// The pod's record, if podrun left one (and it reads as one).
    pub fn read_record(&self, uid: &str) -> Option<super::record::PodRecord> {
        if !is_pod_uid(uid) {
            return None;
        }
        let path = self.pod_dir(uid).join("record.json");
        let bytes = read_or_warn(private_fs::read_head(&path, MAX_RECORD_BYTES))?;
        super::record::PodRecord::from_json(std::str::from_utf8(&bytes).ok()?)
    }

    /// The message an instance left, its last 4096 bytes (the kubelet's `tail.ReadAtMost`);
    /// `None` when there is no file.
    pub fn read_termination_log(&self, uid: &str, container: &str, attempt: u32) -> Option<String> {
        let path = self.termination_log(uid, container, attempt)?;
        let bytes = read_or_warn(private_fs::read_tail(&path, MAX_MESSAGE_BYTES))?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub fn remove_instance(&self, uid: &str, container: &str, attempt: u32) {
        if let Some(dir) = self.instance_dir(uid, container, attempt) {
            remove_dir(&dir);
        }
    }

    /// The pods that have a directory here, with when it last changed. Only names that are
    /// podrun's pod uids: nothing else in the directory is taken for a pod's.
    pub fn pod_dirs(&self) -> Vec<(String, Option<std::time::SystemTime>)> {
        let Ok(entries) = fs::read_dir(self.root.join("pods")) else { return Vec::new() };
        let mut dirs: Vec<_> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.metadata().ok()?.modified().ok())))
            .filter(|(uid, _)| is_pod_uid(uid))
            .collect();
        dirs.sort();
        dirs
    }

    /// Removes the pod's directory, unless sub-path mount points are left in it (their
    /// removal, `pod::volumes::remove_pod_volumes`, comes first): a recursive removal would go
    /// through a mount point into the volume it shows, or into a hostPath.
    pub fn remove_pod(&self, uid: &str) {
        if !is_pod_uid(uid) {
            return;
        }
        let dir = self.pod_dir(uid);
        if fs::symlink_metadata(dir.join(VOLUME_SUBPATHS)).is_ok() {
            tracing::warn!(dir = %dir.display(), "not removing podrun's files: sub-path mount points are left there");
            return;
        }
        remove_dir(&dir);
        userns::release(self, uid);
    }
}

fn not_a_uid(what: &str) -> PrivateFsError {
    PrivateFsError::Io {
        path: PathBuf::from(what),
        what: "not a name podrun makes",
        source: io::Error::from(io::ErrorKind::InvalidInput),
    }
}

/// A file that is not podrun's (a link, a FIFO) is said, and read as absent.
fn read_or_warn(r: Result<Option<Vec<u8>>, PrivateFsError>) -> Option<Vec<u8>> {
    match r {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!("{}", crate::error_chain::chain(&e));
            None
        }
    }
}

/// Best effort: a leftover directory is harmless, and a failure here must not fail a delete.
/// `remove_dir_all` does not follow symbolic links.
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
    use crate::manifest::defaults::derive_uid;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_pods_files_name_their_engine_and_gc_through_another_leaves_them() {
        let dir = crate::test_support::TempDir::new("engine-marker");
        let docker = PodFiles::new(dir.to_path_buf()).for_engine("unix:///var/run/docker.sock");
        let cri = PodFiles::new(dir.to_path_buf()).for_engine("unix:///run/containerd/containerd.sock");
        let uid = "0b5c2ac5-0000-4000-8000-000000000001";
        docker.make_pod_dir(uid).unwrap();
        assert!(docker.is_this_engines(uid));
        assert!(!cri.is_this_engines(uid), "another engine's pod");
        // Made again through the other engine: the first word stays.
        cri.make_pod_dir(uid).unwrap();
        assert!(docker.is_this_engines(uid) && !cri.is_this_engines(uid));
        // A pod's files from before pods named their engine: any engine's.
        let legacy = "0b5c2ac5-0000-4000-8000-000000000002";
        PodFiles::new(dir.to_path_buf()).make_pod_dir(legacy).unwrap();
        assert!(cri.is_this_engines(legacy) && docker.is_this_engines(legacy));
    }

    fn scratch(name: &str) -> PodFiles {
        let root = std::env::temp_dir().join(format!("podrun-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        PodFiles::new(root)
    }

    #[test]
    fn termination_log_lifecycle() {
        let f = scratch("lifecycle");
        let uid = derive_uid("default", "web");
        let path = f.prepare_termination_log(&uid, "c", 2).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o666);
        assert_eq!(fs::metadata(path.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(f.read_termination_log(&uid, "c", 2).as_deref(), Some(""));
        fs::write(&path, format!("{}{}", "x".repeat(5000), "y".repeat(4000))).unwrap();
        assert_eq!(f.read_termination_log(&uid, "c", 2).unwrap(), format!("{}{}", "x".repeat(96), "y".repeat(4000)));
        f.remove_instance(&uid, "c", 2);
        assert_eq!(f.read_termination_log(&uid, "c", 2), None);
        f.prepare_termination_log(&uid, "d", 0).unwrap();
        f.remove_pod(&uid);
        assert!(!f.pod_dir(&uid).exists());
        let _ = fs::remove_dir_all(&f.root);
    }

    #[test]
    fn names_that_are_not_podrun_s_never_become_paths() {
        let f = scratch("names");
        let outside = f.root.join("outside");
        fs::create_dir_all(&outside).unwrap();
        for uid in ["/etc", "..", "../outside", "x/../../outside", ""] {
            assert!(f.prepare_termination_log(uid, "c", 0).is_err(), "{uid}");
            assert!(f
                .write_record(uid, &crate::pod::record::PodRecord::from_json(r#"{"restartPolicy":"Always"}"#).unwrap())
                .is_err());
            assert_eq!(f.read_termination_log(uid, "c", 0), None);
            f.remove_pod(uid);
        }
        let uid = derive_uid("default", "web");
        for name in ["../../outside", "/", "a/b", ""] {
            assert!(f.prepare_termination_log(&uid, name, 0).is_err(), "{name}");
            f.remove_instance(&uid, name, 0);
        }
        assert!(outside.exists());
        fs::create_dir_all(f.root.join("pods/not-a-uid")).unwrap();
        f.make_pod_dir(&uid).unwrap();
        assert_eq!(f.pod_dirs().into_iter().map(|(u, _)| u).collect::<Vec<_>>(), [uid]);
        let _ = fs::remove_dir_all(&f.root);
    }

    #[test]
    fn planted_links_and_fifos_are_neither_followed_nor_waited_on() {
        let f = scratch("planted");
        let uid = derive_uid("default", "web");
        let dir = f.make_pod_dir(&uid).unwrap();
        let canary = f.root.join("canary");
        fs::write(&canary, "keep").unwrap();
        fs::set_permissions(&canary, fs::Permissions::from_mode(0o600)).unwrap();
        fs::create_dir(dir.join("c-0")).unwrap();
        std::os::unix::fs::symlink(&canary, dir.join("c-0/termination-log")).unwrap();
        std::os::unix::fs::symlink(&canary, dir.join("etc-hosts")).unwrap();
        assert!(f.prepare_termination_log(&uid, "c", 0).is_err());
        assert!(f.write_etc_hosts(&uid, "127.0.0.1 x\n").is_err());
        assert_eq!(fs::read_to_string(&canary).unwrap(), "keep");
        assert_eq!(fs::metadata(&canary).unwrap().permissions().mode() & 0o777, 0o600);
        let fifo = dir.join("record.json");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::from(0o600), 0)
            .unwrap();
        assert_eq!(f.read_record(&uid), None, "a FIFO is not read (nor waited on)");
        // A pod directory someone else made a link of is refused, not followed.
        let other = derive_uid("default", "other");
        std::os::unix::fs::symlink(f.root.join("outside"), f.root.join("pods").join(&other)).unwrap();
        assert!(f.write_etc_hosts(&other, "x").is_err());
        let _ = fs::remove_dir_all(&f.root);
    }

    #[test]
    fn the_shm_directory_has_a_keyed_name_and_one_someone_else_took_is_passed_over() {
        let root = std::env::temp_dir().join(format!("podrun-files-{}-shm", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let (a, _) = PodFiles::open(&root).unwrap();
        let (b, _) = PodFiles::open(&root).unwrap();
        assert_eq!(a.shm_base(), b.shm_base(), "the same key gives the same name");
        assert!(a.shm_base().starts_with(SHM));
        assert_ne!(a.shm_base(), PodFiles::new(&root).shm_base(), "not the name anyone can work out");
        if rustix::process::geteuid().is_root() {
            // Another user's directory under podrun's name (root can make one for the test).
            fs::create_dir(a.shm_base()).unwrap();
            std::os::unix::fs::chown(a.shm_base(), Some(65534), Some(65534)).unwrap();
            let (c, _) = PodFiles::open(&root).unwrap();
            assert_ne!(c.shm_base(), a.shm_base());
            fs::remove_dir(a.shm_base()).unwrap();
        }
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_pod_directory_with_sub_path_mount_points_left_is_not_removed() {
        let f = scratch("subpaths");
        let uid = derive_uid("default", "web");
        let point = f.pod_dir(&uid).join(VOLUME_SUBPATHS).join("v/c/0");
        fs::create_dir_all(&point).unwrap();
        fs::write(point.join("what-a-mount-shows"), "x").unwrap();
        f.remove_pod(&uid);
        assert!(point.join("what-a-mount-shows").exists(), "never removed recursively");
        let _ = fs::remove_dir_all(&f.root);
    }
}
