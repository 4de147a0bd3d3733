//! The schema's field table: Kubernetes core/v1 and meta/v1, field by field, each marked with
//! how far podrun honours it.

// ---------------------------------------------------------------------------------------------
// The schema: Kubernetes core/v1 (k8s.io/api core/v1/types.go) and meta/v1 ObjectMeta, with the
// JSON names of the Go structs, mostly in their order; fields newer than v1.35 say so. To change
// what podrun supports, change the constructor on the field's line: implemented / not_yet /
// cluster_only.
// ---------------------------------------------------------------------------------------------

use super::field::{cluster_only, gated, implemented, not_yet, refused, Field, Shape};
use Shape::{Any, Map, Object, Objects, Scalar, Scalars};

pub(super) static POD: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("spec", Object(POD_SPEC)),
    // Server-populated; a dumped `kubectl get -o yaml` carries it.
    cluster_only("status", Any),
];

/// A workload's `spec.template`.
pub(super) static POD_TEMPLATE_SPEC: &[Field] =
    &[implemented("metadata", Object(OBJECT_META)), implemented("spec", Object(POD_SPEC))];

pub(super) static CONFIG_MAP: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("immutable", Scalar),
    implemented("data", Map),
    implemented("binaryData", Map),
];

pub(super) static SECRET: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("immutable", Scalar),
    implemented("data", Map),
    implemented("stringData", Map),
    implemented("type", Scalar),
];

pub(super) static OBJECT_META: &[Field] = &[
    implemented("name", Scalar),
    cluster_only("generateName", Scalar),
    implemented("namespace", Scalar),
    cluster_only("selfLink", Scalar),
    implemented("uid", Scalar),
    cluster_only("resourceVersion", Scalar),
    cluster_only("generation", Scalar),
    cluster_only("creationTimestamp", Scalar),
    cluster_only("deletionTimestamp", Scalar),
    cluster_only("deletionGracePeriodSeconds", Scalar),
    implemented("labels", Map),
    implemented("annotations", Map),
    cluster_only("ownerReferences", Objects(OWNER_REFERENCE)),
    cluster_only("finalizers", Scalars),
    cluster_only("managedFields", Objects(MANAGED_FIELDS_ENTRY)),
];

pub(super) static OWNER_REFERENCE: &[Field] = &[
    not_yet("apiVersion", Scalar),
    not_yet("kind", Scalar),
    not_yet("name", Scalar),
    not_yet("uid", Scalar),
    not_yet("controller", Scalar),
    not_yet("blockOwnerDeletion", Scalar),
];

pub(super) static MANAGED_FIELDS_ENTRY: &[Field] = &[
    not_yet("manager", Scalar),
    not_yet("operation", Scalar),
    not_yet("apiVersion", Scalar),
    not_yet("time", Scalar),
    not_yet("fieldsType", Scalar),
    not_yet("fieldsV1", Any),
    not_yet("subresource", Scalar),
];

