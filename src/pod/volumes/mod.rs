//! Pod volumes as the kubelet provides them, on one host.
//!
//! Three steps, so the part that decides stays pure:
//!
//! 1. [`plan_volumes`] reads the defaulted Pod (and the ConfigMaps and Secrets it may refer to)
//!    and decides everything, for the volumes the containers use (`used`): where each volume lives on the host, which files podrun writes
//!    into it, which named engine volumes exist, and each container's mounts. It plans the
//!    volumes and mounts validation hands it checked and typed (`check_volumes`, the one rule
//!    book), and refuses what only it can know (a missing ConfigMap or key) and what the engine
//!    cannot do. No I/O.
//! 2. [`prepare`] makes the host side real: directories, files (rewritten atomically on every
//!    apply), hostPath type checks. The driver calls `Runtime::ensure_volume` for each of
//!    [`VolumeSetup::named_volumes`].
//! 3. [`VolumeSetup::mounts_for`] gives one container's mounts, just before it is created or
//!    started (it expands `subPathExpr` against that container's environment, and mounts each
//!    sub-path itself, creating a missing directory the way the kubelet does: see `subpath`).
//!    [`VolumeSetup::check_mounts`] checks the same before anything is created.
//!
//! Files: this one holds the plan and its types; `contents` (the files a volume holds) and
//! `mounts` (a container's mounts) are parts of the plan, pure too, and `reason` says why the
//! plan refuses a field, `used` which volumes it plans; `host` holds the I/O of step 2, `subpath` that of the sub-paths of
//! step 3.
//!
//! Host layout (under the pod's private directory, `PodFiles::pod_dir`, mode 0700, which keeps
//! every other host user out of everything below it, whatever the modes there):
//!
//! - `<pod dir>/volumes/<name>`: emptyDir, configMap, downwardAPI, and projected volumes
//!   without a Secret.
//! - `<podrun's /dev/shm directory>/<pod uid>/<name>` (`PodFiles::shm_base`: a name only the
//!   state directory's key gives; the pod directory there is 0700 too): emptyDir with `medium:
//!   Memory`, and volumes that hold Secret data, which therefore never touch a disk (as the
//!   kubelet keeps secrets on tmpfs). A Memory emptyDir is a tmpfs mounted there, sized as the
//!   kubelet sizes it (`tmpfs`), when podrun runs as root, else a plain directory. It is
//!   podrun's mount rather than an engine's tmpfs mount because an engine tmpfs belongs to one
//!   container: it could not be shared by several containers, and it would be emptied on every
//!   restart, while an emptyDir lives as long as the pod.
//! - persistentVolumeClaim: the named engine volume `podrun-<namespace>-<claim>`, kept when the
//!   pod is deleted, as a claim outlives its pods.
//! - `<pod dir>/volume-subpaths/<volume>/<container>/<mount index>`: the mount point of each
//!   sub-path mount, a bind mount of what the sub-path names (see `subpath`), which is what the
//!   engine mounts into the container.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::escape::escape;
use crate::manifest::config_store::ConfigStore;
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::quantity::Quantity;
use crate::manifest::types::{
    DownwardApiVolumeFile, HostPathType, KeyToPath, MountPropagation, Pod, ProjectedVolumeSource, PullPolicy,
};
use crate::manifest::validate::{
    check_volumes, CheckedMount, CheckedSource, CheckedSubPath, CheckedVolume, FieldError, Medium,
};
use crate::runtime::{EngineFeatures, EngineInfo, Mount, Propagation, RECURSIVE_READ_ONLY_API};

use super::absent::{Absent, SUPPLY};
use super::downward::{self, PodFacts};
use super::env::expand;
use super::files::PodFiles;
use crate::runtime::labels;

mod contents;
pub mod engine;
pub mod env_file;
mod host;
mod mounts;
mod reason;
mod subpath;
mod tmpfs;
mod used;

use contents::{downward_files, key_files, FileSet, Keys};
pub use host::{prepare, remove_pod_volumes, HostError};
use mounts::plan_mounts;
use reason::{checked_rel_path, PathProblem};
pub use reason::{PathValue, Reason};
pub use subpath::SubPathError;
pub use used::used_volumes;

