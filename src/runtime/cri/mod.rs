//! containerd or CRI-O through the Container Runtime Interface (CRI v1), as the kubelet speaks
//! to them (kuberuntime: SyncPod's createPodSandbox, then each container created in it). The
//! only module that speaks the CRI. The infra container is the pod sandbox, with the runtime's
//! own sandbox image; errors are told apart by gRPC status code.

mod channel;
mod container;
pub mod endpoint;
mod errors;
mod exec;
mod generated;
mod images;
pub mod logs;
mod observe;
pub mod paths;
mod resize;
mod rotate;
mod sandbox;
mod spdy;
mod spdy_exec;
mod stats;
mod stream;
mod volumes;
mod websocket;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use self::channel::Channel;
pub use self::generated::api;
use super::auth::Credentials;
use super::seal::{Kind, Seal};
use super::{
    labels, Cause, ContainerRuntime, CreateSpec, EngineInfo, ExecRequest, ExecSession, Followed, ImageRuntime,
    LogChunk, LogLine, LogOptions, LogRotation, LogRuntime, LogStream, Namespaces, NodeRuntime, NotSupported, Observed,
    PullProgress, RuntimeError, Selector, StreamingRuntime, TermSize, Tmpfs, Unreachability, VolumeInfo, VolumeRuntime,
};

/// The sandbox annotation holding podrun's name of the infra container, which its seal covers
/// (the sandbox's metadata holds the pod's name, as the kubelet's does).
pub const NAME_ANNOTATION: &str = "io.podrun.name";

/// The sandbox annotation holding the pod's hostname: each CreateContainer carries the
/// sandbox's config, and the runtime takes the container's `HOSTNAME` from its hostname (the
/// host's when it is empty), so it must be the one the sandbox was made with.
pub const HOSTNAME_ANNOTATION: &str = "io.podrun.hostname";

/// The container annotation holding the image as the pod names it: the runtime's status gives
/// the first of the image's tags instead, which may be another name of the same image.
pub const IMAGE_ANNOTATION: &str = "io.podrun.image";

/// How long connecting may take before the runtime counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct CriRuntime {
    channel: Channel,
    /// `unix:///path`, as given.
    endpoint: String,
    info: EngineInfo,
    seal: Seal,
    /// Where podrun keeps named volumes (the CRI has none).
    volumes: PathBuf,
    /// Sandboxes this process made: RunPodSandbox starts them, so their start is done.
    /// With what their containers' creation needs of them (`sandbox::base`), so it is not
    /// asked for again.
    sandboxes: Arc<Mutex<HashMap<String, api::PodSandboxConfig>>>,
    /// The execs `exec_attach` started: their terminals, and their exit codes once they end.
    execs: Arc<stream::Execs>,
    /// Containers this process resized in place, with what they were given
    /// (`ContainerSettings::resources_text`): see `resize::report`.
    resized: Arc<Mutex<HashMap<String, String>>>,
}

