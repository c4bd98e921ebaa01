"""The OIDC_* settings (app/config.py) and what the server builds from them
(app/features.py ``oidc_flow``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.features import oidc_flow


def test_no_issuer_no_provider() -> None:
    settings = Settings(oidc_issuer="", oidc_client_id="")
    assert settings.oidc_issuer is None
    assert oidc_flow(settings, None) is None  # type: ignore[arg-type]


def test_an_issuer_needs_a_client_id() -> None:
    with pytest.raises(ValidationError, match="OIDC_CLIENT_ID"):
        Settings(oidc_issuer="https://sso.example.com/realms/club")


def test_openid_is_always_asked_for() -> None:
    settings = Settings(
        oidc_issuer="https://sso.example.com/realms/club",
        oidc_client_id="krypkasino",
        oidc_scopes="profile email",
    )
    assert settings.oidc_scopes.split() == ["openid", "profile", "email"]


def test_a_configured_provider_is_built_with_its_settings() -> None:
    settings = Settings(
        oidc_issuer="https://sso.example.com/realms/club",
        oidc_client_id="krypkasino",
        oidc_client_secret="  ",
        oidc_name="Club login",
    )
    flow = oidc_flow(settings, None)  # type: ignore[arg-type]
    assert flow is not None
    config = flow.config
    assert (config.issuer, config.client_id, config.name) == (
        "https://sso.example.com/realms/club",
        "krypkasino",
        "Club login",
    )
    assert config.client_secret is None, "an empty secret is a public client"
    assert config.scopes == "openid profile email"
