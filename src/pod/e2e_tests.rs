//! End-to-end tests of mounts and named volumes against the real engine: containers are created
//! through `DockerRuntime` and checked from inside with `Runtime::exec`. What podrun relies on in
//! a container's life is checked on each engine: the default one, and the Podman service of
//! PODRUN_PODMAN_HOST when there is one.
//!
//! Like `require_engine!` of the suites (tests/suite/common/require.rs): with no engine they say
//! so and are counted as skipped, unless PODRUN_E2E=required (scripts/test) or CI=true, where a
//! missing engine fails them. Every name carries the process
//! id, and everything a test creates is removed when it ends, also when it fails.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use futures_util::stream::BoxStream;
use futures_util::StreamExt;

use crate::manifest::config_store::ConfigStore;
use crate::manifest::types::{ConfigMap, ObjectMeta, Secret};
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::downward::PodFacts;
use crate::pod::files::PodFiles;
use crate::pod::volumes::{self, plan_volumes};
use crate::runtime::docker::DockerRuntime;
use crate::runtime::infra_image;
use crate::runtime::labels;
use crate::runtime::{
    ContainerRuntime, CreateSpec, ImageRuntime, Mount, Namespaces, NodeRuntime, Propagation, RuntimeError, Selector,
    State, VolumeRuntime,
};

const IMAGE: &str = "busybox:1.28";

