//! systemd's service protocol (sd_notify(3)), for `apply --supervise` under a `Type=notify`
//! unit: one datagram such as `READY=1` to the socket `$NOTIFY_SOCKET` names, and the
//! watchdog's settings (`WATCHDOG_USEC`, `WATCHDOG_PID`) as sd_watchdog_enabled(3) reads them.
//! Without `NOTIFY_SOCKET` (not started by systemd) nothing is sent.
//!
//! A send never waits: the socket is whoever set the variable's, and one whose queue is full
//! (a systemd that is busy or stuck, or anyone's socket) must not hold the supervisor, its
//! signals or its pods. A message that does not fit is dropped, as the kubelet, which sends
//! from a goroutine of its own, never waits on it either.

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Whether a failed send was said already: once is enough (the watchdog sends every few
/// seconds, and a socket that stays full would fill the journal with the same line).
static WARNED: AtomicBool = AtomicBool::new(false);

/// Sends `state` (`READY=1`, `STATUS=...`, newline-separated) to systemd, if it listens. A
/// failure is logged once, then dropped without a word: the pods matter more than the unit's
/// bookkeeping.
pub fn notify(state: &str) {
    let Some(socket) = std::env::var_os("NOTIFY_SOCKET").filter(|s| !s.is_empty()) else { return };
    if let Err(e) = notify_to(&socket, state) {
        if !WARNED.swap(true, Ordering::Relaxed) {
            let what = state.lines().next().unwrap_or_default();
            // Quoted as Debug does, which escapes control characters: the socket's name is
            // anyone's who set the variable.
            tracing::warn!(
                "cannot tell systemd {what:?} through {:?}: {e}; this and further messages that cannot be sent are \
                 dropped",
                socket.to_string_lossy()
            );
        }
    }
}

/// Sends `state` to `socket`, a path or `@name` for a socket in the abstract namespace,
/// without waiting: a full socket is `WouldBlock`.
pub fn notify_to(socket: &OsStr, state: &str) -> io::Result<()> {
    let sock = UnixDatagram::unbound()?;
    sock.set_nonblocking(true)?;
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

/// The watchdog's timeout when systemd expects `WATCHDOG=1` from this process, as
/// sd_watchdog_enabled(3): `WATCHDOG_USEC` set and above zero, and `WATCHDOG_PID`, if set,
/// this process's (a child that inherited the variables is not the one watched).
pub fn watchdog_timeout() -> Option<Duration> {
    let var = |name| std::env::var(name).ok();
    watchdog_timeout_of(var("WATCHDOG_USEC").as_deref(), var("WATCHDOG_PID").as_deref(), std::process::id())
}

fn watchdog_timeout_of(usec: Option<&str>, pid: Option<&str>, me: u32) -> Option<Duration> {
    let usec = usec?.trim().parse::<u64>().ok().filter(|u| *u > 0)?;
    if let Some(pid) = pid {
        if pid.trim().parse::<u32>().ok()? != me {
            return None;
        }
    }
    Some(Duration::from_micros(usec))
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

    #[test]
    fn a_full_socket_is_would_block_at_once() {
        let dir = crate::test_support::TempDir::new("notify-full");
        let path = dir.join("notify.sock");
        let _listener = UnixDatagram::bind(&path).unwrap();
        let started = std::time::Instant::now();
        // The queue of a datagram socket nobody reads is bounded (net.unix.max_dgram_qlen, and
        // the buffers): it fills within a few thousand messages.
        let full = (0..100_000).map(|_| notify_to(path.as_os_str(), "WATCHDOG=1")).find_map(Result::err);
        assert_eq!(full.map(|e| e.kind()), Some(io::ErrorKind::WouldBlock));
        assert!(started.elapsed() < Duration::from_secs(5), "never waited: {:?}", started.elapsed());
    }

    #[test]
    fn the_watchdog_is_on_for_the_process_systemd_watches() {
        let of = watchdog_timeout_of;
        assert_eq!(of(Some("30000000"), None, 7), Some(Duration::from_secs(30)));
        assert_eq!(of(Some("30000000"), Some("7"), 7), Some(Duration::from_secs(30)));
        assert_eq!(of(Some("30000000"), Some("8"), 7), None, "another process's");
        assert_eq!(of(Some("30000000"), Some("x"), 7), None);
        assert_eq!(of(Some("0"), None, 7), None);
        assert_eq!(of(Some("soon"), None, 7), None);
        assert_eq!(of(None, Some("7"), 7), None);
    }
}
