//! The `Runtime` seam: the calls podrun makes of an engine, one trait per kind of call as the
//! CRI groups them (containerd's `services.go`: RuntimeService and ImageService), and `Runtime`,
//! every one of them, which is what the layers above take.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use futures_util::stream::BoxStream;

use super::auth;
use super::{ArchiveStream, UploadStream};
use super::{
    Capacity, ContainerSettings, CreateSpec, EngineFeatures, EngineInfo, EngineSecurity, ExecRequest, ExecSession,
    Followed, ImageIdentity, LogChunk, LogOptions, LogRotation, NotSupported, Observed, OomFloor, PullProgress,
    RuntimeError, Selector, TermSize, Tmpfs, VolumeInfo,
};

/// What the engine is and what its host gives: its versions, its rights, the node features it
/// supports (the CRI's `Version` and `Status`).
pub trait NodeRuntime: Send + Sync {
    /// The engine's name and versions (a connected Docker runtime read them on connecting).
    fn info(&self) -> impl Future<Output = Result<EngineInfo, RuntimeError>> + Send;
    /// Whether the engine is rootless, and what follows from that. A separate request from
    /// `info`, made only when a pod asks for something it decides (Podman takes over half a
    /// second to answer it). An engine that does not say is taken for a rootful one.
    fn security(&self) -> impl Future<Output = Result<EngineSecurity, RuntimeError>> + Send {
        async { Ok(EngineSecurity::default()) }
    }
    /// The lowest oom_score_adj the engine can give a container, when it cannot give any.
    /// None: any score.
    fn oom_score_floor(&self) -> impl Future<Output = Option<OomFloor>> + Send {
        async { None }
    }
    /// The engine host's CPUs and bytes of memory, for admitting pods, when that host is not
    /// this one (None: this host's, which podrun reads itself).
    fn capacity(&self) -> impl Future<Output = Result<Option<Capacity>, RuntimeError>> + Send {
        async { Ok(None) }
    }
    /// The node features the engine can give a pod (user namespaces, image volumes, ...): none
    /// unless the engine is known to give them. Asked once, before pods are prepared.
    fn features(&self) -> impl Future<Output = Result<EngineFeatures, RuntimeError>> + Send {
        async { Ok(EngineFeatures::NONE) }
    }
    /// Whether the engine runs on this host, so files podrun writes can be bind-mounted.
    fn local_files(&self) -> bool;
}

