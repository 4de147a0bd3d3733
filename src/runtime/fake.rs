//! A recording, in-memory runtime for unit tests of the driver. It keeps containers in a map,
//! logs every call as a typed `Call`, and can be told how containers behave when started, and when the engine
//! goes away for a while (taking the running containers with it, as a restarted engine does).
//! It never replaces the end-to-end tests against a real engine.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use tokio::time::Instant;

use crate::runtime::labels;
use crate::runtime::seal::{Kind, Seal};

use super::{
    ContainerRuntime, CreateSpec, EngineInfo, ExecRequest, ExecSession, ImageRuntime, LogChunk, LogRuntime, LogStream,
    NodeRuntime, Observed, RuntimeError, Selector, State, StatsRuntime, StreamingRuntime, TermSize, VolumeRuntime,
};

#[derive(Debug, Default)]
struct Inner {
    containers: BTreeMap<String, Observed>,
    next_id: u64,
    images: BTreeSet<String>,
    pullable: BTreeSet<String>,
    /// Images whose registry refuses the credentials given.
    denied: BTreeSet<String>,
    /// Kubernetes container name -> exit code it exits with as soon as it starts.
    exits_on_start: BTreeMap<String, i64>,
    calls: Vec<Call>,
    /// When each call was made (tokio's clock), beside `calls`.
    call_times: Vec<Instant>,
    /// How long removing a container takes (after the call is recorded).
    remove_time: Duration,
    /// How long creating a container takes (after the call is recorded).
    create_time: Duration,
    unreachable: bool,
    /// Kubernetes container name -> how long it runs once started, and the code it exits with.
    runs_for: BTreeMap<String, (Duration, i64)>,
    outage: Option<Outage>,
    /// How many event subscriptions (`changes`) were made.
    subscriptions: usize,
    /// Named volumes, with their labels.
    volumes: BTreeMap<String, BTreeMap<String, String>>,
    /// Tmpfs options of the named volumes made tmpfs-backed.
    tmpfs_volumes: BTreeMap<String, super::Tmpfs>,
    /// What `put_archive` extracted: (container id, absolute path) -> entry.
    files: BTreeMap<(String, String), FakeEntry>,
    /// Exec id -> the exit code its command ended with.
    execs: BTreeMap<String, i64>,
    /// Every stop, with the grace period it was given.
    stops: Vec<(String, Duration)>,
    /// How long a pull takes.
    pull_time: Duration,
    /// Reference -> the id it names now, for an image moved under its tag (`move_image`).
    image_ids: BTreeMap<String, String>,
}

/// One entry of a fake container's file system, as a tar archive put it there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FakeEntry {
    Dir { mode: u32, gid: u64 },
    File { mode: u32, gid: u64, content: Vec<u8> },
    Link { target: String },
}

/// One call made to the fake, with what it was made on: the log tests assert on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Call {
    Info,
    List,
    ImagePresent {
        image: String,
    },
    ImageUser {
        image: String,
    },
    Pull {
        image: String,
    },
    Load {
        image: String,
    },
    /// The container's name, as the spec gives it.
    Create {
        name: String,
    },
    Start {
        id: String,
    },
    Stop {
        id: String,
    },
    Logs {
        id: String,
    },
    Exec {
        id: String,
        cmd: Vec<String>,
    },
    ExecAttach {
        id: String,
        cmd: Vec<String>,
    },
    ExecResize {
        exec_id: String,
        cols: u16,
        rows: u16,
    },
    ExecExitCode {
        exec_id: String,
    },
    EnsureVolume {
        name: String,
        tmpfs: bool,
    },
    ListVolumes,
    VolumeMountpoint {
        name: String,
    },
    PutArchive {
        id: String,
        path: String,
    },
    GetArchive {
        id: String,
        path: String,
    },
    RemoveVolume {
        name: String,
    },
    Kill {
        id: String,
    },
    Remove {
        id: String,
    },
}

impl Call {
    pub fn pull(image: &str) -> Call {
        Call::Pull { image: image.to_owned() }
    }

    pub fn create(name: &str) -> Call {
        Call::Create { name: name.to_owned() }
    }

