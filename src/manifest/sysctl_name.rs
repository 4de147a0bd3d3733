//! A sysctl's name as the kernel's `/proc/sys` path reads with dots: Kubernetes accepts `/` as
//! the separator too (`kernel/shm_rmid_forced`), and the kubelet converts such a name before it
//! reaches the runtime (component-helpers' `ConvertSysctlVariableToDotsSeparator`), since
//! runtimes take only the dotted form (Podman refuses the other).

/// The dotted form of `name`. When its first separator is a `/`, every `/` becomes a `.` and
/// every `.` a `/` (in `net/ipv4/conf/eno2.100/rp_filter` the dot is part of an interface's
/// name); otherwise it is already dotted.
pub fn dotted(name: &str) -> String {
    match name.find(['.', '/']) {
        Some(i) if name.as_bytes()[i] == b'/' => name
            .chars()
            .map(|c| match c {
                '.' => '/',
                '/' => '.',
                c => c,
            })
            .collect(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::dotted;

    /// The cases of the kubelet's TestConvertSysctlVariableToDotsSeparator.
    #[test]
    fn slashes_become_dots_and_dots_in_names_slashes() {
        for (given, want) in [
            ("kernel.shm_rmid_forced", "kernel.shm_rmid_forced"),
            ("kernel/shm_rmid_forced", "kernel.shm_rmid_forced"),
            ("net.ipv4.conf.eno2/100.rp_filter", "net.ipv4.conf.eno2/100.rp_filter"),
            ("net/ipv4/conf/eno2.100/rp_filter", "net.ipv4.conf.eno2/100.rp_filter"),
            ("net/ipv4/ip_local_port_range", "net.ipv4.ip_local_port_range"),
            ("kernel/msgmax", "kernel.msgmax"),
            ("kernel/sem", "kernel.sem"),
            ("kernel", "kernel"),
            ("", ""),
        ] {
            assert_eq!(dotted(given), want, "{given}");
        }
    }
}
