"""A play: a card from the seat to move, validated by the engine, committed once.

A play's id is stored with it (``{seat}:{client id}``, or ``srv:{kind}:{seq}``
for a move the server makes), so a resent play is answered with its seq and
never played twice; the two kinds of id can never be equal, so a client cannot
claim a server move's id.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.engine.errors import MoveError

from ..domain.commands import PlayCard
from ..domain.errors import RoomCode, refuse_closed
from ..domain.events import Played
from ..domain.results import PlayAnswer
from ..domain.specs import Spec
from ..domain.state import FINISHED, PLAYING, RoomState
from ..registry import runtime
from .context import Context, handles


@handles(PlayCard)
async def play(ctx: Context, cmd: PlayCard) -> PlayAnswer:
    """Validate and commit one play; its seq, and whether its id had been played.

    A person's play carries its client's id; a move the server makes carries its own
    (``cmd.server``), chosen for the position at ``cmd.at_seq`` and refused once the
    room is past it."""
    started = time.perf_counter()
    unit, writes = ctx.unit, ctx.writes
    room_id, seat, card, take, at_seq = cmd.room_id, cmd.seat, cmd.card, cmd.take, cmd.at_seq
    rt = await runtime(unit, room_id)
    key = cmd.key
    duplicate_seq: list[int] = []
    older: list[str] = []  # the id may be an old play's: the database says
    checked = False  # the database has no play with this id (a hash collision)
    used: list[RoomState] = []  # the state written to (a reload replaces rt.state)

    def make(st: RoomState) -> list[Spec]:
        used.append(st)
        if seat is None:
            raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators cannot play")
        if key is not None:
            seq = st.played_ids.recent_seq(key)
            if seq is not None:
                duplicate_seq.append(seq)
                return []
            if not checked and st.played_ids.maybe_older(key):
                older.append(key)
                return []
        check_play(st, seat, card, take, at_seq)
        return [Spec(Played(seat, card, take, key))]

    await writes.write(rt, make)
    if older:  # a resend of a play too old to be remembered in full (played_ids.py)
        try:
            seq = await unit.store.play_seq(room_id, older[-1])
        except Unavailable as exc:
            raise unavailable() from exc
        if seq is not None:
            return PlayAnswer(seq, duplicate=True)
        checked = True
        await writes.write(rt, make)
    if duplicate_seq:
        return PlayAnswer(duplicate_seq[-1], duplicate=True)
    unit.stats.moves_committed += 1
    if unit.on_move is not None:
        unit.on_move(time.perf_counter() - started)
    return PlayAnswer(used[-1].seq, duplicate=False)


def check_play(
    st: RoomState, seat: int, card: str, take: Sequence[str], at_seq: int | None
) -> None:
    """Refuse the play unless it is ``seat``'s turn (at ``at_seq``, for a server move)
    and the engine takes the card (raises ServiceError: nothing changes)."""
    refuse_closed(st)  # ops
    if st.status != PLAYING or st.deal is None:
        if st.status == FINISHED:
            raise ServiceError(RoomCode.DEAL_OVER, "the match is over")
        raise ServiceError(RoomCode.NOT_YOUR_TURN, "the game has not started")
    if st.deal.to_move != seat or (at_seq is not None and st.seq != at_seq):
        raise ServiceError(RoomCode.NOT_YOUR_TURN, "it is not your turn")
    if not st.deal.is_legal(card, take):
        # A legal move costs one lookup in the position's legal moves (which playing
        # it reuses); only a refusal runs the checks that name its error.
        try:
            st.deal.check(card, take)
        except MoveError as exc:
            raise ServiceError(exc.code, exc.message) from exc
        raise ServiceError(ErrorCode.BAD_MESSAGE, "not a legal move")
