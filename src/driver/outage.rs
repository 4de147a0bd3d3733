//! An engine that goes away after podrun reached it (restarted by a package upgrade, a config
//! reload, socket activation at boot) is a transient fault, as it is to a kubelet: the driver
//! waits for it, looking again after 250 ms, doubling to 2 s between looks, never past the
//! deadline, and says so once per outage. When the engine answers again the driver takes up
//! the pod where the engine left it: containers that died with the engine are replaced by the
//! pod's rules (a new infra container means every container starts over, init containers too).
//!
//! An engine that was not there at the first contact is not waited for: that is a wrong
//! address or a stopped engine, and the run ends at once (exit 3).

use std::time::Duration;

use futures_util::stream::BoxStream;
use tokio::time::Instant;

use crate::report::{PodKey, Reporter};
use crate::runtime::{Runtime, RuntimeError, Selector, Unreachability};

use super::{Interrupt, PodFailure};

/// The first wait before looking at an engine that went away; it doubles up to `MAX_WAIT`.
const FIRST_WAIT: Duration = Duration::from_millis(250);
const MAX_WAIT: Duration = Duration::from_secs(2);

/// Whether `e` says the engine is away rather than answering. A look (a container list) that
/// gets a 5xx is counted as away too: an engine shutting down or starting, or a proxy in front
/// of it, answers so, and a list has no other reason to fail.
pub fn away(e: &RuntimeError, look: bool) -> bool {
    match e {
        RuntimeError::Unreachable { .. } => true,
        RuntimeError::Engine { status, .. } => look && *status >= 500,
        _ => false,
    }
}

/// The driver's line to the engine: whether it answered in this run, and the subscription to
/// its events, which an outage ends and which is made anew when the engine is back.
pub struct EngineLink {
    sel: Selector,
    key: PodKey,
    /// Until when an outage is waited out (the run's deadline); None: as long as it lasts.
    deadline: Option<Instant>,
    reached: bool,
    pub changes: BoxStream<'static, ()>,
    /// False once the event stream ended: the driver then polls.
    pub events_alive: bool,
}

impl EngineLink {
    /// Subscribes to the events of the containers `sel` selects.
    pub fn new<R: Runtime>(rt: &R, key: PodKey, deadline: Option<Instant>) -> EngineLink {
        let sel = Selector::pod(&key.namespace, &key.name);
        let changes = rt.changes(&sel);
        EngineLink { sel, key, deadline, reached: false, changes, events_alive: true }
    }

    /// The engine answered.
    pub fn answered(&mut self) {
        self.reached = true;
    }

    /// Handles `e`, the failure of a look (`look`: a container list) or of an action: an engine
    /// that went away after it answered in this run is waited for, within the deadline, and Ok
    /// means it is back, with the event subscription made anew. Anything else, and an engine
    /// still away at the deadline, is the run's failure.
    pub async fn ride_out<R: Runtime>(
        &mut self,
        rt: &R,
        e: RuntimeError,
        look: bool,
        reporter: &dyn Reporter,
        interrupt: &mut Interrupt,
    ) -> Result<(), PodFailure> {
        if !self.reached || !away(&e, look) {
            return Err(PodFailure::Runtime(e));
        }
        let (key, gone) = (&self.key, Instant::now());
        let until = match self.deadline {
            Some(d) => format!(" for up to {}", humantime::format_duration(secs(d.saturating_duration_since(gone)))),
            None => String::new(),
        };
        reporter.warning(&format!("pod {key}: engine unreachable, retrying{until} ({e})"));
        wait_for_engine(rt, &self.sel, e, self.deadline, interrupt).await?;
        let outage = humantime::format_duration(tenths(gone.elapsed()));
        reporter.event(key, &format!("the engine answers again (away for {outage}); carrying on"));
        self.changes = rt.changes(&self.sel);
        self.events_alive = true;
        Ok(())
    }
}

/// Looks at the engine (a list of `sel`'s containers) with a doubling wait between looks until
/// it answers, an interrupt, or `deadline` (if any), when the engine being away is the failure
/// (exit 3) and its message says for how long. Reports nothing: the callers say what they wait
/// for.
pub async fn wait_for_engine<R: Runtime>(
    rt: &R,
    sel: &Selector,
    lost: RuntimeError,
    deadline: Option<Instant>,
    interrupt: &mut Interrupt,
) -> Result<(), PodFailure> {
    let gone = Instant::now();
    // Far enough never to come, near enough not to overflow the clock.
    let deadline = deadline.unwrap_or_else(|| gone + Duration::from_secs(100 * 365 * 24 * 3600));
    let mut last = lost;
    let mut wait = FIRST_WAIT;
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Err(PodFailure::Runtime(still_away(last, gone.elapsed())));
        }
        tokio::select! {
            () = tokio::time::sleep_until((now + wait).min(deadline)) => {}
            sig = interrupt.wait() => return Err(PodFailure::Interrupted(sig)),
        }
        wait = (wait * 2).min(MAX_WAIT);
        // An engine that accepts connections but does not answer yet (socket activation) is
        // not waited for past the deadline either.
        let look = tokio::select! {
            r = tokio::time::timeout_at(deadline, rt.list(sel)) => r,
            sig = interrupt.wait() => return Err(PodFailure::Interrupted(sig)),
        };
        match look {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) if away(&e, true) => last = e,
            // It answered, if only to refuse: it is there; the caller's next call will tell.
            Ok(Err(_)) => return Ok(()),
            Err(_elapsed) => {}
        }
    }
}

/// The error that ends a run whose engine was still away at the deadline.
fn still_away(last: RuntimeError, away_for: Duration) -> RuntimeError {
    let away_for = humantime::format_duration(secs(away_for));
    match last {
        RuntimeError::Unreachable { endpoint, why } => RuntimeError::Unreachable {
            endpoint,
            why: Unreachability::AtDeadline { why: Box::new(why), away_for: away_for.to_string() },
        },
        // Still answering only with 5xx: the engine is there, but not working.
        RuntimeError::Engine { what, status, message } => {
            RuntimeError::Engine { what, status, message: format!("{message} (for {away_for}, until the deadline)") }
        }
        other => other,
    }
}

fn secs(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs())
}

fn tenths(d: Duration) -> Duration {
    Duration::from_millis(u64::try_from(d.as_millis() / 100 * 100).unwrap_or(u64::MAX))
}
