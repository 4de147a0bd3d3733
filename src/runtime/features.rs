//! What node features an engine can give a pod, as it announces them (the CRI's runtime and
//! runtime-handler features) or as its name and version imply (Docker, Podman). Asked once
//! before pods are prepared, so a pod asking for a feature its engine lacks is refused before
//! anything is made, naming the engine, its version and what would do it.

use super::EngineInfo;

/// The node features of Kubernetes that depend on the engine. Each is false unless the engine
/// is known to give it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineFeatures {
    /// `hostUsers: false`: a user namespace of its own for the pod (Podman's `userns=auto`; a
    /// CRI runtime handler announcing `user_namespaces`).
    pub user_namespaces: bool,
    /// `image` volumes: an OCI image mounted read-only (Podman's image mounts, Docker API 1.48+
    /// `type: image`, CRI runtimes that take a `Mount.image`).
    pub image_volumes: bool,
    /// `supplementalGroupsPolicy: Strict` (the CRI's `RuntimeFeatures.supplemental_groups_policy`).
    pub supplemental_groups_policy: bool,
    /// `supplementalGroupsPolicy: Strict` for a container with a runAsGroup: given `user:gid`,
    /// the engine adds none of the user's /etc/group memberships (Docker, Podman: their lookup
    /// of the image's /etc/group is only for a user given without a group).
    pub strict_groups_with_group: bool,
    /// Pod-level resources: the pod's containers under a cgroup of the pod's own with its limits.
    pub pod_cgroup: bool,
    /// In-place resize: a running container's resources changed without a restart (Docker's
    /// and Podman 5's container update, every CRI runtime's UpdateContainerResources).
    pub update_resources: bool,
    /// `recursiveReadOnly`: a read-only mount read-only all the way down, submounts included
    /// (Docker API 1.44+, a CRI runtime handler announcing `recursive_read_only_mounts`).
    pub recursive_read_only: bool,
}

impl EngineFeatures {
    /// An engine that gives none of them.
    pub const NONE: EngineFeatures = EngineFeatures {
        user_namespaces: false,
        image_volumes: false,
        supplemental_groups_policy: false,
        strict_groups_with_group: false,
        pod_cgroup: false,
        update_resources: false,
        recursive_read_only: false,
    };
}

/// A feature a pod asks for and its engine cannot give: the refusal's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{feature} is not supported by {engine} {version}: {would}")]
pub struct Unsupported {
    /// The feature, as the manifest asks for it (`hostUsers: false`).
    pub feature: String,
    pub engine: String,
    pub version: String,
    /// What engine would do it (`Podman, or containerd 2.0+ through the CRI`).
    pub would: String,
}

impl Unsupported {
    pub fn new(info: &EngineInfo, feature: impl Into<String>, would: impl Into<String>) -> Unsupported {
        Unsupported {
            feature: feature.into(),
            engine: crate::escape::escape(&info.name).into_owned(),
            version: crate::escape::escape(&info.version).into_owned(),
            would: would.into(),
        }
    }
}
