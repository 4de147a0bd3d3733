//! Remote engines end to end: the test engine behind a mutual-TLS endpoint (socat, with a CA
//! and certificates made here with openssl), through DOCKER_TLS_VERIFY and DOCKER_CERT_PATH
//! and through a Docker context with TLS material; and behind an sshd on loopback
//! (`ssh://`, the system's ssh running `docker system dial-stdio`). Everything a test starts
//! (socat, sshd) it stops, with bounded waits; its files are in a temp directory it removes.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Two containers; `b` has a terminal, so its logs and `exec -t` take podrun's raw path.
const POD: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: remote}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, 'echo hello-from-a; ",
    loop_sh!(),
    "']
  - name: b
    image: busybox:1.28
    tty: true
    command: [sh, -c, 'echo hello-from-b; ",
    loop_sh!(),
    "']
"
);

/// The test engine's unix socket (DOCKER_HOST's, else the default).
fn engine_socket() -> String {
    std::env::var("DOCKER_HOST")
        .ok()
        .and_then(|h| h.strip_prefix("unix://").map(str::to_owned))
        .unwrap_or_else(|| "/var/run/docker.sock".into())
}

/// A port free on 127.0.0.1 now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// A temp directory of the test's own, removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("podrun-e2e-remote-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        Dir(d)
    }

    fn join(&self, p: &str) -> PathBuf {
        self.0.join(p)
    }

    fn s(&self, p: &str) -> String {
        self.join(p).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A daemon the test started (output to a file), killed and reaped when dropped.
struct Daemon(Child);

impl Daemon {
    fn start(program: &str, args: &[&str], log: &Path) -> Daemon {
        let out = std::fs::File::create(log).expect("daemon log");
        let err = out.try_clone().expect("daemon log");
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("run {program}: {e}"));
        Daemon(child)
    }

    /// Waits (10 s at most) until something accepts connections on `port`.
    fn wait_for_port(&mut self, port: u16, log: &Path) {
        let what = format!("something listens on {port}");
        wait_until_every(&what, Duration::from_secs(10), Duration::from_millis(50), || {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(());
            }
            let exited = self.0.try_wait().ok().flatten();
            let log = std::fs::read_to_string(log).unwrap_or_default();
            assert!(exited.is_none(), "the daemon exited ({exited:?}):\n{log}");
            Err(log)
        });
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn openssl(args: &[&str]) {
    let out = Command::new("openssl").args(args).output().expect("run openssl");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A CA, the engine's certificate (for 127.0.0.1) and a client certificate, as dind makes them:
/// `client/` holds ca.pem, cert.pem, key.pem. Also a second CA (`other/ca.pem`), a client
/// certificate that has expired (`expired/`), and `nocert/` with ca.pem alone.
fn make_certs(d: &Dir) {
    for sub in ["client", "other", "expired", "nocert"] {
        std::fs::create_dir_all(d.join(sub)).expect("cert dir");
    }
    let days = ["-days", "2"];
    let ca = |dir: &str| {
        let (key, cert) = (d.s(&format!("{dir}/ca-key.pem")), d.s(&format!("{dir}/ca.pem")));
        openssl(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            &key,
            "-out",
            &cert,
            "-subj",
            "/CN=podrun test CA",
        ]);
    };
    ca("client");
    ca("other");
    std::fs::write(d.join("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        .expect("ext");
    std::fs::write(d.join("client.ext"), "extendedKeyUsage=clientAuth\n").expect("ext");
    let (ca_cert, ca_key) = (d.s("client/ca.pem"), d.s("client/ca-key.pem"));
    let sign = |name: &str, key: &str, cert: &str, ext: &str, days: &str| {
        let csr = d.s(&format!("{name}.csr"));
        openssl(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            key,
            "-out",
            &csr,
            "-subj",
            &format!("/CN={name}"),
        ]);
        openssl(&[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            &ca_cert,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-out",
            cert,
            "-days",
            days,
            "-extfile",
            &d.s(ext),
        ]);
    };
    sign("server", &d.s("server-key.pem"), &d.s("server-cert.pem"), "server.ext", days[1]);
    sign("client", &d.s("client/key.pem"), &d.s("client/cert.pem"), "client.ext", days[1]);
    // OpenSSL 3 takes a negative -days: a certificate whose end is a day before its start.
    sign("expired", &d.s("expired/key.pem"), &d.s("expired/cert.pem"), "client.ext", "-1");
    for dir in ["expired", "nocert"] {
        std::fs::copy(d.join("client/ca.pem"), d.join(&format!("{dir}/ca.pem"))).expect("copy ca");
    }
    std::fs::copy(d.join("client/cert.pem"), d.join("other/cert.pem")).expect("copy cert");
    std::fs::copy(d.join("client/key.pem"), d.join("other/key.pem")).expect("copy key");
}

/// A mutual-TLS endpoint in front of the test engine: socat, checking client certificates
/// against the test CA. Returns it and its port.
fn tls_endpoint(d: &Dir) -> (Daemon, u16) {
    let port = free_port();
    let listen = format!(
        "OPENSSL-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork,cert={},key={},cafile={},verify=1",
        d.s("server-cert.pem"),
        d.s("server-key.pem"),
        d.s("client/ca.pem")
    );
    let connect = format!("UNIX-CONNECT:{}", engine_socket());
    let log = d.join("socat.log");
    // -t: after one side ends its input (exec -i does at the end of its stdin), socat waits
    // 30 s (not 0.5) for the other side's answer, as an engine would, before closing.
    let mut socat = Daemon::start("socat", &["-t", "30", &listen, &connect], &log);
    socat.wait_for_port(port, &log);
    (socat, port)
}

/// podrun with `env`, and nothing of the caller's engine settings.
fn podrun_with(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut all: Vec<(&str, &str)> = vec![("DOCKER_HOST", ""), ("DOCKER_CONTEXT", ""), ("DOCKER_TLS_VERIFY", "")];
    all.extend_from_slice(env);
    podrun_env(args, stdin, &all)
}

/// apply, get, logs (decoded and raw), exec -i and -t, delete, through the engine `env` selects.
fn round_trip(ns: &Namespace, env: &[(&str, &str)], global: &[&str]) {
    let f = TempFile::new("remote.yaml", POD);
    let run = |args: &[&str], stdin: Option<&str>| {
        // The namespace after the subcommand, before a `--` that ends podrun's arguments.
        let mut all: Vec<&str> = global.to_vec();
        all.extend_from_slice(&[args[0], "-n", ns.name()]);
        all.extend_from_slice(&args[1..]);
        podrun_with(&all, stdin, env)
    };
    let out = run(&["apply", f.path(), "-q"], None);
    assert_eq!(code(&out), 0, "apply: {}", stderr(&out));
    assert_eq!(ns.running(), 3, "infra, a and b: {:?}", ns.containers());

    let out = run(&["get"], None);
    assert_eq!(code(&out), 0, "get: {}", stderr(&out));
    assert!(stdout(&out).contains("remote") && stdout(&out).contains("2/2"), "{}", stdout(&out));

    let out = run(&["logs", "remote", "-c", "a"], None);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "hello-from-a\n"), "{}", stderr(&out));
    // A terminal's output, read raw over a connection podrun opens itself.
    let out = run(&["logs", "remote", "-c", "b"], None);
    succeeded(&out);
    assert!(stdout(&out).contains("hello-from-b"), "{}", stdout(&out));

    let out = run(&["exec", "-i", "remote", "-c", "a", "--", "sh", "-c", "cat; exit 3"], Some("through stdin\n"));
    assert_eq!((code(&out), stdout(&out).as_str()), (3, "through stdin\n"), "{}", stderr(&out));
    // exec -t: the upgraded connection podrun opens itself.
    let out = run(&["exec", "-t", "remote", "-c", "b", "--", "sh", "-c", "tty; echo tty-ok"], None);
    succeeded(&out);
    assert!(stdout(&out).contains("/dev/pts/") && stdout(&out).contains("tty-ok"), "{}", stdout(&out));

    let out = run(&["delete", "remote"], None);
    assert_eq!(code(&out), 0, "delete: {}", stderr(&out));
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

/// Volumes and termination messages through a remote transport: engine volumes filled through
/// the API (the same code as plain TCP, tests/suite/e2e_engine_volumes.rs), with podrun's state in a
/// directory of the test's own that must stay free of volume content.
fn volumes_round_trip(ns: &Namespace, env: &[(&str, &str)], state: &Dir) {
    let _volumes = NamespaceVolumes(ns.name().to_owned());
    let state_dir = state.s("state");
    let mut env = env.to_vec();
    env.push(("PODRUN_STATE_DIR", state_dir.as_str()));
    let run = |args: &[&str]| {
        let mut all: Vec<&str> = vec![args[0], "-n", ns.name()];
        all.extend_from_slice(&args[1..]);
        podrun_with(&all, None, &env)
    };
    let configs =
        ["--config", "tests/manifests/config/settings.yaml", "--config", "tests/manifests/config/credentials.yaml"];
    let mut args = vec!["apply", "tests/manifests/run/volumes-config.yaml", "-q", "--timeout", "90s"];
    args.extend_from_slice(&configs);
    let out = run(&args);
    assert_eq!(code(&out), 0, "apply volumes-config: {}", stderr(&out));
    let text = stdout(&run(&["logs", "volumes-config", "-c", "show"]));
    for want in
        ["hello from a configmap", "400 /etc/creds/username\n400 /etc/creds/password\n", "retries=3\ncolor=blue\n"]
    {
        assert!(text.contains(want), "{want:?} not in:\n{text}");
    }
    let out = run(&["apply", "tests/manifests/run/termination-message.yaml", "-o", "json", "--timeout", "90s"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(stdout(&out).contains("\"message\": \"all done\\n\""), "{}", stdout(&out));
    // Nothing of the volumes was written on podrun's side.
    let mut files = Vec::new();
    let mut dirs = vec![PathBuf::from(&state_dir)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                dirs.push(e.path());
            } else if e.path().components().any(|c| c.as_os_str() == "volumes") {
                files.push(e.path());
            }
        }
    }
    assert!(files.is_empty(), "volume files on podrun's host: {files:?}");
    for pod in ["volumes-config", "termination-message"] {
        let out = run(&["delete", pod]);
        assert_eq!(code(&out), 0, "delete {pod}: {}", stderr(&out));
    }
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
    let filter = format!("label=io.kubernetes.pod.namespace={}", ns.name());
    let left = docker_on(None, &["volume", "ls", "-q", "--filter", &filter]);
    assert_eq!(String::from_utf8_lossy(&left.stdout).trim(), "", "the pods' volumes go with them");
}

/// Removes the engine volumes of a namespace when dropped, should a test fail half-way.
struct NamespaceVolumes(String);

impl Drop for NamespaceVolumes {
    fn drop(&mut self) {
        let filter = format!("label=io.kubernetes.pod.namespace={}", self.0);
        let out = docker_on(None, &["volume", "ls", "-q", "--filter", &filter]);
        for v in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            let _ = docker_on(None, &["volume", "rm", "-f", v]);
        }
    }
}

