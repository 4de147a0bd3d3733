//! The host side of pod volumes: the directories and files the plan names, made real with
//! their modes and ownership (Files volumes in the kubelet's layout, see `atomic`), the hostPath type checks,
//! and removal when the pod goes (sub-path mount points first, see `subpath`). Everything here
//! is I/O; what to make is decided in the plan (`super`).

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{
    empty_dir_mode, files_modes, host, subpath, tmpfs, HostPathType, PlannedSource, PlannedVolume, PodFiles, SubPath,
    VolumeError, VolumeSetup, SHM,
};

pub(super) mod atomic;

/// Why the host side of a volume could not be made, or failed a check.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("cannot create {}", .path.display())]
    Create { path: PathBuf, source: io::Error },
    #[error("{}", .path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{} is not a directory (a symbolic link is refused)", .0.display())]
    NotPrivateDir(PathBuf),
    #[error("{} belongs to uid {owner}, not to podrun's user (uid {me})", .path.display())]
    Owner { path: PathBuf, owner: u32, me: u32 },
    #[error("cannot set the mode of {}", .path.display())]
    Mode { path: PathBuf, source: io::Error },
    #[error("refusing to use {}: it is a symbolic link", .0.display())]
    Symlink(PathBuf),
    #[error("{} exists and is not a directory", .0.display())]
    NotDirectory(PathBuf),
    #[error("cannot give {} to group {group} (fsGroup)", .path.display())]
    Group { path: PathBuf, group: u32, source: io::Error },
    /// The hint follows the OS's words, so the refusal is said in the message itself.
    #[error("cannot give {} to group {group} (fsGroup): {denied} (fsGroup needs podrun to run as root)", .path.display())]
    GroupNeedsRoot { path: PathBuf, group: u32, denied: io::Error },
    #[error("cannot mount a tmpfs on {}", .path.display())]
    Tmpfs { path: PathBuf, source: io::Error },
    #[error("cannot remove {}", .path.display())]
    Remove { path: PathBuf, source: io::Error },
    #[error("cannot write {}", .path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("cannot create directory {}", .path.display())]
    CreateDirectory { path: PathBuf, source: io::Error },
    #[error("cannot create file {}", .path.display())]
    CreateFile { path: PathBuf, source: io::Error },
    #[error("hostPath type check failed: {} is not {what}", .path.display())]
    HostPathType { path: PathBuf, what: &'static str },
    #[error(
        "podrun keeps Memory emptyDirs and secrets on the tmpfs at {SHM}, and on this host {SHM} is {}",
        .found.as_ref().map_or_else(|| "not a mount".to_owned(), |t| format!("a {t} file system"))
    )]
    ShmNotTmpfs { found: Option<String> },
}

