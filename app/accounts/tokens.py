"""Session tokens: 256 random bits in an HttpOnly cookie; the database keeps only a
SHA-256 of each, so a copy of the database signs nobody in.

CSRF (the *signed double-submit* pattern): every state-changing request that comes
with the session cookie must carry ``X-CSRF-Token`` equal to ``csrf_token(session
token)``.  The browser learns that value from the sign-in answer and from a
readable cookie; another site can neither read it nor derive it (it is a one-way
hash of the secret token), and it is bound to one session, so a value planted by a
sibling domain does not fit another session.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SESSION_COOKIE = "kk_session"
CSRF_COOKIE = "kk_csrf"
CSRF_HEADER = "X-CSRF-Token"


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    return hashlib.sha256(b"krypkasino-session:" + token.encode("utf-8")).hexdigest()


def csrf_token(session_token: str) -> str:
    return hashlib.sha256(b"krypkasino-csrf:" + session_token.encode("utf-8")).hexdigest()[:43]


def csrf_matches(session_token: str, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(csrf_token(session_token), sent)


def new_account_id() -> str:
    return secrets.token_hex(16)
