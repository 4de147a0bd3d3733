//! The one rule book for volumes and their mounts, handed on: [`check_volumes`] applies the
//! rules validation reports (`volumes.rs`: the API server's, in its words and field paths, and
//! podrun's own) and, when a pod passes them, gives its volumes and mounts typed, so the volume
//! planner (`pod/volumes`) plans them without checking again.

use std::collections::BTreeSet;

pub use super::volumes::Medium;
use super::volumes::{validate_mounts, validate_volumes};
use super::{FieldError, PodContext};
use crate::manifest::quantity::Quantity;
use crate::manifest::types::{
    ConfigMapVolumeSource, DownwardApiVolumeSource, HostPathType, MountPropagation, Pod, ProjectedVolumeSource,
    PullPolicy, RecursiveReadOnly, SecretVolumeSource, Volume, VolumeMount,
};
use crate::manifest::volume_paths::{container_path, file_mode};

/// A pod's volumes and every container's mounts of them, checked.
#[derive(Debug)]
pub struct CheckedVolumes<'a> {
    /// In manifest order.
    pub volumes: Vec<CheckedVolume<'a>>,
    /// By container (init and app), in manifest order.
    pub mounts: Vec<(&'a str, Vec<CheckedMount<'a>>)>,
}

/// One volume of `spec.volumes`, checked.
#[derive(Debug)]
pub struct CheckedVolume<'a> {
    pub name: &'a str,
    /// Its field path, `spec.volumes[i]`.
    pub field: String,
    pub source: CheckedSource<'a>,
}

/// A volume's one source, checked: modes in range, paths inside the volume, names given.
#[derive(Debug)]
pub enum CheckedSource<'a> {
    /// `size_limit`: in bytes, when set above zero and within what podrun can count.
    EmptyDir {
        medium: Medium,
        size_limit: Option<u64>,
    },
    HostPath {
        path: &'a str,
        kind: HostPathType,
    },
    ConfigMap {
        source: &'a ConfigMapVolumeSource,
        default_mode: u32,
    },
    Secret {
        source: &'a SecretVolumeSource,
        default_mode: u32,
    },
    DownwardApi {
        source: &'a DownwardApiVolumeSource,
        default_mode: u32,
    },
    Projected {
        source: &'a ProjectedVolumeSource,
        default_mode: u32,
    },
    Claim {
        claim_name: &'a str,
        read_only: bool,
    },
    Image {
        reference: &'a str,
        pull_policy: PullPolicy,
    },
    /// A source podrun refuses (validation says why), at its field (`spec.volumes[i].nfs`).
    Refused {
        field: String,
    },
}

/// One `volumeMounts` entry, checked.
#[derive(Debug)]
pub struct CheckedMount<'a> {
    /// `spec.containers[i].volumeMounts[j]`.
    pub field: String,
    /// `j`.
    pub index: usize,
    pub volume: &'a str,
    /// The path in the container, absolute (a relative `mountPath` as the kubelet makes it).
    pub target: String,
    pub read_only: bool,
    pub sub_path: CheckedSubPath<'a>,
    pub propagation: MountPropagation,
    /// `recursiveReadOnly: Enabled`: recursive, or refused where the engine cannot.
    pub recursive_read_only: bool,
    /// `recursiveReadOnly: IfPossible`: recursive where the engine can, else plain read-only.
    pub recursive_if_possible: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckedSubPath<'a> {
    None,
    /// A path inside the volume, as written.
    Literal(&'a str),
    /// Checked as written; its expansion is checked where the environment is known.
    Expr(&'a str),
}

/// The API server's default for `defaultMode` and for an item without `mode`.
const DEFAULT_FILE_MODE: u32 = 0o644;

/// Checks the pod's volumes and mounts by validation's rules: every problem, or the typed
/// volumes and mounts. A volume with no source is an emptyDir, as the API server defaults it.
pub fn check_volumes(pod: &Pod) -> Result<CheckedVolumes<'_>, Vec<FieldError>> {
    let spec = &pod.spec;
    let container_names: BTreeSet<&str> = spec.all_containers().map(|(_, c, _)| c.name.as_str()).collect();
    let mut errors = Vec::new();
    let ctx = PodContext {
        volumes: validate_volumes(&spec.volumes, &container_names, &mut errors),
        host_users: spec.host_users != Some(false),
        container_names,
    };
    for (path, c, _) in spec.all_containers() {
        validate_mounts(c, &path, &ctx, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let volumes = spec
        .volumes
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let field = format!("spec.volumes[{i}]");
            CheckedVolume { name: &v.name, source: source(v, &field), field }
        })
        .collect();
    let mounts = spec
        .all_containers()
        .map(|(path, c, _)| {
            let privileged = c.security_context.as_ref().and_then(|s| s.privileged).unwrap_or(false);
            let ms = c.volume_mounts.iter().enumerate().map(|(j, m)| mount(m, &path, j, privileged)).collect();
            (c.name.as_str(), ms)
        })
        .collect();
    Ok(CheckedVolumes { volumes, mounts })
}

