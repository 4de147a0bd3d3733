//! The node's IP address, as a kubelet started without `--node-ip` picks it
//! (pkg/kubelet/nodestatus/setters.go, NodeAddress): the host name when it is an IP address;
//! else the first of the host name's addresses that is valid for a node (one of this host's
//! own, not loopback, link-local, multicast or unspecified), IPv4 before IPv6; else the
//! address of the interface of the default route (apimachinery's ChooseHostInterface), IPv4
//! routes before IPv6. It is one address: such a kubelet has one InternalIP, so a hostNetwork
//! pod's `podIPs` and `hostIPs` hold one entry.
//!
//! It is the address of the engine's host only for an engine beside podrun; the engine layer
//! asks for it only then. Reading it sends nothing: whether an address is the host's own is a
//! `bind`, and the source address of the default route is what the kernel picks for a UDP
//! socket `connect`ed to the gateway, which sends no packet.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs, UdpSocket};

/// `of_this_host`, read once per process, as text.
pub fn cached() -> Option<String> {
    static NODE_IP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    NODE_IP.get_or_init(|| of_this_host().map(|ip| ip.to_string())).clone()
}

/// The node IP of this host, or None when it has none the kubelet would take (then it would
/// not start; podrun leaves the addresses out).
pub(super) fn of_this_host() -> Option<IpAddr> {
    let hostname = crate::private_fs::read_head(std::path::Path::new("/proc/sys/kernel/hostname"), 256).ok()??;
    let hostname = String::from_utf8_lossy(&hostname);
    let hostname = hostname.trim();
    if let Ok(ip) = hostname.parse::<IpAddr>() {
        return Some(ip);
    }
    let looked_up: Vec<IpAddr> =
        (hostname, 0).to_socket_addrs().map(|a| a.map(|s| s.ip()).collect()).unwrap_or_default();
    pick(&looked_up, is_own).or_else(|| {
        let read = |path: &str| {
            let bytes = crate::private_fs::read_head(std::path::Path::new(path), 1 << 20).ok().flatten();
            bytes.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
        };
        default_route_v4(&read("/proc/net/route")).and_then(|gateway| source_towards(IpAddr::V4(gateway))).or_else(
            || {
                let iface = default_route_v6_interface(&read("/proc/net/ipv6_route"))?;
                global_v6_of(&read("/proc/net/if_inet6"), &iface).map(IpAddr::V6)
            },
        )
    })
}

/// The first valid address, IPv4 before IPv6 (the kubelet's order for a looked-up host name).
fn pick(addrs: &[IpAddr], own: impl Fn(IpAddr) -> bool) -> Option<IpAddr> {
    let valid = |a: &&IpAddr| valid_for_a_node(**a) && own(**a);
    let v4 = addrs.iter().filter(valid).find(|a| a.is_ipv4());
    v4.or_else(|| addrs.iter().find(valid)).copied()
}

/// The kubelet's validateNodeIP, without the check that it is this host's (`is_own`).
fn valid_for_a_node(ip: IpAddr) -> bool {
    let link_local = match ip {
        IpAddr::V4(a) => a.is_link_local(),
        IpAddr::V6(a) => a.segments()[0] & 0xffc0 == 0xfe80,
    };
    !(ip.is_loopback() || link_local || ip.is_multicast() || ip.is_unspecified())
}

/// Whether `ip` is one of this host's addresses: only then can a socket be bound to it.
fn is_own(ip: IpAddr) -> bool {
    UdpSocket::bind(SocketAddr::new(ip, 0)).is_ok()
}

/// The gateway of the first IPv4 default route (`/proc/net/route`: destination 0, up and
/// through a gateway; addresses in the kernel's byte order, hex).
fn default_route_v4(table: &str) -> Option<Ipv4Addr> {
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (dest, gateway, flags) = (f.get(1)?, f.get(2)?, u16::from_str_radix(f.get(3)?, 16).ok()?);
        // RTF_UP | RTF_GATEWAY
        if *dest != "00000000" || flags & 0x3 != 0x3 {
            return None;
        }
        let g = u32::from_str_radix(gateway, 16).ok()?;
        Some(Ipv4Addr::from(g.to_le_bytes()))
    })
}

