//! The CRI floor of `scripts/bench`: the bare CRI v1 sequence a pod needs, with nothing
//! around it (no image checks, no waiting for "running", no observation), as the least any
//! tool driving that runtime must do. It uses podrun's generated messages, included from
//! `src/runtime/cri/generated/api.rs` (the library keeps them private), over a channel of its own as
//! podrun's is: hyper's HTTP/2 client on the runtime's unix socket, one connection.
//!
//! ```text
//! cri_floor ENDPOINT version
//!     the runtime's name and version.
//! cri_floor ENDPOINT run NAME PODS CONTAINERS NAMESPACE LOG_ROOT CGROUP_ROOT IMAGE CMD...
//!     PODS pods (named NAME, or NAME01.. when PODS > 1), all at once: RunPodSandbox, then
//!     CreateContainer and StartContainer of the CONTAINERS members in parallel; exits when
//!     all are started. Labelled podrun-bench-cri=NAMESPACE; logs under
//!     LOG_ROOT/<namespace>_<pod>_<uid>, cgroups under CGROUP_ROOT/pod<uid>.
//! cri_floor ENDPOINT look KEY=VALUE
//!     what a re-apply that finds the pods as they should be must ask: ListPodSandbox and
//!     ListContainers of that label, and the status of each.
//! cri_floor ENDPOINT delete KEY=VALUE NAME LOG_ROOT CGROUP_ROOT
//!     pod NAME of that label: its containers stopped (grace 2 s) and removed in parallel,
//!     then the sandbox stopped and removed, its log folder and cgroup removed.
//! cri_floor ENDPOINT clean KEY=VALUE LOG_ROOT CGROUP_ROOT
//!     every sandbox of that label stopped and removed at once (its containers with it), with
//!     its log folder and cgroup.
//! ```
//!
//! Build: `cargo build --release --example cri_floor`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context as _, Result};
use futures_util::future::try_join_all;

#[allow(dead_code, clippy::all, clippy::pedantic, missing_docs, rustdoc::all)]
#[path = "../src/runtime/cri/generated/api.rs"]
mod api;

type Client = api::runtime_service_client::RuntimeServiceClient<channel::Http>;

/// The label of the floor's pods (podrun's pods in the same bench carry `podrun-bench`).
const LABEL: &str = "podrun-bench-cri";

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(endpoint), Some(mode)) = (args.first(), args.get(1)) else {
        bail!("usage: cri_floor ENDPOINT run|look|delete|clean ARGS... (see examples/cri_floor.rs)");
    };
    let path = endpoint.strip_prefix("unix://").unwrap_or(endpoint);
    let mut rt = channel::runtime(path);
    let v = rt.version(api::VersionRequest { version: "v1".into() }).await.context("Version")?.into_inner();
    let rest = &args[2..];
    match (mode.as_str(), rest) {
        ("version", []) => println!("{} {}", v.runtime_name, v.runtime_version),
        ("run", [name, pods, containers, ns, log_root, cgroup_root, image, cmd @ ..]) if !cmd.is_empty() => {
            let (pods, containers): (usize, usize) = (pods.parse()?, containers.parse()?);
            let names: Vec<String> =
                if pods == 1 { vec![name.clone()] } else { (1..=pods).map(|i| format!("{name}{i:02}")).collect() };
            let pod = Pod { ns, log_root: Path::new(log_root), cgroup_root, image, cmd };
            try_join_all(names.iter().map(|n| pod.run(rt.clone(), n, containers))).await?;
        }
        ("look", [selector]) => look(rt, selector).await?,
        ("delete", [selector, name, log_root, cgroup_root]) => {
            let sandboxes = sandboxes(&mut rt, selector).await?;
            let Some(sb) = sandboxes.iter().find(|s| s.metadata.as_ref().is_some_and(|m| &m.name == name)) else {
                bail!("no pod sandbox {name} with {selector}");
            };
            delete(rt, selector, sb, Path::new(log_root), cgroup_root).await?;
        }
        ("clean", [selector, log_root, cgroup_root]) => {
            let sandboxes = sandboxes(&mut rt, selector).await?;
            try_join_all(sandboxes.iter().map(|sb| remove_sandbox(rt.clone(), sb, Path::new(log_root), cgroup_root)))
                .await?;
        }
        _ => bail!("cri_floor: bad arguments for {mode} (see examples/cri_floor.rs)"),
    }
    Ok(())
}

/// What the pods of a `run` share.
struct Pod<'a> {
    ns: &'a str,
    log_root: &'a Path,
    cgroup_root: &'a str,
    image: &'a str,
    cmd: &'a [String],
}

