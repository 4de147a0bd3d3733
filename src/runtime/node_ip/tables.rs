//! The kernel's routing and address tables under /proc/net, read for the node IP: the IPv4
//! default route's gateway, the IPv6 default route's interface and that interface's global
//! IPv6 address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The gateway of the first IPv4 default route (`/proc/net/route`: destination 0, up and
/// through a gateway; addresses in the kernel's byte order, hex).
pub(super) fn default_route_v4(table: &str) -> Option<Ipv4Addr> {
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

/// The interface of the first IPv6 default route (`/proc/net/ipv6_route`: destination ::/0,
/// up, not the "unreachable" route the kernel keeps on `lo`).
pub(super) fn default_route_v6_interface(table: &str) -> Option<String> {
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
pub(super) fn global_v6_of(table: &str, iface: &str) -> Option<Ipv6Addr> {
    table.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (hex, scope, name) = (f.first()?, f.get(3)?, f.get(5)?);
        if *name != iface || *scope != "00" || hex.len() != 32 {
            return None;
        }
        let bits = u128::from_str_radix(hex, 16).ok()?;
        let ip = Ipv6Addr::from(bits);
        super::valid_for_a_node(IpAddr::V6(ip)).then_some(ip)
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
}
