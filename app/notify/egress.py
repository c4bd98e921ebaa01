"""Outgoing connections to public addresses only (issue 46): the HTTP client Web Push
posts with.

A push endpoint is a URL a browser hands the server, so whoever subscribes picks the
host the server connects to.  ``PushClient`` makes that safe where it counts, when
the connection is opened: its network backend resolves the name itself, refuses the
connection (``NotPublic``) unless every address the name has is a public unicast one
(``is_public``), and connects to the address it checked, never looking the name up a
second time (a name that answers 1.2.3.4 to the check and 127.0.0.1 to the connect,
"DNS rebinding", gets nowhere).  Everything above the socket is httpx's as usual: the
URL keeps the name, so TLS sends it as SNI, the certificate is verified against it,
and the Host header carries it.  The client follows no redirect and ignores the
environment's proxy settings (a proxy would do its own lookup).

``allow_local`` (PUSH_ALLOW_LOCAL, the tests' own push service on 127.0.0.1) connects
wherever the name points, through the same code.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import typing
from collections.abc import Awaitable, Callable, Iterable

import anyio
import httpcore
import httpx

Resolver = Callable[[str, int], Awaitable[list[str]]]
"""A name and port to the addresses to connect to, in order (tests give their own)."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_NOT_PUBLIC_V4 = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",  # "this network", unspecified
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # carrier-grade NAT
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local (cloud metadata services)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and 255.255.255.255
    )
)
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
"""Every public IPv6 address is here (the rest is loopback, unspecified, unique-local,
link-local, site-local, multicast, reserved or unassigned)."""
_NOT_PUBLIC_V6 = tuple(
    ipaddress.IPv6Network(n)
    for n in (
        "2001::/23",  # IETF protocol assignments, Teredo (2001::/32) among them
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
    )
)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
"""The well-known NAT64 prefix: the address stands for the IPv4 one in its last 32 bits."""


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one leads to: IPv4-mapped (``::ffff:a.b.c.d``), NAT64
    (``64:ff9b::a.b.c.d``) or 6to4 (``2002:AABB:CCDD::``); None for any other."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


def is_public(address: Address | str) -> bool:
    """Whether the server may connect to ``address``: a public unicast address, not
    one of this machine, a private network, link-local, unique-local, multicast,
    reserved, documentation or unspecified, nor an IPv4-mapped, NAT64 or 6to4 form of
    one of those.  Decided by the tables here, not by the running Python's
    ``is_global`` alone (which calls 224.0.0.1 and 64:ff9b::7f00:1 global)."""
    if isinstance(address, str):
        try:
            address = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return False
        v4 = embedded_ipv4(address)
        if v4 is not None:
            return is_public(v4)
        if address not in _GLOBAL_UNICAST_V6 or any(address in n for n in _NOT_PUBLIC_V6):
            return False
    elif any(address in n for n in _NOT_PUBLIC_V4):
        return False
    return address.is_global and not (
        address.is_multicast or address.is_reserved or address.is_private
    )


class NotPublic(Exception):
    """A connection refused before it was opened: the name has an address that is not
    public (or the URL is an address that is not)."""

    def __init__(self, host: str, addresses: Iterable[str]) -> None:
        self.host, self.addresses = host, sorted(set(addresses))
        super().__init__(f"{host} is not a public address ({', '.join(self.addresses)})")


async def system_resolver(host: str, port: int) -> list[str]:
    """The system's answer for ``host`` (as the standard library's connect would use
    it), each address once, in its order."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class PublicOnlyBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend with the address check between the lookup and the
    connect; every other part (TLS, HTTP) is httpcore's."""

    def __init__(self, resolver: Resolver | None = None, *, allow_local: bool = False) -> None:
        self.resolver = resolver or system_resolver
        self.allow_local = allow_local
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[typing.Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            with anyio.fail_after(timeout):
                try:
                    addresses = await self.resolver(host, port)
                except OSError as exc:
                    raise httpcore.ConnectError(f"{host}: {exc}") from exc
                if not addresses:
                    raise httpcore.ConnectError(f"{host} has no address")
                if not self.allow_local and not all(is_public(a) for a in addresses):
                    raise NotPublic(host, addresses)
                return await self._connect_any(addresses, port, local_address, socket_options)
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"connecting to {host} timed out") from exc

    async def _connect_any(
        self,
        addresses: list[str],
        port: int,
        local_address: str | None,
        socket_options: Iterable[typing.Any] | None,
    ) -> httpcore.AsyncNetworkStream:
        """The first of the checked addresses that answers (each in its turn, as
        ``socket.create_connection`` does)."""
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address, port, local_address=local_address, socket_options=socket_options
                )
            except httpcore.ConnectError as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[typing.Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("no Unix sockets for push")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _PublicTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport (its request mapping and errors) over a connection pool
    whose connections ``PublicOnlyBackend`` opens.  httpx makes no place for a network
    backend, so the pool it keeps in ``_pool`` is replaced by one that has it (httpx
    is pinned in requirements.lock; tests/notify/test_egress.py would fail if this
    stopped taking effect)."""

    def __init__(self, backend: PublicOnlyBackend, context: ssl.SSLContext) -> None:
        super().__init__(verify=context, trust_env=False)
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=backend,
        )


class PushClient(httpx.AsyncClient):
    """An ``httpx.AsyncClient`` that connects to public addresses only (see the module's
    text), follows no redirect and uses no proxy; ``ssl_context`` replaces the
    system's certificate authorities (tests)."""

    def __init__(
        self,
        *,
        allow_local: bool = False,
        resolver: Resolver | None = None,
        timeout: httpx.Timeout | float = 10.0,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.backend = PublicOnlyBackend(resolver, allow_local=allow_local)
        context = ssl_context or httpx.create_ssl_context(trust_env=False)
        super().__init__(
            transport=_PublicTransport(self.backend, context),
            timeout=timeout,
            follow_redirects=False,
            trust_env=False,
        )
