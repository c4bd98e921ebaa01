"""Bots of different levels in one room (``RoomOptions.seat_levels``, issue 51): each bot
seat is played at its own level, a person's seat by the stand-in's, and the levels
are kept with the room's stored options, so a room loaded again plays them too.

The ladder seats an outside bot beside two built-in levels this way
(app/ladder/rooms.py); the chooser here records which level each seat was asked at
and answers with the engine's first legal move."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from app.broker import MemoryBroker
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom, PlayCard
from app.rooms.domain.options import STAND_IN_LEVEL, RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async


class RecordingChooser:
    """The levels each seat was played at, in order."""

    def __init__(self) -> None:
        self.levels: dict[int, list[str]] = defaultdict(list)

    async def __call__(
        self, info: InformationSet, legal: Sequence[LegalMove], level: str, seed: str | None = None
    ) -> LegalMove:
        self.levels[info.seat].append(level)
        return legal[0]


def test_a_seat_plays_at_its_own_level_and_a_person_at_the_stand_ins() -> None:
    options = RoomOptions(bot_level="random", seat_levels=("", "strong", ""))
    assert options.level_of(1, bot=True) == "strong"
    assert options.level_of(2, bot=True) == "random", "no level of its own: the room's"
    assert options.level_of(0, bot=False) == STAND_IN_LEVEL, "a person's seat: the stand-in"
    assert options.level_of(1, bot=False) == STAND_IN_LEVEL
    assert RoomOptions(bot_level="strong").level_of(5, bot=True) == "strong"
    assert options.level_of(7, bot=True) == "random", "a seat beyond the list: the room's"


def test_the_levels_are_stored_with_the_options_and_never_shown() -> None:
    options = RoomOptions(bot_level="random", seat_levels=("", "strong", "greedy"))
    stored = options.to_stored()
    assert stored["seat_levels"] == ["", "strong", "greedy"]
    assert RoomOptions.from_stored(stored) == options
    assert "seat_levels" not in options.to_dict(), "the view has the room's level only"
    older = RoomOptions(bot_level="greedy").to_stored()
    assert "seat_levels" not in older
    assert RoomOptions.from_stored(older).seat_levels is None, "rows made before: none"


async def bots_play_their_own_levels(url: str) -> None:
    chooser = RecordingChooser()
    async with open_store(url) as store:
        timing = ServiceSettings(default_bot_delay=0)
        service = RoomService(store, MemoryBroker(), timing, chooser=chooser)
        try:
            options = RoomOptions(
                bot_level="random", bot_delay=0, seat_levels=("", "strong", "greedy")
            )
            made = await service.execute(NewRoom(3, "Ann", RuleSet(), 2, options))
            rid = made.room_id
            await service.connect(rid, 0, Inbox(), None)  # the bots play for a person there
            rt = service.rooms[rid]
            for _ in range(2):  # Ann plays, both bots answer, twice round the table
                await wait_until_async(
                    lambda: rt.state.deal is not None and rt.state.deal.to_move == 0,
                    30,
                    0.02,
                    "Ann's turn",
                )
                move = rt.state.deal.legal()[0]  # type: ignore[union-attr]
                await service.execute(
                    PlayCard(rid, 0, move.card, tuple(move.take), play_id=f"a{_}")
                )
            await wait_until_async(
                lambda: min(len(chooser.levels[1]), len(chooser.levels[2])) >= 2,
                30,
                0.02,
                "the bots' second answers",
            )
            assert chooser.levels[1][:2] == ["strong", "strong"]
            assert chooser.levels[2][:2] == ["greedy", "greedy"]
            assert 0 not in chooser.levels, "nobody played for Ann"
        finally:
            await service.stop()
    if url == "memory":
        return
    async with open_store(url) as store:  # another process loads the room from its rows
        again = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            loaded = await again.runtime(rid)
            assert loaded.state.options.seat_levels == ("", "strong", "greedy")
        finally:
            await again.stop()


def test_bots_of_one_room_play_their_own_levels(store_url: str) -> None:
    run_async(bots_play_their_own_levels(store_url))
