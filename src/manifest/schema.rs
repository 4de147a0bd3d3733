//! The Kubernetes core/v1 Pod schema, as podrun sees it.
//!
//! A user's manifest is parsed into a loose [`serde_yaml::Value`], so nothing stops a typo such
//! as `comand` or `imagePullpolicy` from being silently dropped. This module walks that value
//! against a static copy of the Pod schema (Kubernetes v1.35, plus the fields added up to v1.37,
//! since manifests copied from current documentation already use them) and reports, in
//! document order:
//!
//! - keys that are not Pod fields at all ([`Finding::Unknown`], with a "did you mean"),
//! - values of the wrong kind, e.g. a string where a list is required ([`Finding::WrongShape`]),
//! - fields Kubernetes knows but podrun does not implement yet ([`Finding::NotYet`]),
//! - fields that only mean something on a cluster, which podrun ignores
//!   ([`Finding::ClusterOnly`]);
//! - and, added by [`add_invalid`], values the API server refuses in the fields podrun keeps no
//!   type for ([`Finding::Invalid`], found by `validate::validate_unread`).
//!
//! Fields podrun implements produce nothing, and neither do fields it refuses
//! ([`Support::Refused`]): validation refuses those with a message naming the feature, and a
//! "not implemented yet" warning beside that error would only blur it. Whether a field is
//! implemented is recorded once, next to the field's name in the tables at the bottom of this
//! file. The same walk checks ConfigMap and Secret documents and the pod templates of
//! workloads (Deployments and the like).

use serde_yaml::Value;

use super::trail::{self, key_text, untagged, Step, Trail};
use super::validate::FieldError;

/// How far podrun honours a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// podrun acts on the field.
    Implemented,
    /// Kubernetes has the field; podrun does not act on it yet.
    NotYet,
    /// The field only matters to a cluster (scheduler, API server, service accounts);
    /// podrun accepts it and ignores it.
    ClusterOnly,
    /// podrun cannot provide the feature on one host and refuses a manifest that asks for it.
    /// The refusal is validation's (`validate/refused.rs`), which knows the feature and says
    /// why; the walk reports nothing for the field or below it except typos and wrong shapes.
    /// A field whose harmless value podrun does honour (`hostUsers: true`) is marked so too:
    /// only validation sees values.
    Refused,
}

/// One finding of the walk. `path` uses Kubernetes field-path syntax: `spec.containers[1].comand`,
/// `metadata.labels` (map keys of free-form maps are never checked), `spec.volumes[0].hostPath.type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The key is not a field of the Pod schema at this place. `suggestion` is the sibling
    /// field it most likely meant, if one is close enough; `trail` leads to the key from the
    /// value walked (the prefix of [`check_pod_template`] included), for `locate.rs` to place
    /// it in the text and `prune.rs` to drop it.
    Unknown { path: String, suggestion: Option<String>, trail: Trail },
    /// A Kubernetes field podrun does not implement yet.
    NotYet { path: String },
    /// A field that only makes sense on a cluster; podrun ignores it.
    ClusterOnly { path: String },
    /// The value has the wrong kind, e.g. a scalar where an object or a list is required.
    /// `expected` is "an object", "a map", "a list" or "a scalar".
    WrongShape { path: String, expected: &'static str },
    /// A value the API server refuses in a field podrun keeps no type for (cluster-only and
    /// not-yet-implemented fields, a workload's own fields, a claim's spec): see
    /// `validate::validate_unread`, which finds these on the same document.
    Invalid(FieldError),
}

/// Walk a whole Pod document (the root mapping with apiVersion, kind, metadata, spec, status).
pub fn check_pod(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(POD), "", false);
    walk.findings
}

/// Walk a PodSpec, paths prefixed with `prefix` (e.g. "spec.template.spec").
#[cfg(test)]
pub fn check_pod_spec(spec: &Value, prefix: &str) -> Vec<Finding> {
    let mut walk = Walk::at(prefix);
    walk.value(spec, Shape::Object(POD_SPEC), prefix, false);
    walk.findings
}

/// Walk a PodTemplateSpec (a workload's `spec.template`: metadata and a PodSpec), paths
/// prefixed with `prefix` (e.g. "spec.template").
pub fn check_pod_template(template: &Value, prefix: &str) -> Vec<Finding> {
    let mut walk = Walk::at(prefix);
    walk.value(template, Shape::Object(POD_TEMPLATE_SPEC), prefix, false);
    walk.findings
}

/// Walk a whole ConfigMap document.
pub fn check_config_map(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(CONFIG_MAP), "", false);
    walk.findings
}

/// Walk a whole Secret document. Findings name fields, never values.
pub fn check_secret(doc: &Value) -> Vec<Finding> {
    let mut walk = Walk::at("");
    walk.value(doc, Shape::Object(SECRET), "", false);
    walk.findings
}

