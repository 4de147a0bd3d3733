//! Manifests read from http:// and https:// URLs, end to end, from a loopback server of the
//! test's own (`common::url_server`, its certificate made here and trusted by SSL_CERT_FILE):
//! apply, validate and delete on Docker, Podman and containerd, headers sent and never printed;
//! a 404, a redirect loop, a redirect down from https, an untrusted certificate, an oversized
//! and a slow answer each exit 2 naming the URL and creating nothing; under `--supervise` a
//! changed document is applied (pruning the pod that left it) and one that cannot be read, or
//! does not load, keeps the last good version running, said once.

use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::url_server::{Answer, Certs, Server};
use crate::common::*;

/// The header the server asks for, and whose value no output may show.
const TOKEN: &str = "Bearer s3cret-token-7f1c";

fn pod(name: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: busybox:1.28\n    command: [sh, -c, '{LOOP}']\n"
    )
}

/// podrun on an engine (`engine`: the flags naming it), trusting `ca`, logging all it logs (a
/// header's value must not be among it).
fn run(engine: &[&str], args: &[&str], ca: &str) -> Output {
    let all: Vec<&str> = engine.iter().chain(args).copied().collect();
    podrun_env(&all, None, &[("SSL_CERT_FILE", ca), ("PODRUN_LOG", "trace")])
}

/// Fails unless `out` exited 0; and whatever it exited, its output never shows the token.
fn ok_and_silent(out: &Output) {
    assert_no_token(out);
    assert_eq!(code(out), 0, "{}", stderr(out));
}

fn assert_no_token(out: &Output) {
    let all = format!("{}{}", stdout(out), stderr(out));
    assert!(!all.contains("s3cret-token"), "the header's value was printed:\n{all}");
}

/// validate, apply and delete of one URL on `engine`, with `--header` (the server refuses a
/// request without it).
fn round_trip(engine: &[&str], ns: &Namespace) {
    let certs = Certs::new(&format!("rt-{}", ns.name()));
    let server = Server::start(Some(&certs));
    server.set(
        "/pod.yaml",
        Answer::Guarded { header: format!("authorization: {}", TOKEN.to_lowercase()), body: pod("web") },
    );
    let url = server.url("/pod.yaml");
    let ca = certs.ca(true);
    let header = format!("Authorization: {TOKEN}");
    let with = |verb: &str, extra: &[&str]| {
        let mut args = vec![verb, url.as_str(), "-n", ns.name(), "--header", header.as_str()];
        args.extend_from_slice(extra);
        run(engine, &args, &ca)
    };

    let out = run(engine, &["validate", &url, "-n", ns.name()], &ca);
    assert_eq!(code(&out), 2, "no header, 401: {}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{url}: cannot read: the server answered 401 Unauthorized")),
        "{}",
        stderr(&out)
    );
    let out = with("validate", &["-v"]);
    ok_and_silent(&out);
    assert!(stdout(&out).contains(&format!("pod {}/web: valid", ns.name())), "{}", stdout(&out));

    let out = with("apply", &["-v", "--timeout", "90s"]);
    ok_and_silent(&out);
    assert!(!ns.containers().is_empty(), "the pod runs");
    let sent = format!("authorization: {}", TOKEN.to_lowercase());
    let with_it = server.heads().iter().filter(|h| h.contains(&sent)).count();
    assert_eq!(with_it, 2, "sent by validate and apply, not by the first validate: {:?}", server.heads());

    let out = with("delete", &["--grace-period", "0"]);
    ok_and_silent(&out);
    assert!(ns.containers().is_empty(), "deleted: {:?}", ns.containers());
}

#[test]
fn e2e_url_apply_validate_delete_on_docker() {
    require_engine!();
    require_tool!("openssl");
    let ns = Namespace::new("url-docker");
    round_trip(&[], &ns);
}