    pub fn start(id: &str) -> Call {
        Call::Start { id: id.to_owned() }
    }

    pub fn kill(id: &str) -> Call {
        Call::Kill { id: id.to_owned() }
    }

    pub fn remove(id: &str) -> Call {
        Call::Remove { id: id.to_owned() }
    }

    /// Whether this is the create of a container whose name starts with `prefix`.
    pub fn creates(&self, prefix: &str) -> bool {
        matches!(self, Call::Create { name } if name.starts_with(prefix))
    }
}

/// When the engine goes away, and for how long.
#[derive(Debug)]
struct Outage {
    start: OutageStart,
    length: Duration,
    /// When it began (and the running containers died), once it has.
    began: Option<Instant>,
}

enum OutageStart {
    At(Instant),
    /// At the first call this says yes to.
    Call(Box<dyn Fn(&Call) -> bool + Send>),
}

impl std::fmt::Debug for OutageStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutageStart::At(t) => f.debug_tuple("At").field(t).finish(),
            OutageStart::Call(_) => f.write_str("Call(..)"),
        }
    }
}

impl Inner {
    /// Brings the containers up to the present: those that run for a while exit when their time
    /// is up, and an outage that begins kills every running container at its start.
    fn settle(&mut self, call: Option<&Call>) {
        let now = Instant::now();
        if let Some(o) = &mut self.outage {
            let due = match &o.start {
                OutageStart::At(t) => now >= *t,
                OutageStart::Call(starts) => call.is_some_and(starts),
            };
            if o.began.is_none() && due {
                let at = match o.start {
                    OutageStart::At(t) => t,
                    OutageStart::Call(_) => now,
                };
                o.began = Some(at);
                let at = crate::clock::now() - now.saturating_duration_since(at);
                self.finish_timed(at);
                for c in self.containers.values_mut().filter(|c| c.is_running()) {
                    let State::Running { started_at } = &c.state else { continue };
                    c.state = exited(137, started_at.clone(), at);
                }
            }
        }
        self.finish_timed(crate::clock::now());
    }

    /// Ends the containers with a run time whose time was up by `at`.
    fn finish_timed(&mut self, at: SystemTime) {
        for c in self.containers.values_mut() {
            let Some(&(run, code)) = c.label(labels::CONTAINER_NAME).and_then(|n| self.runs_for.get(n)) else {
                continue;
            };
            let State::Running { started_at: Some(started) } = &c.state else { continue };
            let Some(end) = crate::clock::parse_time(started).map(|s| s + run) else { continue };
            if end <= at {
                c.state = exited(code, Some(started.clone()), end);
            }
        }
    }

    fn away(&self) -> bool {
        self.unreachable || self.outage.as_ref().is_some_and(|o| o.began.is_some_and(|b| Instant::now() < b + o.length))
    }
}

/// The fake's key: every fake engine has the same one, as every run of podrun on one host.
fn seal() -> Seal {
    Seal::for_tests()
}

/// `c` as the Docker runtime lists it: `sealed` when its labels carry the seal for its name.
fn with_seal_checked(mut c: Observed) -> Observed {
    c.sealed = seal().verify(Kind::Container, &c.name, &c.labels);
    c
}

/// What the Docker runtime checks before it stops or removes `c`: the seal itself, not just
/// the flag a caller could have set.
fn owned(c: &Observed) -> bool {
    c.is_owned() && seal().verify(Kind::Container, &c.name, &c.labels)
}

fn exited(code: i64, started_at: Option<String>, at: SystemTime) -> State {
    let finished_at = Some(humantime::format_rfc3339_nanos(at).to_string());
    State::Exited { exit_code: code, started_at, finished_at, oom_killed: false, error: None }
}

#[derive(Debug, Default)]
pub struct FakeRuntime {
    inner: Mutex<Inner>,
}

impl FakeRuntime {
    pub fn new() -> Self {
        Self::default()
    }

