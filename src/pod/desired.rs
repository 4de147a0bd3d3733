//! The desired state of one pod: what its infra and app containers must look like in the
//! engine, with their identity labels and spec hashes. Built from a loaded manifest.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::fnv::fnv1a64;
use crate::manifest::config_store::ConfigStore;
use crate::manifest::defaults::{
    DEFAULT_GRACE_PERIOD_SECONDS, DEFAULT_HTTP_GET_PATH, DEFAULT_HTTP_GET_SCHEME, DEFAULT_TERMINATION_MESSAGE_PATH,
};
use crate::manifest::types::{
    Container, ContainerRestartPolicy, HttpGetAction, HttpHeader, IntOrString, LifecycleHandler, Pod, PullPolicy,
    RestartPolicy, TerminationMessagePolicy,
};
use crate::manifest::LoadedPod;
use crate::probe::handlers::resolve_port;
use crate::runtime::{ContainerSettings, CreateSpec, Namespaces, NetworkMode, Observed, PidMode, PodNetwork};

use super::downward::PodFacts;
use super::env::{self, EnvError, EnvFiles};
use super::identity::RunAs;

use super::settings::{self, HostProfile};

use crate::runtime::labels;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Infra,
    Init,
    App,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Infra => "infra",
            Role::Init => "init",
            Role::App => "app",
        }
    }
}

/// A lifecycle hook, engine-neutral. Serialised into a label for preStop (JSON, externally
/// tagged: `{"exec":[...]}`, `{"sleep":5}`, `{"httpGet":{...}}`), so it carries everything it
/// needs to run without the manifest; labels written before a variant was added still decode.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Hook {
    /// Run a command in the container; a non-zero exit is a failure.
    Exec(Vec<String>),
    /// Wait, outside the container.
    Sleep(u64),
    /// Send an HTTP GET from the host; only a failed exchange is a failure.
    HttpGet(HttpHook),
}

/// A hook's `httpGet`, resolved when the hook is made (defaults applied, a port name looked up
/// among the container's ports); only the pod IP is looked up when it runs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpHook {
    /// 0 when the port could not be resolved (validation refuses such a manifest): the hook
    /// then fails, saying so, rather than being skipped.
    pub port: u16,
    pub path: String,
    /// `HTTP` or `HTTPS`.
    pub scheme: String,
    /// Where the request goes; unset: the pod's address when the hook runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub http_headers: Vec<HttpHeader>,
    /// The pod uses the host's network, so its address is the host's (see `probe::handlers::pod_address`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub host_network: bool,
}

impl HttpHook {
    /// The request as the probes' HTTP client takes it.
    pub fn action(&self) -> HttpGetAction {
        HttpGetAction {
            path: Some(self.path.clone()),
            port: IntOrString::Int(i64::from(self.port)),
            host: self.host.clone(),
            scheme: Some(self.scheme.clone()),
            http_headers: self.http_headers.clone(),
        }
    }
}

impl Hook {
    /// The hook of a handler of container `c`. None for a handler podrun cannot run
    /// (`tcpSocket`, which validation refuses, or none at all).
    fn from_handler(h: &LifecycleHandler, c: &Container, host_network: bool) -> Option<Hook> {
        if let Some(e) = &h.exec {
            return Some(Hook::Exec(e.command.clone()));
        }
        if let Some(g) = &h.http_get {
            return Some(Hook::HttpGet(HttpHook {
                port: resolve_port(&g.port, &c.ports).unwrap_or(0),
                path: g.path.clone().filter(|p| !p.is_empty()).unwrap_or_else(|| DEFAULT_HTTP_GET_PATH.to_owned()),
                scheme: g
                    .scheme
                    .clone()
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| DEFAULT_HTTP_GET_SCHEME.to_owned()),
                host: g.host.clone().filter(|h| !h.is_empty()),
                http_headers: g.http_headers.clone(),
                host_network,
            }));
        }
        h.sleep.as_ref().map(|s| Hook::Sleep(s.seconds.max(0).unsigned_abs()))
    }
}

