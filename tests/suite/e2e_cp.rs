//! `podrun cp` end to end, on Docker, Podman and containerd: a tree copied out (modes, a link
//! kept as a link, nested directories) and in (read back with exec), a completed container's
//! files (Docker, Podman) and the refusal on a CRI runtime, and archives that try to write
//! outside DEST: a link to a file of the host, a link planted in DEST, and (through exec on
//! containerd) a `tar` of the container's own that sends `..` and links out.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use crate::common::*;

/// A running pod whose /data is a tree: modes, a relative link, a link to `canary` (a file of
/// the host), a file named `planted`, and an empty nested directory; /data/.ready once made.
fn files_pod(canary: &str) -> String {
    let script = format!(
        "mkdir -p /data/sub/deep/er && echo alpha > /data/sub/a.txt && chmod 0640 /data/sub/a.txt && \
         chmod 0750 /data/sub && printf x > /data/run.sh && chmod 0755 /data/run.sh && \
         ln -s sub/a.txt /data/link && ln -s {canary} /data/evil && echo container > /data/planted && \
         touch /data/.ready; {}",
        LOOP
    );
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: files}}\nspec:\n  terminationGracePeriodSeconds: 1\n  \
         containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, '{script}']\n"
    )
}

/// A pod whose one container writes its artefacts and exits 0.
const JOB: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: job}
spec:
  restartPolicy: Never
  containers:
  - name: build
    image: busybox:1.28
    command: [sh, -c, 'mkdir -p /out/logs && echo built > /out/result.txt && echo log > /out/logs/a.log']
";

/// A directory of the test's own, removed with what is in it.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("podrun-cp-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(target: Target, args: &[&str]) -> std::process::Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

/// The files pod applied in `ns`, its tree made.
fn files_ready(target: Target, ns: &Namespace, canary: &Path) {
    let f = TempFile::new("files.yaml", &files_pod(canary.to_str().unwrap()));
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "-q", "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    wait_until("the tree in the container", Duration::from_secs(30), || {
        let o = run(target, &["exec", "-n", ns.name(), "files", "-q", "--", "test", "-f", "/data/.ready"]);
        if code(&o) == 0 {
            Ok(())
        } else {
            Err(stderr(&o))
        }
    });
}

