//! Ending a command whose caller stopped waiting for it. The Docker API has no timeout for an
//! exec and no call to end one, so a probe's `sleep 3600` run every second with a 1 s timeout
//! left a new process in the container each time. containerd and CRI-O kill an `ExecSync` at its
//! timeout; podrun does the same on the Docker API when the call is dropped before the command
//! ended (`exec::exec`): it asks the engine for the exec's process (`Pid` of `GET /exec/{id}/json`, in the
//! host's pid namespace on Docker and on Podman, rootful or rootless) and kills it, but only
//! when it can prove that process is the exec's, in that container:
//!
//! - the engine is local (a unix socket): a pid from a remote engine names a process elsewhere;
//! - podrun holds the process (a pidfd) before it checks it, so the check and the kill are of
//!   one process, and the engine still says the exec runs with that pid after the pidfd was
//!   taken, so it is not another that came to have the number;
//! - the process is in the container's pid namespace and cgroup (those of its main process).
//!
//! Otherwise the command is left to end on its own, as before.

use std::path::PathBuf;

use rustix::process::{pidfd_open, pidfd_send_signal, Pid, PidfdFlags, Signal};

use super::transport::Dialer;
use super::DockerRuntime;

/// Kills the exec's process if it still runs and is provably the exec's; true if it did.
pub(super) async fn end(rt: &DockerRuntime, container: &str, exec_id: &str) -> bool {
    if !matches!(rt.dialer, Dialer::Unix(_)) {
        return false;
    }
    let Some(pid) = running_pid(rt, container, exec_id).await else { return false };
    let Some(main) = main_pid(rt, container).await else { return false };
    let Some(raw) = i32::try_from(pid).ok().and_then(Pid::from_raw) else { return false };
    // Held from here on: whatever has the number later, the signal goes to this process.
    let Ok(fd) = pidfd_open(raw, PidfdFlags::empty()) else { return false };
    if !same_container(pid, main) || running_pid(rt, container, exec_id).await != Some(pid) {
        return false;
    }
    let killed = pidfd_send_signal(&fd, Signal::KILL).is_ok();
    tracing::debug!(exec_id, pid, killed, "ended a command whose caller stopped waiting");
    killed
}

/// The exec's pid while the engine says it runs in `container`.
async fn running_pid(rt: &DockerRuntime, container: &str, exec_id: &str) -> Option<i64> {
    let info = rt.docker.inspect_exec(exec_id).await.ok()?;
    let ours = !container.is_empty() && info.container_id.is_some_and(|c| c.starts_with(container));
    (ours && info.running == Some(true)).then_some(info.pid?).filter(|p| *p > 0)
}

/// The pid of the container's main process.
async fn main_pid(rt: &DockerRuntime, container: &str) -> Option<i64> {
    let c = rt.docker.inspect_container(container, None).await.ok()?;
    c.state?.pid.filter(|p| *p > 0)
}

/// Whether process `pid` shares the pid namespace and the cgroups of process `main`.
fn same_container(pid: i64, main: i64) -> bool {
    let proc = |p: i64, what: &str| PathBuf::from(format!("/proc/{p}/{what}"));
    let ns = |p| std::fs::read_link(proc(p, "ns/pid")).ok();
    let cgroup = |p| std::fs::read(proc(p, "cgroup")).ok();
    ns(pid).is_some_and(|n| Some(n) == ns(main)) && cgroup(pid).is_some_and(|c| Some(c) == cgroup(main))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_proved_in_its_own_container_and_no_other() {
        let me = i64::from(std::process::id());
        assert!(same_container(me, me));
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let pid = i64::from(child.id());
        assert!(same_container(pid, me), "a child shares its parent's pid namespace and cgroups");
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!same_container(pid, me), "a process that is gone proves nothing");
        assert!(!same_container(me, i64::from(i32::MAX)), "nor does a pid that names no process");
    }
}
