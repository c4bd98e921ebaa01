"""Seats as the lists read them, each with whether a bot account holds it (issue 51).

A seat is a bot account's when the account linked to it (``seats.account_id``) became
a bot account (``accounts.bot_since_ms``): the deal records, the history, the lobby's
public rooms and the admin's index mark it, as the room's own views do from its
``SeatTaken`` event.  Read by an outer join, so a seat of no account is a person's
(or a built-in bot's: ``bot``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, Select, select

from app.rooms.domain.record_types import SeatName

from .models import Seat
from .people_models import Account


def seats_where(*where: ColumnElement[bool]) -> Select[Seat, int | None]:
    """The seats ``where`` says, each with its account's ``bot_since_ms`` (None: no
    account, or a person's)."""
    return (
        select(Seat, Account.bot_since_ms)
        .outerjoin(Account, Account.id == Seat.account_id)
        .where(*where)
    )


def seat_name(seat: Seat, bot_since_ms: int | None) -> SeatName:
    return {
        "seat": seat.seat,
        "name": seat.name,
        "bot": bool(seat.bot),
        "outside_bot": bot_since_ms is not None,
    }
