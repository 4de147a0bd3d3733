//! Where an env file (`valueFrom.fileKeyRef`) is: in an emptyDir of the pod, on this host or in
//! the engine's volume, and its reading on this host without following a link.
//!
//! The kubelet joins the path to the volume's directory with `securejoin`, which keeps links
//! inside the volume; podrun follows none at all (the volume is writable by every container of
//! the pod, so any component could be swapped for a link at any moment), reads only a regular
//! file, never blocks on a FIFO, and reads at most [`MAX_ENV_FILE_BYTES`].

use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{FileType, Mode, OFlags};
use rustix::io::Errno;

use super::engine::INFRA_VOLUMES_DIR;
use super::{PlannedSource, VolumeSetup};
use crate::pod::env::file::MAX_ENV_FILE_BYTES;
use crate::pod::env::EnvFile;

/// Where the emptyDir holding an env file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvFilePlace {
    /// This host's file: `rel` inside the emptyDir's directory `dir`.
    Host { dir: PathBuf, rel: PathBuf },
    /// The path in the pod's infra container, which mounts the engine volume.
    Infra(String),
}

impl VolumeSetup {
    /// Where `path` of the emptyDir `volume` is; `None` when the pod has no such emptyDir
    /// (validation refused that already).
    pub fn env_file_place(&self, volume: &str, path: &str) -> Option<EnvFilePlace> {
        let v = self.volumes.iter().find(|v| v.name == volume)?;
        let PlannedSource::EmptyDir { dir, .. } = &v.source else { return None };
        let rel = path.trim_start_matches("./");
        Some(if self.engine {
            EnvFilePlace::Infra(format!("{INFRA_VOLUMES_DIR}/{volume}/{rel}"))
        } else {
            EnvFilePlace::Host { dir: dir.clone(), rel: PathBuf::from(rel) }
        })
    }
}

/// Reads `rel` inside the directory `base`: each component opened in its parent without
/// following a link; the last must be a regular file of at most [`MAX_ENV_FILE_BYTES`].
pub fn read_host(base: &Path, rel: &Path) -> EnvFile {
    match read_beneath(base, rel) {
        Ok(content) => EnvFile::Content(content),
        Err(why) => EnvFile::Unreadable(why),
    }
}

fn read_beneath(base: &Path, rel: &Path) -> Result<Vec<u8>, String> {
    let os = |what: &str, e: Errno| format!("{what}: {}", std::io::Error::from(e));
    let mut dir: OwnedFd = rustix::fs::open(base, OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())
        .map_err(|e| os("cannot open the volume's directory", e))?;
    let comps: Vec<Component> = rel.components().filter(|c| *c != Component::CurDir).collect();
    let Some((last, parents)) = comps.split_last() else { return Err("the path names no file".into()) };
    for comp in parents {
        let Component::Normal(name) = comp else { return Err("the path leads out of the volume".into()) };
        dir = rustix::fs::openat(
            &dir,
            *name,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| missing_or(e, "a directory on its path is a symbolic link or not a directory"))?;
    }
    let Component::Normal(name) = last else { return Err("the path leads out of the volume".into()) };
    let fd = rustix::fs::openat(
        &dir,
        *name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| missing_or(e, "it is a symbolic link, which podrun does not follow"))?;
    let st = rustix::fs::fstat(&fd).map_err(|e| os("cannot look at it", e))?;
    if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile {
        return Err("it is not a regular file".into());
    }
    let mut content = Vec::new();
    let limit = u64::try_from(MAX_ENV_FILE_BYTES).unwrap_or(u64::MAX) + 1;
    std::fs::File::from(fd).take(limit).read_to_end(&mut content).map_err(|e| format!("cannot read it: {e}"))?;
    if content.len() > MAX_ENV_FILE_BYTES {
        return Err(format!("it is larger than {MAX_ENV_FILE_BYTES} bytes, podrun's bound for an env file"));
    }
    Ok(content)
}

fn missing_or(e: Errno, link: &str) -> String {
    match e {
        Errno::NOENT => "no such file".into(),
        Errno::LOOP | Errno::NOTDIR => link.into(),
        e => format!("cannot open it: {}", std::io::Error::from(e)),
    }
}