pub(super) static POD_SPEC: &[Field] = &[
    implemented("volumes", Objects(VOLUME)),
    implemented("initContainers", Objects(CONTAINER)),
    implemented("containers", Objects(CONTAINER)),
    not_yet("ephemeralContainers", Objects(EPHEMERAL_CONTAINER)),
    implemented("restartPolicy", Scalar),
    implemented("terminationGracePeriodSeconds", Scalar),
    implemented("activeDeadlineSeconds", Scalar),
    implemented("dnsPolicy", Scalar),
    cluster_only("nodeSelector", Map),
    cluster_only("serviceAccountName", Scalar),
    cluster_only("serviceAccount", Scalar),
    cluster_only("automountServiceAccountToken", Scalar),
    cluster_only("nodeName", Scalar),
    implemented("hostNetwork", Scalar),
    implemented("hostPID", Scalar),
    implemented("hostIPC", Scalar),
    implemented("shareProcessNamespace", Scalar),
    implemented("securityContext", Object(POD_SECURITY_CONTEXT)),
    implemented("imagePullSecrets", Objects(PULL_SECRET_REFERENCE)),
    implemented("hostname", Scalar),
    implemented("subdomain", Scalar),
    cluster_only("affinity", Object(AFFINITY)),
    cluster_only("schedulerName", Scalar),
    cluster_only("tolerations", Objects(TOLERATION)),
    implemented("hostAliases", Objects(HOST_ALIAS)),
    cluster_only("priorityClassName", Scalar),
    cluster_only("priority", Scalar),
    implemented("dnsConfig", Object(POD_DNS_CONFIG)),
    cluster_only("readinessGates", Objects(POD_READINESS_GATE)),
    cluster_only("runtimeClassName", Scalar),
    cluster_only("enableServiceLinks", Scalar),
    cluster_only("preemptionPolicy", Scalar),
    cluster_only("overhead", Map),
    cluster_only("topologySpreadConstraints", Objects(TOPOLOGY_SPREAD_CONSTRAINT)),
    implemented("setHostnameAsFQDN", Scalar),
    implemented("os", Object(POD_OS)),
    // `false`: a user namespace of the pod's own, on the engines that give one.
    implemented("hostUsers", Scalar),
    implemented("schedulingGates", Objects(POD_SCHEDULING_GATE)),
    refused("resourceClaims", Objects(POD_RESOURCE_CLAIM)),
    // Pod-level resources: the pod's own cgroup (pod/resources.rs), where the engine can give one.
    implemented("resources", Object(RESOURCE_REQUIREMENTS)),
    implemented("hostnameOverride", Scalar),
    // Gang scheduling, alpha in v1.35 only (replaced by schedulingGroup in v1.36).
    cluster_only("workloadRef", Object(WORKLOAD_REFERENCE)),
    // v1.36+; its gate is beta and off in v1.37. Any: its shape is still changing.
    gated("schedulingGroup", Any, "GenericWorkload"),
    // v1.37+, alpha: responders to the Eviction API, a control-plane affair.
    cluster_only("evictionResponders", Objects(EVICTION_RESPONDER)),
];

/// Container and EphemeralContainer share every field; the latter adds some at the end.
macro_rules! container_fields {
    ($($extra:expr),* $(,)?) => {
        &[
            implemented("name", Scalar),
            implemented("image", Scalar),
            implemented("command", Scalars),
            implemented("args", Scalars),
            implemented("workingDir", Scalar),
            implemented("ports", Objects(CONTAINER_PORT)),
            implemented("envFrom", Objects(ENV_FROM_SOURCE)),
            implemented("env", Objects(ENV_VAR)),
            implemented("resources", Object(RESOURCE_REQUIREMENTS)),
            implemented("resizePolicy", Objects(CONTAINER_RESIZE_POLICY)),
            implemented("restartPolicy", Scalar),
            implemented("restartPolicyRules", Objects(CONTAINER_RESTART_RULE)),
            implemented("volumeMounts", Objects(VOLUME_MOUNT)),
            not_yet("volumeDevices", Objects(VOLUME_DEVICE)),
            implemented("livenessProbe", Object(PROBE)),
            implemented("readinessProbe", Object(PROBE)),
            implemented("startupProbe", Object(PROBE)),
            implemented("lifecycle", Object(LIFECYCLE)),
            implemented("terminationMessagePath", Scalar),
            implemented("terminationMessagePolicy", Scalar),
            implemented("imagePullPolicy", Scalar),
            implemented("securityContext", Object(SECURITY_CONTEXT)),
            implemented("stdin", Scalar),
            implemented("stdinOnce", Scalar),
            implemented("tty", Scalar),
            $($extra,)*
        ]
    };
}

pub(super) static CONTAINER: &[Field] = container_fields![];

pub(super) static EPHEMERAL_CONTAINER: &[Field] = container_fields![not_yet("targetContainerName", Scalar)];

pub(super) static CONTAINER_PORT: &[Field] = &[
    implemented("name", Scalar),
    implemented("hostPort", Scalar),
    implemented("containerPort", Scalar),
    implemented("protocol", Scalar),
    implemented("hostIP", Scalar),
];

pub(super) static ENV_FROM_SOURCE: &[Field] = &[
    implemented("prefix", Scalar),
    implemented("configMapRef", Object(OPTIONAL_LOCAL_OBJECT_REFERENCE)),
    implemented("secretRef", Object(OPTIONAL_LOCAL_OBJECT_REFERENCE)),
];

pub(super) static ENV_VAR: &[Field] =
    &[implemented("name", Scalar), implemented("value", Scalar), implemented("valueFrom", Object(ENV_VAR_SOURCE))];

