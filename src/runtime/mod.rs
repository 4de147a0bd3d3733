//! The container engine behind one trait, in podrun's own types: `Runtime`, made of one part
//! per kind of call as the CRI groups them (`services`).
//!
//! `docker` speaks to Docker Engine (or Podman's Docker-compatible API), `cri` to containerd or
//! CRI-O through the CRI; `engine` is either, chosen when podrun connects; `fake` is a
//! recording stand-in for unit tests of the driver. `auth`
//! finds the registry credentials an image pull needs (pull secrets, the Docker config).

pub mod auth;
pub mod bounded;
pub mod concurrency;
pub mod cri;
pub mod docker;
pub mod engine;
mod error;
#[cfg(test)]
pub mod fake;
mod features;
mod hyper_conn;
pub mod id_scheme;
pub mod infra_image;
pub mod insecure_tls;
pub mod labels;
pub mod node_ip;
mod oom_floor;
pub mod pod_cgroup;
pub mod registry;
pub mod seal;
mod services;
pub mod stats;

use std::collections::BTreeMap;

use futures_util::stream::BoxStream;

pub use self::error::{BadAnswer, Cause, NotSupported, RuntimeError, Unreachability};
pub use self::features::{EngineFeatures, Unsupported};
pub use self::id_scheme::IdScheme;
pub use self::pod_cgroup::PodCgroup;
pub use self::services::{
    ContainerRuntime, ImageRuntime, LogRuntime, NodeRuntime, Runtime, StatsRuntime, StreamingRuntime, VolumeRuntime,
};

/// A tar archive coming from the engine, chunk by chunk (`ContainerRuntime::get_archive_stream`).
pub type ArchiveStream = BoxStream<'static, Result<Vec<u8>, RuntimeError>>;
/// A tar archive going to the engine, chunk by chunk; an error ends the upload unfinished
/// (`ContainerRuntime::put_archive_stream`).
pub type UploadStream = BoxStream<'static, std::io::Result<Vec<u8>>>;

/// What podrun asks the engine to create. Engine-neutral: the Docker implementation maps it.
/// Its `Debug` leaves out the values of `env` (see [`EnvNames`]).
#[derive(Clone, PartialEq, Eq)]
pub struct CreateSpec {
    /// The engine-side container name (deterministic, see `pod::desired::DesiredPod::container_name`).
    pub name: String,
    pub image: String,
    /// Replaces the image ENTRYPOINT when set (Kubernetes `command`).
    pub entrypoint: Option<Vec<String>>,
    /// Replaces the image CMD when set (Kubernetes `args`).
    pub cmd: Option<Vec<String>>,
    /// `NAME=value` pairs, in order.
    pub env: Vec<String>,
    pub working_dir: Option<String>,
    pub labels: BTreeMap<String, String>,
    pub namespaces: Namespaces,
    /// Seconds the engine waits after the stop signal before SIGKILL.
    pub stop_timeout: Option<i64>,
    /// What the container gets mounted, in order (host paths, tmpfs, named volumes).
    pub mounts: Vec<Mount>,
    pub settings: ContainerSettings,
    /// The pod's own cgroup, when it has pod-level limits: every container of the pod goes
    /// under it (see `pod_cgroup`), and the engine makes it with these limits.
    pub pod_cgroup: Option<PodCgroup>,
}

impl std::fmt::Debug for CreateSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let CreateSpec {
            name,
            image,
            entrypoint,
            cmd,
            env,
            working_dir,
            labels,
            namespaces,
            stop_timeout,
            mounts,
            settings,
            pod_cgroup,
        } = self;
        f.debug_struct("CreateSpec")
            .field("name", name)
            .field("image", image)
            .field("entrypoint", &entrypoint.as_deref().map(Args))
            .field("cmd", &cmd.as_deref().map(Args))
            .field("env", &EnvNames(env))
            .field("working_dir", working_dir)
            .field("labels", labels)
            .field("namespaces", namespaces)
            .field("stop_timeout", stop_timeout)
            .field("mounts", mounts)
            .field("settings", settings)
            .field("pod_cgroup", pod_cgroup)
            .finish()
    }
}

/// A command's arguments shown by number only: `$(VAR)` in them has been expanded, and the
/// variable may be a Secret's.
struct Args<'a>(&'a [String]);

impl std::fmt::Debug for Args<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{} arguments redacted>", self.0.len())
    }
}

