//! A pod's credentials for a pull, shared by the pulls that make a plan's images present and by
//! `--auto-update`'s checks.

use crate::error_chain::chain;
use crate::pod::DesiredPod;
use crate::report::{PodKey, Reporter};
use crate::runtime::auth;

/// Credentials for pulling `image`, as the kubelet and Docker find them: the pod's
/// imagePullSecrets first, then the user's Docker config (and its credential helpers). A
/// problem with either is a warning, and the pull goes on anonymously. Never logged.
pub(super) async fn credentials_for(
    desired: &DesiredPod,
    image: &str,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> Option<auth::Credentials> {
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
                reporter.warning(&format!("{key}: {w}"));
            }
            if found.is_some() {
                return found;
            }
        }
        Err(e) => reporter.warning(&format!("{key}: {}", chain(&e))),
    }
    match auth::from_docker_config(image).await {
        Ok(found) => found,
        Err(e) => {
            reporter.warning(&format!("{key}: docker config: {}", chain(&e)));
            None
        }
    }
}
