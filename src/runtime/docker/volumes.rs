//! Named volumes podrun makes: created (tmpfs-backed or not), listed, located and removed.

use std::collections::{BTreeMap, HashMap};

use bollard::errors::Error as BollardError;
use bollard::models::VolumeCreateRequest;
use bollard::query_parameters::{ListVolumesOptionsBuilder, RemoveVolumeOptionsBuilder};

use super::DockerRuntime;
use crate::runtime::seal::Kind;
use crate::runtime::{RuntimeError, Tmpfs, VolumeInfo};

pub(super) async fn ensure_volume(
    rt: &DockerRuntime,
    name: &str,
    labels: &BTreeMap<String, String>,
    tmpfs: Option<&Tmpfs>,
) -> Result<(), RuntimeError> {
    let driver_opts = tmpfs.map(|t| {
        // The local driver mounts it (with these options) when a container first uses it,
        // and unmounts it when the last one stops.
        let mut o = format!("mode={:o}", t.mode);
        if let Some(size) = t.size {
            o = format!("size={size},{o}");
        }
        HashMap::from([
            ("type".to_owned(), "tmpfs".to_owned()),
            ("device".to_owned(), "tmpfs".to_owned()),
            ("o".to_owned(), o),
        ])
    });
    let mut labels = labels.clone();
    rt.seal.stamp(Kind::Volume, name, &mut labels);
    let req = VolumeCreateRequest {
        name: Some(name.to_owned()),
        labels: Some(labels.into_iter().collect()),
        driver: tmpfs.map(|_| "local".to_owned()),
        driver_opts,
        ..Default::default()
    };
    // The engine answers a create of an existing local volume with that volume, unchanged;
    // 409 (the name taken with another driver, or a racing create) also means it exists.
    match rt.docker.create_volume(req).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(409) => Ok(()),
        r => r.map(drop).map_err(|e| rt.error(&format!("create volume {name}"), e)),
    }
}

pub(super) async fn list_volumes(
    rt: &DockerRuntime,
    label_filters: &[String],
) -> Result<Vec<VolumeInfo>, RuntimeError> {
    let filters = HashMap::from([("label".to_owned(), label_filters.to_vec())]);
    let opts = ListVolumesOptionsBuilder::default().filters(&filters).build();
    let list = rt.docker.list_volumes(Some(opts)).await.map_err(|e| rt.error("list volumes", e))?;
    // Checked again here: Podman 4.3 matches a volume carrying any one of several label
    // filters, Docker only one carrying all of them.
    let wanted = |labels: &HashMap<String, String>| {
        label_filters.iter().all(|f| match f.split_once('=') {
            Some((k, v)) => labels.get(k).is_some_and(|x| x == v),
            None => labels.contains_key(f),
        })
    };
    Ok(list
        .volumes
        .unwrap_or_default()
        .into_iter()
        .filter(|v| wanted(&v.labels))
        .map(|v| VolumeInfo {
            created: v.created_at.as_deref().and_then(crate::clock::parse_time),
            name: v.name,
            labels: v.labels.into_iter().collect(),
        })
        // Only podrun's own: what is listed here is removed on delete.
        .filter(|v| rt.seal.verify(Kind::Volume, &v.name, &v.labels))
        .collect())
}

pub(super) async fn volume_mountpoint(rt: &DockerRuntime, name: &str) -> Result<String, RuntimeError> {
    let what = format!("inspect volume {name}");
    match rt.docker.inspect_volume(name).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => {
            Err(RuntimeError::NotFound { what: format!("volume {name}") })
        }
        r => Ok(r.map_err(|e| rt.error(&what, e))?.mountpoint),
    }
}

pub(super) async fn remove_volume(rt: &DockerRuntime, name: &str) -> Result<(), RuntimeError> {
    let what = format!("remove volume {name}");
    let volume = match rt.docker.inspect_volume(name).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => return Ok(()),
        r => r.map_err(|e| rt.error(&what, e))?,
    };
    // As with containers: podrun never removes data it did not create.
    if !rt.seal.verify(Kind::Volume, name, &volume.labels.into_iter().collect()) {
        return Err(RuntimeError::VolumeNotOwned { name: name.to_owned() });
    }
    let opts = RemoveVolumeOptionsBuilder::default().force(false).build();
    match rt.docker.remove_volume(name, Some(opts)).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => Ok(()),
        // 409: still in use by a container. Reported as the engine said it, not as
        // `Conflict` (which reads "already exists").
        Err(BollardError::DockerResponseServerError { status_code: 409, message }) => {
            Err(RuntimeError::Engine { what, status: 409, message })
        }
        r => r.map_err(|e| rt.error(&what, e)),
    }
}
