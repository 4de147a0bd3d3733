//! The files a configMap, secret, downwardAPI or projected volume holds, as data: each key or
//! item as a path, mode and content, from what validation checked; what only the objects
//! tell (a missing one, a key that is no file name) is refused here. No I/O.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::manifest::volume_paths::{self, path_conflicts, PathConflict};

use super::{
    downward, invalid, missing, rel_path, Absent, Ctx, DownwardApiVolumeFile, KeyToPath, Reason, VolumeError,
    VolumeFile,
};

/// The files of one Files volume as they are collected, with the field each came from.
#[derive(Default)]
pub(super) struct FileSet {
    pub(super) files: Vec<(String, VolumeFile)>,
    pub(super) secret: bool,
}

impl FileSet {
    pub(super) fn push(&mut self, field: String, path: PathBuf, mode: u32, content: Vec<u8>) {
        self.files.push((field, VolumeFile { path, mode, content }));
    }

    /// The files, once no two claim the same path and none is needed as both a file and a
    /// directory (`a` and `a/b`): validation's rule (`volume_paths::path_conflicts`), which
    /// already refused what the manifests alone show.
    pub(super) fn finish(self) -> Result<Vec<VolumeFile>, VolumeError> {
        let paths: Vec<String> = self.files.iter().map(|(_, f)| f.path.to_string_lossy().into_owned()).collect();
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        if let Some((i, conflict)) = path_conflicts(&refs).into_iter().next() {
            let why = match conflict {
                PathConflict::Duplicate => "conflicting duplicate paths".to_owned(),
                PathConflict::UnderFile(a) => {
                    format!("conflicts with the file {a:?}, which would have to be a directory")
                }
            };
            let (field, f) = &self.files[i];
            return Err(invalid(field.as_str(), Reason::InvalidRaw { value: format!("{:?}", f.path), why }));
        }
        Ok(self.files.into_iter().map(|(_, f)| f).collect())
    }
}

/// A configMap or secret source (of a volume, or of a projected volume).
pub(super) struct Keys<'a> {
    pub(super) kind: &'static str,
    /// The field that names the object: `secretName` in a secret volume, `name` elsewhere.
    pub(super) name_field: &'static str,
    pub(super) name: &'a str,
    pub(super) items: &'a [KeyToPath],
    pub(super) optional: bool,
}

impl<'a> Keys<'a> {
    pub(super) fn config_map(name: &'a str, items: &'a [KeyToPath], optional: Option<bool>) -> Self {
        Keys { kind: "ConfigMap", name_field: "name", name, items, optional: optional.unwrap_or(false) }
    }

    /// `name_field`: `secretName` in a secret volume, `name` in a projection.
    pub(super) fn secret(
        name_field: &'static str,
        name: &'a str,
        items: &'a [KeyToPath],
        optional: Option<bool>,
    ) -> Self {
        Keys { kind: "Secret", name_field, name, items, optional: optional.unwrap_or(false) }
    }
}

pub(super) fn key_files(
    ctx: &Ctx,
    field: &str,
    keys: &Keys,
    default_mode: u32,
    out: &mut FileSet,
) -> Result<(), VolumeError> {
    let name_field = format!("{field}.{}", keys.name_field);
    // Decided by the manifest alone, so the volume's place does not move between applies as
    // the Secret comes and goes.
    out.secret |= keys.kind == "Secret";
    // The name and items are validation's (`check_volumes`), checked whether or not the
    // object exists, as the API server checks them.
    let mut items = Vec::with_capacity(keys.items.len());
    for (j, it) in keys.items.iter().enumerate() {
        let f = format!("{field}.items[{j}]");
        items.push((f, &it.key, item_path(&it.path), item_mode(it.mode, default_mode)));
    }
    let entries: Option<BTreeMap<&str, &[u8]>> = if keys.kind == "Secret" {
        ctx.configs
            .secret(ctx.namespace, keys.name)
            .map(|e| e.iter().map(|(k, v)| (k.as_str(), v.0.as_slice())).collect())
    } else {
        ctx.configs
            .config_map(ctx.namespace, keys.name)
            .map(|e| e.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect())
    };
    let Some(entries) = entries else {
        if keys.optional {
            return Ok(());
        }
        return Err(missing(
            name_field,
            Absent::Object { kind: keys.kind, namespace: ctx.namespace.to_owned(), name: keys.name.to_owned() },
        ));
    };
    if items.is_empty() {
        for (k, v) in entries {
            // A key becomes a file name: one that is not a plain name could not be written safely.
            let path = rel_path(k, &name_field).ok().filter(|p| p.components().count() == 1).ok_or_else(|| {
                invalid(
                    &name_field,
                    Reason::Plain(format!(
                        "{} {}/{}: key {k:?} is not a valid file name",
                        keys.kind, ctx.namespace, keys.name
                    )),
                )
            })?;
            out.push(name_field.clone(), path, default_mode, v.to_vec());
        }
        return Ok(());
    }
    for (f, key, path, m) in items {
        match entries.get(key.as_str()) {
            Some(v) => out.push(format!("{f}.path"), path, m, v.to_vec()),
            None if keys.optional => {}
            None => {
                return Err(missing(
                    format!("{f}.key"),
                    Absent::Key {
                        kind: keys.kind,
                        namespace: ctx.namespace.to_owned(),
                        name: keys.name.to_owned(),
                        key: key.clone(),
                    },
                ))
            }
        }
    }
    Ok(())
}

