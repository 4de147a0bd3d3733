//! What a pod may need that exists only on a cluster and that podrun cannot stand in for,
//! beyond the fields the schema marks: references to the variables the kubelet injects for the
//! API server's own Service. A pod that reads them fails on one host (there is no API server),
//! so it is refused up front with the reason, instead of crash-looping.

use super::types::Pod;
use super::validate::FieldError;

/// The variables the kubelet sets for the `kubernetes` Service in every pod.
const API_SERVICE_VARS: &[&str] =
    &["KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "KUBERNETES_PORT", "KUBERNETES_SERVICE_PORT_HTTPS"];

/// Whether `text` names `var` as a whole word (so KUBERNETES_PORT_443_TCP counts as
/// KUBERNETES_PORT only where it is the whole name).
fn names(text: &str, var: &str) -> bool {
    text.match_indices(var).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + var.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

pub fn check(pod: &Pod) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (path, c, _) in pod.spec.all_containers() {
        // A variable the container sets itself is its own business.
        let own = |v: &str| c.env.iter().any(|e| e.name == v);
        let words =
            c.command.iter().flatten().map(|w| ("command", w)).chain(c.args.iter().flatten().map(|w| ("args", w)));
        for (field, w) in words {
            if let Some(var) = API_SERVICE_VARS.iter().find(|v| names(w, v) && !own(v)) {
                errors.push(FieldError::new(
                    format!("{path}.{field}"),
                    format!(
                        "refers to {var}, which the kubelet sets for the Kubernetes API server's Service; \
                         that exists only on a cluster, so podrun cannot provide it"
                    ),
                ));
                break;
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{Container, EnvVar};

    fn pod(args: &[&str], env: &[&str]) -> Pod {
        let mut p = Pod::default();
        p.spec.containers.push(Container {
            name: "c".into(),
            args: Some(args.iter().map(|s| s.to_string()).collect()),
            env: env
                .iter()
                .map(|n| EnvVar { name: n.to_string(), value: Some("x".into()), ..Default::default() })
                .collect(),
            ..Default::default()
        });
        p
    }

    #[test]
    fn references_to_the_api_service_are_refused() {
        let errs = check(&pod(&["HOSTNAME", "KUBERNETES_PORT"], &[]));
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].path, "spec.containers[0].args");
        assert!(errs[0].message.contains("KUBERNETES_PORT"));
        assert_eq!(check(&pod(&["echo $KUBERNETES_SERVICE_HOST"], &[])).len(), 1);
    }

    #[test]
    fn other_words_and_own_variables_are_fine() {
        assert!(check(&pod(&["MY_KUBERNETES_PORT", "KUBERNETES_PORTS"], &[])).is_empty());
        assert!(check(&pod(&["KUBERNETES_PORT"], &["KUBERNETES_PORT"])).is_empty());
    }
}
