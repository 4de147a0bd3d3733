//! Mapping between podrun's runtime types and the Docker API's.

use bollard::models::{
    ContainerCreateBody, ContainerInspectResponse, ContainerStateStatusEnum, HostConfig, Mount as DockerMount,
    MountBindOptions, MountBindOptionsPropagationEnum, MountTmpfsOptions, MountType, MountVolumeOptions,
};

use crate::runtime::{CreateSpec, Mount, Namespaces, Observed, Propagation, State};

/// Docker reports unset times as the zero time.
fn time(t: Option<String>) -> Option<String> {
    t.filter(|t| !t.is_empty() && !t.starts_with("0001-01-01"))
}

pub fn observed(c: ContainerInspectResponse) -> Observed {
    let config = c.config.unwrap_or_default();
    let st = c.state.unwrap_or_default();
    let state = match st.status {
        Some(ContainerStateStatusEnum::CREATED) => State::Created,
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
    let ip = c.network_settings.and_then(|n| n.networks).and_then(|nets| {
        let mut nets: Vec<_> = nets.into_iter().collect();
        // Several networks: pick by name so the answer does not depend on map order.
        nets.sort_by(|a, b| a.0.cmp(&b.0));
        nets.into_iter().find_map(|(_, e)| e.ip_address.filter(|ip| !ip.is_empty()))
    });
    Observed {
        id: c.id.unwrap_or_default(),
        name: c.name.unwrap_or_default().trim_start_matches('/').to_owned(),
        labels: config.labels.unwrap_or_default().into_iter().collect(),
        image: config.image.unwrap_or_default(),
        image_id: c.image.unwrap_or_default(),
        state,
        ip,
    }
}

pub fn create_body(spec: &CreateSpec) -> ContainerCreateBody {
    let (hostname, host_config) = match &spec.namespaces {
        Namespaces::Infra { hostname } => (
            Some(hostname.clone()),
            HostConfig {
                // Shareable, so the app containers can join the pod's IPC namespace.
                ipc_mode: Some("shareable".into()),
                ..Default::default()
            },
        ),
        Namespaces::Join { infra_id } => (
            None,
            HostConfig {
                network_mode: Some(format!("container:{infra_id}")),
                ipc_mode: Some(format!("container:{infra_id}")),
                ..Default::default()
            },
        ),
    };
    let mut host_config = host_config;
    mounts(&mut host_config, &spec.mounts);
    ContainerCreateBody {
        image: Some(spec.image.clone()),
        hostname,
        entrypoint: spec.entrypoint.clone(),
        cmd: spec.cmd.clone(),
        env: Some(spec.env.clone()),
        working_dir: spec.working_dir.clone(),
        labels: Some(spec.labels.clone().into_iter().collect()),
        stop_timeout: spec.stop_timeout,
        host_config: Some(host_config),
        ..Default::default()
    }
}

/// podrun's mounts as the `Mounts` list of the create request. `Mounts`, not `Binds`: a bind
/// whose source is missing is then an error instead of a directory the engine creates as root,
/// and it carries propagation and tmpfs options as fields rather than in a string to parse.
pub fn mounts(host_config: &mut HostConfig, mounts: &[Mount]) {
    if mounts.is_empty() {
        return;
    }
    host_config.mounts = Some(mounts.iter().map(mount).collect());
}

fn mount(m: &Mount) -> DockerMount {
    match m {
        Mount::Bind { source, target, read_only, propagation, recursive_read_only } => DockerMount {
            typ: Some(MountType::BIND),
            source: Some(source.clone()),
            target: Some(target.clone()),
            read_only: Some(*read_only),
            bind_options: Some(MountBindOptions {
                propagation: Some(match propagation {
                    // Recursive, as the kubelet's CRI runtimes make every propagation mode.
                    Propagation::Private => MountBindOptionsPropagationEnum::RPRIVATE,
                    Propagation::HostToContainer => MountBindOptionsPropagationEnum::RSLAVE,
                    Propagation::Bidirectional => MountBindOptionsPropagationEnum::RSHARED,
                }),
                // Known to API 1.44 and later only; `DockerRuntime::create` refuses it before.
                read_only_force_recursive: recursive_read_only.then_some(true),
                ..Default::default()
            }),
            ..Default::default()
        },
        Mount::Tmpfs { target, size_bytes, mode } => DockerMount {
            typ: Some(MountType::TMPFS),
            target: Some(target.clone()),
            tmpfs_options: Some(MountTmpfsOptions {
                size_bytes: size_bytes.map(|b| i64::try_from(b).unwrap_or(i64::MAX)),
                mode: mode.map(i64::from),
                ..Default::default()
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_map_to_the_mounts_list() {
        let mut hc = HostConfig::default();
        mounts(&mut hc, &[]);
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
                Mount::Tmpfs { target: "/t".into(), size_bytes: Some(1 << 20), mode: Some(0o1777) },
                Mount::Volume { name: "v".into(), target: "/v".into(), read_only: true },
            ],
        );
        let json = serde_json::to_value(&hc.mounts).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"Type": "bind", "Source": "/h/f", "Target": "/dev/termination-log", "ReadOnly": false,
                 "BindOptions": {"Propagation": "rprivate"}},
                {"Type": "bind", "Source": "/h/d", "Target": "/d", "ReadOnly": true,
                 "BindOptions": {"Propagation": "rslave"}},
                {"Type": "tmpfs", "Target": "/t", "TmpfsOptions": {"SizeBytes": 1048576, "Mode": 1023}},
                {"Type": "volume", "Source": "v", "Target": "/v", "ReadOnly": true,
                 "VolumeOptions": {"NoCopy": true}},
            ])
        );
        assert_eq!(hc.binds, None);
    }
}
