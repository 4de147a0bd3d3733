//! Carrying out a plan on the runtime: images first (so a missing image creates nothing), then
//! finished pods' sidecars are stopped, removals (app containers before the infra container),
//! the infra container, the init containers one after another, and the app containers
//! concurrently. Lifecycle hooks run here: postStart after a start, preStop before a stop.

use std::time::Duration;

use futures_util::future::join_all;

use crate::error_chain::chain;
use crate::manifest::types::PullPolicy;
use crate::plan::{ContainerStep, ImageNeed, Plan, Step};
use crate::pod::env::EnvError;
use crate::pod::files::PodFiles;
use crate::pod::hosts;
use crate::pod::observed::attempt_of;
use crate::pod::settings::NonRootError;
use crate::pod::volumes::VolumeError;
use crate::pod::volumes::{self, engine, VolumeSetup};
use crate::pod::{DesiredPod, Hook, HttpHook, InfraRef, Role};
use crate::probe::handlers::{self, pod_address, Target};
use crate::report::{PodKey, PullEvent, Reporter};
use crate::runtime::labels;
use crate::runtime::{auth, infra_image, Mount, Observed, PullProgress, Runtime, RuntimeError, Selector};
use crate::status::{Notes, Waiting};

use super::creations::Creations;
use super::pulls::Pulls;
use super::termination::Ordering;
use super::PodFailure;

/// How a round of actions went, short of a failure that ends the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acted {
    Clean,
    /// Something failed and was noted against its container; worth a retry after a delay.
    WithErrors,
}