/// `NAME=value` pairs shown as `NAME=<redacted>`: a value may be a Secret's, and debug logs
/// must not show it.
pub struct EnvNames<'a>(pub &'a [String]);

impl std::fmt::Debug for EnvNames<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|e| format!("{}=<redacted>", e.split_once('=').map_or(e.as_str(), |(k, _)| k))))
            .finish()
    }
}

/// One mount of a container, engine-neutral.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mount {
    /// A host path (file or directory) bind-mounted at `target`. The path must exist: podrun
    /// prepares every host path itself, so an engine never creates one on its own.
    Bind {
        source: String,
        target: String,
        read_only: bool,
        propagation: Propagation,
        /// Read-only all the way down, submounts included (Kubernetes `recursiveReadOnly:
        /// Enabled`). Only engines that can promise it accept it (see `DockerRuntime::create`).
        recursive_read_only: bool,
    },
    /// A named volume the engine manages (see `Runtime::ensure_volume`), never pre-filled from
    /// the image: a Kubernetes volume starts as what the volume holds, not as the image's files.
    Volume { name: String, target: String, read_only: bool },
    /// An OCI image's filesystem (or its directory `sub_path`), mounted read-only (Kubernetes
    /// `image` volumes). The image is present: the driver pulled it as its pull policy says.
    /// Only engines whose `features().image_volumes` is set take it.
    Image { image: String, target: String, sub_path: Option<String> },
}

impl Mount {
    /// A plain private bind mount, as podrun's own files (the termination-log file) need.
    pub fn bind(source: impl Into<String>, target: impl Into<String>, read_only: bool) -> Mount {
        Mount::Bind {
            source: source.into(),
            target: target.into(),
            read_only,
            propagation: Propagation::Private,
            recursive_read_only: false,
        }
    }

    /// The path inside the container.
    pub fn target(&self) -> &str {
        match self {
            Mount::Bind { target, .. } | Mount::Volume { target, .. } | Mount::Image { target, .. } => target,
        }
    }
}

/// How mounts made later under a bind mount's source or target travel between host and
/// container (Kubernetes `mountPropagation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Propagation {
    /// Neither way (Kubernetes `None`): the engine's `rprivate`.
    #[default]
    Private,
    /// Host mounts appear in the container (Kubernetes `HostToContainer`): `rslave`.
    HostToContainer,
    /// Both ways (Kubernetes `Bidirectional`, privileged containers only): `rshared`.
    Bidirectional,
}

/// How a container gets its namespaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Namespaces {
    /// The infra container: creates the pod's network and IPC namespaces (shareable), and
    /// carries the pod's hostname, ports, /etc/hosts entries, DNS settings and sysctls.
    Infra(Box<PodNetwork>),
    /// A pod member: joins the infra container's network (the engine copies its hostname,
    /// /etc/hosts and resolv.conf) and IPC namespaces.
    /// `userns`: joins the infra container's user namespace too (`hostUsers: false`).
    /// `uts_host`: the pod is on the host's network, and its containers are in the host's UTS
    /// namespace too (as cri-dockerd and the CRI runtimes make them).
    Join { infra_id: String, pid: PidMode, ipc_host: bool, userns: bool, uts_host: bool },
}

/// The ids of a pod's own user namespace: container ids 0 to `size - 1` are host ids from
/// `host_id` on, for users and groups alike (as the kubelet maps a pod, `pod::userns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRange {
    pub host_id: u32,
    pub size: u32,
}