/// The default engine, or None after counting `test` as skipped.
async fn engine(test: &str) -> Option<DockerRuntime> {
    let required =
        std::env::var("PODRUN_E2E").is_ok_and(|v| v == "required") || std::env::var("CI").is_ok_and(|v| v == "true");
    // A context that cannot be used is no engine, as for the Docker CLI that tests/suite/common asks.
    let connected = match crate::runtime::docker::context::resolve_from_env(None, None) {
        Ok(endpoint) => {
            DockerRuntime::connect(&endpoint, crate::runtime::seal::Seal::for_tests()).await.map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    };
    match connected {
        Ok(rt) => Some(rt),
        Err(e) => {
            assert!(!required, "no container engine answers ({e}), and end-to-end tests are required (PODRUN_E2E/CI)");
            crate::test_support::skip_log::log_skip(test, &format!("no container engine ({e})"));
            None
        }
    }
}

fn docker(args: &[&str]) -> std::process::Output {
    docker_on(None, args)
}

/// The docker CLI against `host` (`-H`), or the default engine.
fn docker_on(host: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new("docker");
    if let Some(host) = host {
        cmd.args(["-H", host]);
    }
    cmd.args(args).output().expect("run the docker CLI")
}

/// The engines for checks that must hold on each: the default one, and the Podman service
/// `scripts/test` starts (PODRUN_PODMAN_HOST; `tests/suite/e2e_podman.rs` says when it is missing),
/// each with its address (None: the default).
async fn engines(test: &str) -> Vec<(Option<String>, DockerRuntime)> {
    let mut all: Vec<(Option<String>, DockerRuntime)> = engine(test).await.into_iter().map(|rt| (None, rt)).collect();
    if let Some(host) = std::env::var("PODRUN_PODMAN_HOST").ok().filter(|h| !h.is_empty()) {
        let rt = DockerRuntime::connect(
            &crate::runtime::docker::context::Endpoint::host(host.as_str()),
            crate::runtime::seal::Seal::for_tests(),
        )
        .await
        .expect("the Podman service of PODRUN_PODMAN_HOST answers");
        all.push((Some(host), rt));
    }
    all
}

/// What a test made, removed on drop (by the CLI: a drop cannot await).
#[derive(Default)]
struct Made {
    /// The engine it was made on (None: the default one).
    host: Option<String>,
    containers: Vec<String>,
    volumes: Vec<String>,
    dirs: Vec<PathBuf>,
    /// A pod's volume directories (some are on /dev/shm, outside `dirs`).
    pod_volumes: Option<(PodFiles, String)>,
}

impl Drop for Made {
    fn drop(&mut self) {
        let host = self.host.as_deref();
        for c in &self.containers {
            docker_on(host, &["rm", "-f", "-v", c]);
        }
        for v in &self.volumes {
            docker_on(host, &["volume", "rm", "-f", v]);
        }
        if let Some((files, uid)) = &self.pod_volumes {
            volumes::remove_pod_volumes(files, uid);
        }
        for d in &self.dirs {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("podrun-docker-e2e-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn namespace(tag: &str) -> String {
    format!("t{}-{tag}", std::process::id())
}

fn spec(name: &str, ns: &str, mounts: Vec<Mount>) -> CreateSpec {
    let labels = BTreeMap::from([
        (labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned()),
        (labels::POD_NAMESPACE.to_owned(), ns.to_owned()),
        (labels::POD_NAME.to_owned(), "p".to_owned()),
    ]);
    CreateSpec {
        name: name.to_owned(),
        image: IMAGE.to_owned(),
        entrypoint: Some(vec!["sleep".into()]),
        cmd: Some(vec!["300".into()]),
        env: Vec::new(),
        working_dir: None,
        labels,
        namespaces: Namespaces::Infra(Box::new(crate::runtime::PodNetwork {
            hostname: Some("e2e".into()),
            ..Default::default()
        })),
        stop_timeout: Some(1),
        mounts,
        settings: Default::default(),
        pod_cgroup: None,
    }
}

/// Runs a shell script in the container; its exit code.
async fn sh(rt: &DockerRuntime, id: &str, script: &str) -> i64 {
    rt.exec(id, &["sh".to_owned(), "-c".to_owned(), script.to_owned()], None).await.unwrap()
}

/// Asserts each script exits 0 in the container.
async fn check_all(rt: &DockerRuntime, id: &str, scripts: &[&str]) {
    for s in scripts {
        assert_eq!(sh(rt, id, s).await, 0, "in the container: {s}");
    }
}

async fn remove_all(rt: &DockerRuntime, ns: &str) {
    let sel = Selector { namespace: Some(ns.to_owned()), pod: None };
    for c in rt.list(&sel).await.unwrap() {
        rt.remove(&c).await.unwrap();
    }
}

#[tokio::test]
async fn bind_and_named_volume_mounts_reach_the_container() {
    let Some(rt) = engine("pod::e2e_tests::bind_and_named_volume_mounts_reach_the_container").await else { return };
    let mut made = Made::default();
    let ns = namespace("mounts");
    let dir = scratch("mounts");
    made.dirs.push(dir.clone());
    std::fs::create_dir(dir.join("ro")).unwrap();
    std::fs::write(dir.join("ro/hello"), "hi").unwrap();
    std::fs::create_dir(dir.join("rw")).unwrap();
    std::fs::write(dir.join("file"), "one file").unwrap();

    let volume = format!("podrun-e2e-{}", std::process::id());
    made.volumes.push(volume.clone());
    let vlabels = BTreeMap::from([(labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned())]);
    rt.ensure_volume(&volume, &vlabels, None).await.unwrap();
    // Idempotent: an existing volume is kept, with its labels, whatever labels come now.
    rt.ensure_volume(&volume, &BTreeMap::new(), None).await.unwrap();
    let shown = docker(&["volume", "inspect", "-f", "{{index .Labels \"io.podrun.managed\"}}", &volume]);
    assert_eq!(String::from_utf8_lossy(&shown.stdout).trim(), "true");

    let name = format!("podrun-e2e-mounts-{}", std::process::id());
    made.containers.push(name.clone());
    let d = |p: &str| dir.join(p).to_string_lossy().into_owned();
    let mounts = vec![
        Mount::bind(d("ro"), "/ro", true),
        Mount::bind(d("rw"), "/rw", false),
        Mount::bind(d("file"), "/etc/one-file", true),
        Mount::Volume { name: volume.clone(), target: "/vol".into(), read_only: false },
        Mount::Volume { name: volume.clone(), target: "/vol-ro".into(), read_only: true },
    ];
    let id = rt.create(&spec(&name, &ns, mounts)).await.unwrap();
    rt.start(&id).await.unwrap();
    check_all(
        &rt,
        &id,
        &[
            "test \"$(cat /ro/hello)\" = hi",
            "! touch /ro/x 2>/dev/null",
            "echo written > /rw/new",
            "test \"$(cat /etc/one-file)\" = 'one file'",
            "! sh -c 'echo x > /etc/one-file' 2>/dev/null",
            "echo data > /vol/f && test \"$(cat /vol-ro/f)\" = data",
            "! touch /vol-ro/g 2>/dev/null",
            // No copy of the image's files into the volume: it starts as the volume is.
            "test \"$(ls /vol)\" = f",
        ],
    )
    .await;
    assert_eq!(std::fs::read_to_string(dir.join("rw/new")).unwrap(), "written\n");
    // The mounts as the engine recorded them: Mounts (not Binds), private propagation.
    let inspect = docker(&["inspect", "-f", "{{json .HostConfig.Mounts}}", &name]);
    let json: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(json[0]["BindOptions"]["Propagation"], "rprivate", "{json}");
    assert_eq!(json[3]["VolumeOptions"]["NoCopy"], true, "{json}");

    // The volume is in use: removing it is an error, and it stays.
    let e = rt.remove_volume(&volume).await.unwrap_err();
    assert!(matches!(e, RuntimeError::Engine { status: 409, .. }), "{e:?}");
    remove_all(&rt, &ns).await;
    rt.remove_volume(&volume).await.unwrap();
    assert!(!docker(&["volume", "inspect", &volume]).status.success(), "the volume is gone");
    rt.remove_volume(&volume).await.unwrap(); // gone already: fine

    // A volume podrun did not make is never removed, podrun's labels or not.
    let foreign = format!("podrun-e2e-foreign-{}", std::process::id());
    made.volumes.push(foreign.clone());
    let managed = format!("{}={}", labels::MANAGED, labels::MANAGED_VALUE);
    assert!(docker(&["volume", "create", "--label", &managed, &foreign]).status.success());
    assert!(rt.list_volumes(std::slice::from_ref(&managed)).await.unwrap().iter().all(|v| v.name != foreign));
    let e = rt.remove_volume(&foreign).await.unwrap_err();
    assert!(e.to_string().contains("not created by podrun"), "{e}");
    assert!(docker(&["volume", "inspect", &foreign]).status.success());
}

#[tokio::test]
async fn propagation_and_recursive_read_only_reach_the_engine() {
    let Some(rt) = engine("pod::e2e_tests::propagation_and_recursive_read_only_reach_the_engine").await else { return };
    let mut made = Made::default();
    let ns = namespace("propagation");
    let dir = scratch("propagation");
    made.dirs.push(dir.clone());
    let src = dir.to_string_lossy().into_owned();
    let bind = |target: &str, propagation, rro| Mount::Bind {
        source: src.clone(),
        target: target.into(),
        read_only: rro,
        propagation,
        recursive_read_only: rro,
    };
    // Created only: whether the host's mount is shared (needed to start with rslave or
    // rshared) depends on the machine; what podrun asks for does not.
    let name = format!("podrun-e2e-propagation-{}", std::process::id());
    made.containers.push(name.clone());
    let mounts = vec![bind("/a", Propagation::HostToContainer, false), bind("/b", Propagation::Bidirectional, false)];
    rt.create(&spec(&name, &ns, mounts)).await.unwrap();
    let inspect = docker(&["inspect", "-f", "{{json .HostConfig.Mounts}}", &name]);
    let json: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(json[0]["BindOptions"]["Propagation"], "rslave", "{json}");
    assert_eq!(json[1]["BindOptions"]["Propagation"], "rshared", "{json}");

    let rro_name = format!("podrun-e2e-rro-{}", std::process::id());
    made.containers.push(rro_name.clone());
    let r = rt.create(&spec(&rro_name, &ns, vec![bind("/r", Propagation::Private, true)])).await;
    if rt.api() < crate::runtime::RECURSIVE_READ_ONLY_API {
        let e = r.unwrap_err().to_string();
        assert!(e.contains("recursively read-only") && e.contains("1.44"), "{e}");
    } else {
        r.unwrap();
    }
    remove_all(&rt, &ns).await;
}

const POD: &str = "apiVersion: v1
kind: Pod
metadata: {name: web, namespace: NS}
spec:
  securityContext: {fsGroup: 2345}
  volumes:
  - {name: cfg, configMap: {name: cfg, items: [{key: a, path: conf/a.conf}]}}
  - {name: sec, secret: {secretName: sec, defaultMode: 0400}}
  - {name: scratch, emptyDir: {}}
  - {name: mem, emptyDir: {medium: Memory}}
  - {name: data, persistentVolumeClaim: {claimName: db}}
  - {name: host, hostPath: {path: HOST, type: DirectoryOrCreate}}
  containers:
  - name: c
    image: busybox:1.28
    volumeMounts:
    - {name: cfg, mountPath: /etc/cfg}
    - {name: cfg, mountPath: /etc/one.conf, subPath: conf/a.conf}
    - {name: sec, mountPath: /s}
    - {name: scratch, mountPath: /scratch}
    - {name: scratch, mountPath: /logs, subPathExpr: $(POD_NAME)}
    - {name: mem, mountPath: /mem}
    - {name: data, mountPath: /data}
    - {name: host, mountPath: /host, readOnly: true}
";

#[tokio::test]
async fn planned_pod_volumes_in_a_real_container() {
    let Some(rt) = engine("pod::e2e_tests::planned_pod_volumes_in_a_real_container").await else { return };
    let mut made = Made::default();
    let ns = namespace("planned");
    let dir = scratch("planned");
    made.dirs.push(dir.clone());
    let host_dir = dir.join("host");
    let text = POD.replace("NS", &ns).replace("HOST", host_dir.to_str().unwrap());
    let pod = load(&Source::from_text("pod.yaml", &text), &LoadOptions::default()).unwrap().pods.remove(0).pod;
    let mut configs = ConfigStore::new();
    let cm = ConfigMap {
        metadata: ObjectMeta { name: "cfg".into(), ..Default::default() },
        data: [("a".to_owned(), "one".to_owned())].into(),
        ..Default::default()
    };
    configs.add_config_map(&ns, &cm).unwrap();
    let secret = Secret {
        metadata: ObjectMeta { name: "sec".into(), ..Default::default() },
        string_data: [("password".to_owned(), "hunter2".to_owned())].into(),
        ..Default::default()
    };
    configs.add_secret(&ns, &secret).unwrap();
    let files = PodFiles::new(dir.join("state"));
    let uid = pod.metadata.uid.clone().unwrap();

    made.pod_volumes = Some((files.clone(), uid.clone()));
    let setup = plan_volumes(&pod, &files, &configs, &PodFacts::default()).unwrap();
    setup.check_engine(&rt.info().await.unwrap(), &rt.features().await.unwrap()).unwrap();
    volumes::prepare(&setup).unwrap();
    for v in setup.named_volumes() {
        made.volumes.push(v.name.clone());
        rt.ensure_volume(&v.name, &v.labels, None).await.unwrap();
    }
    let mounts = setup.mounts_for("c", &[("POD_NAME".to_owned(), "web".to_owned())]).unwrap();
    let name = format!("podrun-e2e-planned-{}", std::process::id());
    made.containers.push(name.clone());
    let id = rt.create(&spec(&name, &ns, mounts)).await.unwrap();
    rt.start(&id).await.unwrap();
    check_all(
        &rt,
        &id,
        &[
            "test \"$(cat /etc/cfg/conf/a.conf)\" = one",
            "test \"$(cat /etc/one.conf)\" = one",
            "! touch /etc/cfg/x 2>/dev/null",
            "test \"$(cat /s/password)\" = hunter2",
            "test \"$(stat -L -c %a:%g /s/password)\" = 440:2345",
            "! touch /s/x 2>/dev/null",
            "test \"$(stat -c %a:%g /scratch)\" = 2777:2345",
            "touch /scratch/f /logs/g",
            "grep ' /mem ' /proc/self/mountinfo | grep -q ' - tmpfs '",
            "echo x > /mem/m",
            "echo x > /data/f",
            "! touch /host/x 2>/dev/null",
        ],
    )
    .await;
    let scratch_dir = files.pod_dir(&uid).join("volumes/scratch");
    assert!(scratch_dir.join("f").is_file() && scratch_dir.join("web/g").is_file());
    // Other users in the container: the fsGroup opens the secret; without it, it stays closed.
    let as_user = |user: &str, cmd: &[&str]| {
        let mut args = vec!["exec", "-u", user, &name];
        args.extend_from_slice(cmd);
        docker(&args).status.success()
    };
    assert!(as_user("1000:2345", &["cat", "/s/password"]));
    assert!(!as_user("1000:1000", &["cat", "/s/password"]));
    assert!(as_user("1000:1000", &["touch", "/scratch/by-1000"]), "an emptyDir is writable by anyone");
    // A re-apply rewrites the files while the container runs; it sees the new content.
    let mut configs2 = configs.clone();
    let cm2 = ConfigMap { data: [("a".to_owned(), "two".to_owned())].into(), ..cm };
    configs2.add_config_map(&ns, &cm2).unwrap();
    volumes::prepare(&plan_volumes(&pod, &files, &configs2, &PodFacts::default()).unwrap()).unwrap();
    check_all(&rt, &id, &["test \"$(cat /etc/cfg/conf/a.conf)\" = two", "test -f /mem/m"]).await;

    remove_all(&rt, &ns).await;
    volumes::remove_pod_volumes(&files, &uid);
    files.remove_pod(&uid);
    assert!(!files.pod_dir(&uid).exists());
    for v in setup.named_volumes() {
        rt.remove_volume(&v.name).await.unwrap();
    }
}

/// Waits (10 s at most) for ticks of a `changes` stream until what the engine lists of the
/// test's own namespace satisfies `done`. An engine's event log may be host-wide (root
/// Podman's is), and a tick says only that something changed: one may come from another
/// test's containers, so a tick counts only once the list shows this test's own change.
async fn tick_until(
    changes: &mut BoxStream<'static, ()>,
    rt: &DockerRuntime,
    sel: &Selector,
    on: &str,
    what: &str,
    done: impl Fn(&[crate::runtime::Observed]) -> bool,
) -> Vec<crate::runtime::Observed> {
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let tick = tokio::time::timeout_at(until, changes.next()).await;
        assert!(matches!(tick, Ok(Some(()))), "{on}: no tick for {what}");
        let listed = rt.list(sel).await.unwrap();
        if done(&listed) {
            return listed;
        }
    }
}

/// What podrun relies on in a container's life, on every engine: its infra image loads and
/// runs; `changes` ticks on create, start, exit and removal; the list right after the exit
/// shows it (Podman's transient `stopped` state is waited out); a second create of the name is
/// `Conflict`; killing a container that is not running is fine.
#[tokio::test]
async fn a_containers_life_as_podrun_sees_it_on_each_engine() {
    for (host, rt) in engines("pod::e2e_tests::a_containers_life_as_podrun_sees_it_on_each_engine").await {
        let on = host.as_deref().unwrap_or("the default engine");
        let mut made = Made::default();
        made.host.clone_from(&host);
        // Unique beyond the process id: other test runs share the engine (and, with root
        // Podman, its event log), possibly from another pid namespace.
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos();
        let ns = namespace(&format!("life-{nanos}"));
        let sel = Selector { namespace: Some(ns.clone()), pod: None };

        // Loaded again where it is present: the same image, whatever the engine.
        let image = infra_image::default_infra_image();
        rt.load_image(&image, infra_image::image_archive()).await.unwrap();
        assert_eq!(rt.image_user(&image).await.unwrap(), "65535:65535", "{on}");
        let pause = format!("podrun-e2e-pause-{}", std::process::id());
        made.containers.push(pause.clone());
        let id = rt
            .create(&CreateSpec { image: image.clone(), entrypoint: None, cmd: None, ..spec(&pause, &ns, Vec::new()) })
            .await
            .unwrap();
        rt.start(&id).await.unwrap();

        let mut changes = rt.changes(&sel);
        // The stream asks the engine at its first poll: let the subscription reach it. A tick
        // meanwhile can only be someone else's (nothing of this test changed): let it pass.
        let _ = tokio::time::timeout(std::time::Duration::from_millis(500), changes.next()).await;
        let name = format!("podrun-e2e-life-{}-{nanos}", std::process::id());
        made.containers.push(name.clone());
        let exits = CreateSpec {
            entrypoint: Some(vec!["sh".into(), "-c".into()]),
            cmd: Some(vec!["sleep 0.2; exit 3".into()]),
            ..spec(&name, &ns, Vec::new())
        };
        let id = rt.create(&exits).await.unwrap();
        let state_of = |all: &[crate::runtime::Observed]| all.iter().find(|c| c.id == id).map(|c| c.state.clone());
        tick_until(&mut changes, &rt, &sel, on, "create", |all| state_of(all).is_some()).await;
        rt.start(&id).await.unwrap();
        let started = |all: &[crate::runtime::Observed]| !matches!(state_of(all), Some(State::Created) | None);
        let listed = tick_until(&mut changes, &rt, &sel, on, "start", started).await;
        let exited = |all: &[crate::runtime::Observed]| matches!(state_of(all), Some(State::Exited { .. }));
        // The exit's tick merges with the start's when both came before the start's was read.
        let listed =
            if exited(&listed) { listed } else { tick_until(&mut changes, &rt, &sel, on, "die", exited).await };
        let c = listed.iter().find(|c| c.id == id).expect("listed").clone();
        assert!(matches!(c.state, State::Exited { exit_code: 3, .. }), "{on}: {:?}", c.state);
        assert!(matches!(rt.create(&exits).await, Err(RuntimeError::Conflict { .. })), "{on}");
        rt.kill(&c).await.unwrap();
        rt.remove(&c).await.unwrap();
        tick_until(&mut changes, &rt, &sel, on, "remove", |all| state_of(all).is_none()).await;

        let pause = listed.iter().find(|c| c.name == pause).expect("the pause container").clone();
        assert!(pause.is_running(), "{on}: {:?}", pause.state);
        rt.stop(&pause, std::time::Duration::from_secs(5)).await.unwrap();
        let stopped = rt.list(&sel).await.unwrap();
        let pause_state = stopped.iter().find(|c| c.id == pause.id).map(|c| c.state.clone());
        assert!(
            matches!(pause_state, Some(State::Exited { exit_code: 0, .. })),
            "{on}: pause exits 0 on SIGTERM: {pause_state:?}"
        );
        remove_all(&rt, &ns).await;
    }
}
