//! Mapping between podrun's runtime types and the Docker API's.

use std::collections::HashMap;

use bollard::models::{
    ContainerCreateBody, ContainerInspectResponse, ContainerStateStatusEnum, EndpointSettings, HostConfig,
    Mount as DockerMount, MountBindOptions, MountBindOptionsPropagationEnum, MountImageOptions, MountType,
    MountVolumeOptions, NetworkingConfig, PortBinding, SystemVersion,
};

use crate::runtime::{
    ContainerSettings, CreateSpec, Mount, Namespaces, NetworkMode, Observed, PidMode, Propagation, State,
};

/// Docker reports unset times as the zero time.
fn time(t: Option<String>) -> Option<String> {
    t.filter(|t| !t.is_empty() && !t.starts_with("0001-01-01"))
}

/// A container the runtime could not start, as containerd's CRI reports one (StartError):
/// terminated with exit code 128 and the runtime's message. (Docker's own exit code, 127 for
/// a missing executable, is not what a kubelet on containerd shows.)
pub fn start_error(message: String) -> State {
    State::Exited { exit_code: 128, started_at: None, finished_at: None, oom_killed: false, error: Some(message) }
}

/// The container as podrun sees it. `node_ip`: the node address of the engine's host (None
/// when it is not this host): a kubelet gives every pod the node's IP as its host IP, and a
/// hostNetwork pod (which has no address of its own) as its pod IP too.
pub fn observed(c: ContainerInspectResponse, node_ip: impl FnOnce() -> Option<String>) -> Observed {
    let host_network = c.host_config.as_ref().and_then(|h| h.network_mode.as_deref()) == Some("host");
    let resources_now = c.host_config.as_ref().map(|h| {
        let positive = |v: Option<i64>| v.filter(|v| *v > 0);
        let cpu = crate::runtime::CpuSettings {
            quota: positive(h.cpu_quota),
            period: positive(h.cpu_period),
            shares: positive(h.cpu_shares),
        };
        crate::runtime::resources_text(cpu, positive(h.memory), positive(h.memory_reservation))
    });
    let config = c.config.unwrap_or_default();
    let st = c.state.unwrap_or_default();
    let state = match st.status {
        // Docker keeps a failed start's error in the state of the container it left created.
        Some(ContainerStateStatusEnum::CREATED) => match st.error.filter(|e| !e.is_empty()) {
            Some(error) => start_error(error),
            None => State::Created,
        },
        Some(ContainerStateStatusEnum::RUNNING) => State::Running { started_at: time(st.started_at) },
        Some(ContainerStateStatusEnum::EXITED) => State::Exited {
            exit_code: st.exit_code.unwrap_or(0),
            started_at: time(st.started_at),
            finished_at: time(st.finished_at),
            oom_killed: st.oom_killed.unwrap_or(false),
            error: st.error.filter(|e| !e.is_empty()),
        },
        Some(ContainerStateStatusEnum::DEAD) => State::Dead,
        Some(other) => State::Other(other.to_string()),
        None => State::Other("unknown".into()),
    };
    let mut nets: Vec<_> = c.network_settings.and_then(|n| n.networks).unwrap_or_default().into_iter().collect();
    // Several networks: pick by name so the answer does not depend on map order.
    nets.sort_by(|a, b| a.0.cmp(&b.0));
    let endpoint = nets.into_iter().map(|(_, e)| e).find(|e| e.ip_address.as_deref().is_some_and(|ip| !ip.is_empty()));
    let mut ip = endpoint.as_ref().and_then(|e| e.ip_address.clone());
    let node = node_ip();
    if host_network && ip.is_none() {
        ip.clone_from(&node);
    }
    // The pod's host IP is the node's address, as a kubelet reports it on every runtime; of a
    // remote engine's host podrun knows none, and its network's gateway stands for it.
    let gateway = node.or_else(|| endpoint.and_then(|e| e.gateway).filter(|g| !g.is_empty()));
    Observed {
        id: c.id.unwrap_or_default(),
        name: c.name.unwrap_or_default().trim_start_matches('/').to_owned(),
        labels: {
            let mut labels: std::collections::BTreeMap<String, String> =
                config.labels.unwrap_or_default().into_iter().collect();
            labels.remove(crate::runtime::labels::RESOURCES_NOW);
            labels.extend(resources_now.map(|r| (crate::runtime::labels::RESOURCES_NOW.to_owned(), r)));
            labels
        },
        image: config.image.unwrap_or_default(),
        image_id: c.image.unwrap_or_default(),
        state,
        ip,
        gateway,
        // Decided by the list, which holds the key.
        sealed: false,
        // Docker's; the runtime says when it is Podman.
        scheme: crate::runtime::IdScheme::Docker,
    }
}