/// The pod-level settings that live on the infra container.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodNetwork {
    pub hostname: Option<String>,
    pub domainname: Option<String>,
    pub mode: NetworkMode,
    pub ports: Vec<PortBinding>,
    /// `hostname:ip` entries for /etc/hosts.
    pub extra_hosts: Vec<String>,
    pub dns: DnsSettings,
    pub ipc_host: bool,
    pub pid_host: bool,
    /// Namespaced sysctls: they belong to the namespaces the infra container owns.
    pub sysctls: BTreeMap<String, String>,
    /// Some member of the pod is privileged: a CRI runtime lets only a privileged sandbox
    /// hold one (the kubelet's determinePodSandboxPrivileged).
    pub privileged: bool,
    /// A user namespace of the pod's own (`hostUsers: false`), which its containers join.
    pub user_namespace: Option<IdRange>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum NetworkMode {
    /// The engine's default network.
    #[default]
    Default,
    /// The host's network namespace (hostNetwork).
    Host,
    /// A user-defined engine network, by name.
    Named(String),
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PidMode {
    /// Its own PID namespace.
    #[default]
    Private,
    /// The host's (hostPID).
    Host,
    /// The infra container's (shareProcessNamespace).
    Infra,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortBinding {
    pub container_port: u16,
    /// `tcp`, `udp` or `sctp`.
    pub protocol: String,
    pub host_ip: Option<String>,
    pub host_port: u16,
}

/// Replacements for the engine's resolv.conf; empty fields keep the engine's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DnsSettings {
    pub servers: Vec<String>,
    pub searches: Vec<String>,
    pub options: Vec<String>,
}

/// A container's own security, resource and terminal settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerSettings {
    /// `uid`, or `uid:gid`.
    pub user: Option<String>,
    pub group_add: Vec<String>,
    /// `supplementalGroupsPolicy: Strict`: none of the image's /etc/group memberships. A CRI
    /// runtime is told; Docker and Podman are given a `uid:gid` user, which they add none to
    /// (`pod::node_features` refuses a container without a group there).
    pub strict_groups: bool,
    pub privileged: bool,
    pub cap_add: Vec<String>,
    pub cap_drop: Vec<String>,
    pub read_only_rootfs: bool,
    /// `no-new-privileges:true`, `seccomp=...`, `apparmor=...`.
    pub security_opt: Vec<String>,
    /// procMount Unmasked: no masked or read-only /proc paths.
    pub unmasked_proc: bool,
    pub cpu: CpuSettings,
    /// Bytes.
    pub memory_limit: Option<i64>,
    pub memory_reservation: Option<i64>,
    /// The oom_score_adj of the container's processes.
    pub oom_score_adj: Option<i64>,
    pub tty: bool,
    pub stdin: bool,
    pub stdin_once: bool,
}

impl ContainerSettings {
    /// The CPU and memory a container was made with (or, as an engine reports them, has), as
    /// the `labels::RESOURCES` label holds them: `cpu=QUOTA/PERIOD/SHARES,memory=LIMIT/RESERVATION`,
    /// 0 for unset.
    pub fn resources_text(&self) -> String {
        resources_text(self.cpu, self.memory_limit, self.memory_reservation)
    }
}

/// See [`ContainerSettings::resources_text`].
pub fn resources_text(cpu: CpuSettings, memory_limit: Option<i64>, memory_reservation: Option<i64>) -> String {
    let n = |v: Option<i64>| v.unwrap_or(0);
    // A period without a quota limits nothing (and an engine may report its default).
    let period = if n(cpu.quota) > 0 { n(cpu.period) } else { 0 };
    format!("cpu={}/{}/{},memory={}/{}", n(cpu.quota), period, n(cpu.shares), n(memory_limit), n(memory_reservation))
}

/// The `cpu=` and `memory=` parts of a [`resources_text`], each without its key.
pub fn resources_parts(text: &str) -> (Option<&str>, Option<&str>) {
    let mut cpu = None;
    let mut memory = None;
    for part in text.split(',') {
        if let Some(v) = part.strip_prefix("cpu=") {
            cpu = Some(v);
        } else if let Some(v) = part.strip_prefix("memory=") {
            memory = Some(v);
        }
    }
    (cpu, memory)
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuSettings {
    /// CFS quota in microseconds per `period`.
    pub quota: Option<i64>,
    pub period: Option<i64>,
    pub shares: Option<i64>,
}

/// Which image a reference names now, as the engine knows it: its id and its registry digests
/// (`repo@sha256:...`), either of which a container's `Observed::image_id` may give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageIdentity {
    /// The engine's image id (`sha256:...`): the config digest, the same on every engine.
    pub id: String,
    pub digests: Vec<String>,
}

impl ImageIdentity {
    /// Whether a container whose image is `image_id` (an id or a registry digest) runs this one.
    pub fn is(&self, image_id: &str) -> bool {
        !image_id.is_empty() && (self.id == image_id || self.digests.iter().any(|d| d == image_id))
    }
}

/// A container as observed in the engine, reduced to what podrun decides on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    pub id: String,
    pub name: String,
    pub labels: BTreeMap<String, String>,
    /// The image reference it was created from.
    pub image: String,
    /// The engine's image id (`sha256:...`).
    pub image_id: String,
    pub state: State,
    /// The pod IP, for an infra container that has one.
    pub ip: Option<String>,
    /// The address of the engine's host, the pod's `hostIP`: the node IP when the engine is on
    /// this host, else the gateway of the container's network (the host, as the pod sees it).
    pub gateway: Option<String>,
    /// Whether it carries podrun's seal (see `seal`): only then did podrun make it.
    pub sealed: bool,
    /// The runtime it runs on, which names it in a pod's status.
    pub scheme: IdScheme,
}

