//! The driver against the recording fake runtime: what it calls, in what order, and how each
//! run ends. Time is paused, so backoff waits cost nothing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use super::*;
use crate::manifest::{load, LoadOptions, Source};
use crate::pod::Hook;
use crate::runtime::fake::{Call, FakeRuntime};
use crate::runtime::RuntimeError;

const INFRA: &str = "localhost/podrun-pause:test";

#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
}

impl Reporter for Recorder {
    fn warning(&self, msg: &str) {
        self.events.lock().unwrap().push(format!("warning {msg}"));
    }
    fn event(&self, _pod: &PodKey, msg: &str) {
        self.events.lock().unwrap().push(msg.to_owned());
    }
    fn note(&self, msg: &str) {
        self.events.lock().unwrap().push(format!("note {msg}"));
    }
    fn pull(&self, _pod: &PodKey, image: &str, event: crate::report::PullEvent) {
        if event == crate::report::PullEvent::Started {
            self.events.lock().unwrap().push(format!("pull {image}"));
        }
    }
    fn status(&self, _pod: &PodKey, _status: &PodStatus) {}
    fn done(&self, _result: &PodResult) {}
    fn finish(&self) {}
}

fn desired(policy: &str, image_a: &str, pull: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  containers:\n  - {{name: a, image: '{image_a}', imagePullPolicy: {pull}}}\n  - {{name: b, image: 'img:1'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

fn opts(retries: u32) -> DriveOptions {
    DriveOptions {
        wait_for: None,
        retries,
        retry_delay: Duration::from_secs(1),
        backoff: 2.0,
        deadline: Instant::now() + Duration::from_secs(300),
        crash: crate::plan::CrashBackoff { base: Duration::from_secs(1), max: Duration::from_secs(30) },
        files: None,
        min_uptime: Duration::from_millis(200),
        pulls: Arc::new(super::pulls::Pulls::new()),
    }
}

async fn run(rt: &Arc<FakeRuntime>, d: DesiredPod, o: DriveOptions) -> PodResult {
    run_pod(rt.clone(), d, o, Arc::new(Recorder::default()), Interrupt::never()).await
}

fn fake() -> FakeRuntime {
    FakeRuntime::new().with_image(INFRA).with_image("img:1")
}

/// The calls that act on containers and images (the engine-side volume calls every pod makes on
/// the fake, which is not local, are left to the volume tests).
fn verbs(rt: &FakeRuntime) -> Vec<Call> {
    let quiet = |c: &Call| {
        matches!(
            c,
            Call::List
                | Call::ImagePresent { .. }
                | Call::EnsureVolume { .. }
                | Call::PutArchive { .. }
                | Call::GetArchive { .. }
                | Call::VolumeMountpoint { .. }
        )
    };
    rt.calls().into_iter().filter(|c| !quiet(c)).collect()
}

#[tokio::test(start_paused = true)]
async fn creates_infra_then_apps_and_converges() {
    let rt = Arc::new(fake());
    let r = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    let calls = verbs(&rt);
    // The infra container is created and started before any app container; the app
    // containers are created concurrently (their order among themselves is not fixed).
    assert_eq!(calls[..2], [Call::create("podrun_default_web_POD_0"), Call::start("id1")]);
    let mut rest = calls[2..].to_vec();
    rest.sort();
    let (a, b) = (Call::create("podrun_default_web_a_0"), Call::create("podrun_default_web_b_0"));
    assert_eq!(rest, [a, b, Call::start("id2"), Call::start("id3")]);
    let st = r.status.unwrap();
    assert_eq!(st.pod_ip.as_deref(), Some("10.0.0.2"));
    // hostIP: the engine host's address on the pod's network, the infra container's gateway.
    assert_eq!((st.host_ip.as_deref(), st.host_ips.len()), (Some("10.0.0.1"), 1));
    assert!(st.container_statuses.iter().all(|c| c.ready));
}

#[tokio::test(start_paused = true)]
async fn a_second_run_changes_nothing() {
    let rt = Arc::new(fake());
    run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(10)).await;
    // Later, with the containers settled.
    tokio::time::advance(Duration::from_secs(5)).await;
    let before = rt.containers();
    let n = rt.calls().len();
    let r = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    assert_eq!(rt.containers(), before);
    assert_eq!(rt.calls()[n..], [Call::List], "one look, no action");
}

#[tokio::test(start_paused = true)]
async fn an_absent_image_under_never_creates_nothing() {
    let rt = Arc::new(fake());
    let r = run(&rt, desired("Always", "missing:1", "Never"), opts(10)).await;
    let Err(PodFailure::Image { reason, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(reason, "ErrImageNeverPull");
    assert!(rt.containers().is_empty(), "no half-created pod");
    assert_eq!(crate::exit::for_pod(r.outcome.as_ref().unwrap_err()), 4);
    let a = &r.status.unwrap().container_statuses[0];
    assert_eq!(a.state.waiting.as_ref().unwrap().reason, "ErrImageNeverPull");
}

#[tokio::test(start_paused = true)]
async fn a_failed_pull_is_exit_4_and_a_good_one_proceeds() {
    let rt = Arc::new(fake());
    let r = run(&rt, desired("Always", "missing:1", "IfNotPresent"), opts(10)).await;
    assert!(matches!(&r.outcome, Err(PodFailure::Image { reason, .. }) if reason == "ErrImagePull"));
    assert!(rt.containers().is_empty());

    let rt = Arc::new(fake().with_pullable("new:1"));
    let r = run(&rt, desired("Always", "new:1", "IfNotPresent"), opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    assert!(rt.calls().contains(&Call::pull("new:1")));
}

#[tokio::test(start_paused = true)]
async fn offline_always_uses_the_local_image() {
    let rt = Arc::new(fake());
    let r = run(&rt, desired("Always", "img:1", "Always"), opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    assert!(rt.calls().contains(&Call::pull("img:1")));
}

fn named(pod: &str, image: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {pod}}}\nspec:\n  containers:\n  - {{name: a, image: '{image}'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

#[tokio::test(start_paused = true)]
async fn the_pods_of_a_run_share_one_pull_and_each_hears_of_it() {
    // `:latest`: Always. Pulls take a while, so the pods' pulls overlap.
    let rt = Arc::new(fake().with_pullable("app:latest").with_pull_time(Duration::from_millis(100)));
    let reporter = Arc::new(Recorder::default());
    let o = opts(10);
    let runs = (0..5).map(|i| {
        let (rt, o, reporter) = (rt.clone(), o.clone(), reporter.clone());
        run_pod(rt, named(&format!("p{i}"), "app:latest"), o, reporter, Interrupt::never())
    });
    let results = futures_util::future::join_all(runs).await;
    assert!(results.iter().all(|r| r.outcome.is_ok()));
    assert_eq!(rt.calls().iter().filter(|c| **c == Call::pull("app:latest")).count(), 1, "{:?}", rt.calls());
    let heard = reporter.events.lock().unwrap().iter().filter(|e| *e == "pull app:latest").count();
    assert_eq!(heard, 5, "every pod reports the pull it waits for");

    // Offline, with a local copy: one failed pull for all, each pod runs on the local image.
    let rt = Arc::new(fake().with_image("app:latest").with_pull_time(Duration::from_millis(100)));
    let o = opts(10);
    let runs = (0..5).map(|i| {
        run_pod(rt.clone(), named(&format!("p{i}"), "app:latest"), o.clone(), reporter.clone(), Interrupt::never())
    });
    let results = futures_util::future::join_all(runs).await;
    assert!(results.iter().all(|r| r.outcome.is_ok()));
    assert_eq!(rt.calls().iter().filter(|c| **c == Call::pull("app:latest")).count(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_failure_under_never_fails_at_once() {
    let rt = Arc::new(fake().exits_on_start("a", 3));
    let start = Instant::now();
    let r = run(&rt, desired("Never", "img:1", "IfNotPresent"), opts(10)).await;
    let Err(PodFailure::ContainerFailed { container, description }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(container, "a");
    assert!(description.contains("exit code 3"), "{description}");
    assert!(start.elapsed() < Duration::from_secs(1), "no waiting out the retries");
    assert_eq!(crate::exit::for_pod(r.outcome.as_ref().unwrap_err()), 6);
}

#[tokio::test(start_paused = true)]
async fn a_crash_loop_exhausts_the_retries_with_backoff() {
    let rt = Arc::new(fake().exits_on_start("a", 1));
    let start = Instant::now();
    let r = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(3)).await;
    let Err(f @ PodFailure::NotConverged { crash_loop: true, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(crate::exit::for_pod(f), 6);
    let creates_of_a = rt.calls().iter().filter(|c| c.creates("podrun_default_web_a_")).count();
    assert_eq!(creates_of_a, 4, "the first start and three repairs");
    // Repairs waited 1 s, 2 s and 4 s, then the next one was refused.
    assert!(start.elapsed() >= Duration::from_secs(7), "{:?}", start.elapsed());
    let a = &r.status.unwrap().container_statuses[0];
    assert_eq!(a.restart_count, 3);
    assert!(a.last_state.terminated.is_some());
    // At most one dead instance is kept beside the current one.
    assert_eq!(rt.containers().iter().filter(|c| c.name.contains("_a_")).count(), 2);
}

#[tokio::test(start_paused = true)]
async fn an_older_dead_instance_is_removed_while_its_successor_starts() {
    let rt = Arc::new(fake().exits_on_start("a", 1).with_remove_time(Duration::from_secs(10)));
    run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(3)).await;
    let calls = rt.timed_calls();
    let (removed_at, _) =
        calls.iter().find(|(_, c)| matches!(c, Call::Remove { .. })).expect("an older instance removed");
    let (started_at, _) = calls
        .iter()
        .find(|(t, c)| t >= removed_at && matches!(c, Call::Start { .. }))
        .expect("a start after the removal began");
    assert!(
        *started_at - *removed_at < Duration::from_secs(10),
        "the successor started {:?} after the removal began: it waited for it",
        *started_at - *removed_at
    );
    // At most one dead instance is kept beside the current one, as before.
    assert_eq!(rt.containers().iter().filter(|c| c.name.contains("_a_")).count(), 2);
    // A restart joins the infra container the look before it saw: no second look to find it.
    let calls = rt.calls();
    let restart =
        |c: &Call| c.creates("podrun_default_web_a_") && !matches!(c, Call::Create { name } if name.ends_with("_0"));
    for (i, _) in calls.iter().enumerate().filter(|(_, c)| restart(c)) {
        let since_look = calls[..i].iter().rev().take_while(|c| !matches!(c, Call::ImagePresent { .. }));
        assert!(since_look.clone().all(|c| *c != Call::List), "{calls:#?}");
    }
}

#[tokio::test(start_paused = true)]
async fn onfailure_completion_is_success_under_complete() {
    let rt = Arc::new(fake().exits_on_start("a", 0).exits_on_start("b", 0));
    let r = run(&rt, desired("OnFailure", "img:1", "IfNotPresent"), opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    assert_eq!(r.status.unwrap().phase, crate::status::Phase::Succeeded);
}

#[tokio::test(start_paused = true)]
async fn the_deadline_ends_a_run_that_cannot_converge() {
    let rt = Arc::new(fake());
    let mut o = opts(10);
    o.wait_for = Some(WaitFor::Complete);
    o.deadline = Instant::now() + Duration::from_secs(30);
    let r = run(&rt, desired("Always", "img:1", "IfNotPresent"), o).await;
    let Err(f @ PodFailure::NotConverged { crash_loop: false, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(crate::exit::for_pod(f), 5);
}

#[tokio::test(start_paused = true)]
async fn an_engine_unreachable_at_the_first_contact_is_exit_3_at_once() {
    let rt = Arc::new(fake().unreachable());
    let reporter = Arc::new(Recorder::default());
    let start = Instant::now();
    let r =
        run_pod(rt.clone(), desired("Always", "img:1", "IfNotPresent"), opts(10), reporter.clone(), Interrupt::never())
            .await;
    let Err(f @ PodFailure::Runtime(RuntimeError::Unreachable { .. })) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(crate::exit::for_pod(f), 3);
    assert_eq!(start.elapsed(), Duration::ZERO, "not waited for: it was never there");
    assert_eq!(rt.calls(), [Call::List]);
    assert!(reporter.events.lock().unwrap().is_empty(), "{:?}", reporter.events.lock().unwrap());
}

/// A pod with an init container (running 4 s) and an app container.
fn with_init(policy: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  initContainers:\n  - {{name: init, image: 'img:1'}}\n  containers:\n  - {{name: a, image: 'img:1'}}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

fn count(events: &[String], needle: &str) -> usize {
    events.iter().filter(|e| e.contains(needle)).count()
}

#[tokio::test(start_paused = true)]
async fn an_engine_restart_mid_run_is_waited_out_and_the_pod_taken_up_again() {
    // Away from 2 s to 5 s: the init container (4 s) dies with it, half-way.
    let rt = Arc::new(
        fake().runs_for("init", Duration::from_secs(4), 0).outage(Duration::from_secs(2), Duration::from_secs(3)),
    );
    let reporter = Arc::new(Recorder::default());
    let start = Instant::now();
    // No retries at all: taking up a pod the engine lost is not a repair of the pod's.
    let r = run_pod(rt.clone(), with_init("Always"), opts(0), reporter.clone(), Interrupt::never()).await;
    assert_eq!(r.outcome, Ok(()));
    let events = reporter.events.lock().unwrap().clone();
    assert_eq!(count(&events, "engine unreachable, retrying"), 1, "once per outage: {events:?}");
    assert_eq!(count(&events, "the engine answers again"), 1, "{events:?}");
    // The lost infra container means a new one, and every container starts over: the init
    // container runs again (4 s) after the engine came back at 5 s, then the app container.
    let creates: Vec<Call> = rt.calls().into_iter().filter(|c| c.creates("")).collect();
    for name in ["POD_0", "POD_1", "init_0", "init_1", "a_0"] {
        assert!(creates.contains(&Call::create(&format!("podrun_default_web_{name}"))), "{name}: {creates:?}");
    }
    let a_1 = Call::create("podrun_default_web_a_1");
    assert!(!creates.contains(&a_1), "the app container had not started: {creates:?}");
    assert!(start.elapsed() >= Duration::from_secs(9), "{:?}", start.elapsed());
    // The engine's events were subscribed to again once it was back.
    assert_eq!(rt.subscriptions(), 2);
    let st = r.status.unwrap();
    let init = &st.init_container_statuses[0];
    assert_eq!(init.state.terminated.as_ref().map(|t| t.exit_code), Some(0), "{init:?}");
    assert!(st.container_statuses[0].state.running.is_some());
}

#[tokio::test(start_paused = true)]
async fn an_engine_that_goes_away_during_an_action_is_waited_for_too() {
    // The engine goes at the app container's create, with the infra container running.
    let rt = Arc::new(fake().outage_at_call(|c| c.creates("podrun_default_web_a_"), Duration::from_secs(3)));
    let reporter = Arc::new(Recorder::default());
    let r =
        run_pod(rt.clone(), desired("Always", "img:1", "IfNotPresent"), opts(10), reporter.clone(), Interrupt::never())
            .await;
    assert_eq!(r.outcome, Ok(()));
    let events = reporter.events.lock().unwrap().clone();
    assert_eq!(count(&events, "engine unreachable, retrying"), 1, "{events:?}");
    assert!(rt.calls().contains(&Call::create("podrun_default_web_POD_1")), "{:?}", rt.calls());
    assert!(rt.containers().iter().filter(|c| c.is_running()).count() == 3);
}

#[tokio::test(start_paused = true)]
async fn an_engine_still_away_at_the_deadline_is_exit_3_and_says_so() {
    let rt = Arc::new(
        fake().runs_for("init", Duration::from_secs(4), 0).outage(Duration::from_secs(2), Duration::from_secs(3600)),
    );
    let reporter = Arc::new(Recorder::default());
    let mut o = opts(10);
    o.deadline = Instant::now() + Duration::from_secs(30);
    let start = Instant::now();
    let r = run_pod(rt.clone(), with_init("Always"), o, reporter.clone(), Interrupt::never()).await;
    let Err(f @ PodFailure::Runtime(RuntimeError::Unreachable { why, .. })) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(crate::exit::for_pod(f), 3);
    assert!(why.to_string().contains("still unreachable at the deadline"), "{why}");
    assert!(f.to_string().starts_with("cannot reach the container engine"), "{f}");
    // Not a moment past the deadline, and the whole budget was used.
    assert_eq!(start.elapsed(), Duration::from_secs(30));
    let events = reporter.events.lock().unwrap().clone();
    assert_eq!(count(&events, "engine unreachable, retrying"), 1, "{events:?}");
    assert_eq!(count(&events, "answers again"), 0, "{events:?}");
    // The best known status is kept.
    assert!(r.status.is_some());
    // Looked at with waits that double up to 2 s, not at every turn: 250 ms, 500 ms, 1 s, then
    // every 2 s for the 28 s it was away; and a few looks before it went.
    let looks = rt.calls().iter().filter(|c| **c == Call::List).count();
    assert!((14..=22).contains(&looks), "{looks} looks");
}

#[tokio::test(start_paused = true)]
async fn an_interrupt_ends_the_wait_for_the_engine() {
    let rt = Arc::new(
        fake().runs_for("init", Duration::from_secs(4), 0).outage(Duration::from_secs(1), Duration::from_secs(3600)),
    );
    let (fire, interrupt) = Interrupt::manual();
    let task =
        tokio::spawn(run_pod(rt.clone(), with_init("Always"), opts(10), Arc::new(Recorder::default()), interrupt));
    tokio::time::sleep(Duration::from_secs(10)).await;
    fire.send(Some(15)).unwrap();
    let r = tokio::time::timeout(Duration::from_secs(3), task).await.expect("ended at once").unwrap();
    assert_eq!(r.outcome, Err(PodFailure::Interrupted(15)));
}

#[tokio::test(start_paused = true)]
async fn delete_removes_apps_then_infra_and_only_owned_containers() {
    let rt = Arc::new(fake());
    run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(10)).await;
    let mut stranger = rt.containers()[1].clone();
    stranger.id = "stranger".into();
    stranger.labels.remove(crate::runtime::labels::MANAGED);
    rt.insert(stranger);
    let n = remove_pod(&*rt, &Selector::pod("default", "web"), None, None, None).await.unwrap();
    assert_eq!(n, 3);
    let left: Vec<String> = rt.containers().into_iter().map(|c| c.id).collect();
    assert_eq!(left, vec!["stranger"]);
    let removes: Vec<Call> = rt.calls().into_iter().filter(|c| matches!(c, Call::Remove { .. })).collect();
    assert_eq!(removes.last(), Some(&Call::remove("id1")), "the infra container goes last");
}

/// A server on loopback that answers every request with `response` and sends each request's
/// head to the test.
async fn http_server(response: &'static str) -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let _ = tx.send(crate::test_support::read_http_head(&mut sock).await);
            let _ = sock.write_all(response.as_bytes()).await;
        }
    });
    (port, rx)
}

fn hooked(policy: &str, lifecycle: &str) -> DesiredPod {
    let yaml = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: {policy}\n  terminationGracePeriodSeconds: 5\n  containers:\n  - name: a\n    image: 'img:1'\n    ports: [{{name: admin, containerPort: 9000}}]\n    lifecycle: {lifecycle}\n"
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

/// No retries, and a deadline a failing test does not wait long for.
fn real_time_opts() -> DriveOptions {
    DriveOptions { deadline: Instant::now() + Duration::from_secs(20), ..opts(0) }
}

// Real time: the hooks speak to real sockets, which a paused clock would time out.
#[tokio::test]
async fn a_post_start_http_hook_is_sent_and_its_status_code_does_not_matter() {
    let (port, mut requests) = http_server("HTTP/1.1 500 Internal Server Error\r\n\r\n").await;
    let rt = Arc::new(fake());
    let d = hooked("Always", &format!("{{postStart: {{httpGet: {{host: 127.0.0.1, port: {port}, path: /started}}}}}}"));
    let r = run(&rt, d, real_time_opts()).await;
    assert_eq!(r.outcome, Ok(()));
    let request = requests.recv().await.unwrap();
    assert!(request.starts_with("GET /started HTTP/1.1\r\n"), "{request}");
    assert!(request.contains("User-Agent: kube-lifecycle/"), "{request}");
    assert!(!rt.calls().iter().any(|c| matches!(c, Call::Kill { .. })), "{:?}", rt.calls());
}

#[tokio::test(start_paused = true)]
async fn app_containers_start_in_order_each_after_the_post_start_hook_before_it() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: a, image: 'img:1'}\n  - name: b\n    image: 'img:1'\n    lifecycle: {postStart: {exec: {command: [hook-b]}}}\n  - {name: c, image: 'img:1'}\n  - {name: d, image: 'img:1'}\n";
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    let d = DesiredPod::from_loaded(&loaded.pods[0], INFRA, None);
    let rt = Arc::new(fake());
    let r = run(&rt, d, opts(0)).await;
    assert_eq!(r.outcome, Ok(()));
    let calls = verbs(&rt);
    let at = |what: &dyn Fn(&Call) -> bool| calls.iter().position(what).unwrap_or_else(|| panic!("{calls:?}"));
    let hook = at(
        &|c| matches!(c, Call::Exec { cmd, .. } | Call::ExecAttach { cmd, .. } if cmd.iter().any(|a| a == "hook-b")),
    );
    for later in ["web_c_", "web_d_"] {
        let create = at(&|c| c.creates(&format!("podrun_default_{later}")));
        assert!(create > hook, "{later} waits for b's hook: {calls:?}");
    }
    assert!(at(&|c| c.creates("podrun_default_web_a_")) < hook, "{calls:?}");
}

#[tokio::test]
async fn a_failed_post_start_http_hook_kills_the_container() {
    // Bound, then released: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let rt = Arc::new(fake());
    let d = hooked("Never", &format!("{{postStart: {{httpGet: {{host: 127.0.0.1, port: {port}}}}}}}"));
    let r = run(&rt, d, real_time_opts()).await;
    let Err(PodFailure::ContainerFailed { container, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(container, "a");
    let killed = rt.containers().into_iter().find(|c| c.label(crate::runtime::labels::CONTAINER_NAME) == Some("a"));
    assert!(rt.calls().contains(&Call::kill(&killed.unwrap().id)), "{:?}", rt.calls());
}

#[tokio::test]
async fn a_pre_stop_http_hook_goes_to_the_pod_ip_before_the_stop() {
    let (port, mut requests) = http_server("HTTP/1.1 404 Not Found\r\n\r\n").await;
    let rt = Arc::new(fake());
    // The port by name, resolved against the container's ports into the label.
    let d =
        hooked("Always", "{preStop: {httpGet: {port: admin, path: /quit, httpHeaders: [{name: X-Why, value: bye}]}}}");
    let d = DesiredPod {
        containers: d
            .containers
            .iter()
            .cloned()
            .map(|mut c| {
                if let Some(Hook::HttpGet(h)) = &mut c.pre_stop {
                    assert_eq!(h.port, 9000);
                    h.port = port;
                }
                c
            })
            .collect(),
        ..d
    };
    assert_eq!(run(&rt, d, real_time_opts()).await.outcome, Ok(()));
    // The pod IP the hook is sent to is read from the infra container when it runs.
    let mut infra =
        rt.containers().into_iter().find(|c| c.label(crate::runtime::labels::ROLE) == Some("infra")).unwrap();
    infra.ip = Some("127.0.0.1".into());
    rt.insert(infra);
    remove_pod(&*rt, &Selector::pod("default", "web"), None, None, None).await.unwrap();
    let request = requests.recv().await.unwrap();
    assert!(request.starts_with("GET /quit HTTP/1.1\r\n"), "{request}");
    assert!(request.contains(&format!("Host: 127.0.0.1:{port}\r\n")), "{request}");
    assert!(request.contains("X-Why: bye\r\n"), "{request}");
    assert!(rt.containers().is_empty());
}

/// `supervise` of a first pass's result, running in a task until `stop`.
struct Supervising {
    fire: tokio::sync::watch::Sender<Option<i32>>,
    reporter: Arc<Recorder>,
    task: tokio::task::JoinHandle<bool>,
}

impl Supervising {
    fn start(rt: &Arc<FakeRuntime>, first: PodResult) -> Supervising {
        let (fire, interrupt) = Interrupt::manual();
        let reporter = Arc::new(Recorder::default());
        let task = tokio::spawn(super::supervise::supervise(
            rt.clone(),
            vec![first],
            super::supervise::forever(&opts(0)),
            reporter.clone(),
            interrupt,
        ));
        Supervising { fire, reporter, task }
    }

    /// Sends SIGTERM's number and waits for supervision to end.
    async fn stop(self) {
        self.fire.send(Some(15)).unwrap();
        tokio::time::timeout(Duration::from_secs(5), self.task).await.expect("a signal ends supervision").unwrap();
    }
}

#[tokio::test(start_paused = true)]
async fn supervision_keeps_restarting_a_crashing_container_until_a_signal() {
    let rt = Arc::new(fake().exits_on_start("a", 1));
    let first = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    assert!(first.outcome.is_err(), "the first pass gives up on a crash loop: {:?}", first.outcome);
    assert!(super::supervise::needs_supervision(&first));
    let starts = |rt: &FakeRuntime| rt.calls().iter().filter(|c| matches!(c, Call::Start { .. })).count();
    let before = starts(&rt);

    let s = Supervising::start(&rt, first);
    tokio::time::sleep(Duration::from_secs(120)).await;
    // CrashLoopBackOff spaces the restarts (1 s, 2 s, 4 s, ... up to 30 s), without end.
    let restarted = starts(&rt) - before;
    assert!((4..=12).contains(&restarted), "{restarted} restarts in 2 minutes");
    assert!(!s.task.is_finished());
    s.stop().await;
}

#[tokio::test(start_paused = true)]
async fn a_finished_pod_is_not_supervised() {
    let rt = Arc::new(fake().exits_on_start("a", 0).exits_on_start("b", 0));
    let mut o = opts(0);
    o.wait_for = Some(WaitFor::Complete);
    let done = run(&rt, desired("Never", "img:1", "IfNotPresent"), o).await;
    assert_eq!(done.outcome, Ok(()));
    assert!(!super::supervise::needs_supervision(&done), "Succeeded under Never: nothing to keep");
    let running = run(&Arc::new(fake()), desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    assert!(super::supervise::needs_supervision(&running));
}

#[tokio::test(start_paused = true)]
async fn a_pod_that_cannot_be_configured_is_supervised_to_be_tried_again() {
    let mut r = run(&Arc::new(fake()), desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    r.outcome = Err(PodFailure::Config {
        container: "a".into(),
        message: "hostPath /x: not a directory".into(),
        after: String::new(),
    });
    assert!(super::supervise::needs_supervision(&r), "the host may be mended: tried again");
    r.outcome = Err(PodFailure::DeadlineExceeded { seconds: 1 });
    assert!(!super::supervise::needs_supervision(&r), "past activeDeadlineSeconds: for good");
}

#[tokio::test(start_paused = true)]
async fn supervision_waits_out_an_engine_restart_and_takes_the_pod_up_again() {
    // Away from 10 s to 30 s, long after the first pass.
    let rt = Arc::new(fake().outage(Duration::from_secs(10), Duration::from_secs(20)));
    let first = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    assert_eq!(first.outcome, Ok(()));
    let s = Supervising::start(&rt, first);
    tokio::time::sleep(Duration::from_secs(60)).await;
    let events = s.reporter.events.lock().unwrap().clone();
    assert_eq!(count(&events, "engine unreachable, retrying ("), 1, "no deadline to name: {events:?}");
    assert_eq!(count(&events, "the engine answers again"), 1, "{events:?}");
    assert_eq!(count(&events, "supervising it again"), 0, "the driver itself waited: {events:?}");
    assert!(rt.calls().contains(&Call::create("podrun_default_web_POD_1")), "{:?}", rt.calls());
    assert_eq!(rt.containers().iter().filter(|c| c.is_running()).count(), 3);
    s.stop().await;
}

#[tokio::test(start_paused = true)]
async fn supervision_that_begins_while_the_engine_is_away_begins_when_it_is_back() {
    let rt = Arc::new(fake().outage(Duration::from_secs(5), Duration::from_secs(10)));
    let first = run(&rt, desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    assert_eq!(first.outcome, Ok(()));
    // Supervision takes over with the engine away: its driver's first look fails.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let s = Supervising::start(&rt, first);
    tokio::time::sleep(Duration::from_secs(30)).await;
    let events = s.reporter.events.lock().unwrap().clone();
    assert_eq!(count(&events, "engine unreachable, retrying"), 1, "{events:?}");
    assert_eq!(count(&events, "the engine answers again; supervising the pod again"), 1, "{events:?}");
    assert_eq!(count(&events, "supervising it again in"), 0, "no blind delay: {events:?}");
    assert_eq!(rt.containers().iter().filter(|c| c.is_running()).count(), 3);
    s.stop().await;
}

fn pod(yaml: &str) -> DesiredPod {
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

#[tokio::test(start_paused = true)]
async fn a_probes_own_grace_period_overrides_the_pods_when_the_probe_kills() {
    // kuberuntime_container.go setTerminationGracePeriod: a liveness (or startup) probe's
    // terminationGracePeriodSeconds is the grace of the kill it causes, not the pod's 500 s.
    for (probe, grace) in [("livenessProbe", 3), ("startupProbe", 4)] {
        let rt = Arc::new(fake());
        let d = pod(&format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 500\n  containers:\n  - name: a\n    image: img:1\n    {probe}: {{exec: {{command: ['false']}}, periodSeconds: 1, failureThreshold: 1, terminationGracePeriodSeconds: {grace}}}\n"
        ));
        let r = run(&rt, d, opts(3)).await;
        let a = rt.containers().into_iter().find(|c| c.name == "podrun_default_web_a_0").expect("a");
        assert!(rt.stops().contains(&(a.id.clone(), Duration::from_secs(grace))), "{probe}: {:?}", rt.stops());
        let st = r.status.expect("status");
        let message = st.container_statuses[0].state.terminated.as_ref().and_then(|t| t.message.clone());
        assert!(message.unwrap_or_default().contains("probe failed"), "{probe}: {st:?}");
    }
    // Without one, the pod's grace period applies.
    let rt = Arc::new(fake());
    let d = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 500\n  containers:\n  - name: a\n    image: img:1\n    livenessProbe: {exec: {command: ['false']}, periodSeconds: 1, failureThreshold: 1}\n");
    run(&rt, d, opts(3)).await;
    assert!(rt.stops().iter().any(|(_, g)| *g == Duration::from_secs(500)), "{:?}", rt.stops());
}

fn scratch_files(name: &str) -> (std::path::PathBuf, crate::pod::files::PodFiles) {
    let root = std::env::temp_dir().join(format!("podrun-driver-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    (root.clone(), crate::pod::files::PodFiles::new(root))
}

#[tokio::test(start_paused = true)]
async fn the_active_deadline_kills_the_pod_and_fails_it() {
    // active_deadline.go: activeDeadlineSeconds after the pod's start, its containers are
    // killed and it fails with DeadlineExceeded (exit 6), whatever the restart policy.
    let rt = Arc::new(fake().runs_for("a", Duration::from_secs(100), 0));
    let d = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  restartPolicy: Always\n  activeDeadlineSeconds: 5\n  containers:\n  - {name: a, image: 'img:1'}\n");
    let (root, files) = scratch_files("deadline");
    let began = Instant::now();
    let r =
        run(&rt, d.clone(), DriveOptions { wait_for: Some(WaitFor::Forever), files: Some(files.clone()), ..opts(3) })
            .await;
    assert_eq!(r.outcome, Err(PodFailure::DeadlineExceeded { seconds: 5 }));
    assert_eq!(crate::exit::for_pod(&PodFailure::DeadlineExceeded { seconds: 5 }), crate::exit::CONTAINER_FAILED);
    let waited = began.elapsed();
    assert!(waited >= Duration::from_secs(5) && waited < Duration::from_secs(7), "{waited:?}");
    let st = r.status.expect("status");
    assert_eq!((st.phase, st.reason.as_deref()), (crate::status::Phase::Failed, Some("DeadlineExceeded")));
    assert!(rt.containers().iter().all(|c| !c.is_running()), "every container stopped, the infra one too");
    assert_eq!(rt.containers().len(), 2, "and kept, for status and logs");
    // Counted from the pod's start across runs: a later apply fails at once, creating nothing.
    let n = verbs(&rt).len();
    let again = run(&rt, d, DriveOptions { files: Some(files.clone()), ..opts(3) }).await;
    assert_eq!(again.outcome, Err(PodFailure::DeadlineExceeded { seconds: 5 }));
    assert_eq!(verbs(&rt).len(), n, "{:?}", verbs(&rt));
    let kept = files.read_record(&again.desired.uid).expect("record");
    assert_eq!(kept.reason.as_deref(), Some("DeadlineExceeded"));
    let _ = std::fs::remove_dir_all(root);
}

#[tokio::test(start_paused = true)]
async fn the_record_keeps_the_last_readiness_and_the_containers_to_come() {
    let rt = Arc::new(fake());
    let d = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: a\n    image: img:1\n    readinessProbe: {exec: {command: ['false']}, periodSeconds: 1}\n  - {name: b, image: 'img:1'}\n");
    let (root, files) = scratch_files("record");
    let r = run(&rt, d, DriveOptions { wait_for: Some(WaitFor::Running), files: Some(files.clone()), ..opts(3) }).await;
    assert_eq!(r.outcome, Ok(()));
    let kept = files.read_record(&r.desired.uid).expect("record");
    let names: Vec<(&str, bool)> = kept.containers.iter().map(|c| (c.name.as_str(), c.probed)).collect();
    assert_eq!(names, [("a", true), ("b", false)]);
    let a = rt.containers().into_iter().find(|c| c.name == "podrun_default_web_a_0").expect("a");
    assert_eq!(kept.ready.get(&a.id), Some(&false), "its readiness probe never passed");
    assert_eq!(kept.ready.len(), 1, "only probed containers: {:?}", kept.ready);
    let _ = std::fs::remove_dir_all(root);
}

const LIVE_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: live, labels: {tier: one}}\nspec:\n  containers:\n  - name: a\n    image: 'img:1'\n    volumeMounts:\n    - {name: conf, mountPath: /etc/conf}\n    - {name: creds, mountPath: /etc/creds}\n    - {name: info, mountPath: /etc/info}\n    - {name: mem, mountPath: /mem}\n    - {name: scratch, mountPath: /scratch}\n  volumes:\n  - {name: conf, configMap: {name: conf}}\n  - {name: creds, secret: {secretName: creds}}\n  - {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}\n  - {name: mem, emptyDir: {medium: Memory}}\n  - {name: scratch, emptyDir: {}}\n";

fn live(greeting: &str, tier: &str) -> DesiredPod {
    let yaml = format!(
        "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: conf}}\ndata: {{greeting: {greeting}}}\n---\napiVersion: v1\nkind: Secret\nmetadata: {{name: creds}}\nstringData: {{token: s3cret}}\n",
        LIVE_POD.replace("tier: one", &format!("tier: {tier}"))
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    let mut d = DesiredPod::from_loaded(&loaded.pods[0], INFRA, None);
    d.configs = Arc::new(loaded.configs.clone());
    d
}

fn infra_id(rt: &FakeRuntime) -> String {
    rt.containers().into_iter().find(|c| c.name.contains("_POD_")).unwrap().id
}

/// The current data directory of a volume the fake holds, and one file's entry in it.
fn data_file(rt: &FakeRuntime, volume: &str, file: &str) -> (String, crate::runtime::fake::FakeEntry) {
    use crate::runtime::fake::FakeEntry;
    let infra = infra_id(rt);
    let root = format!("/.podrun/volumes/{volume}");
    let Some(FakeEntry::Link { target }) = rt.file(&infra, &format!("{root}/..data")) else { panic!("no ..data link") };
    assert_eq!(
        rt.file(&infra, &format!("{root}/{file}")),
        Some(FakeEntry::Link { target: format!("..data/{file}") }),
        "{file} links into ..data"
    );
    (target.clone(), rt.file(&infra, &format!("{root}/{target}/{file}")).unwrap())
}

#[tokio::test(start_paused = true)]
async fn volumes_on_an_engine_that_is_not_local_are_engine_volumes_filled_through_the_infra_container() {
    use crate::runtime::fake::FakeEntry;
    let rt = Arc::new(fake());
    let d = live("hello", "one");
    let uid = d.uid.clone();
    let r = run(&rt, d, opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    let names: Vec<String> = rt.volumes().into_keys().collect();
    let v = |n: &str| format!("podrun-{uid}-{n}");
    let mut want = vec![v("conf"), v("creds"), v("info"), v("mem"), v("scratch"), format!("podrun-{uid}_termination")];
    want.sort();
    assert_eq!(names, want);
    // Secrets and Memory emptyDirs never reach the engine's disk.
    assert_eq!(rt.tmpfs_volumes(), [v("creds"), v("mem")].into_iter().collect());
    assert_eq!(rt.volumes()[&v("conf")][crate::runtime::labels::POD_UID], uid);
    // The kubelet's layout: ..data to a timestamped directory, a link per key.
    let (dir, greeting) = data_file(&rt, "conf", "greeting");
    assert!(dir.starts_with("..") && dir.len() > 30, "{dir}");
    assert_eq!(greeting, FakeEntry::File { mode: 0o644, gid: 0, content: b"hello".to_vec() });
    let (_, token) = data_file(&rt, "creds", "token");
    assert_eq!(token, FakeEntry::File { mode: 0o644, gid: 0, content: b"s3cret".to_vec() });
    let (_, labels) = data_file(&rt, "info", "labels");
    assert!(
        matches!(&labels, FakeEntry::File { content, .. } if String::from_utf8_lossy(content).contains("tier=\"one\"")),
        "{labels:?}"
    );
    // An emptyDir's root: writable by all.
    assert_eq!(rt.file(&infra_id(&rt), "/.podrun/volumes/scratch"), Some(FakeEntry::Dir { mode: 0o777, gid: 0 }));

    // A re-apply with the same content writes nothing.
    tokio::time::advance(Duration::from_secs(5)).await;
    let n = rt.calls().len();
    assert_eq!(run(&rt, live("hello", "one"), opts(10)).await.outcome, Ok(()));
    assert!(!rt.calls()[n..].iter().any(|c| matches!(c, Call::PutArchive { .. })), "{:?}", &rt.calls()[n..]);

    // Changed ConfigMap content and labels: new files, swapped in, no container made again.
    tokio::time::advance(Duration::from_secs(5)).await;
    let n = rt.calls().len();
    assert_eq!(run(&rt, live("changed", "two"), opts(10)).await.outcome, Ok(()));
    let calls = rt.calls()[n..].to_vec();
    assert!(!calls.iter().any(|c| matches!(c, Call::Create { .. } | Call::Remove { .. })), "{calls:?}");
    let (new_dir, greeting) = data_file(&rt, "conf", "greeting");
    assert_ne!(new_dir, dir);
    assert!(matches!(greeting, FakeEntry::File { content, .. } if content == b"changed"));
    let (_, labels) = data_file(&rt, "info", "labels");
    assert!(
        matches!(&labels, FakeEntry::File { content, .. } if String::from_utf8_lossy(content).contains("tier=\"two\"")),
        "{labels:?}"
    );

    // The pod's own volumes go with it.
    remove_pod(&*rt, &Selector::pod("default", "live"), None, None, None).await.unwrap();
    assert!(rt.volumes().is_empty(), "{:?}", rt.volumes());
}

#[tokio::test(start_paused = true)]
async fn a_termination_message_is_read_back_through_the_engine() {
    let rt = fake();
    assert_eq!(read_engine_message(&rt, "c1", "/dev/termination-log").await, None);
    // The last 4096 bytes, as the kubelet reads the file.
    rt.write_file("c1", "/dev/termination-log", format!("{}{}", "x".repeat(5000), "y".repeat(4000)).as_bytes());
    let want = format!("{}{}", "x".repeat(96), "y".repeat(4000));
    assert_eq!(read_engine_message(&rt, "c1", "/dev/termination-log").await, Some(want));
}

#[tokio::test(start_paused = true)]
async fn a_name_held_by_a_container_podrun_did_not_make_is_retried_with_backoff_and_left_alone() {
    let rt = Arc::new(fake());
    // An older podrun's infra container (podrun's labels, no seal), under the name podrun gives.
    let d = desired("Always", "img:1", "IfNotPresent");
    let mut squatter = rt_observed(&d.container_name("POD", 0));
    squatter.labels.insert(crate::runtime::labels::MANAGED.into(), "true".into());
    rt.insert(squatter);
    let r = run(&rt, d, opts(3)).await;
    assert!(matches!(r.outcome, Err(PodFailure::NotConverged { .. })), "{:?}", r.outcome);
    let creates = rt.calls().into_iter().filter(|c| c.creates("")).count();
    assert_eq!(creates, 4, "one try and three retries, not a busy loop");
    assert_eq!(rt.containers().len(), 1, "the squatter is still there, alone");
}

fn rt_observed(name: &str) -> crate::runtime::Observed {
    crate::runtime::Observed {
        id: "squatter".into(),
        name: name.into(),
        labels: std::collections::BTreeMap::new(),
        image: "img:1".into(),
        image_id: "sha256:1".into(),
        state: crate::runtime::State::Running { started_at: None },
        ip: None,
        gateway: None,
        sealed: false,
    }
}

/// Waits (time paused: at no cost) until `done` holds, at most a simulated minute.
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never: {what}");
}

#[tokio::test(start_paused = true)]
async fn a_pod_deleted_while_the_run_waits_ends_the_run_and_leaves_nothing() {
    use crate::runtime::labels;
    let rt = Arc::new(fake());
    let mut o = opts(10);
    // Containers that never complete: only the deletion ends the run.
    o.wait_for = Some(WaitFor::Complete);
    let d = desired("Always", "img:1", "IfNotPresent");
    let running = tokio::spawn({
        let rt = rt.clone();
        async move { run(&rt, d, o).await }
    });
    let is_infra = |c: &crate::runtime::Observed| c.label(labels::ROLE) == Some("infra");
    until("the pod runs", || rt.containers().iter().filter(|c| c.is_running()).count() == 3).await;
    // Another podrun deletes the pod, members first; the run makes them again meanwhile, after
    // the delete looked, as a kubelet replaces lost containers.
    for c in rt.containers().iter().filter(|c| !is_infra(c)) {
        rt.remove(c).await.unwrap();
    }
    until("the members are made again", || rt.containers().len() == 3).await;
    let infra = rt.containers().into_iter().find(is_infra).unwrap();
    rt.remove(&infra).await.unwrap();
    let r = tokio::time::timeout(Duration::from_secs(30), running).await.expect("the run ends").unwrap();
    let Err(PodFailure::Deleted { by, removed }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert!(by.contains(&infra.id.chars().take(12).collect::<String>()), "{by}");
    assert_eq!(*removed, 2, "the members the run made after the delete looked");
    assert!(rt.containers().is_empty(), "{:?}", rt.containers());
    assert_eq!(crate::exit::for_pod(r.outcome.as_ref().unwrap_err()), crate::exit::DELETED);
}

#[tokio::test(start_paused = true)]
async fn a_run_overtaken_by_a_removal_stops_acting_and_removes_only_what_is_left_of_its_own() {
    use crate::runtime::labels;
    let dir = crate::test_support::TempDir::new("driver-deletion");
    let files = PodFiles::new(&*dir);
    let rt = Arc::new(fake());
    let d = desired("Always", "img:1", "IfNotPresent");
    let uid = d.uid.clone();
    // A removal before the run began is no deletion of what the run makes.
    let earlier = files.begin_deletion(&uid).unwrap();
    files.end_deletion(&uid, &earlier);
    let mut o = opts(10);
    o.wait_for = Some(WaitFor::Complete);
    o.files = Some(files.clone());
    let running = tokio::spawn({
        let rt = rt.clone();
        async move { run(&rt, d, o).await }
    });
    let is_infra = |c: &crate::runtime::Observed| c.label(labels::ROLE) == Some("infra");
    until("the pod runs", || rt.containers().iter().filter(|c| c.is_running()).count() == 3).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(!running.is_finished());
    // A removal begins: it stops the members, then the infra container, and takes its time.
    let id = files.begin_deletion(&uid).unwrap();
    let creates = || rt.calls().iter().filter(|c| c.creates("")).count();
    let before = creates();
    let all = rt.containers();
    for c in all.iter().filter(|c| !is_infra(c)).chain(all.iter().filter(|c| is_infra(c))) {
        rt.stop(c, Duration::ZERO).await.unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(creates(), before, "nothing of the pod being removed is made again: {:?}", rt.calls());
    assert!(!running.is_finished(), "the run waits for the removal to end");
    // It removes all but one member, and ends: the run removes the one left, its own.
    for c in rt.containers().iter().skip(1) {
        rt.remove(c).await.unwrap();
    }
    files.end_deletion(&uid, &id);
    let r = tokio::time::timeout(Duration::from_secs(30), running).await.expect("the run ends").unwrap();
    let Err(PodFailure::Deleted { by, removed }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert!(by.contains("a removal of the whole pod began after this run did"), "{by}");
    assert_eq!(*removed, 1);
    assert!(rt.containers().is_empty(), "{:?}", rt.containers());
}

#[tokio::test(start_paused = true)]
async fn a_supervised_pod_whose_infra_container_is_lost_is_made_again() {
    use crate::runtime::labels;
    let rt = Arc::new(fake());
    let o = DriveOptions { wait_for: Some(WaitFor::Forever), ..opts(10) };
    let running = tokio::spawn({
        let rt = rt.clone();
        async move { run(&rt, desired("Always", "img:1", "IfNotPresent"), o).await }
    });
    let is_infra = |c: &crate::runtime::Observed| c.label(labels::ROLE) == Some("infra");
    until("the pod runs", || rt.containers().iter().filter(|c| c.is_running()).count() == 3).await;
    let infra = rt.containers().into_iter().find(is_infra).unwrap();
    rt.remove(&infra).await.unwrap();
    until("a new infra container", || rt.containers().iter().any(|c| is_infra(c) && c.id != infra.id)).await;
    assert!(!running.is_finished(), "supervision goes on");
    running.abort();
}

#[tokio::test(start_paused = true)]
async fn a_create_still_with_the_engine_when_the_run_is_interrupted_is_counted_as_the_runs() {
    let rt = Arc::new(fake().with_create_time(Duration::from_secs(3)));
    let (fire, interrupt) = Interrupt::manual();
    let running = tokio::spawn({
        let rt = rt.clone();
        let d = desired("Always", "img:1", "IfNotPresent");
        async move { run_pod(rt, d, opts(10), Arc::new(Recorder::default()), interrupt).await }
    });
    // The infra container's create has reached the engine, which takes its time with it.
    until("the infra container's create is sent", || rt.calls().iter().any(|c| c.creates(""))).await;
    fire.send(Some(crate::status::outcome::SIGINT)).unwrap();
    let r = running.await.unwrap();
    assert_eq!(r.outcome, Err(PodFailure::Interrupted(crate::status::outcome::SIGINT)));
    let made: Vec<String> = rt.containers().into_iter().map(|c| c.id).collect();
    assert_eq!(made.len(), 1, "the engine finished the create");
    assert_eq!(r.created, made, "and the run knows it made it, so --cleanup-on-failure removes it");
}
