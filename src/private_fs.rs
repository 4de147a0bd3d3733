//! podrun's own files on the host, opened so that nobody else's can stand in for them.
//!
//! podrun runs as root and keeps its state (the ownership key, pod records, termination-log
//! files, /etc/hosts files, volume files) in a directory of its own. Anything another user could
//! have made first, or linked, would let that user steer root's writes: so the state directory
//! is checked (every component a real directory of root's or podrun's user's, none writable by
//! others unless sticky; the directory itself podrun's user's and 0700), and every file in it is
//! opened without following a link, without blocking (a FIFO must not hang podrun), must be a
//! regular file, and is read with a bound.

use std::fs;
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Why a directory or file is not podrun's to use. The message names the path.
#[derive(Debug, thiserror::Error)]
pub enum PrivateFsError {
    #[error("{}: {what}", crate::escape::Escaped(path.display()))]
    Io {
        path: PathBuf,
        what: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("refusing {}: it belongs to uid {owner}, not to root or podrun's user (uid {me})", crate::escape::Escaped(path.display()))]
    Foreign { path: PathBuf, owner: u32, me: u32 },
    #[error("refusing {}: it is writable by other users (mode {mode:04o}) and not sticky", crate::escape::Escaped(path.display()))]
    Writable { path: PathBuf, mode: u32 },
    #[error("refusing {}: it is a {found}, not a {wanted}", crate::escape::Escaped(path.display()))]
    WrongType { path: PathBuf, found: &'static str, wanted: &'static str },
    #[error("{}: not an absolute path", crate::escape::Escaped(path.display()))]
    Relative { path: PathBuf },
}

fn io_error<'a>(path: &'a Path, what: &'static str) -> impl FnOnce(io::Error) -> PrivateFsError + 'a {
    move |source| PrivateFsError::Io { path: path.to_path_buf(), what, source }
}

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

fn kind(md: &fs::Metadata) -> &'static str {
    let t = md.file_type();
    if t.is_symlink() {
        "symbolic link"
    } else if t.is_dir() {
        "directory"
    } else if t.is_file() {
        "regular file"
    } else {
        "special file"
    }
}

/// An ancestor podrun may trust: root's or its own user's, and not writable by anyone else
/// (unless sticky, as /tmp is, where others cannot rename or remove what they do not own).
fn check_ancestor(path: &Path, md: &fs::Metadata) -> Result<(), PrivateFsError> {
    let me = euid();
    if !md.is_dir() {
        return Err(PrivateFsError::WrongType { path: path.to_path_buf(), found: kind(md), wanted: "directory" });
    }
    if md.uid() != 0 && md.uid() != me {
        return Err(PrivateFsError::Foreign { path: path.to_path_buf(), owner: md.uid(), me });
    }
    let mode = md.permissions().mode() & 0o7777;
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(PrivateFsError::Writable { path: path.to_path_buf(), mode });
    }
    Ok(())
}

/// Makes `dir` podrun's private directory and returns its real path (links resolved, so
/// what was checked is what is used): missing components are created 0700; every component
/// must pass [`check_ancestor`], and `dir` itself must be podrun's user's, and is made 0700.
/// A link anywhere in `dir` is followed only to check where it leads, and the checked real
/// path is returned: a link someone else may retarget later is never used again.
pub fn ensure_private_dir(dir: &Path) -> Result<PathBuf, PrivateFsError> {
    if !dir.is_absolute() {
        return Err(PrivateFsError::Relative { path: dir.to_path_buf() });
    }
    match fs::DirBuilder::new().recursive(true).mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) => return Err(io_error(dir, "cannot create it")(e)),
    }
    let real = fs::canonicalize(dir).map_err(io_error(dir, "cannot resolve it"))?;
    let mut cur = PathBuf::new();
    for comp in real.components() {
        cur.push(comp);
        let md = fs::symlink_metadata(&cur).map_err(io_error(&cur, "cannot look at it"))?;
        check_ancestor(&cur, &md)?;
    }
    let md = fs::symlink_metadata(&real).map_err(io_error(&real, "cannot look at it"))?;
    let me = euid();
    if md.uid() != me {
        return Err(PrivateFsError::Foreign { path: real, owner: md.uid(), me });
    }
    if md.permissions().mode() & 0o7777 != 0o700 {
        fs::set_permissions(&real, fs::Permissions::from_mode(0o700))
            .map_err(io_error(&real, "cannot set its mode"))?;
    }
    Ok(real)
}

