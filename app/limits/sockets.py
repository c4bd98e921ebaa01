"""Limits on WebSocket connections: how many one address and one room may hold
open, and how often one address may present a token of no seat.

A server has a few thousand file descriptors to give; without a cap one client
opened 981 sockets and left none for anyone else.  Counts are this process's
(several processes behind a proxy each apply them; the proxy examples cap
connections per address for the whole site).
"""

from __future__ import annotations

from .rate import KeyedCounter, KeyedRateLimit


class SocketGuard:
    def __init__(self, per_address: int, per_room: int, bad_tokens_per_minute: float) -> None:
        self.per_address = per_address
        self.per_room = per_room
        self.by_address = KeyedCounter()
        self.by_room = KeyedCounter()
        self.bad_tokens = KeyedRateLimit(bad_tokens_per_minute)

    def admit(self, address: str, room_id: str) -> tuple[str, str] | None:
        """Count a new connection in, or say why not: (limit, message)."""
        if self.per_address and self.by_address.get(address) >= self.per_address:
            return (
                "ws_per_ip",
                f"too many connections from your address (at most "
                f"{self.per_address}); close some and try again",
            )
        if self.per_room and self.by_room.get(room_id) >= self.per_room:
            return ("ws_per_room", f"this room has {self.per_room} connections, its most")
        self.by_address.add(address)
        self.by_room.add(room_id)
        return None

    def release(self, address: str, room_id: str) -> None:
        self.by_address.remove(address)
        self.by_room.remove(room_id)