/// One container of the pod, as it must be in the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesiredContainer {
    /// The Kubernetes container name (`POD` for the infra container).
    pub name: String,
    pub role: Role,
    pub image: String,
    pub pull_policy: PullPolicy,
    pub spec_hash: String,
    /// An init container with restartPolicy Always: it keeps running beside the app containers.
    pub sidecar: bool,
    pub post_start: Option<Hook>,
    pub pre_stop: Option<Hook>,
    pub termination_message_path: String,
    pub fallback_to_logs: bool,
    pub settings: ContainerSettings,
    /// Host profiles (seccomp files, AppArmor profiles) that must exist for it to start.
    pub host_profiles: Vec<HostProfile>,
    /// runAsNonRoot: checked against the image's user before the container is created.
    pub run_as_non_root: bool,
    /// runAsUser and runAsGroup, which `identity::decide` settles against the image's USER.
    pub run_as: RunAs,
    /// The resources (`cpu`, `memory`) whose change restarts it (resizePolicy RestartContainer);
    /// a change of the others is applied in place.
    pub restart_on_resize: Vec<String>,
    /// Where it is in the manifest: `spec.containers[1]`, `spec.initContainers[0]`.
    pub path: String,
    /// Its index in `initContainers` or `containers`.
    index: usize,
}

/// A pod podrun has been asked to run.
#[derive(Debug, Clone)]
pub struct DesiredPod {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub restart_policy: RestartPolicy,
    pub grace_period_seconds: i64,
    pub infra: DesiredContainer,
    /// In order: each runs to completion (or, for a sidecar, is started) before the next.
    pub init: Vec<DesiredContainer>,
    pub containers: Vec<DesiredContainer>,
    /// The pod-level settings the infra container carries.
    pub network: PodNetwork,
    pub pid: PidMode,
    /// The defaulted manifest, for reports that show the Pod object.
    pub manifest: Pod,
    /// The ConfigMaps and Secrets the pod may refer to.
    pub configs: Arc<ConfigStore>,
    /// The host's facts for the downward API (the pod IP is filled in at create time).
    pub host: PodFacts,
    /// Where the manifest came from (see `labels::SOURCE`), when it came from a file.
    pub source: Option<String>,
    /// The pod's own cgroup, when it sets pod-level limits (`resources::pod_cgroup`).
    pub pod_cgroup: Option<crate::runtime::PodCgroup>,
    /// Whether the engine changes a running container's resources in place
    /// (`EngineFeatures::update_resources`); else a resize restarts the container.
    pub resize_in_place: bool,
    /// The engine's name and version (`Podman Engine 4.3.1`), escaped, for what the pod's
    /// messages say it cannot do.
    pub engine: String,
    /// Whether the engine makes mounts recursively read-only
    /// (`EngineFeatures::recursive_read_only`): `recursiveReadOnly: IfPossible` is then recursive.
    pub recursive_read_only: bool,
}

/// A short, stable hash of a value's JSON form (field order is fixed by the types, and maps are
/// sorted), so an unchanged manifest always gives the same hash.
fn spec_hash<T: serde::Serialize>(value: &T) -> String {
    let json = serde_json::to_vec(value).unwrap_or_default();
    format!("{:016x}", fnv1a64(&json))
}

