//! The pod's /etc/hosts as the kubelet writes it (kubelet_pods.go: managedHostsFileContent,
//! nodeHostsFileContent, hostsEntriesFromHostAliases): one file per pod, in podrun's directory
//! for it, bind-mounted at /etc/hosts into every init and app container that does not mount
//! something else there. The engine's own hosts file would give each hostAliases hostname a
//! line of its own, after the engine's entries and without the kubelet's header.

use std::fmt::Write as _;

use crate::manifest::types::HostAlias;

/// Where the file is mounted.
pub const ETC_HOSTS: &str = "/etc/hosts";

const MANAGED_HEADER: &str = "# Kubernetes-managed hosts file.\n";
const MANAGED_HEADER_HOST_NETWORK: &str = "# Kubernetes-managed hosts file (host network).\n";

/// The hosts file of a pod on its own network: localhost, the pod's addresses with its
/// hostname (and FQDN under a subdomain), then the pod's hostAliases.
pub fn managed(pod_ips: &[String], hostname: &str, domain: Option<&str>, aliases: &[HostAlias]) -> String {
    let mut out = String::from(MANAGED_HEADER);
    out.push_str("127.0.0.1\tlocalhost\n");
    out.push_str("::1\tlocalhost ip6-localhost ip6-loopback\n");
    out.push_str("fe00::0\tip6-localnet\n");
    out.push_str("fe00::0\tip6-mcastprefix\n");
    out.push_str("fe00::1\tip6-allnodes\n");
    out.push_str("fe00::2\tip6-allrouters\n");
    for ip in pod_ips {
        let _ = match domain.filter(|d| !d.is_empty()) {
            Some(domain) => writeln!(out, "{ip}\t{hostname}.{domain}\t{hostname}"),
            None => writeln!(out, "{ip}\t{hostname}"),
        };
    }
    out.push_str(&aliases_section(aliases));
    out
}

/// The hosts file of a pod on the host's network: the host's own file, then the hostAliases.
pub fn host_network(host_file: &str, aliases: &[HostAlias]) -> String {
    format!("{MANAGED_HEADER_HOST_NETWORK}{host_file}{}", aliases_section(aliases))
}

/// One line per alias entry, its hostnames tab-separated, under the kubelet's comment.
fn aliases_section(aliases: &[HostAlias]) -> String {
    if aliases.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n# Entries added by HostAliases.\n");
    for a in aliases {
        let _ = writeln!(out, "{}\t{}", a.ip, a.hostnames.join("\t"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alias(ip: &str, names: &[&str]) -> HostAlias {
        HostAlias { ip: ip.into(), hostnames: names.iter().map(|&n| n.to_owned()).collect() }
    }

    #[test]
    fn the_kubelets_managed_file() {
        // As in kubelet_pods_test.go's TestManagedHostsFileContent.
        let aliases = [alias("123.45.67.89", &["foo", "bar", "baz"]), alias("456.78.90.123", &["park", "doo", "boo"])];
        let want = "# Kubernetes-managed hosts file.\n\
                    127.0.0.1\tlocalhost\n\
                    ::1\tlocalhost ip6-localhost ip6-loopback\n\
                    fe00::0\tip6-localnet\n\
                    fe00::0\tip6-mcastprefix\n\
                    fe00::1\tip6-allnodes\n\
                    fe00::2\tip6-allrouters\n\
                    203.0.113.1\tpodFoo.domainFoo\tpodFoo\n\
                    \n\
                    # Entries added by HostAliases.\n\
                    123.45.67.89\tfoo\tbar\tbaz\n\
                    456.78.90.123\tpark\tdoo\tboo\n";
        assert_eq!(managed(&["203.0.113.1".into()], "podFoo", Some("domainFoo"), &aliases), want);
        let plain = managed(&["203.0.113.1".into()], "podFoo", None, &[]);
        assert!(plain.ends_with("fe00::2\tip6-allrouters\n203.0.113.1\tpodFoo\n"), "{plain}");
    }

    #[test]
    fn on_the_host_network_the_hosts_own_file_comes_first() {
        let got = host_network("127.0.0.1\tlocalhost\n", &[alias("10.0.0.1", &["a", "b"])]);
        assert_eq!(
            got,
            "# Kubernetes-managed hosts file (host network).\n127.0.0.1\tlocalhost\n\n\
             # Entries added by HostAliases.\n10.0.0.1\ta\tb\n"
        );
    }
}
