//! What cannot succeed in a one-shot run ends it at once, on Docker, Podman and containerd
//! (CRI): an invalid image reference (InvalidImageName, exit 4, never pulled, nothing created);
//! a tag or repository the tests' local registry does not have (exit 4 after one pull);
//! credentials the registry refuses (exit 4 at once where the engine says so by a status); a
//! registry that answers only after a few seconds is still retried and pulled from; and every
//! missing ConfigMap, Secret and key of the run in one report (exit 2, nothing created).
//!
//! Podman's service reaches no plain-HTTP registry on 127.0.0.1 (see e2e_auto_update), so the
//! registry cases run on Docker and containerd only.

use std::time::{Duration, Instant};

use crate::common::*;
use crate::e2e_images::Registry;

/// A pod `img` of one container running `image`.
fn pod(image: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: img}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: IfNotPresent, command: [sh, -c, '{LOOP}']}}\n"
    )
}

/// `apply` of `manifest` in `ns` on `target`, with `extra`; and how long it took.
fn apply_on(target: Target, ns: &Namespace, manifest: &str, extra: &[&str]) -> (std::process::Output, Duration) {
    let f = TempFile::new("fastfail.yaml", manifest);
    let mut args: Vec<String> = ["apply", f.path(), "-n", ns.name()].map(String::from).to_vec();
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    let started = Instant::now();
    let out = target.podrun(&args);
    (out, started.elapsed())
}

fn pulls(out: &std::process::Output) -> usize {
    stderr(out).matches("pulling image").count()
}

fn invalid_references(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    for (image, why) in [
        ("./myimage", "invalid reference format"),
        ("busybox/UPPER:1", "repository name (busybox/UPPER) must be lowercase"),
        ("busybox@sha256:abc", "invalid reference format"),
    ] {
        let (out, _) = apply_on(target, &ns, &pod(image), &["--timeout", "120s"]);
        let said = stderr(&out);
        assert_eq!(code(&out), 4, "{}: {image}: {said}", target.name());
        assert!(said.contains("InvalidImageName") && said.contains(why), "{image}: {said}");
        assert!(said.contains(&format!("container \"c\": image {image} is not available")), "{said}");
        assert_eq!(pulls(&out), 0, "never pulled: {said}");
        assert!(ns.containers().is_empty(), "nothing created: {:?}", ns.containers());
    }
}

fn missing_configs(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let manifest = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: have}}\ndata: {{a: '1'}}\n---\n{}  volumes:\n  - {{name: v, configMap: {{name: vol-cm}}}}\n  - {{name: s, secret: {{secretName: vol-sec}}}}\n---\n{}",
        pod("busybox").replace(
            "command:",
            "env: [{name: A, valueFrom: {configMapKeyRef: {name: have, key: nokey}}}, {name: B, valueFrom: {secretKeyRef: {name: env-sec, key: b, optional: true}}}], envFrom: [{configMapRef: {name: from-cm}}], volumeMounts: [{name: v, mountPath: /v}, {name: s, mountPath: /s}], command:"
        ),
        pod("busybox")
            .replace("name: img", "name: img2")
            .replace("command:", "env: [{name: C, valueFrom: {secretKeyRef: {name: env-sec, key: c}}}], command:"),
    );
    let (out, _) = apply_on(target, &ns, &manifest, &[]);
    let said = stderr(&out);
    assert_eq!(code(&out), 2, "{}: {said}", target.name());
    let ns_name = ns.name();
    for line in [
        format!("pod {ns_name}/img: spec.containers[0].envFrom[0].configMapRef: ConfigMap {ns_name}/from-cm not found"),
        format!(
            "pod {ns_name}/img: spec.containers[0].env[0].valueFrom.configMapKeyRef: ConfigMap {ns_name}/have has no key \"nokey\""
        ),
        format!("pod {ns_name}/img: spec.volumes[0].configMap.name: ConfigMap {ns_name}/vol-cm not found"),
        format!("pod {ns_name}/img: spec.volumes[1].secret.secretName: Secret {ns_name}/vol-sec not found"),
        format!("pod {ns_name}/img2: spec.containers[0].env[0].valueFrom.secretKeyRef: Secret {ns_name}/env-sec not found"),
    ] {
        assert!(said.contains(&line), "{line}\n{said}");
    }
    assert_eq!(said.matches(" not found").count() + said.matches(" has no key").count(), 5, "{said}");
    assert!(said.contains("supply them in a file given with --config FILE, or set optional: true"), "{said}");
    assert!(ns.containers().is_empty(), "nothing created");
}

/// A tag and a repository the registry does not have: exit 4 after one pull each, well within
/// the deadline.
fn unknown_to_the_registry(target: Target, test: &str) {
    let mut reg = Registry::start(test, None);
    let image = reg.push("fastfail", None);
    let ns = Namespace::for_target(target, test);
    let (repo, _) = image.rsplit_once(':').unwrap();
    for missing in [format!("{repo}:2"), format!("127.0.0.1:{}/nothing-{}:1", reg.port, std::process::id())] {
        let (out, took) = apply_on(target, &ns, &pod(&missing), &["--timeout", "120s"]);
        let said = stderr(&out);
        assert_eq!(code(&out), 4, "{}: {missing}: {said}", target.name());
        assert!(said.contains("ErrImagePull") && said.contains("not found"), "{said}");
        assert_eq!(pulls(&out), 1, "pulled once: {said}");
        assert!(took < Duration::from_secs(60), "ended at once, not at the deadline: {took:?}");
        assert!(ns.containers().is_empty());
    }
}

