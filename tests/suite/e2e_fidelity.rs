//! Manifest fidelity end to end: volumes, ConfigMaps and Secrets, ports, security contexts,
//! resources and workload kinds, as a single Kubernetes node would run them.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use crate::common::*;

#[test]
fn e2e_volumes_configs_and_secrets() {
    require_engine!();
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
    succeeded(&out);
    let app = id_of(&ns, "app");
    assert_eq!(exec(&app, "cat /shared/x").trim(), "from-init", "emptyDir shared by init and app");
    assert_eq!(exec(&app, "cat /etc/cfg/nested/hello.txt").trim(), "hello");
    assert_eq!(exec(&app, "ls /etc/cfg").trim(), "nested", "only the listed items");
    assert_eq!(exec(&app, "stat -c %a /etc/cfg/nested/hello.txt").trim(), "600");
    assert_eq!(exec(&app, "cat /etc/sec/password").trim(), "s3cr3t-value");
    assert_eq!(exec(&app, "stat -L -c %a /etc/sec/password").trim(), "400");
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
    require_engine!();
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
    succeeded(&out);
    assert_eq!(exec(&id_of(&ns, "c"), "echo $KEY").trim(), "value");
}

#[test]
fn e2e_claims_are_engine_volumes_that_outlive_the_pod() {
    require_engine!();
    let ns = Namespace::new("claims");
    let claim = format!("data-{}", std::process::id());
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: d, persistentVolumeClaim: {{claimName: {claim}}}}}]\n  containers:\n  - {{name: c, image: 'busybox:1.28', command: [sh, -c, 'echo kept >> /data/f; {LOOP}'], volumeMounts: [{{name: d, mountPath: /data}}]}}\n"
    );
    let f = TempFile::new("pod.yaml", &pod);
    let volume = format!("podrun-{}-{claim}", ns.name());
    for round in 1..=2 {
        let out = podrun(&["apply", f.path(), "-n", ns.name()], None);
        succeeded(&out);
        let id = id_of(&ns, "c");
        wait_until(&format!("the data survived the delete: {round} lines"), Duration::from_secs(10), || {
            let lines = exec(&id, "wc -l < /data/f");
            if lines.trim() == round.to_string() {
                Ok(())
            } else {
                Err(lines)
            }
        });
        let del = podrun(&["delete", f.path(), "-n", ns.name()], None);
        succeeded(&del);
    }
    let exists = || Command::new("docker").args(["volume", "inspect", &volume]).output().unwrap().status.success();
    assert!(exists(), "kept on delete");
    let del = podrun(&["delete", f.path(), "-n", ns.name(), "--delete-volumes"], None);
    succeeded(&del);
    assert!(!exists(), "removed when asked");
}

#[test]
fn e2e_host_ports_security_and_resources() {
    require_engine!();
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
    succeeded(&out);
    // Loopback only, a bounded number of tries.
    wait_until("the hostPort answers on 127.0.0.1", Duration::from_secs(10), || {
        let mut answer = String::new();
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = s.write_all(b"GET / HTTP/1.0\r\n\r\n");
            let _ = s.read_to_string(&mut answer);
        }
        if answer.contains("pong") {
            Ok(())
        } else {
            Err(answer)
        }
    });
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
    require_engine!();
    let ns = Namespace::new("deploy");
    let deployment = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 3\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      terminationGracePeriodSeconds: 1\n      containers:\n      - {{name: c, image: 'busybox:1.28', command: [sh, -c, '{LOOP}']}}\n---\napiVersion: v1\nkind: Service\nmetadata: {{name: web}}\nspec: {{selector: {{app: web}}, ports: [{{port: 80}}]}}\n"
    );
    let out = apply(&ns, &deployment, &[]);
    succeeded(&out);
    assert!(stderr(&out).contains("replicas"), "a warning says one pod runs: {}", stderr(&out));
    assert!(stderr(&out).contains("Service"), "other kinds are named, never silent: {}", stderr(&out));
    assert_eq!(ns.containers().len(), 2, "one pod: infra and one container");
}

#[test]
fn e2e_pod_level_namespaces_names_and_dns() {
    require_engine!();
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
    succeeded(&out);
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
    succeeded(&out);
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
    succeeded(&out);
    let host_name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    assert_eq!(exec(&id_of(&ns, "c"), "hostname").trim(), host_name.trim());
}

