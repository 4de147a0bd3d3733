//! The decisions of `--auto-update`, as pure functions of what the engine and the driver show:
//! whether a container's image moved, and whether the container updated to it settled or
//! failed (the rule for going back).

use std::time::Duration;

use tokio::time::Instant;

use crate::runtime::ImageIdentity;
use crate::status::ContainerStatus;

/// Whether a container running `running` (an image id or a registry digest) is to be updated
/// to `now`, the image its reference names after a pull: not when it runs that image already,
/// nor when `now` is one that failed before.
pub fn moved(now: &ImageIdentity, running: &str, bad: bool) -> bool {
    !bad && !now.is(running)
}

/// A container updated and being watched over its settle window.
#[derive(Debug, Clone)]
pub struct Watch {
    pub uid: String,
    pub container: String,
    /// Its reference, as the manifest names it.
    pub image: String,
    /// The instance the update replaces.
    pub instance: String,
    /// The image id it ran, and the one it was updated to.
    pub from: String,
    pub to: String,
    /// When its new instance was first seen, and that instance's restart count then.
    pub since: Option<(Instant, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Settling,
    Good,
    /// The update failed, for this reason: roll back.
    Bad(String),
}

/// What the container's status `st` says of the update `w` at `now`: bad when the new instance
/// did not start (a waiting reason other than being created), exited, restarted, or (with a
/// readiness probe) was not ready once `settle` had passed; good when it ran for `settle`.
/// Until its old instance is replaced, settling.
pub fn judge(
    w: &mut Watch,
    st: Option<&ContainerStatus>,
    has_readiness: bool,
    now: Instant,
    settle: Duration,
) -> Verdict {
    let Some(st) = st else { return Verdict::Settling };
    if st.container_id.as_deref().map(crate::status::ids::engine_id) == Some(w.instance.as_str()) {
        return Verdict::Settling;
    }
    let (since, restarts) = *w.since.get_or_insert((now, st.restart_count));
    if let Some(t) = &st.state.terminated {
        return Verdict::Bad(format!("it exited with code {} ({})", t.exit_code, t.reason));
    }
    if let Some(wt) =
        st.state.waiting.as_ref().filter(|w| !matches!(w.reason.as_str(), "ContainerCreating" | "PodInitializing"))
    {
        return Verdict::Bad(match &wt.message {
            Some(m) => format!("{}: {m}", wt.reason),
            None => wt.reason.clone(),
        });
    }
    if st.restart_count > restarts {
        return Verdict::Bad(format!("it restarted ({} restarts)", st.restart_count));
    }
    if now.duration_since(since) < settle {
        return Verdict::Settling;
    }
    let settle = humantime::format_duration(settle);
    match (st.state.running.is_some(), st.ready || !has_readiness) {
        (true, true) => Verdict::Good,
        (true, false) => Verdict::Bad(format!("not ready within {settle}")),
        (false, _) => Verdict::Bad(format!("not running within {settle}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{ContainerState, Running, Terminated};

    fn identity(id: &str, digests: &[&str]) -> ImageIdentity {
        ImageIdentity { id: id.into(), digests: digests.iter().map(|&d| d.to_owned()).collect() }
    }

    #[test]
    fn an_image_moved_unless_the_container_runs_it_or_it_failed_before() {
        let now = identity("sha256:new", &["reg/a@sha256:m2"]);
        assert!(moved(&now, "sha256:old", false));
        assert!(moved(&now, "reg/a@sha256:m1", false), "another digest");
        assert!(!moved(&now, "sha256:new", false), "the same id");
        assert!(!moved(&now, "reg/a@sha256:m2", false), "its digest, as Docker and containerd report it");
        assert!(!moved(&now, "sha256:old", true), "a digest that failed is not tried again");
        assert!(moved(&now, "", false), "unknown: taken as moved");
    }

    fn watch() -> Watch {
        Watch {
            uid: "u".into(),
            container: "a".into(),
            image: "reg/a:1".into(),
            instance: "old".into(),
            from: "sha256:old".into(),
            to: "sha256:new".into(),
            since: None,
        }
    }

    fn status(id: &str, state: ContainerState, restarts: u32, ready: bool) -> ContainerStatus {
        ContainerStatus {
            name: "a".into(),
            state,
            ready,
            restart_count: restarts,
            container_id: Some(format!("docker://{id}")),
            last_state: ContainerState::default(),
            image: String::new(),
            image_id: String::new(),
            started: false,
            resources: None,
            allocated_resources: None,
        }
    }

    fn running() -> ContainerState {
        ContainerState { running: Some(Running { started_at: None }), ..ContainerState::default() }
    }

    #[test]
    fn an_update_settles_once_its_new_instance_ran_for_the_window() {
        let (t0, settle) = (Instant::now(), Duration::from_secs(10));
        let mut w = watch();
        let old = status("old", running(), 0, true);
        assert_eq!(judge(&mut w, Some(&old), false, t0 + settle * 2, settle), Verdict::Settling, "not replaced yet");
        let creating = status("", ContainerState::waiting("ContainerCreating", None), 1, false);
        assert_eq!(judge(&mut w, Some(&creating), false, t0, settle), Verdict::Settling);
        let new = status("new", running(), 1, false);
        assert_eq!(judge(&mut w, Some(&new), false, t0 + settle / 2, settle), Verdict::Settling);
        assert_eq!(judge(&mut w, Some(&new), false, t0 + settle, settle), Verdict::Good, "no readiness probe");
    }

    #[test]
    fn an_update_fails_on_an_exit_a_restart_a_failed_start_or_no_readiness() {
        let (t0, settle) = (Instant::now(), Duration::from_secs(10));
        let exited = ContainerState {
            terminated: Some(Terminated {
                exit_code: 1,
                reason: "Error".into(),
                message: None,
                started_at: None,
                finished_at: None,
                container_id: None,
            }),
            ..ContainerState::default()
        };
        let bad = |st: &ContainerStatus, at: Duration, readiness: bool| {
            let mut w = watch();
            let first = status("new", running(), 1, false);
            judge(&mut w, Some(&first), readiness, t0, settle);
            judge(&mut w, Some(st), readiness, t0 + at, settle)
        };
        let exit = bad(&status("new", exited, 1, false), Duration::ZERO, false);
        assert_eq!(exit, Verdict::Bad("it exited with code 1 (Error)".into()));
        let again = bad(&status("newer", running(), 2, false), Duration::from_secs(1), false);
        assert_eq!(again, Verdict::Bad("it restarted (2 restarts)".into()));
        let backoff = status("new", ContainerState::waiting("CrashLoopBackOff", Some("back-off".into())), 1, false);
        assert_eq!(bad(&backoff, Duration::ZERO, false), Verdict::Bad("CrashLoopBackOff: back-off".into()));
        let unready = status("new", running(), 1, false);
        assert_eq!(bad(&unready, settle / 2, true), Verdict::Settling, "readiness has the window");
        assert_eq!(bad(&unready, settle, true), Verdict::Bad("not ready within 10s".into()));
        assert_eq!(bad(&status("new", running(), 1, true), settle, true), Verdict::Good);
    }
}