/// Adds `problems` (from `validate::validate_unread`) to `findings` as [`Finding::Invalid`],
/// except those at a field the walk already found of the wrong shape (or above one): that
/// field's one error is its shape.
pub fn add_invalid(findings: &mut Vec<Finding>, problems: Vec<FieldError>) {
    let shapes: Vec<String> = findings
        .iter()
        .filter_map(|f| match f {
            Finding::WrongShape { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    let covers = |problem: &str, shape: &str| {
        shape.strip_prefix(problem).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    };
    findings.extend(problems.into_iter().filter(|p| !shapes.iter().any(|s| covers(&p.path, s))).map(Finding::Invalid));
}

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

/// What a value must look like.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// A string, number or boolean (Kubernetes quantities and int-or-string included).
    Scalar,
    /// A list of scalars.
    Scalars,
    /// A free-form string map (labels, resource lists): keys are the user's, never checked.
    Map,
    /// Not checked below this point.
    Any,
    /// A mapping with exactly these fields.
    Object(&'static [Field]),
    /// A list of such mappings.
    Objects(&'static [Field]),
}

#[derive(Debug)]
struct Field {
    name: &'static str,
    shape: Shape,
    support: Support,
}

struct Walk {
    findings: Vec<Finding>,
    /// The steps to the value being walked.
    steps: Trail,
}

impl Walk {
    /// A walk of a value found at `prefix` (`spec.template`), or of a whole document.
    fn at(prefix: &str) -> Walk {
        Walk { findings: Vec::new(), steps: trail::of_prefix(prefix) }
    }

    /// Walks `value` one step further down.
    fn below(&mut self, step: Step, value: &Value, shape: Shape, path: &str, muted: bool) {
        self.steps.push(step);
        self.value(value, shape, path, muted);
        self.steps.pop();
    }

    /// `muted` is set below a field podrun does not implement: that field's own finding already
    /// covers its subtree, so only errors (typos, wrong shapes) are reported there.
    fn value(&mut self, value: &Value, shape: Shape, path: &str, muted: bool) {
        let value = untagged(value);
        match (shape, value) {
            // Kubernetes treats null as absent, whatever the field.
            (_, Value::Null) | (Shape::Any, _) => {}
            (Shape::Scalar, Value::Mapping(_) | Value::Sequence(_)) => self.wrong_shape(path, "a scalar"),
            (Shape::Scalar, _) => {}
            (Shape::Scalars, Value::Sequence(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.below(Step::Index(i), item, Shape::Scalar, &format!("{path}[{i}]"), muted);
                }
            }
            (Shape::Map, Value::Mapping(map)) => {
                for (key, item) in map {
                    let name = key_text(key);
                    let path = format!("{path}[{name}]");
                    self.below(Step::Key(name), item, Shape::Scalar, &path, muted);
                }
            }
            (Shape::Object(fields), Value::Mapping(map)) => self.object(map, fields, path, muted),
            (Shape::Objects(fields), Value::Sequence(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let item_path = format!("{path}[{i}]");
                    self.below(Step::Index(i), item, Shape::Object(fields), &item_path, muted);
                }
            }
            (Shape::Scalars | Shape::Objects(_), _) => self.wrong_shape(path, "a list"),
            (Shape::Map, _) => self.wrong_shape(path, "a map"),
            (Shape::Object(_), _) => self.wrong_shape(path, "an object"),
        }
    }

    fn object(&mut self, map: &serde_yaml::Mapping, fields: &[Field], path: &str, muted: bool) {
        for (key, value) in map {
            let key = untagged(key);
            let name = key_text(key);
            let child = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
            let field = match key {
                Value::String(s) => fields.iter().find(|f| f.name == s),
                _ => None,
            };
            let Some(field) = field else {
                let suggestion = match key {
                    Value::String(s) => suggest(s, fields),
                    _ => None,
                };
                let mut trail = self.steps.clone();
                trail.push(Step::Key(name));
                self.findings.push(Finding::Unknown { path: child, suggestion, trail });
                continue;
            };
            // An empty map or list asks for nothing, and `kubectl run -o yaml` emits
            // `resources: {}` and `status: {}`: warning about those would only be noise.
            if !muted && !asks_for_nothing(value) {
                match field.support {
                    Support::Implemented | Support::Refused => {}
                    Support::NotYet => self.findings.push(Finding::NotYet { path: child.clone() }),
                    Support::ClusterOnly => self.findings.push(Finding::ClusterOnly { path: child.clone() }),
                }
            }
            let muted = muted || field.support != Support::Implemented;
            self.below(Step::Key(name), value, field.shape, &child, muted);
        }
    }

    fn wrong_shape(&mut self, path: &str, expected: &'static str) {
        let path = if path.is_empty() { "<root>" } else { path };
        self.findings.push(Finding::WrongShape { path: path.to_string(), expected });
    }
}

fn asks_for_nothing(value: &Value) -> bool {
    match untagged(value) {
        Value::Null => true,
        Value::Mapping(map) => map.is_empty(),
        Value::Sequence(items) => items.is_empty(),
        _ => false,
    }
}

/// The sibling field `key` most likely meant. Only close matches count: a far-fetched
/// suggestion misleads more than none.
fn suggest(key: &str, fields: &[Field]) -> Option<String> {
    let limit = (key.chars().count() / 3).max(1);
    fields
        .iter()
        .map(|field| (edit_distance(key, field.name), field.name))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name.to_string())
}

/// Case-insensitive optimal-string-alignment distance (Levenshtein plus adjacent transpositions,
/// the most common typing slip: `contianers`).
fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(&a.to_lowercase(), &b.to_lowercase())
}

// ---------------------------------------------------------------------------------------------
// The schema: Kubernetes core/v1 (k8s.io/api core/v1/types.go) and meta/v1 ObjectMeta, with the
// JSON names of the Go structs, mostly in their order; fields newer than v1.35 say so. To change
// what podrun supports, change the constructor on the field's line: implemented / not_yet /
// cluster_only.
// ---------------------------------------------------------------------------------------------

const fn implemented(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::Implemented }
}

const fn not_yet(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::NotYet }
}

const fn cluster_only(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::ClusterOnly }
}

const fn refused(name: &'static str, shape: Shape) -> Field {
    Field { name, shape, support: Support::Refused }
}

use Shape::{Any, Map, Object, Objects, Scalar, Scalars};

static POD: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("spec", Object(POD_SPEC)),
    // Server-populated; a dumped `kubectl get -o yaml` carries it.
    cluster_only("status", Any),
];

/// A workload's `spec.template`.
static POD_TEMPLATE_SPEC: &[Field] =
    &[implemented("metadata", Object(OBJECT_META)), implemented("spec", Object(POD_SPEC))];

static CONFIG_MAP: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("immutable", Scalar),
    implemented("data", Map),
    implemented("binaryData", Map),
];

static SECRET: &[Field] = &[
    implemented("apiVersion", Scalar),
    implemented("kind", Scalar),
    implemented("metadata", Object(OBJECT_META)),
    implemented("immutable", Scalar),
    implemented("data", Map),
    implemented("stringData", Map),
    implemented("type", Scalar),
];

