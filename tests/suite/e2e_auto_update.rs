//! `apply --supervise --auto-update` end to end, on Docker, Podman and containerd (CRI),
//! against a local registry of the test's own: a new image pushed under the pod's tag restarts
//! its container on it; a broken one pushed after it is rolled back to the image before, said,
//! and not taken again; a container pulled IfNotPresent is left alone.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::*;
use crate::e2e_images::Registry;

/// The pod kept current and the pod left alone, both of `image`. The container exits 1 at once
/// on an image that holds `/broken`.
fn pods(image: &str) -> String {
    let cmd = format!("test -e /broken && exit 1; {LOOP}");
    let pod = |name: &str, policy: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: {policy}, command: [sh, -c, '{cmd}']}}\n"
        )
    };
    format!("{}---\n{}", pod("upd", "Always"), pod("keep", "IfNotPresent"))
}

/// Images the test builds on the default engine and pushes, and the ids it pulled on the
/// engine under test; all removed when dropped.
struct Images<'a> {
    target: Target<'a>,
    dir: PathBuf,
    reference: String,
    ids: Vec<String>,
}

impl Images<'_> {
    /// Builds busybox with the file `file` in it under the reference, pushes it, and returns
    /// its id and its registry digest (`@sha256:...`, from the push: the engine's tag may be
    /// pulled back to the registry's image while the push runs). On Podman (which reaches no
    /// plain-HTTP registry unless configured to) it is built there, under a registry that does
    /// not answer.
    fn push(&mut self, file: &str) -> (String, String) {
        // Content of this test's own: the same build on the shared Docker for another engine's
        // test would hit the build cache and give the same image, which that test removes when
        // it ends, maybe while this one still needs it to roll back to.
        std::fs::write(self.dir.join(file), format!("{file} {}", self.dir.display())).unwrap();
        std::fs::write(self.dir.join("Dockerfile"), format!("FROM busybox:1.28\nCOPY {file} /{file}\n")).unwrap();
        let on = match self.target {
            Target::Engine(Some(host)) => Some(host),
            _ => None,
        };
        let built = docker_on(on, &["build", "-q", "-t", &self.reference, self.dir.to_str().unwrap()]);
        assert!(built.status.success(), "build: {}", stderr(&built));
        let id = stdout(&built).trim().lines().last().unwrap_or_default().to_owned();
        let id = if id.starts_with("sha256:") { id } else { format!("sha256:{id}") };
        if on.is_some() {
            self.ids.push(id.clone());
            // Podman gives a local image a digest of its own.
            let digests = stdout(&docker_on(on, &["inspect", "--format", "{{json .RepoDigests}}", &id]));
            let repo = self.reference.rsplit_once(':').unwrap().0;
            let digests: Vec<String> = serde_json::from_str(digests.trim()).unwrap_or_default();
            let digest = digests.iter().find_map(|d| d.strip_prefix(repo)).unwrap_or(&id).to_owned();
            return (id, digest);
        }
        let pushed = docker_on(None, &["push", &self.reference]);
        assert!(pushed.status.success(), "push: {}", stderr(&pushed));
        self.ids.push(id.clone());
        let said = stdout(&pushed);
        let digest =
            said.split("digest: ").nth(1).and_then(|r| r.split_whitespace().next()).expect("the pushed digest");
        (id, format!("@{digest}"))
    }
}