/// The label naming the claim a named volume was made for.
pub const CLAIM_LABEL: &str = "io.podrun.claim";
/// An emptyDir is writable by any user, as the kubelet makes it.
const EMPTY_DIR_MODE: u32 = 0o777;
/// Directories podrun creates for the files of a configMap, secret, downwardAPI or projected
/// volume (see `prepare` for the secret case).
const FILES_DIR_MODE: u32 = 0o755;
/// With fsGroup, the directory of a volume holding Secret data is closed to other users: every
/// container of the pod has the group.
const SECRET_DIR_MODE_WITH_GROUP: u32 = 0o750;
/// The mode of an emptyDir's directory: with fsGroup also setgid, so what the pod's
/// containers create there keeps the group (the kubelet's ownership rule); a Memory one is
/// sticky too, as the root of the fresh tmpfs the kubelet mounts is (1777).
fn empty_dir_mode(memory: bool, group: Option<u32>) -> u32 {
    let sticky = if memory { 0o1000 } else { 0 };
    let setgid = if group.is_some() { 0o2000 } else { 0 };
    EMPTY_DIR_MODE | sticky | setgid
}

/// The mode of a Files volume's directories and the bits its files get added, on the host and
/// on the engine alike: with fsGroup, the kubelet's ownership rule for a read-only volume
/// (group read, and for directories setgid and group search).
fn files_modes(secret: bool, group: Option<u32>) -> (u32, u32) {
    let base = if secret && group.is_some() { SECRET_DIR_MODE_WITH_GROUP } else { FILES_DIR_MODE };
    match group {
        Some(_) => (base | 0o2000 | 0o110 | 0o440, 0o440),
        None => (base, 0),
    }
}

/// The tmpfs podrun keeps Memory emptyDirs and secrets on.
const SHM: &str = "/dev/shm";

/// Why a volume cannot be planned or prepared. Every variant names the field it is about, so
/// the message reads like the API server's (`spec.volumes[2].hostPath.path: ...`).
#[derive(Debug, thiserror::Error)]
pub enum VolumeError {
    /// Kubernetes itself would refuse the manifest.
    #[error("{field}: {reason}")]
    Invalid { field: String, reason: Reason },
    /// The pod breaks a rule of validation's (`manifest::validate::check_volumes`), which the
    /// manifest layer would have reported.
    #[error("{0}")]
    Checked(FieldError),
    /// A ConfigMap, Secret or key the pod needs is not there (the kubelet's
    /// CreateContainerConfigError).
    #[error("{field}: {what} ({SUPPLY})")]
    Missing { field: String, what: Absent },
    /// Valid for Kubernetes, but podrun (or its engine) cannot provide it.
    #[error("{field}: {what}")]
    Unsupported { field: String, what: Unable },
    /// The host side could not be made or failed a check.
    #[error("{field}")]
    Host {
        field: String,
        #[source]
        cause: HostError,
    },
    /// A sub-path could not be opened inside its volume, or mounted (the mount's `subPath` or
    /// `subPathExpr` field).
    #[error("{field}")]
    SubPath {
        field: String,
        #[source]
        cause: SubPathError,
    },
}

fn invalid(field: impl Into<String>, reason: Reason) -> VolumeError {
    VolumeError::Invalid { field: field.into(), reason }
}

fn missing(field: impl Into<String>, what: Absent) -> VolumeError {
    VolumeError::Missing { field: field.into(), what }
}

