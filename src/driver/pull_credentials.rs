//! A pod's credentials for a pull, shared by the pulls that make a plan's images present and by
//! `--auto-update`'s checks.

use crate::error_chain::chain;
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::auth;

/// The credentials a pod pulls an image with, and the pod's pull Secret they came from (None:
/// from the user's Docker config, or none at all).
#[derive(Debug, Default)]
pub(super) struct PullCredentials {
    pub credentials: Option<auth::Credentials>,
    pub secret: Option<String>,
}

/// Credentials for pulling `image`, as the kubelet and Docker find them: the pod's
/// imagePullSecrets first, then the user's Docker config (and its credential helpers). A
/// problem with either is a warning, and the pull goes on anonymously. Never logged.
pub(super) async fn credentials_for(
    desired: &DesiredPod,
    image: &str,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> PullCredentials {
    let warn = |w: &str| reporter.warning(&format!("{key}: {w}"));
    if let Some((credentials, secret)) = from_pull_secrets(desired, image, &warn) {
        return PullCredentials { credentials: Some(credentials), secret: Some(secret) };
    }
    match auth::from_docker_config(image).await {
        Ok(credentials) => PullCredentials { credentials, secret: None },
        Err(e) => {
            reporter.warning(&format!("{key}: docker config: {}", chain(&e)));
            PullCredentials::default()
        }
    }
}

/// The credentials the pod's imagePullSecrets give for `image`, and the name of the Secret
/// they came from; problems go to `warn`.
pub(super) fn from_pull_secrets(
    desired: &DesiredPod,
    image: &str,
    warn: &dyn Fn(&str),
) -> Option<(auth::Credentials, String)> {
    let (configs, namespace) = (&desired.configs, desired.namespace.as_str());
    let secrets: Vec<auth::PullSecret> = (desired.manifest.spec.image_pull_secrets.iter())
        .map(|r| auth::PullSecret {
            name: &r.name,
            found: configs.secret(namespace, &r.name).map(|data| auth::SecretData {
                type_: configs.secret_type(namespace, &r.name),
                data: data.iter().map(|(key, value)| (key.as_str(), value.0.as_slice())).collect(),
            }),
        })
        .collect();
    match auth::from_pull_secrets(image, &secrets, namespace) {
        Ok((found, warnings)) => {
            for w in warnings {
                warn(&w);
            }
            let found = found?;
            // Always found: `found` came from one of them.
            let secret = source_of(image, &secrets, namespace, &found).unwrap_or_default();
            Some((found, secret))
        }
        Err(e) => {
            warn(&chain(&e));
            None
        }
    }
}

/// The first of the pod's pull Secrets that gives `found` for `image` on its own: the one the
/// credentials came from (another with the same credentials would be as good).
fn source_of(
    image: &str,
    secrets: &[auth::PullSecret<'_>],
    namespace: &str,
    found: &auth::Credentials,
) -> Option<String> {
    secrets.iter().find_map(|s| match auth::from_pull_secrets(image, std::slice::from_ref(s), namespace) {
        Ok((Some(c), _)) if c == *found => Some(s.name.to_owned()),
        _ => None,
    })
}
