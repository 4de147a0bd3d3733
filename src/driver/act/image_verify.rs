//! Whether a pod may use an image already on the node, and the record of the pulls it makes,
//! for `images::ensure_image`: the kubelet's check of pulled-with-credentials images
//! (`pull_verify`) in the driver's terms.

use crate::driver::pull_credentials::from_pull_secrets;
use crate::driver::pull_verify::PodSecret;
use crate::error_chain::chain;
use crate::runtime::auth::Credentials;
use crate::runtime::{Runtime, RuntimeError};

use super::Scope;

/// Whether the pod may use the copy of `image` on the node without pulling it. A record that
/// cannot be read: it may not (it pulls to show it may), as the kubelet decides.
pub(super) async fn may_use_local<R: Runtime>(scope: Scope<'_, R>, image: &str) -> Result<bool, RuntimeError> {
    let verifier = scope.pulls.verifier();
    let id = scope.rt.image_identity(image).await?.map(|i| i.id);
    // Problems with the Secrets are said by the pull, if there is one.
    let found = from_pull_secrets(scope.desired, image, &|_| {});
    let secret =
        found.as_ref().map(|(credentials, name)| PodSecret { namespace: &scope.desired.namespace, name, credentials });
    match verifier.must_pull(image, id.as_deref(), secret) {
        Ok(must) => Ok(!must),
        Err(e) => {
            scope.reporter.warning(&format!("{}: {}; pulling {image} to verify", scope.key, chain(&e)));
            Ok(false)
        }
    }
}

/// A pull of `image` is starting. A pull that cannot be recorded is not made (as the
/// kubelet's): unrecorded, the image would be anyone's.
pub(super) fn intend<R>(scope: Scope<'_, R>, image: &str) -> Result<(), RuntimeError> {
    scope.pulls.verifier().intend(image).map_err(|e| RuntimeError::Image {
        image: image.to_owned(),
        detail: format!("cannot record the pull: {}", chain(&e)),
    })
}

/// Records the end of a pull of `image` with `credentials` from the pod's Secret `secret`
/// (None: without a Secret of the pod). An image whose id cannot be read keeps its pull
/// recorded as under way: podrun pulled it, with credentials unknown.
pub(super) async fn ended<R: Runtime>(
    scope: Scope<'_, R>,
    image: &str,
    pulled: bool,
    from: Option<(&Credentials, &str)>,
) {
    let verifier = scope.pulls.verifier();
    let id = if pulled {
        match scope.rt.image_identity(image).await {
            Ok(Some(identity)) => Some(identity.id),
            _ => return,
        }
    } else {
        None
    };
    let secret = from.map(|(credentials, name)| PodSecret { namespace: &scope.desired.namespace, name, credentials });
    if let Err(e) = verifier.ended(image, id.as_deref(), secret) {
        scope.reporter.warning(&format!("{}: {}", scope.key, chain(&e)));
    }
}
