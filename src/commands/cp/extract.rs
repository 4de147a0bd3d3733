//! The local end of `podrun cp POD:PATH DEST`: a tar archive from the engine written under
//! DEST, as it comes, and never outside it. The archive is the engine's or the container's,
//! so it is read as hostile: an absolute name or a `..` is skipped with kubectl's warning, a
//! device node is skipped, a hard link must point inside the copy. Under DEST every path is
//! walked a directory at a time without following links (`openat` with `O_NOFOLLOW`), and a
//! file is made anew (`O_EXCL`) after what stood at its name is removed: a symbolic link
//! planted in DEST, or one the archive itself made, is replaced or refused, never written
//! through. Symbolic links are kept as links (kubectl skips them), modes are kept (without
//! set-user-ID and set-group-ID), ownership is the user's who runs podrun.

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustix::fs::{AtFlags, Mode, OFlags, CWD};

/// The most an entry's header and its extensions (GNU long names, PAX records) may take: a
/// name is a few hundred bytes; an archive that claims more is not read into memory.
pub const MAX_HEADERS: u64 = 1024 * 1024;
/// Directories whose mode would keep podrun from writing into them get it at the end; past
/// this many, at once (their content may then fail, with a warning).
const MAX_DEFERRED: usize = 10_000;

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// An entry outside the path asked for: the archive is not what was asked for.
    #[error("tar contents corrupted")]
    Corrupted,
    #[error("reading the archive: {0}")]
    Read(#[source] io::Error),
    #[error("{}: {source}", crate::escape::Escaped(path))]
    Write {
        path: String,
        #[source]
        source: io::Error,
    },
}

/// Where an archive is written: DEST's parent directory (opened as the user named it), and
/// DEST's own name in it (none when DEST is `.` or `/`: the parent is DEST).
pub struct Extractor {
    root: OwnedFd,
    dest: Vec<OsString>,
    /// What the archive's names start with (kubectl's prefix), in components.
    prefix: Vec<Vec<u8>>,
    deferred: Vec<(Vec<OsString>, u32)>,
    warn: Box<dyn FnMut(String) + Send>,
    /// How many entries were skipped.
    pub skipped: usize,
}

/// A step that cannot be taken under DEST without leaving it: the entry is skipped.
struct Blocked(String);

