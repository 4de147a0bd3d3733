//! CrashLoopBackOff: how long a container that keeps exiting waits before its next restart.
//!
//! The kubelet restarts a container at once the first time, then waits a doubling delay up to
//! a cap, and forgets the history once a container has run well for a while. podrun keys the
//! delay on the instance's attempt number and the engine's `finishedAt`, both stored with the
//! container, so the backoff carries over from one podrun invocation to the next.

use std::time::{Duration, SystemTime};

use crate::clock::parse_time;
use crate::pod::observed::attempt_of;
use crate::runtime::{Observed, State};

/// A container that ran this long before exiting starts its backoff afresh.
const RESET_AFTER: Duration = Duration::from_secs(600);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrashBackoff {
    /// The wait before the second restart (the first is immediate).
    pub base: Duration,
    pub max: Duration,
}

impl Default for CrashBackoff {
    /// 1 s doubling to 30 s: ten restarts fit in about three minutes, inside podrun's default
    /// five-minute deadline (the kubelet's 10 s to 300 s would not).
    fn default() -> Self {
        CrashBackoff { base: Duration::from_secs(1), max: Duration::from_secs(30) }
    }
}

impl CrashBackoff {
    /// The wait before restart number `restarts + 1`.
    pub fn delay(&self, restarts: u32) -> Duration {
        if restarts == 0 {
            return Duration::ZERO;
        }
        let factor = 1u32.checked_shl(restarts - 1).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.max)
    }

    /// When the exited instance `cur` may be replaced, if that is later than `now`.
    pub fn hold(&self, cur: &Observed, now: SystemTime) -> Option<(SystemTime, Duration)> {
        let State::Exited { started_at, finished_at, .. } = &cur.state else { return None };
        let finished = finished_at.as_deref().and_then(parse_time)?;
        let started = started_at.as_deref().and_then(parse_time);
        let ran = started.and_then(|s| finished.duration_since(s).ok()).unwrap_or_default();
        let delay = if ran >= RESET_AFTER { Duration::ZERO } else { self.delay(attempt_of(cur)) };
        let until = finished + delay;
        (until > now).then_some((until, delay))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_from_the_second_restart_up_to_the_cap() {
        let b = CrashBackoff { base: Duration::from_secs(10), max: Duration::from_secs(300) };
        let secs: Vec<u64> = (0..8).map(|r| b.delay(r).as_secs()).collect();
        assert_eq!(secs, [0, 10, 20, 40, 80, 160, 300, 300]);
        assert_eq!(b.delay(200), Duration::from_secs(300), "no overflow");
    }
}
