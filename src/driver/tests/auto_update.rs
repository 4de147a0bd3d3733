//! `--auto-update` on the fake engine: a moved image restarts its container on the new image
//! id (a pod's other container, pulled IfNotPresent, left alone); one that then crashes is
//! rolled back, and its image is not taken again.

use super::*;
use crate::driver::auto_update::{self, AutoUpdate, Updates};
use crate::driver::supervise;
use crate::runtime::ContainerRuntime;

/// The image the running instance of container `name` was made from.
async fn running_image(rt: &FakeRuntime, name: &str) -> Option<String> {
    let all = rt.list(&crate::runtime::Selector::pod("default", "web")).await.unwrap();
    all.into_iter()
        .find(|c| c.is_running() && c.label(crate::runtime::labels::CONTAINER_NAME) == Some(name))
        .map(|c| c.image)
}

fn creates(rt: &FakeRuntime, name: &str) -> usize {
    rt.calls().iter().filter(|c| matches!(c, Call::Create { name: n } if n.contains(&format!("_{name}_")))).count()
}

#[tokio::test(start_paused = true)]
async fn a_moved_image_restarts_its_container_and_a_crashing_one_is_rolled_back_for_good() {
    let rt = Arc::new(fake().with_pullable("img:2"));
    let state = Arc::new(Updates::new(true));
    let o = DriveOptions { updates: state.clone(), ..opts(0) };
    let d = desired("Always", "img:2", "Always");
    let first = run(&rt, d.clone(), o.clone()).await;
    assert!(first.outcome.is_ok(), "{:?}", first.outcome);
    let (fire, interrupt) = Interrupt::manual();
    let reporter = Arc::new(Recorder::default());
    let sup = tokio::spawn(supervise::supervise(
        rt.clone(),
        vec![first],
        supervise::forever(&o),
        reporter.clone(),
        interrupt,
    ));
    let au = AutoUpdate { every: Duration::from_secs(1), settle: Duration::from_secs(3), state: state.clone() };
    let pulls = Arc::new(crate::driver::pulls::Pulls::new());
    let checker = tokio::spawn(auto_update::keep_current(rt.clone(), vec![d.clone()], au, reporter.clone(), pulls));
    let events = || reporter.events.lock().unwrap().clone();

    tokio::time::sleep(Duration::from_secs(5)).await;
    let (a, b) = (creates(&rt, "a"), creates(&rt, "b"));
    assert_eq!((a, b), (1, 1), "nothing moved: nothing restarted");

    rt.move_image("img:2", "sha256:v2");
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(running_image(&rt, "a").await.as_deref(), Some("sha256:v2"), "{:?}", events());
    assert_eq!(count(&events(), "image img:2 moved from sha256:img:2 to sha256:v2:"), 1, "{:?}", events());
    assert_eq!(count(&events(), "image update to sha256:v2 settled"), 1, "{:?}", events());
    assert_eq!(creates(&rt, "b"), 1, "b is pulled IfNotPresent: left alone");

    // An image whose container crashes at once: rolled back to v2, and v3 is never taken again.
    rt.set_exits_on_start("a", Some(1));
    rt.move_image("img:2", "sha256:v3");
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(count(&events(), "rolled back to sha256:v2; sha256:v3 is not updated to again"), 1, "{:?}", events());
    rt.set_exits_on_start("a", None);
    tokio::time::sleep(Duration::from_secs(20)).await;
    assert_eq!(state.pinned(&d.uid, "a").as_deref(), Some("sha256:v2"));
    assert_eq!(running_image(&rt, "a").await.as_deref(), Some("sha256:v2"), "{:?}", events());
    assert_eq!(count(&events(), "moved from sha256:v2 to sha256:v3"), 1, "not taken again: {:?}", events());

    checker.abort();
    fire.send(Some(15)).unwrap();
    tokio::time::timeout(Duration::from_secs(5), sup).await.expect("a signal ends supervision").unwrap();
}
