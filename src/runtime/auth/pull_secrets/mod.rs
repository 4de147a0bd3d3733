//! Registry credentials from the pod's `imagePullSecrets`, matched to the image the way the
//! kubelet's keyring does. The caller looks the Secrets up and hands in their data: this module
//! knows the pull-secret formats, not where manifests keep Secrets.

use std::collections::BTreeMap;

use super::entries::{user_and_password, AuthMap, DockerConfigJson};
use super::keyring::Keyring;
use super::{AuthError, Credentials, JsonProblem};
use crate::manifest::image::Reference;

const TYPE_DOCKER_CONFIG_JSON: &str = "kubernetes.io/dockerconfigjson";
const KEY_DOCKER_CONFIG_JSON: &str = ".dockerconfigjson";
const TYPE_DOCKERCFG: &str = "kubernetes.io/dockercfg";
const KEY_DOCKERCFG: &str = ".dockercfg";

/// One entry of the pod's `imagePullSecrets`, with the Secret it names as plain data.
#[derive(Debug, Clone)]
pub struct PullSecret<'a> {
    /// The name as written in `imagePullSecrets`.
    pub name: &'a str,
    /// The Secret of that name in the pod's namespace; None when there is none.
    pub found: Option<SecretData<'a>>,
}

/// What a pull Secret holds. Debug shows the keys, never the values.
#[derive(Clone)]
pub struct SecretData<'a> {
    /// The Secret's `type`; None when it names none (which the API server reads as `Opaque`).
    pub type_: Option<&'a str>,
    /// Its data by key, decoded (`data` and `stringData` merged).
    pub data: BTreeMap<&'a str, &'a [u8]>,
}

impl std::fmt::Debug for SecretData<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("SecretData").field("type_", &self.type_).field("keys", &self.data.keys()).finish()
    }
}

/// The docker config map in one pull Secret, by its type.
fn parse_pull_secret(
    namespace: &str,
    name: &str,
    type_: Option<&str>,
    entries: &BTreeMap<&str, &[u8]>,
) -> Result<AuthMap, AuthError> {
    let (key, wrapped) = match type_ {
        Some(TYPE_DOCKER_CONFIG_JSON) => (KEY_DOCKER_CONFIG_JSON, true),
        Some(TYPE_DOCKERCFG) => (KEY_DOCKERCFG, false),
        other => {
            let type_ = other.unwrap_or("Opaque").to_owned();
            return Err(AuthError::SecretType { namespace: namespace.to_owned(), name: name.to_owned(), type_ });
        }
    };
    let Some(data) = entries.get(key) else {
        return Err(AuthError::SecretKey {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            key: key.to_owned(),
        });
    };
    let parsed = if wrapped {
        serde_json::from_slice::<DockerConfigJson>(data).map(|c| c.auths.unwrap_or_default())
    } else {
        serde_json::from_slice::<AuthMap>(data)
    };
    parsed.map_err(|e| AuthError::SecretJson {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        key: key.to_owned(),
        problem: JsonProblem::from(&e),
    })
}

/// Credentials from the pod's `imagePullSecrets` (the Secrets named there, as the caller found
/// them in `namespace`), of type `kubernetes.io/dockerconfigjson` (`.dockerconfigjson` key, `{"auths": {...}}`)
/// or `kubernetes.io/dockercfg` (`.dockercfg` key, the bare map), in the order listed; entries
/// with `auth` (base64 "user:pass") or `username`/`password`; server keys may be URLs
/// (`https://index.docker.io/v1/`, `http://127.0.0.1:5000`) — matched to the image the way the
/// kubelet's credential keyring does (docker.io aliases index.docker.io/registry-1.docker.io).
///
/// Of several matching entries the kubelet tries each in turn until a pull succeeds; this
/// returns the first it would try: the most specific key, and among entries for the same key,
/// the one from the Secret listed first.
///
/// A named Secret that is missing: the kubelet warns and goes on, so this returns a warning
/// for each. Every listed Secret is checked before matching (as the kubelet parses them all
/// first), so a broken one is an error even when an earlier one matches. Unlike the kubelet,
/// which silently skips them, a Secret of another type is an error: naming it in
/// `imagePullSecrets` is a mistake worth reporting.
pub fn from_pull_secrets(
    image: &str,
    secrets: &[PullSecret<'_>],
    namespace: &str,
) -> Result<(Option<Credentials>, Vec<String>), AuthError> {
    let mut warnings = Vec::new();
    let mut keyring = Keyring::default();
    for PullSecret { name, found } in secrets {
        // The API lets empty names through; the kubelet skips them without a word.
        if name.is_empty() {
            continue;
        }
        let Some(SecretData { type_, data }) = found else {
            warnings
                .push(format!("image pull secret {namespace}/{name} not found; pulling without it, which may fail"));
            continue;
        };
        for (server, entry) in parse_pull_secret(namespace, name, *type_, data)? {
            let Some(entry) = entry else { continue };
            let (username, password) = user_and_password(&entry).map_err(|()| AuthError::SecretAuth {
                namespace: namespace.to_owned(),
                name: (*name).to_owned(),
                server: server.clone(),
            })?;
            // An empty entry would only mean an anonymous pull, which needs no credentials;
            // skipping it lets a later, real one be used. The kubelet ignores identity tokens
            // in pull secrets, and so does this.
            if username.is_empty() && password.is_empty() {
                continue;
            }
            keyring.add(&server, Credentials { username, password, server: server.clone(), identity_token: None });
        }
    }
    let image = Reference::parse(image);
    Ok((keyring.lookup(&format!("{}/{}", image.domain, image.repository)).cloned(), warnings))
}

#[cfg(test)]
mod tests;
