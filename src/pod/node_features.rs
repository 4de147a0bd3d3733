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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};

    fn pod(yaml: &str) -> Pod {
        let source = Source::from_text("t.yaml", &format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\n{yaml}"));
        load(&source, &LoadOptions::default()).unwrap().pods.remove(0).pod
    }

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
