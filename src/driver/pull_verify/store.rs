//! Where the record lives: `image-pulls.json` in podrun's state directory, so it survives
//! restarts and is shared by every podrun on the host, or in memory for a run whose engine is
//! elsewhere (its images are not this host's). Each change reads, changes and replaces the
//! file at once while it holds an exclusive lock (`flock` on `image-pulls.lock`), so no change
//! is lost to a concurrent podrun and a reader never sees half a file. Both files are opened
//! without following links and must be regular files (`private_fs`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rustix::fs::{flock, FlockOperation};

use super::hashes::new_salt;
use super::record::{Record, MAX_IMAGES, MAX_INTENTS, MAX_SECRETS};
use crate::private_fs::{self, PrivateFsError};

const FILE: &str = "image-pulls.json";
const LOCK: &str = "image-pulls.lock";
/// What a full record takes, with room: a bigger file is not podrun's.
const MAX_BYTES: u64 = ((MAX_IMAGES * (MAX_SECRETS * 160 + 400)) + MAX_INTENTS * 600) as u64;

/// Why the record could not be read or written. The message names the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("podrun's record of image pulls")]
    File(#[source] PrivateFsError),
    #[error("podrun's record of image pulls {0}: not a record podrun wrote")]
    Unreadable(PathBuf),
    #[error("podrun's record of image pulls: the system's random number generator failed")]
    Random,
}

#[derive(Debug)]
pub enum Store {
    File { dir: PathBuf },
    Memory(Mutex<Option<Record>>),
}

impl Store {
    /// The record in the state directory `dir`.
    pub fn in_dir(dir: &Path) -> Store {
        Store::File { dir: dir.to_path_buf() }
    }

    pub fn memory() -> Store {
        Store::Memory(Mutex::new(None))
    }

    fn fresh() -> Result<Record, StoreError> {
        Ok(Record::new(new_salt().ok_or(StoreError::Random)?))
    }

    /// The record as it is; a record not made yet is an empty one with a new salt.
    pub fn read(&self) -> Result<Record, StoreError> {
        match self {
            Store::Memory(m) => Ok(m.lock().unwrap_or_else(|e| e.into_inner()).clone().map_or_else(Self::fresh, Ok)?),
            Store::File { dir } => read_file(&dir.join(FILE))?.map_or_else(Self::fresh, Ok),
        }
    }

    /// Applies `change` to the record and keeps the result. A file that is not a record podrun
    /// wrote is replaced (as the kubelet replaces a record it cannot decode).
    pub fn update(&self, change: impl FnOnce(&mut Record)) -> Result<(), StoreError> {
        match self {
            Store::Memory(m) => {
                let mut kept = m.lock().unwrap_or_else(|e| e.into_inner());
                let mut record = kept.take().map_or_else(Self::fresh, Ok)?;
                change(&mut record);
                *kept = Some(record);
                Ok(())
            }
            Store::File { dir } => {
                let lock_path = dir.join(LOCK);
                let lock = private_fs::create_file(&lock_path, 0o600).map_err(StoreError::File)?;
                flock(&lock, FlockOperation::LockExclusive).map_err(|e| {
                    StoreError::File(PrivateFsError::Io { path: lock_path, what: "cannot lock it", source: e.into() })
                })?;
                let path = dir.join(FILE);
                let mut record = match read_file(&path) {
                    Ok(Some(r)) => r,
                    Ok(None) | Err(StoreError::Unreadable(_)) => Self::fresh()?,
                    Err(e) => return Err(e),
                };
                change(&mut record);
                let json = serde_json::to_vec(&record).map_err(|_| StoreError::Unreadable(path.clone()))?;
                private_fs::replace_file(&path, &json, 0o600).map_err(StoreError::File)
            }
        }
    }
}

fn read_file(path: &Path) -> Result<Option<Record>, StoreError> {
    let Some(bytes) = private_fs::read_head(path, MAX_BYTES + 1).map_err(StoreError::File)? else {
        return Ok(None);
    };
    let record: Record = (bytes.len() as u64 <= MAX_BYTES)
        .then(|| serde_json::from_slice(&bytes).ok())
        .flatten()
        .filter(|r: &Record| r.within_bounds() && !r.salt.is_empty())
        .ok_or_else(|| StoreError::Unreadable(path.to_path_buf()))?;
    Ok(Some(record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::pull_verify::record::Known;

    #[test]
    fn the_file_survives_and_a_foreign_one_is_replaced_never_followed() {
        let dir = crate::test_support::TempDir::new("pull-record");
        let store = Store::in_dir(&dir);
        assert_eq!(store.read().unwrap().known("i", Some("sha256:1"), "r"), Known::Preloaded);
        store.update(|r| r.pulled("i", "sha256:1", "r", None)).unwrap();
        let again = Store::in_dir(&dir).read().unwrap();
        assert!(matches!(again.known("i", Some("sha256:1"), "r"), Known::Pulled(Some(_))), "read back");
        let salt = again.salt.clone();
        store.update(|r| r.intend("j")).unwrap();
        assert_eq!(store.read().unwrap().salt, salt, "one salt for the record's life");

        std::fs::write(dir.join(FILE), b"{not json").unwrap();
        assert!(matches!(store.read(), Err(StoreError::Unreadable(_))));
        store.update(|r| r.intend("k")).unwrap();
        assert_eq!(store.read().unwrap().known("k", None, "r"), Known::Pulling);

        std::fs::remove_file(dir.join(FILE)).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join(FILE)).unwrap();
        assert!(matches!(store.read(), Err(StoreError::File(_))));
        assert!(store.update(|r| r.intend("l")).is_err(), "a link is never written through");
    }

    #[test]
    fn memory_keeps_the_record_for_the_run() {
        let store = Store::memory();
        store.update(|r| r.intend("i")).unwrap();
        assert_eq!(store.read().unwrap().known("i", None, "r"), Known::Pulling);
    }
}
