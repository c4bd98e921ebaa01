"""One Web Push message, encrypted for one browser and signed with the server's key.

A browser that subscribes gives an endpoint URL at its push service and two keys:
``p256dh`` (its ECDH public key) and ``auth`` (a shared secret).  The message is
encrypted with those (RFC 8291, content coding ``aes128gcm``), so the push service
carries it without reading it, and the request carries a VAPID token (RFC 8292)
signed with this server's key pair, which the browser was given when it subscribed:
a push service accepts messages for that subscription from this server only.

The endpoint comes from a browser, so whoever subscribes picks the host the server
connects to.  ``check_endpoint`` refuses at once what is plainly not a push service's
URL: not https, a user name in it, an address that is not public, an address written
as a number in any other form (``2130706433``, ``0x7f000001``, ``0177.0.0.1``,
``127.1``), a name ending in a dot, ``localhost``.  A name is not looked up then: what
it resolves to is checked when the server connects (``egress.PushClient``), to the
address it then connects to, and a subscription whose name leads anywhere but a public
address is dropped (``Outcome.REFUSED``).  ``allow_local`` (PUSH_ALLOW_LOCAL) lets
every address and plain http through: the tests run their push service on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from . import ece
from .egress import NotPublic, is_public

TOKEN_LIFETIME_S = 12 * 3600
"""A VAPID token's lifetime (RFC 8292 allows up to 24 hours)."""
MAX_PAYLOAD = 3000
"""Push services accept about 4 KB of encrypted body; a message stays well under."""
SEND_DEADLINE_S = 30.0
"""One message, lookup to answer, however slowly a push service drips its reply."""
MAX_ANSWER = 64 * 1024
"""Bytes of a push service's answer read (to keep its connection); the rest is dropped."""
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_NUMERIC_LABEL = re.compile(r"[0-9]+|0x[0-9a-f]*")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BadSubscription(ValueError):
    """A subscription this server will not send to (its ``code`` says why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Subscription:
    """What ``PushManager.subscribe`` gave the browser (``PushSubscription.toJSON()``)."""

    endpoint: str
    p256dh: str
    auth: str

    @classmethod
    def parse(cls, data: object, *, allow_local: bool = False) -> Subscription:
        """From the browser's JSON; raises BadSubscription for anything malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
            raise BadSubscription("bad_subscription", "expected {endpoint, keys: {p256dh, auth}}")
        endpoint, keys = data.get("endpoint"), data["keys"]
        p256dh, auth = keys.get("p256dh"), keys.get("auth")
        if not (
            isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)
        ) or not (endpoint and p256dh and auth):
            raise BadSubscription("bad_subscription", "endpoint, p256dh and auth are strings")
        check_endpoint(endpoint, allow_local=allow_local)
        try:
            point = unb64url(p256dh)
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
            secret = unb64url(auth)
        except ValueError as exc:
            raise BadSubscription("bad_subscription", f"bad keys: {exc}") from exc
        if len(secret) != 16:
            raise BadSubscription("bad_subscription", "auth must be 16 bytes")
        return cls(endpoint, p256dh, auth)


def check_endpoint(endpoint: str, *, allow_local: bool = False) -> None:
    """Refuse an endpoint this server will not post to (BadSubscription): see the
    module's text.  No name is looked up here; ``allow_local`` lets plain http and every
    address through, but not a malformed host."""
    if len(endpoint) > 2000:
        raise BadSubscription("bad_subscription", "endpoint too long")
    if not endpoint.isascii() or not endpoint.isprintable() or " " in endpoint:
        raise BadSubscription("bad_subscription", "the endpoint is not a plain URL")
    try:
        parts = urlsplit(endpoint)
    except ValueError as exc:  # such as an IPv4 address in brackets
        raise BadSubscription("bad_subscription", "the endpoint is not a URL") from exc
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise BadSubscription("bad_subscription", "the endpoint must be an https URL")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or "@" in parts.netloc:
        raise BadSubscription("bad_subscription", "the endpoint's host or port is malformed")
    host = parts.hostname or ""
    if not host:
        raise BadSubscription("bad_subscription", "the endpoint has no host")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        _check_name(host, allow_local)
        return
    bracketed = "[" in parts.netloc
    if bracketed != (address.version == 6) or (not bracketed and str(address) != host):
        raise BadSubscription("bad_subscription", "the endpoint's address is malformed")
    if not allow_local and not is_public(address):
        raise BadSubscription("bad_subscription", "the endpoint is not a public address")


