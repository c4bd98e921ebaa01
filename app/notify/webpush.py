"""One Web Push message, encrypted for one browser and signed with the server's key.

A browser that subscribes gives an endpoint URL at its push service and two keys:
``p256dh`` (its ECDH public key) and ``auth`` (a shared secret).  The message is
encrypted with those (RFC 8291, content coding ``aes128gcm``), so the push service
carries it without reading it, and the request carries a VAPID token (RFC 8292)
signed with this server's key pair, which the browser was given when it subscribed:
a push service accepts messages for that subscription from this server only.

The endpoint comes from a browser, so it is checked before anything is sent to it
(``check_endpoint``): https only, and never an address of this machine or its
network, unless the host allows it (the tests run their push service on 127.0.0.1).
"""

from __future__ import annotations

import base64
import ipaddress
import json
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from . import ece

TOKEN_LIFETIME_S = 12 * 3600
"""A VAPID token's lifetime (RFC 8292 allows up to 24 hours)."""
MAX_PAYLOAD = 3000
"""Push services accept about 4 KB of encrypted body; a message stays well under."""


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
    def parse(cls, data: Any, *, allow_local: bool = False) -> Subscription:
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
    """Refuse an endpoint this server must not post to: not https, or (unless
    ``allow_local``) a literal address of this machine or a private network."""
    if len(endpoint) > 2000:
        raise BadSubscription("bad_subscription", "endpoint too long")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise BadSubscription("bad_subscription", "the endpoint must be an https URL")
    host = parts.hostname or ""
    if not host:
        raise BadSubscription("bad_subscription", "the endpoint has no host")
    if allow_local:
        return
    if host == "localhost" or host.endswith(".localhost"):
        raise BadSubscription("bad_subscription", "the endpoint is this machine")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return  # a name: push services are public names
    if not address.is_global:
        raise BadSubscription("bad_subscription", "the endpoint is not a public address")


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


async def send(
    client: httpx.AsyncClient,
    keys: VapidKeys,
    subject: str,
    sub: Subscription,
    message: dict[str, Any],
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
        res = await client.post(sub.endpoint, content=encrypt(payload, sub), headers=headers)
    except httpx.HTTPError:
        return Outcome.FAILED
    if res.status_code in (404, 410):
        return Outcome.GONE
    return Outcome.DELIVERED if 200 <= res.status_code < 300 else Outcome.FAILED
