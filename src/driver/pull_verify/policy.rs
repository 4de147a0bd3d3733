//! The kubelet's image pull credentials verification policies
//! (`imagePullCredentialsVerificationPolicy`, with `preloadedImagesVerificationAllowlist`), by
//! their names, and which images each one verifies.

use std::fmt;

use crate::manifest::image::Reference;

/// Which images a pod must be shown to be allowed before it uses the copy on the node.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Policy {
    /// None: any pod uses any image on the node (the kubelet before 1.33).
    NeverVerify,
    /// Those podrun pulled (the kubelet's default): images that were on the node before are
    /// anyone's.
    #[default]
    NeverVerifyPreloadedImages,
    /// All but the allowlisted: repository names (`registry.example/app`) or prefixes ending in
    /// `/*` (`registry.example/*`).
    NeverVerifyAllowlistedImages(Allowlist),
    /// Every image, preloaded or not.
    AlwaysVerify,
}

/// The allowlist of `NeverVerifyAllowlistedImages`, as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Allowlist {
    names: Vec<String>,
    prefixes: Vec<String>,
}

/// A policy name or allowlist entry the kubelet would refuse. The message names the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error(
        "unknown image pull credentials verification policy {0:?}: use NeverVerify, \
         NeverVerifyPreloadedImages, NeverVerifyAllowlistedImages or AlwaysVerify"
    )]
    Unknown(String),
    #[error("preloaded images verification allowlist entry {0:?}: {1}")]
    Entry(String, &'static str),
    #[error("--preloaded-images-verification-allowlist is used only with the policy NeverVerifyAllowlistedImages")]
    AllowlistUnused,
}

/// At most this many allowlist entries: each image is matched against all of them.
const MAX_ENTRIES: usize = 256;

impl Policy {
    /// The policy of `name` (the kubelet's words), with `allowlist` for
    /// NeverVerifyAllowlistedImages (and only for it, as the kubelet's validation says).
    pub fn named(name: &str, allowlist: &[String]) -> Result<Policy, PolicyError> {
        let policy = match name {
            "NeverVerify" => Policy::NeverVerify,
            "NeverVerifyPreloadedImages" => Policy::NeverVerifyPreloadedImages,
            "NeverVerifyAllowlistedImages" => return Policy::allowlisted(allowlist),
            "AlwaysVerify" => Policy::AlwaysVerify,
            other => return Err(PolicyError::Unknown(other.to_owned())),
        };
        if allowlist.is_empty() {
            Ok(policy)
        } else {
            Err(PolicyError::AllowlistUnused)
        }
    }

    /// NeverVerifyAllowlistedImages with `entries`, checked as the kubelet checks them.
    pub fn allowlisted(entries: &[String]) -> Result<Policy, PolicyError> {
        let mut list = Allowlist::default();
        if entries.len() > MAX_ENTRIES {
            return Err(PolicyError::Entry(format!("{} entries", entries.len()), "at most 256 are allowed"));
        }
        for e in entries {
            let bad = |why| Err(PolicyError::Entry(e.clone(), why));
            if e.trim() != e {
                return bad("leading or trailing spaces are not allowed");
            }
            if let Some(prefix) = e.strip_suffix("/*") {
                if prefix.is_empty() {
                    return bad("at least a registry host name is required");
                }
                if prefix.contains('*') {
                    return bad("only patterns ending with '/*' may hold a '*'");
                }
                list.prefixes.push(format!("{prefix}/"));
                continue;
            }
            if e.is_empty() || e.contains('*') {
                return bad("not a repository name, nor a pattern ending with '/*'");
            }
            let r = Reference::parse(e);
            if r.tag.is_some() || r.digest.is_some() || format!("{}/{}", r.domain, r.repository) != *e {
                return bad("a full repository name without tag or digest is needed (docker.io/library/busybox)");
            }
            list.names.push(e.clone());
        }
        Ok(Policy::NeverVerifyAllowlistedImages(list))
    }

    /// Whether the pods using an image of `repository` (its full name, `docker.io/library/x`)
    /// must be verified; `pulled_by_podrun`: the record knows of a pull of it.
    pub fn requires_verification(&self, repository: &str, pulled_by_podrun: bool) -> bool {
        match self {
            Policy::NeverVerify => false,
            Policy::NeverVerifyPreloadedImages => pulled_by_podrun,
            Policy::NeverVerifyAllowlistedImages(list) => !list.matches(repository),
            Policy::AlwaysVerify => true,
        }
    }
}

impl Allowlist {
    fn matches(&self, repository: &str) -> bool {
        self.names.iter().any(|n| n == repository) || self.prefixes.iter().any(|p| repository.starts_with(p.as_str()))
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::NeverVerify => "NeverVerify",
            Policy::NeverVerifyPreloadedImages => "NeverVerifyPreloadedImages",
            Policy::NeverVerifyAllowlistedImages(_) => "NeverVerifyAllowlistedImages",
            Policy::AlwaysVerify => "AlwaysVerify",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: &[&str]) -> Result<Policy, PolicyError> {
        Policy::allowlisted(&entries.iter().map(|&e| e.to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn names_are_the_kubelets_and_the_allowlist_goes_with_its_policy_only() {
        for name in ["NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages", "AlwaysVerify"] {
            assert_eq!(Policy::named(name, &[]).unwrap().to_string(), name);
        }
        assert!(matches!(Policy::named("neververify", &[]), Err(PolicyError::Unknown(_))));
        let entries = ["docker.io/library/busybox".to_owned()];
        assert_eq!(Policy::named("AlwaysVerify", &entries), Err(PolicyError::AllowlistUnused));
        assert!(Policy::named("NeverVerifyAllowlistedImages", &entries).is_ok());
    }

    #[test]
    fn allowlist_entries_are_checked_and_matched_as_the_kubelet_does() {
        for bad in [" a.io/x", "*", "/*", "a.io/*/x/*", "a.io/x*", "a.io/x:1", "busybox", "a.io/x@sha256:00"] {
            assert!(list(&[bad]).is_err(), "{bad:?} refused");
        }
        let p = list(&["registry.k8s.io/*", "docker.io/library/busybox"]).unwrap();
        assert!(!p.requires_verification("registry.k8s.io/pause", true));
        assert!(!p.requires_verification("docker.io/library/busybox", true));
        assert!(p.requires_verification("docker.io/library/busyboxes", false));
        assert!(p.requires_verification("registry.k8s.io.evil/pause", false));
    }
}
