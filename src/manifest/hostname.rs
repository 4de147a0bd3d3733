//! The pod's hostname as the kubelet makes it (`GeneratePodHostNameAndDomain` in
//! pkg/kubelet/kubelet_pods.go and `GetNodenameForKernel` in pkg/kubelet/util): the name in
//! its /etc/hosts, its domain, and the kernel's hostname the containers see.

use crate::manifest::defaults::DEFAULT_NAMESPACE;
use crate::manifest::types::Pod;

/// The longest hostname the kernel takes (`sethostname(2)`): the bound of `hostnameOverride`
/// in the API server, and of the FQDN under `setHostnameAsFQDN` in the kubelet.
pub const MAX_KERNEL_HOSTNAME: usize = 64;

/// The cluster domain of the names a pod gets (`<subdomain>.<namespace>.svc.<domain>`).
pub const CLUSTER_DOMAIN: &str = "cluster.local";

/// The longest label the kubelet gives a pod's hostname (`truncatePodHostnameIfNeeded`).
const MAX_HOSTNAME_LABEL: usize = 63;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodHostname {
    /// The name in the pod's /etc/hosts.
    pub hostname: String,
    /// `<subdomain>.<namespace>.svc.cluster.local` under a subdomain (none with an override).
    pub domain: Option<String>,
    /// The containers' hostname: `hostname`, or under `setHostnameAsFQDN` (with a domain) the
    /// FQDN.
    pub kernel: String,
}

/// The FQDN would pass the kernel's bound: the kubelet's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "failed to construct FQDN from pod hostname and cluster domain, FQDN {fqdn} is too long \
     ({MAX_KERNEL_HOSTNAME} characters is the max, {} characters requested)",
    .fqdn.len()
)]
pub struct FqdnTooLong {
    pub fqdn: String,
}

impl PodHostname {
    /// `hostnameOverride` wins over `hostname` and `subdomain` (and gives no domain);
    /// otherwise `hostname`, else the pod's name, with the domain of its subdomain; the kernel's
    /// hostname is the FQDN under `setHostnameAsFQDN` (off the host's network).
    pub fn of(pod: &Pod) -> Result<PodHostname, FqdnTooLong> {
        let mut names = PodHostname::short(pod);
        let spec = &pod.spec;
        if let Some(d) = names
            .domain
            .as_deref()
            .filter(|_| spec.set_hostname_as_fqdn == Some(true) && spec.host_network != Some(true))
        {
            let fqdn = format!("{}.{d}", names.hostname);
            if fqdn.len() > MAX_KERNEL_HOSTNAME {
                return Err(FqdnTooLong { fqdn });
            }
            names.kernel = fqdn;
        }
        Ok(names)
    }

    /// As [`PodHostname::of`], with the short hostname as the kernel's whatever
    /// `setHostnameAsFQDN` says.
    pub fn short(pod: &Pod) -> PodHostname {
        let spec = &pod.spec;
        if let Some(h) = spec.hostname_override.as_deref().filter(|h| !h.is_empty()) {
            let hostname = truncate(h);
            return PodHostname { kernel: hostname.clone(), hostname, domain: None };
        }
        let hostname = truncate(spec.hostname.as_deref().filter(|h| !h.is_empty()).unwrap_or(&pod.metadata.name));
        let ns = pod.metadata.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(DEFAULT_NAMESPACE);
        let domain =
            spec.subdomain.as_deref().filter(|s| !s.is_empty()).map(|s| format!("{s}.{ns}.svc.{CLUSTER_DOMAIN}"));
        PodHostname { kernel: hostname.clone(), hostname, domain }
    }
}

/// The kubelet's `truncatePodHostnameIfNeeded`: at most 63 characters, without a trailing '-'
/// or '.' after the cut.
fn truncate(h: &str) -> String {
    if h.len() <= MAX_HOSTNAME_LABEL {
        return h.to_owned();
    }
    let mut h: String = h.chars().take(MAX_HOSTNAME_LABEL).collect();
    while h.ends_with(['-', '.']) {
        h.pop();
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(spec: &str) -> Pod {
        serde_yaml::from_str(&format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: web, namespace: ns}}\nspec:\n  containers: [{{name: c, image: x}}]\n{spec}"
        ))
        .unwrap()
    }

    fn of(spec: &str) -> PodHostname {
        PodHostname::of(&pod(spec)).unwrap()
    }

    /// The kubelet's cases (kubelet_pods_test.go TestGeneratePodHostNameAndDomain and
    /// util_test.go TestGetNodenameForKernel).
    #[test]
    fn hostname_domain_and_kernel_name() {
        assert_eq!(of(""), PodHostname { hostname: "web".into(), domain: None, kernel: "web".into() });
        let sub = of("  hostname: h\n  subdomain: s\n");
        assert_eq!(
            (sub.hostname.as_str(), sub.domain.as_deref(), sub.kernel.as_str()),
            ("h", Some("s.ns.svc.cluster.local"), "h")
        );
        let fqdn = of("  hostname: h\n  subdomain: s\n  setHostnameAsFQDN: true\n");
        assert_eq!(fqdn.kernel, "h.s.ns.svc.cluster.local");
        assert_eq!(fqdn.hostname, "h");
        // Without a subdomain there is no FQDN to set.
        assert_eq!(of("  setHostnameAsFQDN: true\n").kernel, "web");
        // The override wins over hostname and subdomain, and gives no domain.
        let over = of("  hostname: h\n  subdomain: s\n  hostnameOverride: www.example.com\n");
        assert_eq!(
            over,
            PodHostname { hostname: "www.example.com".into(), domain: None, kernel: "www.example.com".into() }
        );
        // Cut to 63, without what the cut leaves dangling.
        let long = format!("{}-b", "a".repeat(62));
        assert_eq!(of(&format!("  hostname: {long}\n")).kernel, "a".repeat(62));
        let long_override = format!("{}.bc", "a".repeat(62));
        assert_eq!(of(&format!("  hostnameOverride: {long_override}\n")).kernel, "a".repeat(62));
    }

    #[test]
    fn an_fqdn_past_64_characters_is_refused_in_the_kubelets_words() {
        let h = "a".repeat(40);
        let e = PodHostname::of(&pod(&format!("  hostname: {h}\n  subdomain: sub\n  setHostnameAsFQDN: true\n")))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "failed to construct FQDN from pod hostname and cluster domain, FQDN {h}.sub.ns.svc.cluster.local is too \
                 long (64 characters is the max, 65 characters requested)"
            )
        );
        // 64 exactly is fine.
        let h = "a".repeat(39);
        assert_eq!(of(&format!("  hostname: {h}\n  subdomain: sub\n  setHostnameAsFQDN: true\n")).kernel.len(), 64);
    }
}
