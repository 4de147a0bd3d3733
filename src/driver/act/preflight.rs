//! What is checked before anything is created, so a pod whose configuration fails against its
//! image fails at once with nothing half-made; and the image's user a container runs as.

use crate::driver::PodFailure;
use crate::plan::{Plan, Step};
use crate::pod::files::PodFiles;
use crate::pod::settings::NonRootError;
use crate::pod::volumes::VolumeSetup;
use crate::pod::DesiredPod;
use crate::runtime::{Runtime, RuntimeError};
use crate::status::outcome::ConfigCause;

use super::volume_setup::volumes_for;
use super::{env_of, fatal, StepError};

/// Checks, before anything is created, what would make a container's creation fail for good
/// (its configuration against the image): such a pod fails at once, with nothing half-made.
pub(super) async fn preflight<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    plan: &Plan,
    files: Option<&PodFiles>,
) -> Result<Option<VolumeSetup>, PodFailure> {
    // A start of a container created earlier needs the volumes too: its sub-paths are mounted
    // again (see `run_step`).
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
            Err(UserError::NonRoot(e)) => return Err(refused(ConfigCause::NonRoot(e))),
            Ok(()) => {}
        }
    }
    Ok(setup)
}

/// The user the container runs as, where it depends on the image: a runAsGroup without a
/// runAsUser keeps the image's user; runAsNonRoot is checked against the final user, as the
/// kubelet checks it (CreateContainerConfigError).
pub(super) async fn resolve_user<R: Runtime>(
    rt: &R,
    c: &crate::pod::DesiredContainer,
    spec: &mut crate::runtime::CreateSpec,
) -> Result<(), UserError> {
    let needs_image = c.run_as_non_root || spec.settings.user.as_deref().is_some_and(|u| u.starts_with(':'));
    if !needs_image {
        return Ok(());
    }
    let image_user = rt.image_user(&c.image).await.map_err(UserError::Image)?;
    if let Some(group) = spec.settings.user.as_deref().and_then(|u| u.strip_prefix(':')) {
        let uid = image_user.split(':').next().filter(|u| !u.is_empty()).unwrap_or("0");
        spec.settings.user = Some(format!("{uid}:{group}"));
    }
    if c.run_as_non_root {
        crate::pod::settings::check_non_root(spec.settings.user.as_deref(), &image_user).map_err(UserError::NonRoot)?;
    }
    Ok(())
}

/// Why the user a container runs as cannot be settled: the engine could not say the image's
/// user, or that user breaks runAsNonRoot.
#[derive(Debug)]
pub(super) enum UserError {
    Image(RuntimeError),
    NonRoot(NonRootError),
}

/// Met while a container is being created, it is a step's error, with the kubelet's reason.
impl From<UserError> for (&'static str, StepError) {
    fn from(e: UserError) -> Self {
        let e = match e {
            UserError::Image(e) => StepError::Runtime(e),
            UserError::NonRoot(e) => StepError::NonRoot(e),
        };
        ("CreateContainerConfigError", e)
    }
}
