//! Images through the CRI's image service: status, the image's user, pulls with credentials,
//! and the runtime's own sandbox image.

use super::api;
use super::CriRuntime;
use crate::runtime::auth::Credentials;
use crate::runtime::{PullProgress, RuntimeError};

fn spec(image: &str) -> Option<api::ImageSpec> {
    Some(api::ImageSpec { image: image.to_owned(), ..Default::default() })
}

/// The image as the runtime knows it, or None when it has none of that name.
pub(super) async fn status(rt: &CriRuntime, image: &str) -> Result<Option<api::Image>, RuntimeError> {
    let r = rt
        .channel
        .images
        .clone()
        .image_status(api::ImageStatusRequest { image: spec(image), verbose: false })
        .await
        .map_err(|s| rt.error(&format!("inspect image {image}"), s))?;
    Ok(r.into_inner().image)
}

pub(super) async fn image_user(rt: &CriRuntime, image: &str) -> Result<String, RuntimeError> {
    let Some(img) = status(rt, image).await? else {
        return Err(RuntimeError::NotFound { what: format!("inspect image {image}") });
    };
    // The runtime gives the USER as a number or a name, without its group.
    Ok(match img.uid {
        Some(uid) => uid.value.to_string(),
        None => img.username,
    })
}

pub(super) async fn pull(
    rt: &CriRuntime,
    image: &str,
    credentials: Option<&Credentials>,
    progress: &(dyn Fn(PullProgress) + Send + Sync),
) -> Result<(), RuntimeError> {
    // No server address: podrun chose these credentials for this image's registry already, and
    // containerd reads the address as a URL, dropping credentials stored under a bare
    // `host:port` (the Docker config's usual key).
    let auth = credentials.map(|c| api::AuthConfig {
        username: c.username.clone(),
        password: c.password.clone(),
        identity_token: c.identity_token.clone().unwrap_or_default(),
        ..Default::default()
    });
    // The CRI reports no progress: one step, done or not.
    progress(PullProgress { layers: 1, ..Default::default() });
    let r = rt
        .channel
        .images
        .clone()
        .pull_image(api::PullImageRequest { image: spec(image), auth, sandbox_config: None })
        .await;
    match r {
        Ok(_) => {
            progress(PullProgress { layers: 1, layers_done: 1, ..Default::default() });
            Ok(())
        }
        // A registry that answered "no such image".
        Err(s) if s.code() == tonic::Code::NotFound => {
            Err(RuntimeError::ImageNotFound { image: image.to_owned(), detail: s.message().to_owned() })
        }
        // Everything else (no registry, refused credentials) comes as UNKNOWN with the
        // resolver's words. Whether the registry answered at all cannot be told from the
        // code, so podrun asks the network itself, as for the Docker API's 500.
        Err(s) if s.code() == tonic::Code::Unknown => {
            let detail = s.message().to_owned();
            Err(if crate::runtime::registry::reachable(image).await {
                RuntimeError::Image { image: image.to_owned(), detail }
            } else {
                RuntimeError::RegistryUnreachable { image: image.to_owned(), detail }
            })
        }
        Err(s) => Err(rt.error(&format!("pull image {image}"), s)),
    }
}

/// The runtime's sandbox (pause) image, from its verbose status (containerd's and CRI-O's
/// `config.sandboxImage`, CRI-O's `config.pauseImage`); None when it does not say.
pub(super) async fn sandbox_image(rt: &CriRuntime) -> Result<Option<String>, RuntimeError> {
    let r = rt
        .channel
        .runtime
        .clone()
        .status(api::StatusRequest { verbose: true })
        .await
        .map_err(|s| rt.error("runtime status", s))?
        .into_inner();
    Ok(r.info.get("config").and_then(|c| sandbox_image_of(c)))
}

fn sandbox_image_of(config: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(config).ok()?;
    ["sandboxImage", "pauseImage"].iter().find_map(|k| v.get(k).and_then(|s| s.as_str()).map(str::to_owned))
}

/// Makes the sandbox image present (pulled when absent, as the runtime would), or says which
/// it is and how to provide it.
pub(super) async fn ensure_sandbox_image(rt: &CriRuntime) -> Result<(), RuntimeError> {
    let Some(image) = sandbox_image(rt).await? else { return Ok(()) };
    if status(rt, &image).await?.is_some() {
        return Ok(());
    }
    match pull(rt, &image, None, &|_| {}).await {
        Ok(()) => Ok(()),
        Err(
            RuntimeError::ImageNotFound { detail, .. }
            | RuntimeError::ImageDenied { detail, .. }
            | RuntimeError::Image { detail, .. }
            | RuntimeError::RegistryUnreachable { detail, .. },
        ) => Err(RuntimeError::SandboxImage { image, detail }),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_image_is_read_from_either_runtimes_config() {
        assert_eq!(
            sandbox_image_of(r#"{"sandboxImage":"registry.k8s.io/pause:3.6","other":1}"#).as_deref(),
            Some("registry.k8s.io/pause:3.6")
        );
        assert_eq!(sandbox_image_of(r#"{"pauseImage":"p:1"}"#).as_deref(), Some("p:1"));
        assert_eq!(sandbox_image_of("not json"), None);
    }
}