impl Pod<'_> {
    async fn run(&self, mut rt: Client, name: &str, containers: usize) -> Result<()> {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos();
        let uid = format!("{}-{name}-{nanos}", self.ns);
        let log_dir = log_dir(self.log_root, self.ns, name, &uid);
        std::fs::create_dir_all(&log_dir).with_context(|| format!("create {}", log_dir.display()))?;
        let labels = HashMap::from([(LABEL.to_owned(), self.ns.to_owned())]);
        let sandbox = api::PodSandboxConfig {
            metadata: Some(api::PodSandboxMetadata {
                name: name.to_owned(),
                uid: uid.clone(),
                namespace: self.ns.to_owned(),
                attempt: 0,
            }),
            log_directory: log_dir.display().to_string(),
            labels: labels.clone(),
            linux: Some(api::LinuxPodSandboxConfig {
                cgroup_parent: format!("{}/pod{uid}", self.cgroup_root),
                security_context: Some(api::LinuxSandboxSecurityContext {
                    namespace_options: Some(api::NamespaceOption {
                        network: api::NamespaceMode::Pod as i32,
                        pid: api::NamespaceMode::Container as i32,
                        ipc: api::NamespaceMode::Pod as i32,
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let id = rt
            .run_pod_sandbox(api::RunPodSandboxRequest {
                config: Some(sandbox.clone()),
                runtime_handler: String::new(),
            })
            .await
            .with_context(|| format!("RunPodSandbox {name}"))?
            .into_inner()
            .pod_sandbox_id;
        let member = |i: usize| {
            let (mut rt, id, sandbox, labels) = (rt.clone(), id.clone(), sandbox.clone(), labels.clone());
            async move {
                let c = format!("c{i}");
                let config = api::ContainerConfig {
                    metadata: Some(api::ContainerMetadata { name: c.clone(), attempt: 0 }),
                    image: Some(api::ImageSpec { image: self.image.to_owned(), ..Default::default() }),
                    command: self.cmd.to_vec(),
                    labels,
                    log_path: format!("{c}/0.log"),
                    linux: Some(api::LinuxContainerConfig {
                        security_context: Some(api::LinuxContainerSecurityContext {
                            namespace_options: sandbox
                                .linux
                                .as_ref()
                                .and_then(|l| l.security_context.as_ref())
                                .and_then(|s| s.namespace_options.clone()),
                            ..Default::default()
                        }),
                        ..Default::default()
                    }),
                    ..Default::default()
                };
                let cid = rt
                    .create_container(api::CreateContainerRequest {
                        pod_sandbox_id: id,
                        config: Some(config),
                        sandbox_config: Some(sandbox),
                    })
                    .await
                    .with_context(|| format!("CreateContainer {name}/{c}"))?
                    .into_inner()
                    .container_id;
                rt.start_container(api::StartContainerRequest { container_id: cid })
                    .await
                    .with_context(|| format!("StartContainer {name}/{c}"))?;
                Ok::<_, anyhow::Error>(())
            }
        };
        try_join_all((1..=containers).map(member)).await?;
        Ok(())
    }
}

fn log_dir(root: &Path, ns: &str, name: &str, uid: &str) -> PathBuf {
    root.join(format!("{ns}_{name}_{uid}"))
}

fn selector(s: &str) -> Result<HashMap<String, String>> {
    let Some((k, v)) = s.split_once('=') else { bail!("not KEY=VALUE: {s}") };
    Ok(HashMap::from([(k.to_owned(), v.to_owned())]))
}

async fn sandboxes(rt: &mut Client, sel: &str) -> Result<Vec<api::PodSandbox>> {
    let filter = api::PodSandboxFilter { label_selector: selector(sel)?, ..Default::default() };
    Ok(rt.list_pod_sandbox(api::ListPodSandboxRequest { filter: Some(filter) }).await?.into_inner().items)
}

async fn containers(rt: &mut Client, sel: &str, sandbox: &str) -> Result<Vec<api::Container>> {
    let filter = api::ContainerFilter {
        label_selector: selector(sel)?,
        pod_sandbox_id: sandbox.to_owned(),
        ..Default::default()
    };
    Ok(rt.list_containers(api::ListContainersRequest { filter: Some(filter) }).await?.into_inner().containers)
}

async fn look(mut rt: Client, sel: &str) -> Result<()> {
    let (sandboxes, containers) = {
        let mut rt2 = rt.clone();
        tokio::try_join!(sandboxes(&mut rt, sel), containers(&mut rt2, sel, ""))?
    };
    let sandbox_status = sandboxes.iter().map(|s| {
        let mut rt = rt.clone();
        let id = s.id.clone();
        async move {
            rt.pod_sandbox_status(api::PodSandboxStatusRequest { pod_sandbox_id: id, verbose: false }).await?;
            Ok::<_, anyhow::Error>(())
        }
    });
    let container_status = containers.iter().map(|c| {
        let mut rt = rt.clone();
        let id = c.id.clone();
        async move {
            rt.container_status(api::ContainerStatusRequest { container_id: id, verbose: false }).await?;
            Ok::<_, anyhow::Error>(())
        }
    });
    tokio::try_join!(try_join_all(sandbox_status), try_join_all(container_status))?;
    Ok(())
}

async fn delete(mut rt: Client, sel: &str, sb: &api::PodSandbox, log_root: &Path, cgroup_root: &str) -> Result<()> {
    let members = containers(&mut rt, sel, &sb.id).await?;
    try_join_all(members.iter().map(|c| {
        let mut rt = rt.clone();
        let id = c.id.clone();
        async move {
            rt.stop_container(api::StopContainerRequest { container_id: id.clone(), timeout: 2 }).await?;
            rt.remove_container(api::RemoveContainerRequest { container_id: id }).await?;
            Ok::<_, anyhow::Error>(())
        }
    }))
    .await?;
    remove_sandbox(rt, sb, log_root, cgroup_root).await
}

async fn remove_sandbox(mut rt: Client, sb: &api::PodSandbox, log_root: &Path, cgroup_root: &str) -> Result<()> {
    rt.stop_pod_sandbox(api::StopPodSandboxRequest { pod_sandbox_id: sb.id.clone() }).await?;
    rt.remove_pod_sandbox(api::RemovePodSandboxRequest { pod_sandbox_id: sb.id.clone() }).await?;
    let m = sb.metadata.clone().unwrap_or_default();
    if !m.uid.is_empty() && !m.uid.contains('/') {
        let _ = std::fs::remove_dir_all(log_dir(log_root, &m.namespace, &m.name, &m.uid));
        remove_cgroup(&format!("{}/pod{}", cgroup_root.trim_start_matches('/'), m.uid));
    }
    Ok(())
}

/// rmdir of the pod's (empty) cgroup folders, and their children, under every hierarchy.
fn remove_cgroup(rel: &str) {
    let root = Path::new("/sys/fs/cgroup");
    let mut dirs = vec![root.join(rel)];
    if let Ok(entries) = std::fs::read_dir(root) {
        dirs.extend(entries.flatten().map(|e| e.path().join(rel)));
    }
    for dir in dirs {
        if let Ok(children) = std::fs::read_dir(&dir) {
            for child in children.flatten() {
                let _ = std::fs::remove_dir(child.path());
            }
        }
        let _ = std::fs::remove_dir(&dir);
    }
}

/// The gRPC channel: HTTP/2 over the runtime's unix socket, through hyper's client.
mod channel {
    use std::future::Future;
    use std::io;
    use std::pin::Pin;
    use std::sync::Arc;
    use std::task::{Context, Poll};

    use hyper_util::client::legacy::connect::{Connected, Connection};
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

    pub type Http = hyper_util::client::legacy::Client<UnixConnector, tonic::body::Body>;

    /// The runtime service at the socket `path`; nothing is dialled until the first call.
    pub fn runtime(path: &str) -> super::Client {
        let http: Http = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .http2_only(true)
            .build(UnixConnector(Arc::from(path)));
        // gRPC needs an authority in the URI; the socket does the routing.
        super::Client::with_origin(http, hyper::Uri::from_static("http://localhost"))
            .max_decoding_message_size(16 * 1024 * 1024)
    }

    #[derive(Clone)]
    pub struct UnixConnector(Arc<str>);

    impl tower_service::Service<hyper::Uri> for UnixConnector {
        type Response = TokioIo<Socket>;
        type Error = io::Error;
        type Future = Pin<Box<dyn Future<Output = io::Result<TokioIo<Socket>>> + Send>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _: hyper::Uri) -> Self::Future {
            let path = Arc::clone(&self.0);
            Box::pin(async move { Ok(TokioIo::new(Socket(tokio::net::UnixStream::connect(&*path).await?))) })
        }
    }

    pub struct Socket(tokio::net::UnixStream);

    impl Connection for Socket {
        fn connected(&self) -> Connected {
            Connected::new()
        }
    }

    impl AsyncRead for Socket {
        fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.0).poll_read(cx, buf)
        }
    }

    impl AsyncWrite for Socket {
        fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
            Pin::new(&mut self.0).poll_write(cx, buf)
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.0).poll_flush(cx)
        }

        fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.0).poll_shutdown(cx)
        }
    }
}
