"""Who is asking, for per-client limits: an address, or for IPv6 the network it is in.

uvicorn rewrites the connection's client address from ``X-Forwarded-For`` only
when the direct peer is one of the trusted proxies (``TRUSTED_PROXIES``), taking
the nearest address that is not itself a trusted proxy.  So the address here is
the one a client cannot choose by sending a header.

An IPv4 address is one client.  An IPv6 address is not: a home connection is
usually handed a whole /64 (2^64 addresses) and a server often a /48 or more, so a
limit counted per IPv6 address is a limit per attempt for anyone who rotates
addresses (one /64 made 5,229 rooms a minute that way).  Every per-client limit is
therefore counted per ``client_key``: the IPv4 address, or the IPv6 address's
network of IPV6_PREFIX bits (a /64 by default).  IPv4-mapped IPv6 addresses
(``::ffff:203.0.113.7``, what a dual-stack socket reports for an IPv4 peer) are
their IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

UNKNOWN = "unknown"
DEFAULT_IPV6_PREFIX = 64


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's IP address from an ASGI scope (HTTP or WebSocket)."""
    client = scope.get("client")
    if client and client[0]:
        return str(client[0])
    return UNKNOWN


@lru_cache(maxsize=65536)
def network_key(address: str, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The key a per-client limit counts ``address`` under: an IPv4 address as it is
    (also when written IPv4-mapped), an IPv6 address as its /``ipv6_prefix`` network
    (``2001:db8:1:2::/64``), and anything that is no IP address (a test client's
    name, UNKNOWN) as it is.  Cached: a busy address is keyed once."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    # The zone (``%eth0``) names an interface, not a client: left out.
    return str(ipaddress.IPv6Network((int(ip), min(ipv6_prefix, 128)), strict=False))


def client_key(scope: Mapping[str, Any], ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """``network_key`` of the scope's client address: what every per-client limit
    (rooms, sockets, request rates, admin tokens) counts by."""
    return network_key(client_address(scope), ipv6_prefix)
