"""Web Push reaches public addresses only (issue 46; app/notify/egress.py and
``check_endpoint`` in app/notify/webpush.py).

The address check, range by range and through every IPv6 form that leads to an IPv4
address; the endpoints refused before anything is stored; and the client itself: a
name that resolves inward (through the resolver seam the tests point at) is refused
before any connection, which a real listener on 127.0.0.1 confirms, and a connection
goes to the address that was checked, once looked up, with the name as SNI, Host and
the name the certificate is checked against (a real TLS server on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.notify.egress import NotPublic, PushClient, is_public
from app.notify.webpush import (
    BadSubscription,
    Outcome,
    Subscription,
    VapidKeys,
    check_endpoint,
    send,
)
from tests.notify.listener import Listener
from tests.notify.push_service import PushService

SUBJECT = "mailto:host@example.org"

NOT_PUBLIC = [
    # IPv4: this network, private, shared (CGNAT), loopback, link-local (metadata),
    # IETF, documentation, 6to4 relay, benchmarking, multicast, reserved, broadcast
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.9",
    "192.0.0.170",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.51.100.1",
    "203.0.113.1",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    # IPv6: unspecified, loopback, IPv4-compatible, unique-local, link-local (scoped
    # too), site-local, multicast, discard, IETF, Teredo, documentation, reserved
    "::",
    "::1",
    "::127.0.0.1",
    "::8.8.8.8",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "ff0e::1",
    "100::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:db8::1",
    "3fff::1",
    "4000::1",
    "64:ff9b:1::a00:1",
    # the IPv6 forms of IPv4 addresses inside: mapped, NAT64, 6to4
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:0.0.0.0",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::1",
    "2002:a00:1::",
    "2002:c0a8:101::1",
    # not an address at all
    "",
    "localhost",
    "2130706433",
]

PUBLIC = [
    "8.8.8.8",
    "93.184.216.34",
    "142.250.74.106",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:830::200a",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_every_address_that_is_not_public_is_refused(address: str) -> None:
    assert not is_public(address)
    if address and address[0].isdigit() or ":" in address:
        try:
            parsed = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            return
        assert not is_public(parsed)


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_and_their_ipv6_forms_are_taken(address: str) -> None:
    assert is_public(address)
    assert is_public(ipaddress.ip_address(address))


REFUSED_ENDPOINTS = [
    # numbers the C library reads as 127.0.0.1 (decimal, hex, octal, short forms)
    "https://2130706433:8950/x",
    "https://0x7f000001:8950/x",
    "https://0177.0.0.1:8950/x",
    "https://0x7f.0.0.1/x",
    "https://127.1:8950/x",
    "https://127.0.1/x",
    "https://0/x",
    "https://0x/x",
    "https://017700000001/x",
    "https://127.000.000.001/x",
    # trailing dots
    "https://localhost./x",
    "https://127.0.0.1./x",
    "https://push.example.org./x",
    # this machine by name
    "https://localhost/x",
    "https://LOCALHOST:8950/x",
    "https://push.localhost/x",
    # literal addresses that are not public, in any form
    "https://127.0.0.1:8950/x",
    "https://0.0.0.0/x",
    "https://10.0.0.1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]:8950/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:7f00:1]/x",
    "https://[64:ff9b::7f00:1]/x",
    "https://[2002:7f00:1::]/x",
    "https://[fe80::1]/x",
    "https://[fc00::1]/x",
    "https://224.0.0.1/x",
    "https://[127.0.0.1]/x",
    # user names, odd characters, bad ports, no host, not https
    "https://push.example.org@127.0.0.1/x",
    "https://user:pw@push.example.org/x",
    "https://push_service.example.org/x",
    "https://push.example.org%2f@127.0.0.1/x",
    "https://push.example.org /x",
    "https://push.exämple.org/x",
    "https://push.example.org:0/x",
    "https://push.example.org:99999/x",
    "https://-push.example.org/x",
    "https://push..example.org/x",
    "https:///x",
    "http://push.example.org/x",
    "ftp://push.example.org/x",
]


@pytest.mark.parametrize("endpoint", REFUSED_ENDPOINTS)
def test_endpoints_no_push_service_has_are_refused_before_anything_is_kept(
    endpoint: str,
) -> None:
    with pytest.raises(BadSubscription) as refused:
        check_endpoint(endpoint)
    assert refused.value.code == "bad_subscription"


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGx",
        "https://db5p.notify.windows.com/w/?token=BQYAAA",
        "https://push.example.org:8443/x",
        "https://8.8.8.8/x",
        "https://[2606:4700:4700::1111]/x",
    ],
)
def test_push_services_endpoints_are_taken_without_a_lookup(endpoint: str) -> None:
    check_endpoint(endpoint)


def test_the_tests_own_push_service_is_still_allowed_with_allow_local() -> None:
    check_endpoint("http://127.0.0.1:8950/push/abc", allow_local=True)
    check_endpoint("https://localhost:8950/push/abc", allow_local=True)
    for endpoint in ("https://2130706433:8950/x", "https://localhost./x"):
        with pytest.raises(BadSubscription):
            check_endpoint(endpoint, allow_local=True)


class Resolver:
    """The resolver seam: fixed answers per name, and every lookup counted."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers
        self.lookups: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.lookups.append(host)
        if host not in self.answers:
            raise OSError(f"no such name {host}")
        return self.answers[host]