impl Drop for Images<'_> {
    fn drop(&mut self) {
        docker_on(None, &["rmi", "-f", &self.reference]);
        for id in &self.ids {
            docker_on(None, &["rmi", "-f", id]);
        }
        match self.target {
            Target::Cri(endpoint) => {
                // The tag, the digests (`repo@sha256:...`) and the ids the runtime named them by.
                let repo = self.reference.rsplit_once(':').unwrap().0;
                let listed = cri::ctr(endpoint, &["images", "ls", "-q"]);
                let refs: Vec<String> = stdout(&listed)
                    .lines()
                    .filter(|r| {
                        r.starts_with(&format!("{repo}:"))
                            || r.starts_with(&format!("{repo}@"))
                            || self.ids.iter().any(|id| r == id)
                    })
                    .map(str::to_owned)
                    .collect();
                for r in refs {
                    cri::ctr(endpoint, &["images", "rm", &r]);
                }
            }
            Target::Engine(Some(host)) => {
                docker_on(Some(host), &["rmi", "-f", &self.reference]);
                for id in &self.ids {
                    docker_on(Some(host), &["rmi", "-f", id]);
                }
            }
            _ => {}
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// podrun supervising in the background, its stderr in a file; killed when dropped.
struct Supervisor {
    child: Child,
    log: PathBuf,
}

impl Supervisor {
    fn start(target: Target, manifest: &str, ns: &Namespace, dir: &std::path::Path) -> Supervisor {
        let file = dir.join("pods.yaml");
        std::fs::write(&file, manifest).unwrap();
        let mut args: Vec<String> = match target {
            Target::Engine(Some(host)) => vec!["--host".into(), host.into()],
            Target::Cri(endpoint) => vec!["--runtime-endpoint".into(), endpoint.into()],
            _ => Vec::new(),
        };
        let (file, ns) = (file.to_str().unwrap().to_owned(), ns.name().to_owned());
        args.extend(["apply".into(), file, "-n".into(), ns, "--supervise".into()]);
        args.extend(["--auto-update", "1s", "--auto-update-settle", "3s"].map(String::from));
        let log = dir.join("podrun.log");
        let child = Command::new(PODRUN)
            .args(&args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("run podrun");
        Supervisor { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits up to two minutes (a loaded CI machine) until `text` is said `times` times, podrun
    /// staying up meanwhile.
    fn wait_said(&mut self, text: &str, times: usize) {
        wait_until(&format!("podrun says {text:?} {times} times"), Duration::from_secs(120), || {
            let log = self.log();
            assert!(self.child.try_wait().unwrap().is_none(), "podrun ended: {log}");
            if log.matches(text).count() >= times {
                Ok(())
            } else {
                Err(log)
            }
        });
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first container's status of pod `pod`, as `podrun get` shows it.
fn status(target: Target, ns: &Namespace, pod: &str) -> serde_json::Value {
    let out = target.podrun(&["get", pod, "-n", ns.name(), "-o", "json"].map(String::from));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    v["status"]["containerStatuses"][0].clone()
}

/// Whether the status shows a running container of the image `(id, digest)`: its imageID is
/// the image's registry digest, or its id where the engine knows no digest for it (Podman's
/// image that lost its tag).
fn runs(st: &serde_json::Value, (id, digest): &(String, String)) -> bool {
    st["state"]["running"].is_object()
        && st["imageID"].as_str().is_some_and(|i| i.ends_with(digest.as_str()) || i.ends_with(id.as_str()))
}

fn auto_update(target: Target, test: &str) {
    let reg = Registry::start(test, None);
    let dir = std::env::temp_dir().join(format!("podrun-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // On Podman, a port where no registry answers (see `Images::push`).
    let port = match target {
        Target::Engine(Some(_)) => std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port(),
        _ => reg.port,
    };
    let reference = format!("127.0.0.1:{port}/auto-{}:1", std::process::id());
    let mut images = Images { target, dir: dir.clone(), reference: reference.clone(), ids: Vec::new() };
    // Dropped before the images, so no container holds them.
    let ns = Namespace::for_target(target, test);
    let first = images.push("v1");
    let mut sup = Supervisor::start(target, &pods(&reference), &ns, &dir);
    sup.wait_said("supervising", 1);
    let (upd, keep) = (status(target, &ns, "upd"), status(target, &ns, "keep"));
    assert!(runs(&upd, &first) && runs(&keep, &first), "{upd}\n{keep}");

    // A new image under the tag: the container is restarted on it, and the update settles.
    let second = images.push("v2");
    let v2 = second.0.clone();
    sup.wait_said("settled", 1);
    let log = sup.log();
    assert!(log.contains(&format!("image {reference} moved from ")) && log.contains(&v2), "{log}");
    let now = status(target, &ns, "upd");
    assert!(runs(&now, &second), "on the new image: {now}");
    assert_ne!(now["containerID"], upd["containerID"], "a new container");
    assert_eq!(now["restartCount"], 1, "counted as the pod's restart: {now}");

    // A broken one: it exits at once, and the container goes back to the image before it.
    let (v3, _) = images.push("broken");
    sup.wait_said("rolled back to", 1);
    let log = sup.log();
    assert!(log.contains(&format!("the update of image {reference} to {v3} failed (")), "{log}");
    assert!(log.contains(&format!("rolled back to {v2}")), "{log}");
    wait_until("the container runs the image before", Duration::from_secs(60), || {
        let st = status(target, &ns, "upd");
        if runs(&st, &second) {
            Ok(())
        } else {
            Err(st)
        }
    });
    // Several intervals later the broken image is still not taken again.
    std::thread::sleep(Duration::from_secs(4));
    let log = sup.log();
    assert_eq!(log.matches(" moved from ").count(), 2, "{log}");
    let st = status(target, &ns, "upd");
    assert!(runs(&st, &second), "{log}");
    assert_eq!(st["image"], reference.as_str(), "the manifest's image, not the id it is pinned to");

    // Pulled IfNotPresent: left alone all along.
    let kept = status(target, &ns, "keep");
    assert_eq!((&kept["containerID"], &kept["restartCount"]), (&keep["containerID"], &keep["restartCount"]));
}

#[test]
fn e2e_auto_update_docker() {
    require_engine!();
    auto_update(Target::Engine(None), "autoupd");
}

#[test]
fn e2e_auto_update_podman() {
    require_engine!();
    require_podman!(host);
    auto_update(Target::Engine(Some(&host)), "autoupd-podman");
}

#[test]
fn e2e_auto_update_cri() {
    require_engine!();
    require_cri!(endpoint);
    auto_update(Target::Cri(&endpoint), "autoupd-cri");
}
