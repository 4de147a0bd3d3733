//! Sub-path mounts that cannot be raced, as the kubelet makes them since CVE-2017-1002101 and
//! CVE-2021-25741 (`pkg/volume/util/subpath`). A sub-path lies in a volume the pod's containers
//! may write, so any of them can swap one of its directories for a symbolic link at any moment:
//! a path checked here and resolved again by the engine when it starts the container could lead
//! anywhere on the host. So the engine is never given such a path:
//!
//! 1. [`open`] walks the sub-path one component at a time from a descriptor of the volume's
//!    directory, opening each relative to its parent without following a symbolic link
//!    (`O_NOFOLLOW`, and `O_PATH` for the last, so a FIFO is never opened for reading), and
//!    makes a missing directory the same way (`mkdirat` in the parent, then opened without
//!    following links). What it returns is a descriptor of what the sub-path names now.
//! 2. [`bind`] bind-mounts that descriptor (`/proc/self/fd/N`) onto a mount point of podrun's
//!    own, `<pod dir>/volume-subpaths/<volume>/<container>/<mount index>` (the kubelet's
//!    layout), and that is the path the engine gets: no container can reach anything on it.
//! 3. [`remove`] unmounts and removes the mount points when the pod's volumes go, without ever
//!    removing recursively, so a mount point left mounted cannot lead a removal into a volume.

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use rustix::mount::UnmountFlags;

use crate::pod::files::VOLUME_SUBPATHS;

/// The mode podrun's own directories under `volume-subpaths` get (the pod directory above is
/// 0700 already).
const MOUNT_POINT_DIR_MODE: u32 = 0o700;
/// How many mounts stacked on one mount point are taken off before podrun gives up on it.
const MAX_STACKED: usize = 16;

/// Where in a sub-path something is wrong: its components up to the one at fault, or only that
/// component's number when the sub-path must not be shown (a subPathExpr's expansion may hold
/// a Secret's value, through the environment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    shown: Option<PathBuf>,
    component: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.shown {
            Some(p) => write!(f, "{:?}", p.display().to_string()),
            None => write!(f, "component {} of the expanded sub-path", self.component),
        }
    }
}

/// Why a sub-path could not be opened inside its volume or mounted. The mount's field is named
/// by the `VolumeError` this becomes the cause of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubPathError {
    #[error("cannot open the volume's directory {}", .path.display())]
    Base {
        path: PathBuf,
        #[source]
        cause: Errno,
    },
    #[error("{} is not a directory, so it has no sub-path", .0.display())]
    BaseNotDirectory(PathBuf),
    #[error("{0} leads out of the volume")]
    Outside(Place),
    #[error("{0} is a symbolic link, and a sub-path is never followed through one: it must stay inside its volume")]
    Link(Place),
    #[error("{0} is not a directory")]
    NotDirectory(Place),
    #[error("cannot create {at}")]
    Create {
        at: Place,
        #[source]
        cause: Errno,
    },
    #[error("cannot open {at}")]
    Open {
        at: Place,
        #[source]
        cause: Errno,
    },
    #[error("cannot make the mount point {}", .path.display())]
    MountPoint {
        path: PathBuf,
        #[source]
        cause: Errno,
    },
    #[error("cannot bind-mount the sub-path onto {}", .path.display())]
    Bind {
        path: PathBuf,
        #[source]
        cause: Errno,
    },
    #[error("cannot bind-mount the sub-path onto {}: it was removed meanwhile", .path.display())]
    Removed {
        path: PathBuf,
        #[source]
        cause: Errno,
    },
    #[error(
        "cannot bind-mount the sub-path onto {}: podrun mounts every sub-path itself, so that no container can \
         swap it for a symbolic link, and that takes root",
        .path.display()
    )]
    BindNotPermitted {
        path: PathBuf,
        #[source]
        cause: Errno,
    },
    #[error("{} does not show the sub-path after it was mounted there", .0.display())]
    NotMounted(PathBuf),
    #[error(
        "podrun mounts every sub-path itself, so that no container can swap it for a symbolic link, and that takes \
         root (podrun runs as uid {0})"
    )]
    NotRoot(u32),
}

