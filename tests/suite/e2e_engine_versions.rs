//! What differs between engine releases, asked of the engine the suite runs on rather than
//! assumed (scripts/test runs it on Debian 12's Docker 20.10, Podman 4.3 and containerd 1.6,
//! and with PODRUN_DEBIAN13=1 on Debian 13's Docker 26.1, Podman 5.4 and containerd 1.7):
//! read-only mounts as the kubelet makes them. A `readOnly` mount is read-only at its top only,
//! its submounts keep their own modes (Docker 25+ would make it recursive unless told not to);
//! `recursiveReadOnly: IfPossible` is recursive where the engine can make it so (Docker API
//! 1.44+, a CRI runtime announcing recursive read-only mounts: containerd 2.0+), plain
//! read-only elsewhere; `Enabled` is recursive there and refused elsewhere, naming the engine
//! and its version, before anything is made.

use std::path::PathBuf;
use std::process::Output;

use crate::common::*;

/// A host directory of the test's own with a tmpfs mounted at `sub` holding a `marker` file;
/// unmounted and removed when dropped.
struct Submounted(PathBuf);

impl Submounted {
    fn new(test: &str) -> Submounted {
        let dir = std::env::temp_dir().join(format!("podrun-rro-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).expect("make the directory");
        let sub = dir.join("sub");
        let mounted = std::process::Command::new("mount").args(["-t", "tmpfs", "podrun-rro"]).arg(&sub).status();
        assert!(mounted.is_ok_and(|s| s.success()), "mount a tmpfs at {}", sub.display());
        std::fs::write(sub.join("marker"), "m").expect("write the marker");
        Submounted(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 path")
    }
}

impl Drop for Submounted {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg("-l").arg(self.0.join("sub")).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether the engine `target` names makes mounts recursively read-only, by its version.
fn engine_makes_recursive_read_only(target: Target) -> bool {
    match target {
        Target::Engine(None) => engine_api(None) >= (1, 44),
        // Podman's compatible API speaks 1.41 and has no such option (4.3, 5.4).
        Target::Engine(Some(_)) | Target::Rootless(_) => false,
        Target::Cri(endpoint) => cri::containerd_at_least(endpoint, 2, 0),
    }
}

/// What podrun says the engine is in a refusal (`Docker Engine 26.1.5+dfsg1`).
fn engine_words(target: Target) -> String {
    match target {
        Target::Engine(host) => {
            let name = if host.is_some() { "Podman Engine" } else { "Docker Engine" };
            format!("{name} {}", engine_version(host))
        }
        Target::Rootless(r) => format!("Podman Engine {}", engine_version(Some(&r.host))),
        Target::Cri(endpoint) => format!("containerd {}", cri::containerd_version(endpoint)),
    }
}

/// A pod of one busybox run of `script` with the directory mounted as `mounts` says.
fn pod(name: &str, dir: &str, mounts: &str, script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  volumes: [{{name: h, hostPath: {{path: {dir}, type: Directory}}}}]\n  \
         containers:\n  - name: c\n    image: busybox:1.28\n    imagePullPolicy: IfNotPresent\n    \
         command: [sh, -c, '{script}']\n    volumeMounts: {mounts}\n"
    )
}

fn apply(target: Target, ns: &Namespace, manifest: &str) -> Output {
    let f = TempFile::new("pod.yaml", manifest);
    target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "90s"].map(str::to_owned))
}

/// The shell test that `at` is read-only at its top, its submount there (the marker), and the
/// submount writable or not as `sub_writable` says.
fn check(at: &str, sub_writable: bool) -> String {
    let sub = if sub_writable { "touch" } else { "! touch" };
    format!("test -f {at}/sub/marker && ! touch {at}/top 2>/dev/null && {sub} {at}/sub/w 2>/dev/null")
}

/// `readOnly` alone leaves the submount writable on every engine; IfPossible makes it
/// read-only where the engine can.
fn read_only_and_if_possible(target: Target, test: &str) {
    let dir = Submounted::new(test);
    let ns = Namespace::for_target(target, test);
    let rro = engine_makes_recursive_read_only(target);
    let mounts = "[{name: h, mountPath: /plain, readOnly: true}, \
                  {name: h, mountPath: /ifp, readOnly: true, recursiveReadOnly: IfPossible}]";
    let script = format!("{} && {}", check("/plain", true), check("/ifp", !rro));
    let o = apply(target, &ns, &pod("ro", dir.path(), mounts, &script));
    assert_eq!(code(&o), 0, "{} (recursive: {rro}): {}{}", target.name(), stdout(&o), stderr(&o));
    let o = target.podrun(&["delete", "ro", "-n", ns.name()].map(str::to_owned));
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
}

/// `recursiveReadOnly: Enabled`: the submount read-only where the engine can make it so;
/// refused before anything is made, naming the engine and its version, elsewhere.
fn enabled(target: Target, test: &str) {
    let dir = Submounted::new(test);
    let ns = Namespace::for_target(target, test);
    let mounts = "[{name: h, mountPath: /rro, readOnly: true, recursiveReadOnly: Enabled}]";
    let o = apply(target, &ns, &pod("rro", dir.path(), mounts, &check("/rro", false)));
    if engine_makes_recursive_read_only(target) {
        assert_eq!(code(&o), 0, "{}: {}{}", target.name(), stdout(&o), stderr(&o));
        let o = target.podrun(&["delete", "rro", "-n", ns.name()].map(str::to_owned));
        assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
        return;
    }
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{}: {err}", target.name());
    let says =
        format!("recursiveReadOnly: Unsupported value: \"Enabled\": the container engine ({}", engine_words(target));
    assert!(err.contains(&says) && err.contains("Docker Engine 25"), "{}: {err}", target.name());
    assert!(ns.containers().is_empty(), "{}: nothing made: {:?}", target.name(), ns.containers());
}

#[test]
fn e2e_engine_versions_read_only_mounts_on_docker() {
    require_engine!();
    read_only_and_if_possible(Target::Engine(None), "ev-ro-docker");
    enabled(Target::Engine(None), "ev-rro-docker");
}

#[test]
fn e2e_engine_versions_read_only_mounts_on_podman() {
    require_podman!(host);
    read_only_and_if_possible(Target::Engine(Some(&host)), "ev-ro-podman");
    enabled(Target::Engine(Some(&host)), "ev-rro-podman");
}

#[test]
fn e2e_engine_versions_read_only_mounts_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    read_only_and_if_possible(Target::Cri(&endpoint), "ev-ro-cri");
    enabled(Target::Cri(&endpoint), "ev-rro-cri");
}
