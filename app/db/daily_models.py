"""Tables of the deal of the day (issue 32): each day's seed per player count, and
each player's play of it; and the two tables of the guards of issue 46 that the
ratings keep (where accounts were seen, and the seats a rating ignored).
``models.py`` imports this module, so that the migrations find them."""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, ForeignKeyConstraint, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class DailyDeal(Base):
    """A day's deal for one player count: its seed fixed once, by whichever process
    asked first (the primary key (day, players) lets one insert win)."""

    __tablename__ = "daily_deals"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The UTC date, ``YYYY-MM-DD``."""
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))
    """Secret until the day is over (app/daily/seeds.py derives the deal from it)."""
    commitment: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the seed, public from the start."""
    created_ms: Mapped[int] = mapped_column(BigInteger)


class DailyPlay(Base):
    """A player key's play of a day's deal: claimed before its room is made (one per
    key and deal, by the primary key), then its room and seat, then its points once
    the deal is over (written once: only while still null)."""

    __tablename__ = "daily_plays"
    __table_args__ = (
        Index("ix_daily_plays_results", "day", "players", "points"),
        Index("ux_daily_plays_account", "day", "players", "account_id", unique=True),
    )

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    room_id: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    """No foreign key: a purged room's result stays (its replay is gone)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat's deal total (R6.2; lower is better) once the deal is over."""
    started_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The signed-in account that started the play: one play per account and deal (the
    unique index; no foreign key: a deleted account keeps its id, and its play)."""
    address_hash: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """What is kept of the address the play was started from (as of a room's creator):
    only the first DAILY_RANKED_PER_ADDRESS plays of a deal from one address rank."""


class AccountSighting(Base):
    """An account seen at a client address, or with a player key (issue 46): a keyed
    hash of either, and when it was last seen.  Two accounts seen at one within
    RATINGS_SHARED_DAYS do not change each other's ratings; rows older than that are
    dropped."""

    __tablename__ = "account_sightings"
    __table_args__ = (Index("ix_account_sightings_value", "kind", "value_hash", "last_ms"),)

    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``address`` or ``key``."""
    value_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_ms: Mapped[int] = mapped_column(BigInteger)


class RatingApart(Base):
    """A seat of a rated match whose rating ignored another seat (issue 46), and why:
    ``shared`` (the two accounts shared an address or a player key) or ``left`` (the
    other seat left; nobody gains from a leaver)."""

    __tablename__ = "rating_apart"
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
    other: Mapped[int] = mapped_column(Integer, primary_key=True)
    why: Mapped[str] = mapped_column(String(8))