/// Makes `dir`, inside a directory already checked by [`ensure_private_dir`] (or made by this),
/// a directory of podrun's user's with mode 0700: never a link, never someone else's.
pub fn private_subdir(dir: &Path) -> Result<(), PrivateFsError> {
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io_error(dir, "cannot create it")(e)),
    }
    let md = fs::symlink_metadata(dir).map_err(io_error(dir, "cannot look at it"))?;
    if !md.is_dir() {
        return Err(PrivateFsError::WrongType { path: dir.to_path_buf(), found: kind(&md), wanted: "directory" });
    }
    let me = euid();
    if md.uid() != me {
        return Err(PrivateFsError::Foreign { path: dir.to_path_buf(), owner: md.uid(), me });
    }
    if md.permissions().mode() & 0o7777 != 0o700 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io_error(dir, "cannot set its mode"))?;
    }
    Ok(())
}

fn no_follow() -> i32 {
    (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32
}

/// Opens `path` for reading: not through a link, not blocking on a FIFO, and only a regular
/// file. `None` when there is no such file.
fn open_regular(path: &Path) -> Result<Option<fs::File>, PrivateFsError> {
    let f = match fs::OpenOptions::new().read(true).custom_flags(no_follow()).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        // ELOOP: the last component is a link.
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
            return Err(PrivateFsError::WrongType {
                path: path.to_path_buf(),
                found: "symbolic link",
                wanted: "regular file",
            })
        }
        Err(e) => return Err(io_error(path, "cannot open it")(e)),
    };
    let md = f.metadata().map_err(io_error(path, "cannot look at it"))?;
    if !md.is_file() {
        return Err(PrivateFsError::WrongType { path: path.to_path_buf(), found: kind(&md), wanted: "regular file" });
    }
    Ok(Some(f))
}

/// The regular file `path`, opened for reading as [`read_head`] opens it (for a lock, say);
/// `None` when it does not exist.
pub fn open_existing(path: &Path) -> Result<Option<fs::File>, PrivateFsError> {
    open_regular(path)
}

/// At most the first `limit` bytes of the regular file `path`; `None` when it does not exist.
pub fn read_head(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, PrivateFsError> {
    let Some(f) = open_regular(path)? else { return Ok(None) };
    let mut buf = Vec::new();
    f.take(limit).read_to_end(&mut buf).map_err(io_error(path, "cannot read it"))?;
    Ok(Some(buf))
}

/// At most the last `limit` bytes of the regular file `path` (as the kubelet reads a
/// termination message, `tail.ReadAtMost`); `None` when it does not exist.
pub fn read_tail(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, PrivateFsError> {
    let Some(mut f) = open_regular(path)? else { return Ok(None) };
    let len = f.metadata().map_err(io_error(path, "cannot look at it"))?.len();
    f.seek(io::SeekFrom::Start(len.saturating_sub(limit))).map_err(io_error(path, "cannot read it"))?;
    let mut buf = Vec::new();
    f.take(limit).read_to_end(&mut buf).map_err(io_error(path, "cannot read it"))?;
    Ok(Some(buf))
}

/// Creates (or empties) the regular file `path` with `mode`, never through a link and never a
/// FIFO or device someone left there; the mode is set on the open file, so it reaches only it.
pub fn create_file(path: &Path, mode: u32) -> Result<fs::File, PrivateFsError> {
    let f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(mode)
        .custom_flags(no_follow())
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
                PrivateFsError::WrongType { path: path.to_path_buf(), found: "symbolic link", wanted: "regular file" }
            } else {
                io_error(path, "cannot create it")(e)
            }
        })?;
    let md = f.metadata().map_err(io_error(path, "cannot look at it"))?;
    if !md.is_file() {
        return Err(PrivateFsError::WrongType { path: path.to_path_buf(), found: kind(&md), wanted: "regular file" });
    }
    f.set_len(0).map_err(io_error(path, "cannot empty it"))?;
    f.set_permissions(fs::Permissions::from_mode(mode)).map_err(io_error(path, "cannot set its mode"))?;
    Ok(f)
}

/// A fresh name beside `path` for a file being written, unique to this process and call:
/// `.NAME.PID.N`, so a concurrent podrun never writes (or removes) another's file.
fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.{n}", std::process::id()))
}

/// Writes `content` to a new temporary file beside `path` that only this call creates
/// (`O_EXCL`), with `mode`, and returns its name; nothing is left when it fails.
fn write_temp(path: &Path, content: &[u8], mode: u32) -> Result<PathBuf, PrivateFsError> {
    let tmp = temp_beside(path);
    let write = || -> Result<(), PrivateFsError> {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(no_follow())
            .open(&tmp)
            .map_err(io_error(&tmp, "cannot create it"))?;
        f.set_permissions(fs::Permissions::from_mode(mode)).map_err(io_error(&tmp, "cannot set its mode"))?;
        f.write_all(content).and_then(|()| f.sync_all()).map_err(io_error(&tmp, "cannot write it"))
    };
    match write() {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Replaces `path` with `content` at once (a reader sees the old or the new file).
pub fn replace_file(path: &Path, content: &[u8], mode: u32) -> Result<(), PrivateFsError> {
    let tmp = write_temp(path, content, mode)?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_error(path, "cannot replace it")(e)
    })
}

