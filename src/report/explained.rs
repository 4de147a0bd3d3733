//! The end of a failed run's report: for each container that failed it, its reason and exit
//! code, its termination message, what its failing probe said, its last lines of output, and
//! the commands to run next. Every line is escaped (`crate::escape`) and indented under the
//! pod's line.

use crate::escape::escape;
use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::status::failed::{FailedContainer, OUTPUT_LINES};

use super::PodKey;

/// The lines that explain `failed`, the containers of pod `key` that failed its run.
pub(crate) fn lines(key: &PodKey, failed: &[FailedContainer]) -> Vec<String> {
    let mut out = Vec::new();
    for f in failed {
        out.push(format!("  {}", headline(f)));
        if let Some(m) = f.message.as_deref().filter(|m| !m.trim().is_empty() && !said_by_output(f, m)) {
            let lines: Vec<&str> = m.lines().filter(|l| !l.trim().is_empty()).collect();
            match lines.as_slice() {
                [one] => out.push(format!("    message: {}", escape(one))),
                many => {
                    out.push("    message:".to_owned());
                    let start = many.len().saturating_sub(OUTPUT_LINES);
                    out.extend(many[start..].iter().map(|l| format!("      {}", escape(l))));
                }
            }
        }
        if let Some(p) = &f.probe {
            out.push(format!("    probe: {}", escape(p)));
        }
        if let Some(o) = &f.output {
            let which = if f.previous { "before its last restart" } else { "of its last run" };
            let cut = if o.cut { ", earlier output left out" } else { "" };
            let n = match o.lines.len() {
                1 => "1 line".to_owned(),
                n => format!("{n} lines"),
            };
            out.push(format!("    last output {which} ({n}{cut}):"));
            out.extend(o.lines.iter().map(|l| format!("      | {}", escape(l))));
        }
        out.push(format!("    next: {}", next(key, f).join("; ")));
    }
    out
}

/// `main: CrashLoopBackOff, last exit Error (exit code 3), 4 restarts`.
fn headline(f: &FailedContainer) -> String {
    let kind = if f.init { "init container" } else { "container" };
    let mut s = format!("{kind} {}: {}", escape(&f.name), escape(&f.reason));
    match &f.exit {
        Some((reason, code)) if *reason == f.reason => s.push_str(&format!(" (exit code {code})")),
        Some((reason, code)) => s.push_str(&format!(", last exit {} (exit code {code})", escape(reason))),
        None => {}
    }
    match f.restarts {
        0 => {}
        1 => s.push_str(", 1 restart"),
        n => s.push_str(&format!(", {n} restarts")),
    }
    s
}

/// A termination message taken from the logs (FallbackToLogsOnError) is the output shown below.
fn said_by_output(f: &FailedContainer, message: &str) -> bool {
    let Some(o) = &f.output else { return false };
    let last = |s: &str| s.lines().rev().find(|l| !l.trim().is_empty()).map(str::trim).map(str::to_owned);
    !o.lines.is_empty()
        && last(message) == o.lines.iter().rev().find(|l| !l.trim().is_empty()).map(|l| l.trim().to_owned())
}

/// The commands that show more: the container's output (of the instance before its restart
/// when that is the one that failed), and the pod's whole status.
fn next(key: &PodKey, f: &FailedContainer) -> Vec<String> {
    let ns = if key.namespace == DEFAULT_NAMESPACE { String::new() } else { format!(" -n {}", escape(&key.namespace)) };
    let pod = escape(&key.name);
    let mut cmds = Vec::new();
    if f.instance.is_some() {
        let previous = if f.previous { " --previous" } else { "" };
        cmds.push(format!("podrun logs {pod}{ns} -c {}{previous}", escape(&f.name)));
    }
    cmds.push(format!("podrun get {pod}{ns} -o json"));
    cmds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::failed::LastOutput;

    fn crash_loop() -> FailedContainer {
        FailedContainer {
            name: "main".into(),
            init: false,
            reason: "CrashLoopBackOff".into(),
            exit: Some(("Error".into(), 3)),
            message: Some("back-off 10s restarting failed container".into()),
            restarts: 4,
            instance: Some("abc".into()),
            previous: true,
            output: Some(LastOutput {
                lines: vec!["starting".into(), "FATAL: db unreachable\u{1b}[2J".into()],
                cut: true,
            }),
            probe: None,
        }
    }

    #[test]
    fn a_crash_loop_says_its_cause_its_output_and_what_to_run_next() {
        let key = PodKey { namespace: "ci".into(), name: "web".into() };
        assert_eq!(
            lines(&key, &[crash_loop()]),
            [
                "  container main: CrashLoopBackOff, last exit Error (exit code 3), 4 restarts",
                "    message: back-off 10s restarting failed container",
                "    last output before its last restart (2 lines, earlier output left out):",
                "      | starting",
                "      | FATAL: db unreachable\\x1b[2J",
                "    next: podrun logs web -n ci -c main --previous; podrun get web -n ci -o json",
            ]
        );
    }

    #[test]
    fn a_failed_probe_and_a_pull_failure_are_told_with_what_they_have() {
        let key = PodKey { namespace: "default".into(), name: "web".into() };
        let probe = FailedContainer {
            reason: "Unhealthy".into(),
            exit: None,
            message: None,
            restarts: 0,
            previous: false,
            output: None,
            probe: Some("readiness probe failed: HTTP probe failed with statuscode: 500".into()),
            ..crash_loop()
        };
        assert_eq!(
            lines(&key, &[probe]),
            [
                "  container main: Unhealthy",
                "    probe: readiness probe failed: HTTP probe failed with statuscode: 500",
                "    next: podrun logs web -c main; podrun get web -o json",
            ]
        );
        let pull = FailedContainer {
            init: true,
            reason: "ErrImagePull".into(),
            exit: None,
            message: Some("manifest unknown".into()),
            restarts: 0,
            instance: None,
            previous: false,
            output: None,
            ..crash_loop()
        };
        assert_eq!(
            lines(&key, &[pull]),
            [
                "  init container main: ErrImagePull",
                "    message: manifest unknown",
                "    next: podrun get web -o json"
            ]
        );
    }

    #[test]
    fn a_message_that_is_the_output_is_not_said_twice() {
        let key = PodKey { namespace: "default".into(), name: "job".into() };
        let f = FailedContainer {
            reason: "Error".into(),
            restarts: 0,
            previous: false,
            message: Some("starting\nFATAL: db unreachable\u{1b}[2J\n".into()),
            ..crash_loop()
        };
        let said = lines(&key, &[f]);
        assert_eq!(said[0], "  container main: Error (exit code 3)");
        assert!(!said.iter().any(|l| l.contains("message")), "{said:?}");
    }
}
