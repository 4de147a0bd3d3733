//! The node's IP addresses, as the kubelet chooses them (pkg/kubelet/nodestatus/setters.go,
//! NodeAddress), and so the pods' `hostIP`/`hostIPs`. With `--node-ip` naming a dual-stack
//! pair, both addresses, the first the primary; naming one, that one. Without it (or with
//! `0.0.0.0`/`::`), one address: the host name when it is an IP address; else the first of the
//! host name's addresses that is valid for a node (one of this host's own, not loopback,
//! link-local, multicast or unspecified), IPv4 first (IPv6 first for `::`); else the address
//! of the interface of the default route (apimachinery's ChooseHostInterface), IPv4 routes
//! before IPv6. A kubelet without a cloud provider is dual-stack only when `--node-ip` names
//! both addresses, so otherwise a hostNetwork pod's `podIPs` and `hostIPs` hold one entry.
//!
//! They are the addresses of the engine's host only for an engine beside podrun; the engine
//! layer asks for them only then. Reading them sends nothing: whether an address is the
//! host's own is a `bind`, and the source address of the default route is what the kernel
//! picks for a UDP socket `connect`ed to the gateway, which sends no packet.

mod arg;
mod tables;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::OnceLock;

pub use arg::{NodeIpChoice, NodeIpError};

/// What `--node-ip` asked for, set once by the command before any pod is looked at.
static CHOICE: OnceLock<NodeIpChoice> = OnceLock::new();

/// `--node-ip` as the kubelet takes it, checked against this host's addresses.
pub fn parse_flag(text: &str) -> Result<NodeIpChoice, NodeIpError> {
    let choice = arg::parse(text)?;
    arg::check(&choice, is_own)?;
    Ok(choice)
}

/// Makes `choice` the node's for this process. It must come before the first `cached`, which
/// fixes the addresses for the process, as a kubelet fixes them at its start; a later call
/// changes nothing.
pub fn configure(choice: NodeIpChoice) {
    let _ = CHOICE.set(choice);
}

/// The node's addresses, primary first, read once per process, as text; empty when the host
/// has none the kubelet would take (then it would not start; podrun leaves the addresses out).
pub fn all() -> &'static [String] {
    static NODE_IPS: OnceLock<Vec<String>> = OnceLock::new();
    NODE_IPS.get_or_init(|| addresses(CHOICE.get(), of_this_host))
}

/// The node's addresses for `choice`; `pick(prefer_v6)` picks one when it names none.
fn addresses(choice: Option<&NodeIpChoice>, pick: impl Fn(bool) -> Option<IpAddr>) -> Vec<String> {
    let ips = match choice {
        Some(NodeIpChoice::Named(ips)) => ips.clone(),
        Some(&NodeIpChoice::Pick { prefer_v6 }) => pick(prefer_v6).into_iter().collect(),
        None => pick(false).into_iter().collect(),
    };
    ips.iter().map(ToString::to_string).collect()
}

/// The addresses `--node-ip` named, if it named them, comma-separated: what a pod's infra
/// container records for commands run without the flag.
pub fn named() -> Option<String> {
    match CHOICE.get() {
        Some(NodeIpChoice::Named(_)) => Some(all().join(",")),
        _ => None,
    }
}

/// The node's primary address: the pods' `hostIP`.
pub fn cached() -> Option<String> {
    all().first().cloned()
}

/// A pod's `hostIPs` given its `hostIP`: the node's addresses when it is the node's primary,
/// else that address alone (a remote engine's network gateway, which stands for its host).
pub fn host_ips(host_ip: &str) -> Vec<String> {
    host_ips_among(all(), host_ip)
}

fn host_ips_among(node: &[String], host_ip: &str) -> Vec<String> {
    match node {
        [primary, ..] if primary == host_ip => node.to_vec(),
        _ => vec![host_ip.to_owned()],
    }
}

/// The node IP of this host, or None when it has none the kubelet would take.
fn of_this_host(prefer_v6: bool) -> Option<IpAddr> {
    let hostname = crate::private_fs::read_head(std::path::Path::new("/proc/sys/kernel/hostname"), 256).ok()??;
    let hostname = String::from_utf8_lossy(&hostname);
    let hostname = hostname.trim();
    if let Ok(ip) = hostname.parse::<IpAddr>() {
        return Some(ip);
    }
    let looked_up: Vec<IpAddr> =
        (hostname, 0).to_socket_addrs().map(|a| a.map(|s| s.ip()).collect()).unwrap_or_default();
    pick(&looked_up, prefer_v6, is_own).or_else(|| {
        let read = |path: &str| {
            let bytes = crate::private_fs::read_head(std::path::Path::new(path), 1 << 20).ok().flatten();
            bytes.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
        };
        let v4 = tables::default_route_v4(&read("/proc/net/route"));
        v4.and_then(|gateway| source_towards(IpAddr::V4(gateway))).or_else(|| {
            let iface = tables::default_route_v6_interface(&read("/proc/net/ipv6_route"))?;
            tables::global_v6_of(&read("/proc/net/if_inet6"), &iface).map(IpAddr::V6)
        })
    })
}