impl CriRuntime {
    /// Connects to the runtime at `endpoint` (`unix:///path`) and asks its version. `state`:
    /// podrun's state directory, where named volumes live.
    ///
    /// # Errors
    /// `Unreachable` when nothing answers there in time.
    pub async fn connect(endpoint: &str, seal: Seal, state: &Path) -> Result<CriRuntime, RuntimeError> {
        let unreachable = |why| RuntimeError::Unreachable { endpoint: endpoint.to_owned(), why };
        let path =
            endpoint::socket_path(endpoint).map_err(|e| unreachable(Unreachability::Endpoint(Cause(Arc::new(e)))))?;
        // A dial first: a missing socket says so at once, not as a gRPC status.
        tokio::net::UnixStream::connect(&path)
            .await
            .map_err(|e| unreachable(Unreachability::Connection(Cause(Arc::new(e)))))?;
        let channel = Channel::new(&path);
        let version = tokio::time::timeout(
            CONNECT_TIMEOUT,
            channel.runtime.clone().version(api::VersionRequest { version: "v1".into() }),
        )
        .await
        .map_err(|_| unreachable(Unreachability::NoAnswer(CONNECT_TIMEOUT)))?
        .map_err(|s| match s.code() {
            // A runtime without the v1 API (or no CRI at all: containerd with its CRI plugin off).
            tonic::Code::Unimplemented => unreachable(Unreachability::Refused(format!(
                "it does not serve the CRI v1 runtime service ({}); is its CRI plugin enabled?",
                s.message()
            ))),
            _ => errors::of(endpoint, "version", s),
        })?
        .into_inner();
        Ok(CriRuntime {
            channel,
            endpoint: endpoint.to_owned(),
            info: EngineInfo {
                name: version.runtime_name,
                version: version.runtime_version,
                api_version: version.runtime_api_version,
            },
            seal,
            volumes: state.join("volumes"),
            sandboxes: Arc::default(),
            execs: Arc::default(),
            resized: Arc::default(),
        })
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    fn error(&self, what: &str, status: tonic::Status) -> RuntimeError {
        errors::of(&self.endpoint, what, status)
    }

    fn ensure_owned(&self, what: &str, c: &Observed) -> Result<(), RuntimeError> {
        self.seal.ensure_owned(what, c)
    }

    async fn status_of(&self, id: &str) -> Result<Option<api::ContainerStatus>, RuntimeError> {
        Ok(observe::status(self, id, false).await?.and_then(|r| r.status))
    }

    /// The config of sandbox `id` again, from its (sealed) labels, for a container made in it.
    async fn sandbox_config(&self, id: &str) -> Result<api::PodSandboxConfig, RuntimeError> {
        if let Some(made) = self.sandboxes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(id) {
            return Ok(made.clone());
        }
        let status = self
            .channel
            .runtime
            .clone()
            .pod_sandbox_status(api::PodSandboxStatusRequest { pod_sandbox_id: id.to_owned(), verbose: false })
            .await
            .map_err(|s| self.error(&format!("inspect pod sandbox {id}"), s))?
            .into_inner()
            .status
            .unwrap_or_default();
        let labels_: BTreeMap<String, String> = status.labels.into_iter().collect();
        let name = status.annotations.get(NAME_ANNOTATION).cloned().unwrap_or_default();
        if !self.seal.verify(Kind::Container, &name, &labels_) {
            return Err(RuntimeError::NotOwned { what: "create a container in pod sandbox".into(), id: id.to_owned() });
        }
        let mut config = sandbox::base(&name, &labels_);
        config.hostname = status.annotations.get(HOSTNAME_ANNOTATION).cloned().unwrap_or_default();
        Ok(config)
    }

    /// The log file of container `id`, from its sealed labels: podrun's own layout under
    /// `paths::LOG_ROOT`, never a path the runtime or a label names.
    async fn log_file(&self, id: &str) -> Result<PathBuf, RuntimeError> {
        let Some(status) = self.status_of(id).await? else {
            return Err(RuntimeError::NotFound { what: format!("logs of container {id}") });
        };
        let o = observe::observed(status);
        if !self.seal.verify(Kind::Container, &o.name, &o.labels) {
            return Err(RuntimeError::NotOwned { what: "read the logs of".into(), id: id.to_owned() });
        }
        let get = |k| o.label(k).unwrap_or_default();
        let attempt = get(labels::ATTEMPT).parse().unwrap_or(0);
        Ok(paths::pod_log_dir(get(labels::POD_NAMESPACE), get(labels::POD_NAME), get(labels::POD_UID))
            .join(paths::container_log_path(get(labels::CONTAINER_NAME), attempt)))
    }

    fn logs_stream(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        let rt = self.clone();
        let id = id.to_owned();
        let opts = opts.clone();
        let file = async move {
            let path = rt.log_file(&id).await?;
            let what = format!("logs of container {id}");
            let running = move || {
                let (rt, id) = (rt.clone(), id.clone());
                async move {
                    rt.status_of(&id).await.ok().flatten().is_some_and(|s| {
                        s.state == api::ContainerState::ContainerRunning as i32
                            || s.state == api::ContainerState::ContainerCreated as i32
                    })
                }
            };
            Ok::<_, RuntimeError>(logs::stream(what, path, opts, running))
        };
        futures_util::stream::once(file)
            .flat_map(|r| match r {
                Ok(s) => s,
                Err(e) => futures_util::stream::iter([Err(e)]).boxed(),
            })
            .boxed()
    }

    async fn remove_sandbox(&self, c: &Observed) -> Result<(), RuntimeError> {
        let id = c.id.clone();
        let mut client = self.channel.runtime.clone();
        match client.stop_pod_sandbox(api::StopPodSandboxRequest { pod_sandbox_id: id.clone() }).await {
            Err(s) if s.code() != tonic::Code::NotFound => return Err(self.error(&format!("stop pod sandbox {id}"), s)),
            _ => {}
        }
        match client.remove_pod_sandbox(api::RemovePodSandboxRequest { pod_sandbox_id: id.clone() }).await {
            Err(s) if s.code() != tonic::Code::NotFound => {
                return Err(self.error(&format!("remove pod sandbox {id}"), s))
            }
            _ => {}
        }
        // What the runtime leaves behind: the pod's log folder and its cgroup (empty now).
        let get = |k| c.label(k).unwrap_or_default();
        let (ns, pod, uid) = (get(labels::POD_NAMESPACE), get(labels::POD_NAME), get(labels::POD_UID));
        let logs = paths::pod_log_dir(ns, pod, uid);
        if std::fs::symlink_metadata(&logs).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir_all(&logs);
        }
        let _ = crate::runtime::pod_cgroup::remove(uid);
        Ok(())
    }
}

