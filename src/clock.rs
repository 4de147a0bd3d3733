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
/// The proleptic Gregorian date (year, month, day) `days` after 1970-01-01, for the timestamps
/// podrun writes in the API's and Go's formats (Howard Hinnant's `civil_from_days`).
#[must_use]
pub fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

pub fn now() -> SystemTime {
    let (wall, mono) = anchor();
    *wall + Instant::now().saturating_duration_since(*mono)
}

/// The tokio instant at which `now()` will read `t` (now, if `t` has passed).
pub fn instant_at(t: SystemTime) -> Instant {
    Instant::now() + t.duration_since(now()).unwrap_or_default()
}