pub(super) static ENV_VAR_SOURCE: &[Field] = &[
    implemented("fieldRef", Object(OBJECT_FIELD_SELECTOR)),
    implemented("resourceFieldRef", Object(RESOURCE_FIELD_SELECTOR)),
    implemented("configMapKeyRef", Object(KEY_SELECTOR)),
    implemented("secretKeyRef", Object(KEY_SELECTOR)),
    implemented("fileKeyRef", Object(FILE_KEY_SELECTOR)),
];

pub(super) static OBJECT_FIELD_SELECTOR: &[Field] =
    &[implemented("apiVersion", Scalar), implemented("fieldPath", Scalar)];

pub(super) static RESOURCE_FIELD_SELECTOR: &[Field] =
    &[implemented("containerName", Scalar), implemented("resource", Scalar), implemented("divisor", Scalar)];

/// ConfigMapKeySelector and SecretKeySelector.
pub(super) static KEY_SELECTOR: &[Field] =
    &[implemented("name", Scalar), implemented("key", Scalar), implemented("optional", Scalar)];

pub(super) static FILE_KEY_SELECTOR: &[Field] = &[
    implemented("volumeName", Scalar),
    implemented("path", Scalar),
    implemented("key", Scalar),
    implemented("optional", Scalar),
];

pub(super) static RESOURCE_REQUIREMENTS: &[Field] =
    &[implemented("limits", Map), implemented("requests", Map), refused("claims", Objects(RESOURCE_CLAIM))];

pub(super) static RESOURCE_CLAIM: &[Field] = &[not_yet("name", Scalar), not_yet("request", Scalar)];

pub(super) static CONTAINER_RESIZE_POLICY: &[Field] =
    &[not_yet("resourceName", Scalar), not_yet("restartPolicy", Scalar)];

pub(super) static CONTAINER_RESTART_RULE: &[Field] =
    &[implemented("action", Scalar), implemented("exitCodes", Object(CONTAINER_RESTART_RULE_ON_EXIT_CODES))];

pub(super) static CONTAINER_RESTART_RULE_ON_EXIT_CODES: &[Field] =
    &[implemented("operator", Scalar), implemented("values", Scalars)];

pub(super) static VOLUME_MOUNT: &[Field] = &[
    implemented("name", Scalar),
    implemented("readOnly", Scalar),
    // Validated (Enabled needs readOnly); whether the engine can honour it is the runtime's call.
    implemented("recursiveReadOnly", Scalar),
    implemented("mountPath", Scalar),
    implemented("subPath", Scalar),
    implemented("mountPropagation", Scalar),
    implemented("subPathExpr", Scalar),
    gated("bindMountOptions", Scalars, "VolumeBindMountOptions"),
];

pub(super) static VOLUME_DEVICE: &[Field] = &[not_yet("name", Scalar), not_yet("devicePath", Scalar)];

pub(super) static PROBE: &[Field] = &[
    // ProbeHandler, inlined.
    implemented("exec", Object(EXEC_ACTION)),
    implemented("httpGet", Object(HTTP_GET_ACTION)),
    implemented("tcpSocket", Object(TCP_SOCKET_ACTION)),
    // Loaded and checked, then refused by validation (podrun has no gRPC client yet): a
    // "not implemented yet" warning beside that error would only blur it.
    implemented("grpc", Object(GRPC_ACTION)),
    implemented("initialDelaySeconds", Scalar),
    implemented("timeoutSeconds", Scalar),
    implemented("periodSeconds", Scalar),
    implemented("successThreshold", Scalar),
    implemented("failureThreshold", Scalar),
    implemented("terminationGracePeriodSeconds", Scalar),
];

pub(super) static EXEC_ACTION: &[Field] = &[implemented("command", Scalars)];

// Shared with lifecycle handlers (HTTPGetAction and TCPSocketAction in both places).
pub(super) static HTTP_GET_ACTION: &[Field] = &[
    implemented("path", Scalar),
    implemented("port", Scalar),
    implemented("host", Scalar),
    implemented("scheme", Scalar),
    implemented("httpHeaders", Objects(HTTP_HEADER)),
    gated("protocol", Scalar, "H2CContainerProbe"),
];

pub(super) static HTTP_HEADER: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

pub(super) static TCP_SOCKET_ACTION: &[Field] = &[implemented("port", Scalar), implemented("host", Scalar)];

