//! Named volumes on a CRI runtime, which has none of its own: a folder per volume in podrun's
//! state directory (`volumes/<name>/_data`, as Docker's local driver lays them out), its sealed
//! labels beside it, bind-mounted into the pod.

use std::collections::BTreeMap;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use super::CriRuntime;
use crate::private_fs;
use crate::runtime::seal::Kind;
use crate::runtime::{Cause, NotSupported, RuntimeError, Tmpfs, VolumeInfo};

const LABELS_FILE: &str = "labels.json";
const DATA: &str = "_data";
/// A labels file is podrun's own few hundred bytes; more is not read.
const MAX_LABELS_BYTES: u64 = 64 * 1024;

fn io(what: String) -> impl FnOnce(private_fs::PrivateFsError) -> RuntimeError {
    move |e| RuntimeError::Client { what, source: Cause(std::sync::Arc::new(e)) }
}

impl CriRuntime {
    fn volume_dir(&self, name: &str) -> PathBuf {
        // Names are podrun's own (DNS labels), but a `/` must never lead elsewhere.
        self.volumes.join(name.replace(['/', '\0'], "_").trim_start_matches('.'))
    }

    /// Where the volume's data lives, for a bind mount.
    pub(super) fn volume_data(&self, name: &str) -> String {
        self.volume_dir(name).join(DATA).display().to_string()
    }
}

fn read_labels(dir: &Path) -> Option<BTreeMap<String, String>> {
    let bytes = private_fs::read_head(&dir.join(LABELS_FILE), MAX_LABELS_BYTES).ok()??;
    serde_json::from_slice(&bytes).ok()
}

pub(super) fn ensure(
    rt: &CriRuntime,
    name: &str,
    labels: &BTreeMap<String, String>,
    tmpfs: Option<&Tmpfs>,
) -> Result<(), RuntimeError> {
    let what = format!("create volume {name}");
    if tmpfs.is_some() {
        return Err(RuntimeError::Unsupported { what, why: NotSupported::Cri("make a tmpfs-backed engine volume") });
    }
    private_fs::ensure_private_dir(&rt.volumes).map_err(io(what.clone()))?;
    let dir = rt.volume_dir(name);
    private_fs::private_subdir(&dir).map_err(io(what.clone()))?;
    if read_labels(&dir).is_none() {
        let mut labels = labels.clone();
        rt.seal.stamp(Kind::Volume, name, &mut labels);
        let json = serde_json::to_vec(&labels).unwrap_or_default();
        private_fs::replace_file(&dir.join(LABELS_FILE), &json, 0o600).map_err(io(what.clone()))?;
    }
    // The data folder is the pod's: its processes, of any user, may need to reach it, as a
    // Docker volume's `_data`.
    match std::fs::DirBuilder::new().mode(0o755).create(dir.join(DATA)) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(RuntimeError::Client { what, source: Cause(std::sync::Arc::new(e)) }),
    }
}

pub(super) fn list(rt: &CriRuntime, label_filters: &[String]) -> Vec<VolumeInfo> {
    let Ok(entries) = std::fs::read_dir(&rt.volumes) else { return Vec::new() };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(labels) = read_labels(&entry.path()) else { continue };
        if !rt.seal.verify(Kind::Volume, &name, &labels) {
            continue;
        }
        let wanted = label_filters.iter().all(|f| match f.split_once('=') {
            Some((k, v)) => labels.get(k).is_some_and(|x| x == v),
            None => labels.contains_key(f.as_str()),
        });
        if wanted {
            let created = entry.metadata().ok().and_then(|m| m.modified().ok());
            out.push(VolumeInfo { name, labels, created });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

pub(super) fn remove(rt: &CriRuntime, name: &str) -> Result<(), RuntimeError> {
    let dir = rt.volume_dir(name);
    match std::fs::symlink_metadata(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Ok(md) if md.is_dir() => {}
        _ => return Err(RuntimeError::VolumeNotOwned { name: name.to_owned() }),
    }
    let sealed = read_labels(&dir).is_some_and(|l| rt.seal.verify(Kind::Volume, name, &l));
    if !sealed {
        return Err(RuntimeError::VolumeNotOwned { name: name.to_owned() });
    }
    // remove_dir_all removes links, never what they point at.
    std::fs::remove_dir_all(&dir).map_err(|e| RuntimeError::Client {
        what: format!("remove volume {name}"),
        source: Cause(std::sync::Arc::new(e)),
    })
}