/// What Kubernetes allows of a volume or mount and podrun or its engine cannot provide. Part of
/// the message of [`VolumeError::Unsupported`], not its cause: the field and this are one
/// sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unable {
    /// A source validation refuses (`validate/refused.rs`) that got here anyway.
    #[error("not supported by podrun")]
    Source,
    #[error(
        "not supported by {engine} {version}: its Docker-compatible API mounts the whole image and ignores a \
         sub-path (Docker 28+ mounts one)"
    )]
    ImageSubPath { engine: String, version: String },
    /// A projection only a cluster can issue (a service account token, a trust bundle, a pod
    /// certificate).
    #[error("not supported by podrun: a single host has no cluster to issue it")]
    ClusterProjection,
    #[error("{medium:?}: not supported by podrun")]
    HugePages { medium: String },
    #[error(
        "Unsupported value: \"Enabled\": the container engine ({engine} {version}, API {api}) cannot make a mount \
         recursively read-only: run it on Docker Engine 25 or later (API {}.{}), or through the CRI on a runtime \
         that announces recursive read-only mounts (containerd 2.0+, CRI-O 1.30+); IfPossible gives a plain \
         read-only mount where the engine cannot",
        RECURSIVE_READ_ONLY_API.0,
        RECURSIVE_READ_ONLY_API.1
    )]
    RecursiveReadOnly { engine: String, version: String, api: String },
    #[error(
        "not supported by podrun on an engine that is not on this host: the volume is a named engine volume there, \
         and the engine (Docker API before 1.45) cannot mount a sub-path of one"
    )]
    RemoteSubPath,
    #[error(
        "not supported by podrun: volume {volume:?} is a persistentVolumeClaim, a named engine volume, and Docker \
         20.10 cannot mount a sub-path of a named volume"
    )]
    ClaimSubPath { volume: String },
}

fn unsupported(field: impl Into<String>, what: Unable) -> VolumeError {
    VolumeError::Unsupported { field: field.into(), what }
}

fn host(field: impl Into<String>, cause: HostError) -> VolumeError {
    VolumeError::Host { field: field.into(), cause }
}

/// Everything podrun must prepare for a pod's volumes, and every container's mounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeSetup {
    uid: String,
    /// The pod's own volumes are engine volumes (see `engine`), not host directories.
    engine: bool,
    pod_dir: PathBuf,
    shm_dir: PathBuf,
    fs_group: Option<u32>,
    volumes: Vec<PlannedVolume>,
    /// By container name (init and app containers).
    mounts: BTreeMap<String, Vec<PlannedMount>>,
}

/// One volume of `spec.volumes`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedVolume {
    pub name: String,
    /// Its field path, `spec.volumes[i]`.
    pub field: String,
    pub source: PlannedSource,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlannedSource {
    /// emptyDir: a directory of podrun's own, kept as long as the pod (`memory`: on /dev/shm).
    /// `size_limit`: `sizeLimit` in bytes, when set and above zero. `tmpfs_size`: for a Memory
    /// one, the size of its tmpfs as the kubelet sizes it (see `memory_size`); none, the
    /// kernel's default (half the host's memory).
    EmptyDir { dir: PathBuf, memory: bool, size_limit: Option<u64>, tmpfs_size: Option<u64> },
    /// hostPath: the host's own path, checked (and created, for the *OrCreate types).
    HostPath { path: PathBuf, kind: HostPathType },
    /// configMap, secret, downwardAPI, projected: files podrun writes, mounted read-only (as
    /// the kubelet has mounted them since Kubernetes 1.10). `secret`: some file holds Secret
    /// data, so the directory is on /dev/shm.
    Files { dir: PathBuf, files: Vec<VolumeFile>, secret: bool },
    /// persistentVolumeClaim: a named engine volume.
    Claim { volume: NamedVolume, read_only: bool },
    /// image: an OCI image the engine mounts read-only (pulled first, by `pull_policy`).
    Image { reference: String, pull_policy: PullPolicy },
}

/// A named volume the engine must have (`Runtime::ensure_volume`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedVolume {
    pub name: String,
    pub labels: BTreeMap<String, String>,
}

/// One file of a configMap, secret, downwardAPI or projected volume. Its `Debug` shows the path
/// and mode only, never the content.
#[derive(Clone, PartialEq, Eq)]
pub struct VolumeFile {
    /// Relative to the volume's directory; checked to stay inside it.
    pub path: PathBuf,
    /// Permission bits as the manifest gives them (before fsGroup adds group read).
    pub mode: u32,
    content: Vec<u8>,
}

