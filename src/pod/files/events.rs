//! A pod's events on the host (`events.json` in the pod's directory, see `pod::events`). Every
//! podrun that drives the pod adds to them (an apply, a supervisor, a second apply beside it):
//! each addition reads, folds and replaces the file while it holds an exclusive lock (`flock`)
//! on the pod's `events.lock`, so no addition is lost and a reader never sees half a file. The
//! lock is held for one read and one write of a bounded file. Nothing is recorded for a pod
//! whose directory is gone: a delete removed it with the events, and a late event must not
//! bring back a directory of a pod that no longer exists.

use std::fs;
use std::path::PathBuf;

use rustix::fs::{flock, FlockOperation};

use super::{not_a_uid, read_or_warn, PodFiles};
use crate::manifest::defaults::is_pod_uid;
use crate::pod::events::{NewEvent, PodEvents, MAX_EVENTS, MAX_MESSAGE_BYTES};
use crate::private_fs::{self, PrivateFsError};

const EVENTS: &str = "events.json";
const LOCK: &str = "events.lock";
/// What a file of [`MAX_EVENTS`] events can hold, with room; a bigger file is not podrun's.
const MAX_EVENTS_BYTES: u64 = (MAX_EVENTS * (2 * MAX_MESSAGE_BYTES + 512)) as u64;

impl PodFiles {
    fn events_dir(&self, uid: &str) -> Result<PathBuf, PrivateFsError> {
        if is_pod_uid(uid) {
            Ok(self.pod_dir(uid))
        } else {
            Err(not_a_uid(uid))
        }
    }

    /// Adds `ev` (seen at `now`, RFC 3339, on `host`) to the events of the pod `namespace/name`
    /// (`pod`, with its uid). `false`: the pod has no directory (any more), and nothing was
    /// recorded.
    pub fn record_event(&self, pod: [&str; 3], ev: NewEvent, now: &str, host: &str) -> Result<bool, PrivateFsError> {
        let [namespace, name, uid] = pod;
        let dir = self.events_dir(uid)?;
        if !fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            return Ok(false);
        }
        let lock_path = dir.join(LOCK);
        let lock = private_fs::create_file(&lock_path, 0o600)?;
        flock(&lock, FlockOperation::LockExclusive).map_err(|e| PrivateFsError::Io {
            path: lock_path,
            what: "cannot lock it",
            source: e.into(),
        })?;
        let mut events = self.read_events(uid).unwrap_or_default();
        namespace.clone_into(&mut events.namespace);
        name.clone_into(&mut events.name);
        events.add(ev, now, host);
        private_fs::replace_file(&dir.join(EVENTS), events.to_json().as_bytes(), 0o600)?;
        Ok(true)
    }

    /// Removes the events of the pod `namespace/name` where no container of it is left to
    /// remove them with its files (a pod whose image never came): a deleted pod's events go with
    /// it. Under the events lock, so no addition is half done. Whether there were any: such a
    /// pod was there to delete.
    pub fn drop_events_of(&self, namespace: &str, name: &str) -> bool {
        let mut dropped = false;
        for (uid, _) in self.pod_dirs() {
            let Some(kept) = self.read_events(&uid) else { continue };
            if kept.namespace != namespace || kept.name != name {
                continue;
            }
            let dir = self.pod_dir(&uid);
            let Ok(lock) = private_fs::create_file(&dir.join(LOCK), 0o600) else { continue };
            if flock(&lock, FlockOperation::LockExclusive).is_ok() {
                dropped |= fs::remove_file(dir.join(EVENTS)).is_ok();
            }
        }
        dropped
    }

    /// The pod `uid`'s events, if it has any (and the file reads as them).
    pub fn read_events(&self, uid: &str) -> Option<PodEvents> {
        let path = self.events_dir(uid).ok()?.join(EVENTS);
        let bytes = read_or_warn(private_fs::read_head(&path, MAX_EVENTS_BYTES))?;
        PodEvents::from_json(std::str::from_utf8(&bytes).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod::events::EventType;

    const UID: &str = "0f3c2b1a-1111-4222-8333-444455556677";
    const POD: [&str; 3] = ["default", "web", UID];

    fn ev(i: usize) -> NewEvent {
        NewEvent::new(EventType::Normal, "Pulled", format!("m{i}"))
    }

    #[test]
    fn events_are_kept_only_for_a_pod_with_a_directory_and_go_with_it() {
        let dir = crate::test_support::TempDir::new("events-files");
        let files = PodFiles::new(dir.join("state"));
        assert!(!files.record_event(POD, ev(0), "2026-01-01T00:00:00Z", "h").unwrap());
        assert_eq!(files.read_events(UID), None);
        files.make_pod_dir(UID).unwrap();
        assert!(files.record_event(POD, ev(0), "2026-01-01T00:00:00Z", "h").unwrap());
        assert!(files.record_event(POD, ev(0), "2026-01-01T00:00:05Z", "h").unwrap());
        let kept = files.read_events(UID).unwrap();
        assert_eq!((kept.events.len(), kept.events[0].count), (1, 2));
        assert_eq!((kept.namespace.as_str(), kept.name.as_str()), ("default", "web"));
        files.drop_events_of("default", "other");
        assert!(files.read_events(UID).is_some(), "another pod's");
        files.drop_events_of("default", "web");
        assert_eq!(files.read_events(UID), None);
        assert!(files.record_event(POD, ev(0), "2026-01-01T00:00:07Z", "h").unwrap());
        files.remove_pod(UID);
        assert!(!files.record_event(POD, ev(1), "2026-01-01T00:00:06Z", "h").unwrap());
        assert!(!files.pod_dir(UID).exists(), "a late event brings no directory back");
        assert!(files.record_event(["default", "web", "../x"], ev(1), "t", "h").is_err());
    }

    #[test]
    fn concurrent_writers_lose_no_event() {
        let dir = crate::test_support::TempDir::new("events-concurrent");
        let files = PodFiles::new(dir.join("state"));
        files.make_pod_dir(UID).unwrap();
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let files = files.clone();
                std::thread::spawn(move || {
                    for i in 0..20 {
                        files.record_event(POD, ev(w * 100 + i), "2026-01-01T00:00:00Z", "h").unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let kept = files.read_events(UID).unwrap();
        assert_eq!(kept.events.len(), 80);
    }

    #[test]
    fn a_planted_link_is_not_followed() {
        use std::os::unix::fs::symlink;
        let dir = crate::test_support::TempDir::new("events-link");
        let files = PodFiles::new(dir.join("state"));
        let pod = files.make_pod_dir(UID).unwrap();
        let canary = dir.join("canary");
        fs::write(&canary, "keep").unwrap();
        symlink(&canary, pod.join(LOCK)).unwrap();
        assert!(files.record_event(POD, ev(0), "t", "h").is_err());
        fs::remove_file(pod.join(LOCK)).unwrap();
        symlink(&canary, pod.join(EVENTS)).unwrap();
        assert_eq!(files.read_events(UID), None);
        assert!(files.record_event(POD, ev(0), "t", "h").unwrap(), "the link is replaced, not written through");
        assert_eq!(fs::read_to_string(&canary).unwrap(), "keep");
    }
}
