//! What is checked before anything is created, so a pod whose configuration fails against its
//! image fails at once with nothing half-made; and the image's user a container runs as.

use crate::driver::PodFailure;
use crate::plan::{Plan, Step};
use crate::pod::files::PodFiles;
use crate::pod::finished_spec::env_of;
use crate::pod::identity::{self, IdentityError, ImageUser};
use crate::pod::volumes::VolumeSetup;
use crate::pod::DesiredPod;
use crate::runtime::{Runtime, RuntimeError};
use crate::status::outcome::ConfigCause;
use crate::status::Reason;

use super::volume_setup::volumes_for;
use super::{fatal, StepError};

/// Checks, before anything is created, what would make a container's creation fail for good
/// (its configuration against the image): such a pod fails at once, with nothing half-made.
pub(super) async fn preflight<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    plan: &Plan,
    files: Option<&PodFiles>,
) -> Result<Option<VolumeSetup>, PodFailure> {
    // A start of a container created earlier needs the volumes too: its sub-paths are mounted
    // again (`pod::finished_spec::mount_sub_paths_again`).
    let steps = plan.infra.iter().chain(&plan.init).chain(&plan.apps);
    if steps.clone().next().is_none() {
        return Ok(None);
    }
    let setup = volumes_for(rt, desired, files).await?;
    for step in plan.init.iter().chain(&plan.apps) {
        let Some(c) = desired.find(&step.container) else { continue };
        let (Step::Create { attempt, .. } | Step::Start { attempt, .. }) = &step.step;
        // The pod IP is not known yet; nothing that can fail depends on it.
        let refused =
            |cause: ConfigCause| PodFailure::Config { container: c.name.clone(), cause, after: String::new() };
        let mut spec = match desired.create_spec(c, *attempt, None) {
            Ok((spec, _)) => spec,
            Err(e) => return Err(refused(ConfigCause::Env(e))),
        };
        if let Some(setup) = &setup {
            if let Err(e) = setup.check_mounts(&c.name, &env_of(&spec)) {
                return Err(refused(e.into()));
            }
        }
        if matches!(step.step, Step::Start { .. }) {
            continue;
        }
        match resolve_user(rt, c, &mut spec).await {
            Err(UserError::Image(e)) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            Err(UserError::Image(e)) => return Err(refused(ConfigCause::Runtime(Box::new(e)))),
            Err(UserError::Identity(e)) => return Err(refused(ConfigCause::Identity(e))),
            Ok(()) => {}
        }
    }
    Ok(setup)
}

/// The user the container runs as, where it depends on the image: a runAsGroup without a
/// runAsUser keeps the image's user; runAsNonRoot is checked against the final user's number,
/// as the kubelet checks it (CreateContainerConfigError), and the engine is handed that number.
pub(super) async fn resolve_user<R: Runtime>(
    rt: &R,
    c: &crate::pod::DesiredContainer,
    spec: &mut crate::runtime::CreateSpec,
) -> Result<(), UserError> {
    let image_user = if c.run_as.needs_image(c.run_as_non_root) {
        Some(ImageUser::parse(&rt.image_user(&c.image).await.map_err(UserError::Image)?))
    } else {
        None
    };
    spec.settings.user =
        identity::decide(c.run_as, c.run_as_non_root, image_user.as_ref()).map_err(UserError::Identity)?;
    Ok(())
}

/// Why the user a container runs as cannot be settled: the engine could not say the image's
/// user, or that user may not run (runAsNonRoot, an id out of range).
#[derive(Debug)]
pub(super) enum UserError {
    Image(RuntimeError),
    Identity(IdentityError),
}

/// Met while a container is being created, it is a step's error, with the kubelet's reason.
impl From<UserError> for (Reason, StepError) {
    fn from(e: UserError) -> Self {
        let e = match e {
            UserError::Image(e) => StepError::Runtime(e),
            UserError::Identity(e) => StepError::Identity(e),
        };
        (Reason::CreateContainerConfigError, e)
    }
}
