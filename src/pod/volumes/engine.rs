//! The pod's own volumes kept by the engine, for an engine that cannot see podrun's files (any
//! engine but a unix socket on this host): emptyDir, configMap, secret, downwardAPI and
//! projected volumes become named engine volumes, filled through the engine's archive API.
//!
//! - Each volume is the named volume `podrun-<pod uid>-<volume name>`, labelled with the pod
//!   (`io.podrun.managed`, namespace, name, uid, and `io.podrun.volume`), removed with the pod.
//! - A Memory emptyDir, and a volume holding Secret data, is backed by a tmpfs (the `local`
//!   driver's `type=tmpfs`), so its content never reaches the engine's disk. Such a tmpfs lives
//!   while a container mounts it; the infra container mounts every volume of the pod (at
//!   `/.podrun/volumes/<name>`) and lives as long as the pod, so the volume does too, and it is
//!   shared by all the pod's containers.
//! - Files are written as the kubelet's atomic writer lays them out: the data in a timestamped
//!   directory `..<UTC time>.<hash of the content>`, a `..data` link to it, and one link per
//!   top-level name (`key -> ..data/key`). An update uploads a new timestamped directory and
//!   replaces `..data`, so a reader sees the old set or the new one. The hash in the name tells
//!   whether the volume already holds the wanted content (one read of the `..data` link).
//!
//! Everything is uploaded as one tar archive into the running infra container.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::fnv::fnv1a64;
use crate::runtime::{labels, Mount, Runtime, RuntimeError, Tmpfs};

use super::{empty_dir_mode, files_modes, PlannedSource, VolumeFile, VolumeSetup};

/// Where the infra container mounts the pod's engine volumes.
pub const INFRA_VOLUMES_DIR: &str = "/.podrun/volumes";
/// Where the infra container mounts the pod's termination-log volume, which holds one file per
/// container instance (`<container>-<attempt>`), bind-mounted at its terminationMessagePath.
pub const INFRA_TERMINATION_DIR: &str = "/.podrun/termination";
/// The label naming the pod volume an engine volume was made for.
pub const VOLUME_LABEL: &str = "io.podrun.volume";
/// The kubelet's name for the link to the current data directory.
const DATA_LINK: &str = "..data";
/// Enough for a `..data` link's archive (a header or two and padding).
const LINK_ARCHIVE_BYTES: usize = 16 * 1024;

/// The engine volume of the pod volume `volume` of the pod `uid`.
pub fn engine_volume_name(uid: &str, volume: &str) -> String {
    format!("podrun-{uid}-{volume}")
}

/// The engine volume holding the pod's termination-log files (`_` keeps it apart from every
/// pod volume's, whose names are DNS labels).
pub fn termination_volume_name(uid: &str) -> String {
    format!("podrun-{uid}_termination")
}

/// A tar archive of one empty termination-log file, writable by any user (the container may
/// run as anyone), for `INFRA_TERMINATION_DIR`.
pub fn termination_log_archive(container: &str, attempt: u32) -> io::Result<Vec<u8>> {
    let mut b = tar::Builder::new(Vec::new());
    let mut h = header(tar::EntryType::Regular, 0o666, None, 0);
    b.append_data(&mut h, format!("{container}-{attempt}"), io::empty())?;
    b.into_inner()
}

/// One engine volume the pod needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineVolume {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub tmpfs: Option<Tmpfs>,
}

/// The labels that find a pod's engine volumes (`Runtime::list_volumes`).
pub fn pod_volume_filters(uid: &str) -> Vec<String> {
    vec![format!("{}={}", labels::MANAGED, labels::MANAGED_VALUE), format!("{}={uid}", labels::POD_UID)]
}

impl VolumeSetup {
    /// The engine volumes of the pod's own volumes (claims are in `named_volumes`).
    pub fn engine_volumes(&self, namespace: &str, pod: &str) -> Vec<EngineVolume> {
        if !self.engine {
            return Vec::new();
        }
        let pod_labels = |volume: &str| {
            BTreeMap::from([
                (labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned()),
                (labels::POD_NAMESPACE.to_owned(), namespace.to_owned()),
                (labels::POD_NAME.to_owned(), pod.to_owned()),
                (labels::POD_UID.to_owned(), self.uid.clone()),
                (VOLUME_LABEL.to_owned(), volume.to_owned()),
            ])
        };
        let termination =
            EngineVolume { name: termination_volume_name(&self.uid), labels: pod_labels("_termination"), tmpfs: None };
        self.volumes
            .iter()
            .filter_map(|v| {
                let (tmpfs, size) = match &v.source {
                    PlannedSource::EmptyDir { memory, tmpfs_size, .. } => (*memory, *tmpfs_size),
                    PlannedSource::Files { secret, .. } => (*secret, None),
                    _ => return None,
                };
                let labels = pod_labels(&v.name);
                let mode = match &v.source {
                    PlannedSource::EmptyDir { memory, .. } => empty_dir_mode(*memory, self.fs_group),
                    _ => files_modes(true, self.fs_group).0,
                };
                Some(EngineVolume {
                    name: engine_volume_name(&self.uid, &v.name),
                    labels,
                    // Sized as the kubelet sizes a Memory emptyDir's tmpfs (`memory_size`).
                    tmpfs: tmpfs.then_some(Tmpfs { mode: mode & 0o7777, size }),
                })
            })
            .chain([termination])
            .collect()
    }

