//! `podrun gc`: the kubelet's container garbage collection, for podrun's containers only.
//!
//! The policy (`select`) is pure: it takes the engine's containers and the time, and says
//! which containers go, and why. `run` lists, selects, removes (or, with --dry-run, prints),
//! then removes the host files and the cgroups of pods that have no container left
//! (`orphan_cgroups`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

use super::orphan_cgroups::{self, Sweep};
use crate::cli::{Cli, GcArgs};
use crate::clock::parse_time;
use crate::error_chain::chain;
use crate::escape::{escape, Escaped};
use crate::exit;
use crate::pod::files::PodFiles;
use crate::pod::observed::attempt_of;
use crate::pod::volumes;
use crate::report::{self, output, ReportOptions, Reporter};
use crate::runtime::labels;
use crate::runtime::{ContainerRuntime, Observed, Runtime, Selector, State};

/// What `podrun gc` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Dead instances kept per pod container, besides its newest instance.
    pub max_dead: usize,
    /// Only containers that finished at least this long ago are removed.
    pub min_age: Duration,
}

/// A container to remove, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub container: Observed,
    pub reason: &'static str,
}

/// Whether a dead container finished at least `min_age` before `now`. A dead container whose
/// finish time the engine did not give is old enough.
fn old_enough(c: &Observed, now: SystemTime, min_age: Duration) -> bool {
    let finished = match &c.state {
        State::Exited { finished_at, .. } => finished_at.as_deref().and_then(parse_time),
        _ => None,
    };
    finished.is_none_or(|t| now.duration_since(t).unwrap_or(Duration::ZERO) >= min_age)
}

fn is_infra(c: &Observed) -> bool {
    c.label(labels::CONTAINER_NAME) == Some(labels::INFRA_CONTAINER_NAME)
}

/// The containers to remove, pod members before infra containers. Only podrun's own
/// containers are considered. Per pod (its uid):
/// - its infra container gone and every container dead: all of them go;
/// - else, per container name, the newest instance stays, then the `max_dead` newest dead
///   instances; older dead instances go.
///
/// Nothing goes that finished less than `min_age` before `now`.
pub fn select(observed: Vec<Observed>, now: SystemTime, policy: Policy) -> Vec<Removal> {
    let mut pods: BTreeMap<(String, String, String), Vec<Observed>> = BTreeMap::new();
    for c in observed.into_iter().filter(Observed::is_owned) {
        let key = [labels::POD_NAMESPACE, labels::POD_NAME, labels::POD_UID]
            .map(|k| c.label(k).unwrap_or_default().to_owned());
        let [ns, name, uid] = key;
        pods.entry((ns, name, uid)).or_default().push(c);
    }
    let mut out = Vec::new();
    for containers in pods.into_values() {
        let orphaned = !containers.iter().any(is_infra);
        if orphaned && containers.iter().all(Observed::is_dead) {
            if containers.iter().all(|c| old_enough(c, now, policy.min_age)) {
                out.extend(containers.into_iter().map(|container| Removal {
                    container,
                    reason: "its pod's infra container is gone and every container is dead",
                }));
            }
            continue;
        }
        let mut by_name: BTreeMap<String, Vec<Observed>> = BTreeMap::new();
        for c in containers {
            by_name.entry(c.label(labels::CONTAINER_NAME).unwrap_or_default().to_owned()).or_default().push(c);
        }
        for mut instances in by_name.into_values() {
            // Newest first, as PodObservation sorts them.
            instances.sort_by(|a, b| attempt_of(b).cmp(&attempt_of(a)).then_with(|| b.id.cmp(&a.id)));
            let dead = instances.into_iter().skip(1).filter(Observed::is_dead);
            for container in dead.skip(policy.max_dead) {
                if old_enough(&container, now, policy.min_age) {
                    out.push(Removal { container, reason: "a dead instance beyond --max-dead" });
                }
            }
        }
    }
    // Members before infra containers, as delete removes them.
    out.sort_by_key(|r| is_infra(&r.container));
    out
}

/// The pods among `dirs` (uid, last change) whose files can go: no container of theirs is
/// left in `remaining` and their directory has not changed for `min_age` (an apply may be
/// preparing it before it creates the pod's first container).
pub fn orphaned_files(
    dirs: &[(String, Option<SystemTime>)],
    remaining: &[Observed],
    now: SystemTime,
    min_age: Duration,
) -> Vec<String> {
    let live: BTreeSet<&str> = remaining.iter().filter_map(|c| c.label(labels::POD_UID)).collect();
    dirs.iter()
        .filter(|(uid, _)| !live.contains(uid.as_str()))
        .filter(|(_, changed)| changed.is_none_or(|t| now.duration_since(t).unwrap_or(Duration::ZERO) >= min_age))
        .map(|(uid, _)| uid.clone())
        .collect()
}

