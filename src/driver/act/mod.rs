//! Carrying out a plan on the runtime: images first (so a missing image creates nothing,
//! `images`), then finished pods' sidecars are stopped, removals (app containers before the
//! infra container), the infra container, the init containers one after another, and the app
//! containers concurrently. Lifecycle hooks run here too (`hooks`): postStart after a start,
//! preStop before a stop (`teardown`, which delete, gc and apply share).

mod env_files;
mod hooks;
mod image_events;
mod image_verify;
mod images;
mod preflight;
mod teardown;
mod volume_setup;

use std::time::Duration;

use futures_util::future::join_all;

use crate::driver::creations::Creations;
use crate::driver::pulls::Pulls;
use crate::driver::termination::Ordering;
use crate::driver::PodFailure;
use crate::error_chain::chain;
use crate::plan::{ContainerStep, Plan, Step};
use crate::pod::env::EnvError;
use crate::pod::events::EventType::{Normal, Warning};
use crate::pod::files::PodFiles;
use crate::pod::finished_spec::{finish_spec, mount_sub_paths_again, Member, Prepared, SpecError};
use crate::pod::identity::IdentityError;
use crate::pod::volumes::VolumeSetup;
use crate::pod::{DesiredPod, Hook, InfraRef, Role};
use crate::report::{PodKey, Reporter};
use crate::runtime::labels;
use crate::runtime::{CreateSpec, Observed, Runtime, RuntimeError, Selector, State};
use crate::status::{Notes, Reason, Waiting};

use hooks::run_hook;
use images::ensure_images;
use preflight::{preflight, resolve_user};
use teardown::{stop, stop_and_remove};

pub use images::ensure_infra_image;
pub use teardown::{remove_engine_volumes, remove_pod, remove_pod_with, stop_pod, stop_wait};
pub use volume_setup::refresh_volumes;

/// How a round of actions went, short of a failure that ends the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acted {
    Clean,
    /// Something failed and was noted against its container; worth a retry after a delay.
    WithErrors,
    /// The run's deadline came while the engine was still stopping these containers within
    /// their grace periods (names, with each one's grace): the engine answered, it is the
    /// grace period that is awaited.
    StillStopping(Vec<(String, Duration)>),
}

fn note(notes: &mut Notes, container: &str, reason: Reason, message: String) {
    notes.waiting.insert(container.to_owned(), Waiting { reason: reason.as_str().to_owned(), message: Some(message) });
}

/// Why starting one container failed: the engine's error, or what the container's
/// configuration or its postStart hook made of it. Each comes with its waiting reason.
#[derive(Debug, thiserror::Error)]
enum StepError {
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error("no container {0}")]
    NoContainer(String),
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(transparent)]
    Spec(SpecError),
    #[error(transparent)]
    Identity(#[from] IdentityError),
    #[error(transparent)]
    PostStart(hooks::HookError),
}

/// The engine's errors stay the engine's: one that is gone or silent ends the run.
impl From<SpecError> for StepError {
    fn from(e: SpecError) -> Self {
        match e {
            SpecError::Runtime(e) => StepError::Runtime(e),
            other => StepError::Spec(other),
        }
    }
}

/// The least time the kubelet gives a stop signal, after a preStop hook used the grace period.
const STOP_SIGNAL_LEAST: Duration = Duration::from_secs(2);

/// Engine unreachable, or silent past the deadline, is fatal to the run; anything else is
/// recorded and retried.
fn fatal(e: &RuntimeError) -> bool {
    matches!(e, RuntimeError::Unreachable { .. } | RuntimeError::Deadline { .. })
}

fn is_infra(c: &Observed) -> bool {
    c.label(labels::ROLE) == Some("infra")
}

