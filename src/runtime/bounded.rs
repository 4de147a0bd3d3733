//! A [`Runtime`] whose every call ends by a deadline, so `apply --timeout` holds against an
//! engine that takes connections but never answers (frozen, or stopped under a debugger): an
//! engine call that is still waiting at the deadline is `RuntimeError::Deadline` (exit 5, as
//! any run that did not converge in time). The bound is set once, here, rather than at each
//! call site; the streams (logs, events) are left alone, since their consumers already stop
//! reading when they are done. The deadline can be lifted (supervision, cleanup after a run
//! whose engine answered) and set again. Supervision, which has no deadline, bounds each call
//! instead ([`Bounded::set_per_call`]), as the kubelet bounds each CRI call by its
//! `--runtime-request-timeout`; an image pull, which may rightly take longer, is exempt.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use futures_util::stream::BoxStream;
use tokio::time::Instant;

use super::{
    auth, ArchiveStream, Capacity, ContainerRuntime, CreateSpec, EngineFeatures, EngineInfo, EngineSecurity,
    ExecRequest, ExecSession, Followed, ImageRuntime, LogChunk, LogOptions, LogRotation, LogRuntime, NodeRuntime,
    Observed, OomFloor, PullProgress, Runtime, RuntimeError, Selector, StatsRuntime, StreamingRuntime, TermSize, Tmpfs,
    UploadStream, VolumeInfo, VolumeRuntime,
};

/// `inner`, with its calls cut off at the deadline.
#[derive(Debug)]
pub struct Bounded<R> {
    inner: R,
    deadline: Mutex<Option<Instant>>,
    per_call: Mutex<Option<Duration>>,
}

impl<R: Runtime> Bounded<R> {
    pub fn new(inner: R, deadline: Option<Instant>) -> Bounded<R> {
        Bounded { inner, deadline: Mutex::new(deadline), per_call: Mutex::new(None) }
    }

    /// From now on, each call but a pull also ends `limit` after it began (None: no such bound).
    pub fn set_per_call(&self, limit: Option<Duration>) {
        *self.per_call.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = limit;
    }

    /// From now on, calls end by `deadline` (None: they take as long as the engine takes).
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        *self.deadline.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = deadline;
    }

    fn deadline(&self) -> Option<Instant> {
        *self.deadline.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn bound<T>(
        &self,
        what: impl FnOnce() -> String,
        call: impl Future<Output = Result<T, RuntimeError>>,
    ) -> Result<T, RuntimeError> {
        self.bound_by(self.ends(Duration::ZERO), what, call).await
    }

    /// When a call that began now ends: at the deadline, or `more` past the per-call bound.
    fn ends(&self, more: Duration) -> Option<Instant> {
        let per_call = *self.per_call.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        per_call.map(|limit| Instant::now() + limit + more).into_iter().chain(self.deadline()).min()
    }

    async fn bound_by<T>(
        &self,
        deadline: Option<Instant>,
        what: impl FnOnce() -> String,
        call: impl Future<Output = Result<T, RuntimeError>>,
    ) -> Result<T, RuntimeError> {
        let Some(deadline) = deadline else { return call.await };
        match tokio::time::timeout_at(deadline, call).await {
            Ok(r) => r,
            Err(_elapsed) => Err(RuntimeError::Deadline { what: what() }),
        }
    }
}

impl<R: Runtime> NodeRuntime for Bounded<R> {
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        self.bound(|| "engine info".into(), self.inner.info()).await
    }

    async fn security(&self) -> Result<EngineSecurity, RuntimeError> {
        self.bound(|| "engine info".into(), self.inner.security()).await
    }

    async fn oom_score_floor(&self) -> Option<OomFloor> {
        self.inner.oom_score_floor().await
    }

    async fn capacity(&self) -> Result<Option<Capacity>, RuntimeError> {
        self.bound(|| "engine info".into(), self.inner.capacity()).await
    }

    async fn features(&self) -> Result<EngineFeatures, RuntimeError> {
        self.bound(|| "engine info".into(), self.inner.features()).await
    }

    fn local_files(&self) -> bool {
        self.inner.local_files()
    }
}

