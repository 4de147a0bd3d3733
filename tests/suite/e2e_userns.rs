//! Node features of a pod's identity, after Kubernetes' e2e tests: user namespaces
//! (`hostUsers: false`, test/e2e/common/node/security_context.go "should run with user
//! namespaces" and its volume cases) run on rootful Podman and are refused, naming the engine,
//! on Docker, rootless Podman and containerd 1.6; `supplementalGroupsPolicy`
//! (test/e2e/node/security_context.go "SupplementalGroupsPolicy") with an image of the test's
//! own whose /etc/group lists its user in a group of its own (as agnhost's does).

use std::process::Output;

use crate::common::cri::ctr;
use crate::common::*;

/// Reads its volumes and prints its user namespace's mapping; fails when it runs in the host's.
fn userns_pod(name: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  hostUsers: false\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  containers:\n  - name: c\n    image: busybox:latest\n    \
         imagePullPolicy: Never\n    command: [sh, -c, 'set -e; read a b c < /proc/self/uid_map; \
         test \"$a $b $c\" != \"0 0 4294967295\"; cat /cm/k /sec/s; echo w > /scratch/w; cat /scratch/w; \
         echo \"map $a $b $c\"']\n    volumeMounts:\n    - {{name: cm, mountPath: /cm}}\n    \
         - {{name: sec, mountPath: /sec}}\n    - {{name: scratch, mountPath: /scratch}}\n  volumes:\n  \
         - {{name: cm, configMap: {{name: cfg}}}}\n  - {{name: sec, secret: {{secretName: sec}}}}\n  \
         - {{name: scratch, emptyDir: {{}}}}\n---\n"
    )
}

const CONFIGS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {k: from-configmap}\n---\n\
    apiVersion: v1\nkind: Secret\nmetadata: {name: sec}\nstringData: {s: from-secret}\n";

#[test]
fn e2e_userns_pods_run_in_ranges_of_their_own_on_podman() {
    require_engine!();
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "userns");
    let manifest = format!("{}{}{CONFIGS}", userns_pod("a"), userns_pod("b"));
    let f = TempFile::new("pods.yaml", &manifest);
    let out = podrun_on(&host, &["apply", f.path(), "-n", ns.name(), "--timeout", "90s"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut maps = Vec::new();
    for (id, name) in ns.containers().iter().filter(|(_, n)| n.contains("_c_")) {
        let logs = ns.logs(id);
        assert!(logs.contains("from-configmap") && logs.contains("from-secret"), "{name}: {logs}");
        let map = logs.lines().find_map(|l| l.strip_prefix("map ")).unwrap_or_else(|| panic!("{name}: {logs}"));
        let fields: Vec<&str> = map.split_whitespace().collect();
        assert_eq!((fields[0], fields[2]), ("0", "65536"), "{name}: 65536 ids from 0, as the kubelet maps a pod");
        maps.push(fields[1].to_owned());
    }
    assert_eq!(maps.len(), 2, "{:?}", ns.containers());
    assert_ne!(maps[0], maps[1], "two pods, two ranges of host ids");
    // The infra container holds a namespace of its own (Podman shows it as `private`), which
    // the pod's container joined.
    let all = ns.containers();
    for (id, name) in &all {
        let mode = ns.inspect(id, "{{.HostConfig.UsernsMode}}");
        if name.contains("_POD_") {
            assert_eq!(mode, "private", "{name}");
        } else {
            let pod = name.split('_').nth(2).unwrap_or_default();
            let infra = all.iter().find(|(_, n)| n.contains(&format!("_{pod}_POD_"))).expect("its infra container");
            assert_eq!(mode, format!("container:{}", infra.0), "{name}");
        }
    }
}

/// `hostUsers: false` refused before anything is made, naming the engine and what would run it.
fn userns_refused(target: Target, test: &str, says: &[&str]) {
    let ns = Namespace::for_target(target, test);
    let f = TempFile::new("pod.yaml", &format!("{}{CONFIGS}", userns_pod("p")));
    let out = target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"].map(str::to_owned));
    assert_eq!(code(&out), 2, "{}: {}", target.name(), stderr(&out));
    for word in says {
        assert!(stderr(&out).contains(word), "{}: {word}: {}", target.name(), stderr(&out));
    }
    assert!(ns.containers().is_empty(), "{}: nothing created: {:?}", target.name(), ns.containers());
}

#[test]
fn e2e_userns_refused_on_docker_naming_it() {
    require_engine!();
    let says = format!(
        "a user namespace for the pod (hostUsers: false) is not supported by Docker Engine {}:",
        engine_version(None)
    );
    userns_refused(Target::Engine(None), "userns-docker", &[&says, "Podman"]);
}

#[test]
fn e2e_userns_refused_on_containerd_naming_it() {
    require_engine!();
    require_cri!(endpoint);
    userns_refused(
        Target::Cri(&endpoint),
        "userns-cri",
        &["a user namespace for the pod (hostUsers: false) is not supported by containerd"],
    );
}

#[test]
fn e2e_userns_refused_on_rootless_podman() {
    require_engine!();
    require_rootless!(user);
    userns_refused(Target::Rootless(&user), "userns-rootless", &["spec.hostUsers", "the engine is rootless"]);
}

/// busybox whose /etc/passwd has `u` (1000, group 1000) and whose /etc/group lists `u` in
/// `extra` (50000) too, on the target's engine; removed when dropped.
struct GroupImage<'a> {
    target: Target<'a>,
    tag: String,
}

