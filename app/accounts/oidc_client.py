"""The OpenID Connect authorization code flow with PKCE, through authlib's client.

``begin`` makes a sign-in: a random state (the browser keeps it in a cookie), a
nonce and a PKCE verifier (kept server-side, ``PendingStore``), and the provider's
authorization URL with the S256 challenge.  ``finish`` takes the callback: the
state must be the browser's own and unused, the code is exchanged at the token
endpoint (with the verifier and the client's secret), and the ID token is checked
(signature against the provider's JWKS, ``iss``, ``aud``, ``azp``, ``exp``,
``nonce``, ``at_hash``) before any identity leaves this module.

The provider's discovery document and keys are fetched on first use and kept;
keys are fetched again once when a token names a key id that is not known (the
provider rotated them).  Every network failure is ``provider_unreachable``.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.errors import InvalidKeyIdError, JoseError
from joserfc.jwk import KeySet
from joserfc.jws import JWSRegistry

from app.core.json import JsonObject

from .oidc import (
    BAD_CODE,
    BAD_ID_TOKEN,
    BAD_STATE,
    PENDING_SECONDS,
    PROVIDER_ERROR,
    PROVIDER_UNREACHABLE,
    Identity,
    OidcConfig,
    OidcError,
    Pending,
    PendingStore,
    state_hash,
    wished_username,
)

with warnings.catch_warnings():
    # authlib prefers the httpx2 package and warns when it falls back to httpx, the
    # HTTP client this project locks; the fallback is the same API.
    warnings.simplefilter("ignore", DeprecationWarning)
    from authlib.integrations.httpx_client import AsyncOAuth2Client
    from authlib.integrations.httpx_client._compat import httpx2 as httpx

LEEWAY = 60
"""Seconds of clock difference allowed between the provider and this server."""


@dataclass(frozen=True)
class Discovery:
    """What this server reads of the provider's discovery document, once checked."""

    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    userinfo_endpoint: str | None
    """None when the provider offers none (or names it with something not a string)."""
    signing_algs: list[str]
    """``id_token_signing_alg_values_supported``, RS256 when the document is silent."""


@dataclass(frozen=True)
class TokenAnswer:
    """The token endpoint's answer: its ID token, checked to be a string, and the whole
    answer as sent (the userinfo request authenticates with its access token)."""

    id_token: str
    raw: JsonObject


def discovery_of(found: JsonObject, issuer: str) -> Discovery:
    """The discovery document checked: its issuer must be the configured one (OpenID
    Connect Discovery 1.0, section 4.3) and its three endpoints strings."""
    if found.get("issuer") != issuer:
        raise OidcError(
            PROVIDER_UNREACHABLE,
            f"the provider calls itself {found.get('issuer')!r}, not OIDC_ISSUER {issuer!r}",
            502,
        )
    endpoints: dict[str, str] = {}
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        value = found.get(key)
        if not isinstance(value, str):
            raise OidcError(PROVIDER_UNREACHABLE, f"the provider's discovery lacks {key}", 502)
        endpoints[key] = value
    userinfo = found.get("userinfo_endpoint")
    algs = found.get("id_token_signing_alg_values_supported") or ["RS256"]
    return Discovery(
        endpoints["authorization_endpoint"],
        endpoints["token_endpoint"],
        endpoints["jwks_uri"],
        userinfo_endpoint=userinfo if isinstance(userinfo, str) else None,
        signing_algs=[a for a in algs if isinstance(a, str)] if isinstance(algs, list) else [],
    )