impl<R: Runtime> ImageRuntime for Bounded<R> {
    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        self.bound(|| format!("inspect image {image}"), self.inner.image_present(image)).await
    }

    async fn image_identity(&self, image: &str) -> Result<Option<super::ImageIdentity>, RuntimeError> {
        self.bound(|| format!("inspect image {image}"), self.inner.image_identity(image)).await
    }

    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        self.bound(|| format!("inspect image {image}"), self.inner.image_user(image)).await
    }

    async fn pull_image(
        &self,
        image: &str,
        credentials: Option<&auth::Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        let call = self.inner.pull_image(image, credentials, progress);
        self.bound_by(self.deadline(), || format!("pull image {image}"), call).await
    }

    async fn load_image(&self, image: &str, archive: Vec<u8>) -> Result<(), RuntimeError> {
        self.bound_by(self.deadline(), || format!("load image {image}"), self.inner.load_image(image, archive)).await
    }

    async fn ensure_own_infra_image(&self) -> Result<bool, RuntimeError> {
        self.bound(|| "the runtime's sandbox image".into(), self.inner.ensure_own_infra_image()).await
    }
}

impl<R: Runtime> ContainerRuntime for Bounded<R> {
    async fn update_resources(&self, c: &Observed, settings: &super::ContainerSettings) -> Result<(), RuntimeError> {
        self.bound(|| format!("resize container {}", c.name), self.inner.update_resources(c, settings)).await
    }

    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        self.bound(|| "list containers".into(), self.inner.list(sel)).await
    }

    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        self.bound(|| format!("create container {}", spec.name), self.inner.create(spec)).await
    }

    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        self.bound(|| format!("start container {id}"), self.inner.start(id)).await
    }

    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        // A stop rightly takes its grace period.
        self.bound_by(self.ends(grace), || format!("stop container {}", c.name), self.inner.stop(c, grace)).await
    }

    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.bound(|| format!("kill container {}", c.name), self.inner.kill(c)).await
    }

    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.bound(|| format!("remove container {}", c.name), self.inner.remove(c)).await
    }

    async fn exec(&self, id: &str, cmd: &[String], timeout: Option<Duration>) -> Result<i64, RuntimeError> {
        self.bound(|| format!("exec in container {id}"), self.inner.exec(id, cmd, timeout)).await
    }

    async fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
        self.bound(|| format!("copy to container {id}"), self.inner.put_archive(id, path, tar)).await
    }

    async fn get_archive(&self, id: &str, path: &str, max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        self.bound(|| format!("copy from container {id}"), self.inner.get_archive(id, path, max_bytes)).await
    }

    async fn put_archive_stream(&self, id: &str, path: &str, tar: UploadStream) -> Result<(), RuntimeError> {
        self.bound(|| format!("copy to container {id}"), self.inner.put_archive_stream(id, path, tar)).await
    }

    async fn get_archive_stream(&self, id: &str, path: &str) -> Result<Option<ArchiveStream>, RuntimeError> {
        // The answer's head is bounded; its body is a stream, read as its consumer goes.
        self.bound(|| format!("copy from container {id}"), self.inner.get_archive_stream(id, path)).await
    }

    fn changes(&self, sel: &Selector) -> BoxStream<'static, ()> {
        self.inner.changes(sel)
    }
}

impl<R: Runtime> LogRuntime for Bounded<R> {
    async fn logs_tail(&self, id: &str, lines: usize) -> Result<String, RuntimeError> {
        self.bound(|| format!("logs of container {id}"), self.inner.logs_tail(id, lines)).await
    }

    fn logs_follow(&self, id: &str) -> BoxStream<'static, Followed> {
        self.inner.logs_follow(id)
    }

    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        self.inner.logs(id, opts)
    }

    async fn rotate_log(&self, c: &Observed, policy: LogRotation) -> Result<bool, RuntimeError> {
        self.bound(|| format!("rotate the log of container {}", c.name), self.inner.rotate_log(c, policy)).await
    }

    fn rotates_logs(&self) -> bool {
        self.inner.rotates_logs()
    }
}