pub(super) static GRPC_ACTION: &[Field] =
    &[implemented("port", Scalar), implemented("service", Scalar), gated("mode", Scalar, "GRPCContainerProbeTLS")];

pub(super) static LIFECYCLE: &[Field] = &[
    implemented("postStart", Object(LIFECYCLE_HANDLER)),
    implemented("preStop", Object(LIFECYCLE_HANDLER)),
    gated("stopSignal", Scalar, "ContainerStopSignals"),
];

pub(super) static LIFECYCLE_HANDLER: &[Field] = &[
    implemented("exec", Object(EXEC_ACTION)),
    implemented("httpGet", Object(HTTP_GET_ACTION)),
    // Kept in the API for backward compatibility only: the kubelet fails such a hook when it
    // runs, so validation refuses it up front, naming the field.
    refused("tcpSocket", Object(TCP_SOCKET_ACTION)),
    implemented("sleep", Object(SLEEP_ACTION)),
];

pub(super) static SLEEP_ACTION: &[Field] = &[implemented("seconds", Scalar)];

pub(super) static SECURITY_CONTEXT: &[Field] = &[
    implemented("capabilities", Object(CAPABILITIES)),
    implemented("privileged", Scalar),
    not_yet("seLinuxOptions", Object(SE_LINUX_OPTIONS)),
    not_yet("windowsOptions", Object(WINDOWS_SECURITY_CONTEXT_OPTIONS)),
    implemented("runAsUser", Scalar),
    implemented("runAsGroup", Scalar),
    implemented("runAsNonRoot", Scalar),
    implemented("readOnlyRootFilesystem", Scalar),
    implemented("allowPrivilegeEscalation", Scalar),
    implemented("procMount", Scalar),
    implemented("seccompProfile", Object(SECCOMP_PROFILE)),
    implemented("appArmorProfile", Object(APP_ARMOR_PROFILE)),
];

pub(super) static CAPABILITIES: &[Field] = &[implemented("add", Scalars), implemented("drop", Scalars)];

pub(super) static SE_LINUX_OPTIONS: &[Field] =
    &[not_yet("user", Scalar), not_yet("role", Scalar), not_yet("type", Scalar), not_yet("level", Scalar)];

pub(super) static WINDOWS_SECURITY_CONTEXT_OPTIONS: &[Field] = &[
    not_yet("gmsaCredentialSpecName", Scalar),
    not_yet("gmsaCredentialSpec", Scalar),
    not_yet("runAsUserName", Scalar),
    not_yet("hostProcess", Scalar),
];

pub(super) static SECCOMP_PROFILE: &[Field] = &[implemented("type", Scalar), implemented("localhostProfile", Scalar)];

pub(super) static APP_ARMOR_PROFILE: &[Field] = &[implemented("type", Scalar), implemented("localhostProfile", Scalar)];

pub(super) static POD_SECURITY_CONTEXT: &[Field] = &[
    not_yet("seLinuxOptions", Object(SE_LINUX_OPTIONS)),
    not_yet("windowsOptions", Object(WINDOWS_SECURITY_CONTEXT_OPTIONS)),
    implemented("runAsUser", Scalar),
    implemented("runAsGroup", Scalar),
    implemented("runAsNonRoot", Scalar),
    implemented("supplementalGroups", Scalars),
    implemented("supplementalGroupsPolicy", Scalar),
    implemented("fsGroup", Scalar),
    implemented("sysctls", Objects(SYSCTL)),
    not_yet("fsGroupChangePolicy", Scalar),
    implemented("seccompProfile", Object(SECCOMP_PROFILE)),
    implemented("appArmorProfile", Object(APP_ARMOR_PROFILE)),
    not_yet("seLinuxChangePolicy", Scalar),
];

pub(super) static SYSCTL: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

pub(super) static LOCAL_OBJECT_REFERENCE: &[Field] = &[not_yet("name", Scalar)];

/// imagePullSecrets entries: implemented, unlike the other plain references (in-tree volume
/// plugins' secretRef), which sit below fields podrun does not implement.
pub(super) static PULL_SECRET_REFERENCE: &[Field] = &[implemented("name", Scalar)];

