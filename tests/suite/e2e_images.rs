//! Images end to end, against a real local registry (Debian's docker-registry on 127.0.0.1,
//! started by each test through scripts/registry): pull policies, progress, failures and their
//! backoff, offline fallback, and credentials from imagePullSecrets.

use std::path::PathBuf;
use std::process::Command;

use crate::common::*;

/// A registry of the test's own, stopped (and its images removed) when dropped.
pub(crate) struct Registry {
    dir: PathBuf,
    pub(crate) port: u16,
    images: Vec<String>,
}

fn sh(args: &[&str]) -> std::process::Output {
    Command::new(args[0]).args(&args[1..]).output().unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

impl Registry {
    pub(crate) fn start(test: &str, auth: Option<&str>) -> Registry {
        let dir = std::env::temp_dir().join(format!("podrun-registry-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/registry");
        let port_s = port.to_string();
        let mut args = vec![script, "start", dir.to_str().unwrap(), &port_s];
        if let Some(a) = auth {
            args.extend(["--htpasswd", a]);
        }
        let out = sh(&args);
        assert!(out.status.success(), "registry: {}", String::from_utf8_lossy(&out.stderr));
        Registry { dir, port, images: Vec::new() }
    }

    /// Stops the registry, keeping what was pushed to it: its port answers nothing until
    /// `resume`.
    pub(crate) fn pause(&self) {
        sh(&[concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/registry"), "stop", self.dir.to_str().unwrap()]);
    }

    /// Starts the registry again on its port, with what was pushed before `pause`.
    pub(crate) fn resume(&self) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/registry");
        let out = sh(&[script, "start", self.dir.to_str().unwrap(), &self.port.to_string()]);
        assert!(out.status.success(), "registry: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Pushes the local busybox under `name:tag` in this registry, then forgets it locally so
    /// that podrun has to pull it. Returns the reference.
    pub(crate) fn push(&mut self, name: &str, login: Option<(&str, &str)>) -> String {
        let reference = format!("127.0.0.1:{}/{name}-{}:1", self.port, std::process::id());
        let host = format!("127.0.0.1:{}", self.port);
        assert!(sh(&["docker", "tag", "busybox:1.28", &reference]).status.success());
        if let Some((u, p)) = login {
            assert!(sh(&["docker", "login", &host, "-u", u, "-p", p]).status.success());
        }
        let pushed = sh(&["docker", "push", &reference]);
        if login.is_some() {
            sh(&["docker", "logout", &host]);
        }
        assert!(pushed.status.success(), "push: {}", String::from_utf8_lossy(&pushed.stderr));
        assert!(sh(&["docker", "rmi", &reference]).status.success());
        self.images.push(reference.clone());
        reference
    }

    /// A `kubernetes.io/dockerconfigjson` Secret `regcred` with `user`:`pass` for this registry,
    /// as a manifest document (with its `---`).
    pub(crate) fn pull_secret(&self, user: &str, pass: &str) -> String {
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD;
        let auth = b64.encode(format!("{user}:{pass}"));
        let config = format!(r#"{{"auths":{{"127.0.0.1:{}":{{"auth":"{auth}"}}}}}}"#, self.port);
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata: {{name: regcred}}\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {}\n---\n",
            b64.encode(config)
        )
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        for i in &self.images {
            sh(&["docker", "rmi", "-f", i]);
        }
        sh(&[concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/registry"), "stop", self.dir.to_str().unwrap()]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pod(image: &str, policy: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: img}}\nspec:\n  terminationGracePeriodSeconds: 1\n{extra}  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: {policy}, command: [sh, -c, '{LOOP}']}}\n"
    )
}

#[test]
fn e2e_pull_policies_progress_and_image_ids() {
    require_engine!();
    let ns = Namespace::new("pull");
    let mut reg = Registry::start("pull", None);
    let image = reg.push("busybox", None);

    // Absent under IfNotPresent: pulled, with a start and a done line.
    let out = apply(&ns, &pod(&image, "IfNotPresent", ""), &["-o", "json"]);
    succeeded(&out);
    assert!(stderr(&out).contains(&format!("pulling image {image}")), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("pulled image {image} (")), "size and time: {}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = v["items"][0]["status"]["containerStatuses"][0]["imageID"].as_str().unwrap_or("").to_owned();
    assert!(id.starts_with("docker-pullable://") && id.contains("@sha256:"), "imageID with the digest: {id}");

    // Present under IfNotPresent: no pull.
    podrun(&["delete", "img", "-n", ns.name(), "--grace-period", "0"], None);
    let out = apply(&ns, &pod(&image, "IfNotPresent", ""), &[]);
    succeeded(&out);
    assert!(!stderr(&out).contains("pulling image"), "{}", stderr(&out));

    // Always: pulled even when present; and --pull overrides the manifest.
    podrun(&["delete", "img", "-n", ns.name(), "--grace-period", "0"], None);
    let out = apply(&ns, &pod(&image, "IfNotPresent", ""), &["--pull", "always"]);
    succeeded(&out);
    assert!(stderr(&out).contains("pulling image"), "{}", stderr(&out));

    // -q hides pulls.
    podrun(&["delete", "img", "-n", ns.name(), "--grace-period", "0"], None);
    let out = apply(&ns, &pod(&image, "Always", ""), &["-q"]);
    succeeded(&out);
    assert!(!stderr(&out).contains("pull"), "{}", stderr(&out));
}

#[test]
fn e2e_pull_failures() {
    require_engine!();
    let ns = Namespace::new("pullfail");
    let reg = Registry::start("pullfail", None);

    // An unknown tag can never be pulled: exit 4 at once, ErrImagePull, nothing created.
    let missing = format!("127.0.0.1:{}/nothing-here:1", reg.port);
    let out = apply(&ns, &pod(&missing, "IfNotPresent", ""), &[]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains("ErrImagePull") && stderr(&out).contains("not found"), "{}", stderr(&out));
    assert!(ns.containers().is_empty());

    // A registry that does not answer: tried again with backoff, then exit 4.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let offline = format!("127.0.0.1:{closed}/x:1");
    let out = apply(&ns, &pod(&offline, "IfNotPresent", ""), &["--retries", "2", "--retry-delay", "100ms"]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains("ImagePullBackOff"), "{}", stderr(&out));
    assert!(stderr(&out).contains("registry unreachable"), "{}", stderr(&out));
    assert!(ns.containers().is_empty());

    // Present locally and Always, but the registry does not answer: the local image serves.
    let local = format!("127.0.0.1:{closed}/local-{}:1", std::process::id());
    assert!(sh(&["docker", "tag", "busybox:1.28", &local]).status.success());
    let out = apply(&ns, &pod(&local, "Always", ""), &[]);
    sh(&["docker", "rmi", &local]);
    succeeded(&out);
    assert!(stderr(&out).contains("using the local image"), "{}", stderr(&out));
}

#[test]
fn e2e_pull_secrets() {
    require_engine!();
    let ns = Namespace::new("auth");
    let mut reg = Registry::start("auth", Some("alice:wonderland"));
    let image = reg.push("private", Some(("alice", "wonderland")));
    let secret = |user: &str, pass: &str| reg.pull_secret(user, pass);
    let with = |s: String| format!("{s}{}", pod(&image, "IfNotPresent", "  imagePullSecrets: [{name: regcred}]\n"));

    let out = apply(&ns, &with(secret("alice", "wrong")), &["--retries", "1", "--retry-delay", "100ms"]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(stderr(&out).contains("unauthorized"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("wrong") && !stdout(&out).contains("wrong"), "credentials never shown");

    let out = apply(&ns, &with(secret("alice", "wonderland")), &[]);
    succeeded(&out);
    assert!(!stderr(&out).contains("wonderland") && !stdout(&out).contains("wonderland"));
}

#[test]
fn e2e_the_pods_of_a_run_share_one_pull() {
    require_engine!();
    let ns = Namespace::new("pullshare");
    let mut reg = Registry::start("pullshare", None);
    let image = reg.push("shared", None);
    let dir = std::env::temp_dir().join(format!("podrun-pullshare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..4 {
        let manifest = pod(&image, "Always", "").replace("name: img}", &format!("name: img{i}}}"));
        std::fs::write(dir.join(format!("p{i}.yaml")), manifest).unwrap();
    }
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() - 1;
    let out = podrun(&["apply", dir.to_str().unwrap(), "-n", ns.name()], None);
    let until = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 1;
    let _ = std::fs::remove_dir_all(&dir);
    succeeded(&out);
    // Every pod reports the pull it waits for...
    assert_eq!(stderr(&out).matches(&format!("pulling image {image}")).count(), 4, "{}", stderr(&out));
    // ...and the engine saw one.
    let events = sh(&[
        "docker",
        "events",
        "--since",
        &since.to_string(),
        "--until",
        &until.to_string(),
        "--filter",
        "type=image",
        "--filter",
        "event=pull",
        "--format",
        "{{.ID}}",
    ]);
    let pulls = String::from_utf8_lossy(&events.stdout).lines().filter(|l| *l == image).count();
    assert_eq!(pulls, 1, "{}", String::from_utf8_lossy(&events.stdout));
}
