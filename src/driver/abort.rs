//! compose's `--abort-on-container-exit` (and `--exit-code-from`, which implies it): the run
//! ends when an app container has terminated for good, and the pod's other containers are
//! stopped. A container its effective restart policy starts again has not ended, as compose
//! does not count a container its restart policy restarts. Init containers run to completion
//! by design (compose has none): only app containers end a run.

use crate::clock::parse_time;
use crate::status::PodStatus;

/// The app container that ended the run, and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub container: String,
    pub exit_code: i64,
}

/// The first app container (by when it finished, then in the manifest's order) that has
/// terminated and that `restarts(i, code)` says will not be started again.
pub fn first_ended(status: &PodStatus, restarts: impl Fn(usize, i64) -> bool) -> Option<Ended> {
    status
        .container_statuses
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let t = s.state.terminated.as_ref().filter(|t| !restarts(i, t.exit_code))?;
            let finished = t.finished_at.as_deref().and_then(parse_time);
            Some((finished.is_none(), finished, i, Ended { container: s.name.clone(), exit_code: t.exit_code }))
        })
        .min_by_key(|(unknown, finished, i, _)| (*unknown, *finished, *i))
        .map(|(_, _, _, ended)| ended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{fixtures, ContainerState, ContainerStatus, Phase};

    fn status(name: &str, state: ContainerState) -> ContainerStatus {
        fixtures::container(name, state)
    }

    fn up() -> ContainerState {
        fixtures::running()
    }

    fn exited(code: i64, at: &str) -> ContainerState {
        let mut state = fixtures::exited(code);
        if let Some(t) = state.terminated.as_mut() {
            t.finished_at = Some(at.into());
        }
        state
    }

    const T1: &str = "2024-01-01T00:00:01Z";
    const T2: &str = "2024-01-01T00:00:02Z";

    /// (name, states of `test`, `db` and `web`, whether each is restarted after any exit, the
    /// container that ends the run)
    type Row = (&'static str, [ContainerState; 3], [bool; 3], Option<(&'static str, i64)>);

    #[test]
    fn the_first_container_to_end_for_good_ends_the_run() {
        let cases: Vec<Row> = vec![
            ("all running: nothing ended", [up(), up(), up()], [false; 3], None),
            ("test exited 0", [exited(0, T1), up(), up()], [false; 3], Some(("test", 0))),
            ("test exited 3", [exited(3, T1), up(), up()], [false; 3], Some(("test", 3))),
            ("db exited first, test later", [exited(0, T2), exited(1, T1), up()], [false; 3], Some(("db", 1))),
            ("test first, db later", [exited(0, T1), exited(1, T2), up()], [false; 3], Some(("test", 0))),
            ("a container that is restarted has not ended", [exited(2, T1), up(), up()], [true, false, false], None),
            ("restarted test, ended web", [exited(2, T1), up(), exited(0, T2)], [true, false, false], Some(("web", 0))),
        ];
        for (name, states, restarted, want) in cases {
            let apps = ["test", "db", "web"].into_iter().zip(states).map(|(n, s)| status(n, s)).collect();
            let st = PodStatus::assemble(Phase::Running, true, None, None, (vec![], &[]), apps);
            let got = first_ended(&st, |i, _| restarted[i]);
            let want = want.map(|(c, code)| Ended { container: c.into(), exit_code: code });
            assert_eq!(got, want, "{name}");
        }
    }
}