@pytest.fixture
def listener() -> Iterator[Listener]:
    s = Listener()
    yield s
    s.close()


@pytest.mark.parametrize(
    "answer",
    [["127.0.0.1"], ["93.184.216.34", "127.0.0.1"], ["::ffff:127.0.0.1"], ["10.0.0.1"]],
    ids=["loopback", "public-and-loopback", "mapped-loopback", "private"],
)
def test_a_name_that_resolves_inward_is_never_connected_to(
    listener: Listener, answer: list[str]
) -> None:
    resolver = Resolver({"rebind.example.org": answer})
    url = f"https://rebind.example.org:{listener.port}/push/x"
    check_endpoint(url)  # a name: taken when subscribing, checked when connecting
    browser = PushService()
    try:
        data = browser.subscribe()
    finally:
        browser.close()
    sub = Subscription.parse(dict(data, endpoint=url))

    async def go() -> tuple[Outcome, BaseException | None]:
        async with PushClient(resolver=resolver, timeout=5) as client:
            outcome = await send(client, VapidKeys.generate(), SUBJECT, sub, {"x": 1})
            try:
                await client.get(url)
            except NotPublic as exc:
                return outcome, exc
            return outcome, None

    outcome, refused = asyncio.run(go())
    assert outcome is Outcome.REFUSED
    assert isinstance(refused, NotPublic) and refused.host == "rebind.example.org"
    assert listener.seen() == []


def test_a_name_that_does_not_resolve_is_a_failure_kept_for_later(listener: Listener) -> None:
    async def go() -> None:
        async with PushClient(resolver=Resolver({}), timeout=5) as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(f"https://gone.example.org:{listener.port}/")

    asyncio.run(go())
    assert listener.seen() == []


def test_the_tests_push_service_is_reached_through_the_same_client_with_allow_local() -> None:
    service = PushService()
    try:
        data = service.subscribe()
        port = service.server.server_address[1]
        resolver = Resolver({"push.test": ["127.0.0.1"]})
        browser = dict(data, endpoint=data["endpoint"].replace("127.0.0.1", "push.test"))
        sub = Subscription.parse(browser, allow_local=True)
        keys = VapidKeys.generate()

        async def go() -> Outcome:
            async with PushClient(allow_local=True, resolver=resolver) as client:
                return await send(client, keys, SUBJECT, sub, {"n": 1})

        assert asyncio.run(go()) is Outcome.DELIVERED
        (got,) = service.wait_for(data, 1)
        assert got.payload == {"n": 1}
        assert got.headers["host"] == f"push.test:{port}"
        assert resolver.lookups == ["push.test"]
    finally:
        service.close()


def _certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / f"{name}.crt", folder / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class TlsPushService:
    """An HTTPS server on 127.0.0.1 that answers 201 and notes the SNI name and the
    Host header of each request."""

    def __init__(self, cert: Path, key: Path) -> None:
        self.sni: list[str | None] = []
        self.hosts: list[str] = []
        seen = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen.hosts.append(self.headers.get("Host", ""))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)

        def note(_sock: Any, name: str | None, _ctx: Any) -> None:
            self.sni.append(name)

        context.sni_callback = note
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("cert_name", ["push.test", "other.test"])
def test_the_connection_goes_to_the_checked_address_under_the_name(
    tmp_path: Path, cert_name: str
) -> None:
    cert, key = _certificate(tmp_path, cert_name)
    service = TlsPushService(cert, key)
    try:
        trust = ssl.create_default_context(cafile=str(cert))
        resolver = Resolver({"push.test": ["127.0.0.1"]})
        browser = PushService()
        try:
            data = browser.subscribe()
        finally:
            browser.close()
        url = f"https://push.test:{service.port}/push/x"
        sub = Subscription.parse(dict(data, endpoint=url), allow_local=True)

        async def go() -> Outcome:
            client = PushClient(allow_local=True, resolver=resolver, ssl_context=trust)
            async with client:
                return await send(client, VapidKeys.generate(), SUBJECT, sub, {"n": 1})

        outcome = asyncio.run(go())
    finally:
        service.close()
    assert resolver.lookups == ["push.test"], "one lookup, and the connection to its answer"
    assert service.sni == ["push.test"], "the name, not the address, as SNI"
    if cert_name == "push.test":
        assert outcome is Outcome.DELIVERED
        assert service.hosts == [f"push.test:{service.port}"]
    else:  # the certificate is checked against the name: another name's is refused
        assert outcome is Outcome.FAILED
        assert service.hosts == []


def test_the_client_follows_no_redirect_and_uses_no_proxy_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    service = PushService()
    try:
        data = service.subscribe()
        sub = Subscription.parse(data, allow_local=True)

        async def go() -> Outcome:
            async with PushClient(allow_local=True) as client:
                assert client.follow_redirects is False
                return await send(client, VapidKeys.generate(), SUBJECT, sub, {"n": 1})

        assert asyncio.run(go()) is Outcome.DELIVERED
    finally:
        service.close()
