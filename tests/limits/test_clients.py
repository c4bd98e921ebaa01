"""app/limits/clients.py: whom a per-client limit counts.  An IPv4 client is its
address; an IPv6 client is its network of IPV6_PREFIX bits, so that the 2^64 addresses
of one home connection count as one client (issue 34)."""

from __future__ import annotations

import pytest

from app.limits.clients import UNKNOWN, client_key, network_key


def test_every_address_of_one_ipv6_64_is_one_client() -> None:
    keys = {network_key(f"2001:db8:1:2:{i:x}:{i * 7:x}::{i:x}") for i in range(1, 200)}
    assert keys == {"2001:db8:1:2::/64"}


def test_the_next_64_is_another_client() -> None:
    assert network_key("2001:db8:1:3::1") != network_key("2001:db8:1:2::1")


def test_ipv4_clients_stay_one_per_address() -> None:
    assert network_key("203.0.113.7") == "203.0.113.7"
    assert network_key("203.0.113.8") == "203.0.113.8"


def test_an_ipv4_mapped_ipv6_address_is_its_ipv4_address() -> None:
    assert network_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert network_key("::ffff:203.0.113.7", 48) == network_key("203.0.113.7")


@pytest.mark.parametrize(
    ("prefix", "key"),
    [
        (48, "2001:db8:1::/48"),
        (56, "2001:db8:1:200::/56"),
        (64, "2001:db8:1:2ff::/64"),
        (128, "2001:db8:1:2ff::9/128"),
    ],
)
def test_the_prefix_is_configurable(prefix: int, key: str) -> None:
    assert network_key("2001:db8:1:2ff::9", prefix) == key


def test_a_zone_names_an_interface_not_a_client() -> None:
    assert network_key("fe80::1%eth0") == network_key("fe80::2%eth1") == "fe80::/64"


def test_what_is_no_address_is_kept_as_it_is() -> None:
    assert network_key("testclient") == "testclient"
    assert client_key({"client": None}) == UNKNOWN
    assert client_key({"client": ("2001:db8::5", 443)}) == "2001:db8::/64"
    assert client_key({"client": ("2001:db8::5", 443)}, 128) == "2001:db8::5/128"
