//! Wall-clock time that advances with tokio's clock. The planner compares "now" with the
//! engine's timestamps (crash backoff, settling); reading the time this way makes those
//! comparisons move with paused time in tests, and is the wall clock otherwise.

use std::sync::OnceLock;
use std::time::SystemTime;

use tokio::time::Instant;

fn anchor() -> &'static (SystemTime, Instant) {
    static ANCHOR: OnceLock<(SystemTime, Instant)> = OnceLock::new();
    ANCHOR.get_or_init(|| (SystemTime::now(), Instant::now()))
}

/// An engine timestamp (RFC 3339, as the engine writes `startedAt` and `finishedAt`).
pub fn parse_time(t: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(t).ok()
}

pub fn now() -> SystemTime {
    let (wall, mono) = anchor();
    *wall + Instant::now().saturating_duration_since(*mono)
}

/// The tokio instant at which `now()` will read `t` (now, if `t` has passed).
pub fn instant_at(t: SystemTime) -> Instant {
    Instant::now() + t.duration_since(now()).unwrap_or_default()
}
