//! The pod's network: container ports, host ports, `hostNetwork`, DNS policy and config, host
//! aliases, hostname and subdomain.

use std::collections::BTreeSet;

use super::{
    is_dns1123_label, is_dns1123_subdomain, is_dns1123_subdomain_with_underscore, is_ip, label_msg, subdomain_msg,
    FieldError, IP_MSG,
};
use crate::manifest::hostname::{PodHostname, MAX_KERNEL_HOSTNAME};
use crate::manifest::types::{Container, ContainerPort, DnsPolicy, Pod, PodSpec, Protocol};

pub(super) const PORT_RANGE_MSG: &str = "must be between 1 and 65535, inclusive";
const MAX_NAMESERVERS: usize = 3;
const MAX_SEARCHES: usize = 32;
const MAX_SEARCH_CHARS: usize = 2048;
const SUBDOMAIN_UNDERSCORE_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
    alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character \
    (e.g. 'example.com', regex used for validation is \
    '[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";

/// Why `name` cannot be a port name (an IANA_SVC_NAME), in the API server's words.
pub(super) fn port_name_problems(name: &str) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if name.len() > 15 {
        problems.push("must be no more than 15 characters");
    }
    if !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        problems.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    } else if !name.bytes().any(|b| b.is_ascii_lowercase()) {
        problems.push("must contain at least one letter (a-z)");
    }
    if name.contains("--") {
        problems.push("must not contain consecutive hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push("must not begin or end with a hyphen");
    }
    problems
}

pub(super) fn validate_ports(ports: &[ContainerPort], path: &str, errors: &mut Vec<FieldError>) {
    let mut names = BTreeSet::new();
    for (i, p) in ports.iter().enumerate() {
        let pp = format!("{path}.ports[{i}]");
        if let Some(name) = p.name.as_deref().filter(|n| !n.is_empty()) {
            let problems = port_name_problems(name);
            for why in &problems {
                errors.push(FieldError::invalid(format!("{pp}.name"), name, why));
            }
            if problems.is_empty() && !names.insert(name) {
                errors.push(FieldError::duplicate(format!("{pp}.name"), name));
            }
        }
        if p.container_port == 0 {
            errors.push(FieldError::required(format!("{pp}.containerPort")));
        } else if !(1..=65535).contains(&p.container_port) {
            errors.push(FieldError::invalid_raw(format!("{pp}.containerPort"), p.container_port, PORT_RANGE_MSG));
        }
        // 0 means "no host port".
        if let Some(h) = p.host_port.filter(|h| *h != 0 && !(1..=65535).contains(h)) {
            errors.push(FieldError::invalid_raw(format!("{pp}.hostPort"), h, PORT_RANGE_MSG));
        }
        // Kubernetes does not check hostIP; the engine refuses a bad one after the pod has
        // started being created, so podrun checks it first.
        if let Some(ip) = p.host_ip.as_deref().filter(|ip| !ip.is_empty() && !is_ip(ip)) {
            errors.push(FieldError::invalid(format!("{pp}.hostIP"), ip, IP_MSG));
        }
    }
}

/// The same host port (and protocol and address) twice among `containers` (each with its
/// path), which run at the same time.
pub(super) fn host_port_conflicts<'a>(
    containers: impl IntoIterator<Item = (String, &'a Container)>,
    errors: &mut Vec<FieldError>,
) {
    let mut taken = BTreeSet::new();
    for (path, c) in containers {
        for (pi, p) in c.ports.iter().enumerate() {
            let Some(port) = p.host_port.filter(|h| *h != 0) else { continue };
            let key = format!(
                "{}/{}/{port}",
                p.protocol.unwrap_or(Protocol::TCP).as_str(),
                p.host_ip.as_deref().unwrap_or("")
            );
            if !taken.insert(key.clone()) {
                errors.push(FieldError::duplicate(format!("{path}.ports[{pi}].hostPort"), &key));
            }
        }
    }
}

