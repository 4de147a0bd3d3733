//! `apply --supervise` after the first pass: tells systemd podrun is ready, keeps the pods (see
//! `driver::supervise`), and watches the manifests as a kubelet watches its static pod
//! directory: every 20 s, and at once on SIGHUP (`systemctl reload`); a URL source is read
//! again at the same times (`manifests::remote`), and its answer stands for its file. When a manifest that
//! loads was added or changed, or one was removed, podrun starts over: the drivers stop as on
//! SIGTERM, and the same process runs apply again with its arguments, whose first pass applies
//! the new set (with `--prune`, removing pods whose manifest is gone) and supervision goes on.
//! It starts over in place rather than through exec: a signal's handlers do not survive exec,
//! and a SIGHUP in the new process before its own were set would end it (129). Pods the change
//! does not touch are not disturbed, since applying an unchanged pod changes nothing. A
//! manifest that does not load (or whose pod cannot run here) is reported once and left out
//! until it changes (`watch`): one that turned bad does not start podrun over, so the pod of
//! its last good version stays supervised as it was. While it runs, the loop and the engine
//! say they are alive to systemd's watchdog (`watchdog`).

use std::collections::BTreeSet;
use std::convert::Infallible;
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
use crate::report::{self, ReportOptions, Reporter};
use crate::runtime::{Runtime, Selector};
use crate::sd_notify;
use crate::status::outcome::SIGHUP;

use super::engine::Engine;
use super::mode::Mode;
use super::watchdog;
use super::ApplyError;
use super::ApplyOptions;
use super::Pass;

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

    /// The stamps of the files not in `left_out`.
    fn without(&self, left_out: &BTreeSet<PathBuf>) -> Stamps {
        self.0.iter().filter(|(p, _)| !left_out.contains(*p)).map(|(p, s)| (p.clone(), *s)).collect()
    }
}

/// The manifests podrun left out (they did not load, or their pod cannot run here).
fn left_out(skipped: &[Skipped]) -> BTreeSet<PathBuf> {
    skipped.iter().map(|s| PathBuf::from(&s.file)).collect()
}

