//! The pod's resolver configuration by the kubelet's rule (pkg/kubelet/network/dns): under
//! every dnsPolicy but `None`, `dnsConfig` is *added* to the host's resolv.conf (nameservers
//! and searches appended without duplicates, options merged by name, the pod's winning).
//!
//! The engine cannot append: a nameserver, search or option list given to it replaces the
//! host's list of that kind. So where the pod adds to a list, podrun reads the host's
//! resolv.conf as the engine does and gives the engine the whole merged list; lists the pod
//! does not touch are left to the engine, which copies the host's.

use std::collections::BTreeMap;
use std::net::IpAddr;

use crate::runtime::DnsSettings;

/// The kubelet's limits (validation.MaxDNSNameservers, MaxDNSSearchPaths): the extra entries
/// are dropped, with a warning.
const MAX_NAMESERVERS: usize = 3;
const MAX_SEARCHES: usize = 32;

/// What a resolv.conf says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolvConf {
    pub servers: Vec<String>,
    pub searches: Vec<String>,
    /// `name` or `name:value`, as resolv.conf writes them.
    pub options: Vec<String>,
}

impl ResolvConf {
    /// Parses resolv.conf(5): the last `search` or `domain` line gives the search list, as in
    /// the C library; comments and unknown lines are skipped.
    pub fn parse(text: &str) -> ResolvConf {
        let mut rc = ResolvConf::default();
        for line in text.lines() {
            let line = line.split(['#', ';']).next().unwrap_or_default();
            let mut words = line.split_whitespace();
            match words.next() {
                Some("nameserver") => rc.servers.extend(words.next().map(str::to_owned)),
                Some("search" | "domain") => rc.searches = words.map(str::to_owned).collect(),
                Some("options") => rc.options.extend(words.map(str::to_owned)),
                _ => {}
            }
        }
        rc
    }

    /// The host's resolver, read as Docker reads it: /etc/resolv.conf, or, when that names only
    /// a local stub (systemd-resolved's 127.0.0.53), the upstream file behind it. None when it
    /// cannot be read.
    pub fn of_host() -> Option<ResolvConf> {
        let etc = ResolvConf::parse(&std::fs::read_to_string("/etc/resolv.conf").ok()?);
        if !etc.servers.is_empty() && etc.servers.iter().all(|s| is_loopback(s)) {
            if let Ok(text) = std::fs::read_to_string("/run/systemd/resolve/resolv.conf") {
                return Some(ResolvConf::parse(&text));
            }
        }
        Some(etc)
    }
}

