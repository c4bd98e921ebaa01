"""The outbox's tables (app/core/outbox.py, app/db/outbox.py): the domain events a
room's commit stored, and which subscribers have handled each."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from app.core.json import JsonObject

from .base import Base


class OutboxEventRow(Base):
    """A domain event, written in the transaction of the commit that made it.  Not
    tied to its room by a foreign key: a room purged before its events were handed on
    must not take them along."""

    __tablename__ = "outbox_events"
    __table_args__ = (Index("ix_outbox_events_due", "done", "claim_until"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    room_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    body: Mapped[JsonObject] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    due_ms: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    """Unix ms before which nobody claims it (a turn notice waits out the notice
    delay; every other event is due when made)."""
    done: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Every subscriber of its kind has handled it (kept a while, then purged)."""
    claim_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claim_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Unix ms until which ``claim_owner`` hands it on; a claim that ran out (its
    process died) is anyone's again.  After a failure: when to try again."""
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class OutboxHandledRow(Base):
    """A subscriber handled an event: it is not handed the event again (unless its
    process died between its work and this row)."""

    __tablename__ = "outbox_handled"

    event_id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"),
        ForeignKey("outbox_events.id", ondelete="CASCADE"),
        primary_key=True,
    )
    subscriber: Mapped[str] = mapped_column(String(40), primary_key=True)
    at_ms: Mapped[int] = mapped_column(BigInteger)
