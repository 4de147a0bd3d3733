//! Container statuses for unit tests, so each test names only what its case is about.

use super::{ContainerState, ContainerStatus, Running, Terminated};

/// `name` in `state`: not ready, not started, never restarted, no engine id.
pub fn container(name: &str, state: ContainerState) -> ContainerStatus {
    ContainerStatus {
        name: name.into(),
        state,
        last_state: ContainerState::default(),
        ready: false,
        restart_count: 0,
        image: "busybox".into(),
        image_id: String::new(),
        container_id: None,
        started: false,
        resources: None,
        allocated_resources: None,
    }
}

/// Running, since a time the test does not care about.
pub fn running() -> ContainerState {
    ContainerState { running: Some(Running { started_at: None }), ..Default::default() }
}

/// Terminated with `code` and `reason`.
pub fn terminated(reason: &str, code: i64) -> ContainerState {
    ContainerState {
        terminated: Some(Terminated {
            exit_code: code,
            reason: reason.into(),
            message: None,
            started_at: None,
            finished_at: None,
            container_id: None,
        }),
        ..Default::default()
    }
}

/// Terminated with `code`, with the runtime's reason for it (`Completed` or `Error`).
pub fn exited(code: i64) -> ContainerState {
    terminated(if code == 0 { "Completed" } else { "Error" }, code)
}

/// An engine container of pod `ns/pod` (uid `uid-1`) as podrun labels it, running since `at`.
pub fn engine_container(ns: &str, pod: &str, container: &str, role: &str, at: &str) -> crate::runtime::Observed {
    use crate::runtime::labels;
    let labels = [
        (labels::MANAGED, labels::MANAGED_VALUE),
        (labels::POD_NAMESPACE, ns),
        (labels::POD_NAME, pod),
        (labels::POD_UID, "uid-1"),
        (labels::CONTAINER_NAME, container),
        (labels::ROLE, role),
        (labels::ATTEMPT, "0"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    crate::runtime::Observed {
        id: format!("{ns}-{pod}-{container}-0"),
        name: format!("podrun_{ns}_{pod}_{container}_0"),
        labels,
        image: "busybox:1.28".into(),
        image_id: "sha256:abc".into(),
        state: crate::runtime::State::Running { started_at: Some(at.into()) },
        ip: (role == "infra").then(|| "172.17.0.5".into()),
        gateway: None,
        sealed: true,
        scheme: crate::runtime::IdScheme::default(),
    }
}