fn grace_secs(grace: Duration) -> i64 {
    // Whole seconds, rounded up: a grace period is never cut short.
    i64::try_from(grace.as_secs() + u64::from(grace.subsec_nanos() > 0)).unwrap_or(i64::MAX)
}

/// The node features the runtime announces in its status, as the kubelet reads them: user
/// namespaces from the default runtime handler's (the one podrun's sandboxes use, named ""),
/// the supplemental groups policy from the runtime's own. A runtime older than these fields
/// (containerd 1.6 and 1.7) announces none of them.
fn features_of(status: &api::StatusResponse) -> crate::runtime::EngineFeatures {
    let default_handler = status.runtime_handlers.iter().find(|h| h.name.is_empty());
    let handler = default_handler.and_then(|h| h.features.as_ref());
    crate::runtime::EngineFeatures {
        user_namespaces: handler.is_some_and(|f| f.user_namespaces),
        recursive_read_only: handler.is_some_and(|f| f.recursive_read_only_mounts),
        supplemental_groups_policy: status.features.as_ref().is_some_and(|f| f.supplemental_groups_policy),
        ..crate::runtime::EngineFeatures::NONE
    }
}

fn is_sandbox(c: &Observed) -> bool {
    c.label(labels::ROLE) == Some("infra")
}

impl NodeRuntime for CriRuntime {
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        Ok(self.info.clone())
    }

    async fn features(&self) -> Result<crate::runtime::EngineFeatures, RuntimeError> {
        let status = self
            .channel
            .runtime
            .clone()
            .status(api::StatusRequest { verbose: false })
            .await
            .map_err(|s| self.error("runtime status", s))?
            .into_inner();
        Ok(crate::runtime::EngineFeatures {
            // UpdateContainerResources is in every CRI v1 runtime (containerd 1.6+, CRI-O).
            update_resources: true,
            image_volumes: container::mounts_images(&self.info.name, &self.info.version),
            // Sandboxes go under a cgroupfs parent of podrun's, which podrun makes with the pod's
            // limits as the kubelet makes its pod cgroups.
            pod_cgroup: crate::runtime::pod_cgroup::available(),
            ..features_of(&status)
        })
    }

    fn local_files(&self) -> bool {
        // The socket is a unix one, on this host.
        true
    }
}