/// The pod being acted on, and what acting on it needs.
pub struct Scope<'a, R> {
    pub rt: &'a R,
    pub desired: &'a DesiredPod,
    /// podrun's host files, where the engine can mount them.
    pub files: Option<&'a PodFiles>,
    pub reporter: &'a dyn Reporter,
    pub key: &'a PodKey,
    /// The run's pulls, shared with its other pods.
    pub pulls: &'a Pulls,
    /// The images `--auto-update` pinned containers to.
    pub updates: &'a crate::driver::auto_update::Updates,
    /// The pod's infra container as the look before this plan saw it.
    pub infra: Option<&'a Observed>,
    /// What the run has created (for --cleanup-on-failure): every create goes through it.
    pub created: &'a Creations<R>,
    /// Where the pod's events go.
    pub events: &'a crate::driver::events::Events,
}

impl<R> Clone for Scope<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Scope<'_, R> {}

pub async fn act<R: Runtime>(scope: Scope<'_, R>, plan: &Plan, notes: &mut Notes) -> Result<Acted, PodFailure> {
    let Scope { rt, desired, files, reporter, key, .. } = scope;
    if !ensure_images(scope, &plan.images, notes).await? {
        return Ok(Acted::WithErrors);
    }
    let setup = preflight(rt, desired, plan, files).await?;
    let setup = setup.as_ref();

    for c in &plan.stop {
        reporter.event(key, &format!("stopping {}", c.name));
        let probe = notes.probes.get(&c.id).and_then(|p| p.unhealthy.as_deref()).and_then(|u| u.split_once(' '));
        killing(scope, plan, c, probe.map(|(kind, _)| format!("failed {kind} probe")));
    }
    // A container killed by its probe gets the probe's grace period where it sets one.
    let grace = |c: &Observed| notes.probes.get(&c.id).and_then(|p| p.kill_grace);
    let order = Ordering::new(&plan.stop);
    let mut stopping = Vec::new();
    let began = tokio::time::Instant::now();
    for (c, r) in plan.stop.iter().zip(join_all(plan.stop.iter().map(|c| stop(rt, c, grace(c), Some(&order)))).await) {
        if let Err(e) = r {
            let period = teardown::grace_of(c, grace(c));
            // Cut off by the run's deadline while its grace period (and the 2 s the kubelet
            // gives a stop signal at least) still ran: the stop is what was awaited, not the
            // engine. Past that, the engine is silent.
            if matches!(e, RuntimeError::Deadline { .. }) && began.elapsed() < period + STOP_SIGNAL_LEAST {
                let name = c.label(labels::CONTAINER_NAME).unwrap_or(&c.name).to_owned();
                stopping.push((name, period));
            } else if fatal(&e) {
                return Err(PodFailure::Runtime(e));
            } else {
                reporter.warning(&format!("{key}: {}", chain(&e)));
            }
        }
    }
    if !stopping.is_empty() {
        return Ok(Acted::StillStopping(stopping));
    }

    resize(scope, &plan.resize).await?;
    for r in &plan.remove {
        reporter.event(key, &format!("removing {} ({})", r.container.name, r.reason));
        if r.container.is_running() {
            let changed = (r.reason == "its spec changed").then(|| "definition changed".to_owned());
            killing(scope, plan, &r.container, changed);
        }
    }
    // An older, dead instance of a pod member is in nobody's way (each instance has its own
    // name and files): it is removed while the rest goes on, rather than first (a restart under
    // --supervise is that much sooner). What runs, and the infra container, go first.
    let (swept, first): (Vec<&Observed>, Vec<&Observed>) =
        plan.remove.iter().map(|r| &r.container).partition(|c| !c.is_running() && !is_infra(c));
    let (infra, members): (Vec<&Observed>, Vec<&Observed>) = first.into_iter().partition(|c| is_infra(c));
    for batch in [members, infra] {
        let results = join_all(batch.iter().map(|c| stop_and_remove(rt, c, None, true, files, None))).await;
        removed(results, reporter, key)?;
    }
    let sweep = join_all(swept.iter().map(|c| stop_and_remove(rt, c, None, true, files, None)));
    let (results, outcome) = tokio::join!(sweep, create_and_start(scope, plan, setup, notes));
    removed(results, reporter, key)?;
    outcome
}