fn describe(c: &Observed) -> String {
    format!(
        "{} (pod {}/{}, container {})",
        Escaped(&c.name),
        Escaped(c.label(labels::POD_NAMESPACE).unwrap_or("?")),
        Escaped(c.label(labels::POD_NAME).unwrap_or("?")),
        Escaped(c.label(labels::CONTAINER_NAME).unwrap_or("?"))
    )
}

/// Removes the engine volumes of pods that have no container left (a pod that vanished without
/// a delete), once older than `--min-age`. Claims' volumes carry no pod uid, and are never
/// collected. Returns an exit code
/// when something failed.
async fn collect_engine_volumes<R: Runtime>(
    rt: &R,
    remaining: &[Observed],
    cli: &Cli,
    args: &GcArgs,
    verb: &str,
    now: SystemTime,
    reporter: &dyn Reporter,
) -> Option<u8> {
    let live: BTreeSet<&str> = remaining.iter().filter_map(|c| c.label(labels::POD_UID)).collect();
    let filters = [format!("{}={}", labels::MANAGED, labels::MANAGED_VALUE), labels::POD_UID.to_owned()];
    let found = match rt.list_volumes(&filters).await {
        Ok(v) => v,
        Err(e) => {
            reporter.warning(&format!("listing volumes: {e}"));
            return Some(exit::for_runtime(&e));
        }
    };
    let mut code = None;
    for v in found {
        let Some(uid) = v.labels.get(labels::POD_UID) else { continue };
        // Young ones too may belong to a pod being applied right now, its containers not made yet.
        let young = v.created.is_none_or(|t| now.duration_since(t).unwrap_or(Duration::ZERO) < args.min_age);
        if live.contains(uid.as_str()) || young {
            continue;
        }
        if !args.dry_run {
            if let Err(e) = rt.remove_volume(&v.name).await {
                reporter.warning(&format!("volume {}: {e}", Escaped(&v.name)));
                code = Some(exit::for_runtime(&e));
                continue;
            }
        }
        if !cli.quiet {
            let line = format!("{verb} volume {}: its pod (uid {uid}) has no container left", v.name);
            let _ = output::println(&escape(&line));
        }
    }
    code
}

