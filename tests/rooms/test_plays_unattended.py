"""A room that plays unattended (``RoomOptions.plays_unattended``, issue 51): its timers
run with nobody connected, so a ladder room whose outside bot never comes is played
to its end by the stand-in after the seat's grace.  Any other room waits for
someone to come back (app/rooms/attendance.py): its grace ends without a stand-in."""

from __future__ import annotations

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.options import RoomOptions
from app.rooms.domain.state import PLAYING
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.waiting import wait_until_async

GRACE = 0.05


async def nobody_comes(url: str, unattended: bool) -> None:
    async with open_store(url) as store:
        timing = ServiceSettings(default_bot_delay=0, bots_only_delay=0)
        service = RoomService(store, MemoryBroker(), timing)
        try:
            options = RoomOptions(bot_delay=0, grace=GRACE, plays_unattended=unattended)
            made = await service.execute(NewRoom(2, "Ann", RuleSet(single_pack=True), 1, options))
            rt = service.rooms[made.room_id]
            assert rt.state.options.plays_unattended is unattended
            if unattended:  # Ann never connects: the stand-in plays her seat to the end
                await wait_until_async(
                    lambda: rt.state.seats[0].autoplay, 30, 0.02, "the stand-in in Ann's seat"
                )
                await wait_until_async(  # the next deal, or the match over
                    lambda: rt.state.deal_no >= 2 or rt.state.status != PLAYING,
                    60,
                    0.05,
                    "the first deal's end",
                )
                return
            seq = rt.state.seq
            grace = rt.grace_tasks.get(0)
            assert grace is not None, "Ann is away from the start: her grace runs"
            await wait_until_async(grace.done, 30, 0.02, "Ann's grace to end")
            assert not rt.state.seats[0].autoplay, "nobody here: no stand-in"
            assert rt.state.seq == seq, "and nothing moved"
        finally:
            await service.stop()


def test_a_room_that_plays_unattended_is_played_to_its_end(store_url: str) -> None:
    run_async(nobody_comes(store_url, unattended=True))


def test_any_other_room_waits_for_someone(store_url: str) -> None:
    run_async(nobody_comes(store_url, unattended=False))


def test_the_flag_is_stored_and_never_shown() -> None:
    options = RoomOptions(plays_unattended=True)
    assert options.to_stored()["plays_unattended"] is True
    assert RoomOptions.from_stored(options.to_stored()).plays_unattended
    assert "plays_unattended" not in options.to_dict()
    assert "plays_unattended" not in RoomOptions().to_stored(), "rooms as before: no key"