    /// Timestamps follow podrun's clock, so they move with paused time in tests.
    fn now(&self) -> String {
        humantime::format_rfc3339_nanos(crate::clock::now()).to_string()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A test that panicked while holding the lock has failed already; keep going.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn with_image(self, image: &str) -> Self {
        self.lock().images.insert(image.to_owned());
        self
    }

    /// The image is not present but a pull of it succeeds.
    pub fn with_pullable(self, image: &str) -> Self {
        self.lock().pullable.insert(image.to_owned());
        self
    }

    /// The image is not present, and its registry refuses the credentials given.
    pub fn with_denied(self, image: &str) -> Self {
        self.lock().denied.insert(image.to_owned());
        self
    }

    /// The reference `image` names the image `id` from now on (a new image pushed under its tag).
    pub fn move_image(&self, image: &str, id: &str) {
        let mut inner = self.lock();
        inner.image_ids.insert(image.to_owned(), id.to_owned());
        // Present by its id too, as an engine has it.
        inner.images.insert(id.to_owned());
    }

    /// Every pull takes this long (after it is recorded), so pulls can overlap.
    pub fn with_pull_time(self, time: Duration) -> Self {
        self.lock().pull_time = time;
        self
    }

    /// Every create takes this long (after it is recorded), and the container exists at its
    /// end: a run can be cut short while the engine works on one.
    pub fn with_create_time(self, time: Duration) -> Self {
        self.lock().create_time = time;
        self
    }

    /// Every removal takes this long (after it is recorded), so removals can overlap.
    pub fn with_remove_time(self, time: Duration) -> Self {
        self.lock().remove_time = time;
        self
    }

    /// Containers with this Kubernetes name exit with `code` right after starting.
    pub fn exits_on_start(self, container: &str, code: i64) -> Self {
        self.lock().exits_on_start.insert(container.to_owned(), code);
        self
    }

    /// From now on container `container` exits with `code` as soon as it starts (None: no
    /// longer).
    pub fn set_exits_on_start(&self, container: &str, code: Option<i64>) {
        let mut inner = self.lock();
        match code {
            Some(code) => inner.exits_on_start.insert(container.to_owned(), code),
            None => inner.exits_on_start.remove(container),
        };
    }

    pub fn unreachable(self) -> Self {
        self.lock().unreachable = true;
        self
    }

    /// Containers with this Kubernetes name run for `run`, then exit with `code`.
    pub fn runs_for(self, container: &str, run: Duration, code: i64) -> Self {
        self.lock().runs_for.insert(container.to_owned(), (run, code));
        self
    }

    /// The engine goes away `after` from now (by tokio's clock) for `length`: every call fails
    /// as unreachable meanwhile, and the containers running when it went are found exited
    /// (SIGKILL, 137) when it is back, as after an engine restart without live-restore.
    pub fn outage(self, after: Duration, length: Duration) -> Self {
        let start = OutageStart::At(Instant::now() + after);
        self.lock().outage = Some(Outage { start, length, began: None });
        self
    }

    /// `outage`, beginning at the first call `starts` says yes to: that call fails, as does
    /// every other for `length`.
    pub fn outage_at_call(self, starts: impl Fn(&Call) -> bool + Send + 'static, length: Duration) -> Self {
        let start = OutageStart::Call(Box::new(starts));
        self.lock().outage = Some(Outage { start, length, began: None });
        self
    }

    /// Every call so far, with when it was made (tokio's clock).
    pub fn timed_calls(&self) -> Vec<(Instant, Call)> {
        let inner = self.lock();
        inner.call_times.iter().copied().zip(inner.calls.iter().cloned()).collect()
    }

    /// How many times the events of containers were subscribed to.
    pub fn subscriptions(&self) -> usize {
        self.lock().subscriptions
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// The stops so far: container id and grace period.
    pub fn stops(&self) -> Vec<(String, Duration)> {
        self.lock().stops.clone()
    }

    pub fn containers(&self) -> Vec<Observed> {
        let mut inner = self.lock();
        inner.settle(None);
        inner.containers.values().cloned().map(with_seal_checked).collect()
    }

    /// What `put_archive` put in container `id` at `path`.
    pub fn file(&self, id: &str, path: &str) -> Option<FakeEntry> {
        self.lock().files.get(&(id.to_owned(), path.to_owned())).cloned()
    }

    /// Puts a file in container `id` at `path`, as the container itself would write it.
    pub fn write_file(&self, id: &str, path: &str, content: &[u8]) {
        self.lock().files.insert(
            (id.to_owned(), path.to_owned()),
            FakeEntry::File { mode: 0o644, gid: 0, content: content.to_vec() },
        );
    }

    /// The tmpfs-backed named volumes.
    pub fn tmpfs_volumes(&self) -> BTreeSet<String> {
        self.lock().tmpfs_volumes.keys().cloned().collect()
    }

    /// The named volumes that exist, with their labels.
    pub fn volumes(&self) -> BTreeMap<String, BTreeMap<String, String>> {
        self.lock().volumes.clone()
    }

    /// Puts a container into the engine as if someone else (or an earlier run) made it: it
    /// counts as podrun's only if its labels carry the seal of the fake's key for its name.
    pub fn insert(&self, c: Observed) {
        self.lock().containers.insert(c.id.clone(), c);
    }

    fn check(&self, call: Call) -> Result<(), RuntimeError> {
        let mut inner = self.lock();
        inner.settle(Some(&call));
        inner.calls.push(call);
        inner.call_times.push(Instant::now());
        if inner.away() {
            return Err(RuntimeError::Unreachable {
                endpoint: "fake".into(),
                why: super::Unreachability::Connection(super::Cause(std::sync::Arc::new(std::io::Error::other(
                    "down",
                )))),
            });
        }
        Ok(())
    }
}

impl NodeRuntime for FakeRuntime {
    async fn info(&self) -> Result<EngineInfo, RuntimeError> {
        self.check(Call::Info)?;
        Ok(EngineInfo { name: "fake".into(), version: "0".into(), api_version: "0".into() })
    }

    fn local_files(&self) -> bool {
        false
    }
}

impl ImageRuntime for FakeRuntime {
    async fn image_present(&self, image: &str) -> Result<bool, RuntimeError> {
        self.check(Call::ImagePresent { image: image.to_owned() })?;
        Ok(self.lock().images.contains(image))
    }

    async fn image_identity(&self, image: &str) -> Result<Option<super::ImageIdentity>, RuntimeError> {
        self.check(Call::ImagePresent { image: image.to_owned() })?;
        let inner = self.lock();
        // An image moved to a new id by `move_image`, else the id its containers carry.
        let id = inner.image_ids.get(image).cloned().unwrap_or_else(|| {
            if image.starts_with("sha256:") {
                image.to_owned()
            } else {
                format!("sha256:{image}")
            }
        });
        Ok((inner.images.contains(image) || image.starts_with("sha256:"))
            .then(|| super::ImageIdentity { id, digests: Vec::new() }))
    }

    async fn image_user(&self, image: &str) -> Result<String, RuntimeError> {
        self.check(Call::ImageUser { image: image.to_owned() })?;
        Ok(String::new())
    }

    async fn pull_image(
        &self,
        image: &str,
        _credentials: Option<&super::auth::Credentials>,
        progress: &(dyn Fn(super::PullProgress) + Send + Sync),
    ) -> Result<(), RuntimeError> {
        progress(super::PullProgress { layers: 1, layers_done: 1, bytes_done: 10, bytes_total: 10 });
        self.check(Call::pull(image))?;
        let time = self.lock().pull_time;
        tokio::time::sleep(time).await;
        let mut inner = self.lock();
        if inner.pullable.contains(image) {
            inner.images.insert(image.to_owned());
            Ok(())
        } else if inner.denied.contains(image) {
            Err(RuntimeError::ImageDenied { image: image.to_owned(), detail: "unauthorized".into() })
        } else if inner.images.contains(image) {
            // Present but not pullable: as if offline.
            Err(RuntimeError::RegistryUnreachable { image: image.to_owned(), detail: "no such host".into() })
        } else {
            Err(RuntimeError::ImageNotFound { image: image.to_owned(), detail: "manifest unknown".into() })
        }
    }

    async fn load_image(&self, image: &str, _archive: Vec<u8>) -> Result<(), RuntimeError> {
        self.check(Call::Load { image: image.to_owned() })?;
        self.lock().images.insert(image.to_owned());
        Ok(())
    }
}

impl ContainerRuntime for FakeRuntime {
    async fn list(&self, sel: &Selector) -> Result<Vec<Observed>, RuntimeError> {
        self.check(Call::List)?;
        let inner = self.lock();
        Ok(inner
            .containers
            .values()
            .filter(|c| c.label(labels::MANAGED) == Some(labels::MANAGED_VALUE))
            .filter(|c| sel.namespace.as_deref().is_none_or(|ns| c.label(labels::POD_NAMESPACE) == Some(ns)))
            .filter(|c| sel.pod.as_deref().is_none_or(|p| c.label(labels::POD_NAME) == Some(p)))
            .cloned()
            .map(with_seal_checked)
            .collect())
    }

    async fn create(&self, spec: &CreateSpec) -> Result<String, RuntimeError> {
        self.check(Call::create(&spec.name))?;
        let time = self.lock().create_time;
        if !time.is_zero() {
            tokio::time::sleep(time).await;
        }
        let mut inner = self.lock();
        if let Some(holder) = inner.containers.values().find(|c| c.name == spec.name) {
            return Err(if seal().verify(Kind::Container, &holder.name, &holder.labels) {
                RuntimeError::Conflict { what: spec.name.clone() }
            } else {
                RuntimeError::NameTaken { what: spec.name.clone(), name: spec.name.clone() }
            });
        }
        // An image id `sha256:NAME` names the image NAME, as the fake's containers show it.
        let by_id = spec.image.strip_prefix("sha256:").is_some_and(|i| inner.images.contains(i));
        if !inner.images.contains(&spec.image) && !by_id {
            return Err(RuntimeError::Engine { what: spec.name.clone(), status: 404, message: "no such image".into() });
        }
        inner.next_id += 1;
        let id = format!("id{}", inner.next_id);
        let mut labels = spec.labels.clone();
        seal().stamp(Kind::Container, &spec.name, &mut labels);
        let c = Observed {
            id: id.clone(),
            name: spec.name.clone(),
            labels,
            image: spec.image.clone(),
            image_id: inner.image_ids.get(&spec.image).cloned().unwrap_or_else(|| {
                if spec.image.starts_with("sha256:") {
                    spec.image.clone()
                } else {
                    format!("sha256:{}", spec.image)
                }
            }),
            state: State::Created,
            ip: matches!(spec.namespaces, super::Namespaces::Infra { .. }).then(|| "10.0.0.2".to_owned()),
            gateway: matches!(spec.namespaces, super::Namespaces::Infra { .. }).then(|| "10.0.0.1".to_owned()),
            sealed: false,
            scheme: crate::runtime::IdScheme::default(),
        };
        inner.containers.insert(id.clone(), c);
        Ok(id)
    }

    async fn start(&self, id: &str) -> Result<(), RuntimeError> {
        self.check(Call::start(id))?;
        let mut inner = self.lock();
        let exits = inner.exits_on_start.clone();
        let c = inner.containers.get_mut(id).ok_or_else(|| RuntimeError::NotFound { what: id.to_owned() })?;
        let name = c.label(labels::CONTAINER_NAME).unwrap_or("").to_owned();
        let now = self.now();
        c.state = match exits.get(&name) {
            Some(&code) => State::Exited {
                exit_code: code,
                started_at: Some(now.clone()),
                finished_at: Some(now),
                oom_killed: false,
                error: None,
            },
            None => State::Running { started_at: Some(now) },
        };
        Ok(())
    }

    async fn stop(&self, c: &Observed, grace: Duration) -> Result<(), RuntimeError> {
        self.check(Call::Stop { id: c.id.clone() })?;
        if !owned(c) {
            return Err(RuntimeError::NotOwned { what: "stop".into(), id: c.id.clone() });
        }
        self.lock().stops.push((c.id.clone(), grace));
        if let Some(c) = self.lock().containers.get_mut(&c.id) {
            if c.is_running() {
                c.state =
                    State::Exited { exit_code: 0, started_at: None, finished_at: None, oom_killed: false, error: None };
            }
        }
        Ok(())
    }

    async fn exec(&self, id: &str, cmd: &[String], _timeout: Option<Duration>) -> Result<i64, RuntimeError> {
        self.check(Call::Exec { id: id.to_owned(), cmd: cmd.to_vec() })?;
        let code = cmd.first().map_or(0, |c| if c == "false" { 1 } else { 0 });
        Ok(code)
    }

    async fn put_archive(&self, id: &str, path: &str, tar: Vec<u8>) -> Result<(), RuntimeError> {
        self.check(Call::PutArchive { id: id.to_owned(), path: path.to_owned() })?;
        let mut inner = self.lock();
        if !inner.containers.contains_key(id) {
            return Err(RuntimeError::NotFound { what: id.to_owned() });
        }
        let mut archive = tar::Archive::new(tar.as_slice());
        let entries = archive.entries().map_err(fake_archive)?;
        for entry in entries {
            let mut entry = entry.map_err(fake_archive)?;
            let h = entry.header().clone();
            let rel = entry.path().map_err(fake_archive)?.to_string_lossy().into_owned();
            let full = format!("{}/{}", path.trim_end_matches('/'), rel.trim_end_matches('/'));
            let mode = h.mode().unwrap_or(0);
            let gid = h.gid().unwrap_or(0);
            let e = match h.entry_type() {
                tar::EntryType::Directory => FakeEntry::Dir { mode, gid },
                tar::EntryType::Symlink => FakeEntry::Link {
                    target: h.link_name().ok().flatten().map(|l| l.to_string_lossy().into_owned()).unwrap_or_default(),
                },
                _ => {
                    let mut content = Vec::new();
                    std::io::Read::read_to_end(&mut entry, &mut content).map_err(fake_archive)?;
                    FakeEntry::File { mode, gid, content }
                }
            };
            inner.files.insert((id.to_owned(), full), e);
        }
        Ok(())
    }

    async fn get_archive(&self, id: &str, path: &str, max_bytes: usize) -> Result<Option<Vec<u8>>, RuntimeError> {
        self.check(Call::GetArchive { id: id.to_owned(), path: path.to_owned() })?;
        let inner = self.lock();
        let Some(e) = inner.files.get(&(id.to_owned(), path.to_owned())) else { return Ok(None) };
        let name = path.rsplit('/').next().unwrap_or(path);
        let mut b = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        match e {
            FakeEntry::Dir { mode, .. } => {
                h.set_entry_type(tar::EntryType::Directory);
                h.set_mode(*mode);
                h.set_size(0);
                b.append_data(&mut h, name, std::io::empty()).map_err(fake_archive)?;
            }
            FakeEntry::File { mode, content, .. } => {
                h.set_mode(*mode);
                h.set_size(content.len() as u64);
                b.append_data(&mut h, name, content.as_slice()).map_err(fake_archive)?;
            }
            FakeEntry::Link { target } => {
                h.set_entry_type(tar::EntryType::Symlink);
                h.set_size(0);
                b.append_link(&mut h, name, target).map_err(fake_archive)?;
            }
        }
        let mut out = b.into_inner().map_err(fake_archive)?;
        out.truncate(max_bytes);
        Ok(Some(out))
    }

    async fn put_archive_stream(&self, id: &str, path: &str, tar: super::UploadStream) -> Result<(), RuntimeError> {
        let chunks: Vec<std::io::Result<Vec<u8>>> = tar.collect().await;
        let whole: std::io::Result<Vec<Vec<u8>>> = chunks.into_iter().collect();
        self.put_archive(id, path, whole.map_err(fake_archive)?.concat()).await
    }

    async fn get_archive_stream(&self, id: &str, path: &str) -> Result<Option<super::ArchiveStream>, RuntimeError> {
        let Some(whole) = self.get_archive(id, path, usize::MAX).await? else { return Ok(None) };
        // In small chunks, so a reader meets headers cut between them.
        let chunks: Vec<Result<Vec<u8>, RuntimeError>> = whole.chunks(100).map(|c| Ok(c.to_vec())).collect();
        Ok(Some(futures_util::stream::iter(chunks).boxed()))
    }

    fn changes(&self, _sel: &Selector) -> futures_util::stream::BoxStream<'static, ()> {
        self.lock().subscriptions += 1;
        // No events: the driver must work by polling alone.
        futures_util::stream::empty().boxed()
    }

    async fn kill(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.check(Call::kill(&c.id))?;
        if !owned(c) {
            return Err(RuntimeError::NotOwned { what: "kill".into(), id: c.id.clone() });
        }
        if let Some(c) = self.lock().containers.get_mut(&c.id) {
            if c.is_running() {
                c.state = State::Exited {
                    exit_code: 137,
                    started_at: None,
                    finished_at: None,
                    oom_killed: false,
                    error: None,
                };
            }
        }
        Ok(())
    }

    async fn remove(&self, c: &Observed) -> Result<(), RuntimeError> {
        self.check(Call::remove(&c.id))?;
        if !owned(c) {
            return Err(RuntimeError::NotOwned { what: "remove".into(), id: c.id.clone() });
        }
        let time = self.lock().remove_time;
        if !time.is_zero() {
            tokio::time::sleep(time).await;
        }
        self.lock().containers.remove(&c.id);
        Ok(())
    }
}

impl LogRuntime for FakeRuntime {
    async fn logs_tail(&self, id: &str, _lines: usize) -> Result<String, RuntimeError> {
        self.check(Call::Logs { id: id.to_owned() })?;
        Ok(String::new())
    }