/// Creates `path` with `content` and `mode` only if it does not exist yet, and returns what the
/// file holds then (this call's content, or a concurrent creator's): the file appears whole, as
/// a hard link to a finished temporary file.
pub fn create_once(path: &Path, content: &[u8], mode: u32, limit: u64) -> Result<Vec<u8>, PrivateFsError> {
    if let Some(existing) = read_head(path, limit)? {
        return Ok(existing);
    }
    let tmp = write_temp(path, content, mode)?;
    let linked = match fs::hard_link(&tmp, path) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(io_error(path, "cannot create it")(e)),
        _ => Ok(()),
    };
    let _ = fs::remove_file(&tmp);
    linked?;
    read_head(path, limit)?.ok_or_else(|| {
        io_error(path, "cannot read it")(io::Error::new(io::ErrorKind::NotFound, "gone as soon as it was made"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("podrun-private-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_missing_directory_is_made_private_and_an_open_one_is_closed() {
        let d = scratch("made");
        let state = d.join("a/b/state");
        let real = ensure_private_dir(&state).unwrap();
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o700);
        fs::set_permissions(&real, fs::Permissions::from_mode(0o755)).unwrap();
        ensure_private_dir(&state).unwrap();
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o700);
        assert!(matches!(ensure_private_dir(Path::new("rel")), Err(PrivateFsError::Relative { .. })));
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_world_writable_ancestor_is_refused_and_a_link_resolves_to_what_was_checked() {
        let d = scratch("writable");
        let open = d.join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let e = ensure_private_dir(&open.join("state")).unwrap_err();
        assert!(matches!(e, PrivateFsError::Writable { .. }), "{e}");
        assert!(e.to_string().contains("open"), "{e}");
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).unwrap();
        ensure_private_dir(&open.join("state")).unwrap();
        let link = d.join("link");
        symlink(open.join("state"), &link).unwrap();
        assert_eq!(ensure_private_dir(&link).unwrap(), fs::canonicalize(open.join("state")).unwrap());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn links_fifos_and_directories_are_never_opened_as_files() {
        let d = scratch("files");
        let canary = d.join("canary");
        fs::write(&canary, "keep").unwrap();
        fs::set_permissions(&canary, fs::Permissions::from_mode(0o600)).unwrap();
        let link = d.join("record.json");
        symlink(&canary, &link).unwrap();
        assert!(matches!(read_head(&link, 10), Err(PrivateFsError::WrongType { found: "symbolic link", .. })));
        assert!(matches!(create_file(&link, 0o666), Err(PrivateFsError::WrongType { .. })));
        assert_eq!(fs::read_to_string(&canary).unwrap(), "keep");
        assert_eq!(fs::metadata(&canary).unwrap().permissions().mode() & 0o777, 0o600);
        let fifo = d.join("fifo");
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::from(0o600), 0)
            .unwrap();
        assert!(matches!(read_tail(&fifo, 10), Err(PrivateFsError::WrongType { found: "special file", .. })));
        // Opened for writing without a reader, a FIFO fails at once (ENXIO) rather than wait.
        assert!(create_file(&fifo, 0o666).is_err());
        assert!(matches!(read_head(&d, 10), Err(PrivateFsError::WrongType { found: "directory", .. })));
        assert_eq!(read_head(&d.join("none"), 10).unwrap(), None);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn reads_are_bounded_and_writes_whole() {
        let d = scratch("bounded");
        let f = d.join("f");
        replace_file(&f, b"0123456789", 0o600).unwrap();
        assert_eq!(read_head(&f, 4).unwrap().unwrap(), b"0123");
        assert_eq!(read_tail(&f, 4).unwrap().unwrap(), b"6789");
        assert_eq!(fs::metadata(&f).unwrap().permissions().mode() & 0o777, 0o600);
        let once = d.join("once");
        assert_eq!(create_once(&once, b"first", 0o600, 64).unwrap(), b"first");
        assert_eq!(create_once(&once, b"second", 0o600, 64).unwrap(), b"first");
        let left: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "no temporary file is left: {left:?}");
        fs::remove_dir_all(&d).unwrap();
    }
}
