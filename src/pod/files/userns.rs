//! The id ranges of pods in user namespaces of their own (`hostUsers: false`), allocated as the
//! kubelet allocates them (pkg/kubelet/userns, userns_manager.go): 65536 ids per pod, from the
//! range /etc/subuid gives the `kubelet` user, else from 65536 up to 2^32, never two pods in one
//! range. podrun also skips a range /etc/subuid or /etc/subgid gives any other user, so a
//! rootless engine's containers never share ids with a pod.
//!
//! Each allocation is a file, `<state>/userns/<n>` for the n-th range, holding the pod's uid:
//! created only if missing (`private_fs::create_once`), so two podruns never take one range,
//! and opened without following links. A range whose pod has no directory left in the state
//! directory is free again.

use std::path::{Path, PathBuf};

use crate::private_fs::{self, PrivateFsError};
use crate::runtime::IdRange;

use super::PodFiles;

/// The ids each pod gets (the kubelet's userNsLength).
pub const IDS_PER_POD: u32 = 65536;
/// Where the kubelet's default range starts, and its length (getKubeletMappings).
const DEFAULT_FIRST: u64 = 1 << 16;
const DEFAULT_LEN: u64 = (1 << 32) - DEFAULT_FIRST;
/// The user whose /etc/subuid range the kubelet takes.
const KUBELET_USER: &str = "kubelet";
/// /etc/subuid and /etc/subgid are small; more is not read.
const MAX_SUBID_BYTES: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum UsernsError {
    #[error("no free range of {IDS_PER_POD} ids for the pod's user namespace is left in {first}..{end}")]
    Full { first: u64, end: u64 },
    #[error("the pod's user namespace ids")]
    State(#[source] PrivateFsError),
}

/// One line of /etc/subuid or /etc/subgid: `name:first:count`.
fn ranges(text: &str) -> impl Iterator<Item = (&str, u64, u64)> {
    text.lines().filter_map(|l| {
        let mut parts = l.trim().splitn(3, ':');
        let (name, first, count) = (parts.next()?, parts.next()?, parts.next()?);
        Some((name, first.parse().ok()?, count.parse().ok()?))
    })
}

/// The ids pods are given: the `kubelet` user's /etc/subuid range (whole multiples of
/// [`IDS_PER_POD`]), else the kubelet's default; and the ranges other users hold.
fn pool(subuid: &str, subgid: &str) -> ((u64, u64), Vec<(u64, u64)>) {
    let kubelet = ranges(subuid).find(|(n, _, _)| *n == KUBELET_USER).map(|(_, f, c)| (f, c));
    let pool = kubelet.unwrap_or((DEFAULT_FIRST, DEFAULT_LEN));
    let others = ranges(subuid).chain(ranges(subgid)).filter(|(n, _, _)| *n != KUBELET_USER).map(|(_, f, c)| (f, c));
    (pool, others.collect())
}

/// The host id the n-th range starts at, when it lies within the pool and clear of `others`.
fn range_start(n: u64, (first, len): (u64, u64), others: &[(u64, u64)]) -> Option<u32> {
    let start = first + n * u64::from(IDS_PER_POD);
    let end = start + u64::from(IDS_PER_POD);
    let clear = others.iter().all(|&(f, c)| end <= f || f.saturating_add(c) <= start);
    (end <= first + len && clear).then(|| u32::try_from(start).ok()).flatten()
}

fn dir(files: &PodFiles) -> PathBuf {
    files.root().join("userns")
}

fn read_system(path: &str) -> String {
    private_fs::read_head(Path::new(path), MAX_SUBID_BYTES)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The range of the pod `uid`: the one it holds already, else the first free one, taken.
pub fn allocate(files: &PodFiles, uid: &str) -> Result<IdRange, UsernsError> {
    let (pool, others) = pool(&read_system("/etc/subuid"), &read_system("/etc/subgid"));
    // The pod's directory first: a range whose pod has none is taken for a free one.
    files.make_pod_dir(uid).map_err(UsernsError::State)?;
    let root = private_fs::ensure_private_dir(files.root()).map_err(UsernsError::State)?;
    let dir = root.join("userns");
    private_fs::private_subdir(&dir).map_err(UsernsError::State)?;
    if let Some(n) = held(files, uid).first() {
        if let Some(host_id) = range_start(*n, pool, &others) {
            return Ok(IdRange { host_id, size: IDS_PER_POD });
        }
    }
    let count = pool.1 / u64::from(IDS_PER_POD);
    for n in 0..count {
        let Some(host_id) = range_start(n, pool, &others) else { continue };
        let path = dir.join(n.to_string());
        let mut holder = private_fs::create_once(&path, uid.as_bytes(), 0o600, 256).map_err(UsernsError::State)?;
        if holder != uid.as_bytes() && is_gone(files, &holder) {
            // Its pod is gone: the range is free again (a podrun racing for it loses here).
            let _ = std::fs::remove_file(&path);
            holder = private_fs::create_once(&path, uid.as_bytes(), 0o600, 256).map_err(UsernsError::State)?;
        }
        if holder == uid.as_bytes() {
            return Ok(IdRange { host_id, size: IDS_PER_POD });
        }
    }
    Err(UsernsError::Full { first: pool.0, end: pool.0 + pool.1 })
}

/// Whether the pod holding a range has no directory left in the state directory.
fn is_gone(files: &PodFiles, holder: &[u8]) -> bool {
    let Ok(uid) = std::str::from_utf8(holder) else { return false };
    crate::manifest::defaults::is_pod_uid(uid) && !files.pod_dir(uid).exists()
}

/// The ranges the pod `uid` holds, by number, lowest first.
fn held(files: &PodFiles, uid: &str) -> Vec<u64> {
    let Ok(entries) = std::fs::read_dir(dir(files)) else { return Vec::new() };
    let mut found: Vec<u64> = entries
        .flatten()
        .filter(|e| private_fs::read_head(&e.path(), 256).ok().flatten().as_deref() == Some(uid.as_bytes()))
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    found.sort_unstable();
    found
}

/// Frees the ranges the pod `uid` holds, if any.
pub fn release(files: &PodFiles, uid: &str) {
    for n in held(files, uid) {
        let _ = std::fs::remove_file(dir(files).join(n.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_come_from_the_kubelet_user_and_skip_other_users() {
        let (p, others) = pool("kubelet:65536:131072\nalice:100000:1000\n", "bob:200000:65536\n");
        assert_eq!(p, (65536, 131072));
        assert_eq!(others, [(100_000, 1000), (200_000, 65536)]);
        // The first range overlaps alice's, the second is clear.
        assert_eq!(range_start(0, p, &others), None);
        assert_eq!(range_start(1, p, &others), Some(131_072));
        assert_eq!(range_start(2, p, &others), None, "past the kubelet's range");
        let (p, _) = pool("", "");
        assert_eq!(p, (DEFAULT_FIRST, DEFAULT_LEN));
        assert_eq!(range_start(0, p, &[]), Some(65536));
        assert_eq!(range_start(65534, p, &[]), Some(u32::MAX - 65535));
        assert_eq!(range_start(65535, p, &[]), None);
    }

    #[test]
    fn each_pod_gets_its_own_range_and_keeps_it_until_released() {
        let root = std::env::temp_dir().join(format!("podrun-userns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let files = PodFiles::new(&root);
        let (a, b) = ("00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b");
        for uid in [a, b] {
            std::fs::create_dir_all(files.pod_dir(uid)).unwrap();
        }
        let ra = allocate(&files, a).unwrap();
        let rb = allocate(&files, b).unwrap();
        assert_ne!(ra.host_id, rb.host_id);
        assert_eq!(allocate(&files, a).unwrap(), ra, "the same pod keeps its range");
        // A lower range freed meanwhile does not move a pod that holds one.
        release(&files, a);
        assert_eq!(allocate(&files, b).unwrap(), rb, "b keeps its range, with a's free below it");
        assert_eq!(allocate(&files, a).unwrap(), ra);
        release(&files, a);
        std::fs::remove_dir_all(files.pod_dir(a)).unwrap();
        let c = "00000000-0000-4000-8000-00000000000c";
        std::fs::create_dir_all(files.pod_dir(c)).unwrap();
        assert_eq!(allocate(&files, c).unwrap(), ra, "a released range is taken again");
        // A pod gone without a release frees its range too.
        std::fs::remove_dir_all(files.pod_dir(b)).unwrap();
        let d = "00000000-0000-4000-8000-00000000000d";
        std::fs::create_dir_all(files.pod_dir(d)).unwrap();
        assert_eq!(allocate(&files, d).unwrap(), rb);
        let _ = std::fs::remove_dir_all(&root);
    }
}
