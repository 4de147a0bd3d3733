//! `GET /containers/{id}/stats?stream=false&one-shot=true`: one sample of a container's usage,
//! read with a cap. Docker gives the cgroup's memory stats (`inactive_file` on cgroup v2,
//! `total_inactive_file` on v1); Podman's compatible answer has the usage alone, which is then
//! the working set, as `podman stats` shows it.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{raw, DockerRuntime};
use crate::runtime::stats::{working_set, Usage};
use crate::runtime::{BadAnswer, Cause, RuntimeError};

/// The most of an answer read: a sample is a few KiB (more with one line per CPU).
const MAX_ANSWER: usize = 1 << 20;

#[derive(Debug, Deserialize)]
struct Answer {
    read: Option<String>,
    cpu_stats: Option<CpuStats>,
    memory_stats: Option<MemoryStats>,
}

#[derive(Debug, Deserialize)]
struct CpuStats {
    cpu_usage: Option<CpuUsage>,
}

#[derive(Debug, Deserialize)]
struct CpuUsage {
    total_usage: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct MemoryStats {
    usage: Option<u64>,
    stats: Option<BTreeMap<String, serde_json::Value>>,
}

pub(super) async fn stats(rt: &DockerRuntime, id: &str) -> Result<Option<Usage>, RuntimeError> {
    let what = format!("stats of container {id}");
    let path = format!("/v{}/containers/{id}/stats?stream=false&one-shot=true", rt.api_version());
    let body = match raw::get(&rt.dialer, &rt.endpoint.to_string(), &what, &path, MAX_ANSWER).await {
        Ok(body) => body,
        Err(RuntimeError::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let answer: Answer = serde_json::from_slice(&body)
        .map_err(|e| RuntimeError::Protocol { what, why: BadAnswer::NotJson(Cause(std::sync::Arc::new(e))) })?;
    Ok(Some(usage(&answer)))
}

fn usage(a: &Answer) -> Usage {
    let memory = a.memory_stats.as_ref();
    let inactive = memory.and_then(|m| m.stats.as_ref()).and_then(|s| {
        // cgroup v1 counts the hierarchy in total_inactive_file; v2 has inactive_file alone.
        s.get("total_inactive_file").or_else(|| s.get("inactive_file")).and_then(serde_json::Value::as_u64)
    });
    Usage {
        cpu_total_ns: a.cpu_stats.as_ref().and_then(|c| c.cpu_usage.as_ref()).and_then(|u| u.total_usage),
        nano_cores: None,
        // A stopped container's sample is dated year 1, which is no time to measure from.
        sampled: a
            .read
            .as_deref()
            .and_then(|r| humantime::parse_rfc3339(r).ok())
            .filter(|t| *t > std::time::UNIX_EPOCH),
        working_set: memory.and_then(|m| m.usage).map(|u| working_set(u, inactive)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(json: &str) -> Usage {
        usage(&serde_json::from_str(json).unwrap())
    }

    #[test]
    fn docker_s_and_podman_s_samples() {
        let v1 = of(r#"{"read":"2026-12-06T08:17:41.799671582Z","cpu_stats":{"cpu_usage":{"total_usage":21387985}},
            "memory_stats":{"usage":7340032,"stats":{"inactive_file":1,"total_inactive_file":2097152}}}"#);
        assert_eq!(v1.cpu_total_ns, Some(21_387_985));
        assert_eq!(v1.working_set, Some(5 << 20));
        assert!(v1.sampled.is_some());
        let v2 = of(
            r#"{"cpu_stats":{"cpu_usage":{"total_usage":5}},"memory_stats":{"usage":3145728,"stats":{"inactive_file":1048576}}}"#,
        );
        assert_eq!(v2.working_set, Some(2 << 20));
        let podman = of(
            r#"{"read":"0001-01-01T00:00:00Z","cpu_stats":{"cpu_usage":{"total_usage":9}},"memory_stats":{"usage":2490368,"limit":1}}"#,
        );
        assert_eq!((podman.working_set, podman.sampled), (Some(2_490_368), None));
        assert_eq!(of("{}"), Usage::default());
    }
}
