//! Making a plan's images present before anything is created: pulls shared by the run's pods
//! (`pulls`), credentials from imagePullSecrets and the Docker config, and the waiting reasons
//! the kubelet gives a failed pull.

use futures_util::future::join_all;

use crate::driver::PodFailure;
use crate::error_chain::chain;
use crate::manifest::image_reference;
use crate::manifest::types::PullPolicy;
use crate::plan::ImageNeed;
use crate::report::PullEvent;
use crate::runtime::{infra_image, PullProgress, Runtime, RuntimeError};
use crate::status::{Notes, Reason};

use super::{fatal, image_events, image_verify, note, Scope};
use crate::driver::pull_credentials::credentials_for;
use crate::driver::pull_verify::{self, Step as PullStep};

/// Makes every needed image present, concurrently, before anything is created: podrun leaves
/// no half-created pod behind a missing image. Returns whether all are there. An image that
/// can never be had (no reference at all, absent under Never, unknown to its registry, or
/// refused with the credentials given) fails the run at once (exit 4); any other failed pull is noted (ErrImagePull, then ImagePullBackOff) and tried
/// again after the backoff delay, while the retries last.
pub(super) async fn ensure_images<R: Runtime>(
    scope: Scope<'_, R>,
    needs: &[ImageNeed],
    notes: &mut Notes,
) -> Result<bool, PodFailure> {
    let (reporter, key) = (scope.reporter, scope.key);
    invalid_names(needs, notes)?;
    let results = join_all(needs.iter().map(|n| ensure_image(scope, n))).await;
    let mut all = true;
    for (need, r) in needs.iter().zip(results) {
        let e = match r {
            Ok(None) => continue,
            // Offline (a host booting before its network, an air-gapped site): the local copy
            // serves, and the user is told once.
            Ok(Some(detail)) => {
                if notes.offline_images.insert(need.image.clone()) {
                    reporter.warning(&format!(
                        "{key}: image {}: registry unreachable ({}); using the local image",
                        crate::escape::Escaped(&need.image),
                        crate::escape::Escaped(&detail)
                    ));
                }
                continue;
            }
            Err(e) => e,
        };
        if fatal(&e) {
            return Err(PodFailure::Runtime(e));
        }
        let (reason, message, for_good) = match &e {
            never @ (RuntimeError::ImageNeverPull { .. } | RuntimeError::ImageNeverPullUnverified { .. }) => {
                (Reason::ErrImageNeverPull, never.to_string(), true)
            }
            RuntimeError::ImageNotFound { detail, .. } => (Reason::ErrImagePull, format!("not found: {detail}"), true),
            RuntimeError::ImageDenied { detail, .. } => {
                (Reason::ErrImagePull, format!("access denied: {detail}"), true)
            }
            RuntimeError::RegistryUnreachable { detail, .. } => {
                (Reason::ErrImagePull, format!("registry unreachable: {detail}"), false)
            }
            RuntimeError::Image { detail, .. } => (Reason::ErrImagePull, detail.clone(), false),
            other => (Reason::ErrImagePull, chain(other), false),
        };
        if for_good {
            for c in &need.containers {
                note(notes, c, reason, message.clone());
            }
            return Err(PodFailure::Image {
                container: need.containers.join(", "),
                image: need.image.clone(),
                reason: reason.as_str().to_owned(),
                message,
            });
        }
        // The kubelet's sequence: ErrImagePull on a failure, ImagePullBackOff while it waits
        // to try again.
        for c in &need.containers {
            let again =
                notes.waiting.get(c).and_then(|w| Reason::named(&w.reason)).is_some_and(Reason::is_pull_failing);
            note(notes, c, if again { Reason::ImagePullBackOff } else { reason }, message.clone());
        }
        all = false;
    }
    Ok(all)
}

/// An image that is no reference at all is refused before any pull, as the kubelet refuses
/// it (InvalidImageName, in its words): nothing could ever pull it.
fn invalid_names(needs: &[ImageNeed], notes: &mut Notes) -> Result<(), PodFailure> {
    for need in needs {
        let Err(e) = image_reference::check(&need.image) else { continue };
        let message = format!(
            "Failed to apply default image tag {:?}: couldn't parse image name {:?}: {e}",
            need.image, need.image
        );
        for c in &need.containers {
            note(notes, c, Reason::InvalidImageName, message.clone());
        }
        return Err(PodFailure::Image {
            container: need.containers.join(", "),
            image: need.image.clone(),
            reason: Reason::InvalidImageName.as_str().to_owned(),
            message,
        });
    }
    Ok(())
}

