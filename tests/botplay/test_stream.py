"""One open bot stream's loop (app/botplay/stream.py) on a real database: it tells an
open challenge once and ``challenge_gone`` once it is answered; a reader whose buffer
is full ends it (``overflow``, the API then drops the client); a revoked token ends
it at the next look; the server's stop ends it at once.  Each waits on the stream's
own answer, never on the clock."""

from __future__ import annotations

import asyncio
import json

from app.botplay.stream import OpenStream, Wakeups
from app.db.access_tokens import AccessTokenRows
from app.db.accounts import AccountRows
from app.db.bot_play import BotPlayRows
from tests.botplay.test_store import T0, bot, challenge
from tests.conftest import open_store, run_async


async def _nothing(_: str) -> None:
    return None


def opened(rows: BotPlayRows, wakeups: Wakeups, account: str, token: str) -> OpenStream:
    return OpenStream("s1", account, token, rows, wakeups, _nothing, lambda: False)


def test_a_challenge_is_told_once_and_gone_once_answered(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts, tokens = BotPlayRows(repo), AccountRows(repo), AccessTokenRows(repo)
            ann, token = await bot(accounts, tokens, "ann")
            bo, _ = await bot(accounts, tokens, "bo")
            made = challenge(0, bo, ann, made_ms=10**13)  # open long after the test
            assert await rows.add_challenge(made, 5, 1)
            lines: asyncio.Queue[dict[str, object]] = asyncio.Queue()
            wakeups = Wakeups()
            stream = opened(rows, wakeups, ann, token)
            task = asyncio.create_task(
                stream.run(lambda line: lines.put_nowait(json.loads(line)) is None)
            )
            told = await asyncio.wait_for(lines.get(), 10)
            assert (told["type"], told["id"], told["from"]) == ("challenge", made.id, "bo")
            await rows.move_challenge(made.id, ann, "to", "open", "declined", T0)
            wakeups.wake(ann)
            gone = await asyncio.wait_for(lines.get(), 10)
            assert gone == {"type": "challenge_gone", "id": made.id}
            wakeups.stop()
            assert await asyncio.wait_for(task, 10) == "shutdown"
            assert lines.empty(), "each told once"

    run_async(check())


def test_a_full_buffer_or_a_revoked_token_ends_the_stream(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows, accounts, tokens = BotPlayRows(repo), AccountRows(repo), AccessTokenRows(repo)
            ann, token = await bot(accounts, tokens, "ann")
            bo, _ = await bot(accounts, tokens, "bo")
            assert await rows.add_challenge(challenge(0, bo, ann, made_ms=10**13), 5, 1)
            full = opened(rows, Wakeups(), ann, token)
            assert await asyncio.wait_for(full.run(lambda line: False), 10) == "overflow"
            assert await tokens.revoke(ann, token, T0)
            revoked = opened(rows, Wakeups(), ann, token)
            assert await asyncio.wait_for(revoked.run(lambda line: True), 10) == "revoked"

    run_async(check())
