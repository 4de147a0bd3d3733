//! Images pulled with credentials stay theirs, as under the kubelet's default
//! (KubeletEnsureSecretPulledImages, policy NeverVerifyPreloadedImages), on Docker, Podman and
//! containerd (CRI), against a local registry with authentication: pod A in its namespace pulls
//! the private image with its Secret; then, each in a namespace of its own and each a podrun of
//! its own (the record outlives the process), pod B without a Secret and pod C with a wrong one
//! must pull (IfNotPresent) and fail; pod D under Never fails with ErrImageNeverPull; pod E with
//! the right credentials in another Secret uses the image without a pull. Under the policy
//! NeverVerify, B runs.
//!
//! Podman's service reaches no plain-HTTP registry on 127.0.0.1 (see e2e_fast_fail): there,
//! pod A pulls through Docker with the same state directory, and the image is copied to Podman
//! as it is (the same image id), so B and C fail at the registry Podman cannot reach.

use std::process::{Command, Output, Stdio};

use crate::common::*;
use crate::e2e_images::Registry;

/// One pod `p` of `image` under `policy`, with `secret` (a Secret manifest named `regcred`)
/// as its imagePullSecret.
fn pod(image: &str, policy: &str, secret: Option<String>) -> String {
    let (before, pull) = match secret {
        Some(s) => (s, "  imagePullSecrets: [{name: regcred}]\n"),
        None => (String::new(), ""),
    };
    format!(
        "{before}apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: 1\n{pull}  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: {policy}, command: [sh, -c, '{LOOP}']}}\n"
    )
}

/// `apply` of `manifest` in `ns` on `target` with the state directory `state`.
fn apply_with(target: Target, state: &StateDir, ns: &Namespace, manifest: &str, extra: &[&str]) -> Output {
    let f = TempFile::new("verify.yaml", manifest);
    let mut args: Vec<&str> = match target {
        Target::Engine(Some(host)) => vec!["--host", host],
        Target::Cri(endpoint) => vec!["--runtime-endpoint", endpoint],
        _ => Vec::new(),
    };
    args.extend(["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    args.extend_from_slice(extra);
    podrun_env(&args, None, &[("PODRUN_STATE_DIR", state.path())])
}

/// The image removed from the engine under test when the test ends (Docker's copy goes with
/// the registry).
struct Pulled<'a>(Target<'a>, String);

impl Drop for Pulled<'_> {
    fn drop(&mut self) {
        match self.0 {
            Target::Cri(endpoint) => drop(cri::ctr(endpoint, &["images", "rm", &self.1])),
            Target::Engine(Some(host)) => drop(docker_on(Some(host), &["rmi", "-f", &self.1])),
            _ => {}
        }
    }
}

/// Copies `image` from Docker to the Podman service at `host`, as it is.
fn copy_to_podman(host: &str, image: &str) {
    let mut save = Command::new("docker").args(["save", image]).stdout(Stdio::piped()).spawn().expect("docker save");
    let load = Command::new("docker")
        .args(["-H", host, "load"])
        .stdin(save.stdout.take().expect("its output"))
        .output()
        .expect("docker load");
    let saved = save.wait().expect("docker save");
    assert!(saved.success() && load.status.success(), "load into Podman: {}", String::from_utf8_lossy(&load.stderr));
}

fn pulled(out: &Output) -> bool {
    stderr(out).contains("pulling image")
}

fn verified_per_pod(target: Target, test: &str) {
    let mut reg = Registry::start(test, Some("alice:wonderland"));
    let image = reg.push("priv", Some(("alice", "wonderland")));
    let _pulled = Pulled(target, image.clone());
    let state = StateDir::new(test);
    let right = || Some(reg.pull_secret("alice", "wonderland"));
    let ns = |n: &str| Namespace::for_target(target, &format!("{test}-{n}"));
    let (a, b, c, d, e) = (ns("a"), ns("b"), ns("c"), ns("d"), ns("e"));
    let failing = ["--retries", "1", "--retry-delay", "100ms"];

    let out = match target {
        Target::Engine(Some(host)) => {
            let a = Namespace::on(None, &format!("{test}-a-docker"));
            let out = apply_with(Target::Engine(None), &state, &a, &pod(&image, "IfNotPresent", right()), &[]);
            copy_to_podman(host, &image);
            out
        }
        _ => apply_with(target, &state, &a, &pod(&image, "IfNotPresent", right()), &[]),
    };
    succeeded(&out);
    assert!(pulled(&out), "A pulls with its Secret: {}", stderr(&out));

    let out = apply_with(target, &state, &b, &pod(&image, "IfNotPresent", None), &failing);
    assert_eq!(code(&out), 4, "{}: B, no Secret: {}", target.name(), stderr(&out));
    assert!(pulled(&out) && stderr(&out).contains("ImagePull"), "B pulls and fails: {}", stderr(&out));
    assert!(b.containers().is_empty(), "{:?}", b.containers());

    let wrong = Some(reg.pull_secret("alice", "wrong"));
    let out = apply_with(target, &state, &c, &pod(&image, "IfNotPresent", wrong), &failing);
    assert_eq!(code(&out), 4, "{}: C, a wrong Secret: {}", target.name(), stderr(&out));
    assert!(pulled(&out) && stderr(&out).contains("ImagePull"), "C pulls and fails: {}", stderr(&out));
    assert!(!stderr(&out).contains("wrong"), "credentials never shown");
    assert!(c.containers().is_empty());

    let out = apply_with(target, &state, &d, &pod(&image, "Never", None), &failing);
    assert_eq!(code(&out), 4, "{}: D, Never: {}", target.name(), stderr(&out));
    assert!(stderr(&out).contains("ErrImageNeverPull") && !pulled(&out), "{}", stderr(&out));
    assert!(d.containers().is_empty());

    let out = apply_with(target, &state, &e, &pod(&image, "IfNotPresent", right()), &[]);
    succeeded(&out);
    assert!(!pulled(&out), "E, the same credentials: no pull needed: {}", stderr(&out));

    let never = ["--image-pull-credentials-verification-policy", "NeverVerify"];
    let out = apply_with(target, &state, &b, &pod(&image, "IfNotPresent", None), &never);
    succeeded(&out);
    assert!(!pulled(&out), "NeverVerify: B uses the image as it is: {}", stderr(&out));
}

#[test]
fn docker_images_pulled_with_credentials_are_verified_per_pod() {
    require_engine!();
    verified_per_pod(Target::Engine(None), "verify");
}

#[test]
fn podman_images_pulled_with_credentials_are_verified_per_pod() {
    require_engine!();
    require_podman!(host);
    verified_per_pod(Target::Engine(Some(&host)), "verify-podman");
}

#[test]
fn cri_images_pulled_with_credentials_are_verified_per_pod() {
    require_engine!();
    require_cri!(endpoint);
    verified_per_pod(Target::Cri(&endpoint), "verify-cri");
}
