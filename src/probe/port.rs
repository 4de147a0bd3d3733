//! The TCP side of network probes: the port a probe names, and a connection to it.

use tokio::net::TcpStream;

use crate::manifest::types::{ContainerPort, IntOrString};

use super::join_host_port;

/// A port a probe names that no container port is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortError {
    #[error("port {0:?} not found among the container's ports")]
    NoSuchName(String),
    #[error("invalid port number {0}")]
    Invalid(i64),
}

/// No connection to a probe's address (Go's words, as the kubelet reports them).
#[derive(Debug, thiserror::Error)]
#[error("dial tcp {address}")]
pub struct DialError {
    address: String,
    #[source]
    source: std::io::Error,
}

pub(super) async fn connect(host: &str, port: u16) -> Result<TcpStream, DialError> {
    TcpStream::connect((host, port)).await.map_err(|source| DialError { address: join_host_port(host, port), source })
}

/// A port number, or a name looked up among the container's ports. A number written as a
/// string counts as the number, as in the kubelet.
pub fn resolve_port(port: &IntOrString, ports: &[ContainerPort]) -> Result<u16, PortError> {
    let number = match port {
        IntOrString::Int(n) => *n,
        IntOrString::String(s) => match s.parse::<i64>() {
            Ok(n) => n,
            Err(_) => ports
                .iter()
                .find(|p| p.name.as_deref() == Some(s.as_str()))
                .map(|p| p.container_port)
                .ok_or_else(|| PortError::NoSuchName(s.clone()))?,
        },
    };
    u16::try_from(number).ok().filter(|p| *p != 0).ok_or(PortError::Invalid(number))
}
