//! The sign a whole-pod removal (`podrun delete`, `--rm`, `--prune`) leaves for a run of the
//! same pod going on beside it, as the API server's deletionTimestamp tells a kubelet and a
//! waiting client that a pod is going: `<root>/deletions/<pod uid>`, holding one line, `<id>
//! begun` or `<id> done`, the id new with every removal.
//!
//! A run reads it when it starts and after each look at the engine. One that finds a new id
//! has been overtaken by a deletion: it stops acting on the pod (a pod being torn down looks
//! like one to repair), waits for the removal to end, and removes what it made itself. The
//! sign is written before the removal stops anything, so a look that sees any of its doing
//! finds the sign too. It outlives the pod's own directory, which the removal ends by
//! removing; signs older than [`KEEP`] are dropped by the next removal.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::files::PodFiles;
use crate::manifest::defaults::is_pod_uid;
use crate::private_fs;

/// How long a sign is kept: far longer than any run waits beside a removal.
pub const KEEP: Duration = Duration::from_secs(24 * 3600);
/// A sign is one short line: anything longer is not podrun's.
const MAX_SIGN_BYTES: u64 = 128;
/// How many old signs one removal looks at to drop (bounded work per call).
const MAX_PRUNED: usize = 256;

/// One removal's sign, as a run reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deletion {
    /// New with every removal: a run compares it with the one it started with.
    pub id: String,
    /// The removal has ended (successfully or not).
    pub done: bool,
}

impl PodFiles {
    fn deletions_dir(&self) -> PathBuf {
        self.root().join("deletions")
    }

    fn deletion_path(&self, uid: &str) -> Option<PathBuf> {
        is_pod_uid(uid).then(|| self.deletions_dir().join(uid))
    }

    /// Says that a removal of the pod `uid` begins, and returns its id (`None` when the sign
    /// could not be written: the removal goes on, and a run beside it learns of it only when
    /// the pod's infra container goes).
    pub fn begin_deletion(&self, uid: &str) -> Option<String> {
        let path = self.deletion_path(uid)?;
        let dir = self.deletions_dir();
        let made = private_fs::ensure_private_dir(self.root()).and_then(|_| private_fs::private_subdir(&dir));
        if let Err(e) = made {
            tracing::warn!("{}", crate::error_chain::chain(&e));
            return None;
        }
        self.drop_old_signs();
        let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let id = format!("{}.{}", now.as_nanos(), std::process::id());
        match private_fs::replace_file(&path, format!("{id} begun\n").as_bytes(), 0o600) {
            Ok(()) => Some(id),
            Err(e) => {
                tracing::warn!("{}", crate::error_chain::chain(&e));
                None
            }
        }
    }

    /// Says that the removal `id` of the pod `uid` has ended, unless another has begun since.
    pub fn end_deletion(&self, uid: &str, id: &str) {
        let Some(path) = self.deletion_path(uid) else { return };
        if self.deletion(uid).is_none_or(|d| d.id != id) {
            return;
        }
        if let Err(e) = private_fs::replace_file(&path, format!("{id} done\n").as_bytes(), 0o600) {
            tracing::warn!("{}", crate::error_chain::chain(&e));
        }
    }

    /// The last removal's sign for the pod `uid`, if there is one (and it reads as one).
    pub fn deletion(&self, uid: &str) -> Option<Deletion> {
        let path = self.deletion_path(uid)?;
        let bytes = match private_fs::read_head(&path, MAX_SIGN_BYTES) {
            Ok(found) => found?,
            Err(e) => {
                tracing::warn!("{}", crate::error_chain::chain(&e));
                return None;
            }
        };
        let (id, state) = std::str::from_utf8(&bytes).ok()?.trim_end().split_once(' ')?;
        let plain = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        match state {
            "begun" if plain => Some(Deletion { id: id.to_owned(), done: false }),
            "done" if plain => Some(Deletion { id: id.to_owned(), done: true }),
            _ => None,
        }
    }

    /// Drops signs older than [`KEEP`], a bounded number per call; only names that are pod uids.
    fn drop_old_signs(&self) {
        let Ok(entries) = fs::read_dir(self.deletions_dir()) else { return };
        let now = SystemTime::now();
        for e in entries.filter_map(Result::ok).take(MAX_PRUNED) {
            let old = e
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .and_then(|m| m.modified().ok())
                .is_some_and(|t| now.duration_since(t).is_ok_and(|age| age > KEEP));
            if old && e.file_name().to_str().is_some_and(is_pod_uid) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    const UID: &str = "82e1b767-cee9-8e90-932c-fa861f855eeb";

    #[test]
    fn a_removal_is_begun_and_ended_under_a_new_id_each_time() {
        let dir = TempDir::new("deletion");
        let files = PodFiles::new(&*dir);
        assert_eq!(files.deletion(UID), None);
        let first = files.begin_deletion(UID).expect("the sign is written");
        assert_eq!(files.deletion(UID), Some(Deletion { id: first.clone(), done: false }));
        files.end_deletion(UID, &first);
        assert_eq!(files.deletion(UID), Some(Deletion { id: first.clone(), done: true }));
        let second = files.begin_deletion(UID).unwrap();
        assert_ne!(second, first);
        // An earlier removal ending late does not end a later one.
        files.end_deletion(UID, &first);
        assert_eq!(files.deletion(UID), Some(Deletion { id: second, done: false }));
    }

    #[test]
    fn only_pod_uids_name_a_sign_and_only_podrun_s_lines_read_as_one() {
        let dir = TempDir::new("deletion-names");
        let files = PodFiles::new(&*dir);
        assert_eq!(files.begin_deletion("../x"), None);
        assert_eq!(files.deletion("../x"), None);
        files.begin_deletion(UID).unwrap();
        let path = dir.join("deletions").join(UID);
        for junk in ["", "1.2 gone\n", "../1 begun\n", "1 begun extra\n", &"9".repeat(200)] {
            std::fs::write(&path, junk).unwrap();
            assert_eq!(files.deletion(UID), None, "{junk:?}");
        }
        // A planted link is not read through.
        std::fs::remove_file(&path).unwrap();
        let target = dir.join("target");
        std::fs::write(&target, "1 begun\n").unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert_eq!(files.deletion(UID), None);
    }

    #[test]
    fn old_signs_are_dropped_by_the_next_removal() {
        let dir = TempDir::new("deletion-old");
        let files = PodFiles::new(&*dir);
        let other = "00000000-0000-0000-0000-000000000001";
        files.begin_deletion(other).unwrap();
        let old = SystemTime::now() - KEEP - Duration::from_secs(60);
        let f = fs::File::options().write(true).open(dir.join("deletions").join(other)).unwrap();
        f.set_modified(old).unwrap();
        files.begin_deletion(UID).unwrap();
        assert_eq!(files.deletion(other), None, "dropped");
        assert!(files.deletion(UID).is_some());
    }
}
