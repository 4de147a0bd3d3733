//! Where podrun asks the runtime to put a pod's files: its logs (the kubelet's layout) and its
//! cgroup.

use std::path::{Path, PathBuf};

/// The kubelet's pod log directory, so log shippers that read a node's pod logs find podrun's.
pub const LOG_ROOT: &str = "/var/log/pods";

/// `/var/log/pods/<namespace>_<pod>_<uid>`, as the kubelet lays it out. Namespace, name and
/// uid are validated names (DNS labels and subdomains, a uid without `/`), so the three parts
/// stay one path component.
pub fn pod_log_dir(namespace: &str, pod: &str, uid: &str) -> PathBuf {
    Path::new(LOG_ROOT).join(component(&format!("{namespace}_{pod}_{uid}")))
}

/// A container's log file within its pod's folder: `<container>/<restart count>.log`.
pub fn container_log_path(container: &str, attempt: u32) -> String {
    format!("{}/{attempt}.log", component(container))
}

/// The cgroup parent of a pod's sandbox and containers (cgroupfs): the pod's own cgroup,
/// which podrun removes with the pod (the runtime leaves it behind).
pub fn cgroup_parent(uid: &str) -> String {
    crate::runtime::pod_cgroup::parent(uid)
}

/// `s` as one path component: a `/` or a leading `.` can never lead elsewhere, whatever a
/// label held.
fn component(s: &str) -> String {
    let s: String = s.chars().map(|c| if c == '/' || c == '\0' { '_' } else { c }).collect();
    if s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_kubelets_layout() {
        assert_eq!(pod_log_dir("default", "web", "u-1"), PathBuf::from("/var/log/pods/default_web_u-1"));
        assert_eq!(container_log_path("app", 2), "app/2.log");
        assert_eq!(cgroup_parent("u-1"), "/podrun/podu-1");
    }

    #[test]
    fn a_label_cannot_lead_out_of_the_folder() {
        assert_eq!(pod_log_dir("..", "/etc", "x"), PathBuf::from("/var/log/pods/_..__etc_x"));
        assert_eq!(container_log_path("../../x", 0), "_.._.._x/0.log");
    }
}
