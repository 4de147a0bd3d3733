//! `--node-ip`: the node's addresses as the user names them, checked as the kubelet checks
//! its flag (component-helpers' ParseNodeIPArgument) and the addresses it names (the kubelet's
//! validateNodeIP, which its NodeAddress setter runs): one address, or a dual-stack pair (one
//! IPv4 and one IPv6, the first the primary), or `0.0.0.0` / `::` for "pick one, of this
//! family first".

use std::net::IpAddr;

/// What `--node-ip` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeIpChoice {
    /// Pick the address as without the flag; `prefer_v6` for `::`, whose family the kubelet
    /// prefers among the host name's addresses.
    Pick { prefer_v6: bool },
    /// These addresses, in this order: one, or one of each family.
    Named(Vec<IpAddr>),
}

/// A `--node-ip` the kubelet would refuse, in its words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NodeIpError {
    #[error("could not parse \"{}\"", crate::escape::escape(.0))]
    Parse(String),
    #[error("must contain either a single IP or a dual-stack pair of IPs")]
    NotAPair,
    #[error("dual-stack node IP cannot include '0.0.0.0' or '::'")]
    UnspecifiedInPair,
    #[error("failed to validate {which}: {problem}")]
    Invalid { which: &'static str, problem: String },
}

/// The flag's text as the kubelet splits it: comma-separated, each address trimmed. Two
/// addresses of one family, more than two, or `0.0.0.0`/`::` in a pair are refused; so is
/// text that is no address (the kubelet drops it with a log line, and picks an address
/// instead of the one the user meant). Empty is no flag.
pub fn parse(text: &str) -> Result<NodeIpChoice, NodeIpError> {
    if text.trim().is_empty() {
        return Ok(NodeIpChoice::Pick { prefer_v6: false });
    }
    // Bounded: a third address is already an error.
    let mut ips = Vec::with_capacity(2);
    for part in text.split(',') {
        let part = part.trim();
        let ip: IpAddr = part.parse().map_err(|_| NodeIpError::Parse(part.to_owned()))?;
        if ips.len() == 2 {
            return Err(NodeIpError::NotAPair);
        }
        ips.push(ip);
    }
    match ips[..] {
        [a, b] if a.is_ipv6() == b.is_ipv6() => Err(NodeIpError::NotAPair),
        [a, b] if a.is_unspecified() || b.is_unspecified() => Err(NodeIpError::UnspecifiedInPair),
        [a] if a.is_unspecified() => Ok(NodeIpChoice::Pick { prefer_v6: a.is_ipv6() }),
        _ => Ok(NodeIpChoice::Named(ips)),
    }
}

/// The kubelet's validateNodeIP for each named address: not loopback, multicast, link-local
/// or unspecified, and one of this host's own (`own`).
pub fn check(choice: &NodeIpChoice, own: impl Fn(IpAddr) -> bool) -> Result<(), NodeIpError> {
    let NodeIpChoice::Named(ips) = choice else { return Ok(()) };
    for (i, &ip) in ips.iter().enumerate() {
        let which = if i == 0 { "nodeIP" } else { "secondaryNodeIP" };
        let problem = if ip.is_loopback() {
            "nodeIP can't be loopback address".to_owned()
        } else if ip.is_multicast() {
            "nodeIP can't be a multicast address".to_owned()
        } else if super::link_local(ip) {
            "nodeIP can't be a link-local unicast address".to_owned()
        } else if !own(ip) {
            format!("node IP: {:?} not found in the host's network interfaces", ip.to_string())
        } else {
            continue;
        };
        return Err(NodeIpError::Invalid { which, problem });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ips(list: &[&str]) -> NodeIpChoice {
        NodeIpChoice::Named(list.iter().map(|s| s.parse().unwrap()).collect())
    }

    #[test]
    fn one_address_or_a_dual_stack_pair_in_either_order() {
        assert_eq!(parse("10.1.2.3"), Ok(ips(&["10.1.2.3"])));
        assert_eq!(parse(" 10.1.2.3 , fd00::2"), Ok(ips(&["10.1.2.3", "fd00::2"])));
        assert_eq!(parse("fd00::2,10.1.2.3"), Ok(ips(&["fd00::2", "10.1.2.3"])));
        assert_eq!(parse(""), Ok(NodeIpChoice::Pick { prefer_v6: false }));
        assert_eq!(parse("0.0.0.0"), Ok(NodeIpChoice::Pick { prefer_v6: false }));
        assert_eq!(parse("::"), Ok(NodeIpChoice::Pick { prefer_v6: true }));
    }

    #[test]
    fn what_the_kubelet_refuses_in_the_flag_is_refused() {
        assert_eq!(parse("1.2.3.4,5.6.7.8"), Err(NodeIpError::NotAPair));
        assert_eq!(parse("fd00::1,fd00::2"), Err(NodeIpError::NotAPair));
        assert_eq!(parse("1.2.3.4,fd00::1,5.6.7.8"), Err(NodeIpError::NotAPair));
        assert_eq!(parse("0.0.0.0,fd00::1"), Err(NodeIpError::UnspecifiedInPair));
        assert_eq!(parse("1.2.3.4,::"), Err(NodeIpError::UnspecifiedInPair));
        assert_eq!(parse("node1"), Err(NodeIpError::Parse("node1".into())));
        assert_eq!(parse("1.2.3.4,"), Err(NodeIpError::Parse(String::new())));
        assert_eq!(parse("1.2.3.4/24").unwrap_err().to_string(), "could not parse \"1.2.3.4/24\"");
        // Many commas stop at the third address.
        assert_eq!(parse(&"1.2.3.4,".repeat(100_000)), Err(NodeIpError::NotAPair));
    }

    #[test]
    fn a_named_address_must_be_the_hosts_own_and_a_node_address() {
        let own = |ip: IpAddr| ip.to_string() != "192.0.2.1";
        assert_eq!(check(&ips(&["10.1.2.3", "fd00::2"]), own), Ok(()));
        assert_eq!(check(&NodeIpChoice::Pick { prefer_v6: true }, |_| false), Ok(()));
        let problem = |list: &[&str]| check(&ips(list), own).unwrap_err().to_string();
        assert_eq!(
            problem(&["192.0.2.1"]),
            "failed to validate nodeIP: node IP: \"192.0.2.1\" not found in the host's network interfaces"
        );
        assert_eq!(problem(&["127.0.0.1"]), "failed to validate nodeIP: nodeIP can't be loopback address");
        assert_eq!(
            problem(&["10.1.2.3", "fe80::1"]),
            "failed to validate secondaryNodeIP: nodeIP can't be a link-local unicast address"
        );
        assert_eq!(
            problem(&["169.254.1.1"]),
            "failed to validate nodeIP: nodeIP can't be a link-local unicast address"
        );
        assert_eq!(problem(&["224.0.0.1"]), "failed to validate nodeIP: nodeIP can't be a multicast address");
        assert_eq!(problem(&["::1"]), "failed to validate nodeIP: nodeIP can't be loopback address");
    }
}