impl ImageRuntime for CriRuntime {
    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        Ok(images::status(self, image).await?.is_some())
    }

    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        images::image_user(self, image).await
    }

    async fn image_identity(&self, image: &str) -> Result<Option<crate::runtime::ImageIdentity>, RuntimeError> {
        Ok(images::status(self, image)
            .await?
            .map(|img| crate::runtime::ImageIdentity { id: img.id, digests: img.repo_digests }))
    }

    async fn pull_image(
        &self,
        image: &str,
        credentials: Option<&Credentials>,
        progress: &(dyn Fn(PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        images::pull(self, image, credentials, progress).await
    }

    async fn load_image(&self, image: &str, _archive: Vec<u8>) -> Result<(), RuntimeError> {
        Err(RuntimeError::Unsupported {
            what: format!("load image {image}"),
            why: NotSupported::Cri(
                "load an image (import it with the runtime's own tool: ctr -n k8s.io images import)",
            ),
        })
    }

    async fn ensure_own_infra_image(&self) -> Result<bool, RuntimeError> {
        images::ensure_sandbox_image(self).await?;
        Ok(true)
    }
}

impl ContainerRuntime for CriRuntime {
    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        observe::list(self, sel).await
    }

    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        let mut labels_ = spec.labels.clone();
        self.seal.stamp(Kind::Container, &spec.name, &mut labels_);
        match &spec.namespaces {
            Namespaces::Infra(net) => {
                let mut config = sandbox::config(&spec.name, &labels_, net, net.privileged);
                if let Some(limits) = &spec.pod_cgroup {
                    // As the kubelet: the pod's cgroup made with its limits before the sandbox,
                    // and the limits in the sandbox's config too (kuberuntime_sandbox_linux.go).
                    let uid = spec.labels.get(labels::POD_UID).map_or("", String::as_str);
                    crate::runtime::pod_cgroup::ensure(uid, limits).map_err(|e| RuntimeError::Client {
                        what: format!("run pod sandbox {}: the pod's cgroup {}", spec.name, paths::cgroup_parent(uid)),
                        source: Cause(std::sync::Arc::new(e)),
                    })?;
                    config.linux.get_or_insert_with(Default::default).resources = Some(api::LinuxContainerResources {
                        cpu_period: limits.cpu.period.unwrap_or(0),
                        cpu_quota: limits.cpu.quota.unwrap_or(0),
                        cpu_shares: limits.cpu.shares.unwrap_or(0),
                        memory_limit_in_bytes: limits.memory_limit.unwrap_or(0),
                        ..Default::default()
                    });
                }
                let mut made = sandbox::base(&spec.name, &labels_);
                made.hostname.clone_from(&config.hostname);
                let id = self
                    .channel
                    .runtime
                    .clone()
                    .run_pod_sandbox(api::RunPodSandboxRequest { config: Some(config), runtime_handler: String::new() })
                    .await
                    .map_err(|s| self.error(&format!("run pod sandbox {}", spec.name), s))?
                    .into_inner()
                    .pod_sandbox_id;
                self.sandboxes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id.clone(), made);
                Ok(id)
            }
            Namespaces::Join { infra_id, pid, ipc_host, userns, .. } => {
                let sandbox_config = self.sandbox_config(infra_id).await?;
                let mut config = container::config(spec, labels_, *pid, *ipc_host, |v| self.volume_data(v))?;
                if *userns {
                    // The sandbox's mapping, which the runtime checks the container's against.
                    let options =
                        sandbox::user_namespace_of(&sandbox_config).ok_or_else(|| RuntimeError::Unsupported {
                            what: format!("create container {}", spec.name),
                            why: crate::runtime::NotSupported::NoUserNamespace,
                        })?;
                    let linux = config.linux.get_or_insert_with(Default::default);
                    let security = linux.security_context.get_or_insert_with(Default::default);
                    security.namespace_options.get_or_insert_with(Default::default).userns_options = Some(options);
                }
                self.channel
                    .runtime
                    .clone()
                    .create_container(api::CreateContainerRequest {
                        pod_sandbox_id: infra_id.clone(),
                        config: Some(config),
                        sandbox_config: Some(sandbox_config),
                    })
                    .await
                    .map(|r| r.into_inner().container_id)
                    .map_err(|s| self.error(&format!("create container {}", spec.name), s))
            }
        }
    }

    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        if self.sandboxes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains_key(id) {
            return Ok(());
        }
        match self
            .channel
            .runtime
            .clone()
            .start_container(api::StartContainerRequest { container_id: id.to_owned() })
            .await
        {
            Ok(_) => Ok(()),
            // A start that fails leaves the container exited with the runtime's reason
            // (StartError), which the next observation reports, as Docker's failed start does.
            Err(s) if s.code() == tonic::Code::Unknown => match self.status_of(id).await? {
                Some(st) if st.state == api::ContainerState::ContainerExited as i32 => Ok(()),
                _ => Err(self.error(&format!("start container {id}"), s)),
            },
            Err(s) => Err(self.error(&format!("start container {id}"), s)),
        }
    }

    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        self.ensure_owned("stop", c)?;
        if is_sandbox(c) {
            return match self
                .channel
                .runtime
                .clone()
                .stop_pod_sandbox(api::StopPodSandboxRequest { pod_sandbox_id: c.id.clone() })
                .await
            {
                Err(s) if s.code() != tonic::Code::NotFound => {
                    Err(self.error(&format!("stop pod sandbox {}", c.name), s))
                }
                _ => Ok(()),
            };
        }
        match self
            .channel
            .runtime
            .clone()
            .stop_container(api::StopContainerRequest { container_id: c.id.clone(), timeout: grace_secs(grace) })
            .await
        {
            Err(s) if s.code() != tonic::Code::NotFound => Err(self.error(&format!("stop container {}", c.name), s)),
            _ => Ok(()),
        }
    }

    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.stop(c, Duration::ZERO).await
    }

    async fn update_resources(
        &self,
        c: &Observed,
        settings: &crate::runtime::ContainerSettings,
    ) -> Result<(), RuntimeError> {
        resize::update(self, c, settings).await
    }

    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.ensure_owned("remove", c)?;
        if is_sandbox(c) {
            return self.remove_sandbox(c).await;
        }
        self.resized.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&c.id);
        match self
            .channel
            .runtime
            .clone()
            .remove_container(api::RemoveContainerRequest { container_id: c.id.clone() })
            .await
        {
            Err(s) if s.code() != tonic::Code::NotFound => Err(self.error(&format!("remove container {}", c.name), s)),
            _ => Ok(()),
        }
    }

    async fn exec(&self, id: &str, cmd: &[String], timeout: Option<Duration>) -> Result<i64, RuntimeError> {
        Ok(i64::from(exec::run(self, id, cmd, timeout).await?.exit_code))
    }

    async fn put_archive(&self, id: &str, _path: &str, _tar: Vec<u8>) -> Result<(), RuntimeError> {
        Err(RuntimeError::Unsupported {
            what: format!("copy to container {id}"),
            why: NotSupported::Cri("copy files into a container"),
        })
    }

    async fn get_archive(&self, id: &str, _path: &str, _max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        Err(RuntimeError::Unsupported {
            what: format!("copy from container {id}"),
            why: NotSupported::Cri("copy files out of a container"),
        })
    }

    async fn put_archive_stream(
        &self,
        id: &str,
        _path: &str,
        _tar: crate::runtime::UploadStream,
    ) -> Result<(), RuntimeError> {
        Err(RuntimeError::Unsupported {
            what: format!("copy to container {id}"),
            why: NotSupported::Cri("copy files into a container"),
        })
    }

    async fn get_archive_stream(
        &self,
        id: &str,
        _path: &str,
    ) -> Result<Option<crate::runtime::ArchiveStream>, RuntimeError> {
        Err(RuntimeError::Unsupported {
            what: format!("copy from container {id}"),
            why: NotSupported::Cri("copy files out of a container"),
        })
    }

    fn changes(&self, _sel: &Selector) -> BoxStream<'static, ()> {
        // CRI v1's GetContainerEvents is newer than the runtimes podrun meets (containerd 1.6
        // lacks it): the driver polls.
        futures_util::stream::empty().boxed()
    }
}

