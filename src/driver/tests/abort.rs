//! `--abort-on-container-exit`: the first app container that ends for good ends the run, its
//! neighbours stopped; one its restart policy starts again does not.

use super::*;

fn aborting() -> DriveOptions {
    DriveOptions { wait_for: Some(WaitFor::Complete), abort_on_exit: true, ..opts(2) }
}

#[tokio::test(start_paused = true)]
async fn an_ended_container_stops_its_neighbours_and_gives_the_outcome() {
    for (code, failed) in [(3, true), (0, false)] {
        let rt = Arc::new(fake().runs_for("a", Duration::from_secs(2), code));
        let start = Instant::now();
        let r = run(&rt, desired("Never", "img:1", "IfNotPresent"), aborting()).await;
        match &r.outcome {
            Err(PodFailure::ContainerFailed { container, .. }) if failed => assert_eq!(container, "a"),
            Ok(()) if !failed => {}
            other => panic!("exit {code}: {other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(10), "exit {code}: b was waited for");
        assert!(rt.containers().iter().all(|c| !c.is_running()), "exit {code}: {:?}", rt.containers());
        let b = r.status.as_ref().and_then(|s| s.container_statuses.iter().find(|c| c.name == "b"));
        assert!(b.is_some_and(|b| b.state.terminated.is_some()), "exit {code}: b stopped: {b:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_container_that_is_restarted_has_not_ended() {
    let rt = Arc::new(fake().exits_on_start("a", 1));
    let r = run(&rt, desired("Always", "img:1", "IfNotPresent"), aborting()).await;
    assert!(matches!(r.outcome, Err(PodFailure::NotConverged { crash_loop: true, .. })), "{:?}", r.outcome);
    assert!(rt.containers().iter().any(|c| c.is_running() && c.name.contains("_b_")), "b left running");
}