/// ConfigMapEnvSource and SecretEnvSource.
pub(super) static OPTIONAL_LOCAL_OBJECT_REFERENCE: &[Field] =
    &[implemented("name", Scalar), implemented("optional", Scalar)];

pub(super) static AFFINITY: &[Field] = &[
    not_yet("nodeAffinity", Object(NODE_AFFINITY)),
    not_yet("podAffinity", Object(POD_AFFINITY)),
    not_yet("podAntiAffinity", Object(POD_AFFINITY)),
];

pub(super) static NODE_AFFINITY: &[Field] = &[
    not_yet("requiredDuringSchedulingIgnoredDuringExecution", Object(NODE_SELECTOR)),
    not_yet("preferredDuringSchedulingIgnoredDuringExecution", Objects(PREFERRED_SCHEDULING_TERM)),
];

pub(super) static NODE_SELECTOR: &[Field] = &[not_yet("nodeSelectorTerms", Objects(NODE_SELECTOR_TERM))];

pub(super) static NODE_SELECTOR_TERM: &[Field] = &[
    not_yet("matchExpressions", Objects(SELECTOR_REQUIREMENT)),
    not_yet("matchFields", Objects(SELECTOR_REQUIREMENT)),
];

/// NodeSelectorRequirement and metav1.LabelSelectorRequirement.
pub(super) static SELECTOR_REQUIREMENT: &[Field] =
    &[not_yet("key", Scalar), not_yet("operator", Scalar), not_yet("values", Scalars)];

pub(super) static PREFERRED_SCHEDULING_TERM: &[Field] =
    &[not_yet("weight", Scalar), not_yet("preference", Object(NODE_SELECTOR_TERM))];

/// PodAffinity and PodAntiAffinity.
pub(super) static POD_AFFINITY: &[Field] = &[
    not_yet("requiredDuringSchedulingIgnoredDuringExecution", Objects(POD_AFFINITY_TERM)),
    not_yet("preferredDuringSchedulingIgnoredDuringExecution", Objects(WEIGHTED_POD_AFFINITY_TERM)),
];

pub(super) static WEIGHTED_POD_AFFINITY_TERM: &[Field] =
    &[not_yet("weight", Scalar), not_yet("podAffinityTerm", Object(POD_AFFINITY_TERM))];

pub(super) static POD_AFFINITY_TERM: &[Field] = &[
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("namespaces", Scalars),
    not_yet("topologyKey", Scalar),
    not_yet("namespaceSelector", Object(LABEL_SELECTOR)),
    not_yet("matchLabelKeys", Scalars),
    not_yet("mismatchLabelKeys", Scalars),
];

pub(super) static LABEL_SELECTOR: &[Field] =
    &[not_yet("matchLabels", Map), not_yet("matchExpressions", Objects(SELECTOR_REQUIREMENT))];

pub(super) static TOLERATION: &[Field] = &[
    not_yet("key", Scalar),
    not_yet("operator", Scalar),
    not_yet("value", Scalar),
    not_yet("effect", Scalar),
    not_yet("tolerationSeconds", Scalar),
];

pub(super) static HOST_ALIAS: &[Field] = &[implemented("ip", Scalar), implemented("hostnames", Scalars)];

pub(super) static POD_DNS_CONFIG: &[Field] = &[
    implemented("nameservers", Scalars),
    implemented("searches", Scalars),
    implemented("options", Objects(POD_DNS_CONFIG_OPTION)),
];

pub(super) static POD_DNS_CONFIG_OPTION: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

pub(super) static POD_READINESS_GATE: &[Field] = &[not_yet("conditionType", Scalar)];

pub(super) static TOPOLOGY_SPREAD_CONSTRAINT: &[Field] = &[
    not_yet("maxSkew", Scalar),
    not_yet("topologyKey", Scalar),
    not_yet("whenUnsatisfiable", Scalar),
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("minDomains", Scalar),
    not_yet("nodeAffinityPolicy", Scalar),
    not_yet("nodeTaintsPolicy", Scalar),
    not_yet("matchLabelKeys", Scalars),
];

pub(super) static POD_OS: &[Field] = &[implemented("name", Scalar)];

pub(super) static POD_SCHEDULING_GATE: &[Field] = &[implemented("name", Scalar)];

pub(super) static POD_RESOURCE_CLAIM: &[Field] =
    &[not_yet("name", Scalar), not_yet("resourceClaimName", Scalar), not_yet("resourceClaimTemplateName", Scalar)];

