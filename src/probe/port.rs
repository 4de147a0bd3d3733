//! The TCP side of network probes: the port a probe names, and a connection to it.

use tokio::net::TcpStream;

use crate::manifest::types::{ContainerPort, IntOrString};

use super::join_host_port;

pub(super) async fn connect(host: &str, port: u16) -> Result<TcpStream, String> {
    TcpStream::connect((host, port)).await.map_err(|e| format!("dial tcp {}: {e}", join_host_port(host, port)))
}

/// A port number, or a name looked up among the container's ports. A number written as a
/// string counts as the number, as in the kubelet.
pub fn resolve_port(port: &IntOrString, ports: &[ContainerPort]) -> Result<u16, String> {
    let number = match port {
        IntOrString::Int(n) => *n,
        IntOrString::String(s) => match s.parse::<i64>() {
            Ok(n) => n,
            Err(_) => ports
                .iter()
                .find(|p| p.name.as_deref() == Some(s.as_str()))
                .map(|p| p.container_port)
                .ok_or_else(|| format!("port {s:?} not found among the container's ports"))?,
        },
    };
    u16::try_from(number).ok().filter(|p| *p != 0).ok_or_else(|| format!("invalid port number {number}"))
}
