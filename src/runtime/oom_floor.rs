//! The lowest OOM score adjustment an engine beside podrun can give a container. Lowering a
//! process's oom_score_adj takes CAP_SYS_RESOURCE: an engine without it (as in some VMs and
//! user namespaces) fails to start a container asked for a score below its own (runc: "can't
//! get final child's PID from pipe"). containerd's `restrict_oom_score_adj` raises such scores
//! to its own; podrun does the same, reading the engine daemon's capabilities and score from
//! /proc (the daemon is the peer of its unix socket).

use std::path::Path;

/// CAP_SYS_RESOURCE, as a bit of `CapEff` in /proc/<pid>/status.
const CAP_SYS_RESOURCE: u32 = 24;

/// What an engine daemon may give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rights {
    /// Any score: it has CAP_SYS_RESOURCE in the host's user namespace.
    AnyScore,
    /// None below its own.
    NotBelow(i64),
}

/// What the engine daemon `pid` may give; None when its /proc entries cannot be read.
pub(super) fn of_daemon(pid: i32) -> Option<Rights> {
    let read = |name: &str| {
        let path = Path::new("/proc").join(pid.to_string()).join(name);
        crate::private_fs::read_head(&path, 64 << 10).ok().flatten().map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let status = read("status")?;
    // Capabilities held in a user namespace of the daemon's own (rootless Podman re-executes
    // itself in one, with every capability there) do not lower a score: that takes
    // CAP_SYS_RESOURCE in the host's.
    let in_host_userns = is_identity_map(&read("uid_map")?);
    if in_host_userns && has_sys_resource(&status)? {
        return Some(Rights::AnyScore);
    }
    Some(Rights::NotBelow(read("oom_score_adj")?.trim().parse().ok()?))
}

/// Whether a /proc uid_map is the host's own: every uid mapped to itself.
fn is_identity_map(uid_map: &str) -> bool {
    let lines: Vec<Vec<&str>> = uid_map.lines().map(|l| l.split_whitespace().collect()).collect();
    matches!(lines.as_slice(), [fields] if fields.as_slice() == ["0", "0", "4294967295"])
}

/// Whether the `CapEff` line of a /proc status file holds CAP_SYS_RESOURCE.
fn has_sys_resource(status: &str) -> Option<bool> {
    let hex = status.lines().find_map(|l| l.strip_prefix("CapEff:"))?.trim();
    let caps = u64::from_str_radix(hex, 16).ok()?;
    Some(caps & (1 << CAP_SYS_RESOURCE) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capability_is_read_from_cap_eff() {
        assert_eq!(has_sys_resource("Name:\tdockerd\nCapEff:\t000001ffffffffff\n"), Some(true));
        assert_eq!(has_sys_resource("CapPrm:\t000001ffffffffff\nCapEff:\t000001fffeffffff\n"), Some(false));
        assert_eq!(has_sys_resource("Name:\tx\n"), None);
    }

    #[test]
    fn only_the_hosts_user_namespace_lends_its_capabilities() {
        assert!(is_identity_map("         0          0 4294967295\n"));
        assert!(!is_identity_map("         0       1001          1\n         1     200000      65536\n"));
        assert!(!is_identity_map(""));
    }

    #[test]
    fn this_process_is_read_as_a_daemon_would_be() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let own: i64 = std::fs::read_to_string("/proc/self/oom_score_adj").unwrap().trim().parse().unwrap();
        let host_userns = is_identity_map(&std::fs::read_to_string("/proc/self/uid_map").unwrap());
        let any = host_userns && has_sys_resource(&status).unwrap();
        let expected = Some(if any { Rights::AnyScore } else { Rights::NotBelow(own) });
        assert_eq!(of_daemon(i32::try_from(std::process::id()).unwrap()), expected);
    }
}