/// The parts of a pod spec its infra container is made with.
fn sandbox_fields(pod: &Pod) -> serde_json::Value {
    let s = &pod.spec;
    // Flattened: adding or removing a container without ports must not change the pod.
    let ports: Vec<_> = s.init_containers.iter().chain(&s.containers).flat_map(|c| &c.ports).collect();
    let mut fields = serde_json::json!({
        "hostNetwork": s.host_network, "hostPID": s.host_pid, "hostIPC": s.host_ipc,
        "shareProcessNamespace": s.share_process_namespace, "hostname": s.hostname,
        "subdomain": s.subdomain, "hostAliases": s.host_aliases, "dnsPolicy": s.dns_policy,
        "dnsConfig": s.dns_config, "ports": ports,
        "sysctls": s.security_context.as_ref().map(|sc| &sc.sysctls),
        "resources": s.resources,
    });
    // Only when set, so the pods of earlier podruns keep their hash (and their infra container).
    for (key, value) in [
        ("hostnameOverride", s.hostname_override.as_ref().map(|h| serde_json::json!(h))),
        ("setHostnameAsFQDN", s.set_hostname_as_fqdn.map(|b| serde_json::json!(b))),
    ] {
        if let (Some(value), Some(map)) = (value, fields.as_object_mut()) {
            map.insert(key.to_owned(), value);
        }
    }
    fields
}

impl DesiredPod {
    /// `network`: a user-defined engine network for the pod (`--network`), else the default.
    pub fn from_loaded(loaded: &LoadedPod, infra_image: &str, network: Option<&str>) -> DesiredPod {
        let pod = &loaded.pod;
        let namespace = loaded.namespace().to_owned();
        let name = pod.metadata.name.clone();
        let pod_network = settings::pod_network(pod, network);
        let init: Vec<DesiredContainer> =
            pod.spec.init_containers.iter().enumerate().map(|(i, c)| container(pod, i, c, Role::Init)).collect();
        let containers = pod.spec.containers.iter().enumerate().map(|(i, c)| container(pod, i, c, Role::App)).collect();
        // A changed init container makes a new pod, so their hashes are part of the infra
        // container's; a changed sidecar is only restarted, as the kubelet restarts it
        // (computeInitContainerActions), keeping the pod's sandbox and the other containers.
        let init_hashes: Vec<&str> = init.iter().filter(|c| !c.sidecar).map(|c| c.spec_hash.as_str()).collect();
        let infra = DesiredContainer {
            name: labels::INFRA_CONTAINER_NAME.to_owned(),
            role: Role::Infra,
            image: infra_image.to_owned(),
            // podrun builds the infra image itself; it is never pulled.
            pull_policy: PullPolicy::Never,
            // Everything the pod's namespaces are made with: a change means a new pod.
            spec_hash: spec_hash(&(infra_image, init_hashes, network, &pod.metadata.name, sandbox_fields(pod))),
            sidecar: false,
            post_start: None,
            pre_stop: None,
            termination_message_path: String::new(),
            fallback_to_logs: false,
            settings: ContainerSettings::default(),
            host_profiles: Vec::new(),
            run_as_non_root: false,
            run_as: RunAs::default(),
            restart_on_resize: Vec::new(),
            path: String::new(),
            index: 0,
        };
        DesiredPod {
            namespace,
            name,
            uid: pod.metadata.uid.clone().unwrap_or_default(),
            restart_policy: pod.spec.restart_policy.unwrap_or(RestartPolicy::Always),
            grace_period_seconds: pod.spec.termination_grace_period_seconds.unwrap_or(DEFAULT_GRACE_PERIOD_SECONDS),
            infra,
            init,
            containers,
            network: pod_network,
            pid: settings::pid_mode(pod),
            manifest: pod.clone(),
            configs: Arc::new(ConfigStore::new()),
            host: PodFacts::default(),
            source: None,
            pod_cgroup: super::resources::pod_cgroup(pod),
            resize_in_place: false,
            engine: String::new(),
            recursive_read_only: false,
        }
    }

    /// The container's manifest entry.
    /// The container kubectl picks when none is named: the one the default-container annotation
    /// names, when the pod has it, else the first app container.
    pub fn default_container(&self) -> Option<&str> {
        let annotated = self.manifest.metadata.annotations.get(labels::DEFAULT_CONTAINER_ANNOTATION);
        annotated
            .filter(|a| self.containers.iter().chain(&self.init).any(|c| &c.name == *a))
            .map(String::as_str)
            .or_else(|| self.containers.first().map(|c| c.name.as_str()))
    }