#[test]
fn e2e_pods_on_a_user_network_reach_each_other_by_hostname() {
    require_engine!();
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

/// A directory of the test's own that no container may ever see: a marker file, nothing else.
/// The pods below point symbolic links at it; the test only looks at it. Removed when dropped
/// (also as a plain scratch directory, without its marker).
struct Canary(std::path::PathBuf);

impl Canary {
    fn new(test: &str) -> Canary {
        let dir = std::env::temp_dir().join(format!("podrun-canary-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("MARKER"), "canary").unwrap();
        Canary(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn assert_untouched(&self) {
        let names: Vec<_> = std::fs::read_dir(&self.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec!["MARKER"], "nothing was made in the canary");
        assert_eq!(std::fs::read_to_string(self.0.join("MARKER")).unwrap(), "canary");
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The pod's uid, from any of its containers' labels.
fn pod_uid(ns: &Namespace) -> String {
    let (id, _) = ns.containers().into_iter().next().expect("a container of the pod");
    ns.inspect(&id, "{{index .Config.Labels \"io.kubernetes.pod.uid\"}}")
}

/// Whether the host has any sub-path mount point of pod `uid` mounted.
fn sub_path_mounts(uid: &str) -> Vec<String> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    info.lines().filter(|l| l.contains(&format!("{uid}/volume-subpaths"))).map(str::to_owned).collect()
}

/// The container of `ns` named `container` (the newest instance), with its state.
fn instance(ns: &Namespace, container: &str) -> Option<(String, String)> {
    let mut all: Vec<_> = ns.containers().into_iter().filter(|(_, n)| n.contains(&format!("_{container}_"))).collect();
    all.sort_by_key(|(_, n)| n.rsplit('_').next().and_then(|a| a.parse::<u32>().ok()));
    all.pop().map(|(id, _)| {
        let state = ns.inspect(&id, "{{.State.Status}}");
        (id, state)
    })
}

#[test]
fn e2e_a_flipping_symbolic_link_never_gets_a_sub_path_out_of_its_volume() {
    require_engine!();
    let ns = Namespace::new("subpath-race");
    let canary = Canary::new("race");
    // `sub` is by turns a directory, missing, and a link to the canary (on the host, where the
    // engine resolves a mount's source), as fast as busybox can rename.
    let flip = format!(
        "trap \"exit 0\" TERM; mkdir -p /shared/sub; ln -sfn {} /shared/alt; while true; do mv -T /shared/sub \
         /shared/tmp; mv -T /shared/alt /shared/sub; mv -T /shared/sub /shared/alt; mv -T /shared/tmp /shared/sub; \
         done 2>/dev/null",
        canary.path()
    );
    let pod = |round: u32| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: race}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: shared, emptyDir: {{}}}}]\n  containers:\n  - {{name: flipper, image: 'busybox:1.28', command: [sh, -c, '{flip}'], volumeMounts: [{{name: shared, mountPath: /shared}}]}}\n  - {{name: victim, image: 'busybox:1.28', command: [sh, -c, '{LOOP}'], env: [{{name: ROUND, value: '{round}'}}], volumeMounts: [{{name: shared, mountPath: /data, subPath: sub}}]}}\n"
        )
    };
    let (mut mounted, mut refused, mut unsettled) = (0, 0, 0);
    let uid = || pod_uid(&ns);
    // Each round changes the victim's spec, so it is created anew while the flipper flips.
    for round in 0..8 {
        let out = apply(&ns, &pod(round), &["--timeout", "30s"]);
        match code(&out) {
            0 => {
                assert_eq!(instance(&ns, "victim").map(|(_, s)| s).as_deref(), Some("running"));
                assert!(!sub_path_mounts(&uid()).is_empty(), "the victim's sub-path is podrun's mount");
                mounted += 1;
            }
            2 => {
                let err = stderr(&out);
                assert!(
                    err.contains("spec.containers[1].volumeMounts[0].subPath: \"sub\" is a symbolic link"),
                    "{err}"
                );
                refused += 1;
            }
            // The flipper also removes the directory podrun mounted (a rename over an empty
            // one), and then the engine cannot start the victim: a start failure is a
            // termination (StartError, as the kubelet records it), restarted with backoff until
            // the deadline (exit 5) or until the retries run out, a crash loop (exit 6).
            5 => unsettled += 1,
            6 if stderr(&out).contains("StartError") => unsettled += 1,
            c => panic!("round {round}: exit {c}: {}", stderr(&out)),
        }
        // Whatever the outcome, a victim that runs never sees the canary.
        for (id, name) in ns.containers().into_iter().filter(|(_, n)| n.contains("_victim_")) {
            if ns.inspect(&id, "{{.State.Running}}") == "true" {
                let seen = exec(&id, "ls -a /data; test -e /data/MARKER && echo ESCAPED");
                assert!(!seen.contains("MARKER") && !seen.contains("ESCAPED"), "round {round}, {name}: {seen}");
            }
        }
        canary.assert_untouched();
    }
    eprintln!("{mounted} rounds mounted the sub-path, {refused} refused it, {unsettled} did not settle");
    let uid = uid();
    let del = podrun(&["delete", "race", "-n", ns.name(), "--grace-period", "0"], None);
    succeeded(&del);
    assert_eq!(sub_path_mounts(&uid), Vec::<String>::new(), "unmounted with the pod");
    canary.assert_untouched();
}

