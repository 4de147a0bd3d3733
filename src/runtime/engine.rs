//! The engine podrun connected to: the Docker API (Docker Engine, Podman) or a CRI runtime
//! (containerd, CRI-O), behind the one `Runtime` trait, so nothing above knows which.

use std::collections::BTreeMap;
use std::time::Duration;

use futures_util::stream::BoxStream;

use super::auth::Credentials;
use super::cri::CriRuntime;
use super::docker::DockerRuntime;
use super::{
    ArchiveStream, Capacity, ContainerRuntime, CreateSpec, EngineFeatures, EngineInfo, EngineSecurity, ExecRequest,
    ExecSession, Followed, ImageRuntime, LogChunk, LogOptions, LogRotation, LogRuntime, NodeRuntime, Observed,
    OomFloor, PullProgress, RuntimeError, Selector, StatsRuntime, StreamingRuntime, TermSize, Tmpfs, UploadStream,
    VolumeInfo, VolumeRuntime,
};

// One is made per command and passed by reference: its size costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Engine {
    Docker(DockerRuntime),
    Cri(CriRuntime),
}

impl Engine {
    /// Where podrun reached it, for messages.
    pub fn endpoint(&self) -> String {
        match self {
            Engine::Docker(d) => d.endpoint().to_string(),
            Engine::Cri(c) => c.endpoint().to_owned(),
        }
    }

    /// Its address alone (`unix:///var/run/docker.sock`), however it was chosen: what names
    /// the engine of a pod's files (`PodFiles::for_engine`).
    pub fn address(&self) -> String {
        match self {
            Engine::Docker(d) => d.endpoint().host.clone(),
            Engine::Cri(c) => c.endpoint().to_owned(),
        }
    }
}

/// The same call on whichever engine it is.
macro_rules! each {
    ($self:ident, $rt:ident => $call:expr) => {
        match $self {
            Engine::Docker($rt) => $call,
            Engine::Cri($rt) => $call,
        }
    };
}

impl NodeRuntime for Engine {
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        each!(self, rt => rt.info().await)
    }
    async fn security(&self) -> Result<EngineSecurity, RuntimeError> {
        each!(self, rt => rt.security().await)
    }
    async fn oom_score_floor(&self) -> Option<OomFloor> {
        each!(self, rt => rt.oom_score_floor().await)
    }
    async fn capacity(&self) -> Result<Option<Capacity>, RuntimeError> {
        each!(self, rt => rt.capacity().await)
    }
    async fn features(&self) -> Result<EngineFeatures, RuntimeError> {
        each!(self, rt => rt.features().await)
    }
    fn local_files(&self) -> bool {
        each!(self, rt => rt.local_files())
    }
}

impl ImageRuntime for Engine {
    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        each!(self, rt => rt.image_present(image).await)
    }
    async fn image_identity(&self, image: &str) -> Result<Option<super::ImageIdentity>, RuntimeError> {
        each!(self, rt => rt.image_identity(image).await)
    }
    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        each!(self, rt => rt.image_user(image).await)
    }
    async fn pull_image(
        &self,
        image: &str,
        credentials: Option<&Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        each!(self, rt => rt.pull_image(image, credentials, progress).await)
    }
    async fn ensure_own_infra_image(&self) -> Result<bool, RuntimeError> {
        each!(self, rt => rt.ensure_own_infra_image().await)
    }
    async fn load_image(&self, image: &str, archive: Vec<u8>) -> Result<(), RuntimeError> {
        each!(self, rt => rt.load_image(image, archive).await)
    }
}

impl ContainerRuntime for Engine {
    async fn update_resources(&self, c: &Observed, settings: &super::ContainerSettings) -> Result<(), RuntimeError> {
        each!(self, rt => rt.update_resources(c, settings).await)
    }
    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        each!(self, rt => rt.list(sel).await)
    }
    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        each!(self, rt => rt.create(spec).await)
    }
    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        each!(self, rt => rt.start(id).await)
    }
    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        each!(self, rt => rt.stop(c, grace).await)
    }
    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        each!(self, rt => rt.kill(c).await)
    }
    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        each!(self, rt => rt.remove(c).await)
    }
    async fn exec(&self, id: &str, cmd: &[String], timeout: Option<Duration>) -> Result<i64, RuntimeError> {
        each!(self, rt => rt.exec(id, cmd, timeout).await)
    }
    async fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
        each!(self, rt => rt.put_archive(id, path, tar).await)
    }
    async fn get_archive(&self, id: &str, path: &str, max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        each!(self, rt => rt.get_archive(id, path, max_bytes).await)
    }
    async fn put_archive_stream(&self, id: &str, path: &str, tar: UploadStream) -> Result<(), RuntimeError> {
        each!(self, rt => rt.put_archive_stream(id, path, tar).await)
    }
    async fn get_archive_stream(&self, id: &str, path: &str) -> Result<Option<ArchiveStream>, RuntimeError> {
        each!(self, rt => rt.get_archive_stream(id, path).await)
    }
    fn changes(&self, sel: &Selector) -> BoxStream<'static, ()> {
        each!(self, rt => rt.changes(sel))
    }
}

impl LogRuntime for Engine {
    async fn logs_tail(&self, id: &str, lines: usize) -> Result<String, RuntimeError> {
        each!(self, rt => rt.logs_tail(id, lines).await)
    }
    fn logs_follow(&self, id: &str) -> BoxStream<'static, Followed> {
        each!(self, rt => rt.logs_follow(id))
    }
    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        each!(self, rt => rt.logs(id, opts))
    }
    async fn rotate_log(&self, c: &Observed, policy: LogRotation) -> Result<bool, RuntimeError> {
        each!(self, rt => rt.rotate_log(c, policy).await)
    }
    fn rotates_logs(&self) -> bool {
        each!(self, rt => rt.rotates_logs())
    }
}

impl StreamingRuntime for Engine {
    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        each!(self, rt => rt.exec_attach(id, req).await)
    }
    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        each!(self, rt => rt.exec_resize(exec_id, size).await)
    }
    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        each!(self, rt => rt.exec_exit_code(exec_id).await)
    }
}

impl VolumeRuntime for Engine {
    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> Result<(), RuntimeError> {
        each!(self, rt => rt.ensure_volume(name, labels, tmpfs).await)
    }
    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<VolumeInfo>, RuntimeError> {
        each!(self, rt => rt.list_volumes(label_filters).await)
    }
    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        each!(self, rt => rt.volume_mountpoint(name).await)
    }
    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        each!(self, rt => rt.remove_volume(name).await)
    }
}

impl StatsRuntime for Engine {
    async fn stats(&self, id: &str) -> Result<Option<super::stats::Usage>, RuntimeError> {
        each!(self, rt => rt.stats(id).await)
    }
}