    /// Whether the kubelet restarts `c` after it exited with `exit_code`: its restart rules,
    /// else its own restartPolicy, else the pod's (`Container::restarts_after`).
    pub fn restarts_after(&self, c: &DesiredContainer, exit_code: i64) -> bool {
        match self.manifest_container(c) {
            Some(m) => m.restarts_after(self.restart_policy, exit_code),
            None => self.restart_policy.restarts_after(exit_code),
        }
    }

    /// Whether every exit of `c` is followed by a restart (`OwnRestart::restarts_always`).
    pub fn restarts_always(&self, c: &DesiredContainer) -> bool {
        self.manifest_container(c).map(Container::own_restart).unwrap_or_default().restarts_always(self.restart_policy)
    }

    /// Whether each app container, in order, is restarted after every exit.
    pub fn apps_restarting_always(&self) -> Vec<bool> {
        self.containers.iter().map(|c| self.restarts_always(c)).collect()
    }

    /// Whether `c` may ever be restarted after an exit (util.go: IsContainerRestartable).
    pub fn may_restart(&self, c: &DesiredContainer) -> bool {
        match self.manifest_container(c) {
            Some(m) => m.may_restart(self.restart_policy),
            None => self.restart_policy != RestartPolicy::Never,
        }
    }

    /// Whether `c`, killed after its liveness or startup probe failed, is started again: by its
    /// own restartPolicy, else the pod's. Its rules are not asked: it did not exit by itself.
    pub fn restarts_after_kill(&self, c: &DesiredContainer) -> bool {
        match self.manifest_container(c).and_then(|m| m.restart_policy) {
            Some(own) => own != ContainerRestartPolicy::Never,
            None => self.restart_policy != RestartPolicy::Never,
        }
    }

    pub fn manifest_container(&self, c: &DesiredContainer) -> Option<&Container> {
        match c.role {
            Role::Init => self.manifest.spec.init_containers.get(c.index),
            Role::App => self.manifest.spec.containers.get(c.index),
            Role::Infra => None,
        }
    }

    /// The engine-side name of one instance: readable and deterministic, so two podrun
    /// invocations racing to create the same instance collide on the name (409) instead of
    /// creating duplicates. Never parsed: labels say what a container is.
    pub fn container_name(&self, container: &str, attempt: u32) -> String {
        format!("podrun_{}_{}_{container}_{attempt}", self.namespace, self.name)
    }

    pub fn find(&self, name: &str) -> Option<&DesiredContainer> {
        if name == labels::INFRA_CONTAINER_NAME {
            Some(&self.infra)
        } else {
            self.init.iter().chain(&self.containers).find(|c| c.name == name)
        }
    }

    /// The create request for `container`'s instance number `attempt`, with its environment
    /// resolved and `$(VAR)` expanded in its command and args. Pod members need the running
    /// infra container. Also returns warnings about the environment (skipped keys).
    pub fn create_spec(
        &self,
        c: &DesiredContainer,
        attempt: u32,
        infra: Option<&InfraRef>,
    ) -> Result<(CreateSpec, Vec<String>), EnvError> {
        self.create_spec_with_files(c, attempt, infra, &EnvFiles::Unread)
    }

