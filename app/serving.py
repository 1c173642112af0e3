"""Connections as both servers take them: who a client is for the limits (an IPv4 address,
an IPv6 /64: one household's or one attacker's whole network)."""

from __future__ import annotations

import ipaddress

IPV6_NETWORK = 64  # an IPv6 host gets a /64 to itself: 2^64 addresses, one client


def client_group(address: str | None) -> str:
    """What the limits count a client by: its IPv4 address, or its IPv6 /64 network (an
    IPv4 address written in IPv6 is the IPv4 one). Anything else counts as itself."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return address or "unknown"
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/{IPV6_NETWORK}", strict=False))
    return str(ip)
