//! Manifest fidelity end to end: volumes, ConfigMaps and Secrets, ports, security contexts,
//! resources and workload kinds, as a single Kubernetes node would run them.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;

#[test]
fn e2e_volumes_configs_and_secrets() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("volumes");
    let manifest = format!(
        r#"apiVersion: v1
kind: ConfigMap
metadata: {{name: app-config}}
data: {{greeting: hello, other: x}}
---
apiVersion: v1
kind: Secret
metadata: {{name: creds}}
stringData: {{password: s3cr3t-value}}
---
apiVersion: v1
kind: Pod
metadata: {{name: vols, labels: {{tier: web}}}}
spec:
  terminationGracePeriodSeconds: 1
  volumes:
  - {{name: shared, emptyDir: {{}}}}
  - {{name: cfg, configMap: {{name: app-config, items: [{{key: greeting, path: nested/hello.txt, mode: 0600}}]}}}}
  - {{name: sec, secret: {{secretName: creds, defaultMode: 0400}}}}
  - {{name: info, downwardAPI: {{items: [{{path: labels, fieldRef: {{fieldPath: metadata.labels}}}}]}}}}
  initContainers:
  - {{name: init, image: 'busybox:1.28', command: [sh, -c, 'echo from-init > /shared/x'], volumeMounts: [{{name: shared, mountPath: /shared}}]}}
  containers:
  - name: app
    image: busybox:1.28
    command: [sh, -c, '{LOOP}']
    env:
    - {{name: PASSWORD, valueFrom: {{secretKeyRef: {{name: creds, key: password}}}}}}
    volumeMounts:
    - {{name: shared, mountPath: /shared}}
    - {{name: cfg, mountPath: /etc/cfg}}
    - {{name: sec, mountPath: /etc/sec, readOnly: true}}
    - {{name: info, mountPath: /etc/info}}
"#
    );
    let out = apply(&ns, &manifest, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let app = id_of(&ns, "app");
    assert_eq!(exec(&app, "cat /shared/x").trim(), "from-init", "emptyDir shared by init and app");
    assert_eq!(exec(&app, "cat /etc/cfg/nested/hello.txt").trim(), "hello");
    assert_eq!(exec(&app, "ls /etc/cfg").trim(), "nested", "only the listed items");
    assert_eq!(exec(&app, "stat -c %a /etc/cfg/nested/hello.txt").trim(), "600");
    assert_eq!(exec(&app, "cat /etc/sec/password").trim(), "s3cr3t-value");
    assert_eq!(exec(&app, "stat -c %a /etc/sec/password").trim(), "400");
    assert!(exec(&app, "touch /etc/cfg/new 2>&1").contains("Read-only"), "configMap volumes are read-only");
    assert_eq!(exec(&app, "cat /etc/info/labels").trim(), "tier=\"web\"");
    assert_eq!(exec(&app, "echo $PASSWORD").trim(), "s3cr3t-value");
    // The secret's value is never in podrun's own output.
    assert!(!stdout(&out).contains("s3cr3t") && !stderr(&out).contains("s3cr3t"));
    let json = apply(&ns, &manifest, &["-o", "json"]);
    assert!(!stdout(&json).contains("s3cr3t"), "nor in -o json");
}