class OidcClient:
    """One configured provider; shared by every request of the process."""

    def __init__(
        self,
        config: OidcConfig,
        store: PendingStore,
        *,
        timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store
        self.timeout = timeout
        self.clock = clock
        self._metadata: Discovery | None = None
        self._jwks: JsonObject | None = None
        self._lock = asyncio.Lock()

    def _client(self, redirect_uri: str | None = None) -> AsyncOAuth2Client:
        return AsyncOAuth2Client(
            client_id=self.config.client_id,
            client_secret=self.config.client_secret,
            token_endpoint_auth_method=(
                "client_secret_basic" if self.config.client_secret else "none"
            ),
            scope=self.config.scopes,
            redirect_uri=redirect_uri,
            code_challenge_method="S256",
            timeout=self.timeout,
        )

    async def _get_json(self, url: str) -> JsonObject:
        try:
            async with self._client() as client:
                resp = await client.request("GET", url, withhold_token=True)
            resp.raise_for_status()
            body = resp.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise OidcError(
                PROVIDER_UNREACHABLE, f"the sign-in provider did not answer ({url})", 502
            ) from exc
        if not isinstance(body, dict):
            raise OidcError(PROVIDER_UNREACHABLE, f"not a JSON object: {url}", 502)
        return body

    async def metadata(self) -> Discovery:
        """The provider's discovery document, fetched once and checked (``discovery_of``)."""
        async with self._lock:
            if self._metadata is None:
                url = self.config.issuer.rstrip("/") + "/.well-known/openid-configuration"
                self._metadata = discovery_of(await self._get_json(url), self.config.issuer)
            return self._metadata

    async def _keys(self, refresh: bool = False) -> KeySet:
        if self._jwks is None or refresh:
            self._jwks = await self._get_json((await self.metadata()).jwks_uri)
        try:
            return KeySet.import_key_set(self._jwks)  # type: ignore[arg-type]
        except (JoseError, ValueError, TypeError) as exc:
            raise OidcError(
                PROVIDER_UNREACHABLE, "the provider's keys are unreadable", 502
            ) from exc

    async def begin(self, redirect_uri: str) -> tuple[str, str]:
        """A new sign-in: (the provider's authorization URL, the state for the browser)."""
        meta = await self.metadata()
        state = secrets.token_urlsafe(32)
        nonce = secrets.token_urlsafe(32)
        verifier = generate_token(64)
        now_ms = int(self.clock() * 1000)
        pending = Pending(nonce, verifier, redirect_uri, now_ms + PENDING_SECONDS * 1000)
        await self.store.put(state_hash(state), pending, now_ms)
        async with self._client(redirect_uri) as client:
            url, _ = client.create_authorization_url(
                meta.authorization_endpoint, state=state, code_verifier=verifier, nonce=nonce
            )
        return url, state

    async def finish(self, browser_state: str | None, params: dict[str, str]) -> Identity:
        """The identity of a callback, or OidcError; the state is used up either way."""
        state = params.get("state")
        if (
            not state
            or not browser_state
            or not hmac.compare_digest(state.encode(), browser_state.encode())
        ):
            raise OidcError(BAD_STATE, "this sign-in was not started in this browser")
        pending = await self.store.take(state_hash(state))
        if pending is None:
            raise OidcError(BAD_STATE, "this sign-in was already used or is unknown")
        if pending.expires_ms < int(self.clock() * 1000):
            raise OidcError(BAD_STATE, "this sign-in took too long; start again")
        if "error" in params:
            said = params.get("error_description") or params["error"]
            raise OidcError(PROVIDER_ERROR, f"the provider refused the sign-in: {said}")
        code = params.get("code")
        if not code:
            raise OidcError(BAD_CODE, "the provider sent no code")
        token = await self._exchange(code, pending)
        claims = await self._check_id_token(token, pending.nonce)
        subject = str(claims["sub"])  # a string: checked with the token
        if "preferred_username" not in claims:
            claims = {**(await self._userinfo(token, subject)), **claims}
        return Identity(self.config.issuer, subject, wished_username(claims))

    async def _exchange(self, code: str, pending: Pending) -> TokenAnswer:
        meta = await self.metadata()
        try:
            async with self._client(pending.redirect_uri) as client:
                token = await client.fetch_token(
                    meta.token_endpoint,
                    grant_type="authorization_code",
                    code=code,
                    code_verifier=pending.code_verifier,
                    redirect_uri=pending.redirect_uri,
                )
        except OAuthError as exc:
            if exc.error in ("invalid_grant", "invalid_request"):
                raise OidcError(
                    BAD_CODE, f"the provider refused the code: {exc.description or exc.error}"
                ) from exc
            raise OidcError(
                PROVIDER_ERROR, f"the provider refused this server: {exc.error}", 502
            ) from exc
        except (httpx.HTTPError, ValueError) as exc:
            raise OidcError(
                PROVIDER_UNREACHABLE, "the provider's token endpoint failed", 502
            ) from exc
        id_token = token.get("id_token")
        if not isinstance(id_token, str):
            raise OidcError(BAD_ID_TOKEN, "the provider sent no ID token (is 'openid' a scope?)")
        return TokenAnswer(id_token, dict(token))

    async def _check_id_token(self, token: TokenAnswer, nonce: str) -> JsonObject:
        """The ID token's claims, once its signature and claims are checked; ``sub`` is a
        non-empty string."""
        meta = await self.metadata()
        registry = JWSRegistry(algorithms=[a for a in meta.signing_algs if a != "none"])
        try:
            try:
                decoded = jwt.decode(token.id_token, await self._keys(), registry=registry)
            except InvalidKeyIdError:
                decoded = jwt.decode(
                    token.id_token, await self._keys(refresh=True), registry=registry
                )
            claims = CodeIDToken(
                decoded.claims,
                decoded.header,
                {
                    "iss": {"essential": True, "value": self.config.issuer},
                    "aud": {"essential": True, "values": [self.config.client_id]},
                },
                {
                    "nonce": nonce,
                    "client_id": self.config.client_id,
                    "access_token": token.raw.get("access_token"),
                },
            )
            claims.validate(now=int(self.clock()), leeway=LEEWAY)
        except (JoseError, ValueError) as exc:
            raise OidcError(BAD_ID_TOKEN, f"the ID token was refused: {exc}") from exc
        if not isinstance(claims.get("sub"), str) or not claims["sub"]:
            raise OidcError(BAD_ID_TOKEN, "the ID token names no subject")
        return dict(claims)

    async def _userinfo(self, token: TokenAnswer, subject: str) -> JsonObject:
        """The provider's userinfo, when the ID token has no preferred_username; only
        claims about the same subject are taken (OpenID Connect Core 5.3.2)."""
        url = (await self.metadata()).userinfo_endpoint
        if url is None:
            return {}
        try:
            async with self._client() as client:
                client.token = token.raw
                resp = await client.get(url)
            resp.raise_for_status()
            info = resp.json()
        except (httpx.HTTPError, ValueError, OAuthError):
            return {}
        if not isinstance(info, dict) or info.get("sub") != subject:
            return {}
        return info
