//! Pod preparation: the loaded manifests made into the pods podrun will run, with what the host
//! and the engine add (the host's resolver under `dnsConfig`, the host's security profiles, the
//! `--pull` override) and the volume checks that refuse a pod before anything is created.
//!
//! `apply` runs it before its first pass, `apply --supervise` before starting over on changed
//! manifests, so both refuse the same pods. It lives in `pod` because it is the desired state
//! of a pod in this environment: neither command-line flow nor the driver's loop. It reads the
//! host (resolv.conf, profiles) but creates nothing; warnings are returned, not shown.

use std::sync::Arc;

use crate::manifest::config_store::ConfigStore;
use crate::manifest::types::{DnsPolicy, PullPolicy};
use crate::manifest::LoadedPod;
use crate::runtime::{Capacity, DnsSettings, EngineFeatures, EngineInfo, EngineSecurity, OomFloor};

use super::admission::{self, Admission};
use super::dns::{self, ResolvConf};
use super::downward::PodFacts;
use super::files::PodFiles;
use super::{needed_configs, node_features, qos, rootless, settings, volumes, DesiredPod};

/// What preparation takes from the command line and the engine.
#[derive(Debug, Clone)]
pub struct Environment<'a> {
    /// The infra image every pod's infra container runs.
    pub infra_image: &'a str,
    /// `--network`: the engine network pods join, when not the default.
    pub network: Option<&'a str>,
    /// `--pull`: the pull policy for every container, in place of the manifests'.
    pub pull: Option<PullPolicy>,
    /// Whether the engine sees this host's files (`Runtime::local_files`): only then can the
    /// host's resolver and profiles be read for it, and volumes be prepared here.
    pub local_files: bool,
    /// What the engine is, for the volume checks.
    pub engine: &'a EngineInfo,
    /// The ConfigMaps and Secrets the manifests and `--config` files hold.
    pub configs: Arc<ConfigStore>,
    /// Whether the engine is rootless (`Runtime::security`), when a pod needs to know
    /// ([`needs_engine_security`]); None: taken for a rootful engine.
    pub security: Option<EngineSecurity>,
    /// `--seccomp-default`: the engine's default seccomp profile for containers that name
    /// none, as the kubelet's seccompDefault setting; else they run Unconfined.
    pub seccomp_default: bool,
    /// The lowest OOM score adjustment the engine can give (`Runtime::oom_score_floor`).
    pub oom_score_floor: Option<OomFloor>,
    /// `--allowed-unsafe-sysctls`, checked (`admission::check_unsafe_pattern`).
    pub allowed_unsafe_sysctls: Vec<String>,
    /// The engine host's CPUs and memory when it is not this host (`Runtime::capacity`).
    pub capacity: Option<Capacity>,
    /// The node features the engine gives (`Runtime::features`): a pod asking for one it lacks
    /// is refused here, naming the engine.
    pub features: &'a EngineFeatures,
}

/// Whether any of the pods asks for something a rootless engine cannot give, so that
/// `Environment::security` must be asked of the engine.
pub fn needs_engine_security(loaded: &[LoadedPod]) -> bool {
    loaded.iter().any(|p| rootless::concerns(&p.pod))
}

/// A pod podrun refuses to run here, named by its manifest document and key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{doc}: pod {namespace}/{name}: {message}")]
pub struct PrepareError {
    pub doc: String,
    pub namespace: String,
    pub name: String,
    pub message: String,
}