/// Which engine answers the Docker API, where their answers to the same request differ.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Engine {
    #[default]
    Docker,
    /// Podman's Docker-compatible API (`podman system service`).
    Podman,
}

impl Engine {
    /// Podman names its component `Podman Engine` in `GET /version`; Docker `Engine`. (Over a
    /// unix socket or TCP, `GET /_ping`'s headers usually say it first: `identify`.)
    pub fn of(version: &SystemVersion) -> Engine {
        let podman = version.components.iter().flatten().any(|c| c.name.to_ascii_lowercase().starts_with("podman"));
        if podman {
            Engine::Podman
        } else {
            Engine::Docker
        }
    }
}

/// The body of a container create; `api` is the API version podrun speaks with the engine.
pub fn create_body(spec: &CreateSpec, engine: Engine, api: (usize, usize)) -> ContainerCreateBody {
    let mut host_config = HostConfig::default();
    let mut body = ContainerCreateBody {
        image: Some(spec.image.clone()),
        entrypoint: spec.entrypoint.clone(),
        cmd: spec.cmd.clone(),
        env: Some(spec.env.clone()),
        working_dir: spec.working_dir.clone(),
        labels: Some(spec.labels.clone().into_iter().collect()),
        stop_timeout: spec.stop_timeout,
        ..Default::default()
    };
    namespaces(&mut body, &mut host_config, &spec.namespaces, engine);
    settings(&mut body, &mut host_config, &spec.settings);
    if spec.pod_cgroup.is_some() {
        let uid = spec.labels.get(crate::runtime::labels::POD_UID).map_or("", String::as_str);
        host_config.cgroup_parent = Some(crate::runtime::pod_cgroup::parent(uid));
    }
    mounts(&mut host_config, &spec.mounts, engine);
    if engine == Engine::Docker && api >= crate::runtime::RECURSIVE_READ_ONLY_API {
        non_recursive_read_only(&mut host_config);
    }
    body.host_config = Some(host_config);
    body
}

