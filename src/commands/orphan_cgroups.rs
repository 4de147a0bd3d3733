//! The pod cgroups of podrun's pods that are gone, removed by `gc` and `delete`, as the kubelet's
//! cleanupOrphanedPodCgroups (pkg/kubelet/kubelet_pods.go) removes the cgroups of pods that
//! should not run. A pod cgroup (`/podrun/pod<uid>`, in every hierarchy: `pod_cgroup::found`)
//! goes once nothing says its pod may still run:
//! - no container of the pod's uid is on the engine (podrun's or not);
//! - podrun's state directory has no files of the pod: a run of it (on this engine or another)
//!   makes them before the cgroup and holds them while it drives the pod, and they go with the
//!   pod; a pod whose volumes are still there keeps its cgroup, as the kubelet keeps one until
//!   the pod's volumes are gone;
//! - the cgroup is older than `--min-age`: a podrun with another state directory may be making
//!   the pod right now, its cgroup made, its first container not yet.
//!
//! The kubelet kills what is left in an orphaned cgroup before it removes it. podrun kills
//! nothing: a process there may belong to the same pod run by another engine (the uid comes
//! from the pod's namespace and name) or by a podrun with another state directory, which podrun
//! cannot prove gone. It removes with rmdir only, which the kernel refuses for a cgroup that
//! still has processes, and says which it left.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime};

use crate::escape::escape;
use crate::manifest::defaults::derive_uid;
use crate::pod::files::PodFiles;
use crate::pod::volumes;
use crate::report::{output, PodKey, Reporter};
use crate::runtime::labels;
use crate::runtime::pod_cgroup::{self, Found};
use crate::runtime::{ContainerRuntime, Observed, Selector};

/// The pods among `found` whose cgroups can go: not `alive` (a container or files of theirs
/// are left), and unchanged for `min_age`. A cgroup whose age cannot be told is kept.
pub fn orphaned(found: &[Found], alive: &BTreeSet<&str>, now: SystemTime, min_age: Duration) -> Vec<String> {
    found
        .iter()
        .filter(|f| !alive.contains(f.uid.as_str()))
        .filter(|f| f.changed.is_some_and(|t| now.duration_since(t).unwrap_or(Duration::ZERO) >= min_age))
        .map(|f| f.uid.clone())
        .collect()
}

/// How `gc` sweeps: what it may take, and whether it only says so.
#[derive(Debug, Clone, Copy)]
pub struct Sweep<'a> {
    pub dry_run: bool,
    pub quiet: bool,
    pub min_age: Duration,
    pub verb: &'a str,
}

/// `gc`'s step: removes the cgroups of the pods that have neither a container among
/// `remaining` nor files in `files`; the files of the gone pods, `files_gone`, went before (a
/// dry run only said so: they count as gone).
pub fn collect(
    files: &PodFiles,
    remaining: &[Observed],
    files_gone: &[String],
    sweep: Sweep<'_>,
    reporter: &dyn Reporter,
) {
    if !pod_cgroup::available() {
        return;
    }
    let dirs = files.pod_dirs();
    let mut alive: BTreeSet<&str> = remaining.iter().filter_map(|c| c.label(labels::POD_UID)).collect();
    let kept = dirs.iter().filter(|(uid, _)| !(sweep.dry_run && files_gone.contains(uid)));
    alive.extend(kept.map(|(uid, _)| uid.as_str()));
    let now = SystemTime::now();
    for uid in orphaned(&pod_cgroup::found(), &alive, now, sweep.min_age) {
        let path = pod_cgroup::parent(&uid);
        if !sweep.dry_run && !pod_cgroup::remove(&uid) {
            // Most often the same pod run by another engine; said only of a pod that was this
            // engine's (its files went just now).
            if files_gone.contains(&uid) {
                reporter.warning(&in_use(&path));
            }
            continue;
        }
        if !sweep.quiet {
            let line = format!("{} cgroup {path}: its pod (uid {uid}) has no container left", sweep.verb);
            let _ = output::println(&escape(&line));
        }
    }
}

