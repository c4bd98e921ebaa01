"""A rematch is offered and accepted, not imposed (issue 33).

Once a match is over, a seated player's Rematch offers the others a new match, or
accepts the offer already open; the match starts (``match_spec``) with the last
seated person's acceptance, in the same write.  Seats a bot plays accept by
themselves, so a person alone with bots starts the next match at once.  A challenge
room (the deal of the day) has no rematch: its one deal is played once.  A decline
withdraws the offer; so does its deadline (app/rooms/rematch_expiry.py writes that).
"""

from __future__ import annotations

from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError

from ..domain.commands import DeclineRematch, Rematch
from ..domain.errors import RoomCode, refuse_closed
from ..domain.events import RematchAccepted, RematchDeclined, RematchExpired, RematchOffered
from ..domain.rematch import RematchOffer
from ..domain.specs import Spec, match_spec
from ..domain.state import FINISHED, RoomState
from ..registry import runtime
from .context import Context, handles


def open_offer(st: RoomState, now: int) -> RematchOffer | None:
    """The offer still open at ``now`` (one past its deadline is as good as gone: only
    its expiry event is still to be written)."""
    offer = st.rematch
    return offer if offer is not None and now < offer.deadline else None


def waiting_for(st: RoomState, accepted: set[int]) -> list[int]:
    """The seated people who have not accepted (seats a bot plays are not asked)."""
    return [i for i in range(st.players) if not st.bot_controls(i) and i not in accepted]


def _refuse(st: RoomState, seat: int | None, what: str) -> None:
    """Only a seated player of a finished, open room answers about a rematch."""
    if seat is None:
        raise ServiceError(ErrorCode.UNAUTHORIZED, f"spectators cannot {what}")
    refuse_closed(st)
    if st.status != FINISHED:
        raise ServiceError(RoomCode.NOT_FINISHED, "the match is still being played")


def offer_or_accept(st: RoomState, seat: int | None, now: int, timeout_ms: int) -> list[Spec]:
    """The events of a seat's Rematch at ``now``: an offer (the next match at once when
    nobody else is to be asked), or an acceptance of the open offer (with the next
    match when it was the last one missing).  Accepting twice changes nothing."""
    _refuse(st, seat, "start a rematch")
    assert seat is not None
    if st.options.challenge:  # issue 47: a "Match 2" of the day's bots, off the record
        raise ServiceError(RoomCode.NO_REMATCH, "the deal of the day is played once: no rematch")
    offer = open_offer(st, now)
    if offer is not None:
        if seat in offer.accepted:
            return []
        specs = [Spec(RematchAccepted(seat))]
        if not waiting_for(st, offer.accepted | {seat}):
            specs.append(match_spec(st))
        return specs
    # An offer past its deadline whose expiry is not written yet is gone: say so first.
    specs = [Spec(RematchExpired())] if st.rematch is not None else []
    if not waiting_for(st, {seat}):
        return [*specs, match_spec(st)]
    return [*specs, Spec(RematchOffered(seat, timeout_ms))]


def decline(st: RoomState, seat: int | None, now: int) -> list[Spec]:
    """The events of a seat's decline: the open offer is withdrawn (by its offerer
    too).  Refused when there is no offer to decline."""
    _refuse(st, seat, "decline a rematch")
    assert seat is not None
    if st.rematch is None:
        raise ServiceError(RoomCode.NO_REMATCH_OFFER, "no rematch offer is open")
    if open_offer(st, now) is None:
        return [Spec(RematchExpired())]  # it lapsed already: withdrawn all the same
    return [Spec(RematchDeclined(seat))]


def expire(st: RoomState, now: int) -> list[Spec]:
    """The expiry of an offer whose deadline passed (nothing once it is gone)."""
    if st.rematch is not None and open_offer(st, now) is None:
        return [Spec(RematchExpired())]
    return []


@handles(Rematch)
async def rematch(ctx: Context, cmd: Rematch) -> None:
    """A seated player offers a rematch, or accepts the open offer."""
    rt = await runtime(ctx.unit, cmd.room_id)
    timeout_ms = int(ctx.unit.settings.rematch_timeout * 1000)
    await ctx.writes.write(rt, lambda st: offer_or_accept(st, cmd.seat, now_ms(), timeout_ms))


@handles(DeclineRematch)
async def rematch_decline(ctx: Context, cmd: DeclineRematch) -> None:
    """A seated player declines the open rematch offer (its offerer withdraws it)."""
    rt = await runtime(ctx.unit, cmd.room_id)
    await ctx.writes.write(rt, lambda st: decline(st, cmd.seat, now_ms()))