    /// As [`DesiredPod::create_spec`], with the env files the container's `fileKeyRef`s name,
    /// read for its creation.
    pub fn create_spec_with_files(
        &self,
        c: &DesiredContainer,
        attempt: u32,
        infra: Option<&InfraRef>,
        files: &EnvFiles,
    ) -> Result<(CreateSpec, Vec<String>), EnvError> {
        let mut l = BTreeMap::new();
        l.insert(labels::MANAGED.to_owned(), labels::MANAGED_VALUE.to_owned());
        l.insert(labels::POD_NAME.to_owned(), self.name.clone());
        l.insert(labels::POD_NAMESPACE.to_owned(), self.namespace.clone());
        l.insert(labels::POD_UID.to_owned(), self.uid.clone());
        l.insert(labels::CONTAINER_NAME.to_owned(), c.name.clone());
        l.insert(labels::SPEC_HASH.to_owned(), c.spec_hash.clone());
        l.insert(labels::ROLE.to_owned(), c.role.as_str().to_owned());
        l.insert(labels::ATTEMPT.to_owned(), attempt.to_string());
        l.insert(labels::GRACE_PERIOD.to_owned(), self.grace_period_seconds.to_string());
        if let Some(hook) = c.pre_stop.as_ref().and_then(|h| serde_json::to_string(h).ok()) {
            l.insert(labels::PRE_STOP.to_owned(), hook);
        }
        if c.sidecar {
            l.insert(labels::SIDECAR.to_owned(), c.index.to_string());
        }
        if c.role != Role::Infra {
            l.insert(labels::RESOURCES.to_owned(), c.settings.resources_text());
        }
        if c.role == Role::Infra {
            for (k, v) in &self.manifest.metadata.labels {
                l.insert(format!("{}{k}", labels::POD_LABEL_PREFIX), v.clone());
            }
            l.insert(labels::QOS_CLASS.to_owned(), super::qos::pod_qos(&self.manifest).as_str().to_owned());
            if let Some(ips) = crate::runtime::node_ip::named() {
                l.insert(labels::HOST_IPS.to_owned(), ips);
            }
            if let Some(name) = self.default_container() {
                l.insert(labels::DEFAULT_CONTAINER.to_owned(), name.to_owned());
            }
            if let Some(source) = &self.source {
                l.insert(labels::SOURCE.to_owned(), source.clone());
            }
        }
        let namespaces = match (c.role, infra) {
            (Role::App | Role::Init, Some(infra)) => {
                let userns = self.manifest.spec.host_users == Some(false);
                Namespaces::Join {
                    infra_id: infra.id.clone(),
                    pid: self.pid,
                    ipc_host: self.network.ipc_host,
                    userns,
                    uts_host: self.network.mode == NetworkMode::Host,
                }
            }
            _ => Namespaces::Infra(Box::new(self.network.clone())),
        };
        let mut spec = CreateSpec {
            name: self.container_name(&c.name, attempt),
            image: c.image.clone(),
            entrypoint: None,
            cmd: None,
            env: Vec::new(),
            working_dir: None,
            labels: l,
            namespaces,
            stop_timeout: Some(self.grace_period_seconds),
            mounts: Vec::new(),
            settings: c.settings.clone(),
            pod_cgroup: self.pod_cgroup.clone(),
        };
        let Some(m) = self.manifest_container(c) else { return Ok((spec, Vec::new())) };
        let facts = PodFacts {
            pod_ip: infra.and_then(|i| i.ip.clone()),
            host_ip: infra.and_then(|i| i.host_ip.clone()),
            ..self.host.clone()
        };
        let resolved = env::resolve_with_files(&self.manifest, m, &c.path, &self.configs, &facts, files)?;
        let (command, args) = env::expand_command(m, &resolved, &c.path)?;
        // Kubernetes: `command` replaces ENTRYPOINT and `args` replaces CMD. With only
        // `command`, the image's CMD must not be appended, so CMD is emptied explicitly.
        spec.cmd = match (&command, args) {
            (_, Some(args)) => Some(args),
            (Some(_), None) => Some(Vec::new()),
            (None, None) => None,
        };
        spec.entrypoint = command;
        spec.env = resolved.vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
        spec.working_dir = m.working_dir.clone().filter(|d| !d.is_empty());
        Ok((spec, resolved.warnings))
    }
}

/// The pod's running infra container, as its members need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfraRef {
    pub id: String,
    pub ip: Option<String>,
    /// The host's address on the pod's network.
    pub host_ip: Option<String>,
}