#[test]
fn e2e_a_container_created_by_an_earlier_run_is_started_only_once_its_sub_path_is_checked_again() {
    require_engine!();
    let ns = Namespace::new("subpath-created");
    let canary = Canary::new("created");
    // The victim's command is not there at first, so the engine creates it and cannot start
    // it: what a podrun stopped between create and start leaves behind.
    let tools_dir = Canary::new("tools");
    std::fs::remove_file(tools_dir.0.join("MARKER")).unwrap();
    let tools = tools_dir.0.clone();
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: created}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: shared, emptyDir: {{}}}}, {{name: tools, hostPath: {{path: {}, type: Directory}}}}]\n  containers:\n  - {{name: helper, image: 'busybox:1.28', command: [sh, -c, '{LOOP}'], volumeMounts: [{{name: shared, mountPath: /shared}}]}}\n  - {{name: victim, image: 'busybox:1.28', command: [/tools/run], volumeMounts: [{{name: shared, mountPath: /data, subPath: sub}}, {{name: tools, mountPath: /tools}}]}}\n",
        tools.display()
    );
    let out = apply(&ns, &pod, &["--wait-for", "none"]);
    let (victim, state) = instance(&ns, "victim").unwrap_or_else(|| panic!("no victim: {}", stderr(&out)));
    assert_eq!(state, "created", "{}", stderr(&out));
    // A container of the pod swaps the sub-path for a link to the canary; the command appears.
    let helper = id_of(&ns, "helper");
    let planted =
        exec(&helper, &format!("mv /shared/sub /shared/old && ln -s {} /shared/sub && echo ok", canary.path()));
    assert_eq!(planted.trim(), "ok");
    std::fs::write(tools.join("run"), format!("#!/bin/sh\nls -a /data > /tools/seen\n{LOOP}\n")).unwrap();
    std::fs::set_permissions(tools.join("run"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("spec.containers[1].volumeMounts[0].subPath: \"sub\" is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert_eq!(ns.inspect(&victim, "{{.State.Status}}"), "created", "not started");
    assert!(!tools.join("seen").exists());
    canary.assert_untouched();
    // Put right, the victim runs, with the sub-path mounted anew: its first start failed (its
    // command was missing), a StartError, so it runs as a new container, as a kubelet's would.
    assert_eq!(
        exec(&helper, "rm /shared/sub && mv /shared/old /shared/sub && touch /shared/sub/mine && echo ok").trim(),
        "ok"
    );
    let out = apply(&ns, &pod, &[]);
    succeeded(&out);
    assert_eq!(instance(&ns, "victim").map(|(_, state)| state), Some("running".to_owned()), "{victim} replaced");
    wait_until("the tool container wrote what it saw", Duration::from_secs(10), || {
        if tools.join("seen").exists() {
            Ok(())
        } else {
            Err(ns.containers())
        }
    });
    let seen = std::fs::read_to_string(tools.join("seen")).unwrap();
    assert!(seen.contains("mine") && !seen.contains("MARKER"), "{seen}");
    canary.assert_untouched();
    drop(ns);
}

#[test]
fn e2e_a_symbolic_link_planted_under_a_sub_path_by_an_init_container_is_refused() {
    require_engine!();
    let ns = Namespace::new("subpath-init");
    let canary = Canary::new("init");
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: planted}}\nspec:\n  terminationGracePeriodSeconds: 1\n  volumes: [{{name: shared, emptyDir: {{}}}}]\n  initContainers:\n  - {{name: plant, image: 'busybox:1.28', command: [sh, -c, 'ln -s {} /shared/a'], volumeMounts: [{{name: shared, mountPath: /shared}}]}}\n  containers:\n  - {{name: app, image: 'busybox:1.28', command: [sh, -c, '{LOOP}'], volumeMounts: [{{name: shared, mountPath: /data, subPath: a/b}}]}}\n",
        canary.path()
    );
    let out = apply(&ns, &pod, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "spec.containers[0].volumeMounts[0].subPath: \"a\" is a symbolic link, and a sub-path is never followed \
             through one: it must stay inside its volume"
        ),
        "{err}"
    );
    assert!(instance(&ns, "app").is_none(), "the app container is never created");
    assert!(ns.containers().is_empty(), "what the run made is removed: {:?}", ns.containers());
    canary.assert_untouched();
}