fn is_loopback(server: &str) -> bool {
    server.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn push_unique(list: &mut Vec<String>, items: impl IntoIterator<Item = String>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

/// `pod` (the pod's dnsConfig, as settings) added to `host`'s resolver, list by list, with
/// warnings for what had to be dropped. `host_network`: the pod shares the host's network, so
/// the host's loopback nameservers work in it; in a pod network the engine drops them, and so
/// does podrun.
pub fn add_to_host(host: &ResolvConf, pod: &DnsSettings, host_network: bool) -> (DnsSettings, Vec<String>) {
    let mut warnings = Vec::new();
    let mut out = DnsSettings::default();
    if !pod.servers.is_empty() {
        let reachable = host.servers.iter().filter(|s| host_network || !is_loopback(s)).cloned();
        push_unique(&mut out.servers, reachable);
        push_unique(&mut out.servers, pod.servers.iter().cloned());
        if out.servers.len() > MAX_NAMESERVERS {
            let dropped = out.servers.split_off(MAX_NAMESERVERS);
            warnings.push(format!(
                "spec.dnsConfig.nameservers: the host's and the pod's nameservers make more than {MAX_NAMESERVERS}; \
                 dropped {} (as the kubelet does)",
                dropped.join(", ")
            ));
        }
    }
    if !pod.searches.is_empty() {
        push_unique(&mut out.searches, host.searches.iter().cloned());
        push_unique(&mut out.searches, pod.searches.iter().cloned());
        if out.searches.len() > MAX_SEARCHES {
            let dropped = out.searches.split_off(MAX_SEARCHES);
            warnings.push(format!(
                "spec.dnsConfig.searches: the host's and the pod's search domains make more than {MAX_SEARCHES}; \
                 dropped {}",
                dropped.join(", ")
            ));
        }
    }
    if !pod.options.is_empty() {
        // By name, the pod's replacing the host's; in the order first seen.
        let mut merged: Vec<(String, Option<String>)> = Vec::new();
        let mut index = BTreeMap::new();
        for opt in host.options.iter().chain(&pod.options) {
            let (name, value) = match opt.split_once(':') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => (opt.clone(), None),
            };
            match index.get(&name) {
                Some(&i) => merged[i] = (name, value),
                None => {
                    index.insert(name.clone(), merged.len());
                    merged.push((name, value));
                }
            }
        }
        out.options = merged.into_iter().map(|(n, v)| v.map_or(n.clone(), |v| format!("{n}:{v}"))).collect();
    }
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    fn settings(servers: &[&str], searches: &[&str], options: &[&str]) -> DnsSettings {
        DnsSettings { servers: strings(servers), searches: strings(searches), options: strings(options) }
    }

    #[test]
    fn resolv_conf_is_read_as_the_c_library_reads_it() {
        let rc = ResolvConf::parse(
            "# generated\nnameserver 10.0.0.2\nnameserver 10.0.0.3 # second\ndomain old.example\nsearch corp.example lab.example\noptions ndots:5 edns0\n; comment\nsortlist 1.2.3.4\n",
        );
        assert_eq!(rc.servers, strings(&["10.0.0.2", "10.0.0.3"]));
        assert_eq!(rc.searches, strings(&["corp.example", "lab.example"]), "the last search/domain line wins");
        assert_eq!(rc.options, strings(&["ndots:5", "edns0"]));
    }

    #[test]
    fn the_pods_entries_are_appended_to_the_hosts() {
        let host = ResolvConf {
            servers: strings(&["10.0.0.2"]),
            searches: strings(&["corp.example"]),
            options: strings(&["ndots:5", "edns0"]),
        };
        let pod =
            settings(&["1.1.1.1", "10.0.0.2"], &["ns.svc.example", "corp.example"], &["ndots:2", "single-request"]);
        let (out, warnings) = add_to_host(&host, &pod, false);
        assert_eq!(out.servers, strings(&["10.0.0.2", "1.1.1.1"]));
        assert_eq!(out.searches, strings(&["corp.example", "ns.svc.example"]));
        assert_eq!(out.options, strings(&["ndots:2", "edns0", "single-request"]), "the pod's ndots wins");
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn lists_the_pod_does_not_touch_stay_the_engines() {
        let host =
            ResolvConf { servers: strings(&["10.0.0.2"]), searches: strings(&["corp.example"]), options: vec![] };
        let (out, _) = add_to_host(&host, &settings(&[], &["extra.example"], &[]), false);
        assert_eq!(out, settings(&[], &["corp.example", "extra.example"], &[]));
        assert_eq!(add_to_host(&host, &DnsSettings::default(), false).0, DnsSettings::default());
    }

    #[test]
    fn loopback_servers_only_reach_a_pod_on_the_hosts_network() {
        let host = ResolvConf { servers: strings(&["127.0.0.53", "::1", "10.0.0.2"]), ..Default::default() };
        let pod = settings(&["1.1.1.1"], &[], &[]);
        assert_eq!(add_to_host(&host, &pod, false).0.servers, strings(&["10.0.0.2", "1.1.1.1"]));
        let (out, warnings) = add_to_host(&host, &pod, true);
        assert_eq!(out.servers, strings(&["127.0.0.53", "::1", "10.0.0.2"]));
        assert_eq!(warnings.len(), 1, "1.1.1.1 is the fourth: dropped, said");
        assert!(warnings[0].contains("dropped 1.1.1.1"), "{warnings:?}");
    }
}
