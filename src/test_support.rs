//! Helpers shared by unit tests.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the test manifests are (the project's own, and the Kubernetes documentation corpus
/// when it is there): the same file the tests under `tests/` use.
#[path = "../tests/suite/common/manifests.rs"]
pub mod manifests;

/// A skipped test's record (stderr, and PODRUN_SKIP_LOG for scripts/test's count): the same
/// file the tests under `tests/` use.
#[path = "../tests/suite/common/skip_log.rs"]
pub mod skip_log;

/// A fresh, empty directory under the system temp dir, unique to this process and call, and
/// removed (with what the test put in it) when dropped.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("podrun-test-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reads an HTTP request's head (up to the blank line) from a test server's connection, as
/// text; what came before the connection closed, if it closes first.
pub async fn read_http_head(sock: &mut (impl tokio::io::AsyncRead + Unpin)) -> String {
    use tokio::io::AsyncReadExt;
    let mut req = Vec::new();
    let mut chunk = [0u8; 1024];
    while !req.ends_with(b"\r\n\r\n") {
        match sock.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => req.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&req).into_owned()
}