    fn logs_follow(&self, _id: &str) -> futures_util::stream::BoxStream<'static, super::Followed> {
        // Fake containers write nothing.
        futures_util::stream::empty().boxed()
    }

    fn logs(
        &self,
        id: &str,
        _opts: &super::LogOptions,
    ) -> futures_util::stream::BoxStream<'static, Result<super::LogChunk, RuntimeError>> {
        // Fake containers write nothing; one that does not exist is an error, as in the engine.
        let found = self.lock().containers.contains_key(id);
        let what = format!("logs of container {id}");
        futures_util::stream::iter((!found).then_some(Err(RuntimeError::NotFound { what }))).boxed()
    }
}

impl StreamingRuntime for FakeRuntime {
    /// `echo ARGS` prints its arguments, `false` exits 1, anything else exits 0 silently.
    async fn exec_attach(&self, id: &str, req: &ExecRequest) -> Result<ExecSession, RuntimeError> {
        self.check(Call::ExecAttach { id: id.to_owned(), cmd: req.cmd.clone() })?;
        let mut inner = self.lock();
        let c = inner.containers.get(id).ok_or_else(|| RuntimeError::NotFound { what: id.to_owned() })?;
        if !c.is_running() {
            return Err(RuntimeError::Conflict { what: format!("exec in container {id}") });
        }
        let exec_id = format!("exec{}", inner.execs.len());
        let code = i64::from(req.cmd.first().is_some_and(|c| c == "false"));
        inner.execs.insert(exec_id.clone(), code);
        let out = match req.cmd.split_first() {
            Some((c, args)) if c == "echo" => {
                vec![Ok(LogChunk { stream: LogStream::Stdout, bytes: format!("{}\n", args.join(" ")).into_bytes() })]
            }
            _ => Vec::new(),
        };
        let input: Option<std::pin::Pin<Box<dyn tokio::io::AsyncWrite + Send>>> =
            req.stdin.then(|| Box::pin(tokio::io::sink()) as _);
        Ok(ExecSession { id: exec_id, output: futures_util::stream::iter(out).boxed(), input })
    }

