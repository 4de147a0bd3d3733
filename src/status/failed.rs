//! What a failed run says of each container that failed it: its reason and exit code, its
//! termination message, its last lines of output, its failing probe, and the commands to run
//! next. Which containers failed is read from the pod's last status here; their output and
//! probe are added by the driver, which reads them from the engine when the failure is certain.

use super::{ContainerStatus, PodStatus, Reason};

/// The most lines of a container's output a report shows.
pub const OUTPUT_LINES: usize = 10;
/// The most bytes of them (the last ones are kept).
pub const OUTPUT_BYTES: usize = 4096;

/// One container that failed the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedContainer {
    pub name: String,
    /// Whether it is an init container.
    pub init: bool,
    /// The state that failed the run: a waiting reason (`CrashLoopBackOff`, `ErrImagePull`), a
    /// terminated one (`Error`, `StartError`, `OOMKilled`), or `Unhealthy` for a probe.
    pub reason: String,
    /// The last termination of the container, when it has one: its reason and exit code.
    pub exit: Option<(String, i64)>,
    /// Its termination message, or the waiting state's message.
    pub message: Option<String>,
    pub restarts: u32,
    /// The engine's id of the instance whose output tells why (the driver reads it).
    pub instance: Option<String>,
    /// That instance is the one before the last restart (`podrun logs --previous`).
    pub previous: bool,
    /// Its last lines of output, as read from the engine.
    pub output: Option<LastOutput>,
    /// What its failing probe said last.
    pub probe: Option<String>,
}

/// The end of a container's output: at most [`OUTPUT_LINES`] lines and [`OUTPUT_BYTES`] bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastOutput {
    pub lines: Vec<String>,
    /// Earlier output was left out to keep within the bounds.
    pub cut: bool,
}

impl LastOutput {
    /// The last lines of `text`, within the bounds; `more`: `text` itself is only the end of it.
    pub fn of(text: &str, more: bool) -> LastOutput {
        let mut start = text.len().saturating_sub(OUTPUT_BYTES);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let kept = &text[start..];
        let mut lines: Vec<String> = kept.lines().map(str::to_owned).collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        let mut cut = more || start > 0;
        if lines.len() > OUTPUT_LINES {
            lines.drain(..lines.len() - OUTPUT_LINES);
            cut = true;
        }
        LastOutput { lines, cut }
    }
}

/// Waiting reasons that are only steps on the way, not failures.
fn is_step(reason: &str) -> bool {
    reason.is_empty() || matches!(Reason::named(reason), Some(Reason::ContainerCreating | Reason::PodInitializing))
}

fn engine_id(container_id: Option<&String>) -> Option<String> {
    container_id.map(|id| super::ids::engine_id(id).to_owned())
}

/// The containers of `st` that failed the run, in the pod's order: those waiting for a reason
/// that is a failure, those that exited non-zero, and those that run after a failure or are
/// kept unready by a probe (`probe_failed`: what a container's failing probe said last, by
/// name). Their output and probe are left for the driver to add.
pub fn failed_containers(
    st: &PodStatus,
    probe_failed: &dyn Fn(&ContainerStatus) -> Option<String>,
) -> Vec<FailedContainer> {
    let init = st.init_container_statuses.iter().map(|c| (c, true));
    init.chain(st.container_statuses.iter().map(|c| (c, false)))
        .filter_map(|(c, init)| failed(c, init, probe_failed))
        .collect()
}