fn default_mode(m: Option<i64>) -> u32 {
    m.and_then(file_mode).unwrap_or(DEFAULT_FILE_MODE)
}

fn source<'a>(v: &'a Volume, field: &str) -> CheckedSource<'a> {
    if let Some((name, _)) = v.other_sources.iter().find(|(_, value)| !value.is_null()) {
        return CheckedSource::Refused { field: format!("{field}.{name}") };
    }
    if v.ephemeral.as_ref().is_some_and(|e| !e.is_null()) {
        return CheckedSource::Refused { field: format!("{field}.ephemeral") };
    }
    if let Some(h) = &v.host_path {
        let kind = HostPathType::parse(h.type_.as_deref().unwrap_or("")).unwrap_or(HostPathType::Unset);
        return CheckedSource::HostPath { path: &h.path, kind };
    }
    if let Some(c) = &v.persistent_volume_claim {
        return CheckedSource::Claim { claim_name: &c.claim_name, read_only: c.read_only.unwrap_or(false) };
    }
    if let Some(i) = &v.image {
        let pull_policy = i.pull_policy.unwrap_or_else(|| crate::manifest::defaults::default_pull_policy(&i.reference));
        return CheckedSource::Image { reference: &i.reference, pull_policy };
    }
    if let Some(s) = &v.config_map {
        return CheckedSource::ConfigMap { source: s, default_mode: default_mode(s.default_mode) };
    }
    if let Some(s) = &v.secret {
        return CheckedSource::Secret { source: s, default_mode: default_mode(s.default_mode) };
    }
    if let Some(s) = &v.downward_api {
        return CheckedSource::DownwardApi { source: s, default_mode: default_mode(s.default_mode) };
    }
    if let Some(s) = &v.projected {
        return CheckedSource::Projected { source: s, default_mode: default_mode(s.default_mode) };
    }
    let e = v.empty_dir.clone().unwrap_or_default();
    let medium = Medium::parse(e.medium.as_deref().unwrap_or("")).unwrap_or(Medium::Disk);
    // Any magnitude is valid: what is beyond u64 is no limit podrun can apply.
    let size_limit = (e.size_limit.as_deref())
        .and_then(|s| Quantity::parse(s).ok())
        .and_then(|q| u64::try_from(q.value_ceil()).ok())
        .filter(|b| *b > 0);
    CheckedSource::EmptyDir { medium, size_limit }
}

fn mount<'a>(m: &'a VolumeMount, container: &str, j: usize, privileged: bool) -> CheckedMount<'a> {
    let sub = m.sub_path.as_deref().filter(|s| !s.is_empty());
    let expr = m.sub_path_expr.as_deref().filter(|s| !s.is_empty());
    let sub_path = match (sub, expr) {
        (Some(s), _) => CheckedSubPath::Literal(s),
        (None, Some(e)) => CheckedSubPath::Expr(e),
        (None, None) => CheckedSubPath::None,
    };
    // Bidirectional is checked to be a privileged container's.
    let propagation = match m.mount_propagation {
        Some(MountPropagation::Bidirectional) if privileged => MountPropagation::Bidirectional,
        Some(MountPropagation::HostToContainer) => MountPropagation::HostToContainer,
        _ => MountPropagation::None,
    };
    CheckedMount {
        field: format!("{container}.volumeMounts[{j}]"),
        index: j,
        volume: &m.name,
        target: container_path(&m.mount_path),
        read_only: m.read_only.unwrap_or(false),
        sub_path,
        propagation,
        recursive_read_only: m.recursive_read_only == Some(RecursiveReadOnly::Enabled),
        recursive_if_possible: m.recursive_read_only == Some(RecursiveReadOnly::IfPossible),
    }
}