impl InfraRef {
    /// The running infra container `c`, as its members need it.
    pub fn of(c: &Observed) -> InfraRef {
        InfraRef { id: c.id.clone(), ip: c.ip.clone(), host_ip: c.gateway.clone() }
    }
}

/// The pod's volumes a container mounts (a changed source means a new container; changed
/// contents of a configMap or secret do not: their files are rewritten in place).
fn mounted_volumes<'a>(pod: &'a Pod, c: &Container) -> Vec<&'a crate::manifest::types::Volume> {
    pod.spec.volumes.iter().filter(|v| c.volume_mounts.iter().any(|m| m.name == v.name)).collect()
}

fn container(pod: &Pod, index: usize, c: &Container, role: Role) -> DesiredContainer {
    let lifecycle = c.lifecycle.clone().unwrap_or_default();
    let host_network = pod.spec.host_network == Some(true);
    let (settings, host_profiles) = settings::container_settings(pod, c);
    DesiredContainer {
        settings,
        host_profiles,
        run_as_non_root: settings::run_as_non_root(pod, c),
        run_as: settings::run_as(pod, c),
        name: c.name.clone(),
        role,
        image: c.image.clone(),
        pull_policy: c.image_pull_policy.unwrap_or(PullPolicy::IfNotPresent),
        // The pod's securityContext, and the volumes it mounts, shape each container too. Its
        // resources are left out: a change of them is a resize (`plan::resize`), unless it
        // changes the pod's QoS class, which makes a new container.
        spec_hash: spec_hash(&(
            &Container { resources: None, ..c.clone() },
            &pod.spec.security_context,
            mounted_volumes(pod, c),
            super::qos::pod_qos(pod).as_str(),
        )),
        restart_on_resize: c
            .resize_policy
            .iter()
            .filter(|p| p.restart_policy == "RestartContainer")
            .map(|p| p.resource_name.clone())
            .collect(),
        sidecar: role == Role::Init && c.restart_policy == Some(ContainerRestartPolicy::Always),
        post_start: lifecycle.post_start.as_ref().and_then(|h| Hook::from_handler(h, c, host_network)),
        pre_stop: lifecycle.pre_stop.as_ref().and_then(|h| Hook::from_handler(h, c, host_network)),
        termination_message_path: c
            .termination_message_path
            .clone()
            .unwrap_or_else(|| DEFAULT_TERMINATION_MESSAGE_PATH.to_owned()),
        fallback_to_logs: c.termination_message_policy == Some(TerminationMessagePolicy::FallbackToLogsOnError),
        path: match role {
            Role::Init => format!("spec.initContainers[{index}]"),
            _ => format!("spec.containers[{index}]"),
        },
        index,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{load, LoadOptions, Source};

    fn desired(yaml: &str) -> DesiredPod {
        let loaded = load(&Source::from_text("t.yaml", yaml), &LoadOptions::default()).unwrap();
        DesiredPod::from_loaded(&loaded.pods[0], "localhost/podrun-pause:test", None)
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: a\n    image: busybox:1.28\n    command: [sleep]\n    args: ['10']\n    env: [{name: A, value: x}]\n  - name: b\n    image: busybox\n    command: [sh]\n";

    #[test]
    fn a_changed_hostname_override_or_fqdn_setting_makes_a_new_infra_container() {
        let base = desired(POD).infra.spec_hash;
        let with = |spec: &str| desired(&POD.replace("spec:\n", &format!("spec:\n{spec}"))).infra.spec_hash;
        let over = with("  hostnameOverride: box\n");
        assert_ne!(over, base);
        assert_ne!(with("  hostnameOverride: other\n"), over);
        assert_ne!(with("  subdomain: s\n  setHostnameAsFQDN: true\n"), with("  subdomain: s\n"));
        assert_eq!(with(""), base);
    }

    #[test]
    fn default_container_is_the_annotated_one_else_the_first() {
        let d = desired(POD);
        assert_eq!(d.default_container(), Some("a"));
        let infra = d.create_spec(&d.infra, 0, None).unwrap().0;
        assert_eq!(infra.labels[labels::DEFAULT_CONTAINER], "a");
        let annotated =
            POD.replace("{name: web}", "{name: web, annotations: {kubectl.kubernetes.io/default-container: b}}");
        assert_eq!(desired(&annotated).default_container(), Some("b"));
        // An annotation naming no container is ignored, as kubectl ignores it.
        let wrong =
            POD.replace("{name: web}", "{name: web, annotations: {kubectl.kubernetes.io/default-container: zz}}");
        assert_eq!(desired(&wrong).default_container(), Some("a"));
    }

    #[test]
    fn command_and_args_map_to_entrypoint_and_cmd() {
        let d = desired(POD);
        let infra = InfraRef { id: "infra".into(), ip: None, host_ip: None };
        let a = d.create_spec(&d.containers[0], 0, Some(&infra)).unwrap().0;
        assert_eq!(a.entrypoint, Some(vec!["sleep".to_owned()]));
        assert_eq!(a.cmd, Some(vec!["10".to_owned()]));
        assert_eq!(a.env, vec!["A=x"]);
        let b = d.create_spec(&d.containers[1], 0, Some(&infra)).unwrap().0;
        assert_eq!(b.cmd, Some(vec![]), "command alone must drop the image CMD");
        assert_eq!(
            b.namespaces,
            Namespaces::Join {
                infra_id: "infra".into(),
                pid: PidMode::Private,
                ipc_host: false,
                userns: false,
                uts_host: false,
            }
        );
    }

    #[test]
    fn identity_labels_and_names() {
        let d = desired(POD);
        let infra = InfraRef { id: "infra".into(), ip: None, host_ip: None };
        let s = d.create_spec(&d.containers[0], 3, Some(&infra)).unwrap().0;
        assert_eq!(s.name, "podrun_default_web_a_3");
        assert_eq!(s.labels[labels::POD_NAME], "web");
        assert_eq!(s.labels[labels::POD_NAMESPACE], "default");
        assert_eq!(s.labels[labels::CONTAINER_NAME], "a");
        assert_eq!(s.labels[labels::ATTEMPT], "3");
        assert_eq!(s.labels[labels::MANAGED], "true");
        assert_eq!(s.labels[labels::POD_UID], d.uid);
        assert!(!s.name.starts_with("k8s_"));
        let i = d.create_spec(&d.infra, 0, None).unwrap().0;
        assert_eq!(i.labels[labels::CONTAINER_NAME], "POD");
        let Namespaces::Infra(net) = &i.namespaces else { panic!("infra") };
        assert_eq!(net.hostname.as_deref(), Some("web"));
    }

    #[test]
    fn pod_labels_go_on_the_infra_container_only_and_not_into_hashes() {
        let plain = desired(POD);
        let labelled = desired(&POD.replace("metadata: {name: web}", "metadata: {name: web, labels: {app: x}}"));
        let infra = labelled.create_spec(&labelled.infra, 0, None).unwrap().0;
        assert_eq!(infra.labels["io.podrun.pod-label.app"], "x");
        let r = InfraRef { id: "infra".into(), ip: None, host_ip: None };
        let app = labelled.create_spec(&labelled.containers[0], 0, Some(&r)).unwrap().0;
        assert!(!app.labels.keys().any(|k| k.starts_with(labels::POD_LABEL_PREFIX)));
        assert_eq!(plain.infra.spec_hash, labelled.infra.spec_hash);
        assert_eq!(plain.containers[0].spec_hash, labelled.containers[0].spec_hash);
    }

    #[test]
    fn the_source_goes_on_the_infra_container_only_and_not_into_hashes() {
        let plain = desired(POD);
        let mut sourced = desired(POD);
        sourced.source = Some("/etc/podrun/pods".into());
        let infra = sourced.create_spec(&sourced.infra, 0, None).unwrap().0;
        assert_eq!(infra.labels[labels::SOURCE], "/etc/podrun/pods");
        assert!(!plain.create_spec(&plain.infra, 0, None).unwrap().0.labels.contains_key(labels::SOURCE));
        let r = InfraRef { id: "infra".into(), ip: None, host_ip: None };
        assert!(!sourced
            .create_spec(&sourced.containers[0], 0, Some(&r))
            .unwrap()
            .0
            .labels
            .contains_key(labels::SOURCE));
        assert_eq!(plain.infra.spec_hash, sourced.infra.spec_hash);
    }

    #[test]
    fn hooks_round_trip_through_their_label_and_old_labels_still_decode() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: a\n    image: busybox:1.28\n    ports: [{name: admin, containerPort: 9000}]\n    lifecycle:\n      postStart: {httpGet: {port: 8080}}\n      preStop: {httpGet: {port: admin, path: /quit, scheme: HTTPS, host: 10.1.2.3, httpHeaders: [{name: X-A, value: b}]}}\n";
        let d = desired(pod);
        let c = &d.containers[0];
        // Defaults as the API server fills them; a port name resolved against the ports.
        let post = HttpHook {
            port: 8080,
            path: "/".into(),
            scheme: "HTTP".into(),
            host: None,
            http_headers: vec![],
            host_network: false,
        };
        assert_eq!(c.post_start, Some(Hook::HttpGet(post)));
        let pre = HttpHook {
            port: 9000,
            path: "/quit".into(),
            scheme: "HTTPS".into(),
            host: Some("10.1.2.3".into()),
            http_headers: vec![HttpHeader { name: "X-A".into(), value: "b".into() }],
            host_network: false,
        };
        assert_eq!(c.pre_stop, Some(Hook::HttpGet(pre.clone())));
        let infra = InfraRef { id: "infra".into(), ip: None, host_ip: None };
        let label = d.create_spec(c, 0, Some(&infra)).unwrap().0.labels[labels::PRE_STOP].clone();
        assert_eq!(
            label,
            r#"{"httpGet":{"port":9000,"path":"/quit","scheme":"HTTPS","host":"10.1.2.3","httpHeaders":[{"name":"X-A","value":"b"}]}}"#
        );
        assert_eq!(serde_json::from_str::<Hook>(&label).unwrap(), Hook::HttpGet(pre));
        // Under hostNetwork the hook says so: the pod's address is then the host's.
        let host = desired(&pod.replace("spec:\n", "spec:\n  hostNetwork: true\n"));
        let Some(Hook::HttpGet(h)) = &host.containers[0].post_start else { panic!("{:?}", host.containers[0]) };
        assert!(h.host_network);
        assert!(serde_json::to_string(h).unwrap().contains(r#""hostNetwork":true"#));
        // Labels written before httpGet hooks existed.
        let exec: Hook = serde_json::from_str(r#"{"exec":["touch","/tmp/x"]}"#).unwrap();
        assert_eq!(exec, Hook::Exec(vec!["touch".into(), "/tmp/x".into()]));
        assert_eq!(serde_json::from_str::<Hook>(r#"{"sleep":5}"#).unwrap(), Hook::Sleep(5));
        for hook in [exec, Hook::Sleep(5)] {
            assert_eq!(serde_json::from_str::<Hook>(&serde_json::to_string(&hook).unwrap()).unwrap(), hook);
        }
    }

    #[test]
    fn hash_is_stable_and_sensitive() {
        let a = desired(POD);
        assert_eq!(a.containers[0].spec_hash, desired(POD).containers[0].spec_hash);
        let b = desired(&POD.replace("'10'", "'11'"));
        assert_ne!(a.containers[0].spec_hash, b.containers[0].spec_hash);
        assert_eq!(a.containers[1].spec_hash, b.containers[1].spec_hash);
        // Defaults are part of the hash input, but only as the API server fills them.
        assert_eq!(a.containers[1].pull_policy, PullPolicy::Always);
    }
}
