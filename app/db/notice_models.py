"""Tables of the player's notices beyond the turn (issue 32): which events a player
wants told, deadline warnings told once, email addresses and the digests sent.

A player is an *owner*: ``a:<account id>`` for a signed-in person (every device
they sign in on), else ``k:<player key hash>`` (one browser), as app/notify/settings.py
spells it.  No foreign key on it: a key has no row of its own.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class NoticeSettingRow(Base):
    """Which events an owner wants told (no row: every one)."""

    __tablename__ = "notice_settings"

    owner: Mapped[str] = mapped_column(String(80), primary_key=True)
    turn: Mapped[bool] = mapped_column(Boolean)
    deadline: Mapped[bool] = mapped_column(Boolean)
    digest: Mapped[bool] = mapped_column(Boolean)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class DeadlineNotice(Base):
    """A deadline warning told (room, seq, seat, hours before): told once, whichever
    process fires it.  Rows older than eight days are dropped as new ones come."""

    __tablename__ = "deadline_notices"

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    hours: Mapped[int] = mapped_column(Integer, primary_key=True)
    at_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class EmailAddressRow(Base):
    """An owner's email address: waiting for its confirmation (``confirm_hash``) or
    confirmed (``confirmed_ms``).  The confirmation token is kept hashed; the
    unsubscribe token as it is (it can only stop mails to this address, which every
    mail to it carries anyway)."""

    __tablename__ = "email_addresses"

    owner: Mapped[str] = mapped_column(String(80), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), index=True)
    lang: Mapped[str] = mapped_column(String(8))
    confirm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    unsubscribe_token: Mapped[str] = mapped_column(String(64), unique=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    confirmed_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class EmailDigest(Base):
    """A day's digest to an address, claimed before it is sent: the primary key makes
    it one a day, whichever process gets there first."""

    __tablename__ = "email_digests"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The UTC date, YYYY-MM-DD."""
    sent_ms: Mapped[int] = mapped_column(BigInteger, index=True)
