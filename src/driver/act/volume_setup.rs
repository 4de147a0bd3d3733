//! The pod's volumes: planned and prepared on the host or the engine before its containers are
//! created, and refreshed in place while it runs.

use crate::driver::PodFailure;
use crate::pod::files::PodFiles;
use crate::pod::volumes::{self, VolumeSetup};
use crate::pod::DesiredPod;
use crate::runtime::Runtime;
use crate::status::outcome::ConfigCause;

use super::fatal;

/// Plans and prepares the pod's volumes: on the host (files, directories) when the engine can
/// see podrun's files, else as engine volumes (see `pod::volumes::engine`); and the named engine
/// volumes. Idempotent, so every sync that creates containers runs it: configMap and secret
/// files are rewritten when their contents changed.
pub(super) async fn volumes_for<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    files: Option<&PodFiles>,
) -> Result<Option<VolumeSetup>, PodFailure> {
    // On the engine, a pod without volumes still has its termination-log volume.
    if desired.manifest.spec.volumes.is_empty() && files.is_some() {
        return Ok(None);
    }
    let config =
        |cause: ConfigCause| PodFailure::Config { container: desired.name.clone(), cause, after: String::new() };
    let on_engine = files.is_none();
    // On the engine, host paths are only planned, never made.
    let planning = files.cloned().unwrap_or_else(|| PodFiles::new(PodFiles::default_root()));
    let mut setup = volumes::plan_volumes(&desired.manifest, &planning, &desired.configs, &desired.host)
        .map_err(|e| config(e.into()))?;
    if on_engine {
        setup = setup.on_engine();
    }
    setup.recursive_if_possible(desired.recursive_read_only);
    volumes::prepare(&setup).map_err(|e| config(e.into()))?;
    let named = setup.named_volumes().into_iter().map(|v| (v.name, v.labels, None));
    let own = setup.engine_volumes(&desired.namespace, &desired.name).into_iter().map(|v| (v.name, v.labels, v.tmpfs));
    for (name, labels, tmpfs) in named.chain(own) {
        rt.ensure_volume(&name, &labels, tmpfs.as_ref()).await.map_err(|e| {
            if fatal(&e) {
                PodFailure::Runtime(e)
            } else {
                config(ConfigCause::Runtime(Box::new(e)))
            }
        })?;
    }
    Ok(Some(setup))
}

/// Brings a running pod's configMap, secret, downwardAPI and projected volumes up to date with
/// `desired` (a re-apply, a changed manifest under `--supervise`), in place and without a
/// restart, as the kubelet does: on the host, each changed file is replaced atomically; on the
/// engine, a new data directory and a swap of its `..data` link. Sub-path mounts see no change
/// (they are bind mounts of what was there when the container started, as on a node).
pub async fn refresh_volumes<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    files: Option<&PodFiles>,
    infra_id: &str,
) -> Result<(), PodFailure> {
    if desired.manifest.spec.volumes.is_empty() {
        return Ok(());
    }
    let Some(setup) = volumes_for(rt, desired, files).await? else { return Ok(()) };
    if setup.is_on_engine() {
        setup.fill_engine(rt, infra_id, false).await.map_err(PodFailure::Runtime)?;
    }
    Ok(())
}