#[test]
fn e2e_url_apply_validate_delete_on_podman() {
    require_engine!();
    require_tool!("openssl");
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "url-podman");
    round_trip(&["--host", &host], &ns);
}

#[test]
fn e2e_url_apply_validate_delete_on_containerd() {
    require_tool!("openssl");
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "url-cri");
    round_trip(&["--runtime-endpoint", &endpoint], &ns);
}

/// `apply URL` that must fail before anything is made: exit 2, the message naming the URL (its
/// password hidden) and `cause`.
fn refused(ns: &Namespace, url: &str, ca: &str, cause: &str) {
    let out = run(&[], &["apply", url, "-n", ns.name(), "--timeout", "60s"], ca);
    assert_eq!(code(&out), 2, "{url}: {}", stderr(&out));
    assert!(stderr(&out).contains(cause), "{url}: expected {cause:?} in:\n{}", stderr(&out));
    assert!(!stderr(&out).contains("pw-s3cret"), "the password was printed: {}", stderr(&out));
    assert!(ns.containers().is_empty(), "{url}: nothing is created: {:?}", ns.containers());
}

#[test]
fn e2e_url_sources_that_cannot_be_read_exit_2_naming_the_url_and_create_nothing() {
    require_engine!();
    require_tool!("openssl");
    let ns = Namespace::new("url-refused");
    let certs = Certs::new("refused");
    let (plain, tls) = (Server::start(None), Server::start(Some(&certs)));
    let ca = certs.ca(true);
    plain.set("/pod.yaml", Answer::Body(pod("p")));
    plain.set("/loop", Answer::Redirect("/loop".into()));
    plain.set("/huge.yaml", Answer::Endless);
    plain.set("/bad.yaml", Answer::Body("apiVersion: v1\nkind: Pod\nmetadata: {name: x\n".into()));
    tls.set("/down", Answer::Redirect(plain.url("/pod.yaml")));
    tls.set("/pod.yaml", Answer::Body(pod("p")));

    let missing = format!("http://user:pw-s3cret@127.0.0.1:{}/missing.yaml", plain.port);
    let shown = format!("http://user:xxxxx@127.0.0.1:{}/missing.yaml", plain.port);
    refused(&ns, &missing, &ca, &format!("{shown}: cannot read: the server answered 404 Not Found"));
    // The URL's user and password went as basic authentication (heads are kept lower case).
    assert!(
        plain.heads().iter().any(|h| h.contains("authorization: basic dxnlcjpwdy1zm2nyzxq=")),
        "{:?}",
        plain.heads()
    );
    refused(&ns, &plain.url("/loop"), &ca, &format!("{}: cannot read: stopped after 10 redirects", plain.url("/loop")));
    refused(&ns, &plain.url("/huge.yaml"), &ca, "larger than 64 MiB, the most podrun reads from one input");
    refused(&ns, &plain.url("/bad.yaml"), &ca, &format!("{}:4:1: ", plain.url("/bad.yaml")));
    refused(&ns, &tls.url("/down"), &ca, "podrun does not leave TLS for plain HTTP");
    let https_to_plain = format!("https://127.0.0.1:{}/pod.yaml", plain.port);
    refused(&ns, &https_to_plain, &ca, "the server does not speak TLS on this port");
    refused(
        &ns,
        &tls.url("/pod.yaml"),
        &certs.ca(false),
        &format!(
            "{}: cannot read: TLS with 127.0.0.1:{}: the server's certificate is not signed by a CA podrun trusts",
            tls.url("/pod.yaml"),
            tls.port
        ),
    );
    // A CA bundle of 1 GiB (sparse): refused by name, not read whole.
    let huge = std::env::temp_dir().join(format!("podrun-url-huge-ca-{}.pem", std::process::id()));
    std::fs::File::create(&huge).unwrap().set_len(1 << 30).unwrap();
    let said = format!("the CA certificate {}: larger than 4 MiB", huge.display());
    refused(&ns, &tls.url("/pod.yaml"), huge.to_str().unwrap(), &said);
    std::fs::remove_file(&huge).unwrap();
    // The same with the CA that signed it: read, and the pod runs (the refusals above were
    // the certificate's, not the server's).
    let out = run(&[], &["apply", &tls.url("/pod.yaml"), "-n", ns.name(), "--timeout", "90s"], &ca);
    succeeded(&out);
    let out = run(&[], &["validate", "--header", "Bad Name: x", &plain.url("/pod.yaml")], &ca);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = run(&[], &["validate", "--header", "X-Token: pw-s3cret\u{1}", &plain.url("/pod.yaml")], &ca);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(!stderr(&out).contains("pw-s3cret"), "{}", stderr(&out));
}

