"""What the accounts' routes answer (app/api/accounts.py): each answer as the route
builds it (a ``TypedDict``: the dicts are sent as they are) and, where no model of
app/api/schemas.py documents it already, the pydantic model its schema is read from."""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import BaseModel

from app.accounts.store import IdentityExport, KeyExport, SessionExport, TokenExport
from app.clubs.service import MyClubJson
from app.ratings.ratings import RatingJson
from app.review.archive import GameEntry as GameJson

from .players import GameEntry


class MeJson(TypedDict):
    """The signed-in person as ``Me`` documents it."""

    username: str
    created_ms: int
    ratings: dict[str, RatingJson]
    csrf: str
    password_login: bool


class SignedInJson(MeJson):
    """The answer of register and login, as ``SignedInBody`` documents it."""

    seats_moved: int


class ProviderJson(TypedDict):
    name: str
    login_url: str


class AuthOptionsJson(TypedDict):
    access: Literal["open", "accounts", "members"]
    password_login: bool
    providers: list[ProviderJson]


class SessionJson(TypedDict):
    account: MeJson | None


class ExportedAccount(BaseModel):
    username: str
    created_ms: int


class ExportedSession(BaseModel):
    created_ms: int
    expires_ms: int


class ExportedIdentity(BaseModel):
    issuer: str
    subject: str
    created_ms: int


class ExportedKey(BaseModel):
    player_hash: str
    linked_ms: int


class ExportedToken(BaseModel):
    id: str
    name: str
    scopes: list[str]
    created_ms: int
    last_used_ms: int | None
    revoked_ms: int | None


class ExportedClub(BaseModel):
    id: str
    name: str
    role: Literal["owner", "organiser", "member"]
    closed: bool
    member_count: int


class AccountExport(BaseModel):
    """GET /api/me/export: everything the server keeps about the signed-in person."""

    account: ExportedAccount
    sessions: list[ExportedSession]
    identities: list[ExportedIdentity]
    player_keys: list[ExportedKey]
    """The hashes of the browsers' player keys the account took over (the keys
    themselves are never stored)."""
    access_tokens: list[ExportedToken] = []
    """The account's personal access tokens, revoked ones too: what each is called and
    may do, never the token (nor its hash)."""
    games: list[GameEntry]
    """The rooms the account sat in, as "My games" lists them."""
    clubs: list[ExportedClub] = []
    """The clubs the account is in, closed ones too, with its role in each."""


class AccountJson(TypedDict):
    username: str
    created_ms: int


class ExportJson(TypedDict):
    """What ``AccountExport`` documents, as the route builds it."""

    account: AccountJson
    sessions: list[SessionExport]
    identities: list[IdentityExport]
    player_keys: list[KeyExport]
    access_tokens: list[TokenExport]
    games: list[GameJson]
    clubs: list[MyClubJson]