pub(super) static EVICTION_RESPONDER: &[Field] = &[not_yet("name", Scalar), not_yet("priority", Scalar)];

pub(super) static WORKLOAD_REFERENCE: &[Field] =
    &[not_yet("name", Scalar), not_yet("podGroup", Scalar), not_yet("podGroupReplicaKey", Scalar)];

// --- Volumes ---------------------------------------------------------------------------------
// The `defaultUser` / `user` fields are v1.37 alpha.
const USER_FIELDS: &str = "AtomicWriteVolumeUserFields";

pub(super) static VOLUME: &[Field] = &[
    implemented("name", Scalar),
    // VolumeSource, inlined.
    implemented("hostPath", Object(HOST_PATH_VOLUME_SOURCE)),
    implemented("emptyDir", Object(EMPTY_DIR_VOLUME_SOURCE)),
    refused("gcePersistentDisk", Object(GCE_PERSISTENT_DISK_VOLUME_SOURCE)),
    refused("awsElasticBlockStore", Object(AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE)),
    refused("gitRepo", Object(GIT_REPO_VOLUME_SOURCE)),
    implemented("secret", Object(SECRET_VOLUME_SOURCE)),
    refused("nfs", Object(NFS_VOLUME_SOURCE)),
    refused("iscsi", Object(ISCSI_VOLUME_SOURCE)),
    refused("glusterfs", Object(GLUSTERFS_VOLUME_SOURCE)),
    implemented("persistentVolumeClaim", Object(PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE)),
    refused("rbd", Object(RBD_VOLUME_SOURCE)),
    refused("flexVolume", Object(FLEX_VOLUME_SOURCE)),
    refused("cinder", Object(CINDER_VOLUME_SOURCE)),
    refused("cephfs", Object(CEPH_FS_VOLUME_SOURCE)),
    refused("flocker", Object(FLOCKER_VOLUME_SOURCE)),
    implemented("downwardAPI", Object(DOWNWARD_API_VOLUME_SOURCE)),
    refused("fc", Object(FC_VOLUME_SOURCE)),
    refused("azureFile", Object(AZURE_FILE_VOLUME_SOURCE)),
    implemented("configMap", Object(CONFIG_MAP_VOLUME_SOURCE)),
    refused("vsphereVolume", Object(VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE)),
    refused("quobyte", Object(QUOBYTE_VOLUME_SOURCE)),
    refused("azureDisk", Object(AZURE_DISK_VOLUME_SOURCE)),
    refused("photonPersistentDisk", Object(PHOTON_PERSISTENT_DISK_VOLUME_SOURCE)),
    implemented("projected", Object(PROJECTED_VOLUME_SOURCE)),
    refused("portworxVolume", Object(PORTWORX_VOLUME_SOURCE)),
    refused("scaleIO", Object(SCALE_IO_VOLUME_SOURCE)),
    refused("storageos", Object(STORAGE_OS_VOLUME_SOURCE)),
    refused("csi", Object(CSI_VOLUME_SOURCE)),
    refused("ephemeral", Object(EPHEMERAL_VOLUME_SOURCE)),
    implemented("image", Object(IMAGE_VOLUME_SOURCE)),
];

pub(super) static HOST_PATH_VOLUME_SOURCE: &[Field] = &[implemented("path", Scalar), implemented("type", Scalar)];

pub(super) static EMPTY_DIR_VOLUME_SOURCE: &[Field] =
    &[implemented("medium", Scalar), implemented("sizeLimit", Scalar), gated("mode", Scalar, "EmptyDirVolumeMode")];

pub(super) static GCE_PERSISTENT_DISK_VOLUME_SOURCE: &[Field] =
    &[not_yet("pdName", Scalar), not_yet("fsType", Scalar), not_yet("partition", Scalar), not_yet("readOnly", Scalar)];

pub(super) static AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeID", Scalar),
    not_yet("fsType", Scalar),
    not_yet("partition", Scalar),
    not_yet("readOnly", Scalar),
];

pub(super) static GIT_REPO_VOLUME_SOURCE: &[Field] =
    &[not_yet("repository", Scalar), not_yet("revision", Scalar), not_yet("directory", Scalar)];