#[test]
fn e2e_tls_engine_through_docker_tls_verify_and_cert_path() {
    require_engine!();
    require_tool!("openssl");
    require_tool!("socat");
    let d = Dir::new("tls");
    make_certs(&d);
    let (_socat, port) = tls_endpoint(&d);
    let host = format!("tcp://127.0.0.1:{port}");
    let certs = d.s("client");
    let env = [("DOCKER_HOST", host.as_str()), ("DOCKER_TLS_VERIFY", "1"), ("DOCKER_CERT_PATH", certs.as_str())];
    let ns = Namespace::new("tls");
    round_trip(&ns, &env, &[]);
    volumes_round_trip(&ns, &env, &d);

    // The same with the flags, as `docker --tlsverify --tlscacert ... -H`.
    let (ca, cert, key) = (d.s("client/ca.pem"), d.s("client/cert.pem"), d.s("client/key.pem"));
    let out = podrun_with(
        &["--tlsverify", "--tlscacert", &ca, "--tlscert", &cert, "--tlskey", &key, "-H", &host, "get", "-n", ns.name()],
        None,
        &[],
    );
    succeeded(&out);
}

#[test]
fn e2e_tls_refusals_are_exit_3_and_say_who_refused() {
    require_engine!();
    require_tool!("openssl");
    require_tool!("socat");
    let d = Dir::new("tls-refusals");
    make_certs(&d);
    let (_socat, port) = tls_endpoint(&d);
    let host = format!("tcp://127.0.0.1:{port}");
    let get = |cert_path: &str| {
        let start = Instant::now();
        let env = [("DOCKER_HOST", host.as_str()), ("DOCKER_TLS_VERIFY", "1"), ("DOCKER_CERT_PATH", cert_path)];
        let out = podrun_with(&["get", "-n", "tls-refusals"], None, &env);
        assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());
        assert_eq!(code(&out), 3, "{}", stderr(&out));
        stderr(&out)
    };
    let e = get(&d.s("other"));
    assert!(e.contains("the engine's certificate is not signed by the CA in") && e.contains("other/ca.pem"), "{e}");
    let e = get(&d.s("nocert"));
    assert!(e.contains("requires a client certificate, and none was given"), "{e}");
    let e = get(&d.s("expired"));
    assert!(e.contains("expired/cert.pem") && e.contains("has expired"), "{e}");
    let e = get(&d.s("nowhere"));
    assert!(e.contains("cannot read the CA certificate") && e.contains("nowhere/ca.pem"), "{e}");
    // Plain HTTP to a TLS port, and TLS to a plain port, fail fast too.
    let out = podrun_with(&["get", "-n", "tls-refusals"], None, &[("DOCKER_HOST", host.as_str())]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
}

