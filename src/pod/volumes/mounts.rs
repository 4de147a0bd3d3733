//! Each container's mounts of the pod's volumes, as data: `volumeMounts` checked as the API
//! server checks them, and what the engine can and cannot do with them. No I/O.

use std::collections::{BTreeMap, BTreeSet};

use crate::manifest::volume_paths::{container_path, mount_point};

use super::{
    invalid, rel_path, unsupported, Container, MountPropagation, PlannedMount, PlannedSource, PlannedVolume,
    Propagation, Reason, RecursiveReadOnly, SubPath, Unable, VolumeError,
};

pub(super) fn plan_mounts(
    c: &Container,
    cfield: &str,
    by_name: &BTreeMap<&str, usize>,
    volumes: &[PlannedVolume],
) -> Result<Vec<PlannedMount>, VolumeError> {
    let privileged = c.security_context.as_ref().and_then(|s| s.privileged).unwrap_or(false);
    let mut targets = BTreeSet::new();
    let mut out = Vec::with_capacity(c.volume_mounts.len());
    for (j, m) in c.volume_mounts.iter().enumerate() {
        let field = format!("{cfield}.volumeMounts[{j}]");
        if m.name.is_empty() {
            return Err(invalid(format!("{field}.name"), Reason::Required));
        }
        let Some(&index) = by_name.get(m.name.as_str()) else {
            return Err(invalid(format!("{field}.name"), Reason::NotFound(m.name.clone())));
        };
        let volume = &volumes[index];
        let mp = &m.mount_path;
        if mp.is_empty() {
            return Err(invalid(format!("{field}.mountPath"), Reason::Required));
        }
        // A relative one is made absolute as the kubelet makes it.
        let normal = mount_point(mp);
        if normal == "/" {
            return Err(invalid(
                format!("{field}.mountPath"),
                Reason::Invalid { value: mp.clone(), why: "cannot mount over /".to_owned() },
            ));
        }
        if !targets.insert(normal) {
            return Err(invalid(
                format!("{field}.mountPath"),
                Reason::Invalid { value: mp.clone(), why: "must be unique".to_owned() },
            ));
        }
        let sub = m.sub_path.as_deref().unwrap_or("");
        let expr = m.sub_path_expr.as_deref().unwrap_or("");
        let sub_path = match (sub.is_empty(), expr.is_empty()) {
            (true, true) => SubPath::None,
            (false, true) => SubPath::Literal(rel_path(sub, &format!("{field}.subPath"))?),
            (true, false) => {
                // The expression must be a safe path already; its expansion is checked again.
                rel_path(expr, &format!("{field}.subPathExpr"))?;
                SubPath::Expr(expr.to_owned())
            }
            (false, false) => {
                return Err(invalid(
                    format!("{field}.subPathExpr"),
                    Reason::Invalid {
                        value: expr.to_owned(),
                        why: "subPathExpr and subPath are mutually exclusive".to_owned(),
                    },
                ))
            }
        };
        if sub_path != SubPath::None {
            if let PlannedSource::Claim { .. } = volume.source {
                let which = if sub.is_empty() { "subPathExpr" } else { "subPath" };
                return Err(unsupported(format!("{field}.{which}"), Unable::ClaimSubPath { volume: m.name.clone() }));
            }
        }
        let propagation = match m.mount_propagation {
            None | Some(MountPropagation::None) => Propagation::Private,
            Some(MountPropagation::HostToContainer) => Propagation::HostToContainer,
            Some(MountPropagation::Bidirectional) if privileged => Propagation::Bidirectional,
            Some(MountPropagation::Bidirectional) => {
                return Err(invalid(
                    format!("{field}.mountPropagation"),
                    Reason::Forbidden("Bidirectional mount propagation is available only to privileged containers"),
                ))
            }
        };
        let read_only = m.read_only.unwrap_or(false);
        let recursive_read_only = match m.recursive_read_only {
            None | Some(RecursiveReadOnly::Disabled) => false,
            Some(rro) => {
                let rf = format!("{field}.recursiveReadOnly");
                if !read_only {
                    return Err(invalid(rf, Reason::Forbidden("may only be specified when readOnly is true")));
                }
                if propagation != Propagation::Private {
                    return Err(invalid(
                        rf,
                        Reason::Forbidden("may only be specified when mountPropagation is None or not specified"),
                    ));
                }
                // IfPossible: a plain read-only mount is what is possible on every engine.
                rro == RecursiveReadOnly::Enabled
            }
        };
        let forced_read_only = match &volume.source {
            PlannedSource::Files { .. } | PlannedSource::Image { .. } => true,
            PlannedSource::Claim { read_only, .. } => *read_only,
            _ => false,
        };
        out.push(PlannedMount {
            field,
            index: j,
            volume: index,
            target: container_path(mp),
            read_only: read_only || forced_read_only,
            sub_path,
            propagation,
            recursive_read_only,
        });
    }
    Ok(out)
}
