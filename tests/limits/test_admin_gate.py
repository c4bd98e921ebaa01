"""app/limits/admin.py: wrong admin tokens are counted per client, an IPv6 client by its
network, so rotating through a /64 does not buy more guesses (issue 34)."""

from __future__ import annotations

from starlette.requests import Request

from app.limits.admin import ADMIN_FAILURE_BURST, AdminGate, AdminRefused, token_hash


def _request(address: str, token: str) -> Request:
    return Request(
        {
            "type": "http",
            "method": "GET",
            "path": "/api/admin/stats",
            "headers": [(b"authorization", f"Bearer {token}".encode())],
            "client": (address, 1000),
        }
    )


def _status(gate: AdminGate, address: str, token: str) -> int:
    try:
        gate.check(_request(address, token))
    except AdminRefused as refused:
        return refused.status
    return 200


def test_guesses_from_one_64_share_one_allowance() -> None:
    refused: list[str] = []
    gate = AdminGate(token_hash("right"), refused.append)
    guesses = [
        _status(gate, f"2001:db8:0:7::{i:x}", f"guess{i}") for i in range(ADMIN_FAILURE_BURST + 2)
    ]
    assert guesses == [401] * ADMIN_FAILURE_BURST + [429, 429]
    assert _status(gate, "2001:db8:0:7:ffff::1", "right") == 429, "the right token included"
    assert _status(gate, "2001:db8:0:8::1", "right") == 200, "another network is not held up"
    assert refused == ["admin_token"] * 3


def test_with_ipv6_prefix_128_each_address_counts_alone() -> None:
    gate = AdminGate(token_hash("right"), lambda _: None, 128)
    for i in range(ADMIN_FAILURE_BURST):
        assert _status(gate, "2001:db8:0:7::1", f"guess{i}") == 401
    assert _status(gate, "2001:db8:0:7::1", "right") == 429
    assert _status(gate, "2001:db8:0:7::2", "right") == 200