impl crate::runtime::StatsRuntime for CriRuntime {
    async fn stats(&self, id: &str) -> Result<Option<crate::runtime::stats::Usage>, RuntimeError> {
        stats::stats(self, id).await
    }
}

impl LogRuntime for CriRuntime {
    async fn logs_tail(&self, id: &str, lines: usize) -> Result<String, RuntimeError> {
        let opts = LogOptions { tail: Some(lines), ..Default::default() };
        let mut chunks = self.logs_stream(id, &opts);
        let mut out = Vec::new();
        while let Some(c) = chunks.next().await {
            out.extend(c?.bytes);
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn logs_follow(&self, id: &str) -> BoxStream<'static, Followed> {
        let opts = LogOptions { follow: true, ..Default::default() };
        let mut splitters: HashMap<bool, super::LineSplitter> = HashMap::new();
        self.logs_stream(id, &opts)
            .take_while(|r| std::future::ready(r.is_ok()))
            .flat_map(move |r| {
                let lines: Vec<Followed> = match r {
                    Ok(chunk) => {
                        let splitter = splitters.entry(chunk.stream == LogStream::Stdout).or_default();
                        splitter
                            .push(&chunk.bytes)
                            .into_iter()
                            .map(|line| Followed::Line(LogLine { stream: chunk.stream, line }))
                            .collect()
                    }
                    Err(_) => Vec::new(),
                };
                futures_util::stream::iter(lines)
            })
            .boxed()
    }

    fn logs(&self, id: &str, opts: &LogOptions) -> BoxStream<'static, Result<LogChunk, RuntimeError>> {
        self.logs_stream(id, opts)
    }

