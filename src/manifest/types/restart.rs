//! Whether a container is started again after it exits: its own `restartPolicy` and
//! `restartPolicyRules` (ContainerRestartRules, on since 1.35), else the pod's restartPolicy.
//! One rule for the planner, the status and the wait, whether read from a manifest or from the
//! record a run left (`pod::record`).

use super::{ContainerRestartPolicy, ContainerRestartRule, RestartPolicy};

/// A container's own restart settings, borrowed from its manifest entry or its record.
#[derive(Debug, Clone, Copy, Default)]
pub struct OwnRestart<'a> {
    pub policy: Option<ContainerRestartPolicy>,
    pub rules: &'a [ContainerRestartRule],
}

impl OwnRestart<'_> {
    /// Whether the kubelet restarts the container after it exited with `exit_code`
    /// (pkg/api/v1/pod/util.go: ContainerShouldRestart): the first matching `Restart` rule,
    /// else the container's own restartPolicy, else the pod's. A sidecar's `Always` is the
    /// container's own policy too.
    pub fn restarts_after(self, pod_policy: RestartPolicy, exit_code: i64) -> bool {
        let Some(own) = self.policy else { return pod_policy.restarts_after(exit_code) };
        if self.rules.iter().find(|r| r.matches(exit_code)).is_some_and(|r| r.action == "Restart") {
            return true;
        }
        match own {
            ContainerRestartPolicy::Always => true,
            ContainerRestartPolicy::OnFailure => exit_code != 0,
            ContainerRestartPolicy::Never => false,
        }
    }

    /// Whether any exit at all may be followed by a restart (util.go: IsContainerRestartable).
    pub fn may_restart(self, pod_policy: RestartPolicy) -> bool {
        match self.policy {
            Some(own) => own != ContainerRestartPolicy::Never || self.rules.iter().any(|r| r.action == "Restart"),
            None => pod_policy != RestartPolicy::Never,
        }
    }

    /// Whether every exit is followed by a restart: the container runs until the pod is
    /// stopped, so waiting for it means waiting for it to run, not to complete. The rules tell
    /// codes apart only by whether they list them, so 0, each listed code and one unlisted code
    /// stand for every exit.
    pub fn restarts_always(self, pod_policy: RestartPolicy) -> bool {
        let listed: Vec<i64> = self
            .rules
            .iter()
            .filter_map(|r| r.exit_codes.as_ref())
            .flat_map(|c| &c.values)
            .map(|v| i64::from(*v))
            .collect();
        // Of one code more than are listed, one is unlisted.
        let unlisted = (1..).take(listed.len() + 1).find(|code| !listed.contains(code)).unwrap_or(1);
        std::iter::once(0)
            .chain(listed.iter().copied())
            .chain([unlisted])
            .all(|code| self.restarts_after(pod_policy, code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::ContainerRestartRuleOnExitCodes;

    fn rule(operator: &str, values: &[i32]) -> ContainerRestartRule {
        ContainerRestartRule {
            action: "Restart".into(),
            exit_codes: Some(ContainerRestartRuleOnExitCodes { operator: operator.into(), values: values.to_vec() }),
        }
    }

    /// (name, its own policy, its rules, the pod's policy, restarted after every exit)
    type Row = (&'static str, Option<ContainerRestartPolicy>, Vec<ContainerRestartRule>, RestartPolicy, bool);

    /// Whether a container runs for good, by its own settings and the pod's policy.
    #[test]
    fn restarts_always_when_no_exit_ends_it() {
        use ContainerRestartPolicy as C;
        use RestartPolicy as P;
        let cases: &[Row] = &[
            ("the pod's Always", None, vec![], P::Always, true),
            ("the pod's OnFailure", None, vec![], P::OnFailure, false),
            ("the pod's Never", None, vec![], P::Never, false),
            ("its own Always in a Never pod", Some(C::Always), vec![], P::Never, true),
            ("its own Never in an Always pod", Some(C::Never), vec![], P::Always, false),
            ("its own OnFailure", Some(C::OnFailure), vec![], P::Always, false),
            ("OnFailure, 0 restarted by a rule", Some(C::OnFailure), vec![rule("In", &[0])], P::Never, true),
            ("Never, restarted unless 42", Some(C::Never), vec![rule("NotIn", &[42])], P::Never, false),
            ("Never, restarted on 42 only", Some(C::Never), vec![rule("In", &[42])], P::Never, false),
            (
                "Never, In and NotIn cover every code",
                Some(C::Never),
                vec![rule("In", &[3]), rule("NotIn", &[3])],
                P::Never,
                true,
            ),
        ];
        for (name, policy, rules, pod, want) in cases {
            let own = OwnRestart { policy: *policy, rules };
            assert_eq!(own.restarts_always(*pod), *want, "{name}");
        }
    }
}
