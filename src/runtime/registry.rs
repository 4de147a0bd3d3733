//! Whether an image's registry can be reached at all from here: a name lookup and a TCP
//! connection, nothing more. The engine reports "no answer" and "refused credentials" with the
//! same status, and podrun must tell them apart without reading the engine's message: an
//! offline host may fall back to its local copy of an image; a refusal may not.

use std::time::Duration;

use tokio::net::TcpStream;

use super::auth::registry_of;

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

pub async fn reachable(image: &str) -> bool {
    let (host, port) = endpoint(image);
    tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host.as_str(), port))).await.is_ok_and(|r| r.is_ok())
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
}
