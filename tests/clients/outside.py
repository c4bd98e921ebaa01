"""An outside bot as a real process, and a person at the same table.

``BotProcess`` starts one of clients/python/examples as a subprocess (``python
examples/random_bot.py --server ... --room ...``, the client's source on
PYTHONPATH, as its README says), its output in files; ``play_as_creator`` plays
the room creator's seat with random legal moves through the harness's client,
pressing Continue between deals, until the match is finished."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tests import fetch
from tests.clients.paths import CLIENT_SRC, EXAMPLES, ROOT
from tests.server.harness import Client


class BotProcess:
    def __init__(self, example: str, server_url: str, room: str | None, folder: Path, *extra: str):
        """``room`` None: no ``--room`` (a bot in ``--listen`` mode, given in ``extra``).
        Two processes of one example in one folder: give the second a ``--name``."""
        tag = example if "--name" not in extra else f"{example}-{extra[extra.index('--name') + 1]}"
        self.out = folder / f"{tag}.out"
        self.err = folder / f"{tag}.err"
        env = dict(os.environ)
        # The client's source, and the repository for the server's package (the strong
        # example imports app.bots).
        env["PYTHONPATH"] = os.pathsep.join([str(CLIENT_SRC), str(ROOT)])
        argv = [sys.executable, str(EXAMPLES / example), "--server", server_url]
        argv += [] if room is None else ["--room", room]
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.proc = subprocess.Popen([*argv, *extra], stdout=out, stderr=err, env=env)

    def log(self) -> str:
        return self.err.read_text(errors="replace")[-3000:]

    async def finished(self, timeout: float = 60) -> dict[str, Any]:
        """Wait for the process to exit; it must exit 0 having printed its summary."""
        try:
            code = await asyncio.to_thread(self.proc.wait, timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the bot did not exit in {timeout} s:\n{self.log()}") from None
        assert code == 0, f"the bot exited {code}:\n{self.log()}"
        lines = self.out.read_text().strip().splitlines()
        assert lines, f"the bot printed nothing:\n{self.log()}"
        summary: dict[str, Any] = json.loads(lines[-1])
        return summary

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def play_as_creator(
    me: Client,
    bot: BotProcess,
    rng: random.Random,
    *,
    each_turn: Callable[[dict[str, Any]], Awaitable[bool]] | None = None,
    timeout: float = 60,
) -> dict[str, Any]:
    """Play ``me``'s seat until the match is over; returns the last view.  Waits on the
    room's messages, never on the clock: a turn of ``me``, a pause between deals that
    waits for ``me``, or the end.  ``each_turn(view)`` (a coroutine function, or
    None) runs before each of ``me``'s plays; when it answers true it played the turn
    itself."""

    def my_move() -> bool:
        view = me.view
        if view is None:
            return False
        return (
            view["status"] == "finished"
            or waits_for_me(view)
            or (view["to_move"] == view["you"] and bool(view["legal"]))
        )

    for _ in range(1000):
        try:
            await me.wait_until(my_move, timeout)
        except TimeoutError:
            raise AssertionError(
                f"the room stalled at seq {me.seq} (bot exit code {bot.proc.poll()}):\n{bot.log()}"
            ) from None
        view = me.view
        assert view is not None
        if view["status"] == "finished":
            return view
        if waits_for_me(view):
            await me.ws.send(json.dumps({"type": "continue"}))
            await me.wait_until(lambda: not waits_for_me(me.view), timeout)
            continue
        if each_turn is not None and await each_turn(view):
            continue  # it played this turn itself
        move = rng.choice(view["legal"])
        ack = await me.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
    raise AssertionError("the match did not end")


def waits_for_me(view: dict[str, Any]) -> bool:
    """The room waits between deals for this connection's Continue."""
    between = view["between"]
    return between is not None and view["you"] not in between["ready"]


def seat_plays(base: str, room_id: str, seat: int, deals: int) -> list[dict[str, Any]]:
    """Every move of ``seat`` in the first match's ``deals`` deals, from the stored records
    (the replay's positions name each move's seat; the record's moves say ``by`` when
    the server played for the seat)."""
    plays = []
    for n in range(1, deals + 1):
        r = fetch.get(f"{base}/api/rooms/{room_id}/matches/1/deals/{n}?positions=true", timeout=10)
        assert r.status_code == 200, r.text
        record = r.json()
        for position, move in zip(record["positions"][1:], record["moves"], strict=True):
            if position["move"]["seat"] == seat:
                assert position["move"]["card"] == move["card"]
                plays.append(move)
    return plays