#[test]
fn e2e_a_missing_config_map_is_refused_before_anything_is_created() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("nocfg");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers:\n  - name: c\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n    envFrom: [{{configMapRef: {{name: absent}}}}]\n"
    );
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("absent"), "{}", stderr(&out));
    assert!(ns.containers().is_empty());
    // With --config, the same pod runs.
    let cfg =
        TempFile::new("cfg.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: absent}\ndata: {KEY: value}\n");
    let out = apply(&ns, &pod, &["--config", cfg.path()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(exec(&id_of(&ns, "c"), "echo $KEY").trim(), "value");
}

#[test]
fn e2e_claims_are_engine_volumes_that_outlive_the_pod() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("claims");
    let claim = format!("data-{}", std::process::id());
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, persistentVolumeClaim: {{claimName: {claim}}}}}]\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, 'echo kept >> /data/f; {LOOP}'], volumeMounts: [{{name: d, mountPath: /data}}]}}\n"
    );
    let f = TempFile::new("pod.yaml", &pod);
    let volume = format!("podrun-{}-{claim}", ns.name());
    for round in 1..=2 {
        let out = podrun(&["apply", f.path(), "-n", ns.name()], None);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let id = id_of(&ns, "c");
        let deadline = Instant::now() + Duration::from_secs(10);
        while exec(&id, "wc -l < /data/f").trim() != round.to_string() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(exec(&id, "wc -l < /data/f").trim(), round.to_string(), "the data survived the delete");
        let del = podrun(&["delete", f.path(), "-n", ns.name()], None);
        assert_eq!(code(&del), 0, "{}", stderr(&del));
    }
    let exists = || Command::new("docker").args(["volume", "inspect", &volume]).output().unwrap().status.success();
    assert!(exists(), "kept on delete");
    let del = podrun(&["delete", f.path(), "-n", ns.name(), "--delete-volumes"], None);
    assert_eq!(code(&del), 0, "{}", stderr(&del));
    assert!(!exists(), "removed when asked");
}

#[test]
fn e2e_host_ports_security_and_resources() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("ports");
    // A port of our own, chosen by the kernel, then freed for the pod to publish.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let pod = format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: web}}
spec:
  terminationGracePeriodSeconds: 1
  securityContext: {{runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000]}}
  # The root filesystem is read-only: the server's files go in an emptyDir.
  volumes: [{{name: www, emptyDir: {{}}}}]
  containers:
  - name: srv
    image: busybox:1.28
    command: [sh, -c, 'echo pong > /www/index.html && httpd -f -p 8080 -h /www']
    volumeMounts: [{{name: www, mountPath: /www}}]
    ports: [{{containerPort: 8080, hostPort: {port}, hostIP: 127.0.0.1}}]
    resources: {{limits: {{cpu: 500m, memory: 64Mi}}, requests: {{cpu: 250m, memory: 32Mi}}}}
    securityContext: {{allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {{drop: [ALL]}}}}
"#
    );
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Loopback only, a bounded number of tries.
    let mut answer = String::new();
    for _ in 0..50 {
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = s.write_all(b"GET / HTTP/1.0\r\n\r\n");
            let _ = s.read_to_string(&mut answer);
            if answer.contains("pong") {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answer.contains("pong"), "the hostPort answers on 127.0.0.1: {answer:?}");
    let srv = id_of(&ns, "srv");
    assert_eq!(exec(&srv, "id -u; id -g").split_whitespace().collect::<Vec<_>>(), ["1000", "3000"]);
    assert!(exec(&srv, "id -G").contains("4000"));
    assert!(exec(&srv, "touch /x 2>&1").contains("Read-only"));
    assert_eq!(
        ns.inspect(&srv, "{{.HostConfig.CpuQuota}} {{.HostConfig.CpuPeriod}} {{.HostConfig.CpuShares}} {{.HostConfig.Memory}} {{.HostConfig.MemoryReservation}}"),
        format!("50000 100000 256 {} {}", 64 << 20, 32 << 20)
    );

    // runAsNonRoot against an image that runs as root: refused before anything is created.
    let root = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: root}}\nspec:\n  securityContext: {{runAsNonRoot: true}}\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    let out = apply(&ns, &root, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("runAsNonRoot"), "{}", stderr(&out));
    assert!(!ns.containers().iter().any(|(_, n)| n.contains("_root_")), "nothing created for it");
}

#[test]
fn e2e_workload_templates_run_one_pod() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("deploy");
    let deployment = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 3\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      terminationGracePeriodSeconds: 1\n      containers:\n      - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: web}}\nspec: {{selector: {{app: web}}, ports: [{{port: 80}}]}}\n"
    );
    let out = apply(&ns, &deployment, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("replicas"), "a warning says one pod runs: {}", stderr(&out));
    assert!(stderr(&out).contains("Service"), "other kinds are named, never silent: {}", stderr(&out));
    assert_eq!(ns.containers().len(), 2, "one pod: infra and one container");
}

