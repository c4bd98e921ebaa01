"""Listen mode: a bot that waits on its event stream and plays every game it is given.

``listen(server, token, choose)`` opens the bot's stream (``stream.py``); each
``game`` (a room's player seated the bot by name, or a challenge was accepted) is
played in a task of its own, the bot taking its seat with its token and hello
``own``; with ``accept_challenges`` every challenge is accepted as it comes.  Each
finished game's summary goes to ``on_summary``.  It goes on until stopped (or, with
``games``, once that many games are over).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from .bot import Bot, Summary
from .http import Api, ApiError
from .jsontypes import JsonMap, as_str
from .stream import EventStream
from .turns import Chooser

__all__ = ["listen"]

log = logging.getLogger("krypkasino_client")


async def listen(
    server: str,
    access_token: str,
    choose: Chooser,
    *,
    accept_challenges: bool = False,
    games: int | None = None,
    on_summary: Callable[[Summary], None] | None = None,
) -> int:
    """Play every game the stream gives; returns how many were played to the end."""
    api = Api(server, access_token)
    stream = EventStream(server, access_token)
    playing: dict[str, asyncio.Task[Summary]] = {}
    done = asyncio.Event()
    finished = 0

    def over(task: asyncio.Task[Summary]) -> None:
        nonlocal finished
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.warning("a game ended without its match: %s", error)
            return
        finished += 1
        if on_summary is not None:
            on_summary(task.result())
        if games is not None and finished >= games:
            done.set()

    async def events() -> None:
        async for event in stream.aevents():
            await _handle(event, api, access_token, choose, accept_challenges, playing, over)

    reader = asyncio.create_task(events())
    stopped = asyncio.create_task(done.wait())
    try:
        await asyncio.wait([reader, stopped], return_when=asyncio.FIRST_COMPLETED)
        if reader.done():
            reader.result()  # a refusal of the stream: raised here
    finally:
        stream.stop()
        for task in (reader, stopped, *playing.values()):
            task.cancel()
    return finished


async def _handle(
    event: JsonMap,
    api: Api,
    access_token: str,
    choose: Chooser,
    accept_challenges: bool,
    playing: dict[str, asyncio.Task[Summary]],
    over: Callable[[asyncio.Task[Summary]], None],
) -> None:
    kind = as_str(event, "type")
    if kind == "game":
        room_id = as_str(event, "room_id")
        if room_id in playing:  # a new stream tells every live game again
            return
        log.info("a game: room %s, seat %s", room_id, event.get("seat"))
        bot = Bot(api.server, room_id, None, choose, access_token=access_token)
        task = asyncio.create_task(bot.run())
        task.add_done_callback(over)
        playing[room_id] = task
    elif kind == "challenge" and accept_challenges:
        challenge_id = as_str(event, "id")
        try:
            room_id = await asyncio.to_thread(api.accept_challenge, challenge_id)
        except (ApiError, ValueError) as exc:  # withdrawn or expired meanwhile
            log.info("challenge %s not accepted: %s", challenge_id, exc)
        else:
            log.info("accepted challenge %s from %s: room %s", challenge_id,
                     event.get("from"), room_id)  # fmt: skip
