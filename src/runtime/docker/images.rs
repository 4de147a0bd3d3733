//! Images: whether one is present, its user, pulling (with credentials and progress) and loading.

use bollard::auth::DockerCredentials;
use bollard::errors::Error as BollardError;
use bollard::query_parameters::{CreateImageOptionsBuilder, ImportImageOptionsBuilder};
use futures_util::StreamExt;

use super::convert::Engine;
use super::progress::LayerProgress;
use super::DockerRuntime;
use crate::manifest::image::pull_reference;
use crate::runtime::auth::Credentials;
use crate::runtime::{registry, BadAnswer, ImageIdentity, ImageRuntime, PullProgress, RuntimeError};

pub(super) async fn image_present(rt: &DockerRuntime, image: &str) -> Result<bool, RuntimeError> {
    match rt.docker.inspect_image(image).await {
        Ok(_) => Ok(true),
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => Ok(false),
        Err(e) => Err(rt.error(&format!("inspect image {image}"), e)),
    }
}

/// The image `image` names now; None when the engine has none of that name.
pub(super) async fn image_identity(rt: &DockerRuntime, image: &str) -> Result<Option<ImageIdentity>, RuntimeError> {
    match rt.docker.inspect_image(image).await {
        Ok(img) => Ok(img.id.map(|id| ImageIdentity { id, digests: img.repo_digests.unwrap_or_default() })),
        Err(e) if DockerRuntime::status_of(&e) == Some(404) => Ok(None),
        Err(e) => Err(rt.error(&format!("inspect image {image}"), e)),
    }
}

pub(super) async fn image_user(rt: &DockerRuntime, image: &str) -> Result<String, RuntimeError> {
    let img = rt.docker.inspect_image(image).await.map_err(|e| rt.error(&format!("inspect image {image}"), e))?;
    Ok(img.config.and_then(|c| c.user).unwrap_or_default())
}

pub(super) async fn pull_image(
    rt: &DockerRuntime,
    image: &str,
    credentials: Option<&Credentials>,
    progress: &(dyn Fn(PullProgress) + Send + Sync),
) -> Result<(), RuntimeError> {
    let reference = pull_reference(image);
    let opts = CreateImageOptionsBuilder::default().from_image(&reference).build();
    let auth = credentials.map(|c| DockerCredentials {
        username: Some(c.username.clone()).filter(|u| !u.is_empty()),
        password: Some(c.password.clone()).filter(|p| !p.is_empty()),
        serveraddress: Some(c.server.clone()),
        identitytoken: c.identity_token.clone(),
        ..Default::default()
    });
    let auth_again = auth.clone();
    let mut stream = rt.docker.create_image(Some(opts), None, auth);
    let mut layers = LayerProgress::default();
    while let Some(item) = stream.next().await {
        match item {
            Ok(info) => {
                if layers.update(&info) {
                    progress(layers.total());
                }
            }
            Err(e) => {
                return Err(match e {
                    BollardError::DockerResponseServerError { status_code: 404, message } => {
                        RuntimeError::ImageNotFound { image: image.to_owned(), detail: message }
                    }
                    // 500: the engine could not get it from the registry. Whether the
                    // registry answered at all (an auth failure) or not (offline) cannot be
                    // told from the status, so podrun asks the network itself.
                    BollardError::DockerResponseServerError { status_code: 500, message }
                        if !registry::reachable(image).await =>
                    {
                        RuntimeError::RegistryUnreachable { image: image.to_owned(), detail: message }
                    }
                    // Docker answers a registry's 401 with 500 here; its distribution
                    // endpoint passes the registry's status on.
                    BollardError::DockerResponseServerError { status_code: 500, message }
                        if rt.engine == Engine::Docker =>
                    {
                        refused(rt, image, &reference, auth_again, message).await
                    }
                    BollardError::DockerResponseServerError { message, .. } => {
                        RuntimeError::Image { image: image.to_owned(), detail: message }
                    }
                    // Podman answers 200 and reports every failed pull in the stream,
                    // an offline registry too: told apart as the 500 above is.
                    BollardError::DockerStreamError { error } if !registry::reachable(image).await => {
                        RuntimeError::RegistryUnreachable { image: image.to_owned(), detail: error }
                    }
                    BollardError::DockerStreamError { error } => {
                        RuntimeError::Image { image: image.to_owned(), detail: error }
                    }
                    other => rt.error(&format!("pull {image}"), other),
                });
            }
        }
    }
    Ok(())
}

/// What a Docker Engine's failed pull (500) was, as its distribution endpoint
/// (`GET /distribution/{name}/json`, the registry's answer for the manifest) tells by status:
/// 401 or 403, the credentials given were refused; 404, there is no such image. Anything else
/// leaves it a failure to try again.
async fn refused(
    rt: &DockerRuntime,
    image: &str,
    reference: &str,
    auth: Option<DockerCredentials>,
    detail: String,
) -> RuntimeError {
    let (image, asked) = (image.to_owned(), rt.docker.inspect_registry_image(reference, auth).await);
    match asked.as_ref().err().and_then(DockerRuntime::status_of) {
        Some(401 | 403) => RuntimeError::ImageDenied { image, detail },
        Some(404) => RuntimeError::ImageNotFound { image, detail },
        _ => RuntimeError::Image { image, detail },
    }
}

pub(super) async fn load_image(rt: &DockerRuntime, image: &str, archive: Vec<u8>) -> Result<(), RuntimeError> {
    let what = format!("load image {image}");
    let opts = ImportImageOptionsBuilder::default().quiet(true).build();
    let mut stream = rt.docker.import_image(opts, bollard::body_full(archive.into()), None);
    while let Some(item) = stream.next().await {
        item.map_err(|e| rt.error(&what, e))?;
    }
    // The archive names the image; an engine that took it under another name (or not at
    // all) would otherwise fail later, at the create, with a less telling error.
    if rt.image_present(image).await? {
        Ok(())
    } else {
        Err(RuntimeError::Protocol { what, why: BadAnswer::NoImage(image.to_owned()) })
    }
}
