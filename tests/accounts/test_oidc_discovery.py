"""app/accounts/oidc_client.py ``discovery_of``: the provider's discovery document is
JSON from outside, checked before any of it is used (OpenID Connect Discovery 1.0,
section 4.3); what the flow reads of it is typed from then on."""

from __future__ import annotations

import pytest

from app.accounts.oidc import PROVIDER_UNREACHABLE, OidcError
from app.accounts.oidc_client import Discovery, discovery_of
from app.core.json import JsonObject

ISSUER = "https://id.example"
GOOD: JsonObject = {
    "issuer": ISSUER,
    "authorization_endpoint": ISSUER + "/authorize",
    "token_endpoint": ISSUER + "/token",
    "jwks_uri": ISSUER + "/jwks",
    "userinfo_endpoint": ISSUER + "/userinfo",
    "id_token_signing_alg_values_supported": ["RS256", "ES256"],
}


def test_a_good_document_is_read_field_by_field() -> None:
    assert discovery_of(GOOD, ISSUER) == Discovery(
        ISSUER + "/authorize",
        ISSUER + "/token",
        ISSUER + "/jwks",
        userinfo_endpoint=ISSUER + "/userinfo",
        signing_algs=["RS256", "ES256"],
    )


def test_what_a_document_may_leave_out_has_its_default() -> None:
    bare = {k: v for k, v in GOOD.items() if not k.startswith(("userinfo", "id_token"))}
    found = discovery_of(bare, ISSUER)
    assert found.userinfo_endpoint is None and found.signing_algs == ["RS256"]
    odd = discovery_of({**GOOD, "userinfo_endpoint": 7}, ISSUER)
    assert odd.userinfo_endpoint is None, "not a string: not an endpoint to call"


@pytest.mark.parametrize(
    "change",
    [
        {"issuer": "https://other.example"},
        {"issuer": None},
        {"token_endpoint": None},
        {"jwks_uri": ["https://id.example/jwks"]},
        {"authorization_endpoint": 1},
    ],
)
def test_another_issuer_or_a_missing_endpoint_is_refused(change: JsonObject) -> None:
    with pytest.raises(OidcError) as refused:
        discovery_of({**GOOD, **change}, ISSUER)
    assert refused.value.code == PROVIDER_UNREACHABLE and refused.value.status == 502
