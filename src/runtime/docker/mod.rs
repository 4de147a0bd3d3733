//! Docker Engine (and Podman's Docker-compatible API), through bollard. The only module that
//! speaks bollard. Engine errors are told apart by HTTP status code (404, 409, 304), never by
//! message text: message wording changes between engine versions (kubernetes PR #79623).

mod archive;
mod connect;
mod containers;
pub mod context;
mod convert;
mod errors;
mod events;
mod exec;
mod exec_end;
mod guard;
mod images;
mod info;
mod logs;
mod podman_uts;
mod progress;
mod raw;
mod retry;
mod security;
mod ssh;
mod stats;
pub mod tls;
mod transport;
mod volumes;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bollard::Docker;
use futures_util::stream::BoxStream;

pub use self::context::Endpoint;
use self::transport::Dialer;
use super::auth::Credentials;
use super::{
    Capacity, ContainerRuntime, CreateSpec, EngineFeatures, EngineInfo, EngineSecurity, ExecRequest, ExecSession,
    Followed, ImageRuntime, LogChunk, LogOptions, LogRuntime, NodeRuntime, Observed, OomFloor, PullProgress,
    RuntimeError, Selector, StreamingRuntime, TermSize, Tmpfs, VolumeInfo, VolumeRuntime,
};
use crate::runtime::seal::Seal;

/// The default engine endpoint when neither `--host`, DOCKER_HOST nor a context says otherwise.
pub const DEFAULT_HOST: &str = "unix:///var/run/docker.sock";

#[derive(Debug, Clone)]
pub struct DockerRuntime {
    docker: Docker,
    endpoint: Endpoint,
    /// How bytes reach the engine, for requests podrun sends itself ([`raw`]).
    dialer: Dialer,
    /// Podman's Docker-compatible API rather than Docker Engine: see `convert::Engine`.
    engine: convert::Engine,
    /// What the engine is, as `GET /_ping` (or `GET /version`) said on connecting.
    info: EngineInfo,
    /// The API version agreed with the engine (major, minor): the lower of bollard's and the
    /// engine's.
    api: (usize, usize),
    /// podrun's key: what it creates gets its seal, and it acts only on what has it.
    seal: Seal,
    /// Containers whose start this process saw fail, with the engine's message: Podman keeps
    /// no trace of a failed start in the container's state (Docker does), and a kubelet
    /// reports such a container as terminated.
    failed_starts: Arc<Mutex<HashMap<String, String>>>,
}

impl DockerRuntime {
    /// The API version agreed with the engine, for tests of what older engines refuse.
    #[cfg(test)]
    pub(crate) fn api(&self) -> (usize, usize) {
        self.api
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The API version agreed with the engine, as the path wants it (`1.41`).
    fn api_version(&self) -> String {
        format!("{}.{}", self.api.0, self.api.1)
    }
}

/// Each call, of every part of the `Runtime` seam, is answered in the file of its resource.
impl NodeRuntime for DockerRuntime {
    /// As the engine answered when podrun connected (every command connects anew).
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        Ok(self.info.clone())
    }

    async fn oom_score_floor(&self) -> Option<OomFloor> {
        info::oom_score_floor(self).await
    }

    async fn capacity(&self) -> Result<Option<Capacity>, RuntimeError> {
        info::capacity(self).await
    }

    async fn security(&self) -> Result<EngineSecurity, RuntimeError> {
        info::security(self).await
    }

    async fn features(&self) -> Result<EngineFeatures, RuntimeError> {
        Ok(EngineFeatures { pod_cgroup: info::pod_cgroup(self).await?, ..info::features(self) })
    }

    fn local_files(&self) -> bool {
        self.endpoint.host.starts_with("unix://")
    }
}

impl ImageRuntime for DockerRuntime {
    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        images::image_present(self, image).await
    }

    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        images::image_user(self, image).await
    }

    async fn image_identity(&self, image: &str) -> Result<Option<crate::runtime::ImageIdentity>, RuntimeError> {
        images::image_identity(self, image).await
    }

    async fn pull_image(
        &self,
        image: &str,
        credentials: Option<&Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        images::pull_image(self, image, credentials, progress).await
    }

    async fn load_image(&self, image: &str, archive: Vec<u8>) -> Result<(), RuntimeError> {
        images::load_image(self, image, archive).await
    }
}

impl ContainerRuntime for DockerRuntime {
    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        containers::list(self, sel).await
    }

    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        containers::create(self, spec).await
    }

    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        containers::start(self, id).await
    }

    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        containers::stop(self, c, grace).await
    }

    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        containers::kill(self, c).await
    }

    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        containers::remove(self, c).await
    }

    async fn update_resources(&self, c: &Observed, settings: &super::ContainerSettings) -> Result<(), RuntimeError> {
        containers::update_resources(self, c, settings).await
    }

    async fn exec(&self, id: &str, cmd: &[String], _timeout: Option<Duration>) -> Result<i64, RuntimeError> {
        // The Docker API has no timeout for an exec: the caller's bound ends the call, and
        // the call's end the command (`exec_end`).
        exec::exec(self, id, cmd).await
    }

    async fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
        archive::put_archive(self, id, path, tar).await
    }

    async fn get_archive(&self, id: &str, path: &str, max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        archive::get_archive(self, id, path, max_bytes).await
    }

    async fn put_archive_stream(
        &self,
        id: &str,
        path: &str,
        tar: crate::runtime::UploadStream,
    ) -> Result<(), RuntimeError> {
        archive::put_archive_stream(self, id, path, tar).await
    }

    async fn get_archive_stream(
        &self,
        id: &str,
        path: &str,
    ) -> Result<Option<crate::runtime::ArchiveStream>, RuntimeError> {
        archive::get_archive_stream(self, id, path).await
    }

    fn changes(&self, sel: &Selector) -> BoxStream<'static, ()> {
        events::changes(self, sel)
    }
}

impl crate::runtime::StatsRuntime for DockerRuntime {
    async fn stats(&self, id: &str) -> Result<Option<crate::runtime::stats::Usage>, RuntimeError> {
        stats::stats(self, id).await
    }
}

impl LogRuntime for DockerRuntime {
    async fn logs_tail(&self, id: &str, lines: usize) -> Result<String, RuntimeError> {
        logs::logs_tail(self, id, lines).await
    }

    fn logs_follow(&self, id: &str) -> BoxStream<'static, Followed> {
        logs::logs_follow(self, id)
    }

    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        self.log_chunks(id, opts)
    }
}

impl StreamingRuntime for DockerRuntime {
    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        exec::exec_attach(self, id, req).await
    }

    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        exec::exec_resize(self, exec_id, size).await
    }

    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        exec::exec_exit_code(self, exec_id).await
    }
}

impl VolumeRuntime for DockerRuntime {
    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> Result<(), RuntimeError> {
        volumes::ensure_volume(self, name, labels, tmpfs).await
    }

    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<VolumeInfo>, RuntimeError> {
        volumes::list_volumes(self, label_filters).await
    }

    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        volumes::volume_mountpoint(self, name).await
    }

    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        volumes::remove_volume(self, name).await
    }
}
