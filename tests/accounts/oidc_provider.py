"""A real OpenID Connect provider for the tests, built from authlib's server side.

Run in its own process (``python -m tests.accounts.oidc_provider --port N``, or
``ProviderProcess`` below): discovery, an authorization endpoint that approves
the current test user at once (no login page), a token endpoint that checks the
client's secret, the redirect URI and the PKCE verifier (S256) and accepts a code
once, the JWKS its RS256 ID tokens are signed with, and userinfo.  It is not a
stub of the server's client: the server speaks to it over HTTP exactly as it
would to Keycloak or Authentik.

Tests steer it over HTTP (``/_test/...``): who the next sign-in is, and how the
next ID token should misbehave (another audience, another nonce) so that the
server's checks are seen refusing a real token.
"""

from __future__ import annotations

import argparse
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")  # plain http on 127.0.0.1

import uvicorn  # noqa: E402
from authlib.oauth2.rfc6749 import (  # noqa: E402
    AuthorizationServer,
    ClientMixin,
    OAuth2Request,
)
from authlib.oauth2.rfc6749.errors import OAuth2Error  # noqa: E402
from authlib.oauth2.rfc6749.grants import AuthorizationCodeGrant  # noqa: E402
from authlib.oauth2.rfc6749.requests import BasicOAuth2Payload  # noqa: E402
from authlib.oauth2.rfc6750 import BearerTokenGenerator  # noqa: E402
from authlib.oauth2.rfc7636 import CodeChallenge  # noqa: E402
from authlib.oidc.core import UserInfo  # noqa: E402
from authlib.oidc.core.grants import OpenIDCode  # noqa: E402
from authlib.oidc.core.models import AuthorizationCodeMixin  # noqa: E402
from joserfc.jwk import RSAKey  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, PlainTextResponse, Response  # noqa: E402
from starlette.routing import Route  # noqa: E402

CLIENT_ID = "krypkasino-test"
CLIENT_SECRET = "test-secret-" + "x" * 20
KID = "test-key-1"


@dataclass
class Client(ClientMixin):
    client_id: str
    client_secret: str
    redirect_uris: list[str] = field(default_factory=list)

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        return self.redirect_uris[0] if self.redirect_uris else None

    def get_allowed_scope(self, scope: str) -> str:
        return " ".join(s for s in scope.split() if s in ("openid", "profile", "email"))

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        # Any callback on the loopback (the test server's port is not known in advance).
        return redirect_uri.startswith("http://127.0.0.1:") and redirect_uri.endswith(
            "/auth/oidc/callback"
        )

    def check_client_secret(self, client_secret: str) -> bool:
        return secrets.compare_digest(client_secret, self.client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == "client_secret_basic"

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == "authorization_code"


@dataclass
class Code(AuthorizationCodeMixin):
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    nonce: str | None
    user: dict[str, str]
    code_challenge: str | None
    code_challenge_method: str | None
    auth_time: int

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope

    def get_nonce(self) -> str | None:
        return self.nonce

    def get_auth_time(self) -> int:
        return self.auth_time


class State:
    """Everything the provider holds, in memory (one process, a few tests)."""

    def __init__(self, issuer: str) -> None:
        self.issuer = issuer
        self.lock = threading.Lock()
        self.key = RSAKey.generate_key(2048, parameters={"kid": KID, "use": "sig", "alg": "RS256"})
        self.client = Client(CLIENT_ID, CLIENT_SECRET)
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, dict[str, str]] = {}
        self.user = {"sub": "user-1", "preferred_username": "ada"}
        self.tweaks: dict[str, str] = {}
        """Once-only misbehaviour of the next ID token: ``aud``, ``nonce``, ``iss`` of
        another value, or ``key`` (signed with a key not in the JWKS)."""
        self.counts = {"authorize": 0, "token": 0, "token_refused": 0}


