//! `podrun top pod`'s figures and table, as `kubectl top pod` prints them
//! (staging/src/k8s.io/kubectl/pkg/metricsutil/metrics_printer.go): CPU in millicores, rounded
//! up as `Quantity.MilliValue` rounds, and memory in Mi, rounded down.

use std::time::{Duration, Instant};

use crate::escape::escape;
use crate::runtime::stats::Usage;

/// One container's usage: the rate and the working set, in nanocores and bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rate {
    pub nano_cores: u64,
    pub bytes: u64,
}

/// One sample and when podrun took it (for engines that date none).
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub usage: Usage,
    pub taken: Instant,
}

/// The rate between two samples of one container: the engine's own rate where it gives one,
/// else the CPU time used between them over the time between them (the engine's dates, else
/// podrun's). None when neither sample says enough.
pub fn rate(first: &Sample, second: Option<&Sample>) -> Option<Rate> {
    let last = second.unwrap_or(first);
    let bytes = last.usage.working_set.unwrap_or(0);
    if let Some(nano_cores) = last.usage.nano_cores {
        return Some(Rate { nano_cores, bytes });
    }
    let second = second?;
    let used = second.usage.cpu_total_ns?.saturating_sub(first.usage.cpu_total_ns?);
    let engine = match (first.usage.sampled, second.usage.sampled) {
        (Some(a), Some(b)) => b.duration_since(a).ok(),
        _ => None,
    };
    let between = engine.filter(|d| !d.is_zero()).unwrap_or_else(|| second.taken.duration_since(first.taken));
    if between < Duration::from_millis(1) {
        return None;
    }
    let nano_cores = u128::from(used) * 1_000_000_000 / between.as_nanos();
    Some(Rate { nano_cores: u64::try_from(nano_cores).unwrap_or(u64::MAX), bytes })
}

/// Whether a second sample is needed for a rate: some engine gave no rate of its own.
pub fn needs_second(samples: &[Sample]) -> bool {
    samples.iter().any(|s| s.usage.nano_cores.is_none())
}

/// CPU as kubectl prints it: millicores, rounded up.
pub fn cpu(nano_cores: u64) -> String {
    format!("{}m", nano_cores.div_ceil(1_000_000))
}

/// Memory as kubectl prints it: Mi, rounded down.
pub fn memory(bytes: u64) -> String {
    format!("{}Mi", bytes / (1024 * 1024))
}

/// One row: where it is (namespace, pod, container, as the table shows them) and its rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub namespace: String,
    pub pod: String,
    pub container: Option<String>,
    pub rate: Rate,
}

/// The table: NAME (or POD and NAME with containers), CPU(cores), MEMORY(bytes), NAMESPACE
/// first with `namespaces`; columns three spaces apart, as kubectl's tabwriter pads them.
pub fn table(rows: &[Row], namespaces: bool, containers: bool, headers: bool) -> String {
    let mut header = if containers { vec!["POD", "NAME"] } else { vec!["NAME"] };
    header.extend(["CPU(cores)", "MEMORY(bytes)"]);
    if namespaces {
        header.insert(0, "NAMESPACE");
    }
    let mut lines: Vec<Vec<String>> = Vec::new();
    if headers {
        lines.push(header.into_iter().map(String::from).collect());
    }
    for r in rows {
        let mut line = vec![r.pod.clone()];
        if let Some(c) = &r.container {
            line.push(c.clone());
        }
        line.extend([cpu(r.rate.nano_cores), memory(r.rate.bytes)]);
        if namespaces {
            line.insert(0, r.namespace.clone());
        }
        lines.push(line.iter().map(|cell| escape(cell).into_owned()).collect());
    }
    let columns = lines.first().map_or(0, Vec::len);
    let widths: Vec<usize> =
        (0..columns).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for l in lines {
        let cells: Vec<String> = l.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(cells.join("   ").trim_end());
        out.push('\n');
    }
    out
}

