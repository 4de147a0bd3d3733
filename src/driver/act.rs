//! Carrying out a plan on the runtime: images first (so a missing image creates nothing), then
//! removals (app containers before the infra container), then the infra container, then the
//! app containers concurrently.

use std::time::Duration;

use futures_util::future::join_all;

use crate::manifest::types::PullPolicy;
use crate::plan::{ContainerStep, ImageNeed, Plan, Removal, Step};
use crate::pod::{labels, DesiredPod};
use crate::report::{PodKey, Reporter};
use crate::runtime::{infra_image, Observed, Runtime, RuntimeError, Selector};
use crate::status::{Notes, Waiting};

use super::PodFailure;

fn note(notes: &mut Notes, container: &str, reason: &str, message: String) {
    notes.insert(container.to_owned(), Waiting { reason: reason.to_owned(), message: Some(message) });
}

/// Engine unreachable is fatal to the run; anything else is recorded and retried.
fn fatal(e: &RuntimeError) -> bool {
    matches!(e, RuntimeError::Unreachable { .. })
}

pub async fn act<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    plan: &Plan,
    notes: &mut Notes,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> Result<(), PodFailure> {
    ensure_images(rt, &plan.images, notes, reporter, key).await?;

    let grace = Duration::from_secs(desired.grace_period_seconds.max(0).unsigned_abs());
    let (infra, apps): (Vec<&Removal>, Vec<&Removal>) =
        plan.remove.iter().partition(|r| r.container.label(labels::ROLE) == Some("infra"));
    for batch in [apps, infra] {
        for r in &batch {
            reporter.event(key, &format!("removing {} ({})", r.container.name, r.reason));
        }
        let results = join_all(batch.iter().map(|r| stop_and_remove(rt, &r.container, grace))).await;
        for e in results.into_iter().filter_map(Result::err) {
            if fatal(&e) {
                return Err(PodFailure::Runtime(e));
            }
            reporter.warning(&format!("{key}: {e}"));
        }
    }

    let mut infra_id = None;
    if let Some(step) = &plan.infra {
        match run_step(rt, desired, step, None, reporter, key).await {
            Ok(id) => infra_id = Some(id),
            Err((_, e)) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            // Another podrun created it first (409), or it failed: look again next round.
            Err((_, e)) => {
                reporter.warning(&format!("{key}: infra container: {e}"));
                return Ok(());
            }
        }
    }
    if plan.apps.is_empty() {
        return Ok(());
    }
    let infra_id = match infra_id {
        Some(id) => id,
        None => match current_infra_id(rt, desired).await? {
            Some(id) => id,
            None => return Ok(()),
        },
    };
    let results = join_all(plan.apps.iter().map(|s| run_step(rt, desired, s, Some(&infra_id), reporter, key))).await;
    for (step, r) in plan.apps.iter().zip(results) {
        match r {
            Ok(_) => {
                notes.remove(&step.container);
            }
            Err((_, e)) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            Err((_, RuntimeError::Conflict { .. })) => {} // created by a podrun beside us
            Err((reason, e)) => note(notes, &step.container, reason, e.to_string()),
        }
    }
    Ok(())
}

/// Creates (if asked) and starts one container; returns its id. An error comes with the
/// Kubernetes waiting reason for it.
async fn run_step<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    step: &ContainerStep,
    infra_id: Option<&str>,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> Result<String, (&'static str, RuntimeError)> {
    let id = match &step.step {
        Step::Create { attempt, reason } => {
            let c = desired.find(&step.container).ok_or_else(|| {
                ("CreateContainerError", RuntimeError::Other(format!("no container {}", step.container)))
            })?;
            reporter.event(key, &format!("creating {} ({reason})", step.container));
            let spec = desired.create_spec(c, *attempt, infra_id);
            rt.create(&spec).await.map_err(|e| ("CreateContainerError", e))?
        }
        Step::Start { id } => id.clone(),
    };
    rt.start(&id).await.map_err(|e| ("RunContainerError", e))?;
    Ok(id)
}