impl Extractor {
    /// An extractor into `dest`, whose parents are made as kubectl makes them; `prefix` is the
    /// leading part of every name in the archive, stripped from it (`tmp/data` for `tar cf -
    /// /tmp/data`, `data` for the Docker API's archive of `/tmp/data`).
    pub fn new(dest: &Path, prefix: &str, warn: Box<dyn FnMut(String) + Send>) -> Result<Extractor, ExtractError> {
        let write = |source| ExtractError::Write { path: dest.display().to_string(), source };
        // A directory the user named is written into (through a link, if DEST is one).
        let (parent, name) = match dest.file_name() {
            Some(name) if !dest.is_dir() => {
                (dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")), Some(name))
            }
            _ => (dest, None),
        };
        std::fs::create_dir_all(parent).map_err(write)?;
        let root = rustix::fs::openat(CWD, parent, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())
            .map_err(|e| write(e.into()))?;
        Ok(Extractor {
            root,
            dest: name.map(OsStr::to_owned).into_iter().collect(),
            prefix: components(prefix.as_bytes()).map(<[u8]>::to_vec).collect(),
            deferred: Vec::new(),
            warn,
            skipped: 0,
        })
    }

    /// Writes every entry of the archive `input`; a skipped entry is a warning, not an error.
    pub fn extract(&mut self, input: impl Read) -> Result<(), ExtractError> {
        let budget = Arc::new(AtomicU64::new(MAX_HEADERS));
        let mut archive = tar::Archive::new(Metered { inner: input, budget: Arc::clone(&budget) });
        let mut entries = archive.entries().map_err(ExtractError::Read)?;
        loop {
            budget.store(MAX_HEADERS, Ordering::Relaxed);
            let Some(entry) = entries.next() else { break };
            let mut entry = entry.map_err(ExtractError::Read)?;
            budget.store(u64::MAX, Ordering::Relaxed);
            self.entry(&mut entry)?;
            // What was not written is read past here, so the next header starts the budget.
            io::copy(&mut entry, &mut io::sink()).map_err(ExtractError::Read)?;
        }
        self.finish()
    }

    fn entry(&mut self, entry: &mut tar::Entry<impl Read>) -> Result<(), ExtractError> {
        let name = entry.path_bytes().into_owned();
        let Some(path) = self.place(&name)? else { return Ok(()) };
        let header = entry.header();
        let mode = header.mode().unwrap_or(0o644);
        let kind = header.entry_type();
        let shown = show(&path);
        let done = match kind {
            tar::EntryType::Directory => self.directory(&path, mode),
            tar::EntryType::Regular | tar::EntryType::Continuous | tar::EntryType::GNUSparse => {
                self.file(&path, mode, entry)
            }
            tar::EntryType::Symlink => {
                let target = entry.link_name_bytes().map(|t| t.into_owned()).unwrap_or_default();
                self.symlink(&path, &target)
            }
            tar::EntryType::Link => {
                let target = entry.link_name_bytes().map(|t| t.into_owned()).unwrap_or_default();
                self.hard_link(&path, &target)
            }
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader => return Ok(()),
            _ => Err(Blocked(format!("skipping {shown}: a device node or pipe is not copied"))),
        };
        match done {
            Ok(result) => result.map_err(|source| ExtractError::Write { path: shown, source }),
            Err(Blocked(why)) => {
                self.skipped += 1;
                (self.warn)(format!("warning: {why}"));
                Ok(())
            }
        }
    }

    /// Where an entry named `name` goes under DEST, in components from DEST's parent; `None`
    /// (after a warning) when it would leave DEST.
    fn place(&mut self, name: &[u8]) -> Result<Option<Vec<OsString>>, ExtractError> {
        let Ok(rel) = self.relative(name)? else {
            self.skipped += 1;
            let shown = format!("{:?}", String::from_utf8_lossy(name));
            (self.warn)(format!("warning: file {shown} is outside target destination, skipping"));
            return Ok(None);
        };
        Ok(Some(self.dest.iter().cloned().chain(rel).collect()))
    }

    /// `name` without the prefix, in components: `Err(())` for a name that leaves it (absolute,
    /// or with `..`), `ExtractError::Corrupted` for one outside the prefix, as kubectl.
    fn relative(&self, name: &[u8]) -> Result<Result<Vec<OsString>, ()>, ExtractError> {
        if name.starts_with(b"/") || components(name).any(|c| c == b"..") {
            return Ok(Err(()));
        }
        let mut parts = components(name);
        for want in &self.prefix {
            if parts.next() != Some(want.as_slice()) {
                return Err(ExtractError::Corrupted);
            }
        }
        Ok(Ok(parts.map(|c| OsString::from_vec(c.to_vec())).collect()))
    }

    /// The directory `path` (components from the root), made where missing (mode 0755 until
    /// its entry sets it), each step without following a link.
    fn open_dir(&self, path: &[OsString], create: bool) -> Result<io::Result<OwnedFd>, Blocked> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut dir = match rustix::fs::openat(&self.root, ".", flags, Mode::empty()) {
            Ok(d) => d,
            Err(e) => return Ok(Err(e.into())),
        };
        for (i, part) in path.iter().enumerate() {
            let mut opened = rustix::fs::openat(&dir, part.as_os_str(), flags, Mode::empty());
            if create && matches!(opened, Err(rustix::io::Errno::NOENT)) {
                match rustix::fs::mkdirat(&dir, part.as_os_str(), Mode::from_raw_mode(0o755)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Ok(Err(e.into())),
                }
                opened = rustix::fs::openat(&dir, part.as_os_str(), flags, Mode::empty());
            }
            dir = match opened {
                Ok(d) => d,
                // A link (ELOOP with O_NOFOLLOW) or a file where a directory should be.
                Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
                    let at = show(&path[..=i]);
                    return Err(Blocked(format!("skipping {}: {at} is not a directory", show(path))));
                }
                Err(e) => return Ok(Err(e.into())),
            };
        }
        Ok(Ok(dir))
    }

    fn directory(&mut self, path: &[OsString], mode: u32) -> Result<io::Result<()>, Blocked> {
        // DEST that exists keeps its own mode: the user chose it, the archive did not.
        if path.is_empty() {
            return Ok(Ok(()));
        }
        let dir = match self.open_dir(path, true)? {
            Ok(d) => d,
            Err(e) => return Ok(Err(e)),
        };
        let mode = mode & 0o1777;
        // A directory podrun could not write into is given its mode once its content is in.
        let now = if mode & 0o700 == 0o700 || self.deferred.len() >= MAX_DEFERRED {
            mode
        } else {
            self.deferred.push((path.to_vec(), mode));
            mode | 0o700
        };
        Ok(rustix::fs::fchmod(&dir, Mode::from_raw_mode(now)).map_err(io::Error::from))
    }

    /// The parent directory of `path` and `path`'s name in it, with what stood at the name
    /// removed (a directory is not: that is an error, as kubectl's).
    fn make_room(&self, path: &[OsString]) -> Result<io::Result<(OwnedFd, OsString)>, Blocked> {
        let Some((name, parent)) = path.split_last() else {
            return Ok(Err(io::Error::from(io::ErrorKind::IsADirectory)));
        };
        let dir = match self.open_dir(parent, true)? {
            Ok(d) => d,
            Err(e) => return Ok(Err(e)),
        };
        match rustix::fs::unlinkat(&dir, name.as_os_str(), AtFlags::empty()) {
            Ok(()) | Err(rustix::io::Errno::NOENT) => Ok(Ok((dir, name.clone()))),
            Err(rustix::io::Errno::ISDIR | rustix::io::Errno::PERM) => {
                Ok(Err(io::Error::from(io::ErrorKind::IsADirectory)))
            }
            Err(e) => Ok(Err(e.into())),
        }
    }

    fn file(&self, path: &[OsString], mode: u32, content: &mut impl Read) -> Result<io::Result<()>, Blocked> {
        let (dir, name) = match self.make_room(path)? {
            Ok(room) => room,
            Err(e) => return Ok(Err(e)),
        };
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut write = || -> io::Result<()> {
            let fd = rustix::fs::openat(&dir, name.as_os_str(), flags, Mode::from_raw_mode(0o600))?;
            let mut file = std::fs::File::from(fd);
            io::copy(content, &mut file)?;
            rustix::fs::fchmod(file.as_fd(), Mode::from_raw_mode(mode & 0o777))?;
            Ok(())
        };
        Ok(write())
    }

    fn symlink(&self, path: &[OsString], target: &[u8]) -> Result<io::Result<()>, Blocked> {
        let (dir, name) = match self.make_room(path)? {
            Ok(room) => room,
            Err(e) => return Ok(Err(e)),
        };
        Ok(rustix::fs::symlinkat(OsStr::from_bytes(target), &dir, name.as_os_str()).map_err(io::Error::from))
    }

    /// A hard link to an entry of this copy: its target is placed as any name is, so it is
    /// under DEST, and is linked without following a link.
    fn hard_link(&mut self, path: &[OsString], target: &[u8]) -> Result<io::Result<()>, Blocked> {
        let outside = || Blocked(format!("skipping {}: its link {:?} is outside the copy", show(path), lossy(target)));
        let to = match self.relative(target) {
            Ok(Ok(rel)) => self.dest.iter().cloned().chain(rel).collect::<Vec<_>>(),
            _ => return Err(outside()),
        };
        let Some((to_name, to_parent)) = to.split_last() else { return Err(outside()) };
        let Ok(from_dir) = self.open_dir(to_parent, false)? else { return Err(outside()) };
        let (dir, name) = match self.make_room(path)? {
            Ok(room) => room,
            Err(e) => return Ok(Err(e)),
        };
        match rustix::fs::linkat(&from_dir, to_name.as_os_str(), &dir, name.as_os_str(), AtFlags::empty()) {
            // Its target was skipped, or never was in the archive.
            Err(rustix::io::Errno::NOENT) => Err(outside()),
            linked => Ok(linked.map_err(io::Error::from)),
        }
    }

    /// Gives the directories that were kept writable their own modes, deepest first.
    fn finish(&mut self) -> Result<(), ExtractError> {
        let deferred = std::mem::take(&mut self.deferred);
        for (path, mode) in deferred.into_iter().rev() {
            if let Ok(Ok(dir)) = self.open_dir(&path, false) {
                rustix::fs::fchmod(&dir, Mode::from_raw_mode(mode))
                    .map_err(|e| ExtractError::Write { path: show(&path), source: e.into() })?;
            }
        }
        Ok(())
    }
}

/// The components of a tar name: empty and `.` ones left out.
fn components(name: &[u8]) -> impl Iterator<Item = &[u8]> {
    name.split(|b| *b == b'/').filter(|c| !c.is_empty() && *c != b".")
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path under DEST's parent as kubectl quotes it (`%q`): escaped, in quotes.
fn show(path: &[OsString]) -> String {
    let joined: Vec<String> = path.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    format!("{:?}", joined.join("/"))
}

/// The archive's bytes, of which at most the budget may be read before the budget is set
/// again: the tar reader reads a header's extensions whole, and an archive that claims a long
/// name of gigabytes is refused instead of held in memory.
struct Metered<R> {
    inner: R,
    budget: Arc<AtomicU64>,
}

impl<R: Read> Read for Metered<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.budget.load(Ordering::Relaxed);
        if left == 0 {
            return Err(io::Error::other(format!("an entry's header and extensions are over {MAX_HEADERS} bytes")));
        }
        let room = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        if left != u64::MAX {
            self.budget.store(left - n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

#[cfg(test)]
#[path = "extract_tests.rs"]
mod tests;