impl Observed {
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.get(key).map(String::as_str)
    }

    /// Whether podrun created this container (its seal verified when it was listed). podrun
    /// never stops, removes or runs a hook of one that it did not.
    pub fn is_owned(&self) -> bool {
        self.sealed
    }

    /// Carries podrun's labels without its seal: reported, never touched.
    pub fn is_unverified(&self) -> bool {
        !self.sealed && self.label(labels::MANAGED) == Some(labels::MANAGED_VALUE)
    }

    pub fn is_running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    pub fn is_dead(&self) -> bool {
        matches!(self.state, State::Exited { .. } | State::Dead)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Created but never started (or a start that is still under way).
    Created,
    Running {
        started_at: Option<String>,
    },
    Exited {
        exit_code: i64,
        started_at: Option<String>,
        finished_at: Option<String>,
        oom_killed: bool,
        /// The engine's reason when the process could not be started at all.
        error: Option<String>,
    },
    /// Paused, restarting, being removed: not podrun's doing, so treated as not running.
    Other(String),
    Dead,
}

/// Which containers to list: podrun's own, optionally of one namespace and pod.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    pub namespace: Option<String>,
    pub pod: Option<String>,
}

impl Selector {
    pub fn pod(namespace: &str, pod: &str) -> Self {
        Selector { namespace: Some(namespace.to_owned()), pod: Some(pod.to_owned()) }
    }

    /// The label filters, always including podrun's ownership label.
    pub fn label_filters(&self) -> Vec<String> {
        let mut f = vec![format!("{}={}", labels::MANAGED, labels::MANAGED_VALUE)];
        if let Some(ns) = &self.namespace {
            f.push(format!("{}={ns}", labels::POD_NAMESPACE));
        }
        if let Some(p) = &self.pod {
            f.push(format!("{}={p}", labels::POD_NAME));
        }
        f
    }
}

/// How far a pull has got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PullProgress {
    pub layers: usize,
    pub layers_done: usize,
    pub bytes_done: u64,
    pub bytes_total: u64,
}

/// Which of a container's output streams a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogStream {
    Stdout,
    Stderr,
}

/// One line of a container's output, without its newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub stream: LogStream,
    pub line: String,
}

/// What following a container's output gives: its lines, and word that the engine's stream is
/// still moving while nothing new comes of it (output read again and skipped, as already
/// given), so a reader waiting for the end can tell a stream that moves from one that stalled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Followed {
    Line(LogLine),
    /// This many bytes were read and skipped.
    Skipped(usize),
}

/// What `Runtime::logs` reads of a container's output, as `kubectl logs` asks for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogOptions {
    /// Only the last this many lines (all of them when unset).
    pub tail: Option<usize>,
    /// Only what was written at or after this time (whole seconds: the engine's resolution).
    pub since: Option<std::time::SystemTime>,
    /// Each line starts with the engine's RFC 3339 timestamp of it.
    pub timestamps: bool,
    /// Keep reading until the container stops.
    pub follow: bool,
}

/// How the logs an engine writes where podrun asks (a CRI runtime's) are rotated under
/// `--supervise`, as the kubelet's `containerLogMaxSize` and `containerLogMaxFiles` say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogRotation {
    /// A log this large (bytes) or larger is rotated.
    pub max_size: u64,
    /// The most files a container's log is kept in, the one being written included (2 or more).
    pub max_files: usize,
}

impl Default for LogRotation {
    /// The kubelet's defaults: 10 MiB, 5 files.
    fn default() -> LogRotation {
        LogRotation { max_size: 10 * 1024 * 1024, max_files: 5 }
    }
}

/// A piece of a container's output as the engine sent it: raw bytes, not cut into lines, so
/// binary output and unfinished lines pass through untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogChunk {
    pub stream: LogStream,
    pub bytes: Vec<u8>,
}

/// A terminal's size, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermSize {
    pub rows: u16,
    pub cols: u16,
}

/// A command to run in a container, as `docker exec` / `kubectl exec` ask for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecRequest {
    pub cmd: Vec<String>,
    /// Whether the command gets a terminal (then its output is one stream, stdout).
    pub tty: bool,
    /// Whether the command reads what `ExecSession::input` is given.
    pub stdin: bool,
}

