//! A Files volume (configMap, secret, downwardAPI, projected) on the host in the layout of the
//! kubelet's atomic writer (pkg/volume/util/atomic_writer.go), so a re-apply changes all of a
//! volume's files at once: the files live in a data directory of their own,
//! `..<UTC time>.<content hash>` (named as on the engine, see `engine`), `..data` is a link to
//! it, replaced by renaming a new link over it, and each top-level name is a link into it
//! (`key -> ..data/key`). A subPath mount of such a volume is of the file in the data
//! directory of the time (see `VolumeSetup::mount`), so it keeps its content, as on a node.
//!
//! The volume's directory is podrun's, under its private pod directory, and mounted read-only
//! into containers; everything is still looked at without following links.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

use rustix::io::Errno;

use super::{ensure_dir, group_error, is_others_temporary, HostError, TEMPORARY};
use crate::pod::volumes::VolumeFile;

/// The link to the current data directory.
pub(super) const DATA_LINK: &str = "..data";

/// Writes `files` into `dir` in the atomic writer's layout, `data` naming their data
/// directory (`..<time>.<hash>`). A volume whose `..data` already links to a directory of the
/// same hash is left as it is; what the volume no longer holds (old data directories, links of
/// keys that are gone, the plain files of an older podrun) is removed.
pub(super) fn write(
    dir: &Path,
    files: &[VolumeFile],
    data: &str,
    dir_mode: u32,
    file_bits: u32,
    group: Option<u32>,
) -> Result<(), HostError> {
    ensure_dir(dir, dir_mode, group)?;
    let hash = data.rsplit_once('.').map_or(data, |(_, h)| h);
    let current = current_data(dir).filter(|c| same_hash(c, hash) && is_real_dir(&dir.join(c)));
    let current = match current {
        Some(c) => c,
        None => {
            let made = make_data(dir, files, data, dir_mode, file_bits, group)?;
            swap(dir, &made)?;
            made
        }
    };
    let tops = top_names(files);
    for t in &tops {
        link_top(dir, t)?;
    }
    remove_stale(dir, &current, hash, &tops)
}

/// The data directory `..data` links to, when it is a link to a name of podrun's kind.
pub(in crate::pod::volumes) fn current_data(dir: &Path) -> Option<OsString> {
    let target = fs::read_link(dir.join(DATA_LINK)).ok()?;
    let mut parts = target.components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(name)), None) if name.as_encoded_bytes().starts_with(b"..") => Some(name.to_owned()),
        _ => None,
    }
}

fn same_hash(name: &OsStr, hash: &str) -> bool {
    name.to_str().and_then(|n| n.rsplit_once('.')).is_some_and(|(_, h)| h == hash)
}

fn is_real_dir(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
}

/// A temporary name of this run's in `dir`, told apart from another podrun's by the pid.
fn temporary(dir: &Path, what: &str) -> PathBuf {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.join(format!("{TEMPORARY}{}-{n}-{what}", std::process::id()))
}

/// Makes the data directory `data` with the files, built under a temporary name and renamed
/// into place; returns its name. One of that name already there (another podrun writing the
/// same content in the same second) is used instead.
fn make_data(
    dir: &Path,
    files: &[VolumeFile],
    data: &str,
    dir_mode: u32,
    file_bits: u32,
    group: Option<u32>,
) -> Result<OsString, HostError> {
    let tmp = temporary(dir, "data");
    let built = build(&tmp, files, dir_mode, file_bits, group);
    let placed = built.and_then(|()| {
        fs::rename(&tmp, dir.join(data)).or_else(|e| {
            let taken = [Errno::EXIST, Errno::NOTEMPTY].iter().any(|n| e.raw_os_error() == Some(n.raw_os_error()));
            if taken && is_real_dir(&dir.join(data)) {
                Ok(())
            } else {
                Err(HostError::Write { path: dir.join(data), source: e })
            }
        })
    });
    if tmp.exists() {
        let _ = fs::remove_dir_all(&tmp);
    }
    placed.map(|()| OsString::from(data))
}