/// Changes the resources of running containers in place (in-place resize); a failure is
/// warned of and tried again at the next sync, as the kubelet retries a resize in progress.
async fn resize<R: Runtime>(scope: Scope<'_, R>, resized: &[Observed]) -> Result<(), PodFailure> {
    let Scope { rt, desired, reporter, key, .. } = scope;
    for c in resized {
        let Some(d) = c.label(labels::CONTAINER_NAME).and_then(|n| desired.find(n)) else { continue };
        reporter.event(key, &format!("resizing {} in place ({})", d.name, d.settings.resources_text()));
        match rt.update_resources(c, &d.settings).await {
            Ok(()) => {}
            Err(e) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            Err(e) => reporter.warning(&format!("{key}: {}", chain(&e))),
        }
    }
    Ok(())
}

/// Warns of the removals that failed; an engine gone away ends the run.
fn removed(results: Vec<Result<(), RuntimeError>>, reporter: &dyn Reporter, key: &PodKey) -> Result<(), PodFailure> {
    for e in results.into_iter().filter_map(Result::err) {
        if fatal(&e) {
            return Err(PodFailure::Runtime(e));
        }
        reporter.warning(&format!("{key}: {}", chain(&e)));
    }
    Ok(())
}

/// The infra container, then the init containers in order, then the app containers.
async fn create_and_start<R: Runtime>(
    scope: Scope<'_, R>,
    plan: &Plan,
    setup: Option<&VolumeSetup>,
    notes: &mut Notes,
) -> Result<Acted, PodFailure> {
    let Scope { rt, desired, reporter, key, .. } = scope;
    let mut outcome = Acted::Clean;
    let mut fresh_infra = false;
    if let Some(step) = &plan.infra {
        if scope.infra.is_some() {
            let said = "Pod sandbox changed, it will be killed and re-created.";
            scope.events.pod(desired, Normal, "SandboxChanged", said);
        }
        match run_step(scope, step, None, setup).await {
            Ok(_) => fresh_infra = true,
            Err((_, StepError::Runtime(e))) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            // Created by a podrun running beside us: use it at the next look.
            Err((_, StepError::Runtime(RuntimeError::Conflict { .. }))) => return Ok(Acted::Clean),
            Err((_, e)) => {
                let message = format!("Failed to create pod sandbox: {}", chain(&e));
                scope.events.pod(desired, Warning, "FailedCreatePodSandBox", message);
                reporter.warning(&format!("{key}: infra container: {}", chain(&e)));
                return Ok(Acted::WithErrors);
            }
        }
    }
    if plan.init.is_empty() && plan.apps.is_empty() {
        return Ok(outcome);
    }
    // Pod members need its address (status.podIP), known once it runs: the look before this
    // plan has it, unless this plan started, stopped or removed the infra container.
    let touched = fresh_infra || plan.stop.iter().chain(plan.remove.iter().map(|r| &r.container)).any(is_infra);
    let seen = scope.infra.filter(|c| !touched && c.is_running());
    let infra = match seen {
        Some(c) => InfraRef::of(c),
        None => match current_infra(rt, desired).await? {
            Some(infra) => infra,
            None => return Ok(Acted::WithErrors),
        },
    };
    if let Some(setup) = setup.filter(|s| s.is_on_engine()) {
        // The infra container holds the engine volumes: they are filled through it.
        if let Err(e) = setup.fill_engine(rt, &infra.id, fresh_infra).await {
            if fatal(&e) {
                return Err(PodFailure::Runtime(e));
            }
            reporter.warning(&format!("{key}: volumes: {e}"));
            return Ok(Acted::WithErrors);
        }
    }

    // Init containers in order: a failure stops the sequence, since later ones depend on it.
    for step in &plan.init {
        let r = run_step(scope, step, Some(&infra), setup).await;
        if !record(r, step, notes, &mut outcome)? {
            return Ok(outcome);
        }
    }
    // The kubelet starts app containers one after another, each once the one before it has
    // started and its postStart hook has finished (a hook can hold the next container until a
    // proxy is up). Those with no hook before them start together: their order is not seen.
    for batch in after_each_post_start(desired, &plan.apps) {
        let results = join_all(batch.iter().map(|s| run_step(scope, s, Some(&infra), setup))).await;
        for (step, r) in batch.iter().zip(results) {
            record(r, step, notes, &mut outcome)?;
        }
    }
    Ok(outcome)
}