    async fn exec_resize(&self, exec_id: &str, size: TermSize) -> Result<(), RuntimeError> {
        self.check(Call::ExecResize { exec_id: exec_id.to_owned(), cols: size.cols, rows: size.rows })
    }

    async fn exec_exit_code(&self, exec_id: &str) -> Result<Option<i64>, RuntimeError> {
        self.check(Call::ExecExitCode { exec_id: exec_id.to_owned() })?;
        Ok(self.lock().execs.get(exec_id).copied())
    }
}

impl StatsRuntime for FakeRuntime {
    async fn stats(&self, id: &str) -> Result<Option<super::stats::Usage>, RuntimeError> {
        // A fake container uses nothing.
        Ok(self.lock().containers.contains_key(id).then(super::stats::Usage::default))
    }
}

impl VolumeRuntime for FakeRuntime {
    async fn ensure_volume(
        &self,
        name: &str,
        labels: &BTreeMap<String, String>,
        tmpfs: Option<&super::Tmpfs>,
    ) -> Result<(), RuntimeError> {
        self.check(Call::EnsureVolume { name: name.to_owned(), tmpfs: tmpfs.is_some() })?;
        // Like the engine: an existing volume keeps its labels.
        let mut inner = self.lock();
        if !inner.volumes.contains_key(name) {
            let mut labels = labels.clone();
            seal().stamp(Kind::Volume, name, &mut labels);
            inner.volumes.insert(name.to_owned(), labels);
            if let Some(t) = tmpfs {
                inner.tmpfs_volumes.insert(name.to_owned(), *t);
            }
        }
        Ok(())
    }

