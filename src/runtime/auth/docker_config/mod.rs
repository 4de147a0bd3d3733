//! Registry credentials from the Docker CLI's config.json, read the way the Docker CLI reads it
//! (`cli/config/configfile`): a per-registry `credHelpers` entry, else the `credsStore`, else
//! the plain `auths` entries.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::entries::{user_and_password, AuthMap};
use super::helper::{run_helper, HELPER_TIMEOUT};
use super::{AuthError, Credentials, JsonProblem};
use crate::manifest::image::{is_hub_alias, registry_of, DOCKER_HUB};

/// The key under which the Docker CLI stores and looks up Docker Hub credentials.
const INDEX_SERVER: &str = "https://index.docker.io/v1/";

#[derive(Debug, Default, Deserialize)]
struct DockerConfigFile {
    #[serde(default)]
    auths: Option<AuthMap>,
    #[serde(default, rename = "credsStore")]
    creds_store: Option<String>,
    #[serde(default, rename = "credHelpers")]
    cred_helpers: Option<BTreeMap<String, Option<String>>>,
}

/// Docker's ConvertToHostname: a config key without scheme and path.
fn key_hostname(key: &str) -> &str {
    let key = key.strip_prefix("https://").or_else(|| key.strip_prefix("http://")).unwrap_or(key);
    key.split('/').next().unwrap_or(key)
}

/// Whether a config key stands for `domain`, beyond Docker's exact key: its host is the
/// registry's (Docker's legacy-key rule), or both are Docker Hub under any of its names.
fn key_names(key: &str, domain: &str) -> bool {
    let host = key_hostname(key);
    host == domain || (domain == DOCKER_HUB && is_hub_alias(host))
}

/// Credentials from the user's Docker config: `$DOCKER_CONFIG/config.json`, else
/// `~/.docker/config.json` (HOME); `credHelpers[registry]` first, then `credsStore`, then
/// `auths` entries (as Docker does). A helper is the program `docker-credential-<name>`, run with the
/// argument `get`, the server URL on stdin, JSON `{"ServerURL","Username","Secret"}` on stdout
/// (Username `<token>` means Secret is an identity token). Bounded: kill the helper after 10 s.
/// No config file: Ok(None).
///
pub async fn from_docker_config(image: &str) -> Result<Option<Credentials>, AuthError> {
    let Some(dir) = docker_config_dir() else { return Ok(None) };
    from_docker_config_at(image, &dir, std::env::var_os("PATH").as_deref()).await
}

/// The Docker CLI's config directory (`cli/config.Dir`): `$DOCKER_CONFIG`, else `~/.docker`
/// (HOME). None when neither is set. Registry credentials and Docker contexts live there.
pub fn docker_config_dir() -> Option<PathBuf> {
    match std::env::var_os("DOCKER_CONFIG").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|home| Path::new(&home).join(".docker")),
    }
}

/// The same with an explicit config directory and helper search PATH (for tests). `path_env`
/// `None` searches the process's PATH.
async fn from_docker_config_at(
    image: &str,
    dir: &Path,
    path_env: Option<&OsStr>,
) -> Result<Option<Credentials>, AuthError> {
    lookup_docker_config(image, dir, path_env, HELPER_TIMEOUT).await
}

async fn lookup_docker_config(
    image: &str,
    dir: &Path,
    path_env: Option<&OsStr>,
    helper_timeout: Duration,
) -> Result<Option<Credentials>, AuthError> {
    let path = dir.join("config.json");
    let shown = path.display().to_string();
    let text = match tokio::fs::read(&path).await {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(AuthError::ConfigRead { path: shown, source: crate::runtime::Cause(std::sync::Arc::new(e)) })
        }
    };
    // Docker reads an empty file as an empty config.
    let config: DockerConfigFile = if text.iter().all(u8::is_ascii_whitespace) {
        DockerConfigFile::default()
    } else {
        serde_json::from_slice(&text)
            .map_err(|e| AuthError::ConfigJson { path: shown.clone(), problem: JsonProblem::from(&e) })?
    };

    let domain = registry_of(image);
    // The Docker CLI asks about Docker Hub by its v1 index URL, about others by host name.
    let server = if domain == DOCKER_HUB { INDEX_SERVER } else { domain.as_str() };

    // credHelpers by the exact key first (Docker), then by another spelling of the same
    // registry. A helper named "" there means "no helper" for that registry, even with a
    // credsStore (as in Docker).
    let helpers = config.cred_helpers.unwrap_or_default();
    let per_registry =
        helpers.get(server).or_else(|| helpers.iter().find(|(k, _)| key_names(k, &domain)).map(|(_, h)| h));
    let helper = match per_registry {
        Some(h) => h.clone().unwrap_or_default(),
        None => config.creds_store.unwrap_or_default(),
    };
    if !helper.is_empty() {
        // As in Docker, a helper's answer is final: "not found" means anonymous, not the
        // `auths` entries (which a store-backed config keeps empty anyway).
        return run_helper(&helper, server, path_env, helper_timeout).await;
    }

    let auths = config.auths.unwrap_or_default();
    let Some((key, entry)) = auths.get_key_value(server).or_else(|| auths.iter().find(|(k, _)| key_names(k, &domain)))
    else {
        return Ok(None);
    };
    let Some(entry) = entry else { return Ok(None) };
    let (username, password) =
        user_and_password(entry).map_err(|()| AuthError::ConfigAuth { path: shown, server: key.clone() })?;
    let identity_token = entry.identitytoken.clone().filter(|t| !t.is_empty());
    // Docker Desktop writes `{}` entries as markers of a login held elsewhere: nothing to use.
    if username.is_empty() && password.is_empty() && identity_token.is_none() {
        return Ok(None);
    }
    Ok(Some(Credentials { username, password, server: key.clone(), identity_token }))
}

#[cfg(test)]
mod tests;
