//! Mapping between podrun's runtime types and the Docker API's.

use bollard::models::{ContainerCreateBody, ContainerInspectResponse, ContainerStateStatusEnum, HostConfig};

use crate::runtime::{CreateSpec, Namespaces, Observed, State};

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
    if !spec.mounts.is_empty() {
        host_config.binds = Some(
            spec.mounts
                .iter()
                .map(|m| format!("{}:{}{}", m.source, m.target, if m.read_only { ":ro" } else { "" }))
                .collect(),
        );
    }
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