/// A command started by `Runtime::exec_attach`.
pub struct ExecSession {
    /// The engine's id of this exec, for `exec_resize` and `exec_exit_code`.
    pub id: String,
    /// The command's output; ends when the command ends (or the connection breaks).
    pub output: BoxStream<'static, Result<LogChunk, RuntimeError>>,
    /// The command's standard input, when asked for; shutting it down closes it (EOF).
    pub input: Option<std::pin::Pin<Box<dyn tokio::io::AsyncWrite + Send>>>,
}

/// Cuts a stream's chunks into lines. The engine sends output in chunks that need not end at
/// a newline (a process writing without line buffering, a big line split across frames), so
/// the unfinished end is kept until its newline arrives, or until the stream ends. A line
/// longer than [`MAX_LINE`] is handed out in pieces of at most that size (cut between
/// characters), as the CRI log and Docker's json-file log split it: output without newlines
/// costs no more memory than a line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
}

/// The longest line a [`LineSplitter`] hands out whole, in bytes (the runtimes' 16 KiB).
pub const MAX_LINE: usize = 16 * 1024;

impl LineSplitter {
    /// The lines that `chunk` completes, in order, without their `\n` (or `\r\n`).
    pub fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        let mut lines = Vec::new();
        let mut rest = chunk;
        loop {
            let room = MAX_LINE.saturating_sub(self.partial.len());
            match rest.iter().take(room + 1).position(|&b| b == b'\n') {
                Some(i) => {
                    self.partial.extend_from_slice(&rest[..i]);
                    // Bytes, not text, are buffered: a multi-byte character may be cut between
                    // chunks.
                    let mut line = std::mem::take(&mut self.partial);
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    lines.push(String::from_utf8_lossy(&line).into_owned());
                    rest = &rest[i + 1..];
                }
                None if rest.len() > room => {
                    self.partial.extend_from_slice(&rest[..room]);
                    rest = &rest[room..];
                    let cut = char_boundary(&self.partial);
                    let tail = self.partial.split_off(cut);
                    lines.push(String::from_utf8_lossy(&std::mem::replace(&mut self.partial, tail)).into_owned());
                }
                None => break,
            }
        }
        self.partial.extend_from_slice(rest);
        lines
    }

    /// The unfinished last line, if any, once no more output will come.
    pub fn finish(&mut self) -> Option<String> {
        let line = std::mem::take(&mut self.partial);
        (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned())
    }
}

/// Where a full piece of a long line is cut: before a UTF-8 character its end would split (at
/// most 3 bytes back), else at its end.
fn char_boundary(piece: &[u8]) -> usize {
    let end = piece.len();
    (end.saturating_sub(3)..end)
        .rev()
        .find(|&i| piece[i] & 0xC0 != 0x80)
        .filter(|&i| {
            let width = match piece[i] {
                b if b >= 0xF0 => 4,
                b if b >= 0xE0 => 3,
                b if b >= 0xC0 => 2,
                _ => 1,
            };
            i + width > end
        })
        .unwrap_or(end)
}

/// The options of a tmpfs-backed named volume (the `local` driver's `type=tmpfs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tmpfs {
    /// Permission bits of its root.
    pub mode: u32,
    /// A size limit in bytes; the engine's default (half the host's memory) when unset.
    pub size: Option<u64>,
}

/// A named volume as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeInfo {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    /// When the engine made it, if it says.
    pub created: Option<std::time::SystemTime>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineInfo {
    pub name: String,
    pub version: String,
    pub api_version: String,
}

/// Why an engine cannot give a container any OOM score, and the lowest it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OomFloor {
    /// The daemon lacks CAP_SYS_RESOURCE in the host's user namespace: no score below its own.
    Daemon(i64),
    /// The daemon's rights cannot be seen (an engine reached over the network, or a socket
    /// whose peer podrun cannot read): no score below 0, which any engine can give.
    Unseen,
}

impl OomFloor {
    pub fn score(self) -> i64 {
        match self {
            OomFloor::Daemon(s) => s,
            OomFloor::Unseen => 0,
        }
    }

    /// Why, for a warning.
    pub fn reason(self) -> String {
        match self {
            OomFloor::Daemon(s) => format!("the engine lacks CAP_SYS_RESOURCE: no score below its own, {s}"),
            OomFloor::Unseen => "podrun cannot see what the engine may do: no score below 0".to_owned(),
        }
    }
}

