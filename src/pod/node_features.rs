//! The node features a pod asks for that depend on its engine (user namespaces, image volumes,
//! a pod cgroup for pod-level limits, ...), checked against what the engine gives
//! (`Runtime::features`) before anything is created: a pod asking for one its engine lacks is
//! refused, naming the engine, its version and what would run it, as a kubelet whose runtime
//! lacks the feature fails the pod.

use crate::manifest::types::Pod;
use crate::runtime::{EngineFeatures, EngineInfo, Unsupported};

use super::settings;

/// What runs a pod with `supplementalGroupsPolicy: Strict`.
const STRICT_WOULD: &str = "give each container a runAsGroup (Docker and Podman then add none of the image's \
    /etc/group memberships), or run it through the CRI on a runtime that announces the supplemental groups \
    policy (containerd 2.0+, CRI-O 1.31+)";

/// Why the engine cannot hold the pod's containers to `supplementalGroupsPolicy: Strict`, in
/// the kubelet's words (its admission's SupplementalGroupsPolicyNotSupported) and the first
/// container it would fail for; None when it can, or the pod does not ask.
fn strict_groups(pod: &Pod, features: &EngineFeatures) -> Option<String> {
    let strict = pod.spec.security_context.as_ref().and_then(|s| s.supplemental_groups_policy.as_deref());
    if strict != Some("Strict") || features.supplemental_groups_policy {
        return None;
    }
    let not_here = "SupplementalGroupsPolicy=Strict is not supported in this node";
    if !features.strict_groups_with_group {
        return Some(not_here.to_owned());
    }
    let (path, _, _) = pod.spec.all_containers().find(|(_, c, _)| settings::run_as(pod, c).group.is_none())?;
    Some(format!("{not_here}: {path} has no runAsGroup, and the engine would add the image's /etc/group memberships"))
}

/// The first node feature `pod` asks for that the engine cannot give.
pub fn check(pod: &Pod, engine: &EngineInfo, features: &EngineFeatures) -> Result<(), Unsupported> {
    let spec = &pod.spec;
    let lacks = |feature: &str, would: &str| Err(Unsupported::new(engine, feature, would));
    if spec.host_users == Some(false) && !features.user_namespaces {
        return lacks(
            "a user namespace for the pod (hostUsers: false)",
            "run it on a rootful Podman, or through the CRI on a runtime that announces user namespaces (containerd 2.0+, CRI-O 1.30+)",
        );
    }
    if let Some(why) = strict_groups(pod, features) {
        return lacks(&format!("supplementalGroupsPolicy: Strict ({why})"), STRICT_WOULD);
    }
    if let Some(v) = spec.volumes.iter().find(|v| v.image.is_some()) {
        if !features.image_volumes {
            return lacks(
                &format!("an image volume ({})", crate::escape::escape(&v.name)),
                "run it on Podman, Docker 28.1+, or through the CRI on a runtime with image mounts (containerd 2.1+, CRI-O 1.31+)",
            );
        }
    }
    if spec.resources.as_ref().is_some_and(|r| !r.limits.is_empty()) && !features.pod_cgroup {
        return lacks(
            "pod-level limits (spec.resources.limits)",
            "run it with podrun as root on a rootful Docker or Podman on this host with the cgroupfs cgroup driver, or through the CRI",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::manifest::test_pod as pod;

    #[test]
    fn pod_level_limits_need_a_pod_cgroup() {
        let engine = EngineInfo { name: "Podman Engine".into(), version: "4.3.1".into(), api_version: "1.41".into() };
        let limited = pod("spec:\n  resources: {limits: {memory: 48Mi}}\n  containers: [{name: c, image: x}]\n");
        let refused = check(&limited, &engine, &EngineFeatures::NONE).unwrap_err().to_string();
        assert!(
            refused.starts_with(
                "pod-level limits (spec.resources.limits) is not supported by Podman Engine 4.3.1: run it"
            ),
            "{refused}"
        );
        let cgroup = EngineFeatures { pod_cgroup: true, ..EngineFeatures::NONE };
        assert_eq!(check(&limited, &engine, &cgroup), Ok(()));
        // Requests alone need no cgroup of the pod's.
        let requests = pod("spec:\n  resources: {requests: {cpu: 100m}}\n  containers: [{name: c, image: x}]\n");
        assert_eq!(check(&requests, &engine, &EngineFeatures::NONE), Ok(()));
    }
}