/// The rows of whole pods: each pod's containers summed, in the order of `rows`.
pub fn by_pod(rows: &[Row]) -> Vec<Row> {
    let mut pods: Vec<Row> = Vec::new();
    for r in rows {
        match pods.iter_mut().find(|p| p.namespace == r.namespace && p.pod == r.pod) {
            Some(p) => {
                p.rate.nano_cores = p.rate.nano_cores.saturating_add(r.rate.nano_cores);
                p.rate.bytes = p.rate.bytes.saturating_add(r.rate.bytes);
            }
            None => pods.push(Row { container: None, ..r.clone() }),
        }
    }
    pods
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;

    fn sample(cpu_ns: u64, at_ms: Option<u64>, taken: Instant) -> Sample {
        let sampled = at_ms.map(|ms| SystemTime::UNIX_EPOCH + Duration::from_millis(ms));
        Sample {
            usage: Usage { cpu_total_ns: Some(cpu_ns), sampled, working_set: Some(5 << 20), ..Usage::default() },
            taken,
        }
    }

    #[test]
    fn the_rate_is_the_engine_s_or_made_from_two_samples() {
        let t0 = Instant::now();
        let t1 = t0 + Duration::from_secs(1);
        // 250 ms of CPU time over 500 ms, by the engine's dates: half a core.
        let r = rate(&sample(1_000_000_000, Some(10_000), t0), Some(&sample(1_250_000_000, Some(10_500), t1)));
        assert_eq!(r, Some(Rate { nano_cores: 500_000_000, bytes: 5 << 20 }));
        // Undated samples: podrun's own times.
        let r = rate(&sample(0, None, t0), Some(&sample(10_000_000, None, t1)));
        assert_eq!(r.map(|r| r.nano_cores), Some(10_000_000));
        // The runtime's own rate wins, and needs no second sample.
        let mut own = sample(0, None, t0);
        own.usage.nano_cores = Some(3_000_000);
        assert_eq!(rate(&own, None).map(|r| r.nano_cores), Some(3_000_000));
        assert!(!needs_second(&[own]));
        assert!(needs_second(&[own, sample(0, None, t0)]));
        // One sample without a rate, or a counter gone back (a restart): no rise, no panic.
        assert_eq!(rate(&sample(5, None, t0), None), None);
        let back = rate(&sample(50, None, t0), Some(&sample(10, None, t1)));
        assert_eq!(back.map(|r| r.nano_cores), Some(0));
        assert_eq!(rate(&sample(0, None, t0), Some(&sample(10, None, t0))), None, "no time between");
    }

    #[test]
    fn figures_as_kubectl_prints_them() {
        assert_eq!(cpu(0), "0m");
        assert_eq!(cpu(1), "1m", "rounded up");
        assert_eq!(cpu(1_000_000), "1m");
        assert_eq!(cpu(1_500_000_000), "1500m");
        assert_eq!(memory(0), "0Mi");
        assert_eq!(memory((3 << 20) - 1), "2Mi", "rounded down");
        assert_eq!(memory(1 << 30), "1024Mi");
    }

    #[test]
    fn pods_sum_their_containers_and_the_table_is_kubectl_s() {
        let row = |ns: &str, pod: &str, c: &str, m: u64, mi: u64| Row {
            namespace: ns.into(),
            pod: pod.into(),
            container: Some(c.into()),
            rate: Rate { nano_cores: m * 1_000_000, bytes: mi << 20 },
        };
        let rows =
            [row("default", "web", "app", 2, 10), row("default", "web", "side", 1, 5), row("x", "db", "db", 0, 1)];
        let pods = by_pod(&rows);
        assert_eq!(pods.len(), 2);
        assert_eq!(pods[0].rate, Rate { nano_cores: 3_000_000, bytes: 15 << 20 });
        assert_eq!(
            table(&pods, false, false, true),
            "NAME   CPU(cores)   MEMORY(bytes)\nweb    3m           15Mi\ndb     0m           1Mi\n"
        );
        assert_eq!(table(&rows[..1], true, true, false), "default   web   app   2m   10Mi\n");
        assert!(table(&rows, false, true, true).starts_with("POD   NAME   CPU(cores)   MEMORY(bytes)\n"));
    }
}
