//! The events the driver records, as the kubelet words them, at the moments they happen.

use super::*;
use crate::driver::events::{Events, Memory};
use crate::runtime::ContainerRuntime;

fn recording(retries: u32) -> (DriveOptions, Arc<Memory>) {
    let memory = Arc::new(Memory::default());
    (DriveOptions { events: Events::new(memory.clone()), ..opts(retries) }, memory)
}

#[tokio::test(start_paused = true)]
async fn a_pod_that_starts_records_its_images_creations_and_starts() {
    let rt = Arc::new(fake().with_pullable("img:2"));
    let (o, memory) = recording(10);
    let r = run(&rt, desired("Always", "img:2", "IfNotPresent"), o).await;
    assert_eq!(r.outcome, Ok(()));
    let lines = memory.lines();
    let expect = [
        "Pulling Pulling image \"img:2\" @spec.containers{a}",
        "Pulled Container image \"img:1\" already present on machine @spec.containers{b}",
        "Created Created container: a @spec.containers{a}",
        "Started Started container a @spec.containers{a}",
        "Created Created container: b @spec.containers{b}",
        "Started Started container b @spec.containers{b}",
    ];
    for e in expect {
        assert!(lines.iter().any(|l| l == e), "{e} not in {lines:#?}");
    }
    let pulled = lines.iter().find(|l| l.starts_with("Pulled Successfully pulled image \"img:2\" in ")).unwrap();
    assert!(pulled.contains(" including waiting)."), "{pulled}");
}

#[tokio::test(start_paused = true)]
async fn a_crash_loop_records_each_back_off() {
    let rt = Arc::new(fake().exits_on_start("a", 1));
    let (o, memory) = recording(3);
    run(&rt, desired("Always", "img:1", "IfNotPresent"), o).await;
    let lines = memory.lines();
    let backoffs = lines
        .iter()
        .filter(|l| l.starts_with("BackOff Back-off restarting failed container a in pod web_default("))
        .count();
    assert!(backoffs >= 2, "{lines:#?}");
}

#[tokio::test(start_paused = true)]
async fn an_absent_image_under_never_is_said() {
    let rt = Arc::new(fake());
    let (o, memory) = recording(10);
    run(&rt, desired("Always", "missing:1", "Never"), o).await;
    let lines = memory.lines();
    assert!(lines.contains(
        &"ErrImageNeverPull Container image \"missing:1\" is not present with pull policy of Never @spec.containers{a}"
            .to_owned()
    ));
    assert!(lines.contains(&"Failed Error: ErrImageNeverPull @spec.containers{a}".to_owned()), "{lines:#?}");
}

#[tokio::test(start_paused = true)]
async fn a_stopped_infra_container_is_a_changed_sandbox() {
    use crate::runtime::labels;
    let rt = Arc::new(fake());
    let (o, memory) = recording(10);
    let o = DriveOptions { wait_for: Some(WaitFor::Forever), ..o };
    let running = tokio::spawn({
        let rt = rt.clone();
        async move { run(&rt, desired("Always", "img:1", "IfNotPresent"), o).await }
    });
    let is_infra = |c: &crate::runtime::Observed| c.label(labels::ROLE) == Some("infra");
    until("the pod runs", || rt.containers().iter().filter(|c| c.is_running()).count() == 3).await;
    assert!(!memory.lines().iter().any(|l| l.starts_with("SandboxChanged")), "not at the first start");
    let infra = rt.containers().into_iter().find(is_infra).unwrap();
    rt.kill(&infra).await.unwrap();
    until("the sandbox changed", || {
        memory.lines().contains(&"SandboxChanged Pod sandbox changed, it will be killed and re-created.".to_owned())
    })
    .await;
    running.abort();
}

fn pod(yaml: &str) -> DesiredPod {
    let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
    DesiredPod::from_loaded(&loaded.pods[0], INFRA, None)
}

#[tokio::test(start_paused = true)]
async fn a_failed_liveness_probe_is_unhealthy_then_a_kill_that_restarts() {
    let rt = Arc::new(fake());
    let (o, memory) = recording(1);
    let d = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: a\n    image: img:1\n    livenessProbe: {exec: {command: ['false']}, periodSeconds: 1, failureThreshold: 1}\n");
    run(&rt, d, o).await;
    let lines = memory.lines();
    assert!(lines.iter().any(|l| l.starts_with("Unhealthy Liveness probe failed: ")), "{lines:#?}");
    let kill = "Killing Container a failed liveness probe, will be restarted @spec.containers{a}";
    assert!(lines.iter().any(|l| l == kill), "{lines:#?}");
}

#[tokio::test(start_paused = true)]
async fn the_active_deadline_is_said() {
    let rt = Arc::new(fake().runs_for("a", Duration::from_secs(100), 0));
    let (o, memory) = recording(3);
    let d = pod("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  activeDeadlineSeconds: 2\n  containers:\n  - {name: a, image: 'img:1'}\n");
    run(&rt, d, DriveOptions { wait_for: Some(WaitFor::Forever), ..o }).await;
    let said = "DeadlineExceeded Pod was active on the node longer than the specified deadline".to_owned();
    assert!(memory.lines().contains(&said), "{:#?}", memory.lines());
}