/// Field paths a downwardAPI volume file may show (fewer than an environment variable may).
fn volume_field_path_ok(path: &str) -> bool {
    let subscripted =
        |prefix: &str| path.strip_prefix(prefix).and_then(|r| r.strip_prefix("['")).is_some_and(|r| r.ends_with("']"));
    matches!(path, "metadata.name" | "metadata.namespace" | "metadata.uid" | "metadata.labels" | "metadata.annotations")
        || subscripted("metadata.labels")
        || subscripted("metadata.annotations")
}

/// An item's path, checked by validation to stay inside the volume, as a path in it: its `.`
/// and empty components dropped.
fn item_path(written: &str) -> PathBuf {
    Path::new(written).components().filter(|c| matches!(c, Component::Normal(_))).collect()
}

/// An item's mode, checked by validation to be in range, else the volume's default.
fn item_mode(mode: Option<i64>, default_mode: u32) -> u32 {
    mode.and_then(volume_paths::file_mode).unwrap_or(default_mode)
}

pub(super) fn downward_files(
    ctx: &Ctx,
    field: &str,
    items: &[DownwardApiVolumeFile],
    default_mode: u32,
    out: &mut FileSet,
) -> Result<(), VolumeError> {
    for (j, it) in items.iter().enumerate() {
        let f = format!("{field}.items[{j}]");
        let (path, m) = (item_path(&it.path), item_mode(it.mode, default_mode));
        let value = match (&it.field_ref, &it.resource_field_ref) {
            (Some(fr), None) => {
                let ff = format!("{f}.fieldRef");
                if let Some(v) = fr.api_version.as_deref().filter(|v| !v.is_empty() && *v != "v1") {
                    return Err(invalid(
                        format!("{ff}.apiVersion"),
                        Reason::Unsupported { value: v.to_owned(), supported: &["v1"] },
                    ));
                }
                if !volume_field_path_ok(&fr.field_path) {
                    return Err(invalid(
                        format!("{ff}.fieldPath"),
                        Reason::Unsupported {
                            value: fr.field_path.clone(),
                            supported: &[
                                "metadata.annotations",
                                "metadata.labels",
                                "metadata.name",
                                "metadata.namespace",
                                "metadata.uid",
                            ],
                        },
                    ));
                }
                downward::field_value(ctx.pod, &fr.field_path, ctx.facts, true)
                    .map_err(|e| invalid(format!("{ff}.fieldPath"), Reason::Plain(e.0)))?
            }
            (None, Some(rf)) => {
                let rff = format!("{f}.resourceFieldRef");
                if rf.container_name.as_deref().unwrap_or("").is_empty() {
                    return Err(invalid(format!("{rff}.containerName"), Reason::Required));
                }
                downward::resource_value(ctx.pod, "", rf, ctx.facts).map_err(|e| invalid(rff, Reason::Plain(e.0)))?
            }
            (None, None) => {
                return Err(invalid(
                    f,
                    Reason::RequiredBecause("must specify one of: `fieldRef` or `resourceFieldRef`"),
                ))
            }
            (Some(_), Some(_)) => {
                return Err(invalid(
                    f,
                    // Validation's wording (the API server's), value and all.
                    Reason::Invalid {
                        value: "resource".to_owned(),
                        why: "fieldRef and resourceFieldRef can not be specified simultaneously".to_owned(),
                    },
                ));
            }
        };
        out.push(format!("{f}.path"), path, m, value.into_bytes());
    }
    Ok(())
}
