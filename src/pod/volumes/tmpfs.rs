//! Memory emptyDirs as the kubelet makes them (`setupTmpfs`): a tmpfs of the volume's size
//! mounted on its directory, which the pod's containers share through their bind mounts of it,
//! and unmounted when the pod's volumes go. Mounting takes root; see `VolumeSetup::warnings`
//! for podrun run by an ordinary user.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;
use rustix::mount::{MountFlags, UnmountFlags};

use super::HostError;

/// The mode of a fresh tmpfs's root, which the kubelet's Memory emptyDir keeps: anyone may
/// write, only the owner of a file may remove it.
const TMPFS_ROOT_MODE: u32 = 0o1777;

/// How many mounts stacked on one directory removal takes off before it gives up.
const MAX_STACKED: usize = 8;

/// Mounts a tmpfs of `size` bytes (none: the kernel's default) on `name` in `parent`, podrun's
/// private directory for the pod on /dev/shm (checked, mode 0700), making the directory first.
/// Through descriptors opened without following links, so nothing on the way is looked up
/// again. A directory already there is kept as it is: a tmpfs mounted by an earlier apply, or
/// the plain directory an older podrun made, which running containers may be using.
pub(super) fn ensure(parent: &Path, name: &str, size: Option<u64>) -> Result<(), HostError> {
    let path = parent.join(name);
    let io_err = |source: Errno| HostError::Io { path: path.clone(), source: source.into() };
    let dir =
        rustix::fs::open(parent, OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC, Mode::empty())
            .map_err(io_err)?;
    match rustix::fs::mkdirat(&dir, name, Mode::from_raw_mode(0o700)) {
        Ok(()) => {}
        Err(Errno::EXIST) => {
            if is_mount_point(&dir, name).map_err(io_err)? {
                return Ok(());
            }
            tracing::warn!(dir = %path.display(), "a Memory emptyDir made before podrun mounted tmpfs: kept, unsized");
            return Ok(());
        }
        Err(source) => return Err(HostError::Create { path: path.clone(), source: source.into() }),
    }
    let target = rustix::fs::openat(
        &dir,
        name,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io_err)?;
    let mut options = format!("mode={TMPFS_ROOT_MODE:o}");
    if let Some(size) = size {
        options.push_str(&format!(",size={size}"));
    }
    let options = std::ffi::CString::new(options).map_err(|_| io_err(Errno::INVAL))?;
    let onto = format!("/proc/self/fd/{}", target.as_raw_fd());
    // nosuid and nodev, as /dev/shm itself, where these volumes used to be plain directories.
    let mounted = rustix::mount::mount(
        "tmpfs",
        onto.as_str(),
        "tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        options.as_c_str(),
    );
    if let Err(cause) = mounted {
        // Made here and empty: removed, so the next apply tries again.
        let _ = rustix::fs::unlinkat(&dir, name, AtFlags::REMOVEDIR);
        return Err(HostError::Tmpfs { path, source: cause.into() });
    }
    Ok(())
}

/// Whether `name` in `dir` is the root of a mount: on another device than its parent.
fn is_mount_point(dir: &OwnedFd, name: &str) -> Result<bool, Errno> {
    let here = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    let parent = rustix::fs::fstat(dir)?;
    Ok(rustix::fs::FileType::from_raw_mode(here.st_mode) == rustix::fs::FileType::Directory
        && here.st_dev != parent.st_dev)
}

/// Unmounts whatever is mounted on the entries of `dir` (the pod's directory on /dev/shm), so
/// its removal afterwards removes plain directories. Best effort, as a delete must not fail
/// over it; what cannot be unmounted is said.
pub(super) fn unmount_all(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        for _ in 0..MAX_STACKED {
            match rustix::mount::unmount(&path, UnmountFlags::DETACH | UnmountFlags::NOFOLLOW) {
                Ok(()) => {}
                // Not (or no longer) a mount point.
                Err(Errno::INVAL | Errno::NOENT) => break,
                Err(e) => {
                    let error = io::Error::from(e);
                    tracing::warn!(dir = %path.display(), %error, "could not unmount a Memory emptyDir's tmpfs");
                    break;
                }
            }
        }
    }
}