def _check_name(host: str, allow_local: bool) -> None:
    """A host name as push services have them: letters, digits and hyphens in dotted
    labels, and not a number (what ``inet_aton`` would read as an address)."""
    if host.endswith("."):
        raise BadSubscription("bad_subscription", "the endpoint's host ends with a dot")
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise BadSubscription("bad_subscription", "the endpoint's host is not a host name")
    if _NUMERIC_LABEL.fullmatch(labels[-1]):
        raise BadSubscription("bad_subscription", "the endpoint's host is a number")
    if not allow_local and labels[-1] == "localhost":
        raise BadSubscription("bad_subscription", "the endpoint is this machine")


@dataclass(frozen=True, slots=True)
class VapidKeys:
    """The server's VAPID key pair (P-256), kept as PEM; the browser is given the
    public key as ``applicationServerKey`` when it subscribes."""

    private_pem: str

    @classmethod
    def generate(cls) -> VapidKeys:
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        return cls(pem.decode("ascii"))

    @property
    def public_key(self) -> str:
        """The uncompressed public point, base64url (what ``subscribe`` wants)."""
        key = self._vapid().public_key
        return b64url(
            key.public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def _vapid(self) -> Vapid02:
        return Vapid02.from_pem(self.private_pem.encode("ascii"))

    def authorization(self, endpoint: str, subject: str, now: float | None = None) -> str:
        """The ``Authorization`` header for a request to ``endpoint``'s push service."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int((now or time.time()) + TOKEN_LIFETIME_S),
            "sub": subject,
        }
        return str(self._vapid().sign(claims)["Authorization"])


def encrypt(payload: bytes, sub: Subscription) -> bytes:
    """The body of a push message: ``payload`` for this subscription's browser only
    (RFC 8291: a fresh ECDH key and salt for every message; see ``ece``)."""
    return ece.encrypt(payload, browser_key=unb64url(sub.p256dh), auth_secret=unb64url(sub.auth))


class Outcome(Enum):
    DELIVERED = "delivered"
    GONE = "gone"
    """The push service no longer knows the subscription (404 or 410): drop it."""
    FAILED = "failed"
    """Refused or unreachable for now; the subscription is kept."""
    REFUSED = "refused"
    """Never sent: the endpoint leads to an address that is not public (or is no longer
    one the server takes); drop it."""


async def send(
    client: httpx.AsyncClient,
    keys: VapidKeys,
    subject: str,
    sub: Subscription,
    message: Mapping[str, object],
    *,
    ttl: int = 24 * 3600,
    urgency: str = "normal",
) -> Outcome:
    """Post one message; what became of it (never raises for the push service's answer)."""
    payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"push message of {len(payload)} bytes is too long")
    headers = {
        "TTL": str(ttl),
        "Urgency": urgency,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Authorization": keys.authorization(sub.endpoint, subject),
    }
    try:
        async with asyncio.timeout(SEND_DEADLINE_S):
            return await _post(client, sub.endpoint, encrypt(payload, sub), headers)
    except (NotPublic, httpx.InvalidURL):
        return Outcome.REFUSED
    except (httpx.HTTPError, TimeoutError):
        return Outcome.FAILED


async def _post(
    client: httpx.AsyncClient, endpoint: str, body: bytes, headers: dict[str, str]
) -> Outcome:
    request = client.build_request("POST", endpoint, content=body, headers=headers)
    res = await client.send(request, stream=True, follow_redirects=False)
    try:
        read = 0
        async for chunk in res.aiter_raw():
            read += len(chunk)
            if read > MAX_ANSWER:
                break
    finally:
        await res.aclose()
    if res.status_code in (404, 410):
        return Outcome.GONE
    return Outcome.DELIVERED if 200 <= res.status_code < 300 else Outcome.FAILED
