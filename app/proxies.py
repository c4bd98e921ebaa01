"""Which peers may speak for a client (TRUSTED_PROXIES): parsed strictly at start-up.

Kept apart from app/config.py so that the settings module stays a list of knobs.
"""

from __future__ import annotations

import ipaddress

DEFAULT_TRUSTED_PROXIES = "127.0.0.1,::1"
"""The loopback addresses: a reverse proxy on the same host (uvicorn's own default)."""


def parse_proxies(text: str) -> list[str]:
    """TRUSTED_PROXIES as a list: each item an IP address or a CIDR network, or ``["*"]``
    (trust every peer).  uvicorn would quietly take a misspelt item as a name no peer
    ever has; here it is an error at start-up instead."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise ValueError("no address given: list addresses or networks, or *")
    if "*" in items:
        return ["*"]
    parsed = []
    for item in items:
        try:  # 10.1.2.3/8 is taken as 10.0.0.0/8 (uvicorn would not match it at all)
            parsed.append(
                str(ipaddress.ip_network(item, strict=False))
                if "/" in item
                else str(ipaddress.ip_address(item))
            )
        except ValueError:
            raise ValueError(
                f"{item!r} is not an IP address, a network (10.0.0.0/8) or *"
            ) from None
    return parsed
