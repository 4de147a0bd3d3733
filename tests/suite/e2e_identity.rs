//! Who a container runs as, decided on numbers on every engine: images whose USER spells root
//! another way (`00`, `+0`, `0000:1000`), names one (`root`, a name), or gives an id no
//! Kubernetes user may have are refused under runAsNonRoot with nothing created, on Docker,
//! Podman and containerd alike; and an odd spelling of an ordinary user runs as that number.
//! The images are the test's own: busybox with a USER of each spelling, committed on the
//! engine (or on Docker and imported into containerd's `k8s.io` namespace).

use std::process::Output;

use crate::common::cri::ctr;
use crate::common::*;

/// USER spellings that must be refused under runAsNonRoot, and a word of the refusal.
const REFUSED: &[(&str, &str)] = &[
    ("00", "image will run as root"),
    ("+0", "image will run as root"),
    ("0000:1000", "image will run as root"),
    ("root", "non-numeric user (root)"),
    ("podrunner", "non-numeric user (podrunner)"),
    // 2^32: an engine that takes the id as 32 bits would make it 0.
    ("4294967296", "invalid user id"),
    ("99999999999999999999", "invalid user id"),
];

/// An ordinary user in odd spellings, and the `uid:gid` it must run as: through the CRI, the
/// image's group is not applied, as the kubelet hands the runtime the uid alone.
const ALLOWED: &[(&str, &str, &str)] = &[("+1000:+2000", "1000:2000", "1000:0"), ("01000", "1000:0", "1000:0")];

/// Images of the test's own, one per USER spelling, removed when dropped.
struct UserImages<'a> {
    target: Target<'a>,
    repo: String,
    /// Each spelling's image reference, in the order given.
    tags: Vec<String>,
}

impl<'a> UserImages<'a> {
    /// Committed on Docker, then loaded into the Podman service or imported into containerd.
    fn build(target: Target<'a>, test: &str, users: &[&str]) -> UserImages<'a> {
        let repo = format!("podrun-test-user-{}-{test}", std::process::id());
        let tags: Vec<String> = (0..users.len()).map(|i| format!("{repo}:u{i}")).collect();
        let made = UserImages { target, repo, tags };
        for (user, tag) in users.iter().zip(&made.tags) {
            let base = run(docker_on(None, &["create", "busybox:latest", "true"]));
            let commit = docker_on(None, &["commit", "-c", &format!("USER {user}"), &base, tag]);
            docker_on(None, &["rm", "-f", &base]);
            assert!(commit.status.success(), "commit USER {user}: {}", stderr(&commit));
            let seen = run(docker_on(None, &["image", "inspect", "--format", "{{.Config.User}}", tag]));
            assert_eq!(seen, *user, "the image's USER as written");
        }
        if matches!(target, Target::Engine(None)) {
            return made;
        }
        let archive = std::env::temp_dir().join(format!("{}.tar", made.repo));
        let archive = archive.to_string_lossy().into_owned();
        let mut save = vec!["save", "-o", &archive];
        save.extend(made.tags.iter().map(String::as_str));
        run(docker_on(None, &save));
        let loaded = match target {
            Target::Cri(endpoint) => ctr(endpoint, &["images", "import", &archive]),
            _ => docker_on(target.host(), &["load", "-i", &archive]),
        };
        let _ = std::fs::remove_file(&archive);
        assert!(loaded.status.success(), "load into {}: {}", target.name(), stderr(&loaded));
        made
    }
}

impl Drop for UserImages<'_> {
    fn drop(&mut self) {
        let mut rmi = vec!["rmi", "-f"];
        rmi.extend(self.tags.iter().map(String::as_str));
        docker_on(None, &rmi);
        match self.target {
            Target::Cri(endpoint) => {
                for tag in &self.tags {
                    let _ = ctr(endpoint, &["images", "rm", &format!("docker.io/library/{tag}")]);
                }
            }
            Target::Engine(Some(host)) => {
                docker_on(Some(host), &rmi);
            }
            _ => {}
        }
    }
}

/// The trimmed stdout of a command that must succeed.
fn run(out: Output) -> String {
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).trim().to_owned()
}

fn pod(name: &str, image: &str, script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n  securityContext: {{runAsNonRoot: true}}\n  containers:\n  - {{name: c, image: '{image}', imagePullPolicy: Never, command: [sh, -c, '{script}']}}\n"
    )
}

/// Every hostile spelling refused (exit 2, the kubelet's reason, nothing created), and the odd
/// spellings of an ordinary user run as their numbers.
fn hostile_users_are_refused(target: Target, test: &str) {
    let ns = Namespace::for_target(target, test);
    let users: Vec<&str> = REFUSED.iter().map(|(u, _)| *u).chain(ALLOWED.iter().map(|(u, _, _)| *u)).collect();
    let images = UserImages::build(target, test, &users);
    let apply = |manifest: &str| {
        let f = TempFile::new("pod.yaml", manifest);
        target.podrun(&["apply", f.path(), "-n", ns.name(), "--timeout", "60s"].map(str::to_owned))
    };
    for ((user, why), image) in REFUSED.iter().zip(&images.tags) {
        let out = apply(&pod("refused", image, "id"));
        assert_eq!(code(&out), 2, "USER {user} on {}: {}", target.name(), stderr(&out));
        assert!(stderr(&out).contains(why), "USER {user} on {}: {}", target.name(), stderr(&out));
        assert!(ns.containers().is_empty(), "USER {user}: nothing created: {:?}", ns.containers());
    }
    for (i, (user, want, want_cri)) in ALLOWED.iter().enumerate() {
        let image = &images.tags[REFUSED.len() + i];
        let want = if matches!(target, Target::Cri(_)) { want_cri } else { want };
        let check = format!("test \"$(id -u):$(id -g)\" = {want}");
        let out = apply(&pod(&format!("allowed{i}"), image, &check));
        assert_eq!(code(&out), 0, "USER {user} runs as {want} on {}: {}", target.name(), stderr(&out));
    }
}

#[test]
fn e2e_identity_hostile_image_users_on_docker() {
    require_engine!();
    hostile_users_are_refused(Target::Engine(None), "users");
}

#[test]
fn e2e_identity_hostile_image_users_on_podman() {
    require_engine!();
    require_podman!(host);
    hostile_users_are_refused(Target::Engine(Some(&host)), "users-podman");
}

#[test]
fn e2e_identity_hostile_image_users_on_containerd() {
    require_engine!();
    require_cri!(endpoint);
    hostile_users_are_refused(Target::Cri(&endpoint), "users-cri");
}

#[test]
fn e2e_identity_run_as_user_0_is_refused_whatever_the_image() {
    require_engine!();
    let ns = Namespace::new("runas0");
    let manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  securityContext: {runAsNonRoot: true, runAsUser: 0}\n  containers:\n  - {name: c, image: 'busybox:latest', command: [id]}\n";
    let out = apply(&ns, manifest, &["--timeout", "60s"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("runAsUser breaks non-root policy"), "{}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}
