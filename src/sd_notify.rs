//! systemd's readiness protocol (sd_notify(3)), for `apply --supervise` under a `Type=notify`
//! unit: one datagram such as `READY=1` to the socket `$NOTIFY_SOCKET` names. Without that
//! variable (not started by systemd) nothing is sent.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixDatagram;

/// Sends `state` (`READY=1`, `STATUS=...`, newline-separated) to systemd, if it listens. A
/// failure is only logged: the pods matter more than the unit's bookkeeping.
pub fn notify(state: &str) {
    let Some(socket) = std::env::var_os("NOTIFY_SOCKET").filter(|s| !s.is_empty()) else { return };
    if let Err(e) = notify_to(&socket, state) {
        tracing::warn!("cannot tell systemd {state:?} through {}: {e}", socket.to_string_lossy());
    }
}

/// Sends `state` to `socket`: a path, or `@name` for a socket in the abstract namespace.
pub fn notify_to(socket: &OsStr, state: &str) -> std::io::Result<()> {
    let sock = UnixDatagram::unbound()?;
    match socket.as_bytes().strip_prefix(b"@") {
        Some(name) => {
            use std::os::linux::net::SocketAddrExt;
            let addr = std::os::unix::net::SocketAddr::from_abstract_name(name)?;
            sock.send_to_addr(state.as_bytes(), &addr)?;
        }
        None => {
            sock.send_to(state.as_bytes(), socket)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reaches_a_path_socket_and_an_abstract_one() {
        let dir = crate::test_support::TempDir::new("notify");
        let path = dir.join("notify.sock");
        let listener = UnixDatagram::bind(&path).unwrap();
        notify_to(path.as_os_str(), "READY=1\nSTATUS=2 pods running").unwrap();
        let mut buf = [0u8; 64];
        let n = listener.recv(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"READY=1\nSTATUS=2 pods running");

        use std::os::linux::net::SocketAddrExt;
        let name = format!("podrun-test-notify-{}", std::process::id());
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
        let listener = UnixDatagram::bind_addr(&addr).unwrap();
        notify_to(OsStr::new(&format!("@{name}")), "READY=1").unwrap();
        let n = listener.recv(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"READY=1");
    }
}
