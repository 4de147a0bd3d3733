//! Files copied into and out of a container, as tar archives.

use bollard::query_parameters::{DownloadFromContainerOptionsBuilder, UploadToContainerOptionsBuilder};
use futures_util::StreamExt;

use super::DockerRuntime;
use crate::runtime::RuntimeError;

pub(super) async fn put_archive(rt: &DockerRuntime, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
    let what = format!("copy files into container {id} at {path}");
    let opts = UploadToContainerOptionsBuilder::default().path(path).build();
    match rt.docker.upload_to_container(id, Some(opts), bollard::body_full(tar.into())).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => Err(RuntimeError::NotFound { what }),
        r => r.map_err(|e| rt.error(&what, e)),
    }
}

pub(super) async fn get_archive(
    rt: &DockerRuntime,
    id: &str,
    path: &str,
    max_bytes: usize,
) -> Result<Option<Vec<u8>>, RuntimeError> {
    let what = format!("copy {path} out of container {id}");
    let opts = DownloadFromContainerOptionsBuilder::default().path(path).build();
    let mut stream = rt.docker.download_from_container(id, Some(opts));
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(bytes) => {
                let room = max_bytes.saturating_sub(out.len());
                out.extend_from_slice(&bytes[..bytes.len().min(room)]);
                if out.len() >= max_bytes {
                    break;
                }
            }
            Err(e) if DockerRuntime::status_of(&e) == Some(404) => return Ok(None),
            Err(e) => return Err(rt.error(&what, e)),
        }
    }
    Ok(Some(out))
}