/// What a sub-path names, opened inside its volume.
#[derive(Debug)]
pub(super) struct Opened {
    fd: OwnedFd,
    dev: u64,
    ino: u64,
    dir: bool,
}

/// Opens `rel` inside the directory `base`, creating a missing directory with the mode of
/// `base` (as the kubelet does); the last component may be anything but a symbolic link.
/// `show`: whether errors may show the sub-path (see [`Place`]). `base` itself is podrun's own
/// directory or the manifest's hostPath, which may be a symbolic link.
pub(super) fn open(base: &Path, rel: &Path, show: bool) -> Result<Opened, SubPathError> {
    // A walk that creates what is missing ends at what it made, so `None` is only a guard.
    walk(base, rel, true, show)?.ok_or_else(|| SubPathError::Open {
        at: Place { shown: show.then(|| rel.to_path_buf()), component: rel.components().count() },
        cause: Errno::NOENT,
    })
}

/// Checks what of `rel` exists inside `base` as [`open`] would, creating nothing: a missing
/// component is fine (it will be created), a symbolic link or a file on the way is not. And
/// that podrun may mount it: without root, [`bind`] would fail once containers exist.
pub(super) fn check(base: &Path, rel: &Path, show: bool) -> Result<(), SubPathError> {
    let me = rustix::process::geteuid();
    if !me.is_root() {
        return Err(SubPathError::NotRoot(me.as_raw()));
    }
    walk(base, rel, false, show).map(drop)
}

fn walk(base: &Path, rel: &Path, create: bool, show: bool) -> Result<Option<Opened>, SubPathError> {
    let base_err = |cause: Errno| match cause {
        Errno::NOTDIR => SubPathError::BaseNotDirectory(base.to_path_buf()),
        cause => SubPathError::Base { path: base.to_path_buf(), cause },
    };
    let fd =
        rustix::fs::open(base, OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty()).map_err(base_err)?;
    let st = rustix::fs::fstat(&fd).map_err(base_err)?;
    let mode = Mode::from_raw_mode(st.st_mode & 0o7777);
    let mut cur = Opened { fd, dev: st.st_dev, ino: st.st_ino, dir: true };
    let comps: Vec<Component> = rel.components().filter(|c| *c != Component::CurDir).collect();
    for (i, comp) in comps.iter().enumerate() {
        let at = || Place { shown: show.then(|| comps[..=i].iter().collect()), component: i + 1 };
        // Each name is one component opened in its parent: `..` or a root would leave it.
        let Component::Normal(name) = comp else { return Err(SubPathError::Outside(at())) };
        let last = i + 1 == comps.len();
        let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let flags = if last { flags } else { flags | OFlags::DIRECTORY };
        let fd = match rustix::fs::openat(&cur.fd, *name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::NOENT) if create => make_dir(&cur.fd, name, mode, &at)?,
            Err(Errno::NOENT) => return Ok(None),
            Err(Errno::NOTDIR | Errno::LOOP) => return Err(not_a_dir(&cur.fd, name, at())),
            Err(cause) => return Err(SubPathError::Open { at: at(), cause }),
        };
        let st = rustix::fs::fstat(&fd).map_err(|cause| SubPathError::Open { at: at(), cause })?;
        let dir = match FileType::from_raw_mode(st.st_mode) {
            // O_PATH with O_NOFOLLOW opens a link itself, rather than failing.
            FileType::Symlink => return Err(SubPathError::Link(at())),
            FileType::Directory => true,
            _ if last => false,
            _ => return Err(SubPathError::NotDirectory(at())),
        };
        cur = Opened { fd, dev: st.st_dev, ino: st.st_ino, dir };
    }
    Ok(Some(cur))
}