/// A host's CPUs and memory, as its engine reports them (Docker's `/info`: NCPU, MemTotal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    pub cpus: u64,
    pub memory: u64,
}

/// The first API version with `ReadOnlyForceRecursive` (Docker Engine 25). Older engines
/// ignore the unknown field, so podrun must refuse rather than send it.
pub const RECURSIVE_READ_ONLY_API: (usize, usize) = (1, 44);
/// The Docker API version that mounts an image (`type: image`, Docker Engine 28.1).
pub const IMAGE_MOUNT_API: (usize, usize) = (1, 48);

/// `1.41` as (1, 41), so versions compare as numbers (1.9 < 1.41); anything else is not an
/// API version.
pub fn parse_api_version(v: &str) -> Option<(usize, usize)> {
    let (major, minor) = v.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// What the engine's `/info` says about the rights it runs with: what a rootless engine (one
/// run by an ordinary user, in a user namespace) cannot give a pod. See `Runtime::security`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineSecurity {
    /// The engine runs as an ordinary user (Podman's `host.security.rootless`, Docker's
    /// `name=rootless` security option).
    pub rootless: bool,
    /// The cgroup version of the engine's host (1 or 2), when it says.
    pub cgroup_version: Option<u8>,
    /// How many user and group ids the engine's user namespace maps (container ids 0 to n-1),
    /// when it says: a process cannot run as an id outside it.
    pub uids: Option<u64>,
    pub gids: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_error_keeps_its_cause_and_prints_it_once() {
        let cause = std::io::Error::other("Failed to deserialize JSON: EOF");
        let e = RuntimeError::Client { what: "inspect container x".into(), source: Cause(std::sync::Arc::new(cause)) };
        assert_eq!(e.to_string(), "inspect container x");
        assert_eq!(crate::error_chain::chain(&e), "inspect container x: Failed to deserialize JSON: EOF");
        assert_eq!(e.clone(), e, "a clone shares its cause");
    }

    #[test]
    fn a_create_specs_debug_names_its_variables_but_not_their_values() {
        let spec = CreateSpec {
            name: "c".into(),
            image: "img".into(),
            entrypoint: Some(vec!["sh".into(), "-c".into()]),
            cmd: Some(vec!["login s3cr3t-value".into()]),
            env: vec!["TOKEN=s3cr3t-value".into(), "EMPTY=".into()],
            working_dir: None,
            labels: BTreeMap::new(),
            namespaces: Namespaces::Infra(Box::default()),
            stop_timeout: None,
            mounts: Vec::new(),
            settings: ContainerSettings::default(),
            pod_cgroup: None,
        };
        let shown = format!("{spec:?} {spec:#?}");
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert!(shown.contains("TOKEN=<redacted>") && shown.contains("EMPTY=<redacted>"), "{shown}");
    }

    #[test]
    fn chunks_are_cut_into_whole_lines() {
        let mut s = LineSplitter::default();
        assert_eq!(s.push(b"one\ntw"), ["one"]);
        assert_eq!(s.push(b"o"), Vec::<String>::new());
        assert_eq!(s.push(b"\r\nthree\n\nfour"), ["two", "three", ""]);
        assert_eq!(s.finish().as_deref(), Some("four"));
        assert_eq!(s.finish(), None);
    }

    #[test]
    fn a_long_line_comes_in_pieces_cut_between_characters() {
        let mut s = LineSplitter::default();
        let long = "a".repeat(MAX_LINE - 1) + "é" + &"b".repeat(10);
        let mut got = Vec::new();
        for piece in long.as_bytes().chunks(1000) {
            got.extend(s.push(piece));
            assert!(s.partial.len() <= MAX_LINE);
        }
        got.extend(s.push(b"\n"));
        assert_eq!(got, ["a".repeat(MAX_LINE - 1), "é".to_owned() + &"b".repeat(10)]);
        let exact = "c".repeat(MAX_LINE) + "\n";
        assert_eq!(s.push(exact.as_bytes()), ["c".repeat(MAX_LINE)]);
        assert_eq!(s.push(&vec![b'd'; 3 * MAX_LINE]).len(), 2);
        assert_eq!(s.finish().map(|l| l.len()), Some(MAX_LINE));
    }

    #[test]
    fn a_character_cut_between_chunks_is_kept_whole() {
        let mut s = LineSplitter::default();
        let bytes = "héllo\n".as_bytes();
        assert!(s.push(&bytes[..2]).is_empty());
        assert_eq!(s.push(&bytes[2..]), ["héllo"]);
    }
}