impl fmt::Debug for VolumeFile {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("VolumeFile")
            .field("path", &self.path)
            .field("mode", &format_args!("{:04o}", self.mode))
            .field("bytes", &self.content.len())
            .finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct PlannedMount {
    /// `spec.containers[i].volumeMounts[j]`.
    field: String,
    /// `j`: it names the sub-path's mount point.
    index: usize,
    /// Index into `VolumeSetup::volumes`.
    volume: usize,
    target: String,
    read_only: bool,
    sub_path: SubPath,
    propagation: Propagation,
    recursive_read_only: bool,
    /// `recursiveReadOnly: IfPossible`: made recursive by `check_engine` where the engine can.
    recursive_if_possible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum SubPath {
    None,
    /// Checked already.
    Literal(PathBuf),
    /// Checked after expansion, in `mounts_for`.
    Expr(String),
}

/// What planning one pod needs, besides the pod.
struct Ctx<'a> {
    pod: &'a Pod,
    namespace: &'a str,
    configs: &'a ConfigStore,
    facts: &'a PodFacts,
    pod_dir: PathBuf,
    shm_dir: PathBuf,
}

/// Plans every volume of the pod and every container's mounts, from the defaulted Pod. Pure:
/// no I/O. ConfigMaps and Secrets are looked up in `configs` in the pod's namespace.
///
/// The volumes and mounts are validation's (`manifest::validate::check_volumes`): a pod that
/// breaks one of its rules is refused with validation's error, and one that passes is planned
/// from the typed result without further checks. Only the volumes the containers use are
/// planned (`used`), as the kubelet sets up no other. Besides, it refuses what only podrun can
/// know (a missing ConfigMap or key, a key that is no file name) and what the engine cannot do.
pub fn plan_volumes(
    pod: &Pod,
    files: &PodFiles,
    configs: &ConfigStore,
    facts: &PodFacts,
) -> Result<VolumeSetup, VolumeError> {
    let uid = pod.metadata.uid.as_deref().unwrap_or("");
    if !is_path_component(uid) {
        return Err(invalid(
            "metadata.uid",
            Reason::RequiredBecause("volumes are planned for a defaulted pod, with a uid"),
        ));
    }
    let fs_group = match pod.spec.security_context.as_ref().and_then(|s| s.fs_group) {
        None => None,
        Some(g) => Some(u32::try_from(g).map_err(|_| {
            invalid(
                "spec.securityContext.fsGroup",
                Reason::InvalidRaw { value: g.to_string(), why: "must be between 0 and 4294967295".to_owned() },
            )
        })?),
    };
    let ctx = Ctx {
        pod,
        namespace: pod.metadata.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(DEFAULT_NAMESPACE),
        configs,
        facts,
        pod_dir: files.pod_dir(uid),
        shm_dir: files.shm_base().join(uid),
    };
    // Validation's rules, once more only if the pod did not come through validation: what
    // passes is typed, and planned below without further checks.
    let checked = check_volumes(pod).map_err(|mut errors| VolumeError::Checked(errors.swap_remove(0)))?;
    // Only what the containers use is planned, so nothing else is made or checked (`used`).
    let used = used_volumes(&pod.spec);
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    let mut volumes = Vec::with_capacity(checked.volumes.len());
    for v in checked.volumes.iter().filter(|v| used.contains(v.name)) {
        by_name.insert(v.name, volumes.len());
        let source = plan_source(&ctx, v)?;
        volumes.push(PlannedVolume { name: v.name.to_owned(), field: v.field.clone(), source });
    }
    let mut mounts = BTreeMap::new();
    for (container, checked_mounts) in &checked.mounts {
        mounts.insert((*container).to_owned(), plan_mounts(checked_mounts, &by_name, &volumes)?);
    }
    Ok(VolumeSetup {
        uid: uid.to_owned(),
        engine: false,
        pod_dir: ctx.pod_dir,
        shm_dir: ctx.shm_dir,
        fs_group,
        volumes,
        mounts,
    })
}

/// Plans one checked volume: where it lives, and the files podrun writes into it.
fn plan_source(ctx: &Ctx, v: &CheckedVolume) -> Result<PlannedSource, VolumeError> {
    let field = &v.field;
    let mut files = FileSet::default();
    match &v.source {
        // Validation refuses these with the reason (`validate/refused.rs`); were one to get
        // here, it must not become an emptyDir.
        CheckedSource::Refused { field } => return Err(unsupported(field.clone(), Unable::Source)),
        CheckedSource::Image { reference, pull_policy } => {
            return Ok(PlannedSource::Image { reference: (*reference).to_owned(), pull_policy: *pull_policy })
        }
        CheckedSource::HostPath { path, kind } => {
            return Ok(PlannedSource::HostPath { path: PathBuf::from(path), kind: *kind })
        }
        CheckedSource::Claim { claim_name, read_only } => {
            return Ok(PlannedSource::Claim { volume: claim_volume(ctx.namespace, claim_name), read_only: *read_only })
        }
        CheckedSource::EmptyDir { medium, size_limit } => return plan_empty_dir(ctx, v, medium, *size_limit),
        CheckedSource::ConfigMap { source: cm, default_mode } => {
            let keys = Keys::config_map(&cm.name, &cm.items, cm.optional);
            key_files(ctx, &format!("{field}.configMap"), &keys, *default_mode, &mut files)?;
        }
        CheckedSource::Secret { source: s, default_mode } => {
            let keys = Keys::secret("secretName", &s.secret_name, &s.items, s.optional);
            key_files(ctx, &format!("{field}.secret"), &keys, *default_mode, &mut files)?;
        }
        CheckedSource::DownwardApi { source: d, default_mode } => {
            downward_files(ctx, &format!("{field}.downwardAPI"), &d.items, *default_mode, &mut files)?;
        }
        CheckedSource::Projected { source: p, default_mode } => {
            projected_files(ctx, &format!("{field}.projected"), p, *default_mode, &mut files)?;
        }
    }
    let secret = files.secret;
    let dir = if secret { ctx.shm_dir.join(v.name) } else { ctx.pod_dir.join("volumes").join(v.name) };
    Ok(PlannedSource::Files { dir, files: files.finish()?, secret })
}

fn plan_empty_dir(
    ctx: &Ctx,
    v: &CheckedVolume,
    medium: &Medium,
    size_limit: Option<u64>,
) -> Result<PlannedSource, VolumeError> {
    let memory = match medium {
        Medium::Disk => false,
        Medium::Memory => true,
        Medium::HugePages(m) => {
            return Err(unsupported(format!("{}.emptyDir.medium", v.field), Unable::HugePages { medium: m.clone() }))
        }
    };
    let dir = if memory { ctx.shm_dir.join(v.name) } else { ctx.pod_dir.join("volumes").join(v.name) };
    let node = Some(ctx.facts.host_memory).filter(|m| *m > 0);
    let tmpfs_size = if memory { memory_size(size_limit, pod_memory_limit(ctx.pod), node) } else { None };
    Ok(PlannedSource::EmptyDir { dir, memory, size_limit, tmpfs_size })
}

/// The files of a projected volume's sources (each checked to be one source).
fn projected_files(
    ctx: &Ctx,
    f: &str,
    p: &ProjectedVolumeSource,
    default_mode: u32,
    files: &mut FileSet,
) -> Result<(), VolumeError> {
    for (k, src) in p.sources.iter().enumerate() {
        let sf = format!("{f}.sources[{k}]");
        if let Some(cm) = &src.config_map {
            let keys = Keys::config_map(&cm.name, &cm.items, cm.optional);
            key_files(ctx, &format!("{sf}.configMap"), &keys, default_mode, files)?;
        } else if let Some(s) = &src.secret {
            let keys = Keys::secret("name", &s.name, &s.items, s.optional);
            key_files(ctx, &format!("{sf}.secret"), &keys, default_mode, files)?;
        } else if let Some(d) = &src.downward_api {
            downward_files(ctx, &format!("{sf}.downwardAPI"), &d.items, default_mode, files)?;
        } else {
            let refused = [
                ("serviceAccountToken", &src.service_account_token),
                ("clusterTrustBundle", &src.cluster_trust_bundle),
                ("podCertificate", &src.pod_certificate),
            ];
            // As the kubelet takes one (and the API server lets it be): a source of nothing.
            if let Some((name, _)) = refused.iter().find(|(_, v)| v.is_some()) {
                return Err(unsupported(format!("{sf}.{name}"), Unable::ClusterProjection));
            }
        }
    }
    Ok(())
}

/// The size of a Memory emptyDir's tmpfs, as the kubelet's `calculateEmptyDirMemorySize`: the
/// node's allocatable memory (`node`: on one host, its whole memory, MemTotal), or the pod's
/// memory limit when that is smaller, or the volume's `sizeLimit` when that is smaller still:
/// a tmpfs never promises more than the pod, or the node, could hold. None only when nothing
/// is known (the kernel's default, half the memory, then serves).
fn memory_size(size_limit: Option<u64>, pod_limit: Option<u64>, node: Option<u64>) -> Option<u64> {
    [node, pod_limit, size_limit].into_iter().flatten().min()
}

/// The pod's memory limit as the kubelet sets its cgroup's: the pod-level limit when given;
/// else, when every container has a memory limit, the larger of the app containers' and
/// sidecars' sum and the largest init container's; else none.
fn pod_memory_limit(pod: &Pod) -> Option<u64> {
    let limit = |r: Option<&crate::manifest::types::ResourceRequirements>| {
        let q = Quantity::parse(r?.limits.get("memory")?).ok()?;
        u64::try_from(q.value_ceil()).ok().filter(|b| *b > 0)
    };
    if let Some(l) = limit(pod.spec.resources.as_ref()) {
        return Some(l);
    }
    let (mut running, mut init) = (0u64, 0u64);
    for (_, c, is_init) in pod.spec.all_containers() {
        let l = limit(c.resources.as_ref())?;
        if is_init && c.restart_policy != Some(crate::manifest::types::ContainerRestartPolicy::Always) {
            init = init.max(l);
        } else {
            running = running.saturating_add(l);
        }
    }
    Some(running.max(init))
}

/// The engine volume for a claim: one per namespace and claim name, shared by every pod that
/// names the claim.
pub fn claim_volume(namespace: &str, claim: &str) -> NamedVolume {
    let labels = BTreeMap::from([
        (labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned()),
        (labels::POD_NAMESPACE.to_owned(), namespace.to_owned()),
        (CLAIM_LABEL.to_owned(), claim.to_owned()),
    ]);
    NamedVolume { name: format!("podrun-{namespace}-{claim}"), labels }
}

/// A path inside a volume (an item path, a key used as a file name, a subPath), as
/// `checked_rel_path` takes it, refused at `field` with the value shown.
fn rel_path(s: &str, field: &str) -> Result<PathBuf, VolumeError> {
    checked_rel_path(s)
        .map_err(|problem| invalid(field, Reason::Path { value: PathValue::Shown(s.to_owned()), problem }))
}

/// `rel_path` of a subPathExpr expanded against `env`. A refusal shows the expression as
/// written, never what it expanded to: a variable may hold a Secret's value.
fn expanded_rel_path(expr: &str, env: &[(String, String)], field: &str) -> Result<PathBuf, VolumeError> {
    expand(expr, env)
        .map_err(|_| PathProblem::TooLong)
        .and_then(|path: String| checked_rel_path(&path))
        .map_err(|problem| invalid(field, Reason::Path { value: PathValue::Expanded(expr.to_owned()), problem }))
}

/// The engine's mount of an image volume, with its sub-path (a subPathExpr expanded).
fn image_mount(reference: &str, m: &PlannedMount, env: &[(String, String)]) -> Result<Mount, VolumeError> {
    let sub_path = match &m.sub_path {
        SubPath::None => None,
        SubPath::Literal(p) => Some(p.to_string_lossy().into_owned()),
        SubPath::Expr(e) => {
            let field = format!("{}.subPathExpr", m.field);
            Some(expanded_rel_path(e, env, &field)?.to_string_lossy().into_owned())
        }
    };
    Ok(Mount::Image { image: reference.to_owned(), target: m.target.clone(), sub_path })
}

/// A uid fit to name a directory (validation checks it; removal checks again before it deletes).
fn is_path_component(s: &str) -> bool {
    !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '\0'])
}