#[test]
fn e2e_pod_level_namespaces_names_and_dns() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("podlevel");
    let pod = format!(
        r#"apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  terminationGracePeriodSeconds: 1
  shareProcessNamespace: true
  hostname: myhost
  subdomain: sub
  dnsPolicy: None
  dnsConfig: {{nameservers: [192.0.2.53], searches: [example.test], options: [{{name: ndots, value: "2"}}]}}
  containers:
  - {{name: a, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}
  - {{name: b, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}
"#
    );
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let a = id_of(&ns, "a");
    let ps = exec(&a, "ps -o comm");
    assert!(ps.contains("pause"), "shareProcessNamespace: the infra container's process is visible: {ps}");
    assert_eq!(exec(&a, "hostname").trim(), "myhost");
    assert!(exec(&a, "cat /etc/hosts").contains("myhost.sub."), "the FQDN is in /etc/hosts");
    let resolv = exec(&a, "cat /etc/resolv.conf");
    for want in ["nameserver 192.0.2.53", "search example.test", "ndots:2"] {
        assert!(resolv.contains(want), "{want:?} in {resolv}");
    }
    // The host's resolver, to tell what dnsConfig added to it from what was already there.
    let host_rc = std::fs::read_to_string("/etc/resolv.conf").unwrap_or_default();
    let host_servers: Vec<&str> = host_rc
        .lines()
        .filter_map(|l| l.strip_prefix("nameserver"))
        .map(str::trim)
        .filter(|s| !s.starts_with("127.") && *s != "::1")
        .collect();
    for s in &host_servers {
        assert!(!resolv.contains(&format!("nameserver {s}\n")), "dnsPolicy None: only the pod's nameservers: {resolv}");
    }

    // Under the default policy, dnsConfig adds to the host's resolver, as the kubelet does.
    let added = pod.replace("name: p}", "name: d}").replace("  dnsPolicy: None\n", "").replace("name: a,", "name: x,");
    let out = apply(&ns, &added, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let resolv = exec(&id_of(&ns, "x"), "cat /etc/resolv.conf");
    for want in ["nameserver 192.0.2.53", "example.test", "ndots:2"] {
        assert!(resolv.contains(want), "{want:?} in {resolv}");
    }
    for s in host_servers.iter().take(2) {
        assert!(resolv.contains(&format!("nameserver {s}")), "the host's {s} is kept: {resolv}");
    }

    // hostNetwork: the host's network namespace (and its hostname).
    let host = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: h}}\nspec:\n  terminationGracePeriodSeconds: 1\n  hostNetwork: true\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
    );
    let out = apply(&ns, &host, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let host_name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    assert_eq!(exec(&id_of(&ns, "c"), "hostname").trim(), host_name.trim());
}

#[test]
fn e2e_pods_on_a_user_network_reach_each_other_by_hostname() {
    if !engine() {
        return;
    }
    let ns = Namespace::new("network");
    let net = format!("podrun-test-{}", std::process::id());
    assert!(Command::new("docker").args(["network", "create", &net]).output().unwrap().status.success());
    let pod = |name: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n"
        )
    };
    let ok = [pod("alpha"), pod("beta")].iter().all(|p| code(&apply(&ns, p, &["--network", &net])) == 0);
    let beta = ns.containers().into_iter().find(|(_, n)| n.contains("_beta_c_")).map(|(id, _)| id);
    let ping = beta.map(|id| exec(&id, "ping -c 1 -W 2 alpha")).unwrap_or_default();
    drop(ns);
    Command::new("docker").args(["network", "rm", &net]).output().unwrap();
    assert!(ok, "both pods run on the network");
    assert!(ping.contains("1 packets received"), "{ping}");
}
