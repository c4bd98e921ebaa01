"""Tables of the tournaments (issue 49, app/tournaments): each event, its entrants,
its boards' seeds (duplicate), its tables (one room each) and every seat's result.
``models.py`` imports this module, so that the migrations find them.

An event's results are kept forever with it, by the entrant's account id and the
name they played under; nothing here cascades from an account, so a result never
changes after it is stored."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class TournamentRow(Base):
    """An event.  ``stage`` is the Swiss round being played (0 before the start); a
    duplicate event's tables move on board by board each at its own pace, so its
    ``stage`` stays 1.  ``entrants`` counts its live entries, so that the cap is held by
    one conditional UPDATE however many register at once."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ix_tournaments_club_id", "club_id"),
        Index("ix_tournaments_state", "state"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    format: Mapped[str] = mapped_column(String(16))
    """``swiss`` or ``duplicate`` (app/tournaments/plan.py)."""
    club_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    organiser_id: Mapped[str] = mapped_column(String(32))
    organiser_name: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    """Seats at each table."""
    plan: Mapped[str] = mapped_column(Text)
    """The event's settings as JSON (app/tournaments/plan.py's ``EventPlan``)."""
    seed: Mapped[str] = mapped_column(String(64))
    """The draw's seed (the first seating); not secret: it deals no card."""
    state: Mapped[str] = mapped_column(String(16))
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    stage: Mapped[int] = mapped_column(Integer)
    entrants: Mapped[int] = mapped_column(Integer)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    starts_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """When the server starts it by itself (None: when its organiser does)."""
    started_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ends_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """An arena: when it stops seating tables (its start plus its minutes, or earlier
    when its organiser ends it)."""
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class TournamentEntryRow(Base):
    __tablename__ = "tournament_entries"
    __table_args__ = (Index("ix_tournament_entries_account_id", "account_id"),)

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    registered_ms: Mapped[int] = mapped_column(BigInteger)
    withdrawn_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Withdrawn after the start: kept (their results stand), seated no more."""


class TournamentBoardRow(Base):
    """A duplicate event's board: its deal's seed, made when the event is, and its
    hash, published from the start so that anyone can check afterwards that the
    boards were not chosen once the field was known."""

    __tablename__ = "tournament_boards"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))
    seed_hash: Mapped[str] = mapped_column(String(64))


class TournamentTableRow(Base):
    """One table of one stage (a Swiss round, a duplicate board): who sits where, and
    its room once made.  A process claims an unmade table (``claim_until``) before it
    makes the room, so only one does; a claim that lapses (the process died) is taken
    by another."""

    __tablename__ = "tournament_tables"
    __table_args__ = (Index("ix_tournament_tables_room_id", "room_id"),)

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    stage: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seats: Mapped[str] = mapped_column(Text)
    """JSON: the seats in order, each an entrant's account id or null for a bot."""
    room_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    claim_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    done_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class TournamentResultRow(Base):
    """One seat's match total at one table: stored once, with the table's ``done_ms``."""

    __tablename__ = "tournament_results"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    stage: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    total: Mapped[int] = mapped_column(Integer)
    left: Mapped[bool] = mapped_column(Boolean)
    """A stand-in bot was playing the person's seat when the match ended."""
