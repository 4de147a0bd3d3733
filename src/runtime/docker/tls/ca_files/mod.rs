//! The CAs podrun trusts when it is given none (HTTPS manifests, a TLS engine without a
//! ca.pem), as Go and OpenSSL find them: `SSL_CERT_FILE` (else the distribution's bundle),
//! and every file in the directories `SSL_CERT_DIR` lists (colon-separated; a link to a file
//! of the same directory, as OpenSSL's hash links, read once). Each file is read up to
//! `MAX_FILE`, as the kubelet caps what it reads: a larger one is an error naming it, never a
//! gigabyte in memory. What was read is kept until a file or directory changes (device,
//! inode, size, modification time), so a URL source read again every 20 s does not read them
//! again, and a bundle renewed meanwhile is taken at the next read.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::RootCertStore;

use super::TlsError;

/// The largest file of certificates (or key) podrun reads: the system bundles are a few
/// hundred KiB.
pub const MAX_FILE: u64 = 4 << 20;
/// The most entries of one `SSL_CERT_DIR` directory podrun looks at (a system's has a few
/// hundred), and the most bytes it reads from all of them.
const MAX_ENTRIES: usize = 4096;
const MAX_DIR_BYTES: u64 = 32 << 20;

/// Where the system keeps its CA bundle (Debian, then Fedora/RHEL). SSL_CERT_FILE, if set,
/// comes first, as in Go and OpenSSL.
const SYSTEM_CA_FILES: [&str; 2] = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"];

/// What a file or directory looked like: device, inode, size, modification time (None:
/// not there).
type Stamp = (PathBuf, Option<(u64, u64, u64, Option<SystemTime>)>);

/// The CAs last read, and the stamps of what they were read from.
#[derive(Debug, Default)]
pub struct Cache(Mutex<Option<(Vec<Stamp>, Arc<RootCertStore>)>>);

/// The process's cache of the system's CAs.
static SYSTEM: Cache = Cache(Mutex::new(None));

/// The system's CAs, from the cache while their files are unchanged.
pub fn system_roots() -> Result<Arc<RootCertStore>, TlsError> {
    let file = std::env::var_os("SSL_CERT_FILE")
        .map(PathBuf::from)
        .into_iter()
        .chain(SYSTEM_CA_FILES.iter().map(PathBuf::from))
        .find(|p| p.is_file());
    let dirs: Vec<PathBuf> = std::env::var_os("SSL_CERT_DIR")
        .map(|d| std::env::split_paths(&d).filter(|p| !p.as_os_str().is_empty()).collect())
        .unwrap_or_default();
    roots_of(file.as_deref(), &dirs, &SYSTEM)
}

/// The CAs of `file` and of the files in `dirs`, from `cache` while none of them changed.
pub fn roots_of(file: Option<&Path>, dirs: &[PathBuf], cache: &Cache) -> Result<Arc<RootCertStore>, TlsError> {
    let mut listed = Vec::new();
    for dir in dirs {
        listed.extend(dir_files(dir)?);
    }
    let stamps: Vec<Stamp> = file
        .into_iter()
        .map(Path::to_path_buf)
        .chain(dirs.iter().cloned())
        .chain(listed.iter().cloned())
        .map(stamp)
        .collect();
    let mut cached = cache.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((seen, roots)) = cached.as_ref() {
        if *seen == stamps {
            return Ok(roots.clone());
        }
    }
    let mut store = RootCertStore::empty();
    if let Some(path) = file {
        for cert in certificates(path, "CA certificate")? {
            store.add(cert).map_err(|source| TlsError::BadCa { path: path.to_owned(), source })?;
        }
    }
    let mut read = 0u64;
    for path in &listed {
        // As Go: a file of a directory that cannot be read or holds no certificate is passed
        // over; one too large is not (it is read no further than the bound).
        let Some(text) = read_capped(path, "CA certificate").map(Some).or_else(skip_unreadable)? else { continue };
        read += text.len() as u64;
        if read > MAX_DIR_BYTES {
            return Err(TlsError::TooLarge {
                what: "CA directory",
                path: path.parent().unwrap_or(path).to_owned(),
                limit: MAX_DIR_BYTES,
            });
        }
        for cert in CertificateDer::pem_slice_iter(&text).filter_map(Result::ok) {
            let _ = store.add(cert);
        }
    }
    if store.is_empty() {
        return Err(TlsError::NoCa);
    }
    let store = Arc::new(store);
    *cached = Some((stamps, store.clone()));
    Ok(store)
}

fn skip_unreadable(e: TlsError) -> Result<Option<Vec<u8>>, TlsError> {
    match e {
        TlsError::TooLarge { .. } => Err(e),
        _ => Ok(None),
    }
}

/// The files of `dir` to read, sorted: at most `MAX_ENTRIES` entries, links to a file of the
/// same directory left out (the file itself is read).
fn dir_files(dir: &Path) -> Result<Vec<PathBuf>, TlsError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Vec::new()) };
    let mut files = Vec::new();
    for (n, entry) in entries.enumerate() {
        if n >= MAX_ENTRIES {
            return Err(TlsError::TooManyFiles { path: dir.to_owned(), limit: MAX_ENTRIES });
        }
        let Ok(entry) = entry else { continue };
        let path = entry.path();
        let same_dir_link = std::fs::read_link(&path).is_ok_and(|t| t.components().count() == 1);
        if !same_dir_link && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn stamp(path: PathBuf) -> Stamp {
    let meta = std::fs::metadata(&path).ok();
    let s = meta.map(|m| (m.dev(), m.ino(), m.len(), m.modified().ok()));
    (path, s)
}

/// The certificates in the PEM file `path`; at least one.
pub fn certificates(path: &Path, what: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let text = read_capped(path, what)?;
    let certs = CertificateDer::pem_slice_iter(&text)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|pem| TlsError::NotPem { what, path: path.to_owned(), pem })?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate { what, path: path.to_owned() });
    }
    Ok(certs)
}

/// The whole of the file `path`, if it is a regular file of at most `MAX_FILE` bytes. Opened
/// without waiting (a FIFO named in its place does not hold podrun).
pub fn read_capped(path: &Path, what: &'static str) -> Result<Vec<u8>, TlsError> {
    let io = |source| TlsError::Read { what, path: path.to_owned(), source };
    let file = File::options()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits().cast_signed())
        .open(path)
        .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::other("not a regular file")));
    }
    let too_large = || TlsError::TooLarge { what, path: path.to_owned(), limit: MAX_FILE };
    if meta.len() > MAX_FILE {
        return Err(too_large());
    }
    let mut text = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(MAX_FILE + 1).read_to_end(&mut text).map_err(io)?;
    // Grown since it was looked at.
    if text.len() as u64 > MAX_FILE {
        return Err(too_large());
    }
    Ok(text)
}

#[cfg(test)]
mod tests;
