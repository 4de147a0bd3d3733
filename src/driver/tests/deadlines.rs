//! A probe's own grace period, activeDeadlineSeconds, and what the record of a run keeps.

use super::*;

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
