//! systemd's watchdog for `apply --supervise` (`WatchdogSec=` in the unit), as the kubelet's
//! (pkg/kubelet/watchdog): a task of its own sends `WATCHDOG=1` at half the timeout systemd set,
//! and only while podrun is healthy, so a podrun that hangs is killed and started again by
//! systemd. Healthy: the signal handling still listens (SIGTERM would be heard), and while
//! supervision runs, its loop comes round (the kubelet's syncloop check) and the engine
//! connection answers (any answer: an engine that is away is ridden out by supervision itself,
//! and a new podrun would not bring it back; one that takes the connection and never answers
//! is what a watchdog is for). During a pass (the first, or one after a change) only the
//! signals count: a pass ends by its own deadline (`--timeout`).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::driver::Interrupt;
use crate::runtime::{Runtime, RuntimeError};
use crate::sd_notify;

/// How long the supervision loop may go without coming round: the kubelet's syncloop bound
/// (twice its resync period, at least 5 minutes). The loop's longest step, a URL source read
/// again with engine calls to check the result, is bounded well within it.
pub(super) const LOOP_STALE: Duration = Duration::from_secs(300);
/// How long the engine may go without answering anything.
pub(super) const ENGINE_STALE: Duration = Duration::from_secs(300);
/// How often the loop says it is alive when nothing else wakes it.
pub(super) const LOOP_BEAT: Duration = Duration::from_secs(5);
/// How often the engine is asked, while the watchdog is on.
const ENGINE_EVERY: Duration = Duration::from_secs(10);
/// The shortest period between two `WATCHDOG=1`, whatever `WATCHDOG_USEC` says.
const MIN_PERIOD: Duration = Duration::from_millis(100);

/// podrun's health, as the watchdog checks it. One per process, as the watchdog is.
pub(super) static HEALTH: Health = Health { supervising: Mutex::new(None) };

/// The last signs of life of supervision, while it runs.
#[derive(Debug)]
pub(super) struct Health {
    supervising: Mutex<Option<Beats>>,
}

#[derive(Debug, Clone, Copy)]
struct Beats {
    looped: Instant,
    engine: Instant,
}

impl Health {
    fn beats(&self) -> std::sync::MutexGuard<'_, Option<Beats>> {
        self.supervising.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Supervision starts: its loop and the engine are watched until the guard is dropped.
    pub(super) fn supervising(&self) -> Supervising<'_> {
        let now = Instant::now();
        *self.beats() = Some(Beats { looped: now, engine: now });
        Supervising(self)
    }

    /// The supervision loop came round.
    pub(super) fn looped(&self) {
        if let Some(b) = self.beats().as_mut() {
            b.looped = Instant::now();
        }
    }

    /// The engine answered (whatever it said).
    fn engine_answered(&self) {
        if let Some(b) = self.beats().as_mut() {
            b.engine = Instant::now();
        }
    }

    /// Why podrun is not healthy at `now`, if it is not.
    fn trouble(&self, now: Instant) -> Option<String> {
        let b = (*self.beats())?;
        let quiet = |since: Instant| now.saturating_duration_since(since);
        if quiet(b.looped) > LOOP_STALE {
            return Some(format!(
                "the supervision loop has not come round for {}",
                humantime::format_duration(secs(quiet(b.looped)))
            ));
        }
        if quiet(b.engine) > ENGINE_STALE {
            return Some(format!(
                "the engine has not answered for {}",
                humantime::format_duration(secs(quiet(b.engine)))
            ));
        }
        None
    }
}

fn secs(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs())
}

/// Supervision running; it is no longer watched once this is dropped, however it ends.
pub(super) struct Supervising<'a>(&'a Health);

impl Drop for Supervising<'_> {
    fn drop(&mut self) {
        *self.0.beats() = None;
    }
}

/// A task that ends when this is dropped.
pub(super) struct Task(tokio::task::JoinHandle<()>);

