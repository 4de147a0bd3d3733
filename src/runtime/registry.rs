//! Whether an image's registry can be reached at all from here: a name lookup and a TCP
//! connection, nothing more. The engine reports "no answer" and "refused credentials" with the
//! same status, and podrun must tell them apart without reading the engine's message: an
//! offline host may fall back to its local copy of an image; a refusal may not.
//!
//! Each registry is checked once however many pulls from it fail together (the pods of one run
//! on an offline host): the checks share one answer, kept for `FRESH` after it came.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::sync::OnceCell;
use tokio::time::Instant;

use crate::manifest::image::registry_of;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The host and port the engine pulls `image` from (Docker Hub for unqualified names).
pub fn endpoint(image: &str) -> (String, u16) {
    let registry = registry_of(image);
    let registry = if registry == "docker.io" { "registry-1.docker.io".to_owned() } else { registry };
    match registry.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => (host.to_owned(), port.parse().unwrap_or(443)),
        _ => (registry, 443),
    }
}

/// How long an answer serves later checks: short, so a retry after `--retry-delay` looks at
/// the network again (it may have come up since).
const FRESH: Duration = Duration::from_millis(900);

type Answer = Arc<OnceCell<(bool, Instant)>>;

/// The answers of this process, by endpoint; a check under way is shared by those that ask.
static ANSWERS: LazyLock<Mutex<HashMap<(String, u16), Answer>>> = LazyLock::new(Mutex::default);

pub async fn reachable(image: &str) -> bool {
    let key = endpoint(image);
    let answer = {
        let mut answers = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        answers.retain(|_, a| a.get().is_none_or(|(_, at)| now.duration_since(*at) < FRESH));
        answers.entry(key.clone()).or_default().clone()
    };
    answer.get_or_init(|| async { (connects(&key.0, key.1).await, Instant::now()) }).await.0
}

async fn connects(host: &str, port: u16) -> bool {
    tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port))).await.is_ok_and(|r| r.is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints() {
        assert_eq!(endpoint("busybox"), ("registry-1.docker.io".into(), 443));
        assert_eq!(endpoint("127.0.0.1:5000/x:1"), ("127.0.0.1".into(), 5000));
        assert_eq!(endpoint("registry.k8s.io/busybox"), ("registry.k8s.io".into(), 443));
    }

    #[tokio::test]
    async fn a_closed_local_port_is_unreachable() {
        // Bind and drop, so nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        assert!(!reachable(&format!("127.0.0.1:{port}/x:1")).await);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let open = listener.local_addr().unwrap().port();
        assert!(reachable(&format!("127.0.0.1:{open}/x:1")).await);
    }

    #[tokio::test]
    async fn concurrent_checks_of_one_registry_share_an_answer_for_a_moment() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let image = format!("127.0.0.1:{port}/x:1");
        let answers = futures_util::future::join_all((0..5).map(|_| reachable(&image))).await;
        assert!(answers.iter().all(|a| *a));
        drop(listener);
        // Still the answer of a moment ago, then a new look.
        assert!(reachable(&image).await);
        tokio::time::sleep(FRESH).await;
        assert!(!reachable(&image).await);
    }
}
