"""Tables of what runs beside the rooms: Web Push (issue 32), the quick-pairing queue
(issue 34) and the coach's analyses (issue 31).  ``models.py`` names them all for the
migrations."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.coach.store import StoredResult

from .base import Base


class ServerKey(Base):
    """A secret the server made for itself at its first start and keeps, shared by
    every process (the VAPID key pair of Web Push, issue 32)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (app/notify), under the player key that made
    it; dropped when its push service says it is gone."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    player_hash: Mapped[str] = mapped_column(String(64), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(60))
    lang: Mapped[str] = mapped_column(String(8))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PushNotice(Base):
    """A turn a player was told of (room, seq, seat): told once, whichever process
    holds the room when it comes.  Rows older than a day are dropped as new ones come."""

    __tablename__ = "push_notices"

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    at_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class PairingTicket(Base):
    """A person waiting for a game ("Find a game", app/pairing/): the queue lives here so
    that every server process sees it.  One row per player key or account: a ticket is
    ``waiting``, then ``forming`` while one process makes its table's room (until
    ``claim_until``), then ``matched`` with its room, seat and seat token, kept a few
    minutes for its player to read."""

    __tablename__ = "pairing_tickets"
    __table_args__ = (Index("ix_pairing_queue", "status", "players", "pace", "created_ms"),)

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    identity: Mapped[str] = mapped_column(String(80), unique=True)
    """``p:`` + a player key's hash or ``a:`` + an account id: one ticket each."""
    name: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    pace: Mapped[str] = mapped_column(String(16))
    """``live``; correspondence once such rooms exist (its own queues)."""
    bots_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds of waiting after which free seats may go to bots; None: never."""
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """Last time its player asked about it: one not seen for a while is given up."""
    player_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    group_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    claim_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    room_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The seat's token until its player reads it (a matched row lives a few minutes)."""
    matched_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class AnalysisRow(Base):
    """The coach's analysis of one finished deal (app/coach): queued when the deal
    ends or is first asked for, computed once by whichever process claims it (a lease
    on the row), kept with the room and gone with it."""

    __tablename__ = "analyses"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``queued``, ``running`` or ``done``."""
    seed: Mapped[str] = mapped_column(String(64))
    """The sample seed: the analysis is a function of the deal and this."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    """Plays rated so far (they are in ``result["plays"]``, so a restart goes on)."""
    total: Mapped[int] = mapped_column(Integer)
    """Plays of the deal."""
    result: Mapped[StoredResult | None] = mapped_column(JSON, nullable=True)
    """What the coach wrote (``app.coach.store.StoredResult``)."""
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms until which ``lease_owner`` computes it; after that anyone may."""
    queued_ms: Mapped[int] = mapped_column(BigInteger)
    """When it was queued (Unix ms): the oldest is computed first."""


class RoomDeadline(Base):
    """A moment a correspondence room waits for (issue 32, app/rooms/deadlines.py):
    ``move`` while it waits for a seat to move (a person's deadline, or a bot's turn
    after its delay), ``warn24`` / ``warn1`` 24 hours and 1 hour before a person's
    deadline.  Written, replaced and deleted in the same transaction as the events
    that change it, so it is never lost or stale; fired exactly once by whichever
    process claims it (``claim_owner`` until ``claim_until``, then anyone may)."""

    __tablename__ = "room_deadlines"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    """``move``, ``warn24`` or ``warn1``."""
    seq: Mapped[int] = mapped_column(Integer)
    """The room's seq when the turn began: a move made for it is ``srv:clock:{seq}``."""
    seat: Mapped[int] = mapped_column(Integer)
    """The seat that is to move."""
    due_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    """Unix ms when it falls due."""
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A bot is to move (a bot seat, or a bot standing in for the seat's person): no
    person's turn, so "My games" and the digest leave it out."""
    claim_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The process firing it, if any."""
    claim_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms until which ``claim_owner`` holds it; after that another may fire it."""