impl VolumeSetup {
    /// Keeps the pod's own volumes (emptyDir, configMap, secret, downwardAPI, projected) on the
    /// engine, as named volumes filled through its API, rather than in host directories: for an
    /// engine that cannot see podrun's files.
    #[must_use]
    pub fn on_engine(mut self) -> Self {
        self.engine = true;
        self
    }

    pub fn is_on_engine(&self) -> bool {
        self.engine
    }

    /// The pod's volumes, in manifest order.
    #[cfg(test)]
    pub fn volumes(&self) -> &[PlannedVolume] {
        &self.volumes
    }

    /// What the user should hear about once: a sizeLimit podrun does not enforce. The kubelet
    /// sizes a Memory emptyDir's tmpfs by it, as podrun does (on the host when it runs as root,
    /// else on the engine); a disk-backed one it enforces by evicting the pod.
    pub fn warnings(&self) -> Vec<String> {
        let tmpfs = self.engine || rustix::process::geteuid().is_root();
        self.volumes
            .iter()
            .filter_map(|v| match &v.source {
                PlannedSource::EmptyDir { memory: true, size_limit: Some(_), .. } if !tmpfs => Some(format!(
                    "{}.emptyDir.sizeLimit: not enforced: podrun, not run as root, cannot mount a tmpfs: it keeps a \
                     Memory emptyDir in a directory on the host's {SHM} tmpfs, which the pod's containers share and \
                     which has no size of its own",
                    v.field
                )),
                PlannedSource::EmptyDir { memory: false, size_limit: Some(_), .. } => Some(format!(
                "{}.emptyDir.sizeLimit: not enforced: the kubelet enforces it by evicting the pod, and podrun does \
                 not evict",
                v.field
            )),
                _ => None,
            })
            .collect()
    }