/// What an archive of the file (`Runtime::get_archive`, at most `MAX_ENV_FILE_BYTES` and a
/// header's worth more) holds, as [`read_host`] would read it.
pub fn from_archive(archive: Option<&[u8]>) -> EnvFile {
    let Some(archive) = archive else { return EnvFile::Unreadable("no such file".into()) };
    let mut a = tar::Archive::new(archive);
    let Some(Ok(mut entry)) = a.entries().ok().and_then(|mut e| e.next()) else {
        return EnvFile::Unreadable("the engine's archive of it is empty".into());
    };
    match entry.header().entry_type() {
        tar::EntryType::Regular => {}
        tar::EntryType::Symlink => {
            return EnvFile::Unreadable("it is a symbolic link, which podrun does not follow".into())
        }
        _ => return EnvFile::Unreadable("it is not a regular file".into()),
    }
    if entry.header().size().map_or(true, |s| s > MAX_ENV_FILE_BYTES as u64) {
        return EnvFile::Unreadable(format!(
            "it is larger than {MAX_ENV_FILE_BYTES} bytes, podrun's bound for an env file"
        ));
    }
    let mut content = Vec::new();
    match entry.read_to_end(&mut content) {
        Ok(_) => EnvFile::Content(content),
        Err(e) => EnvFile::Unreadable(format!("cannot read the engine's archive of it: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;
    use std::os::unix::fs::symlink;

    fn content(f: EnvFile) -> Vec<u8> {
        match f {
            EnvFile::Content(c) => c,
            EnvFile::Unreadable(why) => panic!("{why}"),
        }
    }

    fn why(f: EnvFile) -> String {
        match f {
            EnvFile::Content(_) => panic!("read"),
            EnvFile::Unreadable(why) => why,
        }
    }

    #[test]
    fn reads_a_file_and_follows_no_link() {
        let d = TempDir::new("envfile");
        let base: &Path = &d;
        std::fs::create_dir(base.join("sub")).unwrap();
        std::fs::write(base.join("sub/config.env"), "K='v'\n").unwrap();
        assert_eq!(content(read_host(base, Path::new("sub/config.env"))), b"K='v'\n");
        assert_eq!(content(read_host(base, Path::new("./sub/./config.env"))), b"K='v'\n");
        assert_eq!(why(read_host(base, Path::new("nope.env"))), "no such file");
        // A canary outside the volume, reached through links: never read.
        let outside = TempDir::new("envfile-outside");
        std::fs::write(outside.join("canary.env"), "K='canary'\n").unwrap();
        symlink(outside.join("canary.env"), base.join("link.env")).unwrap();
        symlink(&*outside, base.join("linkdir")).unwrap();
        assert!(why(read_host(base, Path::new("link.env"))).contains("symbolic link"));
        assert!(why(read_host(base, Path::new("linkdir/canary.env"))).contains("symbolic link"));
        assert!(why(read_host(base, Path::new("../x"))).contains("out of the volume"));
        assert_eq!(why(read_host(base, Path::new("sub"))), "it is not a regular file");
        rustix::fs::mknodat(rustix::fs::CWD, base.join("fifo"), FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
        assert_eq!(why(read_host(base, Path::new("fifo"))), "it is not a regular file");
    }

    #[test]
    fn a_file_past_the_bound_is_refused_not_cut() {
        let d = TempDir::new("envfile-big");
        std::fs::write(d.join("big.env"), vec![b'#'; MAX_ENV_FILE_BYTES + 1]).unwrap();
        assert!(why(read_host(&d, Path::new("big.env"))).contains("larger than"));
    }

    #[test]
    fn archives_as_the_engine_gives_them() {
        let mut b = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(6);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, "config.env", &b"K='v'\n"[..]).unwrap();
        let tar = b.into_inner().unwrap();
        assert_eq!(content(from_archive(Some(&tar))), b"K='v'\n");
        assert_eq!(why(from_archive(None)), "no such file");
        let mut b = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        b.append_link(&mut h, "config.env", "/etc/shadow").unwrap();
        assert!(why(from_archive(Some(&b.into_inner().unwrap()))).contains("symbolic link"));
    }
}