#[test]
fn e2e_tls_engine_through_a_docker_context() {
    require_engine!();
    require_tool!("openssl");
    require_tool!("socat");
    let d = Dir::new("tls-context");
    make_certs(&d);
    let (_socat, port) = tls_endpoint(&d);
    // As `docker context create podrun-tls --docker host=...,ca=...,cert=...,key=...` writes
    // it: meta and TLS directories named by the sha256 of the name.
    let id = "0f7e2b4c6a7b1e8f1a39c1b5ad4c0c6b0e8b1c7d2f0e6a5b4c3d2e1f0a9b8c7d";
    let config = d.join("docker-config");
    let meta = config.join("contexts/meta").join(id);
    let tls = config.join("contexts/tls").join(id).join("docker");
    std::fs::create_dir_all(&meta).expect("meta dir");
    std::fs::create_dir_all(&tls).expect("tls dir");
    let json = format!(
        r#"{{"Name":"podrun-tls","Metadata":{{}},"Endpoints":{{"docker":{{"Host":"tcp://127.0.0.1:{port}","SkipTLSVerify":false}}}}}}"#
    );
    std::fs::write(meta.join("meta.json"), json).expect("meta.json");
    for f in ["ca.pem", "cert.pem", "key.pem"] {
        std::fs::copy(d.join(&format!("client/{f}")), tls.join(f)).expect("copy");
    }
    let config_s = config.to_string_lossy().into_owned();
    let env = [("DOCKER_CONFIG", config_s.as_str())];
    let ns = Namespace::new("tls-context");
    round_trip(&ns, &env, &["--context", "podrun-tls"]);

    // Without a client certificate in the context, the engine refuses: exit 3.
    std::fs::remove_file(tls.join("key.pem")).expect("rm key");
    let out = podrun_with(&["--context", "podrun-tls", "get"], None, &env);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("podrun-tls") && stderr(&out).contains("client certificate"), "{}", stderr(&out));
}

