//! The subset of the Kubernetes `v1` object model that podrun implements, as serde types.
//!
//! Field names and shapes follow the Kubernetes API exactly (camelCase), so a manifest that
//! deserialises here means what it means on a cluster. Fields that Kubernetes knows but podrun
//! does not implement are not represented: the schema walk (`schema/`) reports them.

mod config;
pub mod int32;
mod meta;
mod probe;
mod restart;
mod scheduling;
mod security;
mod volume;
mod workload;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use config::*;
pub use meta::*;
pub use probe::*;
pub use restart::*;
pub use scheduling::*;
pub use security::*;
pub use volume::*;
pub use workload::*;

use crate::manifest::yaml::strict;

/// A Pod as podrun understands it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodSpec,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default, skip_serializing_if = "String::is_empty", deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub namespace: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub uid: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::string_map")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::string_map")]
    pub annotations: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    #[serde(default)]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<RestartPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    /// How long the pod may be active, counted from its start, before its containers are
    /// killed and it fails with DeadlineExceeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    /// Cluster-only (admission sets it from priorityClassName), but an int32: a value past
    /// that is refused at its line and column, as the API server's decoding refuses it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "int32::opt_int32")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Volume>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_network: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "hostPID")]
    pub host_pid: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "hostIPC")]
    pub host_ipc: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_process_namespace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub hostname: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub subdomain: Option<String>,
    /// The hostname the pod's containers see, in place of `hostname` and `subdomain`
    /// (HostnameOverride, beta and on by default since Kubernetes 1.35).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub hostname_override: Option<String>,
    /// With a subdomain, the containers' hostname is the pod's FQDN.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "setHostnameAsFQDN")]
    pub set_hostname_as_fqdn: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_aliases: Vec<HostAlias>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dns_policy: Option<DnsPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dns_config: Option<PodDnsConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_context: Option<PodSecurityContext>,
    /// Cluster-only, but readable through the downward API.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub node_name: Option<String>,
    /// Cluster-only, but readable through the downward API.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub service_account_name: Option<String>,
    /// `system-node-critical` makes a static pod node-critical (its OOM score); other
    /// classes only matter on a cluster.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub priority_class_name: Option<String>,
    /// Pod-level resources (Kubernetes 1.32+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_users: Option<bool>,
    /// The OS the pod is for: the node refuses any but Linux (PodOSNotSupported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<scheduling::PodOs>,
    /// A pod podrun runs is bound to this host, as a static pod is: the node refuses one that
    /// is still gated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scheduling_gates: Vec<scheduling::SchedulingGate>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_pull_secrets: Vec<LocalObjectReference>,
    /// Dynamic resource allocation, which podrun refuses (validation says why); only whether
    /// it is there matters, so the entries stay as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_claims: Vec<serde_yaml::Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostAlias {
    #[serde(default, deserialize_with = "strict::string")]
    pub ip: String,
    #[serde(default, deserialize_with = "strict::strings")]
    pub hostnames: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DnsPolicy {
    ClusterFirst,
    ClusterFirstWithHostNet,
    Default,
    None,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDnsConfig {
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "strict::strings")]
    pub nameservers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "strict::strings")]
    pub searches: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<PodDnsConfigOption>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDnsConfigOption {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub value: Option<String>,
}