def make_server(state: State) -> AuthorizationServer:
    class Server(AuthorizationServer):
        def query_client(self, client_id: str) -> Client | None:
            return state.client if client_id == state.client.client_id else None

        def save_token(self, token: dict[str, Any], request: OAuth2Request) -> None:
            with state.lock:
                state.tokens[token["access_token"]] = dict(request.user)

        def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
            pass

        def create_oauth2_request(self, request: OAuth2Request) -> OAuth2Request:
            return request  # the routes build it, their body read (authlib reads no I/O)

        def handle_response(self, status: int, body: Any, headers: Any) -> Response:
            if isinstance(body, dict):
                return JSONResponse(body, status_code=status, headers=dict(headers))
            return Response(body or "", status_code=status, headers=dict(headers))

    class Grant(AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic"]

        def save_authorization_code(self, code: str, request: OAuth2Request) -> None:
            data = request.payload.data
            with state.lock:
                state.codes[code] = Code(
                    code=code,
                    client_id=request.payload.client_id,
                    redirect_uri=request.payload.redirect_uri,
                    scope=request.payload.scope,
                    nonce=data.get("nonce"),
                    user=dict(request.user),
                    code_challenge=data.get("code_challenge"),
                    code_challenge_method=data.get("code_challenge_method"),
                    auth_time=int(time.time()),
                )

        def query_authorization_code(self, code: str, client: Client) -> Code | None:
            found = state.codes.get(code)
            return found if found and found.client_id == client.client_id else None

        def delete_authorization_code(self, authorization_code: Code) -> None:
            with state.lock:  # a code works once: the second use finds nothing
                state.codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code: Code) -> dict[str, str]:
            return authorization_code.user

    class IdToken(OpenIDCode):
        def exists_nonce(self, nonce: str, request: OAuth2Request) -> bool:
            return False

        def resolve_client_private_key(self, client: Client) -> RSAKey:
            if state.tweaks.pop("key", None):  # a key the JWKS does not have, same kid
                return RSAKey.generate_key(2048, parameters={"kid": KID, "alg": "RS256"})
            return state.key

        def get_client_algorithm(self, client: Client) -> str:
            return "RS256"

        def get_encode_header(self, client: Client) -> dict[str, str]:
            return {"alg": "RS256", "kid": KID}

        def get_client_claims(self, client: Client) -> dict[str, Any]:
            aud = state.tweaks.pop("aud", client.get_client_id())
            return {"iss": state.tweaks.pop("iss", state.issuer), "aud": [aud]}

        def get_authorization_code_claims(self, authorization_code: Code) -> dict[str, Any]:
            claims = super().get_authorization_code_claims(authorization_code)
            if "nonce" in state.tweaks:
                claims["nonce"] = state.tweaks.pop("nonce")
            return claims

        def generate_user_info(self, user: dict[str, str], scope: str) -> UserInfo:
            return UserInfo(**user)

    server = Server(scopes_supported=["openid", "profile", "email"])
    server.register_token_generator(
        "default", BearerTokenGenerator(lambda *_, **__: secrets.token_urlsafe(24))
    )
    server.register_grant(Grant, [CodeChallenge(required=True), IdToken(require_nonce=True)])
    return server


class _Request(OAuth2Request):
    """A Starlette request as authlib's server reads one (its body read beforehand)."""

    def __init__(self, request: Request, form: dict[str, str]) -> None:
        super().__init__(request.method, str(request.url), headers=request.headers)
        self._args = dict(request.query_params)
        self._form = form
        self.payload = BasicOAuth2Payload({**self._args, **form})

    @property
    def args(self) -> dict[str, str]:
        return self._args

    @property
    def form(self) -> dict[str, str]:
        return self._form


def make_app(issuer: str) -> Starlette:
    state = State(issuer)
    server = make_server(state)

    async def discovery(request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "issuer": issuer,
                "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"{issuer}/token",
                "jwks_uri": f"{issuer}/jwks",
                "userinfo_endpoint": f"{issuer}/userinfo",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "scopes_supported": ["openid", "profile", "email"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    async def authorize(request: Request) -> Response:
        """Approves the test user at once; insists on PKCE with S256."""
        req = _Request(request, {})
        if req.payload.data.get("code_challenge_method") != "S256":
            return PlainTextResponse("PKCE with S256 is required", status_code=400)
        state.counts["authorize"] += 1
        try:
            grant = server.get_consent_grant(req, end_user=dict(state.user))
        except OAuth2Error as error:
            return server.handle_error_response(req, error)
        return server.create_authorization_response(req, grant_user=dict(state.user), grant=grant)

    async def token(request: Request) -> Response:
        form = dict(parse_qsl((await request.body()).decode("utf-8")))
        state.counts["token"] += 1
        response = server.create_token_response(_Request(request, form))
        if response.status_code != 200:
            state.counts["token_refused"] += 1
        return response

    async def jwks(request: Request) -> JSONResponse:
        return JSONResponse({"keys": [state.key.as_dict(private=False)]})

    async def userinfo(request: Request) -> JSONResponse:
        auth = request.headers.get("authorization", "")
        user = state.tokens.get(auth.removeprefix("Bearer ").strip())
        if not auth.startswith("Bearer ") or user is None:
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        return JSONResponse(user)

    async def set_user(request: Request) -> JSONResponse:
        state.user = {k: str(v) for k, v in (await request.json()).items()}
        return JSONResponse(state.user)

    async def set_tweaks(request: Request) -> JSONResponse:
        state.tweaks = {k: str(v) for k, v in (await request.json()).items()}
        return JSONResponse(state.tweaks)

    async def counts(request: Request) -> JSONResponse:
        return JSONResponse(state.counts)

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    return Starlette(
        routes=[
            Route("/.well-known/openid-configuration", discovery),
            Route("/authorize", authorize),
            Route("/token", token, methods=["POST"]),
            Route("/jwks", jwks),
            Route("/userinfo", userinfo),
            Route("/_test/user", set_user, methods=["POST"]),
            Route("/_test/tweaks", set_tweaks, methods=["POST"]),
            Route("/_test/counts", counts),
            Route("/healthz", healthz),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    issuer = f"http://127.0.0.1:{args.port}"
    uvicorn.run(make_app(issuer), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
