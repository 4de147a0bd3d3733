//! A pod's `hostIPs`, and a hostNetwork pod's `podIPs`, from its infra container: the
//! addresses `apply --node-ip` named when the pod was made (its label), else the node's as this
//! process picks them (or a remote engine's network gateway).

use std::net::IpAddr;

use crate::runtime::{labels, Observed};

/// The pod's host IPs, the primary (`hostIP`) first, and whether the pod is on the host's
/// network (its IP is the host's: a kubelet gives such a pod the host's IPs as its own).
pub fn of(infra: Option<&Observed>) -> (Vec<String>, bool) {
    let Some(infra) = infra else { return (Vec::new(), false) };
    let host_network = infra.ip.is_some() && infra.ip == infra.gateway;
    let recorded = infra.label(labels::HOST_IPS).map(recorded).filter(|ips| !ips.is_empty());
    let ips = recorded.or_else(|| infra.gateway.as_deref().map(crate::runtime::node_ip::host_ips)).unwrap_or_default();
    (ips, host_network)
}

/// The label's addresses: at most two, each an IP address (a label is anyone's to write).
fn recorded(text: &str) -> Vec<String> {
    let ips: Vec<String> = text.split(',').take(3).map(str::to_owned).collect();
    let valid = ips.len() <= 2 && ips.iter().all(|ip| ip.parse::<IpAddr>().is_ok());
    if valid {
        ips
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infra(ip: Option<&str>, gateway: Option<&str>, label: Option<&str>) -> Observed {
        let mut o = crate::status::fixtures::engine_container("ns", "p", "infra", "infra", "2024-01-01T00:00:00Z");
        o.ip = ip.map(str::to_owned);
        o.gateway = gateway.map(str::to_owned);
        if let Some(l) = label {
            o.labels.insert(labels::HOST_IPS.to_owned(), l.to_owned());
        }
        o
    }

    #[test]
    fn the_recorded_node_ips_win_and_a_host_network_pod_is_told_by_its_ip() {
        let hn = infra(Some("10.0.0.5"), Some("10.0.0.5"), Some("fd00::2,10.0.0.5"));
        assert_eq!(of(Some(&hn)), (vec!["fd00::2".to_owned(), "10.0.0.5".to_owned()], true));
        let bridged = infra(Some("172.17.0.2"), Some("172.17.0.1"), None);
        assert_eq!(of(Some(&bridged)), (vec!["172.17.0.1".to_owned()], false));
        assert_eq!(of(None), (Vec::new(), false));
    }

    #[test]
    fn a_label_that_is_not_one_or_two_addresses_is_not_taken() {
        for bad in ["a,b", "10.0.0.1,10.0.0.2,10.0.0.3", "", "10.0.0.1;x"] {
            let c = infra(None, Some("172.17.0.1"), Some(bad));
            assert_eq!(of(Some(&c)).0, ["172.17.0.1"], "{bad}");
        }
    }
}