fn namespaces(body: &mut ContainerCreateBody, hc: &mut HostConfig, ns: &Namespaces, engine: Engine) {
    match ns {
        Namespaces::Infra(net) => {
            body.hostname = net.hostname.clone();
            body.domainname = net.domainname.clone();
            hc.network_mode = match &net.mode {
                NetworkMode::Default => None,
                NetworkMode::Host => {
                    // The host's hostname too, as a hostNetwork pod has.
                    hc.uts_mode = Some("host".into());
                    Some("host".into())
                }
                NetworkMode::Named(n) => {
                    // On a user-defined network, other pods reach this one by its hostname.
                    let aliases = net.hostname.iter().cloned().collect();
                    let endpoint = EndpointSettings { aliases: Some(aliases), ..Default::default() };
                    body.networking_config =
                        Some(NetworkingConfig { endpoints_config: Some(HashMap::from([(n.clone(), endpoint)])) });
                    Some(n.clone())
                }
            };
            // Shareable, so the pod's containers can join the pod's IPC namespace.
            hc.ipc_mode = Some(if net.ipc_host { "host" } else { "shareable" }.into());
            if net.pid_host {
                hc.pid_mode = Some("host".into());
            }
            if !net.ports.is_empty() {
                let mut map: HashMap<String, Option<Vec<PortBinding>>> = HashMap::new();
                for p in &net.ports {
                    map.entry(format!("{}/{}", p.container_port, p.protocol))
                        .or_default()
                        .get_or_insert_with(Vec::new)
                        .push(PortBinding { host_ip: p.host_ip.clone(), host_port: Some(p.host_port.to_string()) });
                }
                body.exposed_ports = Some(map.keys().cloned().collect());
                hc.port_bindings = Some(map);
            }
            hc.extra_hosts = (!net.extra_hosts.is_empty()).then(|| net.extra_hosts.clone());
            hc.dns = (!net.dns.servers.is_empty()).then(|| net.dns.servers.clone());
            hc.dns_search = (!net.dns.searches.is_empty()).then(|| net.dns.searches.clone());
            hc.dns_options = (!net.dns.options.is_empty()).then(|| net.dns.options.clone());
            hc.sysctls = (!net.sysctls.is_empty()).then(|| net.sysctls.clone().into_iter().collect());
            // Podman's automatic user namespace with podrun's mappings given: it then needs no
            // /etc/subuid range of its own (`containers`), and the pod's range is podrun's. The
            // size is given too: without one, Podman 4.3 (containers/storage before 1.44) reads
            // the image's layers for it while holding its layers lock, and deadlocks its whole
            // storage against a container starting at the same time (podman#16062).
            hc.userns_mode = net.user_namespace.map(|r| {
                let map = format!("0:{}:{}", r.host_id, r.size);
                format!("auto:size={},uidmapping={map},gidmapping={map}", r.size)
            });
        }
        Namespaces::Join { infra_id, pid, ipc_host, userns, uts_host } => {
            if *userns {
                hc.userns_mode = Some(format!("container:{infra_id}"));
            }
            hc.network_mode = Some(format!("container:{infra_id}"));
            // The pod's hostname. Docker gives a container that joins another's network that
            // container's hostname (and refuses a `container:` UTS mode); Podman gives it a UTS
            // namespace of its own, named after its id, unless told to join the infra's.
            // On the host's network the pod's containers are in the host's UTS namespace, as
            // cri-dockerd puts them (a joined network alone leaves each a UTS namespace of its own).
            if *uts_host {
                hc.uts_mode = Some("host".into());
            } else if engine == Engine::Podman {
                hc.uts_mode = Some(format!("container:{infra_id}"));
            }
            hc.ipc_mode = Some(if *ipc_host { "host".into() } else { format!("container:{infra_id}") });
            hc.pid_mode = match pid {
                PidMode::Private => None,
                PidMode::Host => Some("host".into()),
                PidMode::Infra => Some(format!("container:{infra_id}")),
            };
        }
    }
}

fn settings(body: &mut ContainerCreateBody, hc: &mut HostConfig, s: &ContainerSettings) {
    body.user = s.user.clone();
    body.tty = s.tty.then_some(true);
    body.open_stdin = s.stdin.then_some(true);
    body.stdin_once = s.stdin_once.then_some(true);
    let some = |v: &Vec<String>| (!v.is_empty()).then(|| v.clone());
    hc.group_add = some(&s.group_add);
    hc.privileged = s.privileged.then_some(true);
    hc.cap_add = some(&s.cap_add);
    hc.cap_drop = some(&s.cap_drop);
    hc.readonly_rootfs = s.read_only_rootfs.then_some(true);
    hc.security_opt = some(&s.security_opt);
    if s.unmasked_proc {
        hc.masked_paths = Some(Vec::new());
        hc.readonly_paths = Some(Vec::new());
    }
    hc.cpu_quota = s.cpu.quota;
    hc.cpu_period = s.cpu.period;
    hc.cpu_shares = s.cpu.shares;
    hc.memory = s.memory_limit;
    hc.memory_reservation = s.memory_reservation;
    hc.oom_score_adj = s.oom_score_adj;
}

/// podrun's mounts as the `Mounts` list of the create request. `Mounts`, not `Binds`: a bind
/// whose source is missing is then an error instead of a directory the engine creates as root,
/// and it carries propagation and tmpfs options as fields rather than in a string to parse.
pub fn mounts(host_config: &mut HostConfig, mounts: &[Mount], engine: Engine) {
    if mounts.is_empty() {
        return;
    }
    host_config.mounts = Some(mounts.iter().map(|m| mount(m, engine)).collect());
}

