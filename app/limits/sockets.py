"""Limits on WebSocket connections: how many one address (an IPv6 client: its network)
and one room may hold open, how many this process holds in all, and how often one
address may present a token of no seat.

A server has a few thousand file descriptors to give; without a cap one client
opened 981 sockets and left none for anyone else, and 49 addresses of 20 sockets
each used up a process's 1,024.  The per-address cap stops one network; the total
cap (WS_MAX, below the open-files limit: app/limits/files.py) stops many, with a
clear refusal instead of a failed accept().  Counts are this process's (several
processes behind a proxy each apply them; the proxy examples cap connections per
address for the whole site).
"""

from __future__ import annotations

from .rate import KeyedCounter, KeyedRateLimit


class SocketGuard:
    def __init__(
        self, per_address: int, per_room: int, bad_tokens_per_minute: float, total: int = 0
    ) -> None:
        self.per_address = per_address
        self.per_room = per_room
        self.total = total
        """Open connections in this process at most (0: no cap)."""
        self.open = 0
        self.by_address = KeyedCounter()
        self.by_room = KeyedCounter()
        self.bad_tokens = KeyedRateLimit(bad_tokens_per_minute)

    def admit(self, address: str, room_id: str) -> tuple[str, str] | None:
        """Count a new connection in, or say why not: (limit, message).  The address's
        own cap is looked at first, so that a flood from one network is told so (and
        stops counting against everyone) long before the total cap is near."""
        if self.per_address and self.by_address.get(address) >= self.per_address:
            return (
                "ws_per_ip",
                f"too many connections from your address (at most "
                f"{self.per_address}); close some and try again",
            )
        if self.per_room and self.by_room.get(room_id) >= self.per_room:
            return ("ws_per_room", f"this room has {self.per_room} connections, its most")
        if self.total and self.open >= self.total:
            return (
                "ws_total",
                f"the server holds as many connections as it can ({self.total}); "
                "try again in a minute",
            )
        self.open += 1
        self.by_address.add(address)
        self.by_room.add(room_id)
        return None

    def release(self, address: str, room_id: str) -> None:
        self.open -= 1
        self.by_address.remove(address)
        self.by_room.remove(room_id)
