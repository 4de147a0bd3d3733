//! `apply --supervise` after the first pass: tells systemd podrun is ready, keeps each pod by
//! a worker of its own (`workers`), and watches the manifests as a kubelet watches its static
//! pod directory: every 20 s, and at once on SIGHUP (`systemctl reload`); a URL source is read
//! again at the same times (`manifests::remote`), and its answer stands for its file. When the
//! manifests changed (or on SIGHUP) they are read again (`reread`) and each worker hears only
//! its own pod's news, while every other pod stays supervised: a new manifest starts its pod, an
//! edited one replaces its pod with a new one, a removed one ends its pod's supervision (and
//! with `--prune` the pod). A manifest that does not load (or whose pod cannot run here) is
//! reported once and left out until it changes (`watch`); one that turned bad keeps the pod of
//! its last good version supervised as it was. While it runs, the loop and the engine say they
//! are alive to systemd's watchdog (`watchdog`).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::signal::unix::Signal;

use crate::driver::manifests;
use crate::driver::manifests::remote;
use crate::driver::manifests::static_dir::Skipped;
use crate::driver::manifests::watch::{self, Stamps};
use crate::driver::{auto_update, log_rotation, supervise, DriveOptions, Interrupt, PodResult};
use crate::error_chain::chain;
use crate::exit;
use crate::manifest::Loaded;
use crate::pod::DesiredPod;
use crate::report::{self, ReportOptions, Reporter};
use crate::runtime::{Runtime, Selector};
use crate::sd_notify;

use super::reread::{self, News};
use super::watchdog;
use super::workers::{self, Workers};
use super::ApplyOptions;

/// How often the manifests are looked at: the kubelet's file check frequency.
const CHECK_EVERY: Duration = Duration::from_secs(20);

/// What the manifests look like from outside: each file's path, size, modification time and
/// inode (directories expanded as apply expands them), each URL's last good answer's length and
/// hash. A change in any means "read them again".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint(Stamps);

impl Fingerprint {
    /// None when the manifests cannot be watched (standard input) or listed.
    pub(super) fn of(paths: &[String], configs: &[String], recursive: bool) -> Option<Fingerprint> {
        if paths.iter().chain(configs).any(|p| p == "-") {
            return None;
        }
        let mut files = manifests::expand_walk(paths, true, recursive).ok()?;
        files.extend(configs.iter().map(|c| remote::address::shown(c)));
        Some(Fingerprint(
            files
                .into_iter()
                .map(|f| {
                    if remote::is_url(&f) {
                        // The last good answer's length and hash: what a URL source has to show.
                        let (len, hash) = remote::stamp(&f);
                        return (PathBuf::from(f), (len, None, hash));
                    }
                    let meta = std::fs::metadata(&f).ok();
                    let size = meta.as_ref().map_or(0, std::fs::Metadata::len);
                    let inode = meta.as_ref().map_or(0, std::os::unix::fs::MetadataExt::ino);
                    (PathBuf::from(f), (size, meta.and_then(|m| m.modified().ok()), inode))
                })
                .collect(),
        ))
    }
}

/// The manifests podrun left out (they did not load, or their pod cannot run here).
fn left_out(skipped: &[Skipped]) -> BTreeSet<PathBuf> {
    skipped.iter().map(|s| PathBuf::from(&s.file)).collect()
}

