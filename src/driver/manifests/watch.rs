//! How supervision watches a static pod directory's files: by their size, modification time and
//! inode. A file that does not load is said once, and stays left out until one of them
//! changes; the pod of its last good version stays supervised (a kubelet keeps the last good
//! pod too).

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