/// Supervises the pods of the first pass until SIGINT or SIGTERM (exit 0), or until the
/// manifests change: then the drivers are stopped and apply is to start over, as the module
/// says. `skipped` are the manifests the first pass left out, already reported; `hangup` and
/// `interrupt` were listened to from the start of the process, so a SIGHUP during the first
/// pass is not lost (and did not kill podrun).
pub(super) async fn run<R: Runtime>(
    rt: Arc<R>,
    results: Vec<PodResult>,
    first_pass: &DriveOptions,
    opts: &ApplyOptions,
    (seen, skipped): (Option<Fingerprint>, &[Skipped]),
    hangup: &mut Signal,
    mut interrupt: Interrupt,
) -> Pass {
    let reporter = announce(&results, skipped, opts);
    // The drivers stop on SIGINT and SIGTERM, and when podrun starts over.
    let (stop, drivers) = interrupt.stoppable();
    let selectors = results.iter().map(|r| Selector::pod(&r.desired.namespace, &r.desired.name)).collect();
    let rotation = log_rotation::rotate(rt.clone(), selectors, opts.log_rotation, opts.log_monitor, reporter.clone());
    // Ends with supervision, however that ends.
    let _rotation = AbortOnDrop(tokio::spawn(rotation));
    let kept: Vec<_> = results.iter().filter(|r| supervise::needs_supervision(r)).map(|r| r.desired.clone()).collect();
    let _updates = opts.auto_update.clone().map(|au| {
        let pulls = first_pass.pulls.clone();
        AbortOnDrop(tokio::spawn(auto_update::keep_current(rt.clone(), kept, au, reporter.clone(), pulls)))
    });
    let pods = supervise::supervise(rt.clone(), results, supervise::forever(first_pass), reporter.clone(), drivers);
    let mut pods = Pods { task: tokio::spawn(pods), ended: false };
    let mut watch = Watch::new(seen, skipped);
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + CHECK_EVERY, CHECK_EVERY);
    let _health = watchdog::HEALTH.supervising();
    let _engine = watchdog::watch_engine(rt.clone());
    let mut beat = tokio::time::interval(watchdog::LOOP_BEAT);
    loop {
        watchdog::HEALTH.looped();
        let asked = tokio::select! {
            sig = interrupt.wait() => {
                sd_notify::notify("STOPPING=1");
                // The drivers stop where they are on the same signal; their last look is short.
                // (A task that ended already must not be polled again: tokio panics.)
                if !pods.ended {
                    let _ = tokio::time::timeout(Duration::from_secs(5), &mut pods.task).await;
                }
                // Asked to stop: the normal end of supervision, not a failure.
                reporter.note(&format!("{}: supervision ends; the pods keep running", crate::status::outcome::signal_name(sig)));
                reporter.finish();
                return Pass::Ended(exit::SUCCESS);
            }
            ended = &mut pods.task, if !pods.ended => {
                pods.ended = true;
                // A pod past its active deadline has failed for good (the kubelet never runs
                // it again): supervision ends with the container-failure code, as apply's.
                if matches!(ended, Ok(true)) {
                    reporter.note("a pod was active longer than its activeDeadlineSeconds: supervision ends");
                    reporter.finish();
                    return Pass::Ended(exit::CONTAINER_FAILED);
                }
                continue;
            }
            _ = hangup.recv() => true,
            _ = tick.tick() => false,
            _ = beat.tick() => continue,
        };
        // A URL source is read within its time limit; SIGTERM does not wait for it.
        let mut during = interrupt.clone();
        let starts_over = tokio::select! {
            s = watch.starts_over(&*rt, opts, asked, &*reporter) => s,
            _ = during.wait() => false,
        };
        if !starts_over {
            continue;
        }
        let why = if asked { "SIGHUP" } else { "the manifests changed" };
        reporter.note(&format!("{why}: applying them again"));
        sd_notify::notify(&format!("RELOADING=1\nSTATUS={why}: applying them again"));
        stop.fire(SIGHUP);
        if !pods.ended {
            // Stopped where they are, as on SIGTERM; one that does not stop within the bound is
            // dropped where it waits (the next pass finds its pod as the engine shows it).
            if tokio::time::timeout(Duration::from_secs(5), &mut pods.task).await.is_err() {
                pods.task.abort();
            }
        }
        reporter.finish();
        return Pass::StartOver;
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

/// The task supervising the pods, and whether it ended (a task that ended must not be polled
/// again).
struct Pods {
    task: tokio::task::JoinHandle<bool>,
    ended: bool,
}

/// The manifests as supervision watches them: as last seen, as this podrun applied them, and
/// the bad ones already said (the first pass said its own).
struct Watch {
    seen: Option<Fingerprint>,
    applied: Stamps,
    reported: Stamps,
}

impl Watch {
    fn new(seen: Option<Fingerprint>, skipped: &[Skipped]) -> Watch {
        let applied = seen.as_ref().map(|f| f.without(&left_out(skipped))).unwrap_or_default();
        let mut reported = Stamps::new();
        if let Some(f) = &seen {
            watch::newly_bad(&mut reported, &f.0, &left_out(skipped));
        }
        Watch { seen, applied, reported }
    }

    /// Whether podrun starts over: asked to (SIGHUP), or a manifest that loads was added or
    /// changed, or one was removed. A manifest newly bad is said, and changes nothing.
    async fn starts_over<R: Runtime>(
        &mut self,
        rt: &R,
        opts: &ApplyOptions,
        asked: bool,
        reporter: &dyn Reporter,
    ) -> bool {
        // URL sources are read again now, as the kubelet's http source is every 20 s; on SIGHUP
        // the pass that starts over reads them.
        if !asked {
            let sources: Vec<String> = opts.paths.iter().chain(&opts.configs).cloned().collect();
            let check = |s: &_| manifests::static_dir::loads(s, &opts.configs, &opts.load);
            remote::refresh(&sources, &opts.headers, Some(&check), &|w| reporter.warning(w)).await;
        }
        let now = Fingerprint::of(&opts.paths, &opts.configs, opts.recursive);
        if !asked && (self.seen.is_none() || now == self.seen) {
            return false;
        }
        self.seen.clone_from(&now);
        let skipped = match check(rt, opts).await {
            Ok(skipped) => skipped,
            Err(e) => {
                reporter.warning(&format!(
                    "the manifests changed but do not load; the pods stay as they are: {}",
                    chain(&e)
                ));
                return false;
            }
        };
        let bad = left_out(&skipped);
        let now = now.map(|f| f.0).unwrap_or_default();
        if !asked && !watch::starts_over(&self.applied, &now, &bad) {
            let new: BTreeSet<PathBuf> = watch::newly_bad(&mut self.reported, &now, &bad).into_iter().collect();
            for s in skipped.iter().filter(|s| new.contains(&PathBuf::from(&s.file))) {
                reporter.warning(&format!("{}; the pods stay as they are", s.describe()));
            }
            return false;
        }
        true
    }
}

/// A task that ends when this is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The manifests that would be left out, loaded and prepared as the first pass of a podrun
/// started over would (nothing created): an error is one that would end that podrun (a
/// `--config` file that does not load), so podrun stays as it is instead. Warnings are left to
/// that podrun, which shows them once.
async fn check<R: Runtime>(rt: &R, opts: &ApplyOptions) -> Result<Vec<Skipped>, ApplyError<Infallible>> {
    let files = manifests::expand_walk(&opts.paths, true, opts.recursive)?;
    let (loaded, mut skipped) = Mode::Supervise.load(&files, &opts.configs, &opts.load)?;
    let engine = Engine::ask(rt, &loaded).await?;
    let env = engine.environment(opts, rt.local_files(), &loaded);
    skipped.extend(Mode::Supervise.prepare(&loaded.pods, &env, &mut |_| {})?.1);
    Ok(skipped)
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
