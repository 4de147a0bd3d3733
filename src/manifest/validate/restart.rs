//! A container's own `restartPolicy` and `restartPolicyRules` (ContainerRestartRules, on by
//! default since Kubernetes 1.35), with the API server's rules and words
//! (validation.go: validateContainerRestartPolicy): any container may set a policy, rules need
//! one, each rule restarts on listed exit codes. On an init container `Always` makes a sidecar,
//! which is restarted whatever its exit; rules do not apply to it.

use super::FieldError;
use crate::manifest::types::{Container, ContainerRestartPolicy};

const MAX_RULES: usize = 20;
const MAX_EXIT_CODES: usize = 255;

/// The action of RestartAllContainersOnContainerExits (beta, on by default since 1.36), which
/// podrun does not carry out.
const RESTART_ALL: &str = "RestartAllContainers";

fn too_many(path: String, actual: usize, max: usize) -> FieldError {
    FieldError::new(path, format!("Too many: {actual}: must have at most {max} items"))
}

/// Appends the errors of `c`'s restart policy and rules, `init` saying whether it is an init
/// container.
pub(super) fn validate_container_restart(c: &Container, path: &str, init: bool, errors: &mut Vec<FieldError>) {
    let rules = &c.restart_policy_rules;
    if c.restart_policy.is_none() && !rules.is_empty() {
        errors.push(FieldError::required_because(
            format!("{path}.restartPolicy"),
            "must specify restartPolicy when restart rules are used",
        ));
    }
    if rules.len() > MAX_RULES {
        errors.push(too_many(format!("{path}.restartPolicyRules"), rules.len(), MAX_RULES));
    }
    let sidecar = init && c.restart_policy == Some(ContainerRestartPolicy::Always);
    for (i, rule) in rules.iter().enumerate() {
        let rpath = format!("{path}.restartPolicyRules[{i}]");
        match rule.action.as_str() {
            RESTART_ALL => errors.push(FieldError::forbidden(
                format!("{rpath}.action"),
                "RestartAllContainers (Kubernetes 1.36+, RestartAllContainersOnContainerExits) is not implemented \
                 by podrun: only the Restart action is",
            )),
            "Restart" if sidecar => errors.push(FieldError::forbidden(
                format!("{rpath}.action"),
                "a sidecar (an init container with restartPolicy Always) is restarted whatever its exit code; \
                 restart rules do not apply to it",
            )),
            "Restart" => {}
            other => errors.push(FieldError::unsupported(format!("{rpath}.action"), other, &["Restart"])),
        }
        let Some(codes) = &rule.exit_codes else {
            errors.push(FieldError::required_because(format!("{rpath}.exitCodes"), "must be specified"));
            continue;
        };
        if !matches!(codes.operator.as_str(), "In" | "NotIn") {
            errors.push(FieldError::unsupported(
                format!("{rpath}.exitCodes.operator"),
                &codes.operator,
                &["In", "NotIn"],
            ));
        }
        if codes.values.len() > MAX_EXIT_CODES {
            errors.push(too_many(format!("{rpath}.exitCodes.values"), codes.values.len(), MAX_EXIT_CODES));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::manifest::{load, LoadOptions, ManifestError, Source};

    /// The problems of a pod whose container (or, `init`, init container) has `fields`.
    fn problems(fields: &str, init: bool) -> Vec<String> {
        let c = format!("{{name: c, image: busybox{fields}}}");
        let containers = if init {
            format!("initContainers: [{c}]\n  containers: [{{name: a, image: busybox}}]")
        } else {
            format!("containers: [{c}]")
        };
        let yaml = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  {containers}\n");
        match load(&Source::from_text("p.yaml", &yaml), &LoadOptions::default()) {
            Ok(_) => Vec::new(),
            Err(ManifestError::Invalid { problems, .. }) => problems.iter().map(ToString::to_string).collect(),
            Err(e) => vec![e.to_string()],
        }
    }

    /// After validation_test.go's container restart policy and rules cases, with the
    /// ContainerRestartRules gate on (its default since 1.35).
    #[test]
    fn accepted_policies_and_rules() {
        for init in [false, true] {
            for fields in [
                ", restartPolicy: Never",
                ", restartPolicy: OnFailure",
                ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]",
                ", restartPolicy: OnFailure, restartPolicyRules: [{action: Restart, exitCodes: {operator: NotIn, values: [0, 1]}}]",
                ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {operator: In}}]",
                ", restartPolicy: Never, restartPolicyRules: []",
            ] {
                assert_eq!(problems(fields, init), Vec::<String>::new(), "{fields} (init: {init})");
            }
        }
        assert_eq!(problems(", restartPolicy: Always", false), Vec::<String>::new(), "Always on an app container");
        assert_eq!(problems(", restartPolicy: Always", true), Vec::<String>::new(), "a sidecar");
    }

    #[test]
    fn refused_policies_and_rules_with_the_api_servers_words() {
        let rules = |n: usize| {
            let one = "{action: Restart, exitCodes: {operator: In, values: [1]}}";
            format!(", restartPolicy: Never, restartPolicyRules: [{}]", vec![one; n].join(", "))
        };
        let values: Vec<String> = (0..256).map(|v| v.to_string()).collect();
        let many_values =
            format!(", restartPolicy: Never, restartPolicyRules: [{{action: Restart, exitCodes: {{operator: In, values: [{}]}}}}]", values.join(", "));
        for (fields, init, want) in [
            (
                ", restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]".to_owned(),
                false,
                "spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used",
            ),
            (
                ", restartPolicy: Never, restartPolicyRules: [{action: Stop, exitCodes: {operator: In, values: [42]}}]".to_owned(),
                false,
                "spec.containers[0].restartPolicyRules[0].action: Unsupported value: \"Stop\": supported values: \"Restart\"",
            ),
            (
                ", restartPolicy: Never, restartPolicyRules: [{action: Restart, exitCodes: {values: [42]}}]".to_owned(),
                true,
                "spec.initContainers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: \"\": supported values: \"In\", \"NotIn\"",
            ),
            (
                ", restartPolicy: Never, restartPolicyRules: [{action: Restart}]".to_owned(),
                false,
                "spec.containers[0].restartPolicyRules[0].exitCodes: Required value: must be specified",
            ),
            (rules(21), false, "spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items"),
            (
                many_values,
                false,
                "spec.containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items",
            ),
            (
                ", restartPolicy: Always, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1]}}]".to_owned(),
                true,
                "spec.initContainers[0].restartPolicyRules[0].action: Forbidden: a sidecar",
            ),
            (
                ", restartPolicy: Never, restartPolicyRules: [{action: RestartAllContainers, exitCodes: {operator: In, values: [1]}}]".to_owned(),
                false,
                "spec.containers[0].restartPolicyRules[0].action: Forbidden: RestartAllContainers (Kubernetes 1.36+",
            ),
        ] {
            let got = problems(&fields, init);
            assert_eq!(got.len(), 1, "{fields}: {got:#?}");
            assert!(got[0].starts_with(want), "{fields}:\n{}\nwant {want}", got[0]);
        }
        assert!(rules(20).len() > 20 && problems(&rules(20), false).is_empty(), "20 rules are fine");
    }

    /// The manual's example once carried `onExit`, which is not an API field.
    #[test]
    fn on_exit_is_not_a_field() {
        let got = problems(
            ", restartPolicy: Never, restartPolicyRules: [{action: Restart, onExit: {exitCodes: {operator: In, values: [1]}}}]",
            false,
        );
        assert!(got.iter().any(|p| p.contains("onExit")), "{got:#?}");
    }
}