static OBJECT_META: &[Field] = &[
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

static OWNER_REFERENCE: &[Field] = &[
    not_yet("apiVersion", Scalar),
    not_yet("kind", Scalar),
    not_yet("name", Scalar),
    not_yet("uid", Scalar),
    not_yet("controller", Scalar),
    not_yet("blockOwnerDeletion", Scalar),
];

static MANAGED_FIELDS_ENTRY: &[Field] = &[
    not_yet("manager", Scalar),
    not_yet("operation", Scalar),
    not_yet("apiVersion", Scalar),
    not_yet("time", Scalar),
    not_yet("fieldsType", Scalar),
    not_yet("fieldsV1", Any),
    not_yet("subresource", Scalar),
];

static POD_SPEC: &[Field] = &[
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
    not_yet("setHostnameAsFQDN", Scalar),
    not_yet("os", Object(POD_OS)),
    // `true` (the default) is what podrun does; `false` is refused.
    refused("hostUsers", Scalar),
    cluster_only("schedulingGates", Objects(POD_SCHEDULING_GATE)),
    refused("resourceClaims", Objects(POD_RESOURCE_CLAIM)),
    // Pod-level limits need a pod cgroup, which podrun does not make yet: warned, not dropped
    // silently.
    not_yet("resources", Object(RESOURCE_REQUIREMENTS)),
    not_yet("hostnameOverride", Scalar),
    // Gang scheduling, alpha in v1.35 only (replaced by schedulingGroup in v1.36).
    cluster_only("workloadRef", Object(WORKLOAD_REFERENCE)),
    // v1.36+, alpha. Any: its shape is still changing (CompositePodGroup).
    cluster_only("schedulingGroup", Any),
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
            not_yet("resizePolicy", Objects(CONTAINER_RESIZE_POLICY)),
            implemented("restartPolicy", Scalar),
            refused("restartPolicyRules", Objects(CONTAINER_RESTART_RULE)),
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

static CONTAINER: &[Field] = container_fields![];

static EPHEMERAL_CONTAINER: &[Field] = container_fields![not_yet("targetContainerName", Scalar)];

static CONTAINER_PORT: &[Field] = &[
    implemented("name", Scalar),
    implemented("hostPort", Scalar),
    implemented("containerPort", Scalar),
    implemented("protocol", Scalar),
    implemented("hostIP", Scalar),
];

static ENV_FROM_SOURCE: &[Field] = &[
    implemented("prefix", Scalar),
    implemented("configMapRef", Object(OPTIONAL_LOCAL_OBJECT_REFERENCE)),
    implemented("secretRef", Object(OPTIONAL_LOCAL_OBJECT_REFERENCE)),
];

static ENV_VAR: &[Field] =
    &[implemented("name", Scalar), implemented("value", Scalar), implemented("valueFrom", Object(ENV_VAR_SOURCE))];

static ENV_VAR_SOURCE: &[Field] = &[
    implemented("fieldRef", Object(OBJECT_FIELD_SELECTOR)),
    implemented("resourceFieldRef", Object(RESOURCE_FIELD_SELECTOR)),
    implemented("configMapKeyRef", Object(KEY_SELECTOR)),
    implemented("secretKeyRef", Object(KEY_SELECTOR)),
    not_yet("fileKeyRef", Object(FILE_KEY_SELECTOR)),
];

static OBJECT_FIELD_SELECTOR: &[Field] = &[implemented("apiVersion", Scalar), implemented("fieldPath", Scalar)];

static RESOURCE_FIELD_SELECTOR: &[Field] =
    &[implemented("containerName", Scalar), implemented("resource", Scalar), implemented("divisor", Scalar)];

/// ConfigMapKeySelector and SecretKeySelector.
static KEY_SELECTOR: &[Field] =
    &[implemented("name", Scalar), implemented("key", Scalar), implemented("optional", Scalar)];

static FILE_KEY_SELECTOR: &[Field] =
    &[not_yet("volumeName", Scalar), not_yet("path", Scalar), not_yet("key", Scalar), not_yet("optional", Scalar)];

static RESOURCE_REQUIREMENTS: &[Field] =
    &[implemented("limits", Map), implemented("requests", Map), refused("claims", Objects(RESOURCE_CLAIM))];

static RESOURCE_CLAIM: &[Field] = &[not_yet("name", Scalar), not_yet("request", Scalar)];

static CONTAINER_RESIZE_POLICY: &[Field] = &[not_yet("resourceName", Scalar), not_yet("restartPolicy", Scalar)];

static CONTAINER_RESTART_RULE: &[Field] = &[
    not_yet("action", Scalar),
    not_yet("exitCodes", Object(CONTAINER_RESTART_RULE_ON_EXIT_CODES)),
    // Not an API field: the API server rejects it. The Kubernetes documentation's
    // restart-all-containers.yaml example shipped with `onExit: {exitCodes: ...}` (fixed by
    // kubernetes/website#54001), so copies of it are in the wild. Tolerated while podrun
    // refuses restartPolicyRules anyway (the refusal is the clearer message); make it an error
    // when podrun implements them.
    not_yet("onExit", Object(CONTAINER_RESTART_RULE_ON_EXIT)),
];

static CONTAINER_RESTART_RULE_ON_EXIT: &[Field] = &[not_yet("exitCodes", Object(CONTAINER_RESTART_RULE_ON_EXIT_CODES))];

static CONTAINER_RESTART_RULE_ON_EXIT_CODES: &[Field] = &[not_yet("operator", Scalar), not_yet("values", Scalars)];

static VOLUME_MOUNT: &[Field] = &[
    implemented("name", Scalar),
    implemented("readOnly", Scalar),
    // Validated (Enabled needs readOnly); whether the engine can honour it is the runtime's call.
    implemented("recursiveReadOnly", Scalar),
    implemented("mountPath", Scalar),
    implemented("subPath", Scalar),
    implemented("mountPropagation", Scalar),
    implemented("subPathExpr", Scalar),
    not_yet("bindMountOptions", Scalars),
];

static VOLUME_DEVICE: &[Field] = &[not_yet("name", Scalar), not_yet("devicePath", Scalar)];

static PROBE: &[Field] = &[
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

static EXEC_ACTION: &[Field] = &[implemented("command", Scalars)];

// Shared with lifecycle handlers (HTTPGetAction and TCPSocketAction in both places).
static HTTP_GET_ACTION: &[Field] = &[
    implemented("path", Scalar),
    implemented("port", Scalar),
    implemented("host", Scalar),
    implemented("scheme", Scalar),
    implemented("httpHeaders", Objects(HTTP_HEADER)),
    // v1.36+ alpha (HTTP2): podrun speaks HTTP/1.1 only.
    not_yet("protocol", Scalar),
];

static HTTP_HEADER: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

static TCP_SOCKET_ACTION: &[Field] = &[implemented("port", Scalar), implemented("host", Scalar)];

// `mode` (v1.36+ alpha) is not modelled by the types.
static GRPC_ACTION: &[Field] = &[implemented("port", Scalar), implemented("service", Scalar), not_yet("mode", Scalar)];

static LIFECYCLE: &[Field] = &[
    implemented("postStart", Object(LIFECYCLE_HANDLER)),
    implemented("preStop", Object(LIFECYCLE_HANDLER)),
    not_yet("stopSignal", Scalar),
];

static LIFECYCLE_HANDLER: &[Field] = &[
    implemented("exec", Object(EXEC_ACTION)),
    implemented("httpGet", Object(HTTP_GET_ACTION)),
    // Kept in the API for backward compatibility only: the kubelet fails such a hook when it
    // runs, so validation refuses it up front, naming the field.
    refused("tcpSocket", Object(TCP_SOCKET_ACTION)),
    implemented("sleep", Object(SLEEP_ACTION)),
];

static SLEEP_ACTION: &[Field] = &[implemented("seconds", Scalar)];

static SECURITY_CONTEXT: &[Field] = &[
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

static CAPABILITIES: &[Field] = &[implemented("add", Scalars), implemented("drop", Scalars)];

static SE_LINUX_OPTIONS: &[Field] =
    &[not_yet("user", Scalar), not_yet("role", Scalar), not_yet("type", Scalar), not_yet("level", Scalar)];

static WINDOWS_SECURITY_CONTEXT_OPTIONS: &[Field] = &[
    not_yet("gmsaCredentialSpecName", Scalar),
    not_yet("gmsaCredentialSpec", Scalar),
    not_yet("runAsUserName", Scalar),
    not_yet("hostProcess", Scalar),
];

static SECCOMP_PROFILE: &[Field] = &[implemented("type", Scalar), implemented("localhostProfile", Scalar)];

static APP_ARMOR_PROFILE: &[Field] = &[implemented("type", Scalar), implemented("localhostProfile", Scalar)];

static POD_SECURITY_CONTEXT: &[Field] = &[
    not_yet("seLinuxOptions", Object(SE_LINUX_OPTIONS)),
    not_yet("windowsOptions", Object(WINDOWS_SECURITY_CONTEXT_OPTIONS)),
    implemented("runAsUser", Scalar),
    implemented("runAsGroup", Scalar),
    implemented("runAsNonRoot", Scalar),
    implemented("supplementalGroups", Scalars),
    not_yet("supplementalGroupsPolicy", Scalar),
    implemented("fsGroup", Scalar),
    implemented("sysctls", Objects(SYSCTL)),
    not_yet("fsGroupChangePolicy", Scalar),
    implemented("seccompProfile", Object(SECCOMP_PROFILE)),
    implemented("appArmorProfile", Object(APP_ARMOR_PROFILE)),
    not_yet("seLinuxChangePolicy", Scalar),
];

static SYSCTL: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

static LOCAL_OBJECT_REFERENCE: &[Field] = &[not_yet("name", Scalar)];

/// imagePullSecrets entries: implemented, unlike the other plain references (in-tree volume
/// plugins' secretRef), which sit below fields podrun does not implement.
static PULL_SECRET_REFERENCE: &[Field] = &[implemented("name", Scalar)];

/// ConfigMapEnvSource and SecretEnvSource.
static OPTIONAL_LOCAL_OBJECT_REFERENCE: &[Field] = &[implemented("name", Scalar), implemented("optional", Scalar)];

static AFFINITY: &[Field] = &[
    not_yet("nodeAffinity", Object(NODE_AFFINITY)),
    not_yet("podAffinity", Object(POD_AFFINITY)),
    not_yet("podAntiAffinity", Object(POD_AFFINITY)),
];

static NODE_AFFINITY: &[Field] = &[
    not_yet("requiredDuringSchedulingIgnoredDuringExecution", Object(NODE_SELECTOR)),
    not_yet("preferredDuringSchedulingIgnoredDuringExecution", Objects(PREFERRED_SCHEDULING_TERM)),
];

static NODE_SELECTOR: &[Field] = &[not_yet("nodeSelectorTerms", Objects(NODE_SELECTOR_TERM))];

static NODE_SELECTOR_TERM: &[Field] = &[
    not_yet("matchExpressions", Objects(SELECTOR_REQUIREMENT)),
    not_yet("matchFields", Objects(SELECTOR_REQUIREMENT)),
];

/// NodeSelectorRequirement and metav1.LabelSelectorRequirement.
static SELECTOR_REQUIREMENT: &[Field] =
    &[not_yet("key", Scalar), not_yet("operator", Scalar), not_yet("values", Scalars)];

static PREFERRED_SCHEDULING_TERM: &[Field] =
    &[not_yet("weight", Scalar), not_yet("preference", Object(NODE_SELECTOR_TERM))];

/// PodAffinity and PodAntiAffinity.
static POD_AFFINITY: &[Field] = &[
    not_yet("requiredDuringSchedulingIgnoredDuringExecution", Objects(POD_AFFINITY_TERM)),
    not_yet("preferredDuringSchedulingIgnoredDuringExecution", Objects(WEIGHTED_POD_AFFINITY_TERM)),
];

static WEIGHTED_POD_AFFINITY_TERM: &[Field] =
    &[not_yet("weight", Scalar), not_yet("podAffinityTerm", Object(POD_AFFINITY_TERM))];

static POD_AFFINITY_TERM: &[Field] = &[
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("namespaces", Scalars),
    not_yet("topologyKey", Scalar),
    not_yet("namespaceSelector", Object(LABEL_SELECTOR)),
    not_yet("matchLabelKeys", Scalars),
    not_yet("mismatchLabelKeys", Scalars),
];

static LABEL_SELECTOR: &[Field] =
    &[not_yet("matchLabels", Map), not_yet("matchExpressions", Objects(SELECTOR_REQUIREMENT))];

static TOLERATION: &[Field] = &[
    not_yet("key", Scalar),
    not_yet("operator", Scalar),
    not_yet("value", Scalar),
    not_yet("effect", Scalar),
    not_yet("tolerationSeconds", Scalar),
];

static HOST_ALIAS: &[Field] = &[implemented("ip", Scalar), implemented("hostnames", Scalars)];

static POD_DNS_CONFIG: &[Field] = &[
    implemented("nameservers", Scalars),
    implemented("searches", Scalars),
    implemented("options", Objects(POD_DNS_CONFIG_OPTION)),
];

static POD_DNS_CONFIG_OPTION: &[Field] = &[implemented("name", Scalar), implemented("value", Scalar)];

static POD_READINESS_GATE: &[Field] = &[not_yet("conditionType", Scalar)];

static TOPOLOGY_SPREAD_CONSTRAINT: &[Field] = &[
    not_yet("maxSkew", Scalar),
    not_yet("topologyKey", Scalar),
    not_yet("whenUnsatisfiable", Scalar),
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("minDomains", Scalar),
    not_yet("nodeAffinityPolicy", Scalar),
    not_yet("nodeTaintsPolicy", Scalar),
    not_yet("matchLabelKeys", Scalars),
];

static POD_OS: &[Field] = &[not_yet("name", Scalar)];

static POD_SCHEDULING_GATE: &[Field] = &[not_yet("name", Scalar)];

static POD_RESOURCE_CLAIM: &[Field] =
    &[not_yet("name", Scalar), not_yet("resourceClaimName", Scalar), not_yet("resourceClaimTemplateName", Scalar)];

static EVICTION_RESPONDER: &[Field] = &[not_yet("name", Scalar), not_yet("priority", Scalar)];

static WORKLOAD_REFERENCE: &[Field] =
    &[not_yet("name", Scalar), not_yet("podGroup", Scalar), not_yet("podGroupReplicaKey", Scalar)];

// --- Volumes ---------------------------------------------------------------------------------
// The `defaultUser` / `user` fields are v1.37 alpha (AtomicWriteVolumeUserFields).

static VOLUME: &[Field] = &[
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
    refused("image", Object(IMAGE_VOLUME_SOURCE)),
];

static HOST_PATH_VOLUME_SOURCE: &[Field] = &[implemented("path", Scalar), implemented("type", Scalar)];

static EMPTY_DIR_VOLUME_SOURCE: &[Field] =
    &[implemented("medium", Scalar), implemented("sizeLimit", Scalar), not_yet("mode", Scalar)];

static GCE_PERSISTENT_DISK_VOLUME_SOURCE: &[Field] =
    &[not_yet("pdName", Scalar), not_yet("fsType", Scalar), not_yet("partition", Scalar), not_yet("readOnly", Scalar)];

static AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeID", Scalar),
    not_yet("fsType", Scalar),
    not_yet("partition", Scalar),
    not_yet("readOnly", Scalar),
];

static GIT_REPO_VOLUME_SOURCE: &[Field] =
    &[not_yet("repository", Scalar), not_yet("revision", Scalar), not_yet("directory", Scalar)];

static SECRET_VOLUME_SOURCE: &[Field] = &[
    implemented("secretName", Scalar),
    implemented("items", Objects(KEY_TO_PATH)),
    implemented("defaultMode", Scalar),
    implemented("optional", Scalar),
    not_yet("defaultUser", Scalar),
];

static KEY_TO_PATH: &[Field] =
    &[implemented("key", Scalar), implemented("path", Scalar), implemented("mode", Scalar), not_yet("user", Scalar)];

static NFS_VOLUME_SOURCE: &[Field] = &[not_yet("server", Scalar), not_yet("path", Scalar), not_yet("readOnly", Scalar)];

static ISCSI_VOLUME_SOURCE: &[Field] = &[
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

static GLUSTERFS_VOLUME_SOURCE: &[Field] =
    &[not_yet("endpoints", Scalar), not_yet("path", Scalar), not_yet("readOnly", Scalar)];

static PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE: &[Field] =
    &[implemented("claimName", Scalar), implemented("readOnly", Scalar)];

static RBD_VOLUME_SOURCE: &[Field] = &[
    not_yet("monitors", Scalars),
    not_yet("image", Scalar),
    not_yet("fsType", Scalar),
    not_yet("pool", Scalar),
    not_yet("user", Scalar),
    not_yet("keyring", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
];

static FLEX_VOLUME_SOURCE: &[Field] = &[
    not_yet("driver", Scalar),
    not_yet("fsType", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
    not_yet("options", Map),
];

static CINDER_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeID", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

static CEPH_FS_VOLUME_SOURCE: &[Field] = &[
    not_yet("monitors", Scalars),
    not_yet("path", Scalar),
    not_yet("user", Scalar),
    not_yet("secretFile", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
    not_yet("readOnly", Scalar),
];

static FLOCKER_VOLUME_SOURCE: &[Field] = &[not_yet("datasetName", Scalar), not_yet("datasetUUID", Scalar)];

static DOWNWARD_API_VOLUME_SOURCE: &[Field] = &[
    implemented("items", Objects(DOWNWARD_API_VOLUME_FILE)),
    implemented("defaultMode", Scalar),
    not_yet("defaultUser", Scalar),
];

static DOWNWARD_API_VOLUME_FILE: &[Field] = &[
    implemented("path", Scalar),
    implemented("fieldRef", Object(OBJECT_FIELD_SELECTOR)),
    implemented("resourceFieldRef", Object(RESOURCE_FIELD_SELECTOR)),
    implemented("mode", Scalar),
    not_yet("user", Scalar),
];

static FC_VOLUME_SOURCE: &[Field] = &[
    not_yet("targetWWNs", Scalars),
    not_yet("lun", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("wwids", Scalars),
];

static AZURE_FILE_VOLUME_SOURCE: &[Field] =
    &[not_yet("secretName", Scalar), not_yet("shareName", Scalar), not_yet("readOnly", Scalar)];

static CONFIG_MAP_VOLUME_SOURCE: &[Field] = &[
    implemented("name", Scalar),
    implemented("items", Objects(KEY_TO_PATH)),
    implemented("defaultMode", Scalar),
    implemented("optional", Scalar),
    not_yet("defaultUser", Scalar),
];

static VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumePath", Scalar),
    not_yet("fsType", Scalar),
    not_yet("storagePolicyName", Scalar),
    not_yet("storagePolicyID", Scalar),
];

static QUOBYTE_VOLUME_SOURCE: &[Field] = &[
    not_yet("registry", Scalar),
    not_yet("volume", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("user", Scalar),
    not_yet("group", Scalar),
    not_yet("tenant", Scalar),
];

static AZURE_DISK_VOLUME_SOURCE: &[Field] = &[
    not_yet("diskName", Scalar),
    not_yet("diskURI", Scalar),
    not_yet("cachingMode", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("kind", Scalar),
];

static PHOTON_PERSISTENT_DISK_VOLUME_SOURCE: &[Field] = &[not_yet("pdID", Scalar), not_yet("fsType", Scalar)];

static PROJECTED_VOLUME_SOURCE: &[Field] = &[
    implemented("sources", Objects(VOLUME_PROJECTION)),
    implemented("defaultMode", Scalar),
    not_yet("defaultUser", Scalar),
];

static VOLUME_PROJECTION: &[Field] = &[
    implemented("secret", Object(SECRET_PROJECTION)),
    implemented("downwardAPI", Object(DOWNWARD_API_PROJECTION)),
    implemented("configMap", Object(CONFIG_MAP_PROJECTION)),
    // These need an API server or a signer.
    refused("serviceAccountToken", Object(SERVICE_ACCOUNT_TOKEN_PROJECTION)),
    refused("clusterTrustBundle", Object(CLUSTER_TRUST_BUNDLE_PROJECTION)),
    refused("podCertificate", Object(POD_CERTIFICATE_PROJECTION)),
];

/// SecretProjection and ConfigMapProjection.
static SECRET_PROJECTION: &[Field] =
    &[implemented("name", Scalar), implemented("items", Objects(KEY_TO_PATH)), implemented("optional", Scalar)];

static CONFIG_MAP_PROJECTION: &[Field] = SECRET_PROJECTION;

static DOWNWARD_API_PROJECTION: &[Field] = &[implemented("items", Objects(DOWNWARD_API_VOLUME_FILE))];

static SERVICE_ACCOUNT_TOKEN_PROJECTION: &[Field] = &[
    not_yet("audience", Scalar),
    not_yet("expirationSeconds", Scalar),
    not_yet("path", Scalar),
    not_yet("user", Scalar),
];

static CLUSTER_TRUST_BUNDLE_PROJECTION: &[Field] = &[
    not_yet("name", Scalar),
    not_yet("signerName", Scalar),
    not_yet("labelSelector", Object(LABEL_SELECTOR)),
    not_yet("optional", Scalar),
    not_yet("path", Scalar),
    not_yet("user", Scalar),
];

static POD_CERTIFICATE_PROJECTION: &[Field] = &[
    not_yet("signerName", Scalar),
    not_yet("keyType", Scalar),
    not_yet("maxExpirationSeconds", Scalar),
    not_yet("credentialBundlePath", Scalar),
    not_yet("keyPath", Scalar),
    not_yet("certificateChainPath", Scalar),
    not_yet("userAnnotations", Map),
    not_yet("user", Scalar),
];

static PORTWORX_VOLUME_SOURCE: &[Field] =
    &[not_yet("volumeID", Scalar), not_yet("fsType", Scalar), not_yet("readOnly", Scalar)];

static SCALE_IO_VOLUME_SOURCE: &[Field] = &[
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

static STORAGE_OS_VOLUME_SOURCE: &[Field] = &[
    not_yet("volumeName", Scalar),
    not_yet("volumeNamespace", Scalar),
    not_yet("fsType", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("secretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

static CSI_VOLUME_SOURCE: &[Field] = &[
    not_yet("driver", Scalar),
    not_yet("readOnly", Scalar),
    not_yet("fsType", Scalar),
    not_yet("volumeAttributes", Map),
    not_yet("nodePublishSecretRef", Object(LOCAL_OBJECT_REFERENCE)),
];

static EPHEMERAL_VOLUME_SOURCE: &[Field] = &[not_yet("volumeClaimTemplate", Object(PERSISTENT_VOLUME_CLAIM_TEMPLATE))];

static PERSISTENT_VOLUME_CLAIM_TEMPLATE: &[Field] = &[
    not_yet("metadata", Object(OBJECT_META)),
    // A whole PersistentVolumeClaimSpec; storage is not podrun's business.
    not_yet("spec", Any),
];

static IMAGE_VOLUME_SOURCE: &[Field] = &[not_yet("reference", Scalar), not_yet("pullPolicy", Scalar)];

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        serde_yaml::from_str(text).expect("test YAML parses")
    }

    /// The steps of a path such as `spec.containers[1].comand`.
    fn trail_of(path: &str) -> Trail {
        let mut steps = Vec::new();
        for part in path.split('.') {
            let mut pieces = part.split('[');
            steps.push(Step::Key(pieces.next().unwrap_or_default().to_owned()));
            for index in pieces {
                steps.push(Step::Index(index.trim_end_matches(']').parse().expect("an index")));
            }
        }
        steps
    }

    fn unknown(path: &str, suggestion: Option<&str>) -> Finding {
        let suggestion = suggestion.map(str::to_string);
        Finding::Unknown { path: path.to_string(), suggestion, trail: trail_of(path) }
    }

    fn not_yet_at(path: &str) -> Finding {
        Finding::NotYet { path: path.to_string() }
    }

    fn cluster_only_at(path: &str) -> Finding {
        Finding::ClusterOnly { path: path.to_string() }
    }

    fn wrong_shape(path: &str, expected: &'static str) -> Finding {
        Finding::WrongShape { path: path.to_string(), expected }
    }

    #[test]
    fn implemented_fields_are_silent() {
        let doc = yaml(
            r#"
apiVersion: v1
kind: Pod
metadata:
  name: hello
  namespace: default
  uid: 1234
  labels: {app: hello}
  annotations: {note: hi}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 5
  containers:
  - name: main
    image: busybox
    imagePullPolicy: IfNotPresent
    command: [sh, -c]
    args: ["echo $GREETING"]
    workingDir: /tmp
    env:
    - name: GREETING
      value: hello
"#,
        );
        assert_eq!(check_pod(&doc), vec![]);
    }

    #[test]
    fn typos_at_several_depths_name_the_path_and_the_likely_field() {
        let doc = yaml(
            r#"
apiVersion: v1
kind: Pod
metadata:
  name: typo
  lables: {app: x}
spec:
  contianers: []
  containers:
  - name: a
    image: busybox
  - name: b
    image: busybox
    comand: [sleep, "1"]
    imagePullpolicy: Always
    livenessProbe:
      httpGet:
        paht: /healthz
        port: 8080
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![
                unknown("metadata.lables", Some("labels")),
                unknown("spec.contianers", Some("containers")),
                unknown("spec.containers[1].comand", Some("command")),
                unknown("spec.containers[1].imagePullpolicy", Some("imagePullPolicy")),
                unknown("spec.containers[1].livenessProbe.httpGet.paht", Some("path")),
            ]
        );
    }

    #[test]
    fn probes_are_implemented_but_their_newest_fields_are_not() {
        let doc = yaml(
            r#"
spec:
  containers:
  - name: a
    image: b
    ports: [{name: http, containerPort: 80}]
    livenessProbe: {httpGet: {path: /, port: http, httpHeaders: [{name: X, value: y}], protocol: HTTP2}}
    readinessProbe: {tcpSocket: {port: 80, host: h}, periodSeconds: 5, successThreshold: 2}
    startupProbe: {exec: {command: [true]}, failureThreshold: 30, timeoutSeconds: 2}
    lifecycle: {preStop: {httpGet: {path: /quit, port: http, scheme: HTTPS, httpHeaders: [{name: X, value: y}]}}}
  - name: b
    image: b
    lifecycle: {postStart: {httpGet: {port: 80, protocol: HTTP2}}, preStop: {tcpSocket: {port: 80, hots: h}}}
"#,
        );
        // A lifecycle hook's httpGet is implemented; its tcpSocket is refused by validation,
        // so only a typo below it is reported.
        assert_eq!(
            check_pod(&doc),
            vec![
                not_yet_at("spec.containers[0].livenessProbe.httpGet.protocol"),
                not_yet_at("spec.containers[1].lifecycle.postStart.httpGet.protocol"),
                unknown("spec.containers[1].lifecycle.preStop.tcpSocket.hots", Some("host")),
            ]
        );
    }

    #[test]
    fn case_only_differences_are_unknown_but_suggested() {
        // The API server decodes case-sensitively, so `imagepullpolicy` is dropped there too.
        let doc = yaml("spec: {containers: [{name: a, image: b, imagepullpolicy: Never}]}");
        assert_eq!(check_pod(&doc), vec![unknown("spec.containers[0].imagepullpolicy", Some("imagePullPolicy"))]);
    }

    #[test]
    fn far_fetched_keys_get_no_suggestion() {
        let doc = yaml("spec: {containers: [{name: a, image: b, frobnicate: 1}], xyz: 2}");
        assert_eq!(check_pod(&doc), vec![unknown("spec.containers[0].frobnicate", None), unknown("spec.xyz", None),]);
    }

    #[test]
    fn unimplemented_fields_are_reported_once_not_per_child() {
        let doc = yaml(
            r#"
metadata:
  generateName: web-
spec:
  imagePullSecrets: [{name: reg}]
  volumes:
  - name: data
    emptyDir: {medium: Memory, mode: 01777}
  - name: share
    nfs: {server: nas, path: /export, readOnly: true}
  - name: conf
    configMap: {name: conf, items: [{key: a, path: b}]}
  containers:
  - name: main
    image: busybox
    env:
    - name: POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: FILE
      valueFrom: {fileKeyRef: {volumeName: data, path: p, key: k}}
    volumeMounts: [{name: data, mountPath: /data}]
    livenessProbe: {exec: {command: [true]}, periodSeconds: 5}
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![
                cluster_only_at("metadata.generateName"),
                not_yet_at("spec.volumes[0].emptyDir.mode"),
                not_yet_at("spec.containers[0].env[1].valueFrom.fileKeyRef"),
            ],
            "a volume source podrun cannot provide is validation's to refuse (`refused.rs`)"
        );
    }

    #[test]
    fn refused_fields_are_left_to_validation_but_typos_below_them_are_not() {
        let doc = yaml(
            r#"
spec:
  hostUsers: false
  resourceClaims: [{name: gpu, resourceClaimName: c}]
  containers:
  - name: a
    image: b
    resources: {claims: [{name: gpu}]}
    restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1]}}]
  volumes:
  - name: v
    image: {reference: alpine, pullPolicy: IfNotPresent}
  - name: e
    ephemeral: {volumeClaimTemplate: {spec: {}}}
  - name: p
    projected:
      sources:
      - serviceAccountToken: {path: token, audiance: api}
      - clusterTrustBundle: {name: x, path: p}
      - podCertificate: {signerName: s, keyType: ED25519, credentialBundlePath: b}
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![unknown("spec.volumes[2].projected.sources[0].serviceAccountToken.audiance", Some("audience"))]
        );
    }

    #[test]
    fn cluster_only_fields_are_reported() {
        let doc = yaml(
            r#"
metadata:
  name: x
  resourceVersion: "42"
  ownerReferences: [{apiVersion: v1, kind: Node, name: n, uid: u, controller: true}]
spec:
  nodeSelector: {disktype: ssd}
  serviceAccountName: builder
  priorityClassName: high
  tolerations: [{key: k, operator: Exists, effect: NoSchedule}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
  containers: [{name: a, image: b}]
status:
  phase: Running
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![
                cluster_only_at("metadata.resourceVersion"),
                cluster_only_at("metadata.ownerReferences"),
                cluster_only_at("spec.nodeSelector"),
                cluster_only_at("spec.serviceAccountName"),
                cluster_only_at("spec.priorityClassName"),
                cluster_only_at("spec.tolerations"),
                cluster_only_at("spec.affinity"),
                cluster_only_at("status"),
            ]
        );
    }

    #[test]
    fn invalid_values_give_way_to_wrong_shapes() {
        let mut findings = vec![Finding::WrongShape { path: "spec.nodeSelector[a]".into(), expected: "a scalar" }];
        let problem = |p: &str| FieldError::new(p, "Invalid value: x");
        add_invalid(
            &mut findings,
            vec![problem("spec.nodeSelector"), problem("spec.node"), problem("spec.tolerations")],
        );
        assert_eq!(findings.len(), 3);
        assert_eq!(findings[1], Finding::Invalid(problem("spec.node")));
        assert_eq!(findings[2], Finding::Invalid(problem("spec.tolerations")));
    }

    #[test]
    fn typos_below_unimplemented_fields_are_still_errors() {
        let doc = yaml(
            r#"
spec:
  volumes:
  - name: data
    emptyDir: {mediun: Memory}
  tolerations:
  - {key: k, operator: Exists, efect: NoSchedule}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpresions: []}]
  containers: [{name: a, image: b}]
"#,
        );
        let path = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution\
                    .nodeSelectorTerms[0].matchExpresions";
        assert_eq!(
            check_pod(&doc),
            vec![
                unknown("spec.volumes[0].emptyDir.mediun", Some("medium")),
                cluster_only_at("spec.tolerations"),
                unknown("spec.tolerations[0].efect", Some("effect")),
                cluster_only_at("spec.affinity"),
                unknown(path, Some("matchExpressions")),
            ]
        );
    }

    #[test]
    fn free_form_map_keys_are_never_checked() {
        let doc = yaml(
            r#"
metadata:
  labels: {app.kubernetes.io/name: web, comand: x}
  annotations: {"example.com/anything": "goes", containers: y}
spec:
  nodeSelector: {kubernetes.io/os: linux}
  containers:
  - name: a
    image: b
    resources:
      limits: {cpu: 500m, memory: 128Mi, nvidia.com/gpu: 1}
      requests: {cpu: 250m}
"#,
        );
        assert_eq!(check_pod(&doc), vec![cluster_only_at("spec.nodeSelector")]);
    }

    #[test]
    fn wrong_shapes_are_reported() {
        let doc = yaml(
            r#"
metadata:
  name: [not, a, string]
  labels: [app]
  annotations: {nested: {no: pe}}
spec:
  containers:
  - name: a
    image: b
    command: sleep 3600
    env: {FOO: bar}
  - just a string
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![
                wrong_shape("metadata.name", "a scalar"),
                wrong_shape("metadata.labels", "a map"),
                wrong_shape("metadata.annotations[nested]", "a scalar"),
                wrong_shape("spec.containers[0].command", "a list"),
                wrong_shape("spec.containers[0].env", "a list"),
                wrong_shape("spec.containers[1]", "an object"),
            ]
        );
        assert_eq!(check_pod(&yaml("spec: {containers: {name: a}}")), vec![wrong_shape("spec.containers", "a list")]);
        assert_eq!(check_pod(&yaml("just text")), vec![wrong_shape("<root>", "an object")]);
    }

    #[test]
    fn null_values_are_absent() {
        let doc = yaml(
            r#"
metadata:
  name: x
  creationTimestamp: null
  labels: ~
spec:
  nodeSelector: null
  volumes: ~
  containers:
  - name: a
    image: b
    command: null
    livenessProbe: ~
status: null
"#,
        );
        assert_eq!(check_pod(&doc), vec![]);
        assert_eq!(check_pod(&Value::Null), vec![]);
    }

    #[test]
    fn kubectl_run_output_only_warns_about_what_it_asks_for() {
        // `kubectl run nginx --image=nginx --dry-run=client -o yaml`
        let doc = yaml(
            r#"
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    run: nginx
  name: nginx
spec:
  containers:
  - image: nginx
    name: nginx
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {}
"#,
        );
        assert_eq!(check_pod(&doc), vec![]);
    }

    #[test]
    fn keys_that_are_not_strings_are_unknown() {
        let doc = yaml("spec: {containers: [{name: a, image: b, 1: x, true: y}]}");
        assert_eq!(
            check_pod(&doc),
            vec![unknown("spec.containers[0].1", None), unknown("spec.containers[0].true", None),]
        );
    }

    #[test]
    fn findings_follow_document_order() {
        let doc = yaml(
            r#"
spec:
  setHostnameAsFQDN: true
  containers: [{name: a, image: b, startupProbe: {exec: {command: [x]}}, ttyy: true}]
  nodeName: n1
  os: {name: linux}
metadata:
  nmae: x
"#,
        );
        assert_eq!(
            check_pod(&doc),
            vec![
                not_yet_at("spec.setHostnameAsFQDN"),
                unknown("spec.containers[0].ttyy", Some("tty")),
                cluster_only_at("spec.nodeName"),
                not_yet_at("spec.os"),
                unknown("metadata.nmae", Some("name")),
            ]
        );
    }

    #[test]
    fn pod_spec_paths_take_the_prefix() {
        let spec = yaml("{containers: [{name: a, image: b, comand: [x]}], nodeSelector: {a: b}}");
        assert_eq!(
            check_pod_spec(&spec, "spec.template.spec"),
            vec![
                unknown("spec.template.spec.containers[0].comand", Some("command")),
                cluster_only_at("spec.template.spec.nodeSelector"),
            ]
        );
        assert_eq!(
            check_pod_spec(&spec, ""),
            vec![unknown("containers[0].comand", Some("command")), cluster_only_at("nodeSelector"),]
        );
    }

    #[test]
    fn pod_templates_check_metadata_and_spec_under_the_prefix() {
        let template = yaml(
            "{metadata: {labels: {app: x}, lables: {}, creationTimestamp: null}, \
             spec: {containers: [{name: a, image: b, comand: [x]}], nodeSelector: {a: b}}}",
        );
        assert_eq!(
            check_pod_template(&template, "spec.template"),
            vec![
                unknown("spec.template.metadata.lables", Some("labels")),
                unknown("spec.template.spec.containers[0].comand", Some("command")),
                cluster_only_at("spec.template.spec.nodeSelector"),
            ]
        );
    }

    #[test]
    fn config_maps_and_secrets_are_checked_by_field_never_by_value() {
        let cm = yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '1'}, binarydata: {}}");
        assert_eq!(check_config_map(&cm), vec![unknown("binarydata", Some("binaryData"))]);
        let secret = yaml(
            "{apiVersion: v1, kind: Secret, metadata: {name: s}, type: Opaque, stringdata: {p: hunter2}, \
             data: {k: [hunter3]}, immutable: true}",
        );
        let findings = check_secret(&secret);
        assert_eq!(findings, vec![unknown("stringdata", Some("stringData")), wrong_shape("data[k]", "a scalar")]);
        assert!(!format!("{findings:?}").contains("hunter"));
    }

    #[test]
    fn newer_fields_are_known() {
        let doc = yaml(
            r#"
spec:
  hostUsers: false
  hostnameOverride: box
  schedulingGroup: {podGroupName: workers}
  evictionResponders: [{name: example.com/drain, priority: 10000}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
  ephemeralContainers: [{name: dbg, image: busybox, targetContainerName: a}]
  initContainers:
  - name: sidecar
    image: b
    restartPolicy: Always
    restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]
    resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]
    lifecycle: {stopSignal: SIGUSR1, preStop: {sleep: {seconds: 5}}}
  containers:
  - name: a
    image: b
    env:
    - name: X
      valueFrom: {fileKeyRef: {volumeName: v, path: p, key: k, optional: false}}
    volumeMounts: [{name: v, mountPath: /v, readOnly: true, recursiveReadOnly: Enabled}]
    readinessProbe: {grpc: {port: 9000, mode: TLS}}
    livenessProbe: {httpGet: {port: 80, protocol: HTTP2}}
  - name: b
    image: b
    volumeMounts: [{name: scratch, mountPath: /s, bindMountOptions: [noexec]}]
  volumes:
  - name: scratch
    emptyDir: {mode: 01777}
  - name: conf
    configMap: {name: c, defaultUser: 1000, items: [{key: k, path: p, user: 1001}]}
  - name: v
    image: {reference: quay.io/x:1, pullPolicy: IfNotPresent}
  - name: certs
    projected:
      defaultUser: 1000
      sources:
      - podCertificate: {signerName: s, keyType: ED25519, credentialBundlePath: b.pem}
      - serviceAccountToken: {path: token, user: 1000}
      - clusterTrustBundle: {signerName: s, labelSelector: {matchLabels: {a: b}}, path: p}
"#,
        );
        let unknowns: Vec<_> = check_pod(&doc)
            .into_iter()
            .filter(|f| matches!(f, Finding::Unknown { .. } | Finding::WrongShape { .. }))
            .collect();
        assert_eq!(unknowns, vec![]);
    }

    #[test]
    fn edit_distance_counts_transpositions_once_and_ignores_case() {
        assert_eq!(edit_distance("contianers", "containers"), 1);
        assert_eq!(edit_distance("comand", "command"), 1);
        assert_eq!(edit_distance("imagepullpolicy", "imagePullPolicy"), 0);
        assert_eq!(edit_distance("", "tty"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    /// Every object table reachable from the Pod root, each once.
    fn all_tables() -> Vec<&'static [Field]> {
        fn visit(fields: &'static [Field], seen: &mut Vec<&'static [Field]>) {
            if seen.iter().any(|t| std::ptr::eq(*t, fields)) {
                return;
            }
            seen.push(fields);
            for field in fields {
                if let Object(inner) | Objects(inner) = field.shape {
                    visit(inner, seen);
                }
            }
        }
        let mut seen = Vec::new();
        visit(POD, &mut seen);
        seen
    }

    #[test]
    fn schema_tables_are_well_formed() {
        let tables = all_tables();
        for table in &tables {
            for (i, field) in table.iter().enumerate() {
                assert!(field.name.chars().all(|c| c.is_ascii_alphanumeric()), "odd field name {:?}", field.name);
                assert!(table[..i].iter().all(|other| other.name != field.name), "duplicate field {:?}", field.name);
            }
        }
        let fields: usize = tables.iter().map(|t| t.len()).sum();
        println!("schema: {} object types, {fields} fields", tables.len());
        assert!(fields > 300, "schema shrank to {fields} fields");
    }

    /// The typo and shape findings for every Pod document of `files`; files that are not YAML
    /// are an error unless `not_yaml` names them.
    fn unknown_fields_in(files: &[std::path::PathBuf], not_yaml: &[&str]) -> Vec<String> {
        use serde::Deserialize;

        let mut problems = Vec::new();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let docs: Result<Vec<Value>, _> =
                serde_yaml::Deserializer::from_str(&text).map(Value::deserialize).collect();
            let docs = match docs {
                Ok(docs) => docs,
                Err(_) if not_yaml.contains(&name.as_str()) => continue,
                Err(e) => panic!("{name}: {e}"),
            };
            let pods: Vec<&Value> = docs.iter().filter(|doc| doc["kind"] == "Pod").collect();
            // Every manifest holds a Pod; finding none means the loader, not the schema, is off.
            assert!(!pods.is_empty(), "{name}: no Pod document");
            for doc in pods {
                for finding in check_pod(doc) {
                    if matches!(finding, Finding::Unknown { .. } | Finding::WrongShape { .. }) {
                        problems.push(format!("{name}: {finding:?}"));
                    }
                }
            }
        }
        problems
    }

    /// Every Pod the project's own manifests hold that Kubernetes accepts (`run/`, and
    /// `refused/`, which podrun refuses for what it asks, not for its shape) must pass without
    /// a typo or shape error: a false "unknown field" on a real manifest is the worst mistake
    /// this module can make. The typo among the invalid ones must be caught.
    #[test]
    fn the_projects_own_manifests_have_no_unknown_fields() {
        use crate::test_support::manifests::{owned, owned_file};

        let files: Vec<_> = owned("run").into_iter().chain(owned("refused")).collect();
        let problems = unknown_fields_in(&files, &[]);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let typo = unknown_fields_in(&[owned_file("invalid", "unknown-field.yaml")], &[]);
        assert_eq!(typo.len(), 1, "{typo:?}");
        assert!(typo[0].contains("comand"), "{typo:?}");
    }

    /// The same for every Pod of the Kubernetes documentation corpus, when it is there (an
    /// extra suite: without it the test says it skipped).
    #[test]
    fn kubernetes_documentation_examples_have_no_unknown_fields() {
        let Some(dir) =
            crate::test_support::manifests::k8s_examples("kubernetes_documentation_examples_have_no_unknown_fields")
        else {
            return;
        };
        let index = std::fs::read_to_string(dir.join("INDEX.tsv"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join("INDEX.tsv").display()));
        // The corpus deliberately holds files that are not valid YAML; the index says which.
        let not_yaml: Vec<&str> = index
            .lines()
            .filter_map(|line| {
                let columns: Vec<&str> = line.split('\t').collect();
                let expected = columns.last()?;
                expected.starts_with("invalid (not valid YAML").then_some(columns[0])
            })
            .collect();

        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
            .collect();
        files.sort();
        let problems = unknown_fields_in(&files, &not_yaml);
        assert!(files.len() >= 40, "only {} examples in {}", files.len(), dir.display());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

#[cfg(test)]
mod serde_fields_tests;
