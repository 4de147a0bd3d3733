//! The node features a pod asks for that depend on its engine (user namespaces, image volumes,
//! a pod cgroup for pod-level limits, ...), checked against what the engine gives
//! (`Runtime::features`) before anything is created: a pod asking for one its engine lacks is
//! refused, naming the engine, its version and what would run it, as a kubelet whose runtime
//! lacks the feature fails the pod.

use crate::manifest::types::Pod;
use crate::runtime::{EngineFeatures, EngineInfo, Unsupported};

/// The first node feature `pod` asks for that the engine cannot give.
pub fn check(pod: &Pod, engine: &EngineInfo, features: &EngineFeatures) -> Result<(), Unsupported> {
    let spec = &pod.spec;
    let lacks = |feature: &str, would: &str| Err(Unsupported::new(engine, feature, would));
    if spec.host_users == Some(false) && !features.user_namespaces {
        return lacks(
            "a user namespace for the pod (hostUsers: false)",
            "run it on Podman, or through the CRI on a runtime that announces user namespaces (containerd 2.0+, CRI-O 1.30+)",
        );
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