    /// The infra container's mounts of every engine volume, which keep them (and a tmpfs
    /// volume's content) for the pod's life, and through which podrun fills them.
    pub fn infra_mounts(&self) -> Vec<Mount> {
        if !self.engine {
            return Vec::new();
        }
        self.volumes
            .iter()
            .filter(|v| matches!(v.source, PlannedSource::EmptyDir { .. } | PlannedSource::Files { .. }))
            .map(|v| Mount::Volume {
                name: engine_volume_name(&self.uid, &v.name),
                target: format!("{INFRA_VOLUMES_DIR}/{}", v.name),
                read_only: false,
            })
            .chain([Mount::Volume {
                name: termination_volume_name(&self.uid),
                target: INFRA_TERMINATION_DIR.to_owned(),
                read_only: false,
            }])
            .collect()
    }

    /// The data directory name for the Files volume at `index`: a UTC timestamp (as the
    /// kubelet's) and the hash of what it holds.
    pub(super) fn data_dir_name(&self, files: &[VolumeFile], secret: bool, now: SystemTime) -> String {
        format!("..{}.{:016x}", utc_stamp(now), self.content_hash(files, secret))
    }

    fn content_hash(&self, files: &[VolumeFile], secret: bool) -> u64 {
        let mut buf = Vec::new();
        let (dir_mode, bits) = files_modes(secret, self.fs_group);
        buf.extend_from_slice(format!("{dir_mode:o} {bits:o} {:?}\0", self.fs_group).as_bytes());
        for f in files {
            buf.extend_from_slice(f.path.as_os_str().as_encoded_bytes());
            buf.extend_from_slice(format!("\0{:o}\0{}\0", f.mode, f.content.len()).as_bytes());
            buf.extend_from_slice(&f.content);
        }
        fnv1a64(&buf)
    }

    /// A tar archive (relative to [`INFRA_VOLUMES_DIR`]) that sets the roots of the emptyDirs
    /// (with `empty_dirs`) and writes the Files volumes named in `files` (`None`: every one).
    fn archive(&self, empty_dirs: bool, files: Option<&[String]>, now: SystemTime) -> io::Result<Vec<u8>> {
        let mut b = tar::Builder::new(Vec::new());
        let group = self.fs_group;
        let mtime = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        for v in &self.volumes {
            match &v.source {
                PlannedSource::EmptyDir { memory, .. } if empty_dirs => {
                    dir(&mut b, Path::new(&v.name), empty_dir_mode(*memory, group), group, mtime)?;
                }
                PlannedSource::Files { files: content, secret, .. }
                    if files.is_none_or(|names| names.contains(&v.name)) =>
                {
                    let (dir_mode, bits) = files_modes(*secret, group);
                    let root = Path::new(&v.name);
                    let data = self.data_dir_name(content, *secret, now);
                    dir(&mut b, root, dir_mode, group, mtime)?;
                    let data_root = root.join(&data);
                    dir(&mut b, &data_root, dir_mode, group, mtime)?;
                    let mut dirs: Vec<PathBuf> = content
                        .iter()
                        .flat_map(|f| f.path.ancestors().skip(1))
                        .filter(|a| !a.as_os_str().is_empty())
                        .map(Path::to_path_buf)
                        .collect();
                    dirs.sort();
                    dirs.dedup();
                    for d in &dirs {
                        dir(&mut b, &data_root.join(d), dir_mode, group, mtime)?;
                    }
                    for f in content {
                        let mut h = header(tar::EntryType::Regular, f.mode | bits, group, mtime);
                        h.set_size(f.content.len() as u64);
                        b.append_data(&mut h, data_root.join(&f.path), f.content.as_slice())?;
                    }
                    // The swap: `..data` replaced by a link to the new directory.
                    link(&mut b, &root.join(DATA_LINK), Path::new(&data), mtime)?;
                    let mut tops: Vec<&std::ffi::OsStr> = content
                        .iter()
                        .filter_map(|f| match f.path.components().next() {
                            Some(Component::Normal(n)) => Some(n),
                            _ => None,
                        })
                        .collect();
                    tops.sort();
                    tops.dedup();
                    for t in tops {
                        link(&mut b, &root.join(t), &Path::new(DATA_LINK).join(t), mtime)?;
                    }
                }
                _ => {}
            }
        }
        b.into_inner()
    }