/// The pods to run, in manifest order; or the first pod that cannot run here. Warnings for the
/// user (each naming its pod) go to `warn` as they are found.
pub fn prepare_pods(
    loaded: &[LoadedPod],
    env: &Environment,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<DesiredPod>, PrepareError> {
    let node = Node::of(env);
    let mut pods = Vec::new();
    let mut raised = Vec::new();
    for p in loaded {
        let (d, oom_raised) = prepare_pod(p, env, &node, warn)?;
        if oom_raised {
            raised.push(format!("{}/{}", d.namespace, d.name));
        }
        pods.push(d);
    }
    if let (Some(floor), false) = (env.oom_score_floor, raised.is_empty()) {
        warn(format!(
            "OOM scores: {}; so the containers of {} get {} instead of the kubelet's lower score (as \
             containerd's restrict_oom_score_adj)",
            floor.reason(),
            raised.join(", "),
            floor.score()
        ));
    }
    Ok(pods)
}

/// What every pod is prepared against: the node (the engine's host) and what it admits.
struct Node {
    host: PodFacts,
    admission: Admission,
    port_start: i64,
    /// The host's resolver, read once if a pod needs it.
    host_resolv: std::sync::OnceLock<Option<ResolvConf>>,
}

impl Node {
    fn of(env: &Environment) -> Node {
        let mut host = PodFacts::of_host();
        // The node is the engine's host: this one, or the one the engine reports. Its
        // allocatable memory sizes Memory emptyDirs and stands for limits a container leaves
        // unset.
        if let Some(c) = env.capacity {
            (host.host_cpus, host.host_memory) = (c.cpus, c.memory);
        }
        let (cpus, memory) = (host.host_cpus, host.host_memory);
        let kernel = if env.local_files { admission::kernel_release() } else { None };
        let admission = Admission::new(cpus, memory, kernel, &env.allowed_unsafe_sysctls);
        let port_start = rootless::unprivileged_port_start(env.local_files);
        Node { host, admission, port_start, host_resolv: std::sync::OnceLock::new() }
    }
}

/// One pod prepared, or refused; and whether its containers' OOM scores were raised to the
/// engine's floor.
fn prepare_pod(
    p: &LoadedPod,
    env: &Environment,
    node: &Node,
    warn: &mut dyn FnMut(String),
) -> Result<(DesiredPod, bool), PrepareError> {
    let mut d = DesiredPod::from_loaded(p, env.infra_image, env.network);
    d.host = node.host.clone();
    d.configs = env.configs.clone();
    let (namespace, name) = (d.namespace.clone(), d.name.clone());
    let key = format!("{namespace}/{name}");
    let refuse = |message: String| PrepareError {
        doc: p.doc.to_string(),
        namespace: namespace.clone(),
        name: name.clone(),
        message,
    };
    needed_configs::check(std::slice::from_ref(p), &env.configs).map_err(|e| refuse(e.of_the_pod()))?;
    admit(&d, env, node).map_err(&refuse)?;
    d.resize_in_place = env.features.update_resources;
    d.engine = crate::escape::escape(&format!("{} {}", env.engine.name, env.engine.version)).into_owned();
    d.recursive_read_only = env.features.recursive_read_only;
    add_host_resolver(&mut d, env, node, &key, warn);
    if let Some(security) = &env.security {
        // Before the volumes are planned: a rootless engine drops fsGroup's ownership.
        for w in
            rootless::check(&mut d, security, node.port_start, env.local_files).map_err(|e| refuse(e.to_string()))?
        {
            warn(format!("{key}: {w}"));
        }
    }
    if !env.seccomp_default {
        unconfined_where_unset(&mut d);
    }
    let raised = oom_scores(&mut d, env.oom_score_floor.map(OomFloor::score));
    if let Some(policy) = env.pull {
        for c in d.init.iter_mut().chain(&mut d.containers) {
            c.pull_policy = policy;
        }
    }
    if env.local_files {
        let root = PodFiles::default_root();
        settings::resolve_host_profiles(&mut d.init, &root)
            .and_then(|()| settings::resolve_host_profiles(&mut d.containers, &root))
            .map_err(|e| refuse(e.to_string()))?;
    }
    check_volumes(&d, env, &key, warn).map_err(|e| refuse(e.to_string()))?;
    Ok((d, raised))
}

/// What the node refuses although the API server accepted it, as the kubelet's admission
/// refuses it; and what the engine cannot give.
fn admit(d: &DesiredPod, env: &Environment, node: &Node) -> Result<(), String> {
    node.admission.admit(&d.manifest).map_err(|e| e.to_string())?;
    node_features::check(&d.manifest, env.engine, env.features).map_err(|e| e.to_string())?;
    if d.manifest.spec.host_users == Some(false) && !env.local_files {
        // The pod's id range is recorded in the state directory of the engine's host.
        return Err("spec.hostUsers: Unsupported value: false: the engine is on another host, where podrun cannot \
                    record which ids the pod's user namespace takes"
            .to_owned());
    }
    Ok(())
}

/// dnsConfig adds to the host's resolver, which podrun can read only beside the engine.
fn add_host_resolver(d: &mut DesiredPod, env: &Environment, node: &Node, key: &str, warn: &mut dyn FnMut(String)) {
    let spec = &d.manifest.spec;
    if spec.dns_policy == Some(DnsPolicy::None) || d.network.dns == DnsSettings::default() {
        return;
    }
    match node.host_resolv.get_or_init(ResolvConf::of_host) {
        Some(host_rc) if env.local_files => {
            let (merged, dns_warnings) = dns::add_to_host(host_rc, &d.network.dns, spec.host_network == Some(true));
            for w in dns_warnings {
                warn(format!("pod {key}: {w}"));
            }
            d.network.dns = merged;
        }
        _ => warn(format!(
            "pod {key}: spec.dnsConfig replaces the engine's resolver lists instead of adding to them: \
             the host's resolv.conf cannot be read here"
        )),
    }
}

/// Without `--seccomp-default`, a container that names no seccomp profile runs Unconfined,
/// as under the kubelet's default.
fn unconfined_where_unset(d: &mut DesiredPod) {
    let unset: Vec<bool> = (d.init.iter().chain(&d.containers))
        .map(|c| d.manifest_container(c).is_some_and(|m| settings::names_no_seccomp_profile(&d.manifest, m)))
        .collect();
    for (c, unset) in d.init.iter_mut().chain(&mut d.containers).zip(unset) {
        if unset {
            c.settings.security_opt.push(settings::UNCONFINED.to_owned());
        }
    }
}

/// Volumes are checked now, against the engine too, so a pod that can never get its volumes
/// is refused before anything is created. Planning is pure: an engine that keeps the volumes
/// itself gets the same checks.
fn check_volumes(
    d: &DesiredPod,
    env: &Environment,
    key: &str,
    warn: &mut dyn FnMut(String),
) -> Result<(), volumes::VolumeError> {
    if d.manifest.spec.volumes.is_empty() {
        return Ok(());
    }
    let mut setup = volumes::plan_volumes(&d.manifest, &PodFiles::new(PodFiles::default_root()), &d.configs, &d.host)?;
    if !env.local_files {
        setup = setup.on_engine();
    }
    setup.check_engine(env.engine, env.features)?;
    for w in setup.warnings() {
        warn(format!("{key}: {w}"));
    }
    Ok(())
}

/// Each container's OOM score adjustment as the kubelet gives it (`qos`), the node's memory
/// being the host's, and the infra container's as a sandbox's; none below `floor`. Whether a
/// container of the pod (not its infra container, always raised on such an engine) was raised.
fn oom_scores(d: &mut DesiredPod, floor: Option<i64>) -> bool {
    let capacity = d.host.host_memory;
    let scores: Vec<i64> = (d.init.iter().chain(&d.containers))
        .map(|c| d.manifest_container(c).map_or(qos::INFRA, |m| qos::oom_score_adj(&d.manifest, m, capacity)))
        .collect();
    let floor = floor.unwrap_or(-1000);
    let mut raised = false;
    for (c, score) in d.init.iter_mut().chain(&mut d.containers).zip(scores) {
        raised |= score < floor;
        c.settings.oom_score_adj = Some(score.max(floor));
    }
    d.infra.settings.oom_score_adj = Some(qos::INFRA.max(floor));
    raised
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{self, LoadOptions, Loaded, Source};

    fn load(yaml: &str) -> Loaded {
        let source = Source { name: "pod.yaml".into(), text: yaml.into(), warning: None };
        manifest::load(&source, &LoadOptions::default()).unwrap()
    }

    fn engine() -> EngineInfo {
        EngineInfo { name: "Docker Engine".into(), version: "27.0.0".into(), api_version: "1.46".into() }
    }

    fn env<'a>(engine: &'a EngineInfo, loaded: &Loaded, local_files: bool) -> Environment<'a> {
        Environment {
            infra_image: "podrun-infra",
            network: None,
            pull: None,
            local_files,
            engine,
            configs: Arc::new(loaded.configs.clone()),
            security: None,
            seccomp_default: false,
            oom_score_floor: None,
            allowed_unsafe_sysctls: Vec::new(),
            capacity: None,
            features: &EngineFeatures::NONE,
        }
    }

    const TWO_PODS: &str = "apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  initContainers: [{name: i, image: busybox}]
  containers: [{name: c, image: busybox, imagePullPolicy: Always}]
  dnsConfig: {nameservers: [192.0.2.1]}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: other}
