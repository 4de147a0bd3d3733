//! Lifecycle hooks: postStart and preStop, over HTTP to real sockets, and the start order they impose.

use super::*;

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
