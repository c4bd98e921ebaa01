"""Room settings changed in play, by the host (the one who made the room, seat 0):
whether spectators' chat reaches the players (``SetSpectatorChat``)."""

from __future__ import annotations

from app.core.errors import ServiceError

from ..domain.commands import SetSpectatorChat
from ..domain.errors import RoomCode
from ..domain.events import OptionChanged
from ..domain.specs import Spec
from ..domain.state import RoomState
from ..registry import runtime
from .context import Context, handles

HOST_SEAT = 0
"""The seat of who made the room: the only one who changes its settings in play."""


@handles(SetSpectatorChat)
async def set_spectator_chat(ctx: Context, cmd: SetSpectatorChat) -> None:
    """The host shows or hides spectators' chat to the players: an ``option`` event
    (none when it is set so already)."""
    if cmd.seat != HOST_SEAT:
        raise ServiceError(RoomCode.NOT_HOST, "only the host (who made the room) can change this")
    rt = await runtime(ctx.unit, cmd.room_id)

    def make(st: RoomState) -> list[Spec]:
        if st.options.spectator_chat == cmd.on:
            return []
        return [Spec(OptionChanged(cmd.on))]

    await ctx.writes.write(rt, make)