/// Makes the directory `name` in `parent` and opens it without following a link: if someone
/// made it, or swapped it for a link, meanwhile, what is there is checked like anything else.
fn make_dir(parent: &OwnedFd, name: &OsStr, mode: Mode, at: &dyn Fn() -> Place) -> Result<OwnedFd, SubPathError> {
    // 0700 until its mode is set, so nobody else has it meanwhile, whatever the umask.
    let made = match rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(0o700)) {
        Ok(()) => true,
        Err(Errno::EXIST) => false,
        Err(cause) => return Err(SubPathError::Create { at: at(), cause }),
    };
    let fd = match rustix::fs::openat(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::NOTDIR | Errno::LOOP) => return Err(not_a_dir(parent, name, at())),
        Err(cause) => return Err(SubPathError::Open { at: at(), cause }),
    };
    if made {
        rustix::fs::fchmod(&fd, mode).map_err(|cause| SubPathError::Create { at: at(), cause })?;
    }
    Ok(fd)
}

/// Why `name` in `parent` could not be opened as a directory: a link or something else.
fn not_a_dir(parent: &OwnedFd, name: &OsStr, at: Place) -> SubPathError {
    match rustix::fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => SubPathError::Link(at),
        _ => SubPathError::NotDirectory(at),
    }
}

/// Bind-mounts `src` onto its mount point, `<pod_dir>/volume-subpaths/<volume>/<container>/<index>`,
/// made as a directory or a file as `src` is, and returns that path for the engine. A mount
/// already there of the very same file is kept (a re-apply, a start of a created container);
/// anything else there is unmounted first. `pod_dir` is podrun's private directory, made by
/// `prepare`.
pub(super) fn bind(
    src: &Opened,
    pod_dir: &Path,
    volume: &str,
    container: &str,
    index: usize,
) -> Result<PathBuf, SubPathError> {
    let mut path = pod_dir.to_path_buf();
    let point_err = |path: &Path| {
        let path = path.to_path_buf();
        move |cause| SubPathError::MountPoint { path, cause }
    };
    let mut dir = rustix::fs::open(pod_dir, OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())
        .map_err(point_err(&path))?;
    for part in [VOLUME_SUBPATHS, volume, container] {
        path.push(part);
        dir = own_dir(&dir, part).map_err(point_err(&path))?;
    }
    let name = index.to_string();
    path.push(&name);
    // Through the parent's descriptor: nothing on the way is looked up again.
    let at_parent = format!("/proc/self/fd/{}/{name}", dir.as_raw_fd());
    let same = |st: &rustix::fs::Stat| (st.st_dev, st.st_ino) == (src.dev, src.ino);
    let mut stacked = 0;
    loop {
        match rustix::fs::statat(&dir, name.as_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) if same(&st) => return Ok(path),
            Ok(_) => match rustix::mount::unmount(at_parent.as_str(), UnmountFlags::DETACH | UnmountFlags::NOFOLLOW) {
                Ok(()) if stacked < MAX_STACKED => stacked += 1,
                Ok(()) => return Err(SubPathError::MountPoint { path, cause: Errno::BUSY }),
                // Not a mount point: podrun's own empty file or directory.
                Err(Errno::INVAL) => break,
                Err(cause) => return Err(SubPathError::MountPoint { path, cause }),
            },
            Err(Errno::NOENT) => break,
            Err(cause) => return Err(SubPathError::MountPoint { path, cause }),
        }
    }
    let target = mount_point(&dir, &name, src.dir).map_err(point_err(&path))?;
    let source = format!("/proc/self/fd/{}", src.fd.as_raw_fd());
    let onto = format!("/proc/self/fd/{}", target.as_raw_fd());
    // Not recursive, as the kubelet's: what is mounted below the sub-path on the host stays
    // there. The mount's propagation is the volume's: HostToContainer and Bidirectional need a
    // shared or slave source, as for a mount without a sub-path.
    rustix::mount::mount_bind(source.as_str(), onto.as_str()).map_err(|cause| match cause {
        Errno::PERM | Errno::ACCESS => SubPathError::BindNotPermitted { path: path.clone(), cause },
        // The opened directory was removed (a container may remove what is in its volume).
        Errno::NOENT => SubPathError::Removed { path: path.clone(), cause },
        cause => SubPathError::Bind { path: path.clone(), cause },
    })?;
    match rustix::fs::statat(&dir, name.as_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) if same(&st) => Ok(path),
        _ => Err(SubPathError::NotMounted(path)),
    }
}