/// Credentials the registry refuses: Docker passes the registry's 401 on (distribution
/// endpoint), and the run ends at once; containerd gives only the resolver's text (UNKNOWN), so
/// the pull is tried again with backoff until the retries run out.
fn refused_credentials(target: Target, test: &str) {
    let mut reg = Registry::start(test, Some("alice:wonderland"));
    let image = reg.push("private", Some(("alice", "wonderland")));
    let ns = Namespace::for_target(target, test);
    let manifest = format!(
        "{}{}",
        reg.pull_secret("alice", "wrong"),
        pod(&image).replace("  containers:", "  imagePullSecrets: [{name: regcred}]\n  containers:")
    );
    let (out, took) =
        apply_on(target, &ns, &manifest, &["--timeout", "120s", "--retries", "2", "--retry-delay", "100ms"]);
    let said = stderr(&out);
    assert_eq!(code(&out), 4, "{}: {said}", target.name());
    assert!(!said.contains("wrong"), "credentials never shown");
    assert!(took < Duration::from_secs(60), "{took:?}");
    match target {
        Target::Cri(_) => {
            assert!(said.contains("ImagePullBackOff") && pulls(&out) > 1, "retried: {said}");
        }
        _ => {
            assert!(said.contains("ErrImagePull") && said.contains("access denied: unauthorized"), "{said}");
            assert_eq!(pulls(&out), 1, "pulled once: {said}");
        }
    }
    assert!(ns.containers().is_empty());
}

/// Nothing listens on the registry's port when the run starts; the registry comes up a few
/// seconds later, and the pull that is tried again succeeds.
fn a_late_registry(target: Target, test: &str) {
    let mut reg = Registry::start(test, None);
    let image = reg.push("late", None);
    reg.pause();
    let ns = Namespace::for_target(target, test);
    let (out, _) = std::thread::scope(|s| {
        let run = s.spawn(|| apply_on(target, &ns, &pod(&image), &["--timeout", "120s", "--retry-delay", "1s"]));
        std::thread::sleep(Duration::from_secs(4));
        reg.resume();
        run.join().expect("apply")
    });
    let said = stderr(&out);
    drop(ns);
    if let Target::Cri(endpoint) = target {
        cri::ctr(endpoint, &["images", "rm", &image]);
    }
    assert_eq!(code(&out), 0, "{}: {said}", target.name());
    assert!(said.contains("registry unreachable") && said.contains("ImagePullBackOff"), "retried: {said}");
    assert!(said.contains(&format!("pulled image {image}")), "{said}");
}

#[test]
fn docker_invalid_references_fail_at_once() {
    require_engine!();
    invalid_references(Target::Engine(None), "ff-invalid");
}

#[test]
fn podman_invalid_references_fail_at_once() {
    require_engine!();
    require_podman!(host);
    invalid_references(Target::Engine(Some(&host)), "ff-invalid-podman");
}

#[test]
fn cri_invalid_references_fail_at_once() {
    require_engine!();
    require_cri!(endpoint);
    invalid_references(Target::Cri(&endpoint), "ff-invalid-cri");
}

#[test]
fn docker_missing_configs_in_one_report() {
    require_engine!();
    missing_configs(Target::Engine(None), "ff-configs");
}

#[test]
fn podman_missing_configs_in_one_report() {
    require_engine!();
    require_podman!(host);
    missing_configs(Target::Engine(Some(&host)), "ff-configs-podman");
}

#[test]
fn cri_missing_configs_in_one_report() {
    require_engine!();
    require_cri!(endpoint);
    missing_configs(Target::Cri(&endpoint), "ff-configs-cri");
}

#[test]
fn docker_unknown_tag_and_repository_fail_at_once() {
    require_engine!();
    unknown_to_the_registry(Target::Engine(None), "ff-unknown");
}

#[test]
fn cri_unknown_tag_and_repository_fail_at_once() {
    require_engine!();
    require_cri!(endpoint);
    unknown_to_the_registry(Target::Cri(&endpoint), "ff-unknown-cri");
}

#[test]
fn docker_refused_credentials_fail_at_once() {
    require_engine!();
    refused_credentials(Target::Engine(None), "ff-denied");
}

#[test]
fn cri_refused_credentials_are_retried() {
    require_engine!();
    require_cri!(endpoint);
    refused_credentials(Target::Cri(&endpoint), "ff-denied-cri");
}

#[test]
fn docker_a_late_registry_is_retried() {
    require_engine!();
    a_late_registry(Target::Engine(None), "ff-late");
}

#[test]
fn cri_a_late_registry_is_retried() {
    require_engine!();
    require_cri!(endpoint);
    a_late_registry(Target::Cri(&endpoint), "ff-late-cri");
}