impl PodSpec {
    /// Init containers, then app containers, each with its field path
    /// (`spec.initContainers[0]`, `spec.containers[1]`) and whether it is an init container.
    pub fn all_containers(&self) -> impl Iterator<Item = (String, &Container, bool)> {
        let init = self.init_containers.iter().enumerate().map(|(i, c)| (format!("spec.initContainers[{i}]"), c, true));
        init.chain(self.containers.iter().enumerate().map(|(i, c)| (format!("spec.containers[{i}]"), c, false)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RestartPolicy {
    Always,
    OnFailure,
    Never,
}

impl RestartPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            RestartPolicy::Always => "Always",
            RestartPolicy::OnFailure => "OnFailure",
            RestartPolicy::Never => "Never",
        }
    }

    /// The kubelet's rule for a container that has stopped with `exit_code`.
    pub fn restarts_after(self, exit_code: i64) -> bool {
        match self {
            RestartPolicy::Always => true,
            RestartPolicy::OnFailure => exit_code != 0,
            RestartPolicy::Never => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PullPolicy {
    Always,
    IfNotPresent,
    Never,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub image: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_policy: Option<PullPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_strings")]
    pub command: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_strings")]
    pub args: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub working_dir: Option<String>,
    /// On an init container, `Always` makes it a native sidecar; otherwise it overrides the
    /// pod's restartPolicy for this container (ContainerRestartRules, on since 1.35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<ContainerRestartPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub termination_message_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_message_policy: Option<TerminationMessagePolicy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_from: Vec<EnvFromSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    /// How a change of each resource is applied to the running container (in-place resize).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resize_policy: Vec<scheduling::ContainerResizePolicy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<VolumeMount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_context: Option<SecurityContext>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tty: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin_once: Option<bool>,
    /// What to do on an exit, by exit code, before the restartPolicy decides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_policy_rules: Vec<ContainerRestartRule>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "int32::int32")]
    pub container_port: i64,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "int32::opt_int32")]
    pub host_port: Option<i64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "hostIP",
        deserialize_with = "strict::opt_string"
    )]
    pub host_ip: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[allow(clippy::upper_case_acronyms)]
pub enum Protocol {
    TCP,
    UDP,
    SCTP,
}

impl Protocol {
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::TCP => "TCP",
            Protocol::UDP => "UDP",
            Protocol::SCTP => "SCTP",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvFromSource {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map_ref: Option<EnvSourceReference>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<EnvSourceReference>,
}

/// ConfigMapEnvSource and SecretEnvSource: a name, and whether it may be absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvSourceReference {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

/// An object in the pod's namespace, by name only (imagePullSecrets): Kubernetes'
/// LocalObjectReference has no `optional`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalObjectReference {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVarSource {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_ref: Option<ObjectFieldSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_field_ref: Option<ResourceFieldSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map_key_ref: Option<KeySelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_key_ref: Option<KeySelector>,
    /// A key of an env file in an emptyDir volume (EnvFiles, beta and on by default since
    /// Kubernetes 1.35), read when the container is created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_key_ref: Option<FileKeySelector>,
}

/// A key of an env file (`valueFrom.fileKeyRef`): `path` inside the emptyDir `volumeName`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileKeySelector {
    #[serde(default, deserialize_with = "strict::string")]
    pub volume_name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub path: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectFieldSelector {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub api_version: Option<String>,
    #[serde(default, deserialize_with = "strict::string")]
    pub field_path: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceFieldSelector {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub container_name: Option<String>,
    #[serde(default, deserialize_with = "strict::string")]
    pub resource: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_quantity")]
    pub divisor: Option<String>,
}

/// ConfigMapKeySelector and SecretKeySelector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeySelector {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
}

/// Quantities are kept as written (`250m`, `64Mi`, `0.5`); `quantity.rs` parses them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRequirements {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::quantity_map")]
    pub limits: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "strict::quantity_map")]
    pub requests: BTreeMap<String, String>,
    /// Dynamic resource allocation, which podrun refuses (validation says why); kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<serde_yaml::Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ContainerRestartPolicy {
    Always,
    OnFailure,
    Never,
}

/// One of a container's `restartPolicyRules`. The action and operator are kept as written, so
/// that validation can name a value it does not support as the API server does.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerRestartRule {
    #[serde(default, deserialize_with = "strict::string")]
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_codes: Option<ContainerRestartRuleOnExitCodes>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerRestartRuleOnExitCodes {
    #[serde(default, deserialize_with = "strict::string")]
    pub operator: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<i32>,
}

impl Container {
    /// What decides whether this container is restarted after an exit (`OwnRestart`).
    pub fn own_restart(&self) -> OwnRestart<'_> {
        OwnRestart { policy: self.restart_policy, rules: &self.restart_policy_rules }
    }

    /// Whether the kubelet restarts this container after it exited with `exit_code`
    /// (`OwnRestart::restarts_after`).
    pub fn restarts_after(&self, pod_policy: RestartPolicy, exit_code: i64) -> bool {
        self.own_restart().restarts_after(pod_policy, exit_code)
    }

    /// Whether any exit at all may be followed by a restart (`OwnRestart::may_restart`).
    pub fn may_restart(&self, pod_policy: RestartPolicy) -> bool {
        self.own_restart().may_restart(pod_policy)
    }
}

impl ContainerRestartRule {
    /// Whether `exit_code` satisfies the rule's condition (an unknown operator never does).
    fn matches(&self, exit_code: i64) -> bool {
        let Some(codes) = &self.exit_codes else { return false };
        let listed = codes.values.iter().any(|v| i64::from(*v) == exit_code);
        match codes.operator.as_str() {
            "In" => listed,
            "NotIn" => !listed,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerminationMessagePolicy {
    File,
    FallbackToLogsOnError,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_start: Option<LifecycleHandler>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_stop: Option<LifecycleHandler>,
}

/// Exactly one handler must be set (checked by validation). The HTTP and TCP actions are the
/// probes' types, as in the Kubernetes API.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleHandler {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<ExecAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_get: Option<HttpGetAction>,
    /// In the API only for backward compatibility (the kubelet fails such a hook at run time);
    /// validation refuses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_socket: Option<TcpSocketAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep: Option<SleepAction>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecAction {
    #[serde(default, deserialize_with = "strict::strings")]
    pub command: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SleepAction {
    #[serde(default)]
    pub seconds: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_from: Option<EnvVarSource>,
}
