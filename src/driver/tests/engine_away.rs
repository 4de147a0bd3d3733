//! An engine that is unreachable at the first contact, restarts in the middle of a run, or is still away at the deadline.

use super::*;

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
