"""Take-back and hint through the room service (issue 33): allowed to the one person at
a table of bots, refused to anyone else; ``until_bot`` against ``always``; a hint worked
out from the person's own information only; both kept in the deal's record, on every
store (memory, SQLite, PostgreSQL), and through a reload from the stored events."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AsyncExitStack
from typing import Any

import pytest

from app.broker import MemoryBroker
from app.core.errors import ErrorCode, ServiceError
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.rooms.botrunner import Chooser
from app.rooms.domain.commands import AskHint, JoinRoom, NewRoom, PlayCard, TakeBack
from app.rooms.domain.errors import RoomCode
from app.rooms.domain.state import RoomOptions
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async

PERSON = 0
LATER = 10_000.0


class Recording:
    """The room's own chooser, noting what each call was given: a hint must be worked
    out from the person's information set alone.  ``level`` (when set) replaces the
    level asked for, to spare tests that are about the record a strong search."""

    def __init__(self, inner: Chooser, level: str | None = None) -> None:
        self.inner = inner
        self.level = level
        self.calls: list[tuple[InformationSet, tuple[LegalMove, ...], str]] = []

    async def __call__(
        self, info: InformationSet, legal: Sequence[LegalMove], level: str
    ) -> LegalMove:
        self.calls.append((info, tuple(legal), level))
        return await self.inner(info, legal, self.level or level)


def _service(store: Any, **settings: Any) -> RoomService:
    timing = ServiceSettings(**{"idle_evict": 60, "bot_workers": 1, "bot_budget": 0.1, **settings})
    return RoomService(store, MemoryBroker(), timing)


async def _room(
    service: RoomService, players: int = 3, bots: int = 2, takeback: str = "until_bot"
) -> str:
    """A room of Ann and bots whose bots wait (their moves are made below, as the
    timers would make them, so that the test decides when a bot has played)."""
    options = RoomOptions(bot_delay=LATER, deal_pause=LATER, takeback=takeback)  # type: ignore[arg-type]
    made = await service.execute(NewRoom(players, "Ann", RuleSet(), bots, options))
    return made.room_id


async def _bot_plays(service: RoomService, rid: str) -> None:
    """The bot to move plays its first legal move, as the timer would (a server id)."""
    st = service.rooms[rid].state
    seat, seq = st.to_move, st.seq
    assert seat is not None and st.seats[seat].bot and st.deal is not None
    move = st.deal.legal()[0]
    await service.execute(
        PlayCard(rid, seat, move.card, list(move.take), server=f"srv:bot:{seq}", at_seq=seq)
    )


async def _to_person(service: RoomService, rid: str) -> None:
    while service.rooms[rid].state.to_move != PERSON:
        await _bot_plays(service, rid)


async def _person_plays(service: RoomService, rid: str, which: int = 0) -> None:
    st = service.rooms[rid].state
    assert st.deal is not None and st.to_move == PERSON
    legal = st.deal.legal()
    move = legal[which % len(legal)]
    await service.execute(PlayCard(rid, PERSON, move.card, list(move.take), play_id=f"m{st.seq}"))


def _views(service: RoomService, rid: str) -> list[Any]:
    st = service.rooms[rid].state
    return [st.view(seat) for seat in [*range(st.players), None]]


async def _refused(code: str, call: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        await call
    assert refused.value.code == code


async def until_bot_and_always() -> None:
    service = _service(MemoryStore())
    try:
        rid = await _room(service)
        await _to_person(service, rid)
        await _refused(RoomCode.NOTHING_TO_TAKE_BACK, service.execute(TakeBack(rid, PERSON)))
        before, seq = _views(service, rid), service.rooms[rid].state.seq
        await _person_plays(service, rid)
        assert service.rooms[rid].state.view(PERSON)["assist"] == {
            "seat": PERSON,
            "takeback": True,
            "hint": False,
        }
        assert await service.execute(TakeBack(rid, PERSON)) == seq + 2
        assert _views(service, rid) == before  # the room as it was before the play
        await _person_plays(service, rid, 1)
        await _bot_plays(service, rid)  # the next bot has played: too late
        await _refused(RoomCode.NOTHING_TO_TAKE_BACK, service.execute(TakeBack(rid, PERSON)))

        rid = await _room(service, takeback="always")
        await _to_person(service, rid)
        before = _views(service, rid)
        await _person_plays(service, rid)
        await _bot_plays(service, rid)
        await _bot_plays(service, rid)
        assert service.rooms[rid].state.to_move == PERSON
        await service.execute(TakeBack(rid, PERSON))  # the bots' plays go with it
        assert _views(service, rid) == before

        rid = await _room(service, takeback="off")
        await _to_person(service, rid)
        await _person_plays(service, rid)
        await _refused(RoomCode.TAKEBACK_OFF, service.execute(TakeBack(rid, PERSON)))
        assert service.rooms[rid].state.view(None)["assist"] == {
            "seat": PERSON,
            "takeback": False,
            "hint": False,
        }
    finally:
        await service.stop()


def test_a_take_back_until_the_next_bot_has_played_or_always_or_never() -> None:
    run_async(until_bot_and_always())


async def refused_to_others() -> None:
    service = _service(MemoryStore())
    try:
        rid = await _room(service, players=3, bots=1)  # Ann, Bo and a bot
        await service.execute(JoinRoom(rid, "Bo"))
        st = service.rooms[rid].state
        assert st.status == "playing" and st.view(0)["assist"] is None
        for seat in (0, 1):
            await _refused(RoomCode.NO_ASSIST, service.execute(TakeBack(rid, seat)))
            await _refused(RoomCode.NO_ASSIST, service.execute(AskHint(rid, seat)))
        rid = await _room(service)
        seq = service.rooms[rid].state.seq
        await _refused(ErrorCode.UNAUTHORIZED, service.execute(TakeBack(rid, None)))  # a spectator
        await _refused(ErrorCode.UNAUTHORIZED, service.execute(AskHint(rid, None)))
        await _refused(RoomCode.NO_ASSIST, service.execute(AskHint(rid, 1)))  # a bot's seat
        if service.rooms[rid].state.to_move != PERSON:
            await _refused(RoomCode.NOT_YOUR_TURN, service.execute(AskHint(rid, PERSON)))
        assert service.rooms[rid].state.seq == seq  # nothing changed
    finally:
        await service.stop()


def test_take_back_and_hint_are_refused_with_two_people_and_to_spectators() -> None:
    run_async(refused_to_others())


async def hint_from_own_information() -> None:
    service = _service(MemoryStore())
    recording = Recording(service.chooser)
    service.chooser = recording
    try:
        rid = await _room(service, players=4, bots=3)
        await _to_person(service, rid)
        st = service.rooms[rid].state
        view, seq, hand = st.view(PERSON), st.seq, list(st.view(PERSON)["hand"])
        before = _views(service, rid)
        hint = await service.execute(AskHint(rid, PERSON))
        assert len(recording.calls) == 1
        info, legal, level = recording.calls[0]
        assert level == "strong"
        # exactly what the person's own view says, and nothing of any other hand
        assert info == InformationSet.from_view(view)
        assert info.seat == PERSON and sorted(info.hand) == sorted(hand)
        assert {(m["card"], tuple(m["take"])) for m in view["legal"]} == {
            (m.card, m.take) for m in legal
        }
        assert (hint.card, tuple(hint.take)) in {(m.card, m.take) for m in legal}
        assert hint.seq == seq + 1  # stored, for the record
        again = await service.execute(AskHint(rid, PERSON))  # asked again: the same, no search
        assert again == hint
        assert len(recording.calls) == 1 and service.rooms[rid].state.seq == seq + 1
        assert _views(service, rid) == before  # no view carries it: only the answer does
    finally:
        await service.stop()


def test_a_hint_is_the_strong_bots_move_from_the_persons_own_information() -> None:
    run_async(hint_from_own_information())


async def record_and_reload(url: str) -> None:
    stack = AsyncExitStack()
    store = await stack.enter_async_context(open_store(url))
    service = _service(store)
    service.chooser = Recording(service.chooser, level="greedy")
    try:
        rid = await _room(service, players=2, bots=1, takeback="always")
        marks: list[tuple[int, str]] = []
        while (st := service.rooms[rid].state).deal is not None and not st.deal.is_over:
            if st.to_move != PERSON:
                await _bot_plays(service, rid)
                continue
            at = len(st.deal.moves)
            if len(marks) < 2:
                await service.execute(AskHint(rid, PERSON))
                marks.append((at, "hint"))
                await _person_plays(service, rid)
                if not service.rooms[rid].state.deal.is_over:  # type: ignore[union-attr]
                    before = _views(service, rid)
                    await service.execute(TakeBack(rid, PERSON))
                    marks.append((at, "takeback"))
                    # the take-back is stored: the room read back from the store is the same
                    again = _views(service, rid)
                    stored = await service.repo.load_state(rid)
                    assert stored is not None and stored.seq == service.rooms[rid].state.seq
                    assert [stored.view(s) for s in [0, 1, None]] == again != before
                    await _person_plays(service, rid, 1)
                continue
            await _person_plays(service, rid)
        record = await service.deal_record(rid, 1)
        assert [(m["index"], m["kind"]) for m in record["assists"]] == marks
        assert all(m["seat"] == PERSON for m in record["assists"])
        undone = [m for m in record["assists"] if m["kind"] == "takeback"]
        assert undone and all(len(m["moves"]) == 1 for m in undone)
        # the record's moves are the plays that stand: they are the deal the room scored
        deal = service.rooms[rid].state.deal
        assert deal is not None
        assert [(m["card"], tuple(m["take"])) for m in record["moves"]] == [
            tuple(x) for x in deal.moves
        ]
        assert record["totals"] == deal.totals()
    finally:
        await service.stop()
        await stack.aclose()


def test_take_backs_and_hints_are_stored_marked_in_the_record_and_replayed(
    store_url: str,
) -> None:
    run_async(record_and_reload(store_url))