/// Opens (making it, 0700, when missing) podrun's directory `name` in `parent`, never through a
/// link.
fn own_dir(parent: &OwnedFd, name: &str) -> rustix::io::Result<OwnedFd> {
    match rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(MOUNT_POINT_DIR_MODE)) {
        Ok(()) | Err(Errno::EXIST) => {}
        Err(e) => return Err(e),
    }
    rustix::fs::openat(
        parent,
        name,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// The mount point `name` in `dir`, unmounted: an empty directory for a directory, an empty
/// file for anything else (a bind mount joins two directories or two non-directories). One of
/// the wrong type, left by a sub-path that changed type, is replaced.
fn mount_point(dir: &OwnedFd, name: &str, want_dir: bool) -> rustix::io::Result<OwnedFd> {
    let found = match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Some(FileType::from_raw_mode(st.st_mode)),
        Err(Errno::NOENT) => None,
        Err(e) => return Err(e),
    };
    let fits = |t: FileType| if want_dir { t == FileType::Directory } else { t == FileType::RegularFile };
    match found {
        Some(t) if fits(t) => {}
        found => {
            if let Some(t) = found {
                let flags = if t == FileType::Directory { AtFlags::REMOVEDIR } else { AtFlags::empty() };
                rustix::fs::unlinkat(dir, name, flags)?;
            }
            if want_dir {
                rustix::fs::mkdirat(dir, name, Mode::from_raw_mode(MOUNT_POINT_DIR_MODE))?;
            } else {
                let flags = OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                drop(rustix::fs::openat(dir, name, flags, Mode::from_raw_mode(0o600))?);
            }
        }
    }
    let fd = rustix::fs::openat(dir, name, OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC, Mode::empty())?;
    let t = FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode);
    if fits(t) {
        Ok(fd)
    } else {
        Err(Errno::EXIST)
    }
}

/// Unmounts and removes every sub-path mount point under `pod_dir`. Never recursive: a
/// directory is removed only once empty, so a mount point that could not be unmounted stays,
/// with what it shows. Best effort, as a delete must not fail over it; a warning names what
/// stays. Returns whether nothing is left.
pub fn remove(pod_dir: &Path) -> bool {
    let root = pod_dir.join(VOLUME_SUBPATHS);
    match fs::symlink_metadata(&root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
        Ok(md) if md.is_dir() => {}
        // Not podrun's: whatever it is, it is not followed.
        _ => return removed(&root, fs::remove_file(&root)),
    }
    let mut clean = true;
    for volume in subdirs(&root, &mut clean) {
        for container in subdirs(&volume, &mut clean) {
            for point in entries(&container, &mut clean) {
                clean &= remove_point(&point);
            }
            clean &= removed(&container, fs::remove_dir(&container));
        }
        clean &= removed(&volume, fs::remove_dir(&volume));
    }
    clean && removed(&root, fs::remove_dir(&root))
}

/// The directories in `dir` (podrun's own); anything else there is removed, unfollowed.
fn subdirs(dir: &Path, clean: &mut bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in entries(dir, clean) {
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            out.push(path);
        } else {
            *clean &= removed(&path, fs::remove_file(&path));
        }
    }
    out
}

fn entries(dir: &Path, clean: &mut bool) -> Vec<PathBuf> {
    match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(e) => {
            *clean &= removed(dir, Err(e));
            Vec::new()
        }
    }
}

/// Takes every mount off `point`, then removes it.
fn remove_point(point: &Path) -> bool {
    for _ in 0..MAX_STACKED {
        match rustix::mount::unmount(point, UnmountFlags::DETACH | UnmountFlags::NOFOLLOW) {
            Ok(()) => {}
            Err(Errno::INVAL) => break,
            Err(Errno::NOENT) => return true,
            Err(e) => return removed(point, Err(e.into())),
        }
    }
    let result = match fs::symlink_metadata(point) {
        Ok(md) if md.is_dir() => fs::remove_dir(point),
        Ok(_) => fs::remove_file(point),
        Err(e) => Err(e),
    };
    removed(point, result)
}

fn removed(path: &Path, result: io::Result<()>) -> bool {
    match result {
        Ok(()) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => true,
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "could not remove a sub-path mount point");
            false
        }
    }
}

#[cfg(test)]
mod tests;
