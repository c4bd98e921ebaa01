"""Tables of the bot ladder (issue 51, app/ladder): each pack (its seed stored before
it is played), every seat's score in each of its deals, and each deal's moves.
``models.py`` imports this module, so that the migrations find them."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.engine.rules import RuleValues
from app.engine.view_types import ScoreJson
from app.ladder.published import EntrantJson
from app.rooms.domain.record_types import RecordMove

from .base import Base


class LadderPack(Base):
    """A pack: made (seed, table, seatings) before it is played, by the process that
    holds its lease; finished, with its results and deals, in one transaction by that
    process.  Only finished packs are published."""

    __tablename__ = "ladder_packs"
    __table_args__ = (Index("ix_ladder_packs_finished", "finished_ms"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seed: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[RuleValues] = mapped_column(JSON)
    entrants: Mapped[list[EntrantJson]] = mapped_column(JSON)
    """The table by position, as ``[{"entrant", "kind"}]``."""
    seatings: Mapped[list[list[str]]] = mapped_column(JSON)
    """Per deal, the entrant id at each seat."""
    made_ms: Mapped[int] = mapped_column(BigInteger)
    slot: Mapped[int | None] = mapped_column(BigInteger, nullable=True, unique=True)
    """The background schedule's slot (LADDER_PACKS_PER_HOUR) the pack was made for:
    unique, so one process of many makes it.  NULL for packs ``krypkasino ladder run``
    made."""
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The process playing it while unfinished (its lease)."""
    lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class LadderResult(Base):
    """One seat's deal score in one deal of a pack (its team's under V1)."""

    __tablename__ = "ladder_results"

    pack_id: Mapped[int] = mapped_column(
        ForeignKey("ladder_packs.id", ondelete="CASCADE"), primary_key=True
    )
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    entrant: Mapped[str] = mapped_column(String(80))
    score: Mapped[int] = mapped_column(Integer)


class LadderDeal(Base):
    """A deal of a pack as played: its moves and every seat's score in full (the
    opening position follows from the pack's seed)."""

    __tablename__ = "ladder_deals"

    pack_id: Mapped[int] = mapped_column(
        ForeignKey("ladder_packs.id", ondelete="CASCADE"), primary_key=True
    )
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    moves: Mapped[list[RecordMove]] = mapped_column(JSON)
    scores: Mapped[list[ScoreJson]] = mapped_column(JSON)
