//! Volumes as a Kubernetes 1.35 kubelet mounts them, on every local engine (Docker, Podman,
//! containerd through CRI): a relative `mountPath` made absolute (the kubelet's `makeMounts`),
//! and image volumes (the conformance test test/e2e/common/node/image_volume.go, with busybox
//! and alpine images every engine here holds): mounted read-only where the engine can (Podman,
//! Docker API 1.48+, containerd 2.1+), refused before anything is made, naming the engine and
//! its version, where it cannot (Docker 20.10 and 26.1, containerd 1.6 and 1.7). Which one is
//! asked of the engine, so the suite holds on every release it runs on.

use std::process::Output;

use crate::common::*;

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// A pod that runs `script` once, in busybox, with these volumes and mounts (YAML flow lists).
fn once(name: &str, volumes: &str, mounts: &str, script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  \
         terminationGracePeriodSeconds: 1\n  containers:\n  - name: c\n    image: busybox:1.28\n    \
         imagePullPolicy: IfNotPresent\n    command: [sh, -c, '{script}']\n    volumeMounts: {mounts}\n  \
         volumes: {volumes}\n"
    )
}

fn apply(target: Target, ns: &Namespace, manifest: &str) -> Output {
    let f = TempFile::new("pod.yaml", manifest);
    run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "90s"])
}

/// `mountPath: data` and `mountPath: ~/.docker` (a real CI pod's) are mounted at `/data` and
/// `/~/.docker`, as the kubelet joins a relative path to `/`; the container exits 0 only if
/// both are mount points it can write.
fn relative_mount_paths_are_made_absolute(target: Target, ns: &Namespace) {
    let pod = once(
        "rel",
        "[{name: d, emptyDir: {}}, {name: h, emptyDir: {}}]",
        "[{name: d, mountPath: data}, {name: h, mountPath: ~/.docker}]",
        "grep -q \" /data \" /proc/self/mounts && grep -q \" /~/.docker \" /proc/self/mounts && \
         touch /data/ok /~/.docker/config.json",
    );
    let o = apply(target, ns, &pod);
    assert_eq!(code(&o), 0, "{}: {}{}", target.name(), stdout(&o), stderr(&o));
    let o = run(target, &["delete", "rel", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn docker_relative_mount_paths_are_made_absolute() {
    require_engine!();
    let ns = Namespace::new("nv-docker-rel");
    relative_mount_paths_are_made_absolute(Target::Engine(None), &ns);
}

#[test]
fn podman_relative_mount_paths_are_made_absolute() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "nv-podman-rel");
    relative_mount_paths_are_made_absolute(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_relative_mount_paths_are_made_absolute() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "nv-cri-rel");
    relative_mount_paths_are_made_absolute(Target::Cri(&endpoint), &ns);
}

const IMAGE_VOLUME: &str = "[{name: volume, image: {reference: \"alpine:latest\", pullPolicy: IfNotPresent}}]";

/// The conformance test's pod: the image's files at the mount path (the tests' alpine image is
/// a small one of busybox's files), read-only.
fn image_pod() -> String {
    once(
        "imgvol",
        IMAGE_VOLUME,
        "[{name: volume, mountPath: /volume}]",
        "test -x /volume/bin/busybox && grep -q ^root: /volume/etc/passwd && ! touch /volume/x 2>/dev/null && \
         grep \" /volume \" /proc/self/mounts | grep -q \"[ ,]ro[ ,]\"",
    )
}

/// An engine that cannot mount an image refuses the pod before anything is made, naming
/// itself, its version and what would run it.
fn image_volume_is_refused(target: Target, ns: &Namespace, engine: &str) {
    let o = apply(target, ns, &image_pod());
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{}: {err}", target.name());
    assert!(
        err.contains(&format!("an image volume (volume) is not supported by {engine}"))
            && err.contains("run it on Podman, Docker 28.1+, or through the CRI on a runtime with image mounts"),
        "{}: {err}",
        target.name()
    );
    let o = run(target, &["get", "-n", ns.name(), "-o", "name"]);
    assert_eq!(stdout(&o).trim(), "", "{}: nothing made: {}", target.name(), stderr(&o));
}

/// The conformance test's pod runs where the engine mounts images.
fn image_volume_is_mounted(target: Target, ns: &Namespace) {
    let o = apply(target, ns, &image_pod());
    assert_eq!(code(&o), 0, "{}: {}{}", target.name(), stdout(&o), stderr(&o));
    let o = run(target, &["delete", "imgvol", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
}

/// Docker mounts an image from API 1.48 (Engine 28.1); older ones refuse, naming their version.
#[test]
fn docker_image_volume_by_api_version() {
    require_engine!();
    let ns = Namespace::new("nv-docker-img");
    if engine_api(None) >= (1, 48) {
        image_volume_is_mounted(Target::Engine(None), &ns);
    } else {
        image_volume_is_refused(Target::Engine(None), &ns, &format!("Docker Engine {}", engine_version(None)));
    }
}

/// containerd mounts an image from 2.1; older ones refuse, naming their version.
#[test]
fn cri_image_volume_by_containerd_version() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "nv-cri-img");
    if cri::containerd_at_least(&endpoint, 2, 1) {
        image_volume_is_mounted(Target::Cri(&endpoint), &ns);
    } else {
        let engine = format!("containerd {}", cri::containerd_version(&endpoint));
        image_volume_is_refused(Target::Cri(&endpoint), &ns, &engine);
    }
}

/// Rootless Podman mounts the image as root's does: the conformance test's pod runs.
#[test]
fn rootless_podman_mounts_an_image_volume_read_only() {
    require_rootless!(user);
    let target = Target::Rootless(&user);
    let ns = Namespace::for_target(target, "nv-rootless-img");
    let o = apply(target, &ns, &image_pod());
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = run(target, &["delete", "imgvol", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// Podman mounts the image read-only: the conformance test's assertions (the image's files at
/// the mount path), and that the mount cannot be written. A sub-path, which Podman's
/// compatible API would ignore, is refused before anything is made.
#[test]
fn podman_mounts_an_image_volume_read_only() {
    require_podman!(host);
    let target = Target::Engine(Some(&host));
    let ns = Namespace::on(Some(&host), "nv-podman-img");
    let o = apply(target, &ns, &image_pod());
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = run(target, &["delete", "imgvol", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let sub = once("imgsub", IMAGE_VOLUME, "[{name: volume, mountPath: /volume, subPath: etc}]", "true");
    let o = apply(target, &ns, &sub);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "spec.containers[0].volumeMounts[0].subPath: not supported by Podman Engine {}:",
            engine_version(Some(&host))
        )),
        "{}",
        stderr(&o)
    );
    let o = run(target, &["get", "-n", ns.name(), "-o", "name"]);
    assert_eq!(stdout(&o).trim(), "", "nothing made: {}", stderr(&o));
    // The image is made present by its own pull policy before anything is created: under
    // Never, an absent one is the kubelet's ErrImageNeverPull.
    let absent = "[{name: volume, image: {reference: \"podrun-test-absent/none:0\", pullPolicy: Never}}]";
    let never = once("imgnever", absent, "[{name: volume, mountPath: /volume}]", "true");
    let o = apply(target, &ns, &never);
    assert_eq!(code(&o), 4, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("ErrImageNeverPull") || stderr(&o).contains("ErrImageNeverPull"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
    assert!(stderr(&o).contains("podrun-test-absent/none:0") || stdout(&o).contains("podrun-test-absent/none:0"));
}