/// `steps` cut after each container that has a postStart hook.
fn after_each_post_start<'a>(desired: &DesiredPod, steps: &'a [ContainerStep]) -> Vec<&'a [ContainerStep]> {
    let hooked = |s: &ContainerStep| desired.find(&s.container).is_some_and(|c| c.post_start.is_some());
    let mut batches = Vec::new();
    let mut rest = steps;
    while let Some(cut) = rest.iter().position(hooked) {
        let (batch, after) = rest.split_at(cut + 1);
        batches.push(batch);
        rest = after;
    }
    if !rest.is_empty() {
        batches.push(rest);
    }
    batches
}

/// Notes a step's outcome against its container. Returns whether it succeeded.
fn record(
    r: Result<String, (Reason, StepError)>,
    step: &ContainerStep,
    notes: &mut Notes,
    outcome: &mut Acted,
) -> Result<bool, PodFailure> {
    match r {
        Ok(_) => {
            notes.waiting.remove(&step.container);
            Ok(true)
        }
        Err((_, StepError::Runtime(e))) if fatal(&e) => Err(PodFailure::Runtime(e)),
        // Created by a podrun running beside us: nothing went wrong.
        Err((_, StepError::Runtime(RuntimeError::Conflict { .. }))) => Ok(true),
        Err((reason, e)) => {
            note(notes, &step.container, reason, chain(&e));
            *outcome = Acted::WithErrors;
            Ok(false)
        }
    }
}

/// Creates (if asked) and starts one container, then runs its postStart hook; returns its id.
/// An error comes with the Kubernetes waiting reason for it.
async fn run_step<R: Runtime>(
    scope: Scope<'_, R>,
    step: &ContainerStep,
    infra: Option<&InfraRef>,
    setup: Option<&VolumeSetup>,
) -> Result<String, (Reason, StepError)> {
    let c = scope
        .desired
        .find(&step.container)
        .ok_or_else(|| (Reason::CreateContainerError, StepError::NoContainer(step.container.clone())))?;
    let id = match &step.step {
        Step::Create { attempt, reason } => {
            scope.reporter.event(scope.key, &format!("creating {} ({reason})", step.container));
            let member = Member { desired: scope.desired, container: c, attempt: *attempt, infra };
            let spec = container_spec(scope, member, setup).await.inspect_err(|(_, e)| failed(scope, c, e))?;
            let id = scope.created.create(spec).await.map_err(|e| (Reason::CreateContainerError, e.into()));
            let id = id.inspect_err(|(_, e)| failed(scope, c, e))?;
            // The kubelet's sandbox has no events of its own when all goes well.
            if c.role != Role::Infra {
                scope.events.container(
                    scope.desired,
                    &c.name,
                    Normal,
                    "Created",
                    format!("Created container: {}", c.name),
                );
            }
            id
        }
        Step::Start { id, attempt } => {
            let member = Member { desired: scope.desired, container: c, attempt: *attempt, infra };
            mount_sub_paths_again(setup, member).map_err(|e| (Reason::CreateContainerConfigError, e.into()))?;
            id.clone()
        }
    };
    let started = scope.rt.start(&id).await.map_err(|e| (Reason::RunContainerError, e.into()));
    started.inspect_err(|(_, e)| failed(scope, c, e))?;
    if c.role != Role::Infra {
        scope.events.container(scope.desired, &c.name, Normal, "Started", format!("Started container {}", c.name));
    }
    if let Some(hook) = &c.post_start {
        post_start(scope, &step.container, &id, hook, infra).await?;
    }
    Ok(id)
}