async fn current_infra_id<R: Runtime>(rt: &R, desired: &DesiredPod) -> Result<Option<String>, PodFailure> {
    let observed = rt.list(&Selector::pod(&desired.namespace, &desired.name)).await.map_err(PodFailure::Runtime)?;
    Ok(crate::pod::observed::PodObservation::new(desired, &observed)
        .infra
        .current
        .filter(Observed::is_running)
        .map(|c| c.id))
}

async fn stop_and_remove<R: Runtime>(rt: &R, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
    if c.is_running() {
        rt.stop(c, grace).await?;
    }
    rt.remove(c).await
}

/// Makes every needed image present, concurrently. A failure fails the run at once (exit 4),
/// before anything is created: podrun leaves no half-created pod behind a missing image.
async fn ensure_images<R: Runtime>(
    rt: &R,
    needs: &[ImageNeed],
    notes: &mut Notes,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> Result<(), PodFailure> {
    let results = join_all(needs.iter().map(|n| ensure_image(rt, n, reporter, key))).await;
    for (need, r) in needs.iter().zip(results) {
        let Err((reason, e)) = r else { continue };
        if fatal(&e) {
            return Err(PodFailure::Runtime(e));
        }
        let message = match &e {
            RuntimeError::Image { detail, .. } => detail.clone(),
            other => other.to_string(),
        };
        for c in &need.containers {
            note(notes, c, reason, message.clone());
        }
        return Err(PodFailure::Image {
            container: need.containers.join(", "),
            image: need.image.clone(),
            reason: reason.to_owned(),
            message,
        });
    }
    Ok(())
}

async fn ensure_image<R: Runtime>(
    rt: &R,
    need: &ImageNeed,
    reporter: &dyn Reporter,
    key: &PodKey,
) -> Result<(), (&'static str, RuntimeError)> {
    let present = rt.image_present(&need.image).await.map_err(|e| ("ErrImagePull", e))?;
    match (need.policy, present) {
        (PullPolicy::Never, false) => Err((
            "ErrImageNeverPull",
            RuntimeError::Image {
                image: need.image.clone(),
                detail: "the image is not present and imagePullPolicy is Never".into(),
            },
        )),
        (PullPolicy::Never | PullPolicy::IfNotPresent, true) => Ok(()),
        (PullPolicy::Always, _) | (PullPolicy::IfNotPresent, false) => {
            reporter.event(key, &format!("pulling image {}", need.image));
            rt.pull_image(&need.image).await.map_err(|e| ("ErrImagePull", e))
        }
    }
}

/// Makes podrun's infra image present: podrun's own image is built locally from the pause
/// program compiled into podrun; any other (`--infra-image`) is pulled when absent.
pub async fn ensure_infra_image<R: Runtime>(rt: &R, image: &str) -> Result<(), RuntimeError> {
    if rt.image_present(image).await? {
        return Ok(());
    }
    if image == infra_image::default_infra_image() {
        rt.import_image(image, infra_image::rootfs_tar(), infra_image::import_changes()).await
    } else {
        rt.pull_image(image).await
    }
}

/// Stops (in parallel, app containers first, with the grace period each was created with)
/// and removes every container podrun made for the pods `sel` selects. Returns how many.
pub async fn remove_pod<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
) -> Result<usize, RuntimeError> {
    let all = rt.list(sel).await?;
    let grace_of = |c: &Observed| {
        grace_override.unwrap_or_else(|| {
            let secs = c.label(labels::GRACE_PERIOD).and_then(|g| g.parse().ok()).unwrap_or(30);
            Duration::from_secs(secs)
        })
    };
    let (infra, apps): (Vec<&Observed>, Vec<&Observed>) =
        all.iter().partition(|c| c.label(labels::ROLE) == Some("infra"));
    for batch in [apps, infra] {
        for r in join_all(batch.iter().map(|c| stop_and_remove(rt, c, grace_of(c)))).await {
            r?;
        }
    }
    Ok(all.len())
}