impl<'a> GroupImage<'a> {
    fn build(target: Target<'a>, test: &str) -> GroupImage<'a> {
        let tag = format!("podrun-test-groups-{}-{test}:1", std::process::id());
        let made = GroupImage { target, tag };
        let dir = std::env::temp_dir().join(format!("podrun-groups-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("passwd"), "root:x:0:0:root:/root:/bin/sh\nu:x:1000:1000::/:/bin/sh\n").unwrap();
        std::fs::write(dir.join("group"), "root:x:0:\nu:x:1000:\nextra:x:50000:u\n").unwrap();
        let base = ok(docker_on(None, &["create", "busybox:latest", "true"]));
        for file in ["passwd", "group"] {
            ok(docker_on(None, &["cp", &dir.join(file).to_string_lossy(), &format!("{base}:/etc/{file}")]));
        }
        ok(docker_on(None, &["commit", &base, &made.tag]));
        docker_on(None, &["rm", "-f", &base]);
        if !matches!(target, Target::Engine(None)) {
            let archive = dir.join("image.tar").to_string_lossy().into_owned();
            ok(docker_on(None, &["save", "-o", &archive, &made.tag]));
            match target {
                Target::Cri(endpoint) => ok(ctr(endpoint, &["images", "import", &archive])),
                _ => ok(docker_on(target.host(), &["load", "-i", &archive])),
            };
        }
        let _ = std::fs::remove_dir_all(&dir);
        made
    }
}

impl Drop for GroupImage<'_> {
    fn drop(&mut self) {
        docker_on(None, &["rmi", "-f", &self.tag]);
        match self.target {
            Target::Cri(endpoint) => {
                let _ = ctr(endpoint, &["images", "rm", &format!("docker.io/library/{}", self.tag)]);
            }
            Target::Engine(Some(host)) => {
                docker_on(Some(host), &["rmi", "-f", &self.tag]);
            }
            _ => {}
        }
    }
}

/// The trimmed stdout of a command that must succeed.
fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).trim().to_owned()
}

/// A pod whose container succeeds only when its groups (`id -G`) are `groups`.
fn groups_pod(name: &str, image: &str, policy: &str, run_as_group: &str, groups: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  securityContext: {{runAsUser: 1000,{run_as_group} supplementalGroups: \
         [60000], supplementalGroupsPolicy: {policy}}}\n  containers:\n  - {{name: c, image: '{image}', \
         imagePullPolicy: Never, command: [sh, -c, 'id; test \"$(id -G)\" = \"{groups}\"']}}\n"
    )
}

/// On Docker and Podman: Strict with a runAsGroup runs without the image's /etc/group
/// memberships, Merge (without one) with them; Strict without a runAsGroup is refused.
fn strict_groups(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let image = GroupImage::build(target, test);
    let apply = |manifest: &str| {
        let f = TempFile::new("pod.yaml", manifest);
        target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"].map(str::to_owned))
    };
    let out = apply(&groups_pod("strict", &image.tag, "Strict", " runAsGroup: 1000,", "1000 60000"));
    assert_eq!(code(&out), 0, "Strict on {}: {}", target.name(), stderr(&out));
    let out = apply(&groups_pod("merge", &image.tag, "Merge", "", "1000 50000 60000"));
    assert_eq!(code(&out), 0, "Merge on {}: {}", target.name(), stderr(&out));
    let before = ns.containers();
    let out = apply(&groups_pod("nogroup", &image.tag, "Strict", "", "1000 60000"));
    assert_eq!(code(&out), 2, "Strict without runAsGroup on {}: {}", target.name(), stderr(&out));
    assert!(stderr(&out).contains("spec.containers[0] has no runAsGroup"), "{}", stderr(&out));
    assert_eq!(ns.containers(), before, "nothing created");
}

#[test]
fn e2e_userns_supplemental_groups_policy_on_docker() {
    require_engine!();
    strict_groups(Target::Engine(None), "groups-docker");
}

#[test]
fn e2e_userns_supplemental_groups_policy_on_podman() {
    require_engine!();
    require_podman!(host);
    strict_groups(Target::Engine(Some(&host)), "groups-podman");
}

#[test]
fn e2e_userns_supplemental_groups_strict_refused_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    let target = Target::Cri(&endpoint);
    let ns = Namespace::for_target(target, "groups-cri");
    let f = TempFile::new("pod.yaml", &groups_pod("strict", "busybox:latest", "Strict", " runAsGroup: 1000,", "x"));
    let out = target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"].map(str::to_owned));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let says = "supplementalGroupsPolicy: Strict (SupplementalGroupsPolicy=Strict is not supported in this node) \
                is not supported by containerd";
    assert!(stderr(&out).contains(says), "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}