/// Supervises the pods of the first pass until SIGINT or SIGTERM (exit 0), or until every pod
/// ended past its activeDeadlineSeconds, taking up the manifests' changes as the module says.
/// `skipped` are the manifests the first pass left out, already reported, `loaded` what it
/// loaded; `hangup` and `interrupt` were listened to from the start of the process, so a SIGHUP
/// during the first pass is not lost (and did not kill podrun).
pub(super) async fn run<R: Runtime + 'static>(
    rt: Arc<R>,
    results: Vec<PodResult>,
    first_pass: &DriveOptions,
    opts: &ApplyOptions,
    (seen, skipped, loaded): (Option<Fingerprint>, &[Skipped], &Loaded),
    hangup: &mut Signal,
    mut interrupt: Interrupt,
) -> u8 {
    let reporter = announce(&results, skipped, opts);
    let mut workers = Workers::new(rt.clone(), supervise::forever(first_pass), reporter.clone(), interrupt.clone());
    let files = reread::files_of(loaded);
    workers.first(
        results
            .into_iter()
            .map(|r| {
                let kept = supervise::needs_supervision(&r);
                let file = files.get(&crate::report::PodKey::of(&r.desired)).cloned();
                (r.desired, file, kept)
            })
            .collect(),
    );
    let mut beside = Beside::start(&rt, &workers.supervised(), opts, &reporter, &first_pass.pulls);
    let running = workers.running();
    let mut watch = Watch::new(seen, skipped);
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + CHECK_EVERY, CHECK_EVERY);
    let mut all_ended = false;
    let _health = watchdog::HEALTH.supervising();
    let _engine = watchdog::watch_engine(rt.clone());
    let mut beat = tokio::time::interval(watchdog::LOOP_BEAT);
    loop {
        watchdog::HEALTH.looped();
        let asked = tokio::select! {
            sig = interrupt.wait() => {
                sd_notify::notify("STOPPING=1");
                // The workers stop where they are on the same signal; their last look is short.
                workers.stopped().await;
                // Asked to stop: the normal end of supervision, not a failure.
                reporter.note(&format!("{}: supervision ends; the pods keep running", crate::status::outcome::signal_name(sig)));
                reporter.finish();
                return exit::SUCCESS;
            }
            past_deadline = running.all_ended(), if !all_ended => {
                all_ended = true;
                // A pod past its active deadline has failed for good (the kubelet never runs
                // it again): supervision ends with the container-failure code, as apply's.
                if past_deadline {
                    reporter.note("a pod was active longer than its activeDeadlineSeconds: supervision ends");
                    reporter.finish();
                    return exit::CONTAINER_FAILED;
                }
                continue;
            }
            _ = hangup.recv() => true,
            _ = tick.tick() => false,
            _ = beat.tick() => continue,
        };
        // A URL source is read within its time limit; SIGTERM does not wait for it.
        let mut during = interrupt.clone();
        let news = tokio::select! {
            n = watch.reread(&*rt, opts, asked, &*reporter) => n,
            _ = during.wait() => None,
        };
        let Some(news) = news else { continue };
        let why = if asked { "SIGHUP" } else { "the manifests changed" };
        let (started, changed) = workers.reread(news.pods.clone(), &news.bad()).await;
        // systemd hears of a reload asked for, or one that changed pods; not of a file that
        // turned bad, which changes nothing.
        let reloads = asked || changed > 0;
        if reloads {
            sd_notify::notify(&format!("RELOADING=1\nSTATUS={why}: applying them again"));
        }
        // Told to systemd once the new pods show; SIGTERM does not wait for them.
        tokio::select! {
            () = workers::settled(&*rt, &started) => {}
            _ = during.wait() => {}
        }
        if changed > 0 {
            reporter.note(&format!("{why}: {changed} pods changed"));
            all_ended = false;
            beside.restart(&rt, &workers.supervised(), opts, &reporter, &first_pass.pulls);
        }
        if opts.prune {
            let files = first_pass.files.as_ref();
            let News { loaded, listing, skipped, .. } = &news;
            super::prune_after(&*rt, opts, loaded, listing, skipped, files, &*reporter).await;
        }
        if reloads {
            ready_again(&workers, &news);
        }
    }
}

/// Tells systemd the reload is done, with what is supervised now.
fn ready_again<R: Runtime + 'static>(workers: &Workers<R>, news: &News) {
    let (total, live) = workers.counts();
    let mut status = format!("{live} of {total} pods supervised");
    if !news.skipped.is_empty() {
        status.push_str(&format!("; {} manifests skipped", news.skipped.len()));
    }
    sd_notify::notify(&format!("READY=1\nSTATUS={status}"));
}

/// What runs beside the workers, for the pods they supervise: the log rotation (only where
/// podrun writes the logs: elsewhere each look would be engine requests for nothing) and
/// `--auto-update`. Started again when the pods change; ends when dropped.
struct Beside {
    _rotation: Option<AbortOnDrop>,
    _updates: Option<AbortOnDrop>,
}

impl Beside {
    fn start<R: Runtime + 'static>(
        rt: &Arc<R>,
        pods: &[DesiredPod],
        opts: &ApplyOptions,
        reporter: &Arc<dyn Reporter>,
        pulls: &Arc<crate::driver::pulls::Pulls>,
    ) -> Beside {
        let selectors = pods.iter().map(|d| Selector::pod(&d.namespace, &d.name)).collect();
        let rotation = rt.rotates_logs().then(|| {
            let (policy, every) = (opts.log_rotation, opts.log_monitor);
            AbortOnDrop(tokio::spawn(log_rotation::rotate(rt.clone(), selectors, policy, every, reporter.clone())))
        });
        let updates = opts.auto_update.clone().map(|au| {
            let (pods, reporter) = (pods.to_vec(), reporter.clone());
            AbortOnDrop(tokio::spawn(auto_update::keep_current(rt.clone(), pods, au, reporter, pulls.clone())))
        });
        Beside { _rotation: rotation, _updates: updates }
    }

    /// Ends what runs and starts it again for `pods`.
    fn restart<R: Runtime + 'static>(
        &mut self,
        rt: &Arc<R>,
        pods: &[DesiredPod],
        opts: &ApplyOptions,
        reporter: &Arc<dyn Reporter>,
        pulls: &Arc<crate::driver::pulls::Pulls>,
    ) {
        *self = Beside::start(rt, pods, opts, reporter, pulls);
    }
}