/// The source address the kernel gives a datagram to `towards`.
fn source_towards(towards: IpAddr) -> Option<IpAddr> {
    let any: IpAddr = if towards.is_ipv4() { Ipv4Addr::UNSPECIFIED.into() } else { Ipv6Addr::UNSPECIFIED.into() };
    let socket = UdpSocket::bind(SocketAddr::new(any, 0)).ok()?;
    socket.connect(SocketAddr::new(towards, 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    valid_for_a_node(ip).then_some(ip)
}

/// The interface of the first IPv6 default route (`/proc/net/ipv6_route`: destination ::/0,
/// up, not the "unreachable" route the kernel keeps on `lo`).
fn default_route_v6_interface(table: &str) -> Option<String> {
    table.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (dest, len, flags, iface) = (f.first()?, f.get(1)?, f.get(8)?, f.get(9)?);
        let flags = u32::from_str_radix(flags, 16).ok()?;
        let up = flags & 0x1 != 0 && flags & 0x0200 == 0; // RTF_UP, not RTF_REJECT
        (dest.bytes().all(|b| b == b'0') && *len == "00" && up && *iface != "lo").then(|| (*iface).to_owned())
    })
}

/// The first global-scope IPv6 address of `iface` (`/proc/net/if_inet6`: address, index,
/// prefix length, scope, flags, name).
fn global_v6_of(table: &str, iface: &str) -> Option<Ipv6Addr> {
    table.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (hex, scope, name) = (f.first()?, f.get(3)?, f.get(5)?);
        if *name != iface || *scope != "00" || hex.len() != 32 {
            return None;
        }
        let bits = u128::from_str_radix(hex, 16).ok()?;
        let ip = Ipv6Addr::from(bits);
        valid_for_a_node(IpAddr::V6(ip)).then_some(ip)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUTE: &str = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n\
        docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n\
        eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n";

    const IPV6_ROUTE: &str = "\
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
";

    const IF_INET6: &str = "\
fe8000000000000000fc00fffe000001 04 40 20 80     eth0
fd000000000000000000000000000002 04 40 00 82     eth0
00000000000000000000000000000001 01 80 10 80       lo
";

    #[test]
    fn the_default_routes_are_read_from_the_kernels_tables() {
        assert_eq!(default_route_v4(ROUTE), Some(Ipv4Addr::new(192, 0, 2, 1)));
        assert_eq!(default_route_v4("Iface\tDestination\n"), None);
        assert_eq!(default_route_v6_interface(IPV6_ROUTE).as_deref(), Some("eth0"));
        assert_eq!(global_v6_of(IF_INET6, "eth0"), Some("fd00::2".parse().unwrap()));
        assert_eq!(global_v6_of(IF_INET6, "lo"), None);
    }

    #[test]
    fn looked_up_addresses_are_taken_if_valid_ipv4_first() {
        let ips: Vec<IpAddr> = ["127.0.1.1", "fe80::1", "2001:db8::5", "10.1.2.3"].map(|s| s.parse().unwrap()).into();
        assert_eq!(pick(&ips, |_| true), Some("10.1.2.3".parse().unwrap()));
        assert_eq!(pick(&ips[..3], |_| true), Some("2001:db8::5".parse().unwrap()));
        // Only the host's own addresses count.
        assert_eq!(pick(&ips, |_| false), None);
        assert_eq!(pick(&["127.0.0.1".parse().unwrap()], |_| true), None);
    }

    #[test]
    fn this_hosts_node_ip_is_its_own() {
        // Loopback is the host's own but never a node IP; whatever is found must be bindable.
        assert!(is_own(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        assert!(!valid_for_a_node(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        if let Some(ip) = of_this_host() {
            assert!(valid_for_a_node(ip) && is_own(ip), "{ip}");
        }
    }
}
