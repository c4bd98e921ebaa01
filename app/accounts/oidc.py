"""Sign-in through the host's OpenID Connect provider (issue 34): the words of the flow.

What the flow needs to say, without any HTTP library: the provider's settings, the
identity a sign-in proves, the ways a sign-in fails (each a wire code), and the
store of sign-ins under way.  ``oidc_client.py`` runs the flow itself through
authlib's client; it is imported only when a provider is configured.

A sign-in under way is a row keyed by the SHA-256 of its ``state``: the state
itself lives only in the browser (a short-lived HttpOnly cookie, and the
provider's redirect), so the row is worth nothing to someone who reads the
database, and taking it is one atomic delete, so a state is used once across
every server process (a replayed callback finds no row).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

PENDING_SECONDS = 600
"""How long a sign-in may take at the provider before its state is refused."""


@dataclass(frozen=True, slots=True)
class OidcConfig:
    """The provider as the host configured it (OIDC_* settings)."""

    issuer: str
    """Its issuer URL, exactly as its ID tokens' ``iss`` says it (discovery at
    ``<issuer>/.well-known/openid-configuration``)."""
    client_id: str
    client_secret: str | None
    """None: a public client, which proves itself by PKCE alone."""
    name: str
    """Shown on the lobby's button: "Sign in with <name>"."""
    scopes: str
    """Space-separated; ``openid`` among them."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who the provider says signed in: the pair (issuer, subject) is the person;
    the username is only a wish (the accounts make it unique)."""

    issuer: str
    subject: str
    preferred_username: str


@dataclass(frozen=True, slots=True)
class Pending:
    """A sign-in under way, as stored: what the callback needs to finish it."""

    nonce: str
    code_verifier: str
    redirect_uri: str
    expires_ms: int


class PendingStore(Protocol):
    """Sign-ins under way (``app/db/oidc.py`` keeps them in the database)."""

    async def put(self, state_hash: str, pending: Pending, now_ms: int) -> None:
        """Store a sign-in under way; drops those expired before ``now_ms``."""

    async def take(self, state_hash: str) -> Pending | None:
        """Remove and return the sign-in of this state, once: a second take of the same
        state (a replayed callback, another process) gets None."""


class OidcFlow(Protocol):
    """The flow as the API sees it (``oidc_client.OidcClient`` runs it)."""

    config: OidcConfig

    async def begin(self, redirect_uri: str) -> tuple[str, str]:
        """A new sign-in: (the provider's authorization URL, the state for the browser)."""

    async def finish(self, browser_state: str | None, params: dict[str, str]) -> Identity:
        """The identity a callback proves (its query ``params``, the browser's state
        cookie), or OidcError."""


class OidcError(Exception):
    """A refused sign-in: a wire code, a status and words for a person.  Nothing has
    changed when one is raised (no account made, no session given)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


BAD_STATE = "bad_state"
"""The callback's state is missing, not this browser's, expired or already used."""
BAD_CODE = "bad_code"
"""The provider refused the code (used already, expired, or not ours)."""
BAD_ID_TOKEN = "bad_id_token"
"""The ID token failed a check: signature, issuer, audience, nonce, expiry."""
PROVIDER_ERROR = "provider_error"
"""The provider answered the callback with an error (the person cancelled, say)."""
PROVIDER_UNREACHABLE = "provider_unreachable"
"""The provider did not answer, or not as an OpenID provider does (502)."""
OIDC_OFF = "oidc_off"
"""No provider is configured (404)."""

CODES = (BAD_STATE, BAD_CODE, BAD_ID_TOKEN, PROVIDER_ERROR, PROVIDER_UNREACHABLE, OIDC_OFF)


def state_hash(state: str) -> str:
    """The key a state is stored under (the state itself is not stored)."""
    return hashlib.sha256(state.encode("utf-8")).hexdigest()


def wished_username(claims: Mapping[str, object]) -> str:
    """The username a new account would like: the provider's ``preferred_username``,
    else the part of the e-mail address before the @, else the nickname or the name;
    the accounts make it a valid, unique username (app/accounts/names.py)."""
    for key in ("preferred_username", "email", "nickname", "name"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            text = value.split("@", 1)[0] if key == "email" else value
            if text.strip():
                return text.strip()
    return "player"