fn note(notes: &mut Notes, container: &str, reason: &str, message: String) {
    notes.waiting.insert(container.to_owned(), Waiting { reason: reason.to_owned(), message: Some(message) });
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
    Volume(#[from] VolumeError),
    #[error("termination-log file")]
    TerminationLog(#[source] std::io::Error),
    #[error("termination-log file")]
    TerminationLogFile(#[source] crate::private_fs::PrivateFsError),
    #[error("/etc/hosts file")]
    EtcHosts(#[source] crate::private_fs::PrivateFsError),
    #[error(transparent)]
    NonRoot(#[from] NonRootError),
    /// The hook's failure, as the status message gives it.
    #[error("{0}")]
    PostStart(String),
}

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
    /// The pod's infra container as the look before this plan saw it.
    pub infra: Option<&'a Observed>,
    /// What the run has created (for --cleanup-on-failure): every create goes through it.
    pub created: &'a Creations<R>,
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
    }
    // A container killed by its probe gets the probe's grace period where it sets one.
    let grace = |c: &Observed| notes.probes.get(&c.id).and_then(|p| p.kill_grace);
    let order = Ordering::new(&plan.stop);
    for r in join_all(plan.stop.iter().map(|c| stop(rt, c, grace(c), Some(&order)))).await {
        if let Err(e) = r {
            if fatal(&e) {
                return Err(PodFailure::Runtime(e));
            }
            reporter.warning(&format!("{key}: {}", chain(&e)));
        }
    }

    for r in &plan.remove {
        reporter.event(key, &format!("removing {} ({})", r.container.name, r.reason));
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
        match run_step(scope, step, None, setup).await {
            Ok(_) => fresh_infra = true,
            Err((_, StepError::Runtime(e))) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            // Created by a podrun running beside us: use it at the next look.
            Err((_, StepError::Runtime(RuntimeError::Conflict { .. }))) => return Ok(Acted::Clean),
            Err((_, e)) => {
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
    r: Result<String, (&'static str, StepError)>,
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
) -> Result<String, (&'static str, StepError)> {
    let Scope { rt, desired, files, reporter, key, .. } = scope;
    let c = desired
        .find(&step.container)
        .ok_or_else(|| ("CreateContainerError", StepError::NoContainer(step.container.clone())))?;
    let id = match &step.step {
        Step::Create { attempt, reason } => {
            reporter.event(key, &format!("creating {} ({reason})", step.container));
            let (mut spec, warnings) =
                desired.create_spec(c, *attempt, infra).map_err(|e| ("CreateContainerConfigError", e.into()))?;
            for w in warnings {
                reporter.warning(&format!("{key}: {w}"));
            }
            resolve_user(rt, c, &mut spec).await?;
            if let (Some(setup), Role::Infra) = (setup, c.role) {
                spec.mounts.extend(setup.infra_mounts());
            } else if let Some(setup) = setup {
                let mounts =
                    setup.mounts_for(&c.name, &env_of(&spec)).map_err(|e| ("CreateContainerConfigError", e.into()))?;
                spec.mounts.extend(mounts);
            }
            // A volume mounted at the termination message path takes its place.
            let taken = spec.mounts.iter().any(|m| m.target() == c.termination_message_path);
            if let (Some(files), Role::Init | Role::App, false) = (files, c.role, taken) {
                let path = files
                    .prepare_termination_log(&desired.uid, &c.name, *attempt)
                    .map_err(|e| ("CreateContainerConfigError", StepError::TerminationLogFile(e)))?;
                spec.mounts.push(Mount::bind(path.to_string_lossy(), c.termination_message_path.clone(), false));
            } else if let (Some(setup), Some(infra), Role::Init | Role::App, false) = (setup, infra, c.role, taken) {
                let _ = setup;
                let log = engine_termination_log(rt, &desired.uid, &infra.id, &c.name, *attempt)
                    .await
                    .map_err(|e| ("CreateContainerConfigError", e))?;
                // rslave: Docker refuses a private bind of a path under its own root (where the
                // volume is), for fear of holding mounts there.
                spec.mounts.push(Mount::Bind {
                    source: log,
                    target: c.termination_message_path.clone(),
                    read_only: false,
                    propagation: crate::runtime::Propagation::HostToContainer,
                    recursive_read_only: false,
                });
            }
            if let (Some(files), Role::Init | Role::App) = (files, c.role) {
                if let Some(m) = etc_hosts_mount(files, desired, infra, &spec.mounts)
                    .map_err(|e| ("CreateContainerConfigError", StepError::EtcHosts(e)))?
                {
                    spec.mounts.push(m);
                }
            }
            scope.created.create(spec).await.map_err(|e| ("CreateContainerError", e.into()))?
        }
        Step::Start { id, attempt } => {
            // Created by an earlier run, which may have been stopped right there: its sub-paths
            // are opened and mounted again (the same mount points its mounts name), so what
            // it gets is what they are now, checked, whatever happened to them meanwhile.
            if let (Some(setup), Role::Init | Role::App) = (setup, c.role) {
                let (spec, _) =
                    desired.create_spec(c, *attempt, infra).map_err(|e| ("CreateContainerConfigError", e.into()))?;
                setup.mounts_for(&c.name, &env_of(&spec)).map_err(|e| ("CreateContainerConfigError", e.into()))?;
            }
            id.clone()
        }
    };
    rt.start(&id).await.map_err(|e| ("RunContainerError", e.into()))?;
    if let Some(hook) = &c.post_start {
        let grace = Duration::from_secs(desired.grace_period_seconds.max(0).unsigned_abs());
        let infra_ip = infra.and_then(|i| i.ip.as_deref());
        if let Err(message) = run_hook(rt, &id, hook, grace, infra_ip).await {
            // The kubelet kills a container whose postStart hook failed; its restart policy
            // then decides what happens next.
            reporter.event(key, &format!("postStart hook of {} failed: {message}", step.container));
            let killed = rt
                .list(&Selector::pod(&desired.namespace, &desired.name))
                .await
                .ok()
                .and_then(|all| all.into_iter().find(|o| o.id == id));
            if let Some(o) = killed {
                let _ = rt.kill(&o).await;
            }
            return Err(("PostStartHookError", StepError::PostStart(message)));
        }
    }
    Ok(id)
}

/// A container's environment as `subPathExpr` expands against it: `NAME`, value, in order.
fn env_of(spec: &crate::runtime::CreateSpec) -> Vec<(String, String)> {
    spec.env.iter().filter_map(|e| e.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
}

/// The pod's /etc/hosts, written as the kubelet writes it (`pod::hosts`), to mount into a
/// member: not where the container mounts something else at /etc/hosts, nor while a pod on
/// its own network has no address yet (kubelet_pods.go: shouldMountHostsFile).
fn etc_hosts_mount(
    files: &PodFiles,
    desired: &DesiredPod,
    infra: Option<&InfraRef>,
    mounts: &[Mount],
) -> Result<Option<Mount>, crate::private_fs::PrivateFsError> {
    if mounts.iter().any(|m| m.target() == hosts::ETC_HOSTS) {
        return Ok(None);
    }
    let aliases = &desired.manifest.spec.host_aliases;
    let content = if desired.network.mode == crate::runtime::NetworkMode::Host {
        hosts::host_network(&std::fs::read_to_string(hosts::ETC_HOSTS).unwrap_or_default(), aliases)
    } else {
        let Some(ip) = infra.and_then(|i| i.ip.clone()).filter(|ip| !ip.is_empty()) else { return Ok(None) };
        let hostname = desired.network.hostname.clone().unwrap_or_else(|| desired.name.clone());
        hosts::managed(&[ip], &hostname, desired.network.domainname.as_deref(), aliases)
    };
    let path = files.write_etc_hosts(&desired.uid, &content)?;
    Ok(Some(Mount::bind(path.to_string_lossy(), hosts::ETC_HOSTS, false)))
}

/// Makes one instance's termination-log file in the pod's termination volume (through the
/// infra container, which mounts it) and returns its path on the engine's host, for a bind mount.
async fn engine_termination_log<R: Runtime>(
    rt: &R,
    uid: &str,
    infra_id: &str,
    container: &str,
    attempt: u32,
) -> Result<String, StepError> {
    let tar = engine::termination_log_archive(container, attempt).map_err(StepError::TerminationLog)?;
    rt.put_archive(infra_id, engine::INFRA_TERMINATION_DIR, tar).await?;
    let mountpoint = rt.volume_mountpoint(&engine::termination_volume_name(uid)).await?;
    Ok(format!("{}/{container}-{attempt}", mountpoint.trim_end_matches('/')))
}

/// Checks, before anything is created, what would make a container's creation fail for good
/// (its configuration against the image): such a pod fails at once, with nothing half-made.
async fn preflight<R: Runtime>(
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
        let mut spec = match desired.create_spec(c, *attempt, None) {
            Ok((spec, _)) => spec,
            Err(e) => {
                return Err(PodFailure::Config {
                    container: c.name.clone(),
                    message: e.to_string(),
                    after: String::new(),
                })
            }
        };
        if let Some(setup) = &setup {
            if let Err(e) = setup.check_mounts(&c.name, &env_of(&spec)) {
                return Err(PodFailure::Config { container: c.name.clone(), message: chain(&e), after: String::new() });
            }
        }
        if matches!(step.step, Step::Start { .. }) {
            continue;
        }
        match resolve_user(rt, c, &mut spec).await {
            Err((_, StepError::Runtime(e))) if fatal(&e) => return Err(PodFailure::Runtime(e)),
            Err((_, e)) => {
                return Err(PodFailure::Config { container: c.name.clone(), message: chain(&e), after: String::new() })
            }
            Ok(()) => {}
        }
    }
    Ok(setup)
}

/// Plans and prepares the pod's volumes: on the host (files, directories) when the engine can
/// see podrun's files, else as engine volumes (see `pod::volumes::engine`); and the named engine
/// volumes. Idempotent, so every sync that creates containers runs it: configMap and secret
/// files are rewritten when their contents changed.
async fn volumes_for<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    files: Option<&PodFiles>,
) -> Result<Option<VolumeSetup>, PodFailure> {
    // On the engine, a pod without volumes still has its termination-log volume.
    if desired.manifest.spec.volumes.is_empty() && files.is_some() {
        return Ok(None);
    }
    let config = |e: String| PodFailure::Config { container: desired.name.clone(), message: e, after: String::new() };
    let on_engine = files.is_none();
    // On the engine, host paths are only planned, never made.
    let planning = files.cloned().unwrap_or_else(|| PodFiles::new(PodFiles::default_root()));
    let mut setup = volumes::plan_volumes(&desired.manifest, &planning, &desired.configs, &desired.host)
        .map_err(|e| config(e.to_string()))?;
    if on_engine {
        setup = setup.on_engine();
    }
    volumes::prepare(&setup).map_err(|e| config(chain(&e)))?;
    let named = setup.named_volumes().into_iter().map(|v| (v.name, v.labels, None));
    let own = setup.engine_volumes(&desired.namespace, &desired.name).into_iter().map(|v| (v.name, v.labels, v.tmpfs));
    for (name, labels, tmpfs) in named.chain(own) {
        rt.ensure_volume(&name, &labels, tmpfs.as_ref()).await.map_err(|e| {
            if fatal(&e) {
                PodFailure::Runtime(e)
            } else {
                config(chain(&e))
            }
        })?;
    }
    Ok(Some(setup))
}

/// Brings a running pod's configMap, secret, downwardAPI and projected volumes up to date with
/// `desired` (a re-apply, a changed manifest under `--supervise`), in place and without a
/// restart, as the kubelet does: on the host, each changed file is replaced atomically; on the
/// engine, a new data directory and a swap of its `..data` link. Sub-path mounts see no change
/// (they are bind mounts of what was there when the container started, as on a node).
pub async fn refresh_volumes<R: Runtime>(
    rt: &R,
    desired: &DesiredPod,
    files: Option<&PodFiles>,
    infra_id: &str,
) -> Result<(), PodFailure> {
    if desired.manifest.spec.volumes.is_empty() {
        return Ok(());
    }
    let Some(setup) = volumes_for(rt, desired, files).await? else { return Ok(()) };
    if setup.is_on_engine() {
        setup.fill_engine(rt, infra_id, false).await.map_err(PodFailure::Runtime)?;
    }
    Ok(())
}

/// The user the container runs as, where it depends on the image: a runAsGroup without a
/// runAsUser keeps the image's user; runAsNonRoot is checked against the final user, as the
/// kubelet checks it (CreateContainerConfigError).
async fn resolve_user<R: Runtime>(
    rt: &R,
    c: &crate::pod::DesiredContainer,
    spec: &mut crate::runtime::CreateSpec,
) -> Result<(), (&'static str, StepError)> {
    let needs_image = c.run_as_non_root || spec.settings.user.as_deref().is_some_and(|u| u.starts_with(':'));
    if !needs_image {
        return Ok(());
    }
    let image_user = rt.image_user(&c.image).await.map_err(|e| ("CreateContainerConfigError", e.into()))?;
    if let Some(group) = spec.settings.user.as_deref().and_then(|u| u.strip_prefix(':')) {
        let uid = image_user.split(':').next().filter(|u| !u.is_empty()).unwrap_or("0");
        spec.settings.user = Some(format!("{uid}:{group}"));
    }
    if c.run_as_non_root {
        crate::pod::settings::check_non_root(spec.settings.user.as_deref(), &image_user)
            .map_err(|e| ("CreateContainerConfigError", e.into()))?;
    }
    Ok(())
}

/// Runs a lifecycle hook within `limit`, the pod's grace period. Err carries a message for the
/// status. `infra_ip`: the pod IP, where an HTTP hook that names no host goes.
///
/// The kubelet bounds a preStop hook by the grace period and a postStart hook by nothing (an
/// exec or a request that never returns holds the container in ContainerCreating). podrun
/// bounds both by the grace period, which the pod's author chose as the time a container may
/// take to react, so a hung hook, or an HTTP request to an address that never answers, cannot
/// hold a run past it.
async fn run_hook<R: Runtime>(
    rt: &R,
    id: &str,
    hook: &Hook,
    limit: Duration,
    infra_ip: Option<&str>,
) -> Result<(), String> {
    let run = async {
        match hook {
            Hook::Exec(cmd) => match rt.exec(id, cmd).await {
                Ok(0) => Ok(()),
                Ok(code) => Err(format!("command {cmd:?} exited with {code}")),
                Err(e) => Err(chain(&e)),
            },
            Hook::Sleep(secs) => {
                tokio::time::sleep(Duration::from_secs(*secs)).await;
                Ok(())
            }
            Hook::HttpGet(h) => run_http_hook(id, h, infra_ip).await,
        }
    };
    tokio::time::timeout(limit.max(Duration::from_secs(1)), run)
        .await
        .unwrap_or_else(|_| Err(format!("did not finish within {}s", limit.as_secs())))
}

/// An HTTP hook, sent by the probes' HTTP client to its host, else the pod's address.
async fn run_http_hook(id: &str, h: &HttpHook, infra_ip: Option<&str>) -> Result<(), String> {
    let address = pod_address(h.host_network, infra_ip);
    if h.host.is_none() && address.is_none() {
        // The kubelet's words, for the same situation.
        return Err(format!("GET {}: failed to find networking container (the pod has no IP)", h.path));
    }
    let target = Target { container_id: id, pod_ip: address.as_deref().unwrap_or_default(), ports: &[] };
    handlers::run_http_hook(&h.action(), &target).await.map_err(|why| format!("GET {}: {why}", h.path))
}

/// The pod IP of a pod member, from its pod's running infra container, as the kubelet reads
/// it from the pod's status when a hook runs.
async fn pod_ip_of<R: Runtime>(rt: &R, c: &Observed) -> Option<String> {
    let (namespace, pod) = (c.label(labels::POD_NAMESPACE)?, c.label(labels::POD_NAME)?);
    let all = rt.list(&Selector::pod(namespace, pod)).await.ok()?;
    all.into_iter()
        .find(|o| is_infra(o) && o.is_running() && o.label(labels::POD_UID) == c.label(labels::POD_UID))
        .and_then(|o| o.ip)
}

async fn current_infra<R: Runtime>(rt: &R, desired: &DesiredPod) -> Result<Option<InfraRef>, PodFailure> {
    let observed = rt.list(&Selector::pod(&desired.namespace, &desired.name)).await.map_err(PodFailure::Runtime)?;
    let obs = crate::pod::observed::PodObservation::new(desired, &observed);
    Ok(obs.infra.current.as_ref().filter(|c| c.is_running()).map(InfraRef::of))
}

/// Stops every running container of the pod, members first, then the infra container, each
/// with its preStop hook and grace period, and removes none: what the kubelet does to a pod
/// past its active deadline (the containers stay, terminated, for status and logs).
pub async fn stop_pod<R: Runtime>(rt: &R, all: &[Observed]) -> Result<(), RuntimeError> {
    let (infra, members): (Vec<&Observed>, Vec<&Observed>) =
        all.iter().filter(|c| c.is_owned() && c.is_running()).partition(|c| is_infra(c));
    for batch in [members, infra] {
        let order = Ordering::new(batch.iter().copied());
        for r in join_all(batch.iter().map(|c| stop(rt, c, None, Some(&order)))).await {
            r?;
        }
    }
    Ok(())
}

/// The grace period a container was created with (its label), unless overridden.
fn grace_of(c: &Observed, grace_override: Option<Duration>) -> Duration {
    grace_override.unwrap_or_else(|| {
        let secs = c.label(labels::GRACE_PERIOD).and_then(|g| g.parse().ok()).unwrap_or(30);
        Duration::from_secs(secs)
    })
}

/// Stops a running container the kubelet's way: its preStop hook (recorded in a label, so it
/// runs even when the manifest no longer has the container) inside the grace period, then the
/// stop signal, then SIGKILL when the rest of the grace period runs out.
/// Stopped beside others (`order`), a sidecar gets its stop signal only in its turn.
async fn stop<R: Runtime>(
    rt: &R,
    c: &Observed,
    grace_override: Option<Duration>,
    order: Option<&Ordering>,
) -> Result<(), RuntimeError> {
    // However the stop ends, those waiting for this container wait no longer.
    struct Ended<'a>(Option<&'a Ordering>, &'a str);
    impl Drop for Ended<'_> {
        fn drop(&mut self) {
            if let Some(o) = self.0 {
                o.terminated(self.1);
            }
        }
    }
    let _ended = Ended(order, &c.id);
    if !c.is_running() {
        return Ok(());
    }
    // Its labels say which hook to run: only podrun's own, sealed labels may.
    if !c.is_owned() {
        return Err(RuntimeError::NotOwned { what: "stop".to_owned(), id: c.id.clone() });
    }
    let grace = grace_of(c, grace_override);
    let started = tokio::time::Instant::now();
    if let Some(hook) = c.label(labels::PRE_STOP).and_then(|h| serde_json::from_str::<Hook>(h).ok()) {
        if grace > Duration::ZERO {
            // Looked up only for an HTTP hook that needs it: one more list call.
            let infra_ip = match &hook {
                Hook::HttpGet(h) if h.host.is_none() && !h.host_network => pod_ip_of(rt, c).await,
                _ => None,
            };
            // A failed preStop hook does not stop the stop, as in Kubernetes; it is said, as the
            // kubelet's FailedPreStopHook event says it.
            if let Err(message) = run_hook(rt, &c.id, &hook, grace, infra_ip.as_deref()).await {
                let name = c.label(labels::CONTAINER_NAME).unwrap_or(&c.name);
                let pod = format!(
                    "{}/{}",
                    c.label(labels::POD_NAMESPACE).unwrap_or_default(),
                    c.label(labels::POD_NAME).unwrap_or_default()
                );
                tracing::warn!("pod {pod}: preStop hook of {name} failed: {message}");
            }
        }
    }
    if let Some(o) = order.filter(|_| !grace.is_zero()) {
        o.wait_for_turn(&c.id, grace.saturating_sub(started.elapsed())).await;
    }
    // The kubelet gives the stop signal at least 2 s after a preStop hook ran, or a turn came.
    let left = grace.saturating_sub(started.elapsed());
    let left = if left.is_zero() && !grace.is_zero() { Duration::from_secs(2) } else { left };
    rt.stop(c, left).await
}

async fn stop_and_remove<R: Runtime>(
    rt: &R,
    c: &Observed,
    grace: Option<Duration>,
    wait: bool,
    files: Option<&PodFiles>,
    order: Option<&Ordering>,
) -> Result<(), RuntimeError> {
    if wait {
        stop(rt, c, grace, order).await?;
    }
    rt.remove(c).await?;
    if let (Some(files), Some(uid), Some(name)) = (files, c.label(labels::POD_UID), c.label(labels::CONTAINER_NAME)) {
        files.remove_instance(uid, name, attempt_of(c));
    }
    Ok(())
}

/// Makes every needed image present, concurrently, before anything is created: podrun leaves
/// no half-created pod behind a missing image. Returns whether all are there. An image that
/// can never be had (absent under Never, unknown to its registry) fails the run at once
/// (exit 4); any other failed pull is noted (ErrImagePull, then ImagePullBackOff) and tried
/// again after the backoff delay, while the retries last.
async fn ensure_images<R: Runtime>(
    scope: Scope<'_, R>,
    needs: &[ImageNeed],
    notes: &mut Notes,
) -> Result<bool, PodFailure> {
    let (reporter, key) = (scope.reporter, scope.key);
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
                        "{key}: image {}: registry unreachable ({detail}); using the local image",
                        need.image
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
            RuntimeError::Image { detail, image } if detail.is_empty() => {
                ("ErrImageNeverPull", format!("{image}: the image is not present and imagePullPolicy is Never"), true)
            }
            RuntimeError::ImageNotFound { detail, .. } => ("ErrImagePull", format!("not found: {detail}"), true),
            RuntimeError::RegistryUnreachable { detail, .. } => {
                ("ErrImagePull", format!("registry unreachable: {detail}"), false)
            }
            RuntimeError::Image { detail, .. } => ("ErrImagePull", detail.clone(), false),
            other => ("ErrImagePull", chain(other), false),
        };
        if for_good {
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
        // The kubelet's sequence: ErrImagePull on a failure, ImagePullBackOff while it waits
        // to try again.
        for c in &need.containers {
            let again =
                notes.waiting.get(c).is_some_and(|w| w.reason == "ErrImagePull" || w.reason == "ImagePullBackOff");
            note(notes, c, if again { "ImagePullBackOff" } else { reason }, message.clone());
        }
        all = false;
    }
    Ok(all)
}

/// Makes one image present. `Ok(Some(why))`: the registry could not be reached, and the
/// local copy serves. The pull is the run's (see `pulls`): pods that need the image at the
/// same time wait for one pull.
async fn ensure_image<R: Runtime>(scope: Scope<'_, R>, need: &ImageNeed) -> Result<Option<String>, RuntimeError> {
    let Scope { rt, desired, reporter, key, pulls, .. } = scope;
    let present = rt.image_present(&need.image).await?;
    match (need.policy, present) {
        // An empty detail marks "absent under Never" for the caller.
        (PullPolicy::Never, false) => Err(RuntimeError::Image { image: need.image.clone(), detail: String::new() }),
        (PullPolicy::Never | PullPolicy::IfNotPresent, true) => Ok(None),
        (PullPolicy::Always, _) | (PullPolicy::IfNotPresent, false) => {
            reporter.pull(key, &need.image, PullEvent::Started);
            let started = std::time::Instant::now();
            let last = std::sync::Mutex::new(PullProgress::default());
            let progress = |p: PullProgress| {
                *last.lock().unwrap_or_else(|e| e.into_inner()) = p;
                reporter.pull(key, &need.image, PullEvent::Progress(p));
            };
            let credentials = credentials_for(desired, &need.image, reporter, key).await;
            let r = pulls.pull(rt, &need.image, credentials.as_ref(), &progress).await;
            let done = *last.lock().unwrap_or_else(|e| e.into_inner());
            match r {
                Ok(()) => {
                    reporter.pull(
                        key,
                        &need.image,
                        PullEvent::Done { bytes: done.bytes_total, elapsed: started.elapsed() },
                    );
                    Ok(None)
                }
                Err(RuntimeError::RegistryUnreachable { detail, .. }) if present => {
                    reporter.pull(key, &need.image, PullEvent::Failed);
                    Ok(Some(detail))
                }
                Err(e) => {
                    reporter.pull(key, &need.image, PullEvent::Failed);
                    Err(e)
                }
            }
        }
    }
}

/// Credentials for pulling `image`, as the kubelet and Docker find them: the pod's
/// imagePullSecrets first, then the user's Docker config (and its credential helpers). A
/// problem with either is a warning, and the pull goes on anonymously. Never logged.
async fn credentials_for(
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

/// Makes podrun's infra image present: podrun's own image is built locally from the pause
/// program compiled into podrun; any other (`--infra-image`) is pulled when absent.
pub async fn ensure_infra_image<R: Runtime>(rt: &R, image: &str) -> Result<(), RuntimeError> {
    if rt.image_present(image).await? {
        return Ok(());
    }
    if image == infra_image::default_infra_image() {
        rt.load_image(image, infra_image::image_archive()).await
    } else {
        rt.pull_image(image, None, &|_| {}).await
    }
}

/// Stops (in parallel, pod members first, each with its preStop hook and the grace period it
/// was created with) and removes every container podrun made for the pods `sel` selects, or
/// only those of them with an id in `only`. Returns how many.
pub async fn remove_pod<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
    only: Option<&[String]>,
    files: Option<&PodFiles>,
) -> Result<usize, RuntimeError> {
    remove_pod_with(rt, sel, grace_override, true, only, files).await
}

/// How many times a whole pod's removal looks again for containers made meanwhile.
const MAX_EXTRA_LOOKS: u32 = 3;

/// `remove_pod`, and with `wait` false no stop at all: no preStop hook, no grace period, each
/// container is removed with force at once (the engine kills a running one with SIGKILL).
pub async fn remove_pod_with<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
    wait: bool,
    only: Option<&[String]>,
    files: Option<&PodFiles>,
) -> Result<usize, RuntimeError> {
    let mut all = rt.list(sel).await?;
    // What podrun cannot prove it made is never stopped, hooked or removed.
    all.retain(Observed::is_owned);
    if let Some(ids) = only {
        all.retain(|c| ids.contains(&c.id));
    }
    // A whole pod's removal says so first, for a run of the pod beside it (`pod::deletion`).
    let signs: Vec<(String, String)> = match (only, files) {
        (None, Some(files)) => uids_of(&all)
            .into_iter()
            .filter_map(|uid| files.begin_deletion(uid).map(|id| (uid.to_owned(), id)))
            .collect(),
        _ => Vec::new(),
    };
    let removed = remove_listed(rt, sel, grace_override, wait, only, files, all).await;
    if let Some(files) = files {
        for (uid, id) in &signs {
            files.end_deletion(uid, id);
        }
    }
    removed
}

/// The pod uids the containers carry (sealed labels), each once.
fn uids_of(all: &[Observed]) -> Vec<&str> {
    let mut uids: Vec<&str> = all.iter().filter_map(|c| c.label(labels::POD_UID)).collect();
    uids.sort_unstable();
    uids.dedup();
    uids
}

/// `remove_pod_with`'s removal of the containers it listed, `all`.
async fn remove_listed<R: Runtime>(
    rt: &R,
    sel: &Selector,
    grace_override: Option<Duration>,
    wait: bool,
    only: Option<&[String]>,
    files: Option<&PodFiles>,
    mut all: Vec<Observed>,
) -> Result<usize, RuntimeError> {
    let mut batch = all.clone();
    // The whole pod: an apply running beside this may have created a container after the
    // list; it notices the deletion and removes its own (see the driver), and this looks again,
    // a few times, so the pod is gone either way.
    let mut looks = if only.is_none() { MAX_EXTRA_LOOKS } else { 0 };
    loop {
        let (infra, members): (Vec<&Observed>, Vec<&Observed>) = batch.iter().partition(|c| is_infra(c));
        for part in [members, infra] {
            let order = Ordering::new(part.iter().copied());
            let stops = part.iter().map(|c| stop_and_remove(rt, c, grace_override, wait, files, Some(&order)));
            for r in join_all(stops).await {
                r?;
            }
        }
        if looks == 0 || batch.is_empty() {
            break;
        }
        looks -= 1;
        batch = rt.list(sel).await?.into_iter().filter(Observed::is_owned).collect();
        all.extend(batch.iter().cloned());
    }
    // With the whole pod gone, so are its files and its own engine volumes (not its claims').
    let whole_pod = only.is_none() || rt.list(sel).await.is_ok_and(|left| !left.iter().any(Observed::is_owned));
    if whole_pod {
        for uid in uids_of(&all) {
            if let Some(files) = files {
                volumes::remove_pod_volumes(files, uid);
                files.remove_pod(uid);
            }
            remove_engine_volumes(rt, uid).await?;
        }
    }
    Ok(all.len())
}

/// Removes the engine volumes podrun made for the pod `uid` (see `pod::volumes::engine`).
pub async fn remove_engine_volumes<R: Runtime>(rt: &R, uid: &str) -> Result<usize, RuntimeError> {
    let found = rt.list_volumes(&engine::pod_volume_filters(uid)).await?;
    for v in &found {
        rt.remove_volume(&v.name).await?;
    }
    Ok(found.len())
}