/// An sshd on 127.0.0.1 that lets root in with a key made here; `bin/ssh` runs the system's ssh
/// with a config of the test's own (its key, a known_hosts holding the sshd's host key), as a
/// user's ~/.ssh/config would.
struct Sshd {
    _daemon: Daemon,
    port: u16,
    /// PATH with the test's ssh first.
    path: String,
    made_run_dir: bool,
}

impl Drop for Sshd {
    fn drop(&mut self) {
        if self.made_run_dir {
            let _ = std::fs::remove_dir("/run/sshd");
        }
    }
}

fn keygen(path: &Path) {
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "podrun-test", "-f"])
        .arg(path)
        .output()
        .expect("run ssh-keygen");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn sshd(d: &Dir) -> Sshd {
    let port = free_port();
    keygen(&d.join("host_key"));
    keygen(&d.join("id"));
    keygen(&d.join("stranger"));
    std::fs::copy(d.join("id.pub"), d.join("authorized_keys")).expect("authorized_keys");
    let config = format!(
        "Port {port}\nListenAddress 127.0.0.1\nHostKey {}\nAuthorizedKeysFile {}\nPidFile {}\n\
         PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
         StrictModes no\nUsePAM no\n",
        d.s("host_key"),
        d.s("authorized_keys"),
        d.s("sshd.pid")
    );
    std::fs::write(d.join("sshd_config"), config).expect("sshd_config");
    // sshd wants its privilege separation directory.
    let made_run_dir = !Path::new("/run/sshd").exists();
    if made_run_dir {
        std::fs::create_dir_all("/run/sshd").expect("/run/sshd");
    }
    let log = d.join("sshd.log");
    let mut daemon = Daemon::start("/usr/sbin/sshd", &["-D", "-e", "-f", &d.s("sshd_config")], &log);
    daemon.wait_for_port(port, &log);

    let host_key = std::fs::read_to_string(d.join("host_key.pub")).expect("host key");
    let host_key: Vec<&str> = host_key.split_whitespace().take(2).collect();
    std::fs::write(d.join("known_hosts"), format!("[127.0.0.1]:{port} {}\n", host_key.join(" "))).expect("known_hosts");
    let ssh_config = format!(
        "Host *\n  IdentityFile {}\n  IdentitiesOnly yes\n  UserKnownHostsFile {}\n  StrictHostKeyChecking yes\n",
        d.s("id"),
        d.s("known_hosts")
    );
    std::fs::write(d.join("ssh_config"), ssh_config).expect("ssh_config");
    std::fs::create_dir_all(d.join("bin")).expect("bin");
    let wrapper = format!("#!/bin/sh\nexec /usr/bin/ssh -F {} \"$@\"\n", d.s("ssh_config"));
    std::fs::write(d.join("bin/ssh"), wrapper).expect("ssh wrapper");
    let out = Command::new("chmod").arg("755").arg(d.join("bin/ssh")).output().expect("chmod");
    assert!(out.status.success());
    let path = format!("{}:{}", d.s("bin"), std::env::var("PATH").unwrap_or_default());
    Sshd { _daemon: daemon, port, path, made_run_dir }
}

