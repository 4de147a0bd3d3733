//! Which CRI runtime to use: `--runtime-endpoint`, CONTAINER_RUNTIME_ENDPOINT (as crictl takes
//! them), or, with no engine named at all, the first runtime socket found.

use std::path::Path;

/// The sockets looked for, in order, when nothing names an engine and Docker's socket is
/// absent: containerd's, then CRI-O's (crictl's own default list, without dockershim's).
pub const DISCOVERY: &[&str] = &["/run/containerd/containerd.sock", "/run/crio/crio.sock", "/var/run/crio/crio.sock"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("{0:?}: a CRI endpoint is a unix socket: unix:///path/to/socket")]
    NotUnix(String),
    #[error("{0:?}: the socket path is empty")]
    Empty(String),
}

/// The socket path of `endpoint`: `unix:///path`, or a bare absolute path (as crictl allows).
pub fn socket_path(endpoint: &str) -> Result<String, EndpointError> {
    let path = match endpoint.strip_prefix("unix://") {
        Some(p) => p,
        None if endpoint.starts_with('/') => endpoint,
        None => return Err(EndpointError::NotUnix(endpoint.to_owned())),
    };
    if path.is_empty() {
        return Err(EndpointError::Empty(endpoint.to_owned()));
    }
    Ok(path.to_owned())
}

/// The first of `candidates` that is a socket, as an endpoint.
pub fn discover(candidates: &[&str]) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    candidates
        .iter()
        .find(|p| std::fs::metadata(Path::new(p)).is_ok_and(|m| m.file_type().is_socket()))
        .map(|p| format!("unix://{p}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_unix_sockets_as_crictl_takes_them() {
        assert_eq!(socket_path("unix:///run/containerd/containerd.sock").unwrap(), "/run/containerd/containerd.sock");
        assert_eq!(socket_path("/run/crio/crio.sock").unwrap(), "/run/crio/crio.sock");
        assert!(matches!(socket_path("tcp://h:1"), Err(EndpointError::NotUnix(_))));
        assert!(matches!(socket_path("unix://"), Err(EndpointError::Empty(_))));
    }

    #[test]
    fn discovery_takes_the_first_socket_and_skips_other_files() {
        let dir = crate::test_support::TempDir::new("cri-discovery");
        let file = dir.join("plain");
        std::fs::write(&file, b"").unwrap();
        let sock = dir.join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let (f, s) = (file.to_str().unwrap(), sock.to_str().unwrap());
        assert_eq!(discover(&["/nonexistent/x.sock", f, s]), Some(format!("unix://{s}")));
        assert_eq!(discover(&[f]), None);
    }
}
