//! Each container's mounts of the pod's volumes, as data: `volumeMounts` as validation checked
//! them (`manifest::validate::check_volumes`), and what the engine can and cannot do with them.
//! No I/O.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{
    unsupported, CheckedMount, CheckedSubPath, MountPropagation, PlannedMount, PlannedSource, PlannedVolume,
    Propagation, SubPath, Unable, VolumeError,
};

pub(super) fn plan_mounts(
    checked: &[CheckedMount],
    by_name: &BTreeMap<&str, usize>,
    volumes: &[PlannedVolume],
) -> Result<Vec<PlannedMount>, VolumeError> {
    let mut out = Vec::with_capacity(checked.len());
    for m in checked {
        // Checked: every mount names a volume that passed its checks.
        let Some(&index) = by_name.get(m.volume) else { continue };
        let volume = &volumes[index];
        let sub_path = match m.sub_path {
            CheckedSubPath::None => SubPath::None,
            // Checked to be a path inside the volume: only `.` and empty components go.
            CheckedSubPath::Literal(p) => {
                SubPath::Literal(p.split('/').filter(|c| !c.is_empty() && *c != ".").collect::<PathBuf>())
            }
            CheckedSubPath::Expr(e) => SubPath::Expr(e.to_owned()),
        };
        if sub_path != SubPath::None {
            if let PlannedSource::Claim { .. } = volume.source {
                let which = if matches!(sub_path, SubPath::Expr(_)) { "subPathExpr" } else { "subPath" };
                let field = format!("{}.{which}", m.field);
                return Err(unsupported(field, Unable::ClaimSubPath { volume: m.volume.to_owned() }));
            }
        }
        let propagation = match m.propagation {
            MountPropagation::None => Propagation::Private,
            MountPropagation::HostToContainer => Propagation::HostToContainer,
            MountPropagation::Bidirectional => Propagation::Bidirectional,
        };
        let forced_read_only = match &volume.source {
            PlannedSource::Files { .. } | PlannedSource::Image { .. } => true,
            PlannedSource::Claim { read_only, .. } => *read_only,
            _ => false,
        };
        out.push(PlannedMount {
            field: m.field.clone(),
            index: m.index,
            volume: index,
            target: m.target.clone(),
            read_only: m.read_only || forced_read_only,
            sub_path,
            propagation,
            recursive_read_only: m.recursive_read_only,
            recursive_if_possible: m.recursive_if_possible,
        });
    }
    Ok(out)
}