impl Drop for Task {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts feeding systemd's watchdog, if systemd set one for this process: `WATCHDOG=1` at
/// half its timeout while `signals` listens and `HEALTH` says podrun is well.
pub(super) fn start(signals: &Interrupt) -> Option<Task> {
    let timeout = sd_notify::watchdog_timeout()?;
    let period = (timeout / 2).max(MIN_PERIOD);
    tracing::debug!("systemd's watchdog: WATCHDOG=1 every {period:?} while podrun is healthy");
    let signals = signals.clone();
    Some(Task(tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut said = false;
        loop {
            tick.tick().await;
            let trouble = if signals.listening() {
                HEALTH.trouble(Instant::now())
            } else {
                Some("the signal handling has stopped".to_owned())
            };
            match trouble {
                None => {
                    said = false;
                    sd_notify::notify("WATCHDOG=1");
                }
                // Said once per spell: systemd ends podrun soon after unless it recovers.
                Some(why) if !said => {
                    said = true;
                    tracing::warn!("systemd's watchdog is not told podrun is alive: {why}");
                }
                Some(_) => {}
            }
        }
    })))
}

/// Asks the engine now and then while supervision runs and the watchdog is on, so that
/// `HEALTH` knows whether its connection still answers.
pub(super) fn watch_engine<R: Runtime>(rt: Arc<R>) -> Option<Task> {
    sd_notify::watchdog_timeout()?;
    Some(Task(tokio::spawn(async move {
        loop {
            if let Ok(answer) = tokio::time::timeout(ENGINE_STALE, rt.info()).await {
                if answered(&answer) {
                    HEALTH.engine_answered();
                }
            }
            tokio::time::sleep(ENGINE_EVERY).await;
        }
    })))
}

/// Whether the engine answered: anything but a call cut off for want of an answer.
fn answered<T>(r: &Result<T, RuntimeError>) -> bool {
    use crate::runtime::Unreachability;
    !matches!(
        r,
        Err(RuntimeError::Deadline { .. } | RuntimeError::Unreachable { why: Unreachability::NoAnswer(_), .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_is_the_loop_and_the_engine_while_supervising() {
        let h = Health { supervising: Mutex::new(None) };
        let later = |d: Duration| Instant::now() + d;
        assert_eq!(h.trouble(later(LOOP_STALE * 10)), None, "not supervising: nothing to watch");
        let guard = h.supervising();
        assert_eq!(h.trouble(later(Duration::from_secs(1))), None);
        let stale = h.trouble(later(LOOP_STALE + Duration::from_secs(2))).unwrap();
        assert!(stale.starts_with("the supervision loop has not come round for 5m"), "{stale}");
        // The loop comes round, but the engine has not answered since supervision started.
        h.beats().as_mut().unwrap().looped = later(ENGINE_STALE);
        let quiet = h.trouble(later(ENGINE_STALE + Duration::from_secs(2))).unwrap();
        assert!(quiet.starts_with("the engine has not answered for 5m"), "{quiet}");
        h.engine_answered();
        h.looped();
        assert_eq!(h.trouble(later(Duration::from_secs(1))), None);
        drop(guard);
        assert_eq!(h.trouble(later(LOOP_STALE * 10)), None, "supervision ended");
    }

    #[test]
    fn only_an_answer_cut_off_is_no_answer() {
        let away = RuntimeError::Unreachable {
            endpoint: "unix:///x".into(),
            why: crate::runtime::Unreachability::Refused("refused".into()),
        };
        assert!(answered(&Err::<(), _>(away)), "an engine that is away answers at once");
        assert!(answered(&Ok(())));
        assert!(!answered(&Err::<(), _>(RuntimeError::Deadline { what: "info".into() })));
        let silent = RuntimeError::Unreachable {
            endpoint: "unix:///x".into(),
            why: crate::runtime::Unreachability::NoAnswer(Duration::from_secs(5)),
        };
        assert!(!answered(&Err::<(), _>(silent)));
    }
}
