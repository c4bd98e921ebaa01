"""app/limits/sockets.py: the caps on open WebSockets, per client, per room, and in all
(WS_MAX), and the default of the last one below the open-files limit."""

from __future__ import annotations

import resource

from app.limits.files import SOCKET_SHARE, default_socket_cap
from app.limits.sockets import SocketGuard


def test_a_client_at_its_cap_is_told_before_the_total_cap_is_reached() -> None:
    guard = SocketGuard(per_address=2, per_room=0, bad_tokens_per_minute=0, total=3)
    assert guard.admit("2001:db8::/64", "r") is None
    assert guard.admit("2001:db8::/64", "r") is None
    refused = guard.admit("2001:db8::/64", "r")
    assert refused is not None and refused[0] == "ws_per_ip"
    assert guard.admit("198.51.100.7", "r") is None, "another client still gets in"
    full = guard.admit("198.51.100.8", "r")
    assert full is not None and full[0] == "ws_total" and "3" in full[1]
    guard.release("198.51.100.7", "r")
    assert guard.admit("198.51.100.8", "r") is None, "a closed socket frees its place"
    assert guard.open == 3


def test_no_total_cap_at_zero() -> None:
    guard = SocketGuard(per_address=0, per_room=0, bad_tokens_per_minute=0, total=0)
    assert all(guard.admit(f"198.51.100.{i}", "r") is None for i in range(100))


def test_the_default_total_cap_leaves_a_quarter_of_the_open_files() -> None:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    cap = default_socket_cap()
    if soft == resource.RLIM_INFINITY:
        assert cap == 0
    else:
        assert cap == int(soft * SOCKET_SHARE) and 0 < cap < soft
