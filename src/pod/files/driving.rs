//! Whether a podrun drives a pod right now: an `apply` (or `apply --supervise`) whose driver
//! runs the pod's probes and keeps its record. Each driver holds a shared lock (`flock`) on the
//! pod's `driven` file for as long as it runs; a look takes the lock exclusively for an instant,
//! which it can only while no driver holds it. The kernel drops a lock with the process that
//! held it, however that ended, so the answer never outlives its driver (a pid file would); and
//! the file is in podrun's private state directory, so no other user can hold it or put a link
//! there.

use std::fs;
use std::path::PathBuf;

use rustix::fs::{flock, FlockOperation};
use rustix::io::Errno;

use super::{not_a_uid, PodFiles};
use crate::manifest::defaults::is_pod_uid;
use crate::private_fs::{self, PrivateFsError};

const DRIVEN: &str = "driven";

/// A driver's hold on its pod, released when dropped.
#[derive(Debug)]
pub struct Driving {
    _file: fs::File,
}

impl PodFiles {
    fn driven_file(&self, uid: &str) -> Result<PathBuf, PrivateFsError> {
        if is_pod_uid(uid) {
            Ok(self.pod_dir(uid).join(DRIVEN))
        } else {
            Err(not_a_uid(uid))
        }
    }

    /// Marks the pod `uid` as driven by this process until the hold is dropped; `None` while a
    /// look holds the lock for its instant (the caller tries again).
    pub fn drive(&self, uid: &str) -> Result<Option<Driving>, PrivateFsError> {
        self.make_pod_dir(uid)?;
        let path = self.driven_file(uid)?;
        let file = private_fs::create_file(&path, 0o600)?;
        match flock(&file, FlockOperation::NonBlockingLockShared) {
            Ok(()) => Ok(Some(Driving { _file: file })),
            Err(Errno::WOULDBLOCK) => Ok(None),
            Err(e) => Err(PrivateFsError::Io { path, what: "cannot lock it", source: e.into() }),
        }
    }

    /// Whether a podrun drives the pod `uid` now (see the module doc).
    pub fn driven(&self, uid: &str) -> bool {
        let Ok(path) = self.driven_file(uid) else { return false };
        let Ok(Some(file)) = private_fs::open_existing(&path) else { return false };
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            // Nobody holds it: the lock goes with the file, closed here.
            Ok(()) => false,
            Err(e) => e == Errno::WOULDBLOCK,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UID: &str = "0f3c2b1a-1111-4222-8333-444455556666";

    #[test]
    fn a_pod_is_driven_while_a_hold_lasts_and_not_after() {
        let dir = crate::test_support::TempDir::new("driving");
        let files = PodFiles::new(dir.join("state"));
        assert!(!files.driven(UID), "never driven");
        let hold = files.drive(UID).unwrap().expect("nobody looks now");
        assert!(files.driven(UID));
        let second = files.drive(UID).unwrap().expect("drivers share the lock");
        drop(hold);
        assert!(files.driven(UID), "one driver is left");
        drop(second);
        assert!(!files.driven(UID), "the file stays, the lock went with its holders");
        assert!(files.drive("../x").is_err());
        assert!(!files.driven("../x"));
    }
}
