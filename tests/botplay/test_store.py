"""The bot stream's rows and the challenges between bots on real SQLite and
PostgreSQL (issue 51, app/db/bot_play.py): a bot holds at most two streams, a stream
not renewed goes stale (and frees its place, and its bot is offline); challenges are
capped per maker and per pair, answered only by their own bots and only while open
and unexpired; the poll tells live games and open challenges, and a revoked token;
and migration 0024 up and down again."""

from __future__ import annotations

from typing import Any

from alembic import command

from app.accounts.token_store import TokenRow
from app.botplay.store import ChallengeRow
from app.core.tokens import hash_token
from app.db.access_tokens import AccessTokenRows
from app.db.accounts import AccountRows
from app.db.bot_play import BotPlayRows
from app.db.revisions import alembic_config, apply
from tests.conftest import open_store, run_async
from tests.server.process import sql

T0 = 1_000_000


async def bot(accounts: AccountRows, tokens: AccessTokenRows, name: str) -> tuple[str, str]:
    """A bot account and a live token of it: (account id, token id)."""
    account_id = f"{name:0<32}"[:32]
    await accounts.create_account(account_id, name, name.lower(), None, 1_000)
    await tokens.make_bot(account_id, 2_000)
    token_id = f"t{name:0<11}"[:12]
    row = TokenRow(token_id, account_id, "bot", ("bot:play",), 3_000, None, None)
    assert await tokens.add_token(row, hash_token(token_id), 20)
    return account_id, token_id


def challenge(n: int, maker: str, opponent: str, made_ms: int = T0) -> ChallengeRow:
    return ChallengeRow(
        f"c{n:023d}", maker, "", opponent, "", 2, {"match_deals": 1}, 0, made_ms,
        made_ms + 60_000, "open",
    )  # fmt: skip


def test_a_bot_holds_two_streams_and_a_stale_one_frees_its_place(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts = BotPlayRows(repo), AccountRows(repo)
            ann, token = await bot(accounts, AccessTokenRows(repo), "ann")
            stale = T0 - 30_000
            assert not await rows.online(ann, stale)
            assert await rows.open_stream("s1", ann, token, T0, 2, stale)
            assert await rows.open_stream("s2", ann, token, T0 + 1, 2, stale)
            assert not await rows.open_stream("s3", ann, token, T0 + 2, 2, stale)
            assert await rows.online(ann, stale)
            await rows.close_stream("s1")
            assert await rows.open_stream("s3", ann, token, T0 + 3, 2, stale)
            later = T0 + 40_000  # s2 and s3 not renewed for 40 s: gone stale
            await rows.renew_stream("s3", later)
            assert await rows.open_stream("s4", ann, token, later, 2, later - 30_000)
            assert not await rows.open_stream("s5", ann, token, later, 2, later - 30_000)
            assert not await rows.online(ann, later + 31_000), "nothing renewed: offline"

    run_async(check())


def test_challenges_are_capped_and_answered_only_while_open(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts, tokens = BotPlayRows(repo), AccountRows(repo), AccessTokenRows(repo)
            ann, _ = await bot(accounts, tokens, "ann")
            foes = [(await bot(accounts, tokens, f"foe{i}"))[0] for i in range(6)]
            assert await rows.add_challenge(challenge(0, ann, foes[0]), 5, 1)
            assert not await rows.add_challenge(challenge(1, ann, foes[0]), 5, 1), "per pair"
            for i in range(1, 5):
                assert await rows.add_challenge(challenge(i + 1, ann, foes[i]), 5, 1)
            assert not await rows.add_challenge(challenge(9, ann, foes[5]), 5, 1), "in all"
            # an expired challenge counts no more
            assert await rows.add_challenge(challenge(10, ann, foes[5], T0 + 60_000), 5, 1)
            first = challenge(0, ann, foes[0]).id
            move = rows.move_challenge
            assert await move(first, foes[1], "to", "open", "accepted", T0 + 1) is None
            assert await move(first, ann, "to", "open", "accepted", T0 + 1) is None
            assert await move(first, foes[0], "to", "open", "accepted", T0 + 60_000) is None, (
                "expired"
            )
            moved = await move(first, foes[0], "to", "open", "accepted", T0 + 1)
            assert moved is not None and moved.state == "accepted"
            assert (moved.from_name, moved.to_name) == ("ann", "foe0")
            assert await move(first, foes[0], "to", "open", "declined", T0 + 2) is None
            second = challenge(2, ann, foes[1]).id
            assert await move(second, foes[1], "from", "open", "withdrawn", T0) is None
            assert await move(second, ann, "from", "open", "withdrawn", T0) is not None

    run_async(check())


def test_the_poll_tells_open_challenges_and_a_revoked_token(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts, tokens = BotPlayRows(repo), AccountRows(repo), AccessTokenRows(repo)
            ann, ann_token = await bot(accounts, tokens, "ann")
            bo, _ = await bot(accounts, tokens, "bo")
            assert await rows.add_challenge(challenge(0, bo, ann), 5, 1)
            poll = await rows.poll(ann, ann_token, T0 + 1)
            assert poll.token_live and poll.games == []
            assert [(c.id, c.from_name) for c in poll.challenges] == [
                (challenge(0, bo, ann).id, "bo")
            ]
            assert (await rows.poll(ann, ann_token, T0 + 60_000)).challenges == [], "expired"
            assert await tokens.revoke(ann, ann_token, T0)
            assert not (await rows.poll(ann, ann_token, T0 + 2)).token_live
            assert (await rows.account_named("ann")) is not None
            assert (await rows.account_named("nobody")) is None

    run_async(check())


def test_migration_0024_goes_up_and_down(database_url: str) -> None:
    def tables() -> set[Any]:
        found = sql(
            database_url,
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            if database_url.startswith("sqlite")
            else "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
        )
        return {row[0] for row in found}

    apply(database_url, "0024")
    assert {"bot_streams", "bot_challenges"} <= tables()
    command.downgrade(alembic_config(database_url), "0023")
    assert not {"bot_streams", "bot_challenges"} & tables()
    assert "access_tokens" in tables()
    apply(database_url, "0024")
    assert {"bot_streams", "bot_challenges"} <= tables()


def test_a_makers_challenges_expired_a_day_ago_go_when_it_makes_another(
    database_url: str,
) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts, tokens = BotPlayRows(repo), AccountRows(repo), AccessTokenRows(repo)
            ann, _ = await bot(accounts, tokens, "ann")
            bo, _ = await bot(accounts, tokens, "bo")
            day = 86_400_000
            assert await rows.add_challenge(challenge(0, ann, bo), 5, 1)
            assert await rows.add_challenge(challenge(1, bo, ann), 5, 1)
            assert await rows.add_challenge(challenge(2, ann, bo, T0 + day), 5, 1)
            left = {r[0] for r in sql(database_url, "SELECT id FROM bot_challenges")}
            assert left == {challenge(n, ann, bo).id for n in (0, 1, 2)}, "expired < a day"
            assert await rows.add_challenge(challenge(3, ann, bo, T0 + day + 61_000), 5, 1)
            left = {r[0] for r in sql(database_url, "SELECT id FROM bot_challenges")}
            # ann's first went (expired over a day before); bo's stays until bo makes one
            assert left == {challenge(n, ann, bo).id for n in (1, 2, 3)}

    run_async(check())