/// The spec a member is created with: built from the manifest with its env files, run as
/// the user its image settles, and finished by the pod layer with what the pod prepared.
async fn container_spec<R: Runtime>(
    scope: Scope<'_, R>,
    member: Member<'_>,
    setup: Option<&VolumeSetup>,
) -> Result<CreateSpec, (Reason, StepError)> {
    let Scope { rt, desired, files, reporter, key, .. } = scope;
    let Member { container: c, attempt, infra, .. } = member;
    let env_files = env_files::read_env_files(rt, desired, c, setup, infra)
        .await
        .map_err(|e| (Reason::CreateContainerConfigError, e.into()))?;
    let (mut spec, warnings) = desired
        .create_spec_with_files(c, attempt, infra, &env_files)
        .map_err(|e| (Reason::CreateContainerConfigError, e.into()))?;
    for w in warnings {
        reporter.warning(&format!("{key}: {w}"));
    }
    if let Some(image_id) = scope.updates.pinned(&desired.uid, &c.name) {
        spec.image = image_id;
    }
    resolve_user(rt, c, &mut spec).await?;
    finish_spec(rt, Prepared { files, setup }, member, &mut spec)
        .await
        .map_err(|e| (Reason::CreateContainerConfigError, e.into()))?;
    Ok(spec)
}

/// Runs the postStart hook of the container `id` (`name`) just started. The kubelet kills a
/// container whose hook failed; its restart policy then decides what happens next. One the
/// runtime could not start (StartError) is terminated already and gets no hook, as the
/// kubelet runs none after a failed start.
async fn post_start<R: Runtime>(
    scope: Scope<'_, R>,
    name: &str,
    id: &str,
    hook: &Hook,
    infra: Option<&InfraRef>,
) -> Result<(), (Reason, StepError)> {
    let Scope { rt, desired, reporter, key, .. } = scope;
    let this = || async {
        rt.list(&Selector::pod(&desired.namespace, &desired.name))
            .await
            .ok()
            .and_then(|all| all.into_iter().find(|o| o.id == id))
    };
    if this().await.is_some_and(|o| matches!(o.state, State::Exited { error: Some(_), .. })) {
        return Ok(());
    }
    let grace = Duration::from_secs(desired.grace_period_seconds.max(0).unsigned_abs());
    let infra_ip = infra.and_then(|i| i.ip.as_deref());
    if let Err(e) = run_hook(rt, id, hook, grace, infra_ip).await {
        reporter.event(key, &format!("postStart hook of {name} failed: {}", chain(&e)));
        // The kubelet leaves the hook's output out: it may carry what should stay secret.
        scope.events.container(desired, name, Warning, "FailedPostStartHook", "PostStartHook failed");
        if let Some(o) = this().await {
            let _ = rt.kill(&o).await;
        }
        return Err((Reason::PostStartHookError, StepError::PostStart(e)));
    }
    Ok(())
}

/// The kubelet's event for a container it stops: why, when a probe or a changed spec is why
/// (`Container C failed liveness probe, will be restarted`).
fn killing<R>(scope: Scope<'_, R>, plan: &Plan, c: &Observed, why: Option<String>) {
    let name = c.label(labels::CONTAINER_NAME).unwrap_or(&c.name);
    let again = plan.init.iter().chain(&plan.apps).any(|s| s.container == name);
    let message = match why {
        Some(why) if again => format!("Container {name} {why}, will be restarted"),
        Some(why) => format!("Container {name} {why}"),
        None => format!("Stopping container {name}"),
    };
    scope.events.container(scope.desired, name, Normal, "Killing", message);
}

/// The kubelet's event for a container it could not create or start.
fn failed<R>(scope: Scope<'_, R>, c: &crate::pod::DesiredContainer, e: &StepError) {
    if c.role == Role::Infra || matches!(e, StepError::Runtime(RuntimeError::Conflict { .. })) {
        return;
    }
    scope.events.container(scope.desired, &c.name, Warning, "Failed", format!("Error: {}", chain(e)));
}

async fn current_infra<R: Runtime>(rt: &R, desired: &DesiredPod) -> Result<Option<InfraRef>, PodFailure> {
    let observed = rt.list(&Selector::pod(&desired.namespace, &desired.name)).await.map_err(PodFailure::Runtime)?;
    let obs = crate::pod::observed::PodObservation::new(desired, &observed);
    Ok(obs.infra.current.as_ref().filter(|c| c.is_running()).map(InfraRef::of))
}
