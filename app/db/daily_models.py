"""Tables of the deal of the day (issue 32): each day's seed per player count, and
each player's play of it.  ``models.py`` names them for the migrations."""

from __future__ import annotations

from sqlalchemy import BigInteger, Index, Integer, String
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
    __table_args__ = (Index("ix_daily_plays_results", "day", "players", "points"),)

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
