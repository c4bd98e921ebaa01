"""The per-address limits of the HTTP routes: one token bucket per kind of request
(app/limits/rate.py), counted per client address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rate import KeyedRateLimit


@dataclass(frozen=True)
class HttpLimits:
    """One limiter per kind; ``kind`` is also the metrics label."""

    room_create: KeyedRateLimit
    join: KeyedRateLimit
    code_lookup: KeyedRateLimit
    register: KeyedRateLimit
    """New accounts (REGISTER_PER_HOUR, all at once if need be)."""
    oidc_login: KeyedRateLimit
    """Sign-ins started with the OpenID Connect provider (OIDC_LOGIN_PER_MINUTE): each
    stores a row for ten minutes."""
    token_requests: KeyedRateLimit
    """Requests with one personal access token (TOKEN_REQUESTS_PER_MINUTE), counted by
    the token's hash, whatever its address (app/api/bearer.py)."""

    @classmethod
    def from_settings(cls, settings: Any) -> HttpLimits:
        """From the server's settings (read by attribute: this package imports no
        application config)."""
        return cls(
            room_create=KeyedRateLimit(settings.room_create_per_minute),
            join=KeyedRateLimit(settings.join_per_minute),
            code_lookup=KeyedRateLimit(settings.code_lookup_per_minute),
            register=KeyedRateLimit(
                settings.register_per_hour / 60, burst=max(1, settings.register_per_hour)
            ),
            oidc_login=KeyedRateLimit(settings.oidc_login_per_minute),
            token_requests=KeyedRateLimit(settings.token_requests_per_minute),
        )