/// An answer that trickles past the time limit: exit 2 naming the limit, nothing created.
#[test]
fn e2e_url_a_slow_answer_ends_at_the_time_limit() {
    require_engine!();
    let ns = Namespace::new("url-slow");
    let server = Server::start(None);
    server.set("/slow.yaml", Answer::Slow);
    let started = Instant::now();
    refused(&ns, &server.url("/slow.yaml"), "/nonexistent", "cannot read: no complete answer within 30s");
    // A figure, not an assert: the limit is 30 s.
    eprintln!("a slow URL source ended after {:?}", started.elapsed());
}

/// `podrun apply URL --supervise --prune` in the background, as systemd runs it
/// (NOTIFY_SOCKET); killed when dropped, its scratch directory removed.
struct Supervisor {
    child: Killed,
    notify: std::os::unix::net::UnixDatagram,
    dir: std::path::PathBuf,
}

impl Supervisor {
    fn start(url: &str, ns: &Namespace) -> Supervisor {
        let dir = std::env::temp_dir().join(format!("podrun-url-sup-{}-{}", std::process::id(), ns.name()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let notify = std::os::unix::net::UnixDatagram::bind(dir.join("notify.sock")).expect("bind");
        notify.set_read_timeout(Some(Duration::from_secs(90))).expect("timeout");
        let header = format!("Authorization: {TOKEN}");
        let child = std::process::Command::new(PODRUN)
            .args(["apply", url, "-n", ns.name(), "--supervise", "--prune", "-v", "--header", &header])
            .env("NO_COLOR", "1")
            .env("NOTIFY_SOCKET", dir.join("notify.sock"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(dir.join("podrun.log")).expect("log"))
            .spawn()
            .expect("run podrun");
        Supervisor { child: Killed(child), notify, dir }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("podrun.log")).unwrap_or_default()
    }

    /// The STATUS of the next READY=1 (each within the socket's 90 s read timeout).
    fn ready(&self) -> String {
        let mut buf = [0u8; 512];
        for _ in 0..100 {
            let n = self.notify.recv(&mut buf).unwrap_or_else(|e| panic!("no word to systemd: {e}\n{}", self.log()));
            if let Some(rest) = String::from_utf8_lossy(&buf[..n]).strip_prefix("READY=1\n") {
                return rest.to_owned();
            }
        }
        panic!("no READY=1 in 100 messages:\n{}", self.log())
    }

    /// Waits (90 s at most: a 20 s re-read and a pass) for `text` in the log.
    fn wait_said(&mut self, text: &str) {
        wait_until(&format!("podrun says {text:?}"), Duration::from_secs(90), || {
            let log = self.log();
            assert!(self.child.0.try_wait().expect("wait").is_none(), "podrun ended: {log}");
            if log.contains(text) {
                Ok(())
            } else {
                Err(log)
            }
        });
    }

    fn signal(&self, sig: &str) {
        let status = std::process::Command::new("kill").args([sig, &self.child.0.id().to_string()]).status();
        assert!(status.expect("kill").success());
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Under `--supervise`: the document re-read every 20 s (no SIGHUP) applies a change and prunes
/// the pod that left it; a 404 and then a document that does not load keep the last good
/// version running (said once each, a SIGHUP in between changing nothing); a fixed document is
/// applied again.
#[test]
fn e2e_url_supervise_applies_changes_and_keeps_the_last_good_version() {
    require_engine!();
    let ns = Namespace::new("url-supervise");
    let server = Server::start(None);
    let guarded = |body: String| Answer::Guarded { header: format!("authorization: {}", TOKEN.to_lowercase()), body };
    server.set("/pods.yaml", guarded(format!("{}---\n{}", pod("a"), pod("b"))));
    let mut sup = Supervisor::start(&server.url("/pods.yaml"), &ns);
    let status = sup.ready();
    assert!(status.contains("STATUS=2 of 2 pods supervised"), "{status}\n{}", sup.log());
    assert_eq!(ns.pod_names(), ["a", "b"]);

    // Changed: seen by the 20 s re-read; b left the document and is pruned.
    server.set("/pods.yaml", guarded(pod("a")));
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}\n{}", sup.log());
    wait_until("b pruned", Duration::from_secs(30), || {
        if ns.pod_names() == ["a"] {
            Ok(())
        } else {
            Err(ns.containers())
        }
    });

    // Not found: a is kept, and why is said once, also across a start-over.
    server.set("/pods.yaml", Answer::Status(404));
    let said = "pods.yaml: cannot be read: the server answered 404 Not Found; its last good version stays";
    sup.wait_said(said);
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "the last good version: {status}\n{}", sup.log());
    assert_eq!(sup.log().matches(said).count(), 1, "said once:\n{}", sup.log());

    // Read, but it does not load: a stays, supervised.
    server.set("/pods.yaml", guarded("apiVersion: v1\nkind: Pod\nmetadata: {name: a\n".into()));
    sup.signal("-HUP");
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}\n{}", sup.log());
    assert!(sup.log().contains("pods.yaml: its new version does not load: "), "{}", sup.log());

    // Mended, with a new pod.
    server.set("/pods.yaml", guarded(format!("{}---\n{}", pod("a"), pod("c"))));
    let status = sup.ready();
    assert!(status.contains("STATUS=2 of 2 pods supervised"), "{status}\n{}", sup.log());
    assert_eq!(ns.pod_names(), ["a", "c"]);
    assert!(!sup.log().contains("s3cret-token"), "the header's value was printed:\n{}", sup.log());
    sup.signal("-TERM");
    let ended = wait_until("podrun stops", Duration::from_secs(30), || sup.child.0.try_wait().expect("wait").ok_or(()));
    assert_eq!(ended.code(), Some(0), "{}", sup.log());
}

/// Under `--supervise` a URL that does not answer at the first pass is left out, as a file
/// that does not load is, and its pods start when it answers (the 20 s re-read).
#[test]
fn e2e_url_supervise_starts_the_pods_of_a_url_that_answers_later() {
    require_engine!();
    let ns = Namespace::new("url-later");
    let server = Server::start(None);
    let mut sup = Supervisor::start(&server.url("/later.yaml"), &ns);
    let status = sup.ready();
    assert!(
        status.contains("STATUS=0 of 0 pods supervised; 0 failed their first pass; 1 manifests skipped"),
        "{status}"
    );
    sup.wait_said("later.yaml: cannot read: the server answered 404 Not Found");
    server.set("/later.yaml", Answer::Body(pod("late")));
    let status = sup.ready();
    assert!(status.contains("STATUS=1 of 1 pods supervised"), "{status}\n{}", sup.log());
    assert_eq!(ns.pod_names(), ["late"]);
    sup.signal("-TERM");
    let ended = wait_until("podrun stops", Duration::from_secs(30), || sup.child.0.try_wait().expect("wait").ok_or(()));
    assert_eq!(ended.code(), Some(0), "{}", sup.log());
}