/// Makes one image present. `Ok(Some(why))`: the registry could not be reached, and the
/// local copy serves. The pull is the run's (see `pulls`): pods that need the image at the
/// same time wait for one pull. An image on the node that was pulled with credentials serves
/// only a pod that shows it may use it (see `pull_verify`); another pulls it with its own.
pub(super) async fn ensure_image<R: Runtime>(
    scope: Scope<'_, R>,
    need: &ImageNeed,
) -> Result<Option<String>, RuntimeError> {
    let present = scope.rt.image_present(&need.image).await?;
    let said = image_events::Said { scope, need };
    let asked = present && need.policy != PullPolicy::Always;
    let must_pull = asked && !image_verify::may_use_local(scope, &need.image).await?;
    match pull_verify::step(need.policy, present, must_pull) {
        PullStep::NeverPull if present => {
            Err(said.never_verified(RuntimeError::ImageNeverPullUnverified { image: need.image.clone() }))
        }
        PullStep::NeverPull => Err(said.never_pulled(RuntimeError::ImageNeverPull { image: need.image.clone() })),
        PullStep::UseLocal => {
            said.present();
            Ok(None)
        }
        PullStep::Pull => pull(scope, need, present && !must_pull).await,
    }
}

/// Pulls one image with the pod's credentials, and records the pull. `local_serves`: the copy
/// on the node may serve this pod should the registry not answer (asked only then under
/// Always).
async fn pull<R: Runtime>(
    scope: Scope<'_, R>,
    need: &ImageNeed,
    local_serves: bool,
) -> Result<Option<String>, RuntimeError> {
    let Scope { rt, desired, reporter, key, pulls, .. } = scope;
    let said = image_events::Said { scope, need };
    said.pulling();
    reporter.pull(key, &need.image, PullEvent::Started);
    let started = std::time::Instant::now();
    let last = std::sync::Mutex::new(PullProgress::default());
    let progress = |p: PullProgress| {
        *last.lock().unwrap_or_else(|e| e.into_inner()) = p;
        reporter.pull(key, &need.image, PullEvent::Progress(p));
    };
    let found = credentials_for(desired, &need.image, reporter, key).await;
    let r = match image_verify::intend(scope, &need.image) {
        Ok(()) => pulls.pull(rt, &need.image, found.credentials.as_ref(), &progress).await,
        Err(e) => Err(e),
    };
    let from = found.credentials.as_ref().zip(found.secret.as_deref());
    image_verify::ended(scope, &need.image, r.is_ok(), from).await;
    let done = *last.lock().unwrap_or_else(|e| e.into_inner());
    match r {
        Ok(()) => {
            said.pulled(started.elapsed(), done.bytes_total);
            reporter.pull(key, &need.image, PullEvent::Done { bytes: done.bytes_total, elapsed: started.elapsed() });
            Ok(None)
        }
        Err(RuntimeError::RegistryUnreachable { detail, .. })
            if local_serves
                && (need.policy != PullPolicy::Always || image_verify::may_use_local(scope, &need.image).await?) =>
        {
            said.offline(&detail);
            reporter.pull(key, &need.image, PullEvent::Failed);
            Ok(Some(detail))
        }
        Err(e) => {
            said.failed(&e);
            reporter.pull(key, &need.image, PullEvent::Failed);
            Err(e)
        }
    }
}

/// Makes podrun's infra image present: podrun's own image is built locally from the pause
/// program compiled into podrun; any other (`--infra-image`) is pulled when absent.
pub async fn ensure_infra_image<R: Runtime>(rt: &R, image: &str) -> Result<(), RuntimeError> {
    if rt.ensure_own_infra_image().await? {
        return Ok(());
    }
    if rt.image_present(image).await? {
        return Ok(());
    }
    if image == infra_image::default_infra_image() {
        rt.load_image(image, infra_image::image_archive()).await
    } else {
        rt.pull_image(image, None, &|_| {}).await
    }
}