/// ssh processes still running for the sshd at `port`.
fn ssh_processes(port: u16) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return found };
    for e in entries.filter_map(Result::ok) {
        let Ok(cmdline) = std::fs::read(e.path().join("cmdline")) else { continue };
        let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        let is_ssh = args.first().is_some_and(|a| a.ends_with("/ssh") || a == "ssh");
        if is_ssh && args.iter().any(|a| a == &port.to_string()) && args.iter().any(|a| a == "dial-stdio") {
            found.push(args.join(" "));
        }
    }
    found
}

#[test]
fn e2e_ssh_engine_apply_logs_exec_delete() {
    require_engine!();
    require_tool!("/usr/sbin/sshd");
    require_tool!("ssh");
    let d = Dir::new("ssh");
    let sshd = sshd(&d);
    let socket = engine_socket();
    // A socket path in the URL is the engine's socket on the far side.
    let host = if socket == "/var/run/docker.sock" {
        format!("ssh://root@127.0.0.1:{}", sshd.port)
    } else {
        format!("ssh://root@127.0.0.1:{}{socket}", sshd.port)
    };
    let env = [("DOCKER_HOST", host.as_str()), ("PATH", sshd.path.as_str())];
    let ns = Namespace::new("ssh");
    round_trip(&ns, &env, &[]);
    volumes_round_trip(&ns, &env, &d);

    // podrun leaves no ssh process behind (bounded wait: they end as their pipes close).
    wait_until_every("no ssh process left", Duration::from_secs(5), Duration::from_millis(50), || {
        let left = ssh_processes(sshd.port);
        if left.is_empty() {
            Ok(())
        } else {
            Err(left)
        }
    });

    // The same engine through a Docker context whose Host is the ssh:// address.
    let meta = d.join("docker-config/contexts/meta/ssh-context");
    std::fs::create_dir_all(&meta).expect("meta dir");
    let json = format!(r#"{{"Name":"podrun-ssh","Metadata":{{}},"Endpoints":{{"docker":{{"Host":"{host}"}}}}}}"#);
    std::fs::write(meta.join("meta.json"), json).expect("meta.json");
    let config = d.s("docker-config");
    let ctx_env = [("DOCKER_CONFIG", config.as_str()), ("PATH", sshd.path.as_str())];
    let out = podrun_with(&["--context", "podrun-ssh", "get", "-n", ns.name()], None, &ctx_env);
    succeeded(&out);

    // A key the sshd does not know: exit 3, with what ssh said.
    let config = std::fs::read_to_string(d.join("ssh_config")).expect("ssh_config");
    std::fs::write(d.join("ssh_config"), config.replace(&d.s("id"), &d.s("stranger"))).expect("ssh_config");
    let out = podrun_with(&["get", "-n", ns.name()], None, &env);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("Permission denied"), "{}", stderr(&out));

    // Nobody listening: exit 3, fast.
    let closed = format!("ssh://root@127.0.0.1:{}", free_port());
    let start = Instant::now();
    let out = podrun_with(&["get"], None, &[("DOCKER_HOST", closed.as_str()), ("PATH", sshd.path.as_str())]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains("Connection refused"), "{}", stderr(&out));
    assert!(start.elapsed() < Duration::from_secs(20));
}