fn in_use(path: &str) -> String {
    escape(&format!(
        "cgroup {path}: its pod has no container left, but the cgroup is still in use: left as it is (podrun \
         kills nothing it cannot prove its own; see cgroup.procs under /sys/fs/cgroup/*{path})"
    ))
    .into_owned()
}

/// What `delete` removed of a pod that had no container left to delete.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Leftovers {
    pub files: bool,
    pub cgroup: bool,
}

/// `delete`'s step, after the pod's containers went (`deleted` of them): when the engine has
/// none of the pod's left and no podrun drives it, its files (this engine's) and its cgroup go
/// too. Files of the pod made through another engine, or by a run that drives it now, keep the
/// cgroup. A cgroup still in use is said only of a pod that was this engine's.
pub async fn delete_leftovers<R: ContainerRuntime>(
    rt: &R,
    files: &PodFiles,
    pod: &PodKey,
    deleted: usize,
    reporter: &dyn Reporter,
) -> Leftovers {
    let uid = derive_uid(&pod.namespace, &pod.name);
    let Ok(listed) = rt.list(&Selector::pod(&pod.namespace, &pod.name)).await else { return Leftovers::default() };
    if listed.iter().any(|c| c.label(labels::POD_UID) == Some(uid.as_str())) {
        return Leftovers::default();
    }
    let mut done = Leftovers::default();
    if std::fs::symlink_metadata(files.pod_dir(&uid)).is_ok() {
        if !files.is_this_engines(&uid) || files.driven(&uid) {
            return done;
        }
        volumes::remove_pod_volumes(files, &uid);
        files.remove_pod(&uid);
        done.files = std::fs::symlink_metadata(files.pod_dir(&uid)).is_err();
        if !done.files {
            return done;
        }
    }
    if pod_cgroup::available() && pod_cgroup::found().iter().any(|f| f.uid == uid) {
        done.cgroup = pod_cgroup::remove(&uid);
        if !done.cgroup && (done.files || deleted > 0) {
            reporter.warning(&in_use(&pod_cgroup::parent(&uid)));
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "0f3c2b1a-1111-4222-8333-444455556666";
    const B: &str = "1f3c2b1a-1111-4222-8333-444455556666";
    const C: &str = "2f3c2b1a-1111-4222-8333-444455556666";

    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000)
    }

    fn found(uid: &str, secs_ago: Option<u64>) -> Found {
        Found { uid: uid.to_owned(), changed: secs_ago.map(|s| now() - Duration::from_secs(s)) }
    }

    #[test]
    fn only_cgroups_of_pods_that_are_gone_go() {
        let found = [found(A, Some(600)), found(B, Some(600)), found(C, Some(600))];
        let alive: BTreeSet<&str> = [A, C].into_iter().collect();
        assert_eq!(orphaned(&found, &alive, now(), Duration::from_secs(60)), [B]);
        assert_eq!(orphaned(&found, &BTreeSet::new(), now(), Duration::from_secs(60)), [A, B, C]);
        let all: BTreeSet<&str> = [A, B, C].into_iter().collect();
        assert!(orphaned(&found, &all, now(), Duration::ZERO).is_empty());
    }

    #[test]
    fn a_young_cgroup_or_one_of_unknown_age_stays() {
        let found = [found(A, Some(5)), found(B, None), found(C, Some(60))];
        let none = BTreeSet::new();
        assert_eq!(orphaned(&found, &none, now(), Duration::from_secs(60)), [C]);
        assert_eq!(orphaned(&found, &none, now(), Duration::ZERO), [A, C]);
        // A clock that went back makes a cgroup from the future: young, kept.
        let future = [Found { uid: A.to_owned(), changed: Some(now() + Duration::from_secs(60)) }];
        assert!(orphaned(&future, &none, now(), Duration::from_secs(1)).is_empty());
    }
}