/// The engine's images (the CRI's ImageService).
pub trait ImageRuntime: Send + Sync {
    fn image_present(&self, image: &str) -> impl Future<Output = Result<bool, RuntimeError>> + Send;
    /// The image `image` names now (a reference, an id or a digest), or None when the engine
    /// has none of that name.
    fn image_identity(&self, image: &str) -> impl Future<Output = Result<Option<ImageIdentity>, RuntimeError>> + Send;
    /// The USER an image runs as (`""` for root by default).
    fn image_user(&self, image: &str) -> impl Future<Output = Result<String, RuntimeError>> + Send;
    /// Pulls `image`, reporting progress as it goes. A registry that answered "no such image"
    /// is `ImageNotFound`; one that refused the credentials given, `ImageDenied` (where the
    /// engine says so by a status: see docs/images.md); one that gave no answer at all is
    /// `RegistryUnreachable`.
    fn pull_image(
        &self,
        image: &str,
        credentials: Option<&auth::Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// Makes the engine's own infra image present when the engine brings one (a CRI runtime's
    /// sandbox image, pulled if absent): true then, and podrun's own infra image is neither
    /// loaded nor pulled. False for an engine that runs podrun's.
    fn ensure_own_infra_image(&self) -> impl Future<Output = Result<bool, RuntimeError>> + Send {
        async { Ok(false) }
    }
    /// Loads the image `image` from a `docker save` archive that names it (`docker load`).
    fn load_image(&self, image: &str, archive: Vec<u8>) -> impl Future<Output = Result<(), RuntimeError>> + Send;
}

/// The containers podrun makes, a pod's infra container among them (the CRI's container calls,
/// `ExecSync` and `GetContainerEvents`, and the archives `docker cp` reads and writes). A pod's
/// sandbox is its infra container (`Namespaces::Infra`): a CRI runtime makes it with
/// `RunPodSandbox` inside `create`, so there is no sandbox trait of its own.
pub trait ContainerRuntime: Send + Sync {
    /// The containers with podrun's labels matching `sel`, with their state (one list call plus
    /// inspects); `sealed` says which podrun made (only those are ever touched).
    fn list(&self, sel: &Selector) -> impl Future<Output = Result<Vec<Observed>, RuntimeError>> + Send;
    /// Returns the new container's id. A name already taken is `Conflict`.
    fn create(&self, spec: &CreateSpec) -> impl Future<Output = Result<String, RuntimeError>> + Send;
    fn start(&self, id: &str) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// Stop signal, then SIGKILL after `grace`. Refuses containers podrun does not own.
    fn stop(&self, c: &Observed, grace: Duration) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// SIGKILL, at once. Refuses containers podrun does not own.
    fn kill(&self, c: &Observed) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// Removes a container podrun owns (killing it if it still runs). Gone already is Ok.
    fn remove(&self, c: &Observed) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// Sets the CPU and memory of a running container podrun owns, in place (an engine with
    /// `EngineFeatures::update_resources`); any other engine refuses.
    fn update_resources(
        &self,
        c: &Observed,
        _settings: &ContainerSettings,
    ) -> impl Future<Output = Result<(), RuntimeError>> + Send {
        async move {
            Err(RuntimeError::Unsupported { what: format!("resize container {}", c.name), why: NotSupported::Resize })
        }
    }
    /// Runs `cmd` in a running container and returns its exit code. The caller bounds the call
    /// (a probe by its timeout, a hook by the grace period) and gives the bound as `timeout`: a
    /// CRI runtime kills the command at it, and on the Docker API a call dropped before the
    /// command ended kills the command when podrun can prove which process it is (see
    /// `docker::exec_end`), so timed-out probes do not pile up in the container.
    fn exec(
        &self,
        id: &str,
        cmd: &[String],
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<i64, RuntimeError>> + Send;
    /// Extracts the tar archive `tar` into the directory `path` of container `id` (running or
    /// not; its volumes included), as `docker cp` does. What exists is replaced, except that
    /// a directory entry over a directory keeps its content and takes the entry's mode.
    fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// A tar archive of `path` in container `id` (running or not), at most `max_bytes` of it
    /// (the rest is cut off); `None` when the path does not exist. A symbolic link is archived
    /// as the link, not followed.
    fn get_archive(
        &self,
        id: &str,
        path: &str,
        max_bytes: usize,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, RuntimeError>> + Send;
    /// As `put_archive`, with the archive read from `tar` as it comes, so an archive of any
    /// size costs the memory of a few chunks; an error in `tar` aborts the upload.
    fn put_archive_stream(
        &self,
        id: &str,
        path: &str,
        tar: UploadStream,
    ) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// As `get_archive`, whole and as it comes: `None` when the path does not exist, else the
    /// archive's bytes chunk by chunk, read from the engine only as fast as they are taken.
    fn get_archive_stream(
        &self,
        id: &str,
        path: &str,
    ) -> impl Future<Output = Result<Option<ArchiveStream>, RuntimeError>> + Send;
    /// A tick for every lifecycle event (create, start, die, destroy, oom) of a container
    /// matching `sel`, so the driver sees a crash or an exit at once instead of at its next
    /// poll. The stream may end at any time (the driver then polls); it never errors.
    fn changes(&self, sel: &Selector) -> BoxStream<'static, ()>;
}

/// What containers wrote: read, followed, rotated (the CRI's `ReopenContainerLog`).
pub trait LogRuntime: Send + Sync {
    /// The last `lines` lines of a container's output (stdout and stderr), as text.
    fn logs_tail(&self, id: &str, lines: usize) -> impl Future<Output = Result<String, RuntimeError>> + Send;
    /// A container's output (stdout and stderr) from its start, line by line, following it as
    /// it is written (and `Followed::Skipped` while output already given is read again). The
    /// stream ends when the container stops (or is removed, or the engine goes away: a broken
    /// stream just ends, it never errors); an unfinished last line is given when it ends.
    fn logs_follow(&self, id: &str) -> BoxStream<'static, Followed>;
    /// A container's output as `opts` selects it, chunk by chunk (dead containers too, as
    /// long as they exist). Unlike `logs_follow` a failure is an item of the stream (a
    /// container that does not exist is `NotFound`), since the user asked for these logs.
    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>>;
    /// Rotates the log of container `c`, of podrun's, as the kubelet does, when the engine writes
    /// it where podrun asked (a CRI runtime): once it reached `policy.max_size`, the oldest
    /// rotated files are removed, it is renamed `<log>.<timestamp>` and the engine is told to
    /// write a new one. True when it was rotated. An engine that keeps its own logs (the Docker
    /// API) does nothing.
    fn rotate_log(
        &self,
        _c: &Observed,
        _policy: LogRotation,
    ) -> impl Future<Output = Result<bool, RuntimeError>> + Send {
        async { Ok(false) }
    }
    /// Whether the engine writes container logs where podrun asks (a CRI runtime), so that
    /// `rotate_log` has anything to do: the Docker API keeps its own.
    fn rotates_logs(&self) -> bool {
        false
    }
}

/// Interactive execs, attached to a terminal or to podrun's own streams (the CRI's streaming
/// `Exec`).
pub trait StreamingRuntime: Send + Sync {
    /// Starts `req` in a running container, attached to its output (and input, when asked).
    /// A container that is not running is `Conflict`; one that does not exist, `NotFound`.
    fn exec_attach(
        &self,
        id: &str,
        req: &ExecRequest,
    ) -> impl Future<Output = Result<ExecSession, RuntimeError>> + Send;
    /// Resizes the terminal of an exec started with `tty`.
    fn exec_resize(&self, exec_id: &str, size: TermSize) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// The exit code of an exec once its command has ended; `None` while it runs.
    fn exec_exit_code(&self, exec_id: &str) -> impl Future<Output = Result<Option<i64>, RuntimeError>> + Send;
}

/// The engine's named volumes, which podrun seals as its own (the Docker API's volumes; a CRI
/// runtime's are directories podrun keeps).
pub trait VolumeRuntime: Send + Sync {
    /// Creates the named volume `name` with `labels` (and, with `tmpfs`, backed by a tmpfs of
    /// the engine's host: its content never reaches a disk) when it does not exist. An existing
    /// one is kept as it is (its labels and data untouched), so this is safe to call on every
    /// apply.
    fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> impl Future<Output = Result<(), RuntimeError>> + Send;
    /// podrun's named volumes (those with its seal) carrying every label of `label_filters`
    /// (`key=value`).
    fn list_volumes(
        &self,
        label_filters: &[String],
    ) -> impl Future<Output = Result<Vec<VolumeInfo>, RuntimeError>> + Send;
    /// Where the engine keeps the named volume `name` on its own host (a path only the engine
    /// can use, as the source of a bind mount).
    fn volume_mountpoint(&self, name: &str) -> impl Future<Output = Result<String, RuntimeError>> + Send;
    /// Removes the named volume `name` if podrun created it (its seal, see `seal`);
    /// one podrun did not create is refused. Gone already is Ok; one still in use is an error.
    fn remove_volume(&self, name: &str) -> impl Future<Output = Result<(), RuntimeError>> + Send;
}

/// What the containers use now (the CRI's ContainerStats).
pub trait StatsRuntime: Send + Sync {
    /// One sample of container `id`'s usage; None when the container is gone.
    fn stats(&self, id: &str) -> impl Future<Output = Result<Option<super::stats::Usage>, RuntimeError>> + Send;
}

/// The container engine. Every call is one engine round trip or a short sequence of them.
///
/// Made of one trait per kind of call, as the CRI groups them, so a forwarder or a fake implements
/// each part on its own; any type with every part is a `Runtime`.
pub trait Runtime:
    NodeRuntime + ImageRuntime + ContainerRuntime + LogRuntime + StreamingRuntime + VolumeRuntime + StatsRuntime + 'static
{
}

impl<
        T: NodeRuntime
            + ImageRuntime
            + ContainerRuntime
            + LogRuntime
            + StreamingRuntime
            + VolumeRuntime
            + StatsRuntime
            + 'static,
    > Runtime for T
{
}
