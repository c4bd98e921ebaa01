"""A deleted account leaves its clubs (issue 49), in the deletion's own transaction.

Accounts are scrubbed, not removed (their games stay: app/db/accounts.py), so the
clubs' ``ON DELETE CASCADE`` never fires for them.  Without this a deleted member
would still count against its club's member cap, and a club whose owner deleted
their account would have nobody left who may change roles or close it.  So the
account's memberships, requests and removals go; a club it owned passes to its
longest-standing organiser, else its longest-standing member, and a club left with
nobody is closed (its name stays taken, as every closed club's does).
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from .base import table_of
from .club_models import ClubMemberRow, ClubRemovalRow, ClubRequestRow, ClubRow

CLUBS = table_of(ClubRow)
MEMBERS = table_of(ClubMemberRow)
REQUESTS = table_of(ClubRequestRow)
REMOVALS = table_of(ClubRemovalRow)

SUCCESSION = ("organiser", "member")
"""Who takes a club over from an owner who left, in this order (the earliest joined of
a role first)."""


def leave_clubs(conn: Connection, account_id: str, now_ms: int) -> None:
    """Take ``account_id`` out of every club, handing over or closing the ones it owned."""
    held = conn.execute(
        select(MEMBERS.c.club_id, MEMBERS.c.role).where(MEMBERS.c.account_id == account_id)
    ).all()
    conn.execute(delete(MEMBERS).where(MEMBERS.c.account_id == account_id))
    for table in (REQUESTS, REMOVALS):
        conn.execute(delete(table).where(table.c.account_id == account_id))
    for club_id, role in held:
        conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(members=CLUBS.c.members - 1))
        if role == "owner":
            _hand_over(conn, club_id, now_ms)


def _hand_over(conn: Connection, club_id: str, now_ms: int) -> None:
    for role in SUCCESSION:
        heir = conn.execute(
            select(MEMBERS.c.account_id)
            .where(MEMBERS.c.club_id == club_id, MEMBERS.c.role == role)
            .order_by(MEMBERS.c.joined_ms, MEMBERS.c.account_id)
            .limit(1)
        ).scalar()
        if heir is not None:
            conn.execute(
                update(MEMBERS)
                .where(MEMBERS.c.club_id == club_id, MEMBERS.c.account_id == heir)
                .values(role="owner")
            )
            conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(owner_id=heir))
            return
    conn.execute(
        update(CLUBS)
        .where(CLUBS.c.id == club_id)
        .values(closed_ms=now_ms, invite_hash=None, invite_expires_ms=None)
    )
