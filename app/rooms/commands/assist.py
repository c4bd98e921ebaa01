"""Take-back and hint: what one person playing against bots may ask for (issue 33).

A take-back is a ``takeback`` event: the room's state deals the deal again from its
seed and replays the plays that stand (app/rooms/domain/state.py), so the room is
exactly as it was before the person's last play.  A hint is the strong bot's move
for the person's position, chosen from the person's own information set and legal
moves (the bots' chooser, off the event loop as for any bot: app/rooms/botrunner.py)
outside the room's lock, then written as a ``hint`` event so that the deal's record
shows where it was asked; the move itself goes back to the asking connection only.
Who may is app/rooms/domain/assist.py's.
"""

from __future__ import annotations

from app.core.errors import ErrorCode, ServiceError

from ..domain.assist import OFF, assisted_seat, may_hint, takeback_plays
from ..domain.commands import AskHint, TakeBack
from ..domain.errors import RoomCode, refuse_closed
from ..domain.events import HintGiven, TakenBack
from ..domain.results import HintAnswer
from ..domain.specs import Spec
from ..domain.state import PLAYING, RoomState
from ..registry import runtime
from .context import Context, handles

HINT_LEVEL = "strong"
"""The bot whose move a hint is."""


def check_person(st: RoomState, seat: int | None) -> int:
    """The asking seat, if it is the one person at a table of bots (else refused)."""
    if seat is None:
        raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators cannot take back or ask for hints")
    refuse_closed(st)
    if st.options.rated:
        raise ServiceError(RoomCode.NO_ASSIST, "a rated match has no take-backs or hints")
    if st.options.challenge:
        raise ServiceError(RoomCode.NO_ASSIST, "a challenge has no take-backs or hints")
    if assisted_seat(st.seats) != seat:
        raise ServiceError(
            RoomCode.NO_ASSIST,
            "take-backs and hints are only for one person playing against bots",
        )
    return seat


def check_takeback(st: RoomState, seat: int | None) -> tuple[int, int]:
    """The seat and how many plays its take-back undoes now (else refused)."""
    person = check_person(st, seat)
    mode = st.options.takeback
    if mode == OFF:
        raise ServiceError(RoomCode.TAKEBACK_OFF, "take-backs are off in this room")
    plays = takeback_plays(st.deal, st.status == PLAYING, person, mode)
    if plays is None:
        deal = st.deal
        if deal is None or deal.is_over or st.status != PLAYING:
            why = "the deal is over"
        elif any(r.seat == person for r in deal.results):
            why = "a bot has played since your last play"
        else:
            why = "you have not played in this deal yet"
        raise ServiceError(RoomCode.NOTHING_TO_TAKE_BACK, f"nothing to take back: {why}")
    return person, plays


def check_hint(st: RoomState, seat: int | None) -> int:
    """The seat, if a hint may be given to it now (its turn; else refused)."""
    person = check_person(st, seat)
    if not may_hint(st.deal, st.status == PLAYING, person):
        raise ServiceError(RoomCode.NOT_YOUR_TURN, "a hint is for your own turn")
    return person


def _answer(st: RoomState, hint: HintGiven) -> HintAnswer:
    return HintAnswer(st.seq, hint.card, hint.take)


@handles(TakeBack)
async def take_back(ctx: Context, cmd: TakeBack) -> int:
    """Undo the person's last play (and, with ``always``, the bots' plays after it);
    returns the room's seq after it."""
    rt = await runtime(ctx.unit, cmd.room_id)
    used: list[RoomState] = []

    def make(st: RoomState) -> list[Spec]:
        used.append(st)
        person, plays = check_takeback(st, cmd.seat)
        return [Spec(TakenBack(person, plays))]

    await ctx.writes.write(rt, make)
    return used[-1].seq


@handles(AskHint)
async def hint(ctx: Context, cmd: AskHint) -> HintAnswer:
    """The strong bot's move for the person's position, from the person's own
    information set; asked again at the same position, the same hint (no new
    event, no new search)."""
    rt = await runtime(ctx.unit, cmd.room_id)
    async with rt.lock:  # a state whose commit is in flight is never read
        await ctx.writes.ensure_fresh(rt)
        st = rt.state
        person = check_hint(st, cmd.seat)
        if st.hint is not None and st.hint.seat == person:
            return _answer(st, st.hint)
        asked_at = st.seq
        deal = st.deal
        assert deal is not None  # check_hint: the person is to move
        info, legal = deal.information_set(person), deal.legal()
    move = await ctx.unit.chooser(info, legal, HINT_LEVEL)  # thinks outside the lock
    used: list[RoomState] = []

    def make(st: RoomState) -> list[Spec]:
        used.append(st)
        check_hint(st, person)
        if st.hint is not None and st.hint.seat == person:
            return []  # another of the person's connections asked meanwhile
        if st.seq != asked_at:
            raise ServiceError(ErrorCode.BUSY, "the position changed; ask again")
        return [Spec(HintGiven(person, move.card, tuple(move.take)))]

    await ctx.writes.write(rt, make)
    st = used[-1]
    assert st.hint is not None
    return _answer(st, st.hint)
