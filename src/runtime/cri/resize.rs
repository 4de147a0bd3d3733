//! In-place resize through the CRI (InPlacePodVerticalScaling): UpdateContainerResources with
//! the resources the kubelet gives on create, and what a container has now, from the runtime's
//! own report (`ContainerStatus.resources`) where it gives one.

use super::{api, container, CriRuntime};
use crate::runtime::{labels, ContainerSettings, CpuSettings, Observed, RuntimeError};

/// Sets a running container's CPU and memory, as the kubelet's updateContainerResources does,
/// and remembers what was set for [`report`].
pub(super) async fn update(rt: &CriRuntime, c: &Observed, s: &ContainerSettings) -> Result<(), RuntimeError> {
    rt.ensure_owned("resize", c)?;
    rt.channel
        .runtime
        .clone()
        .update_container_resources(api::UpdateContainerResourcesRequest {
            container_id: c.id.clone(),
            linux: Some(container::resources(s)),
            ..Default::default()
        })
        .await
        .map_err(|st| rt.error(&format!("resize container {}", c.name), st))?;
    rt.resized.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(c.id.clone(), s.resources_text());
    Ok(())
}

/// Sets `labels::RESOURCES_NOW` on a listed container: the CPU and memory limit the runtime
/// reports, and the memory request (which no CRI knob holds) as this process last set it, else
/// as the container was made. A runtime that reports none: what this process last set, if
/// anything (else the container's label stands, and a resize is sent again by another run).
pub(super) fn report(o: &mut Observed, reported: Option<&api::LinuxContainerResources>, set: Option<&str>) {
    let reservation = set.or(o.label(labels::RESOURCES)).and_then(reservation_of);
    let now = match reported {
        Some(r) => {
            let positive = |v: i64| (v > 0).then_some(v);
            let cpu = CpuSettings {
                quota: positive(r.cpu_quota),
                period: positive(r.cpu_period),
                shares: positive(r.cpu_shares),
            };
            Some(crate::runtime::resources_text(cpu, positive(r.memory_limit_in_bytes), reservation))
        }
        None => set.map(str::to_owned),
    };
    if let Some(now) = now {
        o.labels.insert(labels::RESOURCES_NOW.to_owned(), now);
    }
}

/// The memory request of a resources text (`memory=LIMIT/RESERVATION`), if set.
fn reservation_of(text: &str) -> Option<i64> {
    let memory = crate::runtime::resources_parts(text).1?;
    memory.split('/').nth(1)?.parse().ok().filter(|&v: &i64| v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(text: &str) -> Observed {
        let mut o = super::super::observe::observed(api::ContainerStatus::default());
        o.labels.insert(labels::RESOURCES.to_owned(), text.to_owned());
        o
    }

    #[test]
    fn the_runtimes_report_wins_with_the_memory_request_as_set() {
        let reported = api::LinuxContainerResources {
            cpu_quota: 30_000,
            cpu_period: 100_000,
            cpu_shares: 102,
            memory_limit_in_bytes: 100_663_296,
            ..Default::default()
        };
        let mut o = made("cpu=20000/100000/102,memory=67108864/33554432");
        report(&mut o, Some(&reported), None);
        assert_eq!(o.label(labels::RESOURCES_NOW), Some("cpu=30000/100000/102,memory=100663296/33554432"));
        report(&mut o, Some(&reported), Some("cpu=30000/100000/102,memory=100663296/50331648"));
        assert_eq!(o.label(labels::RESOURCES_NOW), Some("cpu=30000/100000/102,memory=100663296/50331648"));
    }

    #[test]
    fn without_a_report_what_was_set_else_the_label() {
        let mut o = made("cpu=0/0/2,memory=0/0");
        report(&mut o, None, None);
        assert_eq!(o.label(labels::RESOURCES_NOW), None);
        report(&mut o, None, Some("cpu=0/0/102,memory=0/0"));
        assert_eq!(o.label(labels::RESOURCES_NOW), Some("cpu=0/0/102,memory=0/0"));
    }
}