fn failed(
    c: &ContainerStatus,
    init: bool,
    probe_failed: &dyn Fn(&ContainerStatus) -> Option<String>,
) -> Option<FailedContainer> {
    let last = c.last_state.terminated.as_ref();
    let base = |reason: String| FailedContainer {
        name: c.name.clone(),
        init,
        reason,
        exit: None,
        message: None,
        restarts: c.restart_count,
        instance: None,
        previous: false,
        output: None,
        probe: None,
    };
    if let Some(w) = c.state.waiting.as_ref().filter(|w| !is_step(&w.reason)) {
        let mut f = base(w.reason.clone());
        f.message = w.message.clone();
        if let Some(t) = last {
            f.exit = Some((t.reason.clone(), t.exit_code));
            f.message = f.message.or_else(|| t.message.clone());
            f.instance = engine_id(t.container_id.as_ref());
            f.previous = true;
        }
        return Some(f);
    }
    if let Some(t) = c.state.terminated.as_ref().filter(|t| t.exit_code != 0) {
        let mut f = base(t.reason.clone());
        f.exit = Some((t.reason.clone(), t.exit_code));
        f.message = t.message.clone();
        f.instance = engine_id(t.container_id.as_ref().or(c.container_id.as_ref()));
        return Some(f);
    }
    c.state.running.as_ref()?;
    let probe = probe_failed(c).filter(|_| !c.ready);
    let restarted = last.filter(|t| t.exit_code != 0);
    if probe.is_none() && restarted.is_none() {
        return None;
    }
    let mut f = base(if probe.is_some() { "Unhealthy".to_owned() } else { "Running".to_owned() });
    f.probe = probe;
    match restarted {
        // Its output before the restart says why it failed.
        Some(t) => {
            f.exit = Some((t.reason.clone(), t.exit_code));
            f.message = t.message.clone();
            f.instance = engine_id(t.container_id.as_ref());
            f.previous = true;
        }
        None => f.instance = engine_id(c.container_id.as_ref()),
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{fixtures, ContainerState, Phase};

    fn terminated(reason: &str, code: i64, id: &str, message: Option<&str>) -> ContainerState {
        let mut state = fixtures::terminated(reason, code);
        if let Some(t) = state.terminated.as_mut() {
            t.message = message.map(str::to_owned);
            t.container_id = Some(format!("docker://{id}"));
        }
        state
    }

    fn status(name: &str, state: ContainerState, last: ContainerState, ready: bool) -> ContainerStatus {
        let c = fixtures::container(name, state);
        ContainerStatus { last_state: last, ready, started: true, container_id: Some("docker://cur".into()), ..c }
    }

    fn pod(cs: Vec<ContainerStatus>) -> PodStatus {
        PodStatus::assemble(Phase::Running, true, None, None, (vec![], &[]), cs)
    }

    fn running() -> ContainerState {
        fixtures::running()
    }

    #[test]
    fn a_crash_loop_is_told_by_its_last_exit_and_the_instance_before_the_restart() {
        let waiting = ContainerState::waiting("CrashLoopBackOff", Some("back-off 10s".into()));
        let st = pod(vec![status("main", waiting, terminated("Error", 3, "prev", Some("FATAL")), false)]);
        let f = &failed_containers(&st, &|_| None)[0];
        assert_eq!((f.reason.as_str(), f.exit.clone()), ("CrashLoopBackOff", Some(("Error".into(), 3))));
        assert_eq!((f.instance.as_deref(), f.previous), (Some("prev"), true));
        assert_eq!(f.message.as_deref(), Some("back-off 10s"));
    }

    #[test]
    fn a_non_zero_exit_and_a_start_error_fail_but_a_zero_exit_and_a_creation_do_not() {
        let st = pod(vec![
            status("ok", terminated("Completed", 0, "a", None), ContainerState::default(), false),
            status(
                "bad",
                terminated("StartError", 128, "b", Some("exec: no such file")),
                ContainerState::default(),
                false,
            ),
            status("new", ContainerState::waiting("ContainerCreating", None), ContainerState::default(), false),
        ]);
        let f = failed_containers(&st, &|_| None);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].name.as_str(), f[0].reason.as_str()), ("bad", "StartError"));
        assert_eq!((f[0].instance.as_deref(), f[0].previous), (Some("b"), false));
        assert_eq!(f[0].message.as_deref(), Some("exec: no such file"));
    }

    #[test]
    fn a_running_container_fails_by_its_probe_or_a_failed_instance_before_it() {
        let probed = |c: &ContainerStatus| (c.name == "web").then(|| "readiness probe failed: 500".to_owned());
        let st = pod(vec![
            status("web", running(), ContainerState::default(), false),
            status("fine", running(), ContainerState::default(), true),
            status("back", running(), terminated("Error", 1, "old", None), true),
        ]);
        let f = failed_containers(&st, &probed);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!((f[0].reason.as_str(), f[0].probe.as_deref()), ("Unhealthy", Some("readiness probe failed: 500")));
        assert_eq!((f[0].instance.as_deref(), f[0].previous), (Some("cur"), false));
        assert_eq!((f[1].name.as_str(), f[1].instance.as_deref(), f[1].previous), ("back", Some("old"), true));
    }

    #[test]
    fn the_last_output_is_bounded_in_lines_and_bytes() {
        let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let out = LastOutput::of(&text, false);
        assert_eq!(out.lines.len(), OUTPUT_LINES);
        assert_eq!((out.lines[0].as_str(), out.cut), ("line 21", true));
        let long = "é".repeat(OUTPUT_BYTES);
        let out = LastOutput::of(&long, false);
        assert!(out.lines[0].len() <= OUTPUT_BYTES && out.cut);
        assert_eq!(LastOutput::of("a\nb\n\n", false), LastOutput { lines: vec!["a".into(), "b".into()], cut: false });
    }
}
