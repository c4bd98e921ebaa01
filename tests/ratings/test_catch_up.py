"""A rated match whose end no process rated (the process stopped right after the last
play's commit) is rated by the catch-up, once, on SQLite and PostgreSQL; a match the
hook rated is left alone."""

from __future__ import annotations

from contextlib import AsyncExitStack

from app.broker import MemoryBroker
from app.core.tokens import hash_token
from app.db.accounts import AccountRows
from app.db.ratings import RatingRows
from app.engine.rules import RuleSet
from app.ratings.ratings import Ratings
from app.rooms.domain.commands import NewRoom, PlayCard
from app.rooms.domain.match_end import finished_match
from app.rooms.domain.state import FINISHED, RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

ANN = "a" * 32


async def _rated_match_without_a_hook(service: RoomService, accounts: AccountRows) -> str:
    """Ann (an account) against a random bot in a rated room, played to the end by a
    service that has no ratings hook: the match is over and nobody rated it."""
    rules = RuleSet(single_pack=True, match_deals=1)
    options = RoomOptions(bot_level="random", bot_delay=0, grace=600, rated=True)
    room = await service.execute(NewRoom(2, "Ann", rules, 1, options))
    rid = room.room_id
    assert await accounts.link_seat(rid, 0, hash_token(room.token), ANN)
    await service.connect(rid, 0, Inbox(), None)
    rt = service.rooms[rid]
    while rt.state.status != FINISHED:
        st = rt.state
        if st.to_move != 0:
            seq = st.seq
            await wait_until_async(lambda seq=seq: rt.state.seq != seq, 30, 0.01, "the bot")
            continue
        move = st.view(0)["legal"][0]
        await service.execute(PlayCard(rid, 0, move["card"], move["take"]))
    return rid


def test_the_catch_up_rates_a_match_nobody_rated_once(database_url: str) -> None:
    async def run() -> None:
        async with AsyncExitStack() as stack:
            repo = await stack.enter_async_context(open_store(database_url))
            service = RoomService(repo, MemoryBroker(), ServiceSettings(default_bot_delay=0))
            stack.push_async_callback(service.stop)
            accounts = AccountRows(repo)
            await accounts.create_account(ANN, "Ann", "ann", None, 1)
            rid = await _rated_match_without_a_hook(service, accounts)
            ratings = Ratings(RatingRows(repo), service.latest_match)
            # the state shows the end as its commit is made: wait for the stored end
            found = await wait_until_async(
                lambda: ratings.store.unrated(10), 10, 0.05, "the finished match stored"
            )
            assert found == [(rid, 1)]
            assert await ratings.catch_up() == 1
            assert await ratings.catch_up() == 0
            assert await ratings.store.unrated(10) == []
            [mine] = await ratings.ratings_of(ANN)
            assert mine.matches == 1
            finished = finished_match(service.rooms[rid].state)
            assert finished is not None
            assert not await ratings.on_match_end(finished), "the hook comes too late"
            [mine] = await ratings.ratings_of(ANN)
            assert mine.matches == 1

    run_async(run())
