//! Runs that converge, pull, crash and complete: what the driver creates and starts, and how each run ends.

use super::*;

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
async fn an_invalid_image_name_is_never_pulled_and_creates_nothing() {
    let rt = Arc::new(fake().with_pullable("./myimage"));
    let r = run(&rt, desired("Always", "./myimage", "IfNotPresent"), opts(10)).await;
    let Err(PodFailure::Image { reason, message, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!(reason, "InvalidImageName");
    assert!(message.contains("invalid reference format"), "{message}");
    assert_eq!(crate::exit::for_pod(r.outcome.as_ref().unwrap_err()), 4);
    assert!(rt.containers().is_empty(), "nothing created");
    assert!(!rt.calls().iter().any(|c| matches!(c, Call::Pull { .. })), "never pulled");
}

#[tokio::test(start_paused = true)]
async fn refused_credentials_end_the_run_at_once_after_one_pull() {
    let rt = Arc::new(fake().with_denied("private:1"));
    let r = run(&rt, desired("Always", "private:1", "IfNotPresent"), opts(10)).await;
    let Err(PodFailure::Image { reason, message, .. }) = &r.outcome else { panic!("{:?}", r.outcome) };
    assert_eq!((reason.as_str(), message.as_str()), ("ErrImagePull", "access denied: unauthorized"));
    assert_eq!(crate::exit::for_pod(r.outcome.as_ref().unwrap_err()), 4);
    assert_eq!(rt.calls().iter().filter(|c| matches!(c, Call::Pull { .. })).count(), 1);
    assert!(rt.containers().is_empty());
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