    async fn rotate_log(&self, c: &Observed, policy: LogRotation) -> Result<bool, RuntimeError> {
        rotate::rotate(self, c, policy).await
    }

    fn rotates_logs(&self) -> bool {
        true
    }
}

impl StreamingRuntime for CriRuntime {
    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        exec::attach(self, id, req).await
    }

    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        self.execs.resize(exec_id, size).await;
        Ok(())
    }

    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        Ok(self.execs.exit(exec_id))
    }
}

impl VolumeRuntime for CriRuntime {
    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&Tmpfs>,
    ) -> Result<(), RuntimeError> {
        volumes::ensure(self, name, labels, tmpfs)
    }

    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<VolumeInfo>, RuntimeError> {
        Ok(volumes::list(self, label_filters))
    }

    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        Ok(self.volume_data(name))
    }

    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        volumes::remove(self, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read_from_the_default_handler_and_the_runtime() {
        assert_eq!(
            features_of(&api::StatusResponse::default()),
            crate::runtime::EngineFeatures::NONE,
            "containerd 1.6 and 1.7"
        );
        let handler = |name: &str, userns: bool| api::RuntimeHandler {
            name: name.into(),
            features: Some(api::RuntimeHandlerFeatures { recursive_read_only_mounts: true, user_namespaces: userns }),
        };
        let status = api::StatusResponse {
            runtime_handlers: vec![handler("kata", false), handler("", true)],
            features: Some(api::RuntimeFeatures {
                supplemental_groups_policy: true,
                user_namespaces_host_network: false,
            }),
            ..Default::default()
        };
        let f = features_of(&status);
        assert!(f.user_namespaces && f.supplemental_groups_policy && f.recursive_read_only);
        let other_only = api::StatusResponse { runtime_handlers: vec![handler("kata", true)], ..Default::default() };
        let f = features_of(&other_only);
        assert!(!f.user_namespaces && !f.recursive_read_only, "only the default handler's count");
    }
}
