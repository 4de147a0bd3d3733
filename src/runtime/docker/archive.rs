//! Files copied into and out of a container, as tar archives.

use bollard::query_parameters::{DownloadFromContainerOptionsBuilder, UploadToContainerOptionsBuilder};
use futures_util::StreamExt;
use hyper::body::Bytes;

use super::DockerRuntime;
use crate::runtime::{ArchiveStream, RuntimeError, UploadStream};

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

pub(super) async fn put_archive_stream(
    rt: &DockerRuntime,
    id: &str,
    path: &str,
    tar: UploadStream,
) -> Result<(), RuntimeError> {
    let what = format!("copy files into container {id} at {path}");
    let opts = UploadToContainerOptionsBuilder::default().path(path).build();
    let body = bollard::body_try_stream(tar.map(|chunk| chunk.map(Bytes::from)));
    match rt.docker.upload_to_container(id, Some(opts), body).await {
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => Err(RuntimeError::NotFound { what }),
        r => r.map_err(|e| rt.error(&what, e)),
    }
}

/// The archive's first chunk is awaited here, as the engine answers a path that does not exist
/// (404) before any byte of it: `None` then, and the stream of the rest otherwise.
pub(super) async fn get_archive_stream(
    rt: &DockerRuntime,
    id: &str,
    path: &str,
) -> Result<Option<ArchiveStream>, RuntimeError> {
    let what = format!("copy {path} out of container {id}");
    let opts = DownloadFromContainerOptionsBuilder::default().path(path).build();
    let mut stream = rt.docker.download_from_container(id, Some(opts)).boxed();
    let first = match stream.next().await {
        None => Vec::new(),
        Some(Ok(bytes)) => bytes.to_vec(),
        Some(Err(e)) if DockerRuntime::status_of(&e) == Some(404) => return Ok(None),
        Some(Err(e)) => return Err(rt.error(&what, e)),
    };
    let rt = rt.clone();
    let rest = stream.map(move |chunk| chunk.map(|b| b.to_vec()).map_err(|e| rt.error(&what, e)));
    Ok(Some(futures_util::stream::once(async move { Ok(first) }).chain(rest).boxed()))
}