/// Prepares the host side of every volume: podrun's own directories and files, and the
/// hostPath checks. Safe to run again on a re-apply: an emptyDir keeps its content, and the
/// files of configMap, secret, downwardAPI and projected volumes are written in the kubelet's
/// atomic writer's layout (`atomic`), so a changed volume changes all at once, with files no
/// longer wanted removed.
///
/// Directories: emptyDir 0777 (the kubelet's); file volumes 0755, or 0750 for one holding
/// Secret data when the pod has an fsGroup (every container of the pod then has the group; without
/// one, 0750 would lock a non-root container user out, which Kubernetes does not). Other host
/// users are kept out by the pod directories, which this makes sure are podrun's and 0700.
/// With fsGroup, what podrun creates gets that group, group read (and write, for an emptyDir)
/// and setgid on directories, as the kubelet's ownership management does; without, it stays
/// podrun's user's (root's).
pub fn prepare(setup: &VolumeSetup) -> Result<(), VolumeError> {
    // On the engine (`VolumeSetup::on_engine`) nothing is made here: hostPath is the engine's
    // host's, where podrun cannot look, and the rest are engine volumes.
    if setup.volumes.is_empty() || setup.engine {
        return Ok(());
    }
    let on_disk = |v: &&PlannedVolume| {
        matches!(v.source, PlannedSource::EmptyDir { memory: false, .. } | PlannedSource::Files { secret: false, .. })
    };
    let on_shm = |v: &&PlannedVolume| {
        matches!(v.source, PlannedSource::EmptyDir { memory: true, .. } | PlannedSource::Files { secret: true, .. })
    };
    // The pod directory holds the volumes on disk and the sub-paths' mount points.
    let sub_path = setup.mounts.values().flatten().find(|m| m.sub_path != SubPath::None);
    let in_pod_dir = setup.volumes.iter().find(on_disk).map(|v| &v.field).or(sub_path.map(|m| &m.field));
    if let Some(field) = in_pod_dir {
        if let Some(parent) = setup.pod_dir.parent() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)
                .map_err(|source| host(field, HostError::Create { path: parent.to_path_buf(), source }))?;
        }
        private_dir(&setup.pod_dir).map_err(|e| host(field, e))?;
    }
    if let Some(v) = setup.volumes.iter().find(on_disk) {
        private_dir(&setup.pod_dir.join("volumes")).map_err(|e| host(&v.field, e))?;
    }
    if let Some(v) = setup.volumes.iter().find(on_shm) {
        let what = match v.source {
            PlannedSource::EmptyDir { .. } => format!("{}.emptyDir.medium", v.field),
            _ => v.field.clone(),
        };
        match fs_type(Path::new(SHM)) {
            Some(t) if t == "tmpfs" => {}
            found => return Err(host(what, HostError::ShmNotTmpfs { found })),
        }
        if let Some(base) = setup.shm_dir.parent() {
            private_dir(base).map_err(|e| host(&what, e))?;
        }
        private_dir(&setup.shm_dir).map_err(|e| host(&what, e))?;
    }
    let group = setup.fs_group;
    for v in &setup.volumes {
        match &v.source {
            PlannedSource::EmptyDir { dir, memory: true, tmpfs_size, .. } if rustix::process::geteuid().is_root() => {
                let name = v.name.as_str();
                tmpfs::ensure(&setup.shm_dir, name, *tmpfs_size)
                    .map_err(|e| host(format!("{}.emptyDir", v.field), e))?;
                ensure_dir(dir, empty_dir_mode(true, group), group).map_err(|e| host(&v.field, e))?;
            }
            PlannedSource::EmptyDir { dir, memory, .. } => {
                ensure_dir(dir, empty_dir_mode(*memory, group), group).map_err(|e| host(&v.field, e))?;
            }
            PlannedSource::HostPath { path, kind } => {
                check_host_path(path, *kind).map_err(|e| host(format!("{}.hostPath.path", v.field), e))?;
            }
            PlannedSource::Files { dir, files, secret } => {
                let (dir_mode, file_bits) = files_modes(*secret, group);
                let data = setup.data_dir_name(files, *secret, crate::clock::now());
                atomic::write(dir, files, &data, dir_mode, file_bits, group).map_err(|e| host(&v.field, e))?;
            }
            PlannedSource::Claim { .. } | PlannedSource::Image { .. } => {}
        }
    }
    Ok(())
}

/// Removes the host side of a pod's volumes: its sub-path mount points (unmounted), its volume
/// directories under the pod directory and on /dev/shm. Named volumes (claims) are kept. Best effort, as a delete must not fail
/// over a leftover directory; a warning names what could not be removed.
pub fn remove_pod_volumes(files: &PodFiles, uid: &str) {
    if !crate::manifest::defaults::is_pod_uid(uid) {
        tracing::warn!(uid, "not removing volumes: not a pod uid podrun makes");
        return;
    }
    let pod_dir = files.pod_dir(uid);
    // First, and never recursively: a mount point shows a volume's or a hostPath's content.
    subpath::remove(&pod_dir);
    remove_tree(&pod_dir.join("volumes"));
    // The base directory stays, empty, until the next boot: once its name is seen in /dev/shm,
    // anyone could make it first after podrun removed it. Memory emptyDirs' tmpfs mounts go
    // first, so the removal finds plain directories.
    let shm = files.shm_base().join(uid);
    tmpfs::unmount_all(&shm);
    remove_tree(&shm);
}

fn remove_tree(dir: &Path) {
    // remove_dir_all does not follow symbolic links, so a link a container left in an emptyDir
    // cannot make it delete anything outside.
    if let Err(e) = fs::remove_dir_all(dir) {
        if e.kind() != io::ErrorKind::NotFound {
            tracing::warn!(dir = %dir.display(), error = %e, "could not remove a pod volume");
        }
    }
}

/// Makes `dir` (whose parent exists) a directory of podrun's user's, mode 0700, refusing a
/// symbolic link or a directory someone else owns: /dev/shm is writable by anyone.
fn private_dir(dir: &Path) -> Result<(), HostError> {
    let path = || dir.to_path_buf();
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(source) => return Err(HostError::Create { path: path(), source }),
    }
    let md = fs::symlink_metadata(dir).map_err(|source| HostError::Io { path: path(), source })?;
    if md.file_type().is_symlink() || !md.is_dir() {
        return Err(HostError::NotPrivateDir(path()));
    }
    let me = rustix::process::geteuid().as_raw();
    if md.uid() != me {
        return Err(HostError::Owner { path: path(), owner: md.uid(), me });
    }
    if md.permissions().mode() & 0o7777 != 0o700 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
            .map_err(|source| HostError::Mode { path: path(), source })?;
    }
    Ok(())
}

