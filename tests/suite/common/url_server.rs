//! A loopback HTTP and HTTPS server of the tests' own, for manifests read from URLs: each path
//! answers as the test sets it (a body, a status, a redirect, a slow or an endless answer),
//! and every request head is kept for the test to check. Its certificate is made by the test
//! with openssl (`Certs`), and podrun is told to trust it by SSL_CERT_FILE. Threads only: one
//! to accept, one per connection, each bounded; all told to stop when the server is dropped.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// What the server answers on a path.
#[derive(Debug, Clone)]
pub enum Answer {
    Body(String),
    Status(u16),
    /// 302 to this location.
    Redirect(String),
    /// The body, only to a request carrying this header line (lower case), else 401.
    Guarded {
        header: String,
        body: String,
    },
    /// The head at once, then a byte a second, for `SLOW_FOR` at most.
    Slow,
    /// YAML comments without end (no length given), until the client stops reading.
    Endless,
}

/// How long a slow answer trickles before the server gives up on it.
pub const SLOW_FOR: Duration = Duration::from_secs(60);

/// A CA, a certificate it signed for 127.0.0.1, and a second CA that signed nothing here, in
/// a directory of the test's own, removed when dropped.
pub struct Certs {
    pub dir: PathBuf,
}

impl Certs {
    pub fn new(test: &str) -> Certs {
        let dir = std::env::temp_dir().join(format!("podrun-url-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("cert dir");
        let certs = Certs { dir };
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
        for ca in ["ca", "other-ca"] {
            let (key, cert) = (format!("{ca}-key.pem"), format!("{ca}.pem"));
            let out = ["-keyout", &key, "-out", &cert, "-days", "2", "-subj", "/CN=podrun url test CA"];
            certs.openssl(&[&["req", "-x509"][..], &ec, &out].concat());
        }
        std::fs::write(certs.dir.join("server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
            .expect("ext");
        let out = ["-keyout", "server-key.pem", "-out", "server.csr", "-subj", "/CN=127.0.0.1"];
        certs.openssl(&[&["req"][..], &ec, &out].concat());
        certs.openssl(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca-key.pem",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "server.ext",
        ]);
        certs
    }

    fn openssl(&self, args: &[&str]) {
        let out = Command::new("openssl").args(args).current_dir(&self.dir).output().expect("run openssl");
        assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// The file to give podrun as SSL_CERT_FILE: the CA that signed the server's certificate, or
    /// (`trusted` false) the other one.
    pub fn ca(&self, trusted: bool) -> String {
        self.dir.join(if trusted { "ca.pem" } else { "other-ca.pem" }).to_string_lossy().into_owned()
    }

    fn server_config(&self) -> Arc<rustls::ServerConfig> {
        let chain = CertificateDer::pem_file_iter(self.dir.join("server.pem"))
            .expect("server.pem")
            .collect::<Result<Vec<_>, _>>()
            .expect("a certificate");
        let key = PrivateKeyDer::from_pem_file(self.dir.join("server-key.pem")).expect("server-key.pem");
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("protocols")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("the server's certificate");
        Arc::new(config)
    }
}

impl Drop for Certs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The server; stops when dropped.
pub struct Server {
    pub port: u16,
    tls: bool,
    routes: Arc<Mutex<BTreeMap<String, Answer>>>,
    heads: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// A plain HTTP server, or HTTPS with the certificate of `certs`.
    pub fn start(certs: Option<&Certs>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("address").port();
        let tls = certs.map(Certs::server_config);
        let routes: Arc<Mutex<BTreeMap<String, Answer>>> = Arc::default();
        let heads: Arc<Mutex<Vec<String>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let shared = (routes.clone(), heads.clone(), stop.clone());
        let accept = std::thread::spawn(move || accept_loop(&listener, tls.as_ref(), &shared));
        Server { port, tls: certs.is_some(), routes, heads, stop, accept: Some(accept) }
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("{}://127.0.0.1:{}{path}", if self.tls { "https" } else { "http" }, self.port)
    }

    /// What `path` answers from now on.
    pub fn set(&self, path: &str, answer: Answer) {
        self.routes.lock().expect("routes").insert(path.to_owned(), answer);
    }

    /// The heads of the requests received so far, lower case.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().expect("heads").clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

type Shared = (Arc<Mutex<BTreeMap<String, Answer>>>, Arc<Mutex<Vec<String>>>, Arc<AtomicBool>);

fn accept_loop(listener: &TcpListener, tls: Option<&Arc<rustls::ServerConfig>>, shared: &Shared) {
    while !shared.2.load(Ordering::Relaxed) {
        let Ok((tcp, _)) = listener.accept() else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let (shared, tls) = (shared.clone(), tls.cloned());
        std::thread::spawn(move || {
            let _ = tcp.set_nonblocking(false);
            let _ = tcp.set_read_timeout(Some(Duration::from_secs(10)));
            let _ = tcp.set_write_timeout(Some(Duration::from_secs(10)));
            match tls {
                Some(config) => {
                    if let Ok(conn) = rustls::ServerConnection::new(config) {
                        serve(rustls::StreamOwned::new(conn, tcp), &shared);
                    }
                }
                None => serve(tcp, &shared),
            }
        });
    }
}

/// Reads one request head (64 KiB at most) and answers it.
fn serve(mut s: impl Read + Write, (routes, heads, stop): &Shared) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 64 * 1024 {
        match s.read(&mut byte) {
            // Not a request (a TLS handshake on the plain port): answered as web servers do.
            Ok(1) if head.is_empty() && !byte[0].is_ascii_uppercase() => {
                let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
                return;
            }
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).to_lowercase();
    heads.lock().expect("heads").push(head.clone());
    let path = head.split(' ').nth(1).unwrap_or("/").to_owned();
    let answer = routes.lock().expect("routes").get(&path).cloned().unwrap_or(Answer::Status(404));
    let _ = answer_with(&mut s, answer, &head, stop);
    let _ = s.flush();
}

fn answer_with(s: &mut impl Write, answer: Answer, head: &str, stop: &AtomicBool) -> std::io::Result<()> {
    let reply = |s: &mut dyn Write, status: &str, extra: &str, body: &str| {
        write!(s, "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}", body.len())
    };
    match answer {
        Answer::Body(body) => reply(s, "200 OK", "", &body),
        Answer::Status(code) => reply(s, &format!("{code} Status"), "", ""),
        Answer::Redirect(to) => reply(s, "302 Found", &format!("Location: {to}\r\n"), ""),
        Answer::Guarded { header, body } if head.lines().any(|l| l.trim_end() == header) => {
            reply(s, "200 OK", "", &body)
        }
        Answer::Guarded { .. } => reply(s, "401 Unauthorized", "", ""),
        Answer::Slow => {
            write!(s, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n")?;
            let end = Instant::now() + SLOW_FOR;
            while Instant::now() < end && !stop.load(Ordering::Relaxed) {
                s.write_all(b"#")?;
                s.flush()?;
                std::thread::sleep(Duration::from_secs(1));
            }
            Ok(())
        }
        Answer::Endless => {
            write!(s, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")?;
            let line = format!("#{}\n", "x".repeat(1023));
            // Ends when podrun stops reading, or past 1 GiB (podrun reads 64 MiB at most).
            for _ in 0..1024 * 1024 {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                s.write_all(line.as_bytes())?;
            }
            Ok(())
        }
    }
}
