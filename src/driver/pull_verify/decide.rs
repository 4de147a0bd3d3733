//! Whether a pod may use an image on the node without pulling it, as the kubelet's image
//! pull manager decides (`pkg/kubelet/images/pullmanager`, KEP-2535, the feature gate
//! KubeletEnsureSecretPulledImages): pure rules over the policy, what the record knows of the
//! image, and the credentials the pod would pull with.

use super::policy::Policy;
use super::record::{Access, Known, SecretHashes};
use crate::manifest::types::PullPolicy;

/// Whether the pod must pull the image (with its own credentials) before it may use the copy
/// on the node. `pod`: the pod's pull Secret for the image (hashed), `None` when it has none.
pub fn must_pull(policy: &Policy, repository: &str, known: Known<'_>, pod: Option<&SecretHashes>) -> bool {
    // An image pulled under other names only came by this name from elsewhere (a tag, a load,
    // a build on the host): under this name it is preloaded. Locally built images share ids
    // with pulled ones, and a manifest cannot make a name the host does not have.
    let pulled_by_podrun = matches!(known, Known::Pulling | Known::Pulled(Some(_)));
    if !policy.requires_verification(repository, pulled_by_podrun) {
        return false;
    }
    let secrets = match known {
        // No record of who pulled it: only a pull shows the pod may have it.
        Known::Preloaded | Known::Pulling | Known::Pulled(None) => return true,
        Known::Pulled(Some(Access::Anyone)) => return false,
        Known::Pulled(Some(Access::Secrets(secrets))) => secrets,
    };
    // The same credentials under another Secret (another namespace, another name) are as good:
    // the registry would let them pull it.
    !pod.is_some_and(|p| secrets.iter().any(|s| s.content == p.content))
}

/// What making the image present takes, for a pull policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The copy on the node serves.
    UseLocal,
    /// Pull (with the pod's credentials).
    Pull,
    /// The pod may not pull and may not use what is there: ErrImageNeverPull.
    NeverPull,
}

/// The step for a pull policy, given whether the image is there and, when it is (and the
/// policy is not Always), whether the pod must pull it to use it (`must_pull`).
pub fn step(policy: PullPolicy, present: bool, must_pull: bool) -> Step {
    match (policy, present) {
        (PullPolicy::Always, _) | (PullPolicy::IfNotPresent, false) => Step::Pull,
        (PullPolicy::Never, false) => Step::NeverPull,
        (PullPolicy::IfNotPresent, true) if must_pull => Step::Pull,
        (PullPolicy::Never, true) if must_pull => Step::NeverPull,
        (PullPolicy::IfNotPresent | PullPolicy::Never, true) => Step::UseLocal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPO: &str = "reg.example:5000/priv";

    fn hashes(content: &str) -> SecretHashes {
        SecretHashes { coordinates: format!("coord-{content}"), content: content.to_owned() }
    }

    #[test]
    fn must_pull_follows_the_kubelet_table() {
        let a = hashes("A");
        let other_place_same_content = SecretHashes { coordinates: "coord-elsewhere".into(), content: "A".into() };
        let wrong = hashes("W");
        let by_a = Access::Secrets(vec![a.clone()]);
        let anyone = Access::Anyone;
        let allow = Policy::allowlisted(&["reg.example:5000/*".to_owned()]).unwrap();
        let allow_other = Policy::allowlisted(&["other.example/priv".to_owned()]).unwrap();
        let preloaded = Policy::NeverVerifyPreloadedImages;
        #[rustfmt::skip]
        let table: Vec<(&Policy, Known, Option<&SecretHashes>, bool, &str)> = vec![
            (&preloaded, Known::Preloaded, None, false, "preloaded: not verified by default"),
            (&Policy::AlwaysVerify, Known::Preloaded, None, true, "AlwaysVerify: even preloaded"),
            (&Policy::NeverVerify, Known::Pulled(Some(&by_a)), None, false, "NeverVerify: never"),
            (&preloaded, Known::Pulled(Some(&by_a)), Some(&a), false, "the Secret that pulled it"),
            (&preloaded, Known::Pulled(Some(&by_a)), Some(&other_place_same_content), false, "same credentials elsewhere"),
            (&preloaded, Known::Pulled(Some(&by_a)), None, true, "no Secret"),
            (&preloaded, Known::Pulled(Some(&by_a)), Some(&wrong), true, "other credentials"),
            (&preloaded, Known::Pulled(Some(&anyone)), None, false, "pulled anonymously: anyone's"),
            (&preloaded, Known::Pulled(None), None, false, "pulled under another name only: preloaded here"),
            (&Policy::AlwaysVerify, Known::Pulled(None), Some(&a), true, "AlwaysVerify: under another name too"),
            (&preloaded, Known::Pulling, Some(&a), true, "a pull that never ended"),
            (&allow, Known::Pulled(Some(&by_a)), None, false, "allowlisted"),
            (&allow_other, Known::Pulled(Some(&by_a)), None, true, "not allowlisted"),
            (&allow_other, Known::Preloaded, None, true, "not allowlisted, even preloaded"),
        ];
        for (policy, known, pod, want, case) in table {
            assert_eq!(must_pull(policy, REPO, known, pod), want, "{case}");
        }
    }

    #[test]
    fn the_step_of_each_pull_policy() {
        use PullPolicy::{Always, IfNotPresent, Never};
        #[rustfmt::skip]
        let table = [
            (Always, true, true, Step::Pull),
            (Always, false, false, Step::Pull),
            (IfNotPresent, false, false, Step::Pull),
            (IfNotPresent, true, false, Step::UseLocal),
            (IfNotPresent, true, true, Step::Pull),
            (Never, false, false, Step::NeverPull),
            (Never, true, false, Step::UseLocal),
            (Never, true, true, Step::NeverPull),
        ];
        for (policy, present, must_pull, want) in table {
            assert_eq!(step(policy, present, must_pull), want, "{policy:?} present={present} must_pull={must_pull}");
        }
    }
}