/// Tells systemd (READY) and the user what supervision starts with; the reporter for the rest
/// of it.
fn announce(results: &[PodResult], skipped: &[Skipped], opts: &ApplyOptions) -> Arc<dyn Reporter> {
    let failed = results.iter().filter(|r| r.outcome.is_err()).count();
    let supervised = results.iter().filter(|r| supervise::needs_supervision(r)).count();
    let mut status = format!("{supervised} of {} pods supervised; {failed} failed their first pass", results.len());
    if !skipped.is_empty() {
        status.push_str(&format!("; {} manifests skipped", skipped.len()));
    }
    sd_notify::notify(&format!("READY=1\nSTATUS={status}"));
    let reporter = report::reporter(ReportOptions { quiet: opts.quiet, verbose: opts.verbose, live: false });
    reporter.note(&format!("supervising: {status}"));
    reporter
}

/// The manifests as supervision watches them: as last seen, and the bad ones already said (the
/// first pass said its own).
struct Watch {
    seen: Option<Fingerprint>,
    reported: Stamps,
}

impl Watch {
    fn new(seen: Option<Fingerprint>, skipped: &[Skipped]) -> Watch {
        let mut reported = Stamps::new();
        if let Some(f) = &seen {
            watch::newly_bad(&mut reported, &f.0, &left_out(skipped));
        }
        Watch { seen, reported }
    }

    /// The manifests read again, when asked to (SIGHUP) or when they changed; a manifest newly
    /// bad is said, once. None when nothing changed, or they do not load at all.
    async fn reread<R: Runtime>(
        &mut self,
        rt: &R,
        opts: &ApplyOptions,
        asked: bool,
        reporter: &dyn Reporter,
    ) -> Option<News> {
        // URL sources are read again now, as the kubelet's http source is every 20 s.
        let sources: Vec<String> = opts.paths.iter().chain(&opts.configs).cloned().collect();
        let check = |s: &_| manifests::static_dir::loads(s, &opts.configs, &opts.load);
        remote::refresh(&sources, &opts.headers, Some(&check), &|w| reporter.warning(w)).await;
        let now = Fingerprint::of(&opts.paths, &opts.configs, opts.recursive);
        if !asked && (self.seen.is_none() || now == self.seen) {
            return None;
        }
        self.seen.clone_from(&now);
        let news = match reread::read_now(rt, opts, reporter).await {
            Ok(news) => news,
            Err(e) => {
                reporter.warning(&format!(
                    "the manifests changed but do not load; the pods stay as they are: {}",
                    chain(&e)
                ));
                return None;
            }
        };
        let now = now.map(|f| f.0).unwrap_or_default();
        let new: BTreeSet<PathBuf> =
            watch::newly_bad(&mut self.reported, &now, &left_out(&news.skipped)).into_iter().collect();
        for s in news.skipped.iter().filter(|s| new.contains(&PathBuf::from(&s.file))) {
            reporter.warning(&format!("{}; the pod of its last good version, if any, stays supervised", s.describe()));
        }
        Some(news)
    }
}

/// A task that ends when this is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_changed_or_removed_manifest_changes_the_fingerprint() {
        let dir = crate::test_support::TempDir::new("fingerprint");
        let d = [dir.to_str().unwrap().to_owned()];
        let of = |paths: &[String]| Fingerprint::of(paths, &[], false);
        std::fs::write(dir.join("a.yaml"), "a").unwrap();
        let before = of(&d).unwrap();
        assert_eq!(of(&d), Some(before.clone()), "nothing changed");
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(of(&d), Some(before.clone()), "not a manifest");
        std::fs::write(dir.join("b.yml"), "b").unwrap();
        let added = of(&d).unwrap();
        assert_ne!(added, before);
        std::fs::write(dir.join("a.yaml"), "a changed").unwrap();
        assert_ne!(of(&d).unwrap(), added);
        std::fs::remove_file(dir.join("b.yml")).unwrap();
        assert_eq!(of(&d).unwrap().0.len(), 1);
        // Replaced by rename, same size and same time (as two writes within one clock tick).
        let before = of(&d).unwrap();
        let time = std::fs::metadata(dir.join("a.yaml")).unwrap().modified().unwrap();
        std::fs::write(dir.join("a.tmp"), "a chAnged").unwrap();
        std::fs::File::options().write(true).open(dir.join("a.tmp")).unwrap().set_modified(time).unwrap();
        std::fs::rename(dir.join("a.tmp"), dir.join("a.yaml")).unwrap();
        assert_ne!(of(&d).unwrap(), before, "a new inode");
        assert_eq!(of(&["-".to_owned()]), None, "standard input cannot be read again");
    }
}
