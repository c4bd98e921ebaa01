"""A real local push service for the tests: an HTTP server that takes Web Push
messages the way a browser vendor's service does, and a subscriber's keys to read them.

``subscribe()`` plays the browser's part of ``PushManager.subscribe``: it makes the
subscriber's P-256 key pair and 16-byte auth secret and returns the JSON a browser
would give the page.  Each message posted to a subscription's endpoint is checked
(RFC 8292: the VAPID token's ES256 signature by the key in ``k``, its audience and
expiry, its subject) and decrypted with the subscriber's private key (RFC 8291 /
RFC 8188, ``aes128gcm``), independently of the server's sending code: http_ece's
decryption and the cryptography package's signature check.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One message as the push service took it."""

    headers: dict[str, str]
    body: bytes
    """As it came over the wire (encrypted)."""
    payload: Any
    """The decrypted JSON (None when it did not decrypt)."""
    vapid_key: str
    """The server key the VAPID token was signed with."""
    claims: dict[str, Any]
    problems: list[str]
    """What a real push service would have refused (empty: all well)."""


@dataclass
class Subscriber:
    key: ec.EllipticCurvePrivateKey
    auth: bytes
    status: int = 201
    """What the service answers for this subscription (410: unsubscribed)."""
    inbox: list[Received] = field(default_factory=list)


class PushService:
    def __init__(self) -> None:
        self.subscribers: dict[str, Subscriber] = {}
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sub_id = self.path.rsplit("/", 1)[-1]
                status = service.take(sub_id, dict(self.headers.items()), body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self) -> dict[str, Any]:
        """A new subscription, as ``PushSubscription.toJSON()`` gives it to the page."""
        sub_id = secrets.token_urlsafe(12)
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        with self.lock:
            self.subscribers[sub_id] = Subscriber(key, auth)
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{sub_id}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(auth)},
        }

    def subscriber(self, subscription: dict[str, Any]) -> Subscriber:
        return self.subscribers[subscription["endpoint"].rsplit("/", 1)[-1]]

    def inbox(self, subscription: dict[str, Any]) -> list[Received]:
        with self.lock:
            return list(self.subscriber(subscription).inbox)

    def wait_for(
        self, subscription: dict[str, Any], count: int, timeout: float = 20
    ) -> list[Received]:
        """The subscription's messages once there are ``count`` (fails after ``timeout``)."""
        end = time.monotonic() + timeout
        with self.arrived:
            while len(self.subscriber(subscription).inbox) < count:
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"{len(self.subscriber(subscription).inbox)} push messages, wanted {count}"
                    )
                self.arrived.wait(left)
            return list(self.subscriber(subscription).inbox)

    def take(self, sub_id: str, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            sub = self.subscribers.get(sub_id)
        if sub is None:
            return 404
        got = self.read(sub, headers, body)
        with self.arrived:
            sub.inbox.append(got)
            self.arrived.notify_all()
        return sub.status

    def read(self, sub: Subscriber, headers: dict[str, str], body: bytes) -> Received:
        problems: list[str] = []
        h = {k.lower(): v for k, v in headers.items()}
        if h.get("content-encoding") != "aes128gcm":
            problems.append(f"content-encoding {h.get('content-encoding')!r}")
        if not h.get("ttl", "").isdigit():
            problems.append("no TTL")
        key, claims = "", {}
        try:
            key, claims = self.check_vapid(h.get("authorization", ""), problems)
        except (ValueError, KeyError) as exc:
            problems.append(f"bad VAPID header: {exc}")
        payload = None
        try:
            plain = http_ece.decrypt(
                body, private_key=sub.key, auth_secret=sub.auth, version="aes128gcm"
            )
            payload = json.loads(plain)
        except Exception as exc:  # anything: the message did not decrypt
            problems.append(f"does not decrypt: {exc!r}")
        return Received(h, body, payload, key, claims, problems)

    def check_vapid(self, header: str, problems: list[str]) -> tuple[str, dict[str, Any]]:
        scheme, _, rest = header.partition(" ")
        if scheme != "vapid":
            raise ValueError(f"scheme {scheme!r}")
        fields = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, key = fields["t"], fields["k"]
        head, body, sig = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        raw = unb64url(sig)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            problems.append("VAPID signature does not verify")
        if json.loads(unb64url(head)).get("alg") != "ES256":
            problems.append("VAPID alg is not ES256")
        claims = json.loads(unb64url(body))
        if claims.get("aud") != self.origin:
            problems.append(f"VAPID aud {claims.get('aud')!r}, not {self.origin}")
        if not time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600:
            problems.append("VAPID exp not within the next 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            problems.append("VAPID sub is not a mailto: or https: URL")
        return key, claims