    async fn list_volumes(&self, label_filters: &[String]) -> Result<Vec<super::VolumeInfo>, RuntimeError> {
        self.check(Call::ListVolumes)?;
        let matches = |l: &BTreeMap<String, String>| {
            label_filters.iter().all(|f| match f.split_once('=') {
                Some((k, v)) => l.get(k).is_some_and(|x| x == v),
                None => l.contains_key(f),
            })
        };
        Ok(self
            .lock()
            .volumes
            .iter()
            .filter(|(n, l)| matches(l) && seal().verify(Kind::Volume, n, l))
            .map(|(n, l)| super::VolumeInfo { name: n.clone(), labels: l.clone(), created: None })
            .collect())
    }

    async fn volume_mountpoint(&self, name: &str) -> Result<String, RuntimeError> {
        self.check(Call::VolumeMountpoint { name: name.to_owned() })?;
        if !self.lock().volumes.contains_key(name) {
            return Err(RuntimeError::NotFound { what: format!("volume {name}") });
        }
        Ok(format!("/engine/volumes/{name}/_data"))
    }

    async fn remove_volume(&self, name: &str) -> Result<(), RuntimeError> {
        self.check(Call::RemoveVolume { name: name.to_owned() })?;
        let mut inner = self.lock();
        match inner.volumes.get(name) {
            None => Ok(()),
            Some(l) if !seal().verify(Kind::Volume, name, l) => {
                Err(RuntimeError::VolumeNotOwned { name: name.to_owned() })
            }
            Some(_) => {
                inner.volumes.remove(name);
                Ok(())
            }
        }
    }
}

