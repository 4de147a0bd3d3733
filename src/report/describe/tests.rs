//! Golden checks: a Pod object and its events, and the text `kubectl describe pod` prints.

use super::describe_pod;
use crate::clock::parse_time;
use crate::pod::events::RecordedEvent;

const POD: &str = r#"{
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "web", "namespace": "shop", "uid": "u1",
    "labels": {"tier": "front", "app": "web"},
    "annotations": {"note": "hi", "kubectl.kubernetes.io/last-applied-configuration": "{}"}},
  "spec": {
    "serviceAccountName": "default", "nodeName": "node1", "priority": 0,
    "initContainers": [{"name": "init", "image": "busybox", "command": ["sh", "-c", "true"]}],
    "containers": [{
      "name": "app", "image": "nginx:1.27",
      "ports": [{"containerPort": 80, "protocol": "TCP", "name": "http"}],
      "args": ["--port", "80"],
      "resources": {"limits": {"memory": "128Mi", "cpu": "500m"}, "requests": {"cpu": "250m"}},
      "readinessProbe": {"httpGet": {"path": "/ready", "port": 80, "scheme": "HTTP"}, "periodSeconds": 5},
      "livenessProbe": {"exec": {"command": ["cat", "/tmp/ok"]}},
      "env": [
        {"name": "MODE", "value": "prod"},
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "token"}}},
        {"name": "POD", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}
      ],
      "volumeMounts": [{"name": "data", "mountPath": "/data"}, {"name": "conf", "mountPath": "/etc/app", "readOnly": true}]
    }],
    "volumes": [
      {"name": "data", "emptyDir": {}},
      {"name": "conf", "configMap": {"name": "app-conf"}}
    ],
    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]
  },
  "status": {
    "phase": "Running", "hostIP": "10.0.0.1", "podIP": "10.88.0.5", "podIPs": [{"ip": "10.88.0.5"}],
    "startTime": "2026-01-01T00:00:00Z", "qosClass": "Burstable",
    "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "False"}],
    "initContainerStatuses": [{"name": "init", "ready": false, "restartCount": 0, "image": "busybox",
      "imageID": "sha256:abc", "containerID": "docker://i1",
      "state": {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": "2026-01-01T00:00:01Z", "finishedAt": "2026-01-01T00:00:02Z"}}}],
    "containerStatuses": [{"name": "app", "ready": false, "restartCount": 2, "image": "nginx:1.27",
      "imageID": "sha256:def", "containerID": "docker://a1",
      "state": {"running": {"startedAt": "2026-01-01T00:01:00Z"}},
      "lastState": {"terminated": {"exitCode": 137, "reason": "Error", "startedAt": "2026-01-01T00:00:03Z", "finishedAt": "2026-01-01T00:00:59Z"}}}]
  }
}"#;

const WANT: &str = "\
Name:             web
Namespace:        shop
Priority:         0
Service Account:  default
Node:             node1/10.0.0.1
Start Time:       Thu, 01 Jan 2026 00:00:00 +0000
Labels:           app=web
                  tier=front
Annotations:      note: hi
Status:           Running
IP:               10.88.0.5
IPs:
  IP:  10.88.0.5
Init Containers:
  init:
    Container ID:  docker://i1
    Image:         busybox
    Image ID:      sha256:abc
    Port:          <none>
    Host Port:     <none>
    Command:
      sh
      -c
      true
    State:          Terminated
      Reason:       Completed
      Exit Code:    0
      Started:      Thu, 01 Jan 2026 00:00:01 +0000
      Finished:     Thu, 01 Jan 2026 00:00:02 +0000
    Ready:          False
    Restart Count:  0
    Environment:    <none>
    Mounts:         <none>
Containers:
  app:
    Container ID:  docker://a1
    Image:         nginx:1.27
    Image ID:      sha256:def
    Port:          80/TCP (http)
    Host Port:     0/TCP
    Args:
      --port
      80
    State:          Running
      Started:      Thu, 01 Jan 2026 00:01:00 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    137
      Started:      Thu, 01 Jan 2026 00:00:03 +0000
      Finished:     Thu, 01 Jan 2026 00:00:59 +0000
    Ready:          False
    Restart Count:  2
    Limits:
      cpu:     500m
      memory:  128Mi
    Requests:
      cpu:      250m
    Liveness:   exec [cat /tmp/ok] delay=0s timeout=1s period=10s #success=1 #failure=3
    Readiness:  http-get http://:80/ready delay=0s timeout=1s period=5s #success=1 #failure=3
    Environment:
      MODE:   prod
      TOKEN:  <set to the key 'token' in secret 'creds'>  Optional: false
      POD:    web (v1:metadata.name)
    Mounts:
      /data from data (rw)
      /etc/app from conf (ro)
Conditions:
  Type          Status
  Initialized   True 
  Ready         False 
Volumes:
  data:
    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
    Medium:     
    SizeLimit:  <unset>
  conf:
    Type:        ConfigMap (a volume populated by a ConfigMap)
    Name:        app-conf
    Optional:    false
QoS Class:       Burstable
Node-Selectors:  <none>
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
Events:
  Type     Reason   Age               From     Message
  ----     ------   ----              ----     -------
  Normal   Pulled   5m                kubelet  Container image \"nginx:1.27\" already present on machine
  Warning  BackOff  10s (x3 over 4m)  kubelet  Back-off restarting failed container app in pod web_shop(u1)
";

fn ev(type_: &str, reason: &str, message: &str, first: &str, last: &str, count: u32) -> RecordedEvent {
    RecordedEvent {
        type_: type_.into(),
        reason: reason.into(),
        message: message.into(),
        field_path: Some("spec.containers{app}".into()),
        first_timestamp: first.into(),
        last_timestamp: last.into(),
        count,
        host: "node1".into(),
    }
}

#[test]
fn a_pod_reads_as_kubectl_describe_prints_it() {
    let pod: serde_json::Value = serde_json::from_str(POD).unwrap();
    let now = parse_time("2026-01-01T00:05:00Z").unwrap();
    let events = [
        ev(
            "Warning",
            "BackOff",
            "Back-off restarting failed container app in pod web_shop(u1)",
            "2026-01-01T00:01:00Z",
            "2026-01-01T00:04:50Z",
            3,
        ),
        ev(
            "Normal",
            "Pulled",
            "Container image \"nginx:1.27\" already present on machine",
            "2026-01-01T00:00:00Z",
            "2026-01-01T00:00:00Z",
            1,
        ),
    ];
    let got = describe_pod(&pod, &events, now);
    let (got_lines, want_lines): (Vec<_>, Vec<_>) = (got.lines().collect(), WANT.lines().collect());
    for (n, (g, w)) in got_lines.iter().zip(&want_lines).enumerate() {
        assert_eq!(g, w, "line {}", n + 1);
    }
    assert_eq!(got, WANT);
}

#[test]
fn a_bare_pod_has_kubectls_placeholders_and_escapes_what_it_prints() {
    let pod = serde_json::json!({"metadata": {"name": "x\u{1b}]0;t", "namespace": "default"}, "status": {"phase": "Pending"}});
    let now = parse_time("2026-01-01T00:05:00Z").unwrap();
    let got = describe_pod(&pod, &[], now);
    assert!(got.starts_with(&format!("{:<14}x\\x1b]0;t\n", "Name:")), "{got}");
    let top = ["Node:", "Labels:", "IPs:"].map(|t| format!("{t:<14}<none>"));
    let bottom = ["Volumes:", "Node-Selectors:", "Events:"].map(|t| format!("{t:<17}<none>"));
    for line in top.iter().chain(&bottom).map(String::as_str).chain(["Containers:"]) {
        assert!(got.lines().any(|l| l == line), "{line:?} not in\n{got}");
    }
    assert!(!got.contains('\u{1b}'));
}

#[test]
fn odd_shapes_never_panic() {
    let now = parse_time("2026-01-01T00:05:00Z").unwrap();
    let odd = [
        serde_json::json!(null),
        serde_json::json!([1, 2]),
        serde_json::json!({"spec": {"containers": [{}, 3, {"name": 5, "ports": [{}], "env": [{"valueFrom": {"fieldRef": {}}}]}]}}),
        serde_json::json!({"spec": {"volumes": [{}, {"emptyDir": null}, {"projected": {"sources": [{}]}}]},
            "status": {"containerStatuses": [{"state": {"terminated": {}}, "lastState": {"terminated": 1}}],
                       "conditions": [{}], "podIPs": [{}]}}),
        serde_json::json!({"metadata": {"labels": {"a": 1}, "ownerReferences": [{"controller": true}]},
            "spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": 1}}, "livenessProbe": {"httpGet": {}}}]}}),
    ];
    for pod in odd {
        let _ = describe_pod(&pod, &[], now);
    }
}