pub async fn run(cli: &Cli, args: &GcArgs) -> anyhow::Result<u8> {
    let (rt, files) = super::connect(cli).await?;
    let reporter = report::reporter(ReportOptions { quiet: cli.quiet, verbose: cli.verbose > 0, live: false });
    let policy = Policy { max_dead: args.max_dead, min_age: args.min_age };
    let observed = rt.list(&Selector::default()).await?;
    for w in crate::status::engine_pods::unverified_report(&observed, &PodFiles::default_root()) {
        reporter.warning(&w);
    }
    let now = SystemTime::now();
    let removals = select(observed.clone(), now, policy);
    let verb = if args.dry_run { "would remove" } else { "removed" };
    let mut code = exit::SUCCESS;
    let mut removed: BTreeSet<String> = BTreeSet::new();
    for r in &removals {
        let c = &r.container;
        if !args.dry_run {
            if let Err(e) = rt.remove(c).await {
                reporter.warning(&format!("container {}: {}", describe(c), chain(&e)));
                code = exit::for_runtime(&e);
                continue;
            }
            if let (Some(files), Some(uid), Some(name)) =
                (&files, c.label(labels::POD_UID), c.label(labels::CONTAINER_NAME))
            {
                files.remove_instance(uid, name, attempt_of(c));
            }
        }
        removed.insert(c.id.clone());
        if !cli.quiet {
            // A closed stdout stops the listing, not the collection: it is recorded, and podrun
            // exits 141 once done.
            let _ = output::println(&escape(&format!("{verb} container {}: {}", describe(c), r.reason)));
        }
    }
    let remaining: Vec<Observed> = observed.iter().filter(|c| !removed.contains(&c.id)).cloned().collect();
    if let Some(c) = collect_engine_volumes(&rt, &remaining, cli, args, verb, now, &*reporter).await {
        code = c;
    }
    if let Some(files) = &files {
        // Another engine's pods are not this engine's orphans.
        let dirs: Vec<_> = files.pod_dirs().into_iter().filter(|(uid, _)| files.is_this_engines(uid)).collect();
        let gone = orphaned_files(&dirs, &remaining, now, args.min_age);
        for uid in &gone {
            if !args.dry_run {
                volumes::remove_pod_volumes(files, uid);
                files.remove_pod(uid);
            }
            if !cli.quiet {
                let _ = output::println(&escape(&format!("{verb} files of pod uid {uid}: it has no container left")));
            }
        }
        // Then the cgroups of the pods gone, as the kubelet's orphaned pod cgroups.
        let sweep = Sweep { dry_run: args.dry_run, quiet: cli.quiet, min_age: args.min_age, verb };
        orphan_cgroups::collect(files, &remaining, &gone, sweep, &*reporter);
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW_SECS: u64 = 1_800_000_000;

    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(NOW_SECS)
    }

    fn c(uid: &str, name: &str, attempt: u32, state: State) -> Observed {
        let labels = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, "ns"),
            (labels::POD_NAME, "web"),
            (labels::POD_UID, uid),
            (labels::CONTAINER_NAME, name),
            (labels::ATTEMPT, &attempt.to_string()),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        Observed {
            id: format!("{uid}-{name}-{attempt}"),
            name: format!("podrun_ns_web_{name}_{attempt}"),
            labels,
            image: String::new(),
            image_id: String::new(),
            state,
            ip: None,
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    fn exited(secs_ago: u64) -> State {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(NOW_SECS - secs_ago);
        State::Exited {
            exit_code: 1,
            started_at: None,
            finished_at: Some(humantime::format_rfc3339_seconds(t).to_string()),
            oom_killed: false,
            error: None,
        }
    }

    fn running() -> State {
        State::Running { started_at: None }
    }

    const DEFAULT: Policy = Policy { max_dead: 1, min_age: Duration::from_secs(60) };

    fn ids(r: &[Removal]) -> Vec<&str> {
        r.iter().map(|r| r.container.id.as_str()).collect()
    }

    #[test]
    fn dead_instances_beyond_max_dead_go_oldest_first() {
        let observed = vec![
            c("u", "POD", 0, running()),
            c("u", "a", 4, running()),
            c("u", "a", 3, exited(600)),
            c("u", "a", 2, exited(700)),
            c("u", "a", 1, exited(800)),
            c("u", "b", 0, exited(900)),
        ];
        let r = select(observed.clone(), now(), DEFAULT);
        assert_eq!(ids(&r), ["u-a-2", "u-a-1"]);
        let r = select(observed.clone(), now(), Policy { max_dead: 0, ..DEFAULT });
        // The newest instance stays even when dead (b-0): it is the pod's state.
        assert_eq!(ids(&r), ["u-a-3", "u-a-2", "u-a-1"]);
        let r = select(observed, now(), Policy { max_dead: 5, ..DEFAULT });
        assert!(r.is_empty());
    }

    #[test]
    fn nothing_younger_than_min_age_goes() {
        let observed = vec![
            c("u", "POD", 0, running()),
            c("u", "a", 2, running()),
            c("u", "a", 1, exited(30)),
            c("u", "a", 0, exited(90)),
        ];
        assert!(select(observed.clone(), now(), Policy { max_dead: 0, min_age: Duration::from_secs(120) }).is_empty());
        assert_eq!(ids(&select(observed.clone(), now(), Policy { max_dead: 0, ..DEFAULT })), ["u-a-0"]);
        let all = select(observed, now(), Policy { max_dead: 0, min_age: Duration::ZERO });
        assert_eq!(ids(&all), ["u-a-1", "u-a-0"]);
    }

    #[test]
    fn a_pod_without_infra_goes_whole_once_all_dead() {
        let dead = vec![c("old", "a", 1, exited(600)), c("old", "a", 0, exited(700)), c("old", "b", 0, State::Dead)];
        assert_eq!(ids(&select(dead.clone(), now(), DEFAULT)), ["old-a-1", "old-a-0", "old-b-0"]);
        // One still running: only the ordinary rule applies.
        let mut some_alive = dead.clone();
        some_alive.push(c("old", "c", 0, running()));
        assert_eq!(ids(&select(some_alive, now(), Policy { max_dead: 0, ..DEFAULT })), ["old-a-0"]);
        // A dead infra container still holds the pod together.
        let mut stopped = dead;
        stopped.push(c("old", "POD", 0, exited(600)));
        assert!(select(stopped, now(), DEFAULT).is_empty());
    }

    #[test]
    fn infra_containers_go_last_and_unowned_containers_never() {
        let mut foreign = c("x", "a", 0, exited(600));
        // podrun's labels, copied whole, without its seal: what an image can carry.
        foreign.sealed = false;
        let observed = vec![c("z", "POD", 1, exited(600)), c("z", "POD", 0, exited(700)), foreign];
        let r = select(observed, now(), Policy { max_dead: 0, ..DEFAULT });
        assert_eq!(ids(&r), ["z-POD-0"]);
    }

    #[test]
    fn files_go_only_for_pods_without_containers() {
        let old = Some(now() - Duration::from_secs(600));
        let fresh = Some(now() - Duration::from_secs(5));
        let dirs = vec![("live".to_owned(), old), ("gone".to_owned(), old), ("new".to_owned(), fresh)];
        let remaining = vec![c("live", "a", 0, running())];
        assert_eq!(orphaned_files(&dirs, &remaining, now(), Duration::from_secs(60)), ["gone"]);
        assert_eq!(orphaned_files(&dirs, &remaining, now(), Duration::ZERO), ["gone", "new"]);
    }
}