fn build(
    root: &Path,
    files: &[VolumeFile],
    dir_mode: u32,
    file_bits: u32,
    group: Option<u32>,
) -> Result<(), HostError> {
    fs::DirBuilder::new().mode(0o700).create(root).map_err(|source| HostError::Create { path: root.into(), source })?;
    ensure_dir(root, dir_mode, group)?;
    let dirs: BTreeSet<&Path> =
        files.iter().flat_map(|f| f.path.ancestors().skip(1)).filter(|a| !a.as_os_str().is_empty()).collect();
    // Parents sort before their children, so each directory's parent exists.
    for d in dirs {
        ensure_dir(&root.join(d), dir_mode, group)?;
    }
    for f in files {
        write_new(&root.join(&f.path), &f.content, f.mode | file_bits, group)?;
    }
    Ok(())
}

/// Writes a new file (`create_new`: O_EXCL, so nothing already there is followed).
fn write_new(path: &Path, content: &[u8], mode: u32, group: Option<u32>) -> Result<(), HostError> {
    let write = || -> io::Result<()> {
        let mut f = fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
        f.write_all(content)?;
        if let Some(g) = group {
            std::os::unix::fs::fchown(&f, None, Some(g))?;
        }
        f.set_permissions(fs::Permissions::from_mode(mode))?;
        f.sync_all()
    };
    write().map_err(|e| match group {
        Some(g) if e.kind() == io::ErrorKind::PermissionDenied => group_error(path, g, e),
        _ => HostError::Write { path: path.to_path_buf(), source: e },
    })
}

/// Points `name` in `dir` at `target` by renaming a new link over it: a reader finds the old
/// link or the new one, never none. A directory there (an older podrun's plain layout) goes
/// first.
fn replace_link(dir: &Path, name: &OsStr, target: &Path) -> Result<(), HostError> {
    let path = dir.join(name);
    if is_real_dir(&path) {
        fs::remove_dir_all(&path).map_err(|source| HostError::Remove { path: path.clone(), source })?;
    }
    let tmp = temporary(dir, "link");
    let made = std::os::unix::fs::symlink(target, &tmp).and_then(|()| fs::rename(&tmp, &path));
    made.map_err(|source| {
        let _ = fs::remove_file(&tmp);
        HostError::Write { path, source }
    })
}

fn swap(dir: &Path, data: &OsStr) -> Result<(), HostError> {
    replace_link(dir, OsStr::new(DATA_LINK), Path::new(data))
}

/// The first names of the files' paths: one link each.
fn top_names(files: &[VolumeFile]) -> BTreeSet<OsString> {
    files
        .iter()
        .filter_map(|f| match f.path.components().next() {
            Some(Component::Normal(n)) => Some(n.to_owned()),
            _ => None,
        })
        .collect()
}

fn link_top(dir: &Path, name: &OsStr) -> Result<(), HostError> {
    let target = Path::new(DATA_LINK).join(name);
    if fs::read_link(dir.join(name)).is_ok_and(|t| t == target) {
        return Ok(());
    }
    replace_link(dir, name, &target)
}

/// Removes what the volume no longer holds: every entry but `..data`, the data directory in
/// use (and any of the same content another podrun may be swapping to), the top-level links,
/// and another running podrun's temporary names. Nothing is followed.
fn remove_stale(dir: &Path, current: &OsStr, hash: &str, tops: &BTreeSet<OsString>) -> Result<(), HostError> {
    let entries = fs::read_dir(dir).map_err(|source| HostError::Io { path: dir.to_path_buf(), source })?;
    for entry in entries {
        let entry = entry.map_err(|source| HostError::Io { path: dir.to_path_buf(), source })?;
        let name = entry.file_name();
        let keep = name == DATA_LINK
            || name == current
            || tops.contains(&name)
            || is_others_temporary(&name)
            || (name.as_encoded_bytes().starts_with(b"..") && same_hash(&name, hash));
        if keep {
            continue;
        }
        let result =
            if is_real_dir(&entry.path()) { fs::remove_dir_all(entry.path()) } else { fs::remove_file(entry.path()) };
        match result {
            // Another podrun writing the same volume removed it first.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            r => r.map_err(|source| HostError::Remove { path: entry.path(), source })?,
        }
    }
    Ok(())
}