pub(super) fn validate_pod_network(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    if spec.host_network == Some(true) {
        // The API server defaults an unset hostPort to the containerPort under hostNetwork.
        for (i, c) in spec.containers.iter().enumerate() {
            for (j, p) in c.ports.iter().enumerate() {
                if let Some(h) = p.host_port.filter(|h| *h != 0 && *h != p.container_port) {
                    errors.push(FieldError::invalid_raw(
                        format!("spec.containers[{i}].ports[{j}].hostPort"),
                        h,
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    validate_dns(spec, errors);
    if let Some(h) = spec.hostname.as_deref().filter(|h| !h.is_empty() && !is_dns1123_label(h)) {
        errors.push(FieldError::invalid("spec.hostname", h, &label_msg()));
    }
    if let Some(s) = spec.subdomain.as_deref().filter(|s| !s.is_empty() && !is_dns1123_label(s)) {
        errors.push(FieldError::invalid("spec.subdomain", s, &label_msg()));
    }
    validate_hostname_override(spec, errors);
    for (i, alias) in spec.host_aliases.iter().enumerate() {
        let p = format!("spec.hostAliases[{i}]");
        if !is_ip(&alias.ip) {
            errors.push(FieldError::invalid(format!("{p}.ip"), &alias.ip, IP_MSG));
        }
        // The API server takes an alias without names, which adds nothing to /etc/hosts; an
        // empty list is most likely a mistake, and the engine needs a name per entry.
        if alias.hostnames.is_empty() {
            errors.push(FieldError::required(format!("{p}.hostnames")));
        }
        for (j, h) in alias.hostnames.iter().enumerate() {
            if !is_dns1123_subdomain(h) {
                errors.push(FieldError::invalid(format!("{p}.hostnames[{j}]"), h, &subdomain_msg()));
            }
        }
    }
}

/// Go's `%#v` of a string list, as the API server prints list values.
/// `hostnameOverride` as the API server checks it: an RFC 1123 subdomain of at most 64
/// characters, and neither with `setHostnameAsFQDN: true` nor on the host's network.
fn validate_hostname_override(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    let Some(h) = spec.hostname_override.as_deref().filter(|h| !h.is_empty()) else { return };
    const PATH: &str = "spec.hostnameOverride";
    if h.len() > MAX_KERNEL_HOSTNAME {
        errors.push(FieldError::too_long(PATH, MAX_KERNEL_HOSTNAME));
    } else if !is_dns1123_subdomain(h) {
        errors.push(FieldError::invalid(PATH, h, &subdomain_msg()));
    }
    if spec.set_hostname_as_fqdn == Some(true) {
        errors.push(FieldError::invalid(PATH, h, "may not be set when `setHostnameAsFQDN` is true"));
    }
    if spec.host_network == Some(true) {
        errors.push(FieldError::invalid(PATH, h, "may not be set when `hostNetwork` is true"));
    }
}

/// Under `setHostnameAsFQDN`, the pod's FQDN must fit the kernel's hostname, which the kubelet
/// finds only when it makes the sandbox (and then retries forever); podrun knows the namespace
/// and the cluster domain at once, so it refuses the pod before anything is made, in the
/// kubelet's words.
pub(super) fn validate_fqdn(pod: &Pod, errors: &mut Vec<FieldError>) {
    if let Err(e) = PodHostname::of(pod) {
        errors.push(FieldError::new("spec.setHostnameAsFQDN", e.to_string()));
    }
}

fn go_strings(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("{s:?}")).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

fn validate_dns(spec: &PodSpec, errors: &mut Vec<FieldError>) {
    let path = "spec.dnsConfig";
    if spec.dns_policy == Some(DnsPolicy::None) {
        match &spec.dns_config {
            None => {
                return errors
                    .push(FieldError::required_because(path, "must provide `dnsConfig` when `dnsPolicy` is None"))
            }
            Some(c) if c.nameservers.is_empty() => {
                return errors.push(FieldError::required_because(
                    format!("{path}.nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ))
            }
            Some(_) => {}
        }
    }
    let Some(c) = &spec.dns_config else { return };
    if c.nameservers.len() > MAX_NAMESERVERS {
        errors.push(FieldError::invalid_raw(
            format!("{path}.nameservers"),
            go_strings(&c.nameservers),
            &format!("must not have more than {MAX_NAMESERVERS} nameservers"),
        ));
    }
    for (i, ns) in c.nameservers.iter().enumerate() {
        if !is_ip(ns) {
            errors.push(FieldError::invalid(format!("{path}.nameservers[{i}]"), ns, IP_MSG));
        }
    }
    if c.searches.len() > MAX_SEARCHES {
        errors.push(FieldError::invalid_raw(
            format!("{path}.searches"),
            go_strings(&c.searches),
            &format!("must not have more than {MAX_SEARCHES} search paths"),
        ));
    }
    if c.searches.join(" ").len() > MAX_SEARCH_CHARS {
        errors.push(FieldError::invalid_raw(
            format!("{path}.searches"),
            go_strings(&c.searches),
            &format!("must not have more than {MAX_SEARCH_CHARS} characters (including spaces) in the search list"),
        ));
    }
    for (i, search) in c.searches.iter().enumerate() {
        // A trailing dot is fine, and "." alone means "no search" (both as Kubernetes 1.32+).
        let trimmed = search.strip_suffix('.').unwrap_or(search);
        if search != "." && !is_dns1123_subdomain_with_underscore(trimmed) {
            errors.push(FieldError::invalid(format!("{path}.searches[{i}]"), trimmed, SUBDOMAIN_UNDERSCORE_MSG));
        }
    }
    for (i, o) in c.options.iter().enumerate() {
        if o.name.is_empty() {
            errors.push(FieldError::required_because(format!("{path}.options[{i}]"), "must not be empty"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::{HostAlias, PodDnsConfig, PodDnsConfigOption};

    fn port(name: Option<&str>, container: i64, host: Option<i64>) -> ContainerPort {
        ContainerPort { name: name.map(Into::into), container_port: container, host_port: host, ..Default::default() }
    }

    fn strings(errors: Vec<FieldError>) -> Vec<String> {
        errors.into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn port_names_are_iana_service_names() {
        assert!(port_name_problems("http").is_empty());
        assert!(port_name_problems("web-8080").is_empty());
        assert_eq!(port_name_problems("8080"), ["must contain at least one letter (a-z)"]);
        assert_eq!(
            port_name_problems("Http"),
            ["must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"]
        );
        assert_eq!(port_name_problems("a--b"), ["must not contain consecutive hyphens"]);
        assert_eq!(port_name_problems("-a"), ["must not begin or end with a hyphen"]);
        assert_eq!(port_name_problems("a-very-long-port-name"), ["must be no more than 15 characters"]);
    }

    #[test]
    fn ports() {
        let mut errors = Vec::new();
        let mut bad_ip = port(None, 81, None);
        bad_ip.host_ip = Some("localhost".into());
        validate_ports(
            &[
                port(Some("http"), 80, Some(8080)),
                port(Some("http"), 0, None),
                port(Some("BAD"), 70000, Some(-1)),
                port(None, 443, Some(0)),
                bad_ip,
            ],
            "c",
            &mut errors,
        );
        assert_eq!(
            strings(errors),
            [
                "c.ports[1].name: Duplicate value: \"http\"",
                "c.ports[1].containerPort: Required value",
                "c.ports[2].name: Invalid value: \"BAD\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                "c.ports[2].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                "c.ports[2].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive",
                "c.ports[4].hostIP: Invalid value: \"localhost\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ]
        );
    }

    #[test]
    fn host_ports_clash_across_app_containers_and_under_host_network() {
        let a = Container { ports: vec![port(None, 80, Some(8080))], ..Default::default() };
        let mut udp = port(None, 80, Some(8080));
        udp.protocol = Some(Protocol::UDP);
        let b = Container { ports: vec![udp, port(None, 81, Some(8080))], ..Default::default() };
        let mut errors = Vec::new();
        host_port_conflicts(
            [("spec.containers[0]".to_owned(), &a), ("spec.containers[1]".to_owned(), &b)],
            &mut errors,
        );
        assert_eq!(strings(errors), ["spec.containers[1].ports[1].hostPort: Duplicate value: \"TCP//8080\""]);

        let spec = PodSpec {
            host_network: Some(true),
            containers: vec![Container {
                ports: vec![port(None, 80, None), port(None, 81, Some(81)), port(None, 82, Some(9000))],
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut errors = Vec::new();
        validate_pod_network(&spec, &mut errors);
        assert_eq!(
            strings(errors),
            ["spec.containers[0].ports[2].hostPort: Invalid value: 9000: must match `containerPort` when `hostNetwork` is true"]
        );
    }

    fn dns(policy: Option<DnsPolicy>, config: Option<PodDnsConfig>) -> Vec<String> {
        let spec = PodSpec { dns_policy: policy, dns_config: config, ..Default::default() };
        let mut errors = Vec::new();
        validate_pod_network(&spec, &mut errors);
        strings(errors)
    }

    /// The API server's cases for hostnameOverride (validation_test.go): an RFC 1123 subdomain
    /// of at most 64 characters, neither with setHostnameAsFQDN nor with hostNetwork.
    #[test]
    fn hostname_override() {
        let check = |h: &str, fqdn: Option<bool>, host_network: Option<bool>| {
            let spec = PodSpec {
                hostname_override: Some(h.into()),
                set_hostname_as_fqdn: fqdn,
                host_network,
                ..Default::default()
            };
            let mut errors = Vec::new();
            validate_pod_network(&spec, &mut errors);
            strings(errors)
        };
        for ok in ["box", "www.example.com", "a-b.c-d", &"a".repeat(64), ""] {
            assert!(check(ok, Some(false), None).is_empty(), "{ok}");
        }
        assert_eq!(check(&"a".repeat(65), None, None), ["spec.hostnameOverride: Too long: must have at most 64 bytes"]);
        for bad in ["Box", "box_1", "-box", "box.", "a..b"] {
            let errors = check(bad, None, None);
            assert_eq!(errors.len(), 1, "{bad}: {errors:?}");
            assert!(
                errors[0].starts_with(&format!(
                    "spec.hostnameOverride: Invalid value: {bad:?}: a lowercase RFC 1123 subdomain"
                )),
                "{errors:?}"
            );
        }
        assert_eq!(
            check("box", Some(true), Some(true)),
            [
                "spec.hostnameOverride: Invalid value: \"box\": may not be set when `setHostnameAsFQDN` is true",
                "spec.hostnameOverride: Invalid value: \"box\": may not be set when `hostNetwork` is true",
            ]
        );
    }

    #[test]
    fn an_fqdn_past_the_kernels_bound_is_refused_before_anything_is_made() {
        let pod: Pod = serde_yaml::from_str(&format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web, namespace: ns}}\nspec:\n  hostname: {}\n  subdomain: sub\n  setHostnameAsFQDN: true\n  containers: [{{name: c, image: x}}]\n",
            "a".repeat(40)
        ))
        .unwrap();
        let mut errors = Vec::new();
        validate_fqdn(&pod, &mut errors);
        assert_eq!(errors.len(), 1);
        assert!(strings(errors)[0].starts_with("spec.setHostnameAsFQDN: failed to construct FQDN"));
    }

    #[test]
    fn dns_policy_none_needs_a_nameserver_and_limits_hold() {
        assert_eq!(
            dns(Some(DnsPolicy::None), None),
            ["spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
        );
        assert_eq!(
            dns(Some(DnsPolicy::None), Some(PodDnsConfig::default())),
            ["spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None"]
        );
        let ok = PodDnsConfig {
            nameservers: vec!["1.1.1.1".into()],
            searches: vec!["svc.local.".into(), "my_domain.example".into(), ".".into()],
            options: vec![PodDnsConfigOption { name: "ndots".into(), value: Some("2".into()) }],
        };
        assert!(dns(Some(DnsPolicy::None), Some(ok)).is_empty());
        let bad = PodDnsConfig {
            nameservers: vec!["1.1.1.1".into(), "2.2.2.2".into(), "3.3.3.3".into(), "dns".into()],
            searches: (0..33).map(|i| format!("d{i}.example")).chain(["Bad".to_owned()]).collect(),
            options: vec![PodDnsConfigOption::default()],
        };
        let errors = dns(Some(DnsPolicy::ClusterFirst), Some(bad));
        assert_eq!(
            errors[0],
            "spec.dnsConfig.nameservers: Invalid value: []string{\"1.1.1.1\", \"2.2.2.2\", \"3.3.3.3\", \"dns\"}: must not have more than 3 nameservers"
        );
        assert!(errors[1].starts_with("spec.dnsConfig.nameservers[3]: Invalid value: \"dns\": must be a valid IP"));
        assert!(
            errors[2].starts_with("spec.dnsConfig.searches: Invalid value: []string{")
                && errors[2].ends_with("must not have more than 32 search paths")
        );
        assert!(errors[3].starts_with("spec.dnsConfig.searches[33]: Invalid value: \"Bad\""));
        assert_eq!(errors[4], "spec.dnsConfig.options[0]: Required value: must not be empty");
        assert_eq!(errors.len(), 5);
    }

    #[test]
    fn host_aliases_hostname_and_subdomain() {
        let spec = PodSpec {
            hostname: Some("Web".into()),
            subdomain: Some("svc".into()),
            host_aliases: vec![
                HostAlias { ip: "127.0.0.1".into(), hostnames: vec!["foo.local".into()] },
                HostAlias { ip: "10.1.2.300".into(), hostnames: vec![] },
                HostAlias { ip: "::1".into(), hostnames: vec!["Bad_Name".into()] },
            ],
            ..Default::default()
        };
        let mut errors = Vec::new();
        validate_pod_network(&spec, &mut errors);
        let errors = strings(errors);
        assert!(errors[0].starts_with("spec.hostname: Invalid value: \"Web\": a lowercase RFC 1123 label"));
        assert!(errors[1].starts_with("spec.hostAliases[1].ip: Invalid value: \"10.1.2.300\": must be a valid IP"));
        assert_eq!(errors[2], "spec.hostAliases[1].hostnames: Required value");
        assert!(errors[3].starts_with("spec.hostAliases[2].hostnames[0]: Invalid value: \"Bad_Name\""));
        assert_eq!(errors.len(), 4);
    }
}
