"""The settings of accounts, sign-in and their defences (issue 34, issue 46): a part of
``app.config.Settings``, kept apart so that each settings module stays readable.

docs/deploy.md, "Accounts and access modes" and "Signing in through an OpenID Connect
provider", says what each does for a host.
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator

DEFAULT_OIDC_SCOPES = "openid profile email"


class AccountConfig(BaseModel):
    """Who may play, how people sign in, and how often they may fail to."""

    access: Literal["open", "accounts", "members"] = "open"
    """Who may play: ``open`` (anyone, accounts optional), ``accounts`` (making a room
    needs a signed-in account; anyone with a link may join or watch), ``members`` (only
    signed-in accounts may make, join or watch a room)."""
    password_login: bool = True
    """Local usernames and passwords; false leaves only the identity provider's sign-in
    (register and login answer 403 ``password_login_disabled``)."""
    session_days: float = Field(default=30.0, gt=0, le=400)
    """How long a sign-in lasts (the session cookie's lifetime)."""
    cookie_secure: Literal["auto", "true", "false"] = "auto"
    """The session cookie's Secure flag: ``auto`` sets it when the request came over
    HTTPS (as the trusted reverse proxy says in X-Forwarded-Proto)."""
    login_failures_per_account: int = Field(default=5, ge=0)
    """Failed sign-ins at one username from one client address (or from one browser
    that signed in to it before) within LOGIN_FAILURE_WINDOW before further tries there
    get 429 ``too_many_attempts`` (0: no limit).  Failures from elsewhere do not count:
    nobody can lock a person out of their own address and browser."""
    login_failures_per_address: int = Field(default=20, ge=0)
    """Failed sign-ins per client address within the window, whatever the names (0: no limit)."""
    login_failure_window: int = Field(default=900, ge=1)
    """Seconds a failed sign-in counts against its name and address, and its address."""
    login_failures_account_total: int = Field(default=100, ge=0)
    """Failed sign-ins at one username from all addresses together within
    LOGIN_TOTAL_WINDOW, past which that name is refused to browsers that never signed
    in to it (a spray from many addresses); browsers that did keep trying (0: no limit)."""
    login_total_window: int = Field(default=3600, ge=1)
    """Seconds a failed sign-in counts against its name from all addresses."""
    allowed_origins: str | None = None
    """Origins (``https://host[:port]``, comma-separated) besides PUBLIC_URL's from which
    a browser may send a signed-in request that changes something, sign in, or open a
    WebSocket with the session cookie.  Unset PUBLIC_URL, the request's own host is
    allowed too (a local server)."""
    register_per_hour: int = Field(default=10, ge=0)
    """New accounts per client address an hour (0: no limit)."""
    oidc_issuer: str | None = None
    """The provider's issuer URL (its discovery is at <issuer>/.well-known/openid-configuration);
    unset: no "Sign in with" button, /auth/oidc/* answer 404."""
    oidc_client_id: str | None = None
    """This server's client id at the provider (required with OIDC_ISSUER)."""
    oidc_client_secret: str | None = None
    """The client's secret; unset for a public client (PKCE alone proves it)."""
    oidc_name: str = "OpenID Connect"
    """The provider's name on the lobby's button: "Sign in with <OIDC_NAME>"."""
    oidc_scopes: str = DEFAULT_OIDC_SCOPES
    """Scopes asked for; ``openid`` is always among them."""
    token_requests_per_minute: int = Field(default=120, ge=0)
    """HTTP requests one personal access token may send a minute in one process, all at
    once if need be (issue 51); past it 429 ``rate_limited``.  0: no limit."""
    allow_rated_bots: bool = False
    """Whether bot accounts (issue 51) may sit in rated rooms; off, a rated room refuses
    them (403 ``bots_not_rated``), so that no bot moves people's ratings."""
    outside_bots_in_public_rooms: bool = True
    """Whether bot accounts (issue 51) may take seats of public (lobby-listed) rooms by
    themselves (POST /api/rooms/{id}/seats with a bot's token); false refuses them (403
    ``bots_not_allowed``).  A room's player seating a bot by name is always allowed."""
    oidc_login_per_minute: int = Field(default=20, ge=0)
    """Sign-ins started with the provider (GET /auth/oidc/login) per client address a
    minute, all at once if need be; 0: no limit."""

    @field_validator("oidc_issuer", "oidc_client_id", "oidc_client_secret", mode="before")
    @classmethod
    def _oidc_empty_is_unset(cls, value: object) -> object:
        """OIDC_ISSUER= (as compose files write it) means: no provider."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _empty_origins_are_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("allowed_origins")
    @classmethod
    def _check_origins(cls, value: str | None) -> str | None:
        if value is not None:
            for item in value.split(","):
                parts = urlsplit(item.strip())
                if (
                    parts.scheme not in ("http", "https")
                    or not parts.netloc
                    or parts.path not in ("", "/")
                ):
                    raise ValueError(
                        f"ALLOWED_ORIGINS: {item.strip()!r} is not an origin "
                        "(https://host or https://host:port, no path)"
                    )
        return value
