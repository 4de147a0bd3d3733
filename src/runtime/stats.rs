//! A container's resource usage as the engine samples it now, for `podrun top`: the CPU time it
//! has used (and the engine's own rate, where it computes one) and its memory working set.

use std::time::SystemTime;

/// One sample of a container's usage. Every field is what the engine gave, if it gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// CPU time used since the container started, in nanoseconds.
    pub cpu_total_ns: Option<u64>,
    /// The CPU rate the engine computed itself, in nanocores (a CRI runtime's
    /// `usage_nano_cores`; containerd 1.6 leaves it out).
    pub nano_cores: Option<u64>,
    /// When the engine took the sample, by its clock.
    pub sampled: Option<SystemTime>,
    /// The memory working set in bytes: usage less inactive file pages, as cAdvisor counts it.
    pub working_set: Option<u64>,
}

/// The working set as cAdvisor computes it (`setMemoryStats`): usage less the inactive file
/// pages, which the kernel reclaims first; never below 0.
#[must_use]
pub fn working_set(usage: u64, inactive_file: Option<u64>) -> u64 {
    usage.saturating_sub(inactive_file.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_set_leaves_out_inactive_file_pages() {
        assert_eq!(working_set(10 << 20, Some(4 << 20)), 6 << 20);
        assert_eq!(working_set(10 << 20, None), 10 << 20);
        assert_eq!(working_set(1, Some(5)), 0, "never below 0");
    }
}