/// From API 1.44 (Engine 25) Docker makes a read-only bind mount read-only all the way down
/// unless told not to; a Kubernetes `readOnly` mount without `recursiveReadOnly` is read-only
/// at the top only (its submounts keep their own modes), as older engines made it.
fn non_recursive_read_only(host_config: &mut HostConfig) {
    for m in host_config.mounts.iter_mut().flatten() {
        if m.typ != Some(MountType::BIND) || m.read_only != Some(true) {
            continue;
        }
        if let Some(options) = m.bind_options.as_mut().filter(|o| o.read_only_force_recursive != Some(true)) {
            options.read_only_non_recursive = Some(true);
        }
    }
}

fn mount(m: &Mount, engine: Engine) -> DockerMount {
    match m {
        Mount::Bind { source, target, read_only, propagation, recursive_read_only } => DockerMount {
            typ: Some(MountType::BIND),
            source: Some(source.clone()),
            target: Some(target.clone()),
            read_only: Some(*read_only),
            // Podman 5's compatible API makes any bind with BindOptions non-recursive (its
            // submounts left out; 4.3 kept them), and rprivate is its default: a private bind
            // goes without them there.
            bind_options: (engine == Engine::Docker || *propagation != Propagation::Private).then(|| {
                MountBindOptions {
                    propagation: Some(match propagation {
                        // Recursive, as the kubelet's CRI runtimes make every propagation mode.
                        Propagation::Private => MountBindOptionsPropagationEnum::RPRIVATE,
                        Propagation::HostToContainer => MountBindOptionsPropagationEnum::RSLAVE,
                        Propagation::Bidirectional => MountBindOptionsPropagationEnum::RSHARED,
                    }),
                    // Known to API 1.44 and later only; `DockerRuntime::create` refuses it before.
                    read_only_force_recursive: recursive_read_only.then_some(true),
                    ..Default::default()
                }
            }),
            ..Default::default()
        },
        Mount::Volume { name, target, read_only } => DockerMount {
            typ: Some(MountType::VOLUME),
            source: Some(name.clone()),
            target: Some(target.clone()),
            read_only: Some(*read_only),
            // Docker fills an empty volume with the image's files at the target; Kubernetes
            // never does.
            volume_options: Some(MountVolumeOptions { no_copy: Some(true), ..Default::default() }),
            ..Default::default()
        },
        Mount::Image { image, target, sub_path } => DockerMount {
            typ: Some(MountType::IMAGE),
            source: Some(image.clone()),
            target: Some(target.clone()),
            // An image mount is read-only on both; Podman refuses the `ro` option it would
            // become there ("invalid mount option").
            read_only: (engine == Engine::Docker).then_some(true),
            image_options: sub_path.as_ref().map(|s| MountImageOptions { subpath: Some(s.clone()) }),
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Docker leaves a container it could not start created, with the runtime's error and its
    /// own exit code (127 for a missing executable): a termination, as the CRI reports it.
    #[test]
    fn a_failed_start_is_a_start_error() {
        let inspect = |status, error: &str| ContainerInspectResponse {
            state: Some(bollard::models::ContainerState {
                status: Some(status),
                exit_code: Some(127),
                error: Some(error.to_owned()),
                ..Default::default()
            }),
            ..Default::default()
        };
        let failed = observed(inspect(ContainerStateStatusEnum::CREATED, "exec: \"/nope\": no such file"), || None);
        let State::Exited { exit_code: 128, error: Some(m), .. } = failed.state else { panic!("{failed:?}") };
        assert!(m.contains("/nope"));
        assert_eq!(observed(inspect(ContainerStateStatusEnum::CREATED, ""), || None).state, State::Created);
    }

    /// The size is given with the mappings: Podman 4.3 otherwise measures the image under its
    /// layers lock (podman#16062).
    #[test]
    fn a_pods_user_namespace_is_podmans_automatic_one_with_its_size_and_mappings() {
        let range = crate::runtime::IdRange { host_id: 131072, size: 65536 };
        let net = crate::runtime::PodNetwork { user_namespace: Some(range), ..Default::default() };
        let (mut body, mut hc) = (ContainerCreateBody::default(), HostConfig::default());
        namespaces(&mut body, &mut hc, &Namespaces::Infra(Box::new(net)), Engine::Podman);
        let mode = "auto:size=65536,uidmapping=0:131072:65536,gidmapping=0:131072:65536";
        assert_eq!(hc.userns_mode.as_deref(), Some(mode));
    }

    #[test]
    fn read_only_binds_stay_non_recursive_unless_asked() {
        let mut hc = HostConfig::default();
        let rro = Mount::Bind {
            source: "/h".into(),
            target: "/r".into(),
            read_only: true,
            propagation: Propagation::Private,
            recursive_read_only: true,
        };
        let binds = [Mount::bind("/h", "/w", false), Mount::bind("/h", "/ro", true), rro];
        mounts(&mut hc, &binds, Engine::Docker);
        non_recursive_read_only(&mut hc);
        let json = serde_json::to_value(&hc.mounts).unwrap();
        assert_eq!(json[0]["BindOptions"], serde_json::json!({"Propagation": "rprivate"}));
        assert_eq!(
            json[1]["BindOptions"],
            serde_json::json!({"Propagation": "rprivate", "ReadOnlyNonRecursive": true})
        );
        assert_eq!(
            json[2]["BindOptions"],
            serde_json::json!({"Propagation": "rprivate", "ReadOnlyForceRecursive": true})
        );
        let slave = Mount::Bind {
            source: "/h".into(),
            target: "/s".into(),
            read_only: false,
            propagation: Propagation::HostToContainer,
            recursive_read_only: false,
        };
        mounts(&mut hc, &[Mount::bind("/h", "/ro", true), slave], Engine::Podman);
        let json = serde_json::to_value(&hc.mounts).unwrap();
        assert_eq!(json[0].get("BindOptions"), None, "Podman 5 would leave the submounts out");
        assert_eq!(json[1]["BindOptions"], serde_json::json!({"Propagation": "rslave"}));
    }

    #[test]
    fn mounts_map_to_the_mounts_list() {
        let mut hc = HostConfig::default();
        mounts(&mut hc, &[], Engine::Docker);
        assert_eq!(hc.mounts, None, "no mounts: the field stays unset");
        mounts(
            &mut hc,
            &[
                Mount::bind("/h/f", "/dev/termination-log", false),
                Mount::Bind {
                    source: "/h/d".into(),
                    target: "/d".into(),
                    read_only: true,
                    propagation: Propagation::HostToContainer,
                    recursive_read_only: false,
                },
                Mount::Volume { name: "v".into(), target: "/v".into(), read_only: true },
                Mount::Image { image: "alpine:3".into(), target: "/i".into(), sub_path: Some("etc".into()) },
            ],
            Engine::Docker,
        );
        let json = serde_json::to_value(&hc.mounts).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"Type": "bind", "Source": "/h/f", "Target": "/dev/termination-log", "ReadOnly": false,
                 "BindOptions": {"Propagation": "rprivate"}},
                {"Type": "bind", "Source": "/h/d", "Target": "/d", "ReadOnly": true,
                 "BindOptions": {"Propagation": "rslave"}},
                {"Type": "volume", "Source": "v", "Target": "/v", "ReadOnly": true,
                 "VolumeOptions": {"NoCopy": true}},
                {"Type": "image", "Source": "alpine:3", "Target": "/i", "ReadOnly": true,
                 "ImageOptions": {"Subpath": "etc"}},
            ])
        );
        assert_eq!(hc.binds, None);
        let image = Mount::Image { image: "alpine:3".into(), target: "/i".into(), sub_path: None };
        mounts(&mut hc, &[image], Engine::Podman);
        assert_eq!(
            serde_json::to_value(&hc.mounts).unwrap(),
            serde_json::json!([{"Type": "image", "Source": "alpine:3", "Target": "/i"}]),
            "Podman refuses the ro option an image mount is anyway"
        );
    }
}