spec:
  containers: [{name: c, image: busybox}]
";

    #[test]
    fn pods_come_in_manifest_order_with_the_pull_override_on_every_container() {
        let (engine, loaded) = (engine(), load(TWO_PODS));
        let mut env = env(&engine, &loaded, false);
        env.pull = Some(PullPolicy::Never);
        let mut warnings = Vec::new();
        let pods = prepare_pods(&loaded.pods, &env, &mut |w| warnings.push(w)).unwrap();
        let keys: Vec<_> = pods.iter().map(|d| format!("{}/{}", d.namespace, d.name)).collect();
        assert_eq!(keys, ["default/a", "other/b"]);
        for d in &pods {
            assert!(d.init.iter().chain(&d.containers).all(|c| c.pull_policy == PullPolicy::Never), "{}", d.name);
            assert_eq!(d.infra.image, "podrun-infra");
        }
        // Without the host's files, dnsConfig cannot add to the host's resolver: said, per pod.
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("pod default/a: spec.dnsConfig replaces"), "{warnings:?}");
    }

    #[test]
    fn without_the_override_the_manifest_pull_policy_stays() {
        let (engine, loaded) = (engine(), load(TWO_PODS));
        let pods = prepare_pods(&loaded.pods, &env(&engine, &loaded, false), &mut |_| {}).unwrap();
        assert_eq!(pods[0].containers[0].pull_policy, PullPolicy::Always);
    }

    const SECCOMP: &str = "apiVersion: v1