pub(super) static SECRET_VOLUME_SOURCE: &[Field] = &[
    implemented("secretName", Scalar),
    implemented("items", Objects(KEY_TO_PATH)),
    implemented("defaultMode", Scalar),
    implemented("optional", Scalar),
    gated("defaultUser", Scalar, USER_FIELDS),
];

pub(super) static KEY_TO_PATH: &[Field] = &[
    implemented("key", Scalar),
    implemented("path", Scalar),
    implemented("mode", Scalar),
    gated("user", Scalar, USER_FIELDS),
];

pub(super) static NFS_VOLUME_SOURCE: &[Field] =
    &[not_yet("server", Scalar), not_yet("path", Scalar), not_yet("readOnly", Scalar)];

pub(super) static ISCSI_VOLUME_SOURCE: &[Field] = &[
    not_yet("targetPortal", Scalar),
    not_yet("iqn", Scalar),
    not_yet("lun", Scalar),
    not_yet("iscsiInterface", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("portals", Scalars),
    not_yet("chapAuthDiscovery", Scalar),
    not_yet("chapAuthSession", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("initiatorName", Scalar),
];

pub(super) static GLUSTERFS_VOLUME_SOURCE: &[Field] =
    &[not_yet("endpoints", Scalar), not_yet("path", Scalar), not_yet("readOnly", Scalar)];

pub(super) static PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE: &[Field] =
    &[implemented("claimName", Scalar), implemented("readOnly", Scalar)];

pub(super) static RBD_VOLUME_SOURCE: &[Field] = &[
    not_yet("monitors", Scalars),
    not_yet("image", Scalar),
    not_yet("fsType", Scalar),
    not_yet("pool", Scalar),
    not_yet("user", Scalar),
    not_yet("keyring", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
];

pub(super) static FLEX_VOLUME_SOURCE: &[Field] = &[
    not_yet("driver", Scalar),
    not_yet("fsType", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
    not_yet("options", Map),
];

pub(super) static CINDER_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeID", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

pub(super) static CEPH_FS_VOLUME_SOURCE: &[Field] = &[
    not_yet("monitors", Scalars),
    not_yet("path", Scalar),
    not_yet("user", Scalar),
    not_yet("secretFile", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
];

pub(super) static FLOCKER_VOLUME_SOURCE: &[Field] = &[not_yet("datasetName", Scalar), not_yet("datasetUUID", Scalar)];

pub(super) static DOWNWARD_API_VOLUME_SOURCE: &[Field] = &[
    implemented("items", Objects(DOWNWARD_API_VOLUME_FILE)),
    implemented("defaultMode", Scalar),
    gated("defaultUser", Scalar, USER_FIELDS),
];

pub(super) static DOWNWARD_API_VOLUME_FILE: &[Field] = &[
    implemented("path", Scalar),
    implemented("fieldRef", Object(OBJECT_FIELD_SELECTOR)),
    implemented("resourceFieldRef", Object(RESOURCE_FIELD_SELECTOR)),
    implemented("mode", Scalar),
    gated("user", Scalar, USER_FIELDS),
];

pub(super) static FC_VOLUME_SOURCE: &[Field] = &[
    not_yet("targetWWNs", Scalars),
    not_yet("lun", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("wwids", Scalars),
];

pub(super) static AZURE_FILE_VOLUME_SOURCE: &[Field] =
    &[not_yet("secretName", Scalar), not_yet("shareName", Scalar), not_yet("readOnly", Scalar)];

pub(super) static CONFIG_MAP_VOLUME_SOURCE: &[Field] = &[
    implemented("name", Scalar),
    implemented("items", Objects(KEY_TO_PATH)),
    implemented("defaultMode", Scalar),
    implemented("optional", Scalar),
    gated("defaultUser", Scalar, USER_FIELDS),
];

pub(super) static VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumePath", Scalar),
    not_yet("fsType", Scalar),
    not_yet("storagePolicyName", Scalar),
    not_yet("storagePolicyID", Scalar),
];

pub(super) static QUOBYTE_VOLUME_SOURCE: &[Field] = &[
    not_yet("registry", Scalar),
    not_yet("volume", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("user", Scalar),
    not_yet("group", Scalar),
    not_yet("tenant", Scalar),
];

pub(super) static AZURE_DISK_VOLUME_SOURCE: &[Field] = &[
    not_yet("diskName", Scalar),
    not_yet("diskURI", Scalar),
    not_yet("cachingMode", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("kind", Scalar),
];

pub(super) static PHOTON_PERSISTENT_DISK_VOLUME_SOURCE: &[Field] =
    &[not_yet("pdID", Scalar), not_yet("fsType", Scalar)];

pub(super) static PROJECTED_VOLUME_SOURCE: &[Field] = &[
    implemented("sources", Objects(VOLUME_PROJECTION)),
    implemented("defaultMode", Scalar),
    gated("defaultUser", Scalar, USER_FIELDS),
];

pub(super) static VOLUME_PROJECTION: &[Field] = &[
    implemented("secret", Object(SECRET_PROJECTION)),
    implemented("downwardAPI", Object(DOWNWARD_API_PROJECTION)),
    implemented("configMap", Object(CONFIG_MAP_PROJECTION)),
    // These need an API server or a signer.
    refused("serviceAccountToken", Object(SERVICE_ACCOUNT_TOKEN_PROJECTION)),
    refused("clusterTrustBundle", Object(CLUSTER_TRUST_BUNDLE_PROJECTION)),
    refused("podCertificate", Object(POD_CERTIFICATE_PROJECTION)),
];

/// SecretProjection and ConfigMapProjection.
pub(super) static SECRET_PROJECTION: &[Field] =
    &[implemented("name", Scalar), implemented("items", Objects(KEY_TO_PATH)), implemented("optional", Scalar)];

pub(super) static CONFIG_MAP_PROJECTION: &[Field] = SECRET_PROJECTION;

pub(super) static DOWNWARD_API_PROJECTION: &[Field] = &[implemented("items", Objects(DOWNWARD_API_VOLUME_FILE))];

pub(super) static SERVICE_ACCOUNT_TOKEN_PROJECTION: &[Field] = &[
    not_yet("audience", Scalar),
    not_yet("expirationSeconds", Scalar),
    not_yet("path", Scalar),
    gated("user", Scalar, USER_FIELDS),
];

pub(super) static CLUSTER_TRUST_BUNDLE_PROJECTION: &[Field] = &[
    not_yet("name", Scalar),
    not_yet("signerName", Scalar),
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("optional", Scalar),
    not_yet("path", Scalar),
    gated("user", Scalar, USER_FIELDS),
];

pub(super) static POD_CERTIFICATE_PROJECTION: &[Field] = &[
    not_yet("signerName", Scalar),
    not_yet("keyType", Scalar),
    not_yet("maxExpirationSeconds", Scalar),
    not_yet("credentialBundlePath", Scalar),
    not_yet("keyPath", Scalar),
    not_yet("certificateChainPath", Scalar),
    not_yet("userAnnotations", Map),
    gated("user", Scalar, USER_FIELDS),
];

pub(super) static PORTWORX_VOLUME_SOURCE: &[Field] =
    &[not_yet("volumeID", Scalar), not_yet("fsType", Scalar), not_yet("readOnly", Scalar)];

pub(super) static SCALE_IO_VOLUME_SOURCE: &[Field] = &[
    not_yet("gateway", Scalar),
    not_yet("system", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("sslEnabled", Scalar),
    not_yet("protectionDomain", Scalar),
    not_yet("storagePool", Scalar),
    not_yet("storageMode", Scalar),
    not_yet("volumeName", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
];

pub(super) static STORAGE_OS_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeName", Scalar),
    not_yet("volumeNamespace", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

pub(super) static CSI_VOLUME_SOURCE: &[Field] = &[
    not_yet("driver", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("fsType", Scalar),
    not_yet("volumeAttributes", Map),
    not_yet("nodePublishSecretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

pub(super) static EPHEMERAL_VOLUME_SOURCE: &[Field] =
    &[not_yet("volumeClaimTemplate", Object(PERSISTENT_VOLUME_CLAIM_TEMPLATE))];

pub(super) static PERSISTENT_VOLUME_CLAIM_TEMPLATE: &[Field] = &[
    not_yet("metadata", Object(OBJECT_META)),
    // A whole PersistentVolumeClaimSpec; storage is not podrun's business.
    not_yet("spec", Any),
];

pub(super) static IMAGE_VOLUME_SOURCE: &[Field] =
    &[implemented("reference", Scalar), implemented("pullPolicy", Scalar)];
