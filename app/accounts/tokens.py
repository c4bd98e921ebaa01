"""Session tokens, the CSRF value bound to each, the device cookie, and cookie names.

Session tokens are 256 random bits in an HttpOnly cookie; the database keeps only a
SHA-256 of each, so a copy of the database signs nobody in.

CSRF (the *signed double-submit* pattern): every state-changing request that comes
with the session cookie must carry ``X-CSRF-Token`` equal to ``csrf_token(secret,
session token)``, an HMAC-SHA-256 of the session token under the server's own secret
(made at the first start and kept in ``server_keys``, as the VAPID keys are).  The
browser learns that value from the sign-in answer and from a readable cookie;
another site can neither read it nor compute it (it would need both the HttpOnly
session token and the server's secret), and it is bound to one session, so a value
planted by a sibling domain does not fit another session.

The device cookie (``kk_device``) remembers the accounts that signed in on this
browser (app/accounts/attempts.py): each entry is an account id, a random device id
and the day it was given, signed with the same secret under another label.  It is
worth nothing without the password: it only lets its browser keep trying when the
account is under attack from elsewhere.

Over TLS the session and device cookies are named with the ``__Host-`` prefix (the
browser then takes them only from this host, with Secure and Path=/, so that a
sibling domain cannot plant or shadow them); over plain http (a local server) they
keep their plain names.  Both names are read.  The CSRF cookie keeps its plain name
everywhere: it is no credential (a planted one fits no session), and the page reads
it by that name.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SESSION_COOKIE = "kk_session"
CSRF_COOKIE = "kk_csrf"
DEVICE_COOKIE = "kk_device"
HOST_PREFIX = "__Host-"
CSRF_HEADER = "X-CSRF-Token"
SECRET_NAME = "csrf"
"""The server secret's row in ``server_keys`` (it signs the CSRF values and device cookies)."""
DEVICE_DAYS = 365
"""How long a device cookie counts (it is given anew at each sign-in)."""
DEVICE_ACCOUNTS = 5
"""Accounts one browser's device cookie remembers (the most recent sign-ins)."""


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    return hashlib.sha256(b"krypkasino-session:" + token.encode("utf-8")).hexdigest()


def cookie_name(name: str, tls: bool) -> str:
    """The name a cookie is set under: ``__Host-`` prefixed over TLS."""
    return HOST_PREFIX + name if tls else name


def cookie_names(name: str) -> tuple[str, str]:
    """The names a cookie is read under, the prefixed one first."""
    return HOST_PREFIX + name, name


def _mac(secret: bytes, label: bytes, text: str) -> str:
    digest = hmac.new(secret, label + text.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def csrf_token(secret: bytes, session_token: str) -> str:
    return _mac(secret, b"krypkasino-csrf:", session_token)


def csrf_matches(secret: bytes, session_token: str, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(
        csrf_token(secret, session_token).encode(), sent.encode("utf-8", "replace")
    )


def new_account_id() -> str:
    return secrets.token_hex(16)


def _entries(secret: bytes, cookie: str | None, now_ms: int) -> list[tuple[str, str, str]]:
    """The valid (account id, device id, entry) of a device cookie, in its order."""
    found = []
    oldest = now_ms // 1000 - DEVICE_DAYS * 86400
    for entry in (cookie or "").split("~")[:DEVICE_ACCOUNTS]:
        parts = entry.split(".")
        if len(parts) != 4:
            continue
        account_id, device_id, day, mac = parts
        payload = f"{account_id}.{device_id}.{day}"
        if not hmac.compare_digest(_mac(secret, b"krypkasino-device:", payload), mac):
            continue
        if day.isdigit() and int(day) >= oldest:
            found.append((account_id, device_id, entry))
    return found


def device_of(secret: bytes, cookie: str | None, account_id: str, now_ms: int) -> str | None:
    """The device id under which this browser signed in to the account before (its
    cookie's entry for the account, signed by us and not too old), or None."""
    for found_id, device_id, _ in _entries(secret, cookie, now_ms):
        if found_id == account_id:
            return device_id
    return None


def device_cookie(secret: bytes, cookie: str | None, account_id: str, now_ms: int) -> str:
    """The device cookie after a sign-in to the account: a new entry for it first, then
    the browser's other accounts (up to DEVICE_ACCOUNTS in all)."""
    payload = f"{account_id}.{secrets.token_urlsafe(12)}.{now_ms // 1000}"
    entry = f"{payload}.{_mac(secret, b'krypkasino-device:', payload)}"
    others = [e for a, _, e in _entries(secret, cookie, now_ms) if a != account_id]
    return "~".join([entry, *others][:DEVICE_ACCOUNTS])
