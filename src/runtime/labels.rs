//! The labels podrun puts on every container. Labels, not names, are the source of truth for
//! what belongs to which pod; none of them is read by a kubelet, so a kubelet using
//! cri-dockerd on the same host never adopts podrun's containers.

/// Kubernetes' own keys, so tools that know them (and people) can read podrun's containers.
pub const POD_NAME: &str = "io.kubernetes.pod.name";
pub const POD_NAMESPACE: &str = "io.kubernetes.pod.namespace";
pub const POD_UID: &str = "io.kubernetes.pod.uid";
pub const CONTAINER_NAME: &str = "io.kubernetes.container.name";

/// Marks podrun's containers and volumes, for the engine's label filter. It proves nothing (an
/// image can carry it): podrun acts only on what also carries a valid [`SEAL`].
pub const MANAGED: &str = "io.podrun.managed";
pub const MANAGED_VALUE: &str = "true";
/// The stable hash of the container's spec; a change means the container is recreated.
pub const SPEC_HASH: &str = "io.podrun.spec-hash";
/// `infra` or `app`.
pub const ROLE: &str = "io.podrun.role";
/// 0 for the first instance, +1 for each replacement: the container's restart count.
pub const ATTEMPT: &str = "io.podrun.attempt";
/// Grace period in seconds, so `podrun delete POD` can stop a pod without its manifest.
pub const GRACE_PERIOD: &str = "io.podrun.grace-period";

/// The container's preStop hook (JSON), so it runs on stop even without the manifest.
pub const PRE_STOP: &str = "io.podrun.pre-stop";

/// On a sidecar (a restartable init container), its index among the pod's init containers:
/// sidecars stop last, in reverse order (`driver::termination`), also without the manifest.
pub const SIDECAR: &str = "io.podrun.sidecar";

/// `HOST_ID:SIZE`: the ids of the pod's user namespace (`hostUsers: false`), on its infra
/// container, so a later podrun puts a container it adds into the same mapping (a CRI runtime
/// takes the mapping with each container).
pub const USER_NAMESPACE: &str = "io.podrun.user-namespace";

/// podrun's MAC over the engine name and the [`SEALED`] labels (see `runtime::seal`).
pub const SEAL: &str = "io.podrun.seal";

/// The labels the seal covers: every one podrun decides by (what to stop and remove, where its
/// files are, which hook to run). podrun sets each on everything it creates, empty when it has
/// no value, so an image's label of the same key never shows through.
pub const SEALED: &[&str] = &[
    MANAGED,
    POD_NAME,
    POD_NAMESPACE,
    POD_UID,
    CONTAINER_NAME,
    SPEC_HASH,
    ROLE,
    ATTEMPT,
    GRACE_PERIOD,
    PRE_STOP,
    SIDECAR,
    DEFAULT_CONTAINER,
    SOURCE,
];

/// The Kubernetes container name of the infra container, as the kubelet names its sandbox.
pub const INFRA_CONTAINER_NAME: &str = "POD";

/// The pod's own `metadata.labels`, on its infra container, each key behind this prefix, so
/// `podrun delete -l` can select pods by them. Not part of any spec hash.
pub const POD_LABEL_PREFIX: &str = "io.podrun.pod-label.";

/// The container `podrun exec` (and `logs`) use when none is named, on the infra container: the
/// one the pod's `kubectl.kubernetes.io/default-container` annotation names, else the first app
/// container, as kubectl chooses. Not part of any spec hash.
pub const DEFAULT_CONTAINER: &str = "io.podrun.default-container";

/// Where the pod's manifest came from, on its infra container: the canonical path of the
/// directory (or file) `apply` was given. `apply --prune` deletes only pods whose source is
/// its own, as a kubelet's file source deletes only pods it read from its files; the value is
/// compared, never used as a path. Not part of any spec hash.
pub const SOURCE: &str = "io.podrun.source";

/// The node's addresses `apply --node-ip` named when the pod was made (comma-separated, the
/// primary first), on its infra container: the pod's `hostIPs` for `get`, which has no
/// `--node-ip`. Only reported, and not part of any spec hash.
pub const HOST_IPS: &str = "io.podrun.host-ips";

/// The pod's QoS class, on its infra container, for `get`, which has no manifest. Only
/// reported (an unsealed label decides nothing), and not part of any spec hash.
pub const QOS_CLASS: &str = "io.podrun.qos-class";
/// The CPU and memory a container was created with (`ContainerSettings::resources_text`):
/// what an in-place resize is measured against where the engine does not report them.
pub const RESOURCES: &str = "io.podrun.resources";
/// The CPU and memory the engine reports a container has now, in the same form: set by the
/// engine layer on what it lists (never a label on the container), so a container resized in
/// place, whose labels cannot change, is not resized again.
pub const RESOURCES_NOW: &str = "io.podrun.resources-now";

/// The annotation kubectl reads to choose a pod's default container.
pub const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";