    /// The named engine volumes the pod needs (one per claim), for `Runtime::ensure_volume`.
    pub fn named_volumes(&self) -> Vec<NamedVolume> {
        let mut out: Vec<NamedVolume> = Vec::new();
        for v in &self.volumes {
            if let PlannedSource::Claim { volume, .. } = &v.source {
                if !out.iter().any(|o| o.name == volume.name) {
                    out.push(volume.clone());
                }
            }
        }
        out
    }

    /// `recursiveReadOnly: IfPossible` made recursive when the engine `can` (the kubelet's
    /// resolveRecursiveReadOnly), else left a plain read-only mount.
    pub fn recursive_if_possible(&mut self, can: bool) {
        for m in self.mounts.values_mut().flatten().filter(|m| can && m.recursive_if_possible) {
            m.recursive_read_only = true;
        }
    }

    /// Refuses what the engine cannot do, as the kubelet refuses what its runtime handler
    /// cannot: `recursiveReadOnly: Enabled` where the engine cannot make a mount recursively
    /// read-only (`EngineFeatures::recursive_read_only`; it would silently be read-only only at
    /// the top). Podman's Docker-compatible API ignores an image mount's sub-path (it mounts the whole
    /// image), so a sub-path of an image volume is refused there.
    pub fn check_engine(&self, engine: &EngineInfo, features: &EngineFeatures) -> Result<(), VolumeError> {
        let podman = engine.name.starts_with("Podman");
        for m in self.mounts.values().flatten().filter(|m| podman && m.sub_path != SubPath::None) {
            if matches!(self.volumes[m.volume].source, PlannedSource::Image { .. }) {
                let which = if matches!(m.sub_path, SubPath::Expr(_)) { "subPathExpr" } else { "subPath" };
                let (engine, version) = (escape(&engine.name).into_owned(), escape(&engine.version).into_owned());
                return Err(unsupported(format!("{}.{which}", m.field), Unable::ImageSubPath { engine, version }));
            }
        }
        if features.recursive_read_only {
            return Ok(());
        }
        if let Some(m) = self.mounts.values().flatten().find(|m| m.recursive_read_only) {
            return Err(unsupported(
                format!("{}.recursiveReadOnly", m.field),
                Unable::RecursiveReadOnly {
                    engine: escape(&engine.name).into_owned(),
                    version: escape(&engine.version).into_owned(),
                    api: escape(&engine.api_version).into_owned(),
                },
            ));
        }
        Ok(())
    }

