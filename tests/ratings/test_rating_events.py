"""``rating_changed`` (app/ratings/events.py, issue 48) on SQLite and PostgreSQL: a
rated match of two accounts stores one event per account, in the rating's own
transaction, with what the rating was and became; the ``match_ended`` event handed
to the ratings' subscriber twice (a process that died after rating the match and
before noting it handled) stores none twice."""

from __future__ import annotations

from contextlib import AsyncExitStack

from sqlalchemy import select

from app.broker import MemoryBroker
from app.core.outbox import MATCH_ENDED, RATING_CHANGED, StoredEvent
from app.core.tokens import hash_token
from app.db.accounts import AccountRows
from app.db.outbox import EVENTS
from app.db.ratings import RatingRows
from app.db.repository import RoomRepository
from app.engine.rules import RuleSet
from app.ratings.ratings import Ratings
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.match_end import match_from_json
from app.rooms.domain.state import FINISHED, RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async

ANN, BO = "a" * 32, "b" * 32


async def rated_match_of_two_accounts(service: RoomService, accounts: AccountRows) -> str:
    """Ann and Bo, each an account, play a rated one-deal match to its end."""
    rules = RuleSet(single_pack=True, match_deals=1)
    room = await service.execute(NewRoom(2, "Ann", rules, 0, RoomOptions(grace=600, rated=True)))
    rid = room.room_id
    bo = await service.execute(JoinRoom(rid, "Bo"))
    assert await accounts.link_seat(rid, 0, hash_token(room.token), ANN)
    assert await accounts.link_seat(rid, 1, hash_token(bo.token), BO)
    rt = service.rooms[rid]
    while rt.state.status != FINISHED:
        st = rt.state
        seat = st.to_move
        assert seat is not None
        move = st.view(seat)["legal"][0]
        await service.execute(PlayCard(rid, seat, move["card"], tuple(move["take"])))
    return rid


async def stored_events(repo: RoomRepository, rid: str, kind: str) -> list[StoredEvent]:
    c = EVENTS.c
    query = select(c.id, c.body, c.created_ms).where(c.room_id == rid, c.kind == kind)
    async with repo.sessions() as s:
        rows = (await s.execute(query.order_by(c.id))).all()
    return [StoredEvent(int(i), rid, kind, dict(body), int(at)) for i, body, at in rows]


def test_one_rating_changed_per_account_even_when_the_match_is_handed_over_twice(
    database_url: str,
) -> None:
    async def run() -> None:
        async with AsyncExitStack() as stack:
            repo = await stack.enter_async_context(open_store(database_url))
            service = RoomService(repo, MemoryBroker(), ServiceSettings(default_bot_delay=0))
            stack.push_async_callback(service.stop)
            accounts = AccountRows(repo)
            for account, name in ((ANN, "Ann"), (BO, "Bo")):
                await accounts.create_account(account, name, name.lower(), None, 1)
            rid = await rated_match_of_two_accounts(service, accounts)
            ratings = Ratings(RatingRows(repo), service.latest_match)
            (ended,) = await stored_events(repo, rid, MATCH_ENDED)
            assert await stored_events(repo, rid, RATING_CHANGED) == [], "not before rating"

            async def rate(event: StoredEvent) -> None:  # the "ratings" subscriber's work
                await ratings.on_match_end(match_from_json(event.body))

            await rate(ended)
            await rate(ended)  # handed over again: its process died before "handled"
            changed = await stored_events(repo, rid, RATING_CHANGED)
            assert [e.body["account_id"] for e in changed] == [ANN, BO], "one each, once"
            result = await ratings.match_result(rid, 1)
            assert result is not None and not result.void
            for event, seat in zip(changed, result.seats, strict=True):
                body = event.body
                assert body["players"] == 2 and body["match_no"] == 1
                assert body["seat"] == seat.seat
                assert body["before"] == {
                    "mu": seat.before.mu,
                    "sigma": seat.before.sigma,
                    "rating": seat.before.ordinal,
                    "provisional": seat.before.provisional,
                }
                after = body["after"]
                assert isinstance(after, dict) and after["mu"] == seat.after.mu
            [ann] = await ratings.ratings_of(ANN)
            assert ann.matches == 1

    run_async(run())
