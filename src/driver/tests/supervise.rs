//! Supervision after the first pass: restarts without end, an engine away, a pod to be tried again.

use super::*;

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
        let task = tokio::spawn(crate::driver::supervise::supervise(
            rt.clone(),
            vec![first],
            crate::driver::supervise::forever(&opts(0)),
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
    assert!(crate::driver::supervise::needs_supervision(&first));
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
    assert!(!crate::driver::supervise::needs_supervision(&done), "Succeeded under Never: nothing to keep");
    let running = run(&Arc::new(fake()), desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    assert!(crate::driver::supervise::needs_supervision(&running));
}

#[tokio::test(start_paused = true)]
async fn a_pod_that_cannot_be_configured_is_supervised_to_be_tried_again() {
    let mut r = run(&Arc::new(fake()), desired("Always", "img:1", "IfNotPresent"), opts(0)).await;
    let cause = crate::pod::env::EnvError { path: "spec.containers[0].env[0]".into(), message: "not found".into() };
    r.outcome = Err(PodFailure::Config {
        container: "a".into(),
        cause: crate::status::outcome::ConfigCause::Env(cause),
        after: String::new(),
    });
    assert!(crate::driver::supervise::needs_supervision(&r), "the host may be mended: tried again");
    r.outcome = Err(PodFailure::DeadlineExceeded { seconds: 1 });
    assert!(!crate::driver::supervise::needs_supervision(&r), "past activeDeadlineSeconds: for good");
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