    /// The mounts of the container named `container` (init or app), given its environment
    /// (`NAME`, value, in order; the last definition wins) for `subPathExpr`.
    ///
    /// Call it after [`prepare`], right before creating the container, and again right before
    /// starting one created earlier. It touches the host only for a sub-path, which a container
    /// may have swapped for a symbolic link in a writable volume: each is opened inside its
    /// volume without following links (a missing one is created as a directory with the mode
    /// of the volume's root, as the kubelet does) and bind-mounted onto a mount point of
    /// podrun's, and the engine is given the mount point (see `subpath`).
    pub fn mounts_for(&self, container: &str, env: &[(String, String)]) -> Result<Vec<Mount>, VolumeError> {
        let Some(planned) = self.mounts.get(container) else { return Ok(Vec::new()) };
        planned.iter().map(|m| self.mount(container, m, env, true)).collect()
    }

    /// Checks what [`mounts_for`](Self::mounts_for) would refuse, creating nothing: for the
    /// checks before anything of the pod is created.
    pub fn check_mounts(&self, container: &str, env: &[(String, String)]) -> Result<(), VolumeError> {
        let Some(planned) = self.mounts.get(container) else { return Ok(()) };
        planned.iter().try_for_each(|m| self.mount(container, m, env, false).map(drop))
    }