impl<R: Runtime> StreamingRuntime for Bounded<R> {
    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        self.bound(|| format!("exec in container {id}"), self.inner.exec_attach(id, req)).await
    }

    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        self.bound(|| format!("resize exec {exec_id}"), self.inner.exec_resize(exec_id, size)).await
    }

    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        self.bound(|| format!("inspect exec {exec_id}"), self.inner.exec_exit_code(exec_id)).await
    }
}

impl<R: Runtime> VolumeRuntime for Bounded<R> {
    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> Result<(), RuntimeError> {
        self.bound(|| format!("create volume {name}"), self.inner.ensure_volume(name, labels, tmpfs)).await
    }

    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<VolumeInfo>, RuntimeError> {
        self.bound(|| "list volumes".into(), self.inner.list_volumes(label_filters)).await
    }

    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        self.bound(|| format!("inspect volume {name}"), self.inner.volume_mountpoint(name)).await
    }

    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        self.bound(|| format!("remove volume {name}"), self.inner.remove_volume(name)).await
    }
}

impl<R: Runtime> StatsRuntime for Bounded<R> {
    async fn stats(&self, id: &str) -> Result<Option<super::stats::Usage>, RuntimeError> {
        self.bound(|| format!("stats of container {id}"), self.inner.stats(id)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::fake::FakeRuntime;

    #[tokio::test(start_paused = true)]
    async fn a_call_still_waiting_at_the_deadline_ends_there() {
        let slow = FakeRuntime::new().with_pull_time(Duration::from_secs(60));
        let rt = Bounded::new(slow, Some(Instant::now() + Duration::from_secs(3)));
        let start = Instant::now();
        let r = rt.pull_image("img:1", None, &|_| {}).await;
        assert_eq!(r, Err(RuntimeError::Deadline { what: "pull image img:1".into() }));
        assert_eq!(start.elapsed(), Duration::from_secs(3));
    }

    #[tokio::test(start_paused = true)]
    async fn a_per_call_bound_ends_each_call_but_a_pull() {
        let slow = FakeRuntime::new()
            .with_pullable("img:1")
            .with_pull_time(Duration::from_secs(60))
            .with_create_time(Duration::from_secs(60));
        let rt = Bounded::new(slow, None);
        rt.set_per_call(Some(Duration::from_secs(5)));
        let start = Instant::now();
        assert_eq!(rt.pull_image("img:1", None, &|_| {}).await, Ok(()), "a pull takes its time");
        assert_eq!(start.elapsed(), Duration::from_secs(60));
        let spec = CreateSpec {
            name: "c".into(),
            image: "img:1".into(),
            entrypoint: None,
            cmd: None,
            env: Vec::new(),
            working_dir: None,
            labels: BTreeMap::new(),
            namespaces: crate::runtime::Namespaces::Infra(Box::default()),
            stop_timeout: None,
            mounts: Vec::new(),
            settings: crate::runtime::ContainerSettings::default(),
            pod_cgroup: None,
        };
        let start = Instant::now();
        assert_eq!(rt.create(&spec).await, Err(RuntimeError::Deadline { what: "create container c".into() }));
        assert_eq!(start.elapsed(), Duration::from_secs(5));
        // The nearer of the two bounds holds.
        rt.set_deadline(Some(Instant::now() + Duration::from_secs(2)));
        let start = Instant::now();
        assert!(rt.create(&spec).await.is_err());
        assert_eq!(start.elapsed(), Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn without_a_deadline_a_call_takes_its_time() {
        let slow = FakeRuntime::new().with_pullable("img:1").with_pull_time(Duration::from_secs(60));
        let rt = Bounded::new(slow, Some(Instant::now()));
        rt.set_deadline(None);
        assert_eq!(rt.pull_image("img:1", None, &|_| {}).await, Ok(()));
    }
}
