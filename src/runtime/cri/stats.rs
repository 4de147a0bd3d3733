//! `ContainerStats`: one sample of a container's usage from a CRI runtime. The runtime gives the
//! working set itself, and the CPU rate (`usage_nano_cores`) where it computes one: containerd
//! 1.6 does not, and the rate is then made from two samples of `usage_core_nano_seconds`.

use std::time::{Duration, SystemTime};

use super::generated::api;
use super::CriRuntime;
use crate::runtime::stats::Usage;
use crate::runtime::RuntimeError;

pub(super) async fn stats(rt: &CriRuntime, id: &str) -> Result<Option<Usage>, RuntimeError> {
    let mut client = rt.channel.runtime.clone();
    match client.container_stats(api::ContainerStatsRequest { container_id: id.to_owned() }).await {
        Ok(r) => Ok(Some(r.into_inner().stats.map(|s| usage(&s)).unwrap_or_default())),
        Err(e) if e.code() == tonic::Code::NotFound => Ok(None),
        Err(e) => Err(rt.error(&format!("stats of container {id}"), e)),
    }
}

fn usage(s: &api::ContainerStats) -> Usage {
    let cpu = s.cpu.as_ref();
    Usage {
        cpu_total_ns: cpu.and_then(|c| c.usage_core_nano_seconds.as_ref()).map(|v| v.value),
        nano_cores: cpu.and_then(|c| c.usage_nano_cores.as_ref()).map(|v| v.value),
        sampled: cpu
            .and_then(|c| u64::try_from(c.timestamp).ok())
            .filter(|&ns| ns > 0)
            .map(|ns| SystemTime::UNIX_EPOCH + Duration::from_nanos(ns)),
        working_set: s.memory.as_ref().and_then(|m| m.working_set_bytes.as_ref()).map(|v| v.value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_with_and_without_the_runtime_s_rate() {
        let mut s = api::ContainerStats {
            cpu: Some(api::CpuUsage {
                timestamp: 1_000_000_000,
                usage_core_nano_seconds: Some(api::UInt64Value { value: 42 }),
                usage_nano_cores: None,
                psi: None,
            }),
            memory: Some(api::MemoryUsage {
                working_set_bytes: Some(api::UInt64Value { value: 7 << 20 }),
                ..api::MemoryUsage::default()
            }),
            ..api::ContainerStats::default()
        };
        let u = usage(&s);
        assert_eq!((u.cpu_total_ns, u.nano_cores, u.working_set), (Some(42), None, Some(7 << 20)));
        assert_eq!(u.sampled, Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1)));
        s.cpu.as_mut().unwrap().usage_nano_cores = Some(api::UInt64Value { value: 5_000_000 });
        assert_eq!(usage(&s).nano_cores, Some(5_000_000));
        assert_eq!(usage(&api::ContainerStats::default()), Usage::default());
    }
}
