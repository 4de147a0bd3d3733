//! Deleting a pod, and runs that meet a removal or a name held by a container podrun did not make.

use super::*;
use crate::runtime::ContainerRuntime;

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

#[tokio::test(start_paused = true)]
async fn containers_with_the_pods_labels_that_podrun_did_not_make_are_named_once_per_run() {
    let rt = Arc::new(fake());
    let d = desired("Always", "img:1", "IfNotPresent");
    // Another state directory's container of the pod, under a name podrun does not give.
    let mut other = rt_observed("podrun_default_web_a_7");
    for (k, v) in [
        (crate::runtime::labels::MANAGED, "true"),
        (crate::runtime::labels::POD_NAMESPACE, "default"),
        (crate::runtime::labels::POD_NAME, "web"),
    ] {
        other.labels.insert(k.into(), v.into());
    }
    rt.insert(other);
    let recorder = Arc::new(Recorder::default());
    let r = run_pod(rt.clone(), d, opts(3), recorder.clone(), Interrupt::never()).await;
    assert!(r.outcome.is_ok(), "{:?}", r.outcome);
    let events = recorder.events.lock().unwrap().clone();
    let named: Vec<&String> = events.iter().filter(|e| e.contains("carry podrun's labels")).collect();
    assert_eq!(named.len(), 1, "once, though the run looked several times: {events:?}");
    assert!(named[0].starts_with("warning 1 container(s) of pod default/web (podrun_default_web_a_7)"), "{}", named[0]);
    assert!(rt.containers().iter().any(|c| c.id == "squatter"), "left alone");
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
        scheme: crate::runtime::IdScheme::default(),
    }
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