/// Makes `dir` (whose parent exists and was checked) a real directory with `mode` and group.
pub(super) fn ensure_dir(dir: &Path, mode: u32, group: Option<u32>) -> Result<(), HostError> {
    let path = || dir.to_path_buf();
    match fs::symlink_metadata(dir) {
        Ok(md) if md.file_type().is_symlink() => return Err(HostError::Symlink(path())),
        Ok(md) if !md.is_dir() => return Err(HostError::NotDirectory(path())),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            // Made meanwhile by another podrun writing the same volume: checked as a found one.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => match fs::symlink_metadata(dir) {
                Ok(md) if md.is_dir() => {}
                _ => return Err(HostError::NotDirectory(path())),
            },
            Err(source) => return Err(HostError::Create { path: path(), source }),
        },
        Err(source) => return Err(HostError::Io { path: path(), source }),
    }
    if let Some(g) = group {
        std::os::unix::fs::lchown(dir, None, Some(g)).map_err(|e| group_error(dir, g, e))?;
    }
    // Always set: the umask must not decide, and chown may have cleared setgid.
    fs::set_permissions(dir, fs::Permissions::from_mode(mode))
        .map_err(|source| HostError::Mode { path: path(), source })
}

pub(super) fn group_error(path: &Path, group: u32, e: io::Error) -> HostError {
    let path = path.to_path_buf();
    if e.kind() == io::ErrorKind::PermissionDenied {
        HostError::GroupNeedsRoot { path, group, denied: e }
    } else {
        HostError::Group { path, group, source: e }
    }
}

/// The start of the temporary names of a Files volume (`atomic`); no item path may start
/// with `..`.
pub(super) const TEMPORARY: &str = "..podrun-tmp-";

/// A temporary file of another podrun still running (`..podrun-tmp-PID-...`), which writes the
/// same volume at the same time (concurrent applies of one pod): not stale, and not this
/// run's to remove. One left by a podrun that is gone is stale.
pub(super) fn is_others_temporary(name: &std::ffi::OsStr) -> bool {
    let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(TEMPORARY)).and_then(|r| r.split('-').next()) else {
        return false;
    };
    pid.parse::<u32>().is_ok_and(|pid| pid != std::process::id() && Path::new("/proc").join(pid.to_string()).exists())
}

/// The kubelet's hostPath type check (and creation, for the *OrCreate types). Like the
/// kubelet, it follows symbolic links: the path is the manifest's own choice of host path.
fn check_host_path(path: &Path, kind: HostPathType) -> Result<(), HostError> {
    let md = fs::metadata(path).ok();
    let ok = match kind {
        HostPathType::Unset | HostPathType::DirectoryOrCreate if md.is_none() => {
            // Created as the kubelet's MkdirAll(path, 0755) does (the umask applies).
            return fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(path)
                .map_err(|source| HostError::CreateDirectory { path: path.to_path_buf(), source });
        }
        HostPathType::Unset => true,
        HostPathType::DirectoryOrCreate | HostPathType::Directory => md.is_some_and(|m| m.is_dir()),
        HostPathType::FileOrCreate if md.is_none() => {
            // The parent must exist, as for the kubelet's MakeFile.
            return fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o644)
                .open(path)
                .map(drop)
                .map_err(|source| HostError::CreateFile { path: path.to_path_buf(), source });
        }
        HostPathType::FileOrCreate | HostPathType::File => md.is_some_and(|m| m.is_file()),
        HostPathType::Socket => md.is_some_and(|m| m.file_type().is_socket()),
        HostPathType::CharDevice => md.is_some_and(|m| m.file_type().is_char_device()),
        HostPathType::BlockDevice => md.is_some_and(|m| m.file_type().is_block_device()),
    };
    if ok {
        return Ok(());
    }
    let what = match kind {
        HostPathType::DirectoryOrCreate | HostPathType::Directory | HostPathType::Unset => "a directory",
        HostPathType::FileOrCreate | HostPathType::File => "a file",
        HostPathType::Socket => "a socket file",
        HostPathType::CharDevice => "a character device",
        HostPathType::BlockDevice => "a block device",
    };
    Err(HostError::HostPathType { path: path.to_path_buf(), what })
}

/// The file system type of the mount holding `path`, from /proc/self/mountinfo (the last of the
/// longest matching mount points: later mounts cover earlier ones).
pub(super) fn fs_type(path: &Path) -> Option<String> {
    let info = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mut best: Option<(usize, String)> = None;
    for line in info.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let Some(mount_point) = fields.get(4) else { continue };
        let mount_point = mount_point.replace("\\040", " ");
        let Some(sep) = fields.iter().position(|f| *f == "-") else { continue };
        let Some(fstype) = fields.get(sep + 1) else { continue };
        if path.starts_with(&mount_point) {
            let len = Path::new(&mount_point).components().count();
            if best.as_ref().is_none_or(|(l, _)| len >= *l) {
                best = Some((len, (*fstype).to_owned()));
            }
        }
    }
    best.map(|(_, t)| t)
}
