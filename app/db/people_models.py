"""Tables of people (issue 34): accounts, their sessions, keys and outside identities,
personal access tokens (issue 51), failed sign-ins, OpenID Connect sign-ins under way,
and ratings of rated matches.
Beside the rooms' tables (``models.py``, which names them all for the migrations)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class Account(Base):
    """A person's account (app/accounts/service.py, issue 34).  Deleting an account
    scrubs its row (name, password, sessions, keys, identities) but keeps the id, so
    that the games it played stay and name a "deleted player"."""

    __tablename__ = "accounts"
    __table_args__ = (Index("ux_accounts_username_skeleton", "username_skeleton", unique=True),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """As the person wrote it; None once deleted."""
    username_key: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    """The name folded to lower case: what makes names unique case-insensitively."""
    username_skeleton: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The name's skeleton (``app.names.name_key``: "b0b" is "bob"), unique: no two
    accounts look alike, whichever was made first (migration 0019).  None once deleted,
    and for an account the migration found looking like an older one."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """Argon2id (argon2-cffi's encoded form); None for an account that signs in only
    through an external provider, and once deleted."""
    created_ms: Mapped[int] = mapped_column(BigInteger)
    deleted_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    bot_since_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """When the account became a bot account (issue 51: ``POST /api/me/bot``, which
    cannot be undone); None for a person's account."""


class AccountSession(Base):
    """A signed-in browser: the cookie carries the token, only its hash is kept."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)


class AccountKey(Base):
    """A browser's player key (its hash) taken over by an account: every device the
    person signed in on.  Seats that key took belong to the account."""

    __tablename__ = "account_keys"

    player_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    linked_ms: Mapped[int] = mapped_column(BigInteger)


class AccessToken(Base):
    """A personal access token (issue 51, app/accounts/access_tokens.py): a program
    signs in as the account with ``Authorization: Bearer <token>``.  Only the token's
    hash is kept; a revoked token keeps its row (``revoked_ms``) until the account goes."""

    __tablename__ = "access_tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[str] = mapped_column(String(100))
    """Space-separated: ``bot:play``, ``read``."""
    created_ms: Mapped[int] = mapped_column(BigInteger)
    last_used_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Written at most once per USE_WRITE_MS of use, not on every request."""
    revoked_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class ExternalIdentity(Base):
    """An identity at an external provider (OpenID Connect: issuer and subject) that
    signs in to an account."""

    __tablename__ = "external_identities"

    issuer: Mapped[str] = mapped_column(String(255), primary_key=True)
    subject: Mapped[str] = mapped_column(String(255), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_ms: Mapped[int] = mapped_column(BigInteger)


class SignInFailure(Base):
    """A failed sign-in, counted per account and per address (``scope``) to slow down
    password guessing across every server process (app/accounts/attempts.py)."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(100), index=True)
    """``account:<name folded>`` or ``address:<client address>``."""
    at_ms: Mapped[int] = mapped_column(BigInteger)


class RatedMatchRow(Base):
    """A rated room's finished match, rated once (app/ratings/ratings.py): the row's
    primary key is what makes a second rating of the same match fail, whichever server
    process tries.  ``void``: looked at and not rated (one account in two seats, or
    whoever left could no longer be told)."""

    __tablename__ = "rated_matches"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
    at_ms: Mapped[int] = mapped_column(BigInteger)
    """When the match ended (its last play), Unix ms."""
    void: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingResult(Base):
    """One seat of a rated match: its standing and its rating before and after (a bot's
    is its level's anchor both times)."""

    __tablename__ = "rating_results"
    __table_args__ = (
        ForeignKeyConstraint(
            ["room_id", "match_no"],
            ["rated_matches.room_id", "rated_matches.match_no"],
            ondelete="CASCADE",
        ),
    )

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rank: Mapped[int] = mapped_column(Integer)
    """0 for the best standing; ties share; whoever left is last."""
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    total: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


class Rating(Base):
    """An account's rating at one player count (app/ratings/model.py)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_players_ordinal", "players", "ordinal"),)

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """mu - 3 sigma, what the leaderboard ranks by (a column, so that it can be sorted
    by an index)."""
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class OidcPending(Base):
    """A sign-in through the OpenID Connect provider under way (app/accounts/oidc.py):
    what its callback needs, keyed by the hash of its state; taken (deleted) once."""

    __tablename__ = "oidc_pending"

    state_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(128))
    code_verifier: Mapped[str] = mapped_column(String(128))
    redirect_uri: Mapped[str] = mapped_column(String(2048))
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    """Unix ms after which the callback is refused (and the row dropped)."""
