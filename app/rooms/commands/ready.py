"""Continue: a player has seen the deal that ended (issue 12); and the next deal
shown to a player who had not pressed Continue (issue 47).

The room waits between deals until every connected person at the table pressed
Continue or the pause ran out (app/rooms/pacing.py); the last Continue deals.  A
seat that had not pressed Continue when the deal started has its first turn timed
from when its client shows the deal (domain/first_turns.py): ``deal_shown``.
"""

from __future__ import annotations

from app.core.errors import ErrorCode, ServiceError

from ..domain.commands import PressContinue, ShowDeal
from ..domain.events import DealShown, ReadyPressed
from ..domain.specs import Spec, deal_spec, everyone_ready
from ..domain.state import RoomState
from ..registry import runtime
from .context import Context, handles


@handles(PressContinue)
async def press_continue(ctx: Context, cmd: PressContinue) -> None:
    """Record a player's Continue, and deal when they were the last one.  A spectator's
    Continue, one outside a pause, or a second one, changes nothing."""
    seat = cmd.seat
    if seat is None:
        return
    rt = await runtime(ctx.unit, cmd.room_id)
    connected = await ctx.sync.connected(rt)

    def make(st: RoomState) -> list[Spec]:
        if not st.between_deals or seat in st.ready:
            return []
        specs = [Spec(ReadyPressed(seat))]
        if everyone_ready(st, connected, st.ready | {seat}):
            specs.append(deal_spec(st))
        return specs

    await ctx.writes.write(rt, make)


@handles(ShowDeal)
async def deal_shown(ctx: Context, cmd: ShowDeal) -> None:
    """Record that this seat's client shows deal ``deal_no`` of match ``match_no``, once,
    while its first turn of that deal waits for it.  A spectator is refused; a second
    one, one for a deal not in play (an older one, one not yet dealt), or one from a
    seat that was not waited for (it had pressed Continue, or has played already)
    changes nothing: a client may say it again after a reconnect."""
    seat = cmd.seat
    if seat is None:
        raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators have no clock to start")
    rt = await runtime(ctx.unit, cmd.room_id)

    def make(st: RoomState) -> list[Spec]:
        current = st.match_no == cmd.match_no and st.deal_no == cmd.deal_no
        if not current or st.deal is None or not st.first_turns.awaits(seat):
            return []
        return [Spec(DealShown(seat))]

    await ctx.writes.write(rt, make)