/// A tar archive the fake cannot read, as a client error.
fn fake_archive(e: std::io::Error) -> RuntimeError {
    RuntimeError::Client { what: "fake archive".into(), source: super::Cause(std::sync::Arc::new(e)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn volumes_are_recorded_kept_and_removed_only_when_owned() {
        let rt = FakeRuntime::new();
        let owned = BTreeMap::from([(labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned())]);
        rt.ensure_volume("v", &owned, None).await.unwrap();
        let first = rt.volumes()["v"].clone();
        rt.ensure_volume("v", &BTreeMap::new(), None).await.unwrap();
        assert_eq!(rt.volumes()["v"], first, "an existing volume keeps its labels");
        // Someone else's volume with podrun's labels, and a seal copied from another volume.
        rt.lock().volumes.insert("theirs".into(), first.clone());
        assert!(rt.remove_volume("theirs").await.is_err());
        rt.remove_volume("v").await.unwrap();
        rt.remove_volume("v").await.unwrap();
        assert_eq!(rt.volumes().keys().collect::<Vec<_>>(), ["theirs"]);
        let ensure = || Call::EnsureVolume { name: "v".into(), tmpfs: false };
        let remove = |name: &str| Call::RemoveVolume { name: name.into() };
        assert_eq!(rt.calls(), [ensure(), ensure(), remove("theirs"), remove("v"), remove("v")]);
    }
}