    /// Fills the engine volumes through the running infra container `infra_id`: the emptyDir
    /// roots when the infra container is new (`fresh`: its volumes were just made or mounted
    /// again), and every Files volume whose `..data` does not already hold the wanted content.
    /// Returns the Files volumes written.
    pub async fn fill_engine<R: Runtime>(
        &self,
        rt: &R,
        infra_id: &str,
        fresh: bool,
    ) -> Result<Vec<String>, RuntimeError> {
        if !self.engine {
            return Ok(Vec::new());
        }
        let mut stale = Vec::new();
        for v in &self.volumes {
            let PlannedSource::Files { files, secret, .. } = &v.source else { continue };
            let want = format!(".{:016x}", self.content_hash(files, *secret));
            let path = format!("{INFRA_VOLUMES_DIR}/{}/{DATA_LINK}", v.name);
            let current = rt.get_archive(infra_id, &path, LINK_ARCHIVE_BYTES).await?;
            if !current.as_deref().and_then(link_target).is_some_and(|t| t.ends_with(&want)) {
                stale.push(v.name.clone());
            }
        }
        let has_empty_dirs = self.volumes.iter().any(|v| matches!(v.source, PlannedSource::EmptyDir { .. }));
        if stale.is_empty() && !(fresh && has_empty_dirs) {
            return Ok(stale);
        }
        let tar = self.archive(fresh, Some(&stale), crate::clock::now()).map_err(|e| RuntimeError::Client {
            what: "building the volumes' archive".into(),
            source: crate::runtime::Cause(std::sync::Arc::new(e)),
        })?;
        rt.put_archive(infra_id, INFRA_VOLUMES_DIR, tar).await?;
        Ok(stale)
    }
}

fn header(kind: tar::EntryType, mode: u32, group: Option<u32>, mtime: u64) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_mode(mode);
    h.set_uid(0);
    h.set_gid(u64::from(group.unwrap_or(0)));
    h.set_mtime(mtime);
    h.set_size(0);
    h
}

fn dir(b: &mut tar::Builder<Vec<u8>>, path: &Path, mode: u32, group: Option<u32>, mtime: u64) -> io::Result<()> {
    let mut h = header(tar::EntryType::Directory, mode, group, mtime);
    b.append_data(&mut h, path, io::empty())
}

fn link(b: &mut tar::Builder<Vec<u8>>, path: &Path, target: &Path, mtime: u64) -> io::Result<()> {
    let mut h = header(tar::EntryType::Symlink, 0o777, None, mtime);
    b.append_link(&mut h, path, target)
}

/// The target of the symbolic link an archive holds (its first entry).
pub fn link_target(archive: &[u8]) -> Option<String> {
    let mut a = tar::Archive::new(archive);
    let entry = a.entries().ok()?.next()?.ok()?;
    if entry.header().entry_type() != tar::EntryType::Symlink {
        return None;
    }
    Some(entry.link_name().ok()??.to_string_lossy().into_owned())
}

/// The last `max` bytes of the regular file an archive holds (its first entry), as the kubelet
/// reads a termination message.
pub fn file_content(archive: &[u8], max: usize) -> Option<Vec<u8>> {
    let mut a = tar::Archive::new(archive);
    let mut entry = a.entries().ok()?.next()?.ok()?;
    if entry.header().entry_type() != tar::EntryType::Regular {
        return None;
    }
    let mut out = Vec::new();
    // An archive cut short (see `Runtime::get_archive`) still gives what it holds.
    let _ = io::Read::read_to_end(&mut entry, &mut out);
    Some(out.split_off(out.len().saturating_sub(max)))
}

/// `2006_01_02_15_04_05`, UTC: the kubelet's timestamp for a data directory.
fn utc_stamp(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = crate::clock::civil_from_days(days);
    format!("{y:04}_{m:02}_{d:02}_{:02}_{:02}_{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn stamps_are_the_kubelets() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "1970_01_01_00_00_00");
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_secs(1_796_136_619)), "2026_12_01_14_50_19");
        assert_eq!(utc_stamp(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000_02_29_00_00_00");
    }
}