kind: Pod
metadata: {name: s}
spec:
  initContainers: [{name: i, image: busybox}]
  containers:
  - {name: unset, image: busybox}
  - {name: runtime, image: busybox, securityContext: {seccompProfile: {type: RuntimeDefault}}}
  - {name: unconfined, image: busybox, securityContext: {seccompProfile: {type: Unconfined}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  securityContext: {seccompProfile: {type: RuntimeDefault}}
  containers: [{name: c, image: busybox}]
";

    #[test]
    fn containers_without_a_seccomp_profile_run_unconfined_unless_seccomp_default() {
        let (engine, loaded) = (engine(), load(SECCOMP));
        let seccomp = |pods: &[DesiredPod]| -> Vec<Vec<String>> {
            let all = pods.iter().flat_map(|d| d.init.iter().chain(&d.containers));
            all.map(|c| c.settings.security_opt.iter().filter(|o| o.starts_with("seccomp")).cloned().collect())
                .collect()
        };
        let pods = prepare_pods(&loaded.pods, &env(&engine, &loaded, false), &mut |_| {}).unwrap();
        let unconfined = vec!["seccomp=unconfined".to_owned()];
        // i, unset, runtime, unconfined; then the pod whose securityContext sets RuntimeDefault.
        assert_eq!(seccomp(&pods), [unconfined.clone(), unconfined.clone(), vec![], unconfined.clone(), vec![]]);
        let mut with_default = env(&engine, &loaded, false);
        with_default.seccomp_default = true;
        let pods = prepare_pods(&loaded.pods, &with_default, &mut |_| {}).unwrap();
        assert_eq!(seccomp(&pods), [vec![], vec![], vec![], unconfined, vec![]]);
    }

    #[test]
    fn a_pod_whose_volumes_cannot_be_had_is_refused_naming_its_document_and_key() {
        let yaml = "apiVersion: v1
kind: Pod
metadata: {name: v}
spec:
  containers: [{name: c, image: busybox, volumeMounts: [{name: cfg, mountPath: /cfg}]}]
  volumes: [{name: cfg, configMap: {name: absent}}]
";
        let (engine, loaded) = (engine(), load(yaml));
        let err = prepare_pods(&loaded.pods, &env(&engine, &loaded, true), &mut |_| {}).unwrap_err();
        assert_eq!((err.namespace.as_str(), err.name.as_str()), ("default", "v"));
        let shown = err.to_string();
        assert!(shown.starts_with("pod.yaml") && shown.contains(": pod default/v: "), "{shown}");
        assert!(shown.contains("absent"), "{shown}");
        // Where the engine keeps the volumes itself, they are checked the same, before anything
        // is created.
        let err = prepare_pods(&loaded.pods, &env(&engine, &loaded, false), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("absent"), "{err}");
    }
}
