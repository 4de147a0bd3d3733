//! When a watched static pod directory calls for podrun to start over: what its files look
//! like now against what this podrun applied. A file that does not load is not applied, and
//! stays left out until its size, modification time or inode changes; a manifest that turned bad
//! does not start podrun over, so its pod, as the last good version made it, stays supervised
//! (a kubelet keeps the last good pod too).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::SystemTime;

/// A file's size, modification time and inode number: a change in any means "read it again".
/// The inode tells a file replaced by rename (as editors and config tools write) from the one
/// before it when both have the same size and were written within one tick of the file
/// system's clock.
pub type Stamp = (u64, Option<SystemTime>, u64);

/// The watched files and their stamps.
pub type Stamps = BTreeMap<PathBuf, Stamp>;

/// Whether podrun must start over to apply `now`: a file that loads is new or changed since
/// `applied` (what this podrun applied), or an applied file is gone (its pod is to be pruned).
/// Files in `bad` (that do not load now) count for neither.
pub fn starts_over(applied: &Stamps, now: &Stamps, bad: &BTreeSet<PathBuf>) -> bool {
    let changed_good = now.iter().any(|(path, stamp)| !bad.contains(path) && applied.get(path) != Some(stamp));
    let removed = applied.keys().any(|path| !now.contains_key(path));
    changed_good || removed
}

/// The files of `bad` not yet reported as they are now; `reported` then holds them.
pub fn newly_bad(reported: &mut Stamps, now: &Stamps, bad: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    reported.retain(|path, _| bad.contains(path));
    let mut out = Vec::new();
    for path in bad {
        let stamp = now.get(path).copied().unwrap_or_default();
        if reported.insert(path.clone(), stamp) != Some(stamp) {
            out.push(path.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(secs: u64) -> Stamp {
        (10, Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs)), 7)
    }

    fn stamps(files: &[(&str, Stamp)]) -> Stamps {
        files.iter().map(|(p, s)| (PathBuf::from(p), *s)).collect()
    }

    fn set(files: &[&str]) -> BTreeSet<PathBuf> {
        files.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn a_good_file_new_or_changed_or_a_removed_one_starts_podrun_over() {
        let applied = stamps(&[("a", at(1)), ("b", at(1))]);
        assert!(!starts_over(&applied, &applied, &set(&[])), "nothing changed");
        assert!(starts_over(&applied, &stamps(&[("a", at(2)), ("b", at(1))]), &set(&[])), "a changed");
        assert!(starts_over(&applied, &stamps(&[("a", at(1)), ("b", at(1)), ("c", at(1))]), &set(&[])), "c is new");
        assert!(starts_over(&applied, &stamps(&[("a", at(1))]), &set(&[])), "b was removed");
    }

    #[test]
    fn a_file_that_turned_bad_or_is_still_bad_does_not() {
        let applied = stamps(&[("a", at(1)), ("b", at(1))]);
        let now = stamps(&[("a", at(1)), ("b", at(2))]);
        assert!(!starts_over(&applied, &now, &set(&["b"])), "b is half-written: its pod stays as it was");
        let now = stamps(&[("a", at(1)), ("b", at(1)), ("c", at(3))]);
        assert!(!starts_over(&applied, &now, &set(&["c"])), "a new file that does not load");
        let now = stamps(&[("a", at(1)), ("b", at(1)), ("c", (11, at(3).1, 7))]);
        assert!(starts_over(&applied, &now, &set(&[])), "c, fixed, is applied");
    }

    #[test]
    fn a_bad_file_is_reported_once_until_it_changes() {
        let mut reported = Stamps::new();
        let now = stamps(&[("a", at(1)), ("c", at(1))]);
        assert_eq!(newly_bad(&mut reported, &now, &set(&["c"])), [PathBuf::from("c")]);
        assert!(newly_bad(&mut reported, &now, &set(&["c"])).is_empty(), "said once");
        let now = stamps(&[("a", at(1)), ("c", at(2))]);
        assert_eq!(newly_bad(&mut reported, &now, &set(&["c"])), [PathBuf::from("c")], "changed, still bad");
        assert!(newly_bad(&mut reported, &now, &set(&[])).is_empty());
        assert!(reported.is_empty(), "fixed: forgotten");
    }
}
