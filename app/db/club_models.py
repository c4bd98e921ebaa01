"""Tables of the clubs (issue 49, app/clubs): each club, its members with their roles,
its pending join requests, and who it removed (who may not come back through its
invite link).  ``models.py`` imports this module, so that the migrations find them."""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class ClubRow(Base):
    """A club.  ``members`` counts its member rows, so that the cap is held by one
    conditional UPDATE however many join at once; ``name_skeleton`` is unique, so that
    no two clubs look alike (closed ones keep their names)."""

    __tablename__ = "clubs"
    __table_args__ = (
        Index("ux_clubs_name_skeleton", "name_skeleton", unique=True),
        Index("ux_clubs_invite_hash", "invite_hash", unique=True),
        Index("ix_clubs_owner_id", "owner_id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_skeleton: Mapped[str] = mapped_column(String(160))
    description: Mapped[str] = mapped_column(Text)
    owner_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    closed_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    members: Mapped[int] = mapped_column(Integer)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of the current invite link's token; None without a link."""
    invite_expires_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class ClubMemberRow(Base):
    __tablename__ = "club_members"
    __table_args__ = (Index("ix_club_members_account_id", "account_id"),)

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(16))
    """``owner``, ``organiser`` or ``member`` (app/clubs/rules.py)."""
    joined_ms: Mapped[int] = mapped_column(BigInteger)


class ClubRequestRow(Base):
    """A pending join request: gone once accepted or refused."""

    __tablename__ = "club_requests"
    __table_args__ = (Index("ix_club_requests_account_id", "account_id"),)

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    made_ms: Mapped[int] = mapped_column(BigInteger)


class ClubRemovalRow(Base):
    """A member the club removed: the invite link no longer lets them in (a request
    the organisers accept does, and clears this row)."""

    __tablename__ = "club_removals"

    club_id: Mapped[str] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    removed_ms: Mapped[int] = mapped_column(BigInteger)