/// The first valid address of the preferred family, else the first valid one (the kubelet's
/// order for a looked-up host name).
fn pick(addrs: &[IpAddr], prefer_v6: bool, own: impl Fn(IpAddr) -> bool) -> Option<IpAddr> {
    let valid = |a: &&IpAddr| valid_for_a_node(**a) && own(**a);
    let preferred = addrs.iter().filter(valid).find(|a| a.is_ipv6() == prefer_v6);
    preferred.or_else(|| addrs.iter().find(valid)).copied()
}

/// The kubelet's validateNodeIP, without the check that it is this host's (`is_own`).
fn valid_for_a_node(ip: IpAddr) -> bool {
    !(ip.is_loopback() || link_local(ip) || ip.is_multicast() || ip.is_unspecified())
}

/// Go's IsLinkLocalUnicast: 169.254.0.0/16 and fe80::/10.
fn link_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => a.is_link_local(),
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    }
}

/// Whether `ip` is one of this host's addresses: only then can a socket be bound to it.
fn is_own(ip: IpAddr) -> bool {
    UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok()
}

/// The source address the kernel gives a datagram to `towards`.
fn source_towards(towards: IpAddr) -> Option<IpAddr> {
    let any: IpAddr = if towards.is_ipv4() { Ipv4Addr::UNSPECIFIED.into() } else { Ipv6Addr::UNSPECIFIED.into() };
    let socket = UdpSocket::bind(SocketAddr::new(any, 0)).ok()?;
    socket.connect(SocketAddr::new(towards, 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    valid_for_a_node(ip).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looked_up_addresses_are_taken_if_valid_ipv4_first() {
        let ips: Vec<IpAddr> = ["127.0.1.1", "fe80::1", "2001:db8::5", "10.1.2.3"].map(|s| s.parse().unwrap()).into();
        assert_eq!(pick(&ips, false, |_| true), Some("10.1.2.3".parse().unwrap()));
        assert_eq!(pick(&ips[..3], false, |_| true), Some("2001:db8::5".parse().unwrap()));
        // `--node-ip ::` prefers IPv6, and takes IPv4 when there is no other.
        assert_eq!(pick(&ips, true, |_| true), Some("2001:db8::5".parse().unwrap()));
        assert_eq!(pick(&ips[3..], true, |_| true), Some("10.1.2.3".parse().unwrap()));
        // Only the host's own addresses count.
        assert_eq!(pick(&ips, false, |_| false), None);
        assert_eq!(pick(&["127.0.0.1".parse().unwrap()], false, |_| true), None);
    }

    #[test]
    fn a_named_pair_is_the_nodes_addresses_else_one_is_picked() {
        let pick = |v6: bool| Some(if v6 { "fd00::2" } else { "10.1.2.3" }.parse().unwrap());
        let pair = arg::parse("fd00::2,10.1.2.3").unwrap();
        assert_eq!(addresses(Some(&pair), pick), ["fd00::2", "10.1.2.3"]);
        assert_eq!(addresses(None, pick), ["10.1.2.3"]);
        assert_eq!(addresses(Some(&arg::parse("::").unwrap()), pick), ["fd00::2"]);
        assert!(addresses(None, |_| None).is_empty());
    }

    #[test]
    fn a_pods_host_ips_are_the_nodes_when_its_host_ip_is_the_nodes() {
        let node = ["10.1.2.3".to_owned(), "fd00::2".to_owned()];
        assert_eq!(host_ips_among(&node, "10.1.2.3"), node);
        // A remote engine's gateway stands for its host alone.
        assert_eq!(host_ips_among(&node, "172.17.0.1"), ["172.17.0.1"]);
        assert_eq!(host_ips_among(&[], "172.17.0.1"), ["172.17.0.1"]);
    }

    #[test]
    fn this_hosts_node_ip_is_its_own() {
        // Loopback is the host's own but never a node IP; whatever is found must be bindable.
        assert!(is_own(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        assert!(!valid_for_a_node(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        if let Some(ip) = of_this_host(false) {
            assert!(valid_for_a_node(ip) && is_own(ip), "{ip}");
        }
    }
}