/// Out: the tree with its modes and links, nothing written through a link, a link planted in
/// DEST replaced; in: a directory and a file, read back with exec; and kubectl's errors.
fn both_ways(target: Target, ns: &Namespace) {
    let tmp = Scratch::new("cp");
    let canary = tmp.0.join("canary");
    std::fs::write(&canary, "canary").unwrap();
    files_ready(target, ns, &canary);

    let dest = tmp.0.join("dest");
    std::fs::create_dir(&dest).unwrap();
    std::os::unix::fs::symlink(&canary, dest.join("planted")).unwrap();
    let from = format!("{}/files:/data", ns.name());
    let o = run(target, &["cp", &from, dest.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(std::fs::read_to_string(dest.join("sub/a.txt")).unwrap(), "alpha\n");
    assert_eq!(mode(&dest.join("sub/a.txt")), 0o640);
    assert_eq!(mode(&dest.join("sub")), 0o750);
    assert_eq!(mode(&dest.join("run.sh")), 0o755);
    assert!(dest.join("sub/deep/er").is_dir());
    assert_eq!(std::fs::read_link(dest.join("link")).unwrap(), Path::new("sub/a.txt"));
    assert_eq!(std::fs::read_link(dest.join("evil")).unwrap(), canary);
    assert_eq!(std::fs::read_to_string(dest.join("planted")).unwrap(), "container\n");
    assert!(!std::fs::symlink_metadata(dest.join("planted")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "canary", "{}", target.name());

    // A single file, to a new name.
    let one = tmp.0.join("one.txt");
    let o = run(target, &["cp", "-n", ns.name(), "files:/data/sub/a.txt", one.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(std::fs::read_to_string(&one).unwrap(), "alpha\n");

    // In: a directory into a directory that exists (under its own name), a file to a new name.
    let up = tmp.0.join("upload");
    std::fs::create_dir_all(up.join("a")).unwrap();
    std::fs::write(up.join("a/b.txt"), "uploaded").unwrap();
    std::fs::set_permissions(up.join("a/b.txt"), std::fs::Permissions::from_mode(0o604)).unwrap();
    std::os::unix::fs::symlink("a/b.txt", up.join("l")).unwrap();
    let o = run(target, &["cp", "-n", ns.name(), up.to_str().unwrap(), "files:/tmp"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let o = run(target, &["cp", "-n", ns.name(), one.to_str().unwrap(), "files:/tmp/renamed.txt"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    // A link to a directory is a directory to copy into, as `test -d` finds it.
    let o = run(target, &["exec", "-n", ns.name(), "files", "-q", "--", "ln", "-s", "/tmp", "/tmplink"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let o = run(target, &["cp", "-n", ns.name(), one.to_str().unwrap(), "files:/tmplink"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let script = "cat /tmp/upload/a/b.txt; echo; readlink /tmp/upload/l; stat -c %a /tmp/upload/a/b.txt; \
                  cat /tmp/renamed.txt /tmp/one.txt; readlink /tmplink";
    let o = run(target, &["exec", "-n", ns.name(), "files", "-q", "--", "sh", "-c", script]);
    assert_eq!(stdout(&o), "uploaded\na/b.txt\n604\nalpha\nalpha\n/tmp\n", "{}: {}", target.name(), stderr(&o));

    errors(target, ns, &tmp.0);
}

/// kubectl's errors, exit 1.
fn errors(target: Target, ns: &Namespace, tmp: &Path) {
    let out = tmp.join("nothing");
    let o = run(target, &["cp", "-n", ns.name(), "nope:/data", out.to_str().unwrap()]);
    assert_eq!((code(&o), stderr(&o).trim()), (1, r#"Error from server (NotFound): pods "nope" not found"#));
    let o = run(target, &["cp", "-n", ns.name(), "files:/no/such", out.to_str().unwrap()]);
    assert_eq!(code(&o), 1, "{}: {}", target.name(), stderr(&o));
    assert!(!out.exists());
    let o = run(target, &["cp", "-n", ns.name(), "/no/such/file", "files:/tmp"]);
    assert_eq!((code(&o), stderr(&o).trim()), (1, "error: /no/such/file doesn't exist in local filesystem"));
    let o = run(target, &["cp", "-n", ns.name(), "-c", "zz", "files:/data", out.to_str().unwrap()]);
    assert_eq!((code(&o), stderr(&o).trim()), (1, r#"error: container "zz" is not valid for pod "files""#));
    // Under another state directory the pod is not podrun's (its seal does not verify).
    let other = StateDir::new(&format!("cp-{}", target.name()));
    let from = format!("{}/files:/data", ns.name());
    let mut args = vec!["cp", from.as_str(), out.to_str().unwrap()];
    let mut env = vec![("PODRUN_STATE_DIR", other.path())];
    match target {
        Target::Cri(endpoint) => args.splice(0..0, ["--runtime-endpoint", endpoint]).for_each(drop),
        _ => env.extend(target.host().map(|h| ("DOCKER_HOST", h))),
    }
    let o = podrun_env(&args, None, &env);
    assert_eq!((code(&o), stderr(&o).trim()), (1, r#"Error from server (NotFound): pods "files" not found"#));
    assert!(!out.exists());
    let o = run(target, &["cp", "a:/x", "b:/y"]);
    assert_eq!((code(&o), stderr(&o).trim()), (1, "error: one of src or dest must be a local file specification"));
}

/// A completed container's artefacts: copied on the Docker API, refused on a CRI runtime.
fn completed(target: Target, ns: &Namespace) {
    let f = TempFile::new("job.yaml", JOB);
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "-q", "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let tmp = Scratch::new("cp-job");
    let dest = tmp.0.join("artefacts");
    let o = run(target, &["cp", "-n", ns.name(), "job:/out", dest.to_str().unwrap()]);
    if let Target::Cri(_) = target {
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        assert!(stderr(&o).contains(r#"container "build" of pod "job": it is not running"#), "{}", stderr(&o));
        assert!(!dest.exists());
        return;
    }
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    assert_eq!(std::fs::read_to_string(dest.join("result.txt")).unwrap(), "built\n");
    assert_eq!(std::fs::read_to_string(dest.join("logs/a.log")).unwrap(), "log\n");
}

#[test]
fn docker_cp_copies_both_ways() {
    require_engine!();
    let ns = Namespace::new("cp");
    both_ways(Target::Engine(None), &ns);
}

#[test]
fn podman_cp_copies_both_ways() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "cp-podman");
    both_ways(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_cp_copies_both_ways() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "cp-cri");
    both_ways(Target::Cri(&endpoint), &ns);
}

#[test]
fn docker_cp_copies_from_a_completed_container() {
    require_engine!();
    let ns = Namespace::new("cp-job");
    completed(Target::Engine(None), &ns);
}

#[test]
fn podman_cp_copies_from_a_completed_container() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "cp-job-podman");
    completed(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_cp_refuses_a_completed_container() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "cp-job-cri");
    completed(Target::Cri(&endpoint), &ns);
}

/// A pod whose `tar` (first on PATH) sends /hostile.tar, once the test has put it there.
const FAKE_TAR: &str = r##"
apiVersion: v1
kind: Pod
metadata: {name: faketar}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: busybox:1.28
    command: [sh, -c, 'until [ -f /hostile.done ]; do sleep 0.2; done; mkdir -p /usr/local/bin;
      printf "#!/bin/sh\ncat /hostile.tar\n" > /usr/local/bin/tar; chmod 755 /usr/local/bin/tar;
      trap "exit 0" TERM; while true; do sleep 1 & wait; done']
"##;

/// An archive as a hostile `tar` could send it: names under `data/`, and entries that try to
/// leave DEST in every way (`..`, an absolute name, a file through a link, a hard link out).
fn hostile_archive(outside: &Path) -> Vec<u8> {
    let canary = outside.join("canary");
    let entry = |out: &mut Vec<u8>, name: &[u8], kind: tar::EntryType, link: &[u8], data: &[u8]| {
        let mut h = tar::Header::new_gnu();
        let gnu = h.as_gnu_mut().unwrap();
        gnu.name[..name.len()].copy_from_slice(name);
        gnu.linkname[..link.len()].copy_from_slice(link);
        h.set_entry_type(kind);
        h.set_mode(0o644);
        h.set_size(data.len() as u64);
        h.set_cksum();
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    };
    let (file, link, hard) = (tar::EntryType::Regular, tar::EntryType::Symlink, tar::EntryType::Link);
    let mut out = Vec::new();
    entry(&mut out, b"data/", tar::EntryType::Directory, b"", b"");
    entry(&mut out, b"data/ok", file, b"", b"fine");
    entry(&mut out, b"data/../../outside/canary", file, b"", b"dotdot");
    entry(&mut out, canary.to_str().unwrap().as_bytes(), file, b"", b"absolute");
    entry(&mut out, b"data/escape", link, outside.to_str().unwrap().as_bytes(), b"");
    entry(&mut out, b"data/escape/canary", file, b"", b"through");
    entry(&mut out, b"data/hard", hard, canary.to_str().unwrap().as_bytes(), b"");
    out.extend_from_slice(&[0; 1024]);
    out
}

#[test]
fn cri_cp_writes_nothing_outside_dest_from_a_hostile_tar() {
    require_cri!(endpoint);
    let target = Target::Cri(&endpoint);
    let ns = Namespace::on_cri(&endpoint, "cp-hostile");
    let f = TempFile::new("faketar.yaml", FAKE_TAR);
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "-q", "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let tmp = Scratch::new("cp-hostile");
    let outside = tmp.0.join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("canary"), "canary").unwrap();
    let archive = tmp.0.join("hostile.tar");
    std::fs::write(&archive, hostile_archive(&outside)).unwrap();
    let done = tmp.0.join("hostile.done");
    std::fs::write(&done, "").unwrap();
    for (local, remote) in [(&archive, "faketar:/hostile.tar"), (&done, "faketar:/hostile.done")] {
        let o = run(target, &["cp", "-n", ns.name(), local.to_str().unwrap(), remote]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    wait_until("the container's own tar", Duration::from_secs(30), || {
        let o = run(target, &["exec", "-n", ns.name(), "faketar", "-q", "--", "test", "-x", "/usr/local/bin/tar"]);
        if code(&o) == 0 {
            Ok(())
        } else {
            Err(stderr(&o))
        }
    });

    let dest = tmp.0.join("dest");
    let o = run(target, &["cp", "-n", ns.name(), "faketar:/data", dest.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(dest.join("ok")).unwrap(), "fine");
    assert_eq!(std::fs::read_to_string(outside.join("canary")).unwrap(), "canary");
    let beside: Vec<_> = std::fs::read_dir(&outside).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(beside, ["canary"]);
    let said = stderr(&o);
    assert_eq!(said.matches("warning: ").count(), 4, "{said}");
    assert!(said.contains("is outside target destination, skipping"), "{said}");
    assert!(std::fs::symlink_metadata(dest.join("escape")).unwrap().file_type().is_symlink());
    assert!(std::fs::symlink_metadata(dest.join("hard")).is_err());
}