    /// One mount; `make`: open and mount a sub-path (else only check it, and the mount's source
    /// is not one to use).
    fn mount(
        &self,
        container: &str,
        m: &PlannedMount,
        env: &[(String, String)],
        make: bool,
    ) -> Result<Mount, VolumeError> {
        let v = &self.volumes[m.volume];
        let base = match &v.source {
            PlannedSource::Image { reference, .. } => return image_mount(reference, m, env),
            PlannedSource::Claim { volume, .. } => {
                return Ok(Mount::Volume {
                    name: volume.name.clone(),
                    target: m.target.clone(),
                    read_only: m.read_only,
                })
            }
            PlannedSource::EmptyDir { .. } | PlannedSource::Files { .. } if self.engine => {
                if m.sub_path != SubPath::None {
                    let which = if matches!(m.sub_path, SubPath::Expr(_)) { "subPathExpr" } else { "subPath" };
                    return Err(unsupported(format!("{}.{which}", m.field), Unable::RemoteSubPath));
                }
                return Ok(Mount::Volume {
                    name: engine::engine_volume_name(&self.uid, &v.name),
                    target: m.target.clone(),
                    read_only: m.read_only,
                });
            }
            PlannedSource::EmptyDir { dir, .. } | PlannedSource::Files { dir, .. } => dir,
            PlannedSource::HostPath { path, .. } => path,
        };
        let bind = |source: &Path| Mount::Bind {
            source: source.to_string_lossy().into_owned(),
            target: m.target.clone(),
            read_only: m.read_only,
            propagation: m.propagation,
            recursive_read_only: m.recursive_read_only,
        };
        let (rel, field, show) = match &m.sub_path {
            SubPath::None => return Ok(bind(base)),
            SubPath::Literal(p) => (p.clone(), format!("{}.subPath", m.field), true),
            SubPath::Expr(e) => {
                let field = format!("{}.subPathExpr", m.field);
                (expanded_rel_path(e, env, &field)?, field, false)
            }
        };
        if self.engine {
            // The engine's host path: podrun cannot look at it, the engine checks that it exists.
            return Ok(bind(&base.join(rel)));
        }
        // In a Files volume, a sub-path is of its data directory of the time, as the kubelet
        // resolves `key -> ..data/key`: the mount keeps that content when the volume changes.
        let data_dir;
        let base = match &v.source {
            PlannedSource::Files { dir, .. } => {
                data_dir = host::atomic::current_data(dir).map_or_else(|| dir.clone(), |d| dir.join(d));
                &data_dir
            }
            _ => base,
        };
        let err = |cause| VolumeError::SubPath { field: field.clone(), cause };
        if !make {
            subpath::check(base, &rel, show).map_err(err)?;
            return Ok(bind(&base.join(rel)));
        }
        let opened = subpath::open(base, &rel, show).map_err(err)?;
        let point = subpath::bind(&opened, &self.pod_dir, &v.name, container, m.index).map_err(err)?;
        Ok(bind(&point))
    }
}

#[cfg(test)]
mod tests;
