"""One call from a bot function to a played match: find the room, take a seat, play.

``play(server, room, name, choose)`` is what the examples run; ``arguments()`` is
their command line (``--server``, ``--room``, ``--name``, ``--token``, or
``--listen`` to wait on the bot's event stream instead: ``listen.py``) and
``run_command_line`` the rest (logging, each summary printed as one line of JSON, a
refusal said in one line with exit status 1), so each example is its bot and a few
lines around it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys

from .bot import Bot, BotError, Summary
from .http import Api, ApiError
from .listen import listen
from .turns import Chooser

__all__ = ["arguments", "play", "run_command_line"]


def play(
    server: str,
    room: str,
    name: str,
    choose: Chooser,
    *,
    access_token: str | None = None,
    max_refusals: int = 3,
) -> Summary:
    """Take the next free seat of ``room`` (its id, invite link or code) on ``server``
    under ``name``, and play it with ``choose`` until the match is finished."""
    api = Api(server, access_token)
    room_id = api.resolve_room(room)
    seat = api.join(room_id, name)
    logging.getLogger("krypkasino_client").info("took seat %s of room %s", seat.seat, room_id)
    bot = Bot(
        server, room_id, seat.token, choose, access_token=access_token, max_refusals=max_refusals
    )
    return asyncio.run(bot.run())


def arguments(description: str, default_name: str) -> argparse.ArgumentParser:
    """The examples' command line.  ``--token`` defaults to the environment's
    ``KRYPKASINO_TOKEN``, so a personal access token need not appear in ``ps``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--room", help="room id, invite link or room code")
    where.add_argument(
        "--listen",
        action="store_true",
        help="wait on the bot's event stream and play every game it is given (needs --token)",
    )
    parser.add_argument(
        "--accept-challenges", action="store_true", help="with --listen: accept every challenge"
    )
    parser.add_argument(
        "--games", type=int, default=None, help="with --listen: stop after this many games"
    )
    parser.add_argument("--name", default=default_name, help="the seat's name")
    parser.add_argument(
        "--token",
        default=os.environ.get("KRYPKASINO_TOKEN"),
        help="personal access token (kkp_...), sent as Authorization: Bearer",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="log every step")
    return parser


def run_command_line(args: argparse.Namespace, choose: Chooser) -> None:
    """Play with ``choose`` as ``arguments()`` parsed, print the summary as one line of
    JSON on stdout, and exit 1 with the reason on stderr when the server refuses."""
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    try:
        if args.listen:
            if not args.token:
                raise ValueError("--listen needs a bot account's token (--token)")
            asyncio.run(
                listen(
                    args.server,
                    args.token,
                    choose,
                    accept_challenges=args.accept_challenges,
                    games=args.games,
                    on_summary=_print,
                )
            )
        else:
            _print(play(args.server, args.room, args.name, choose, access_token=args.token))
    except (ApiError, BotError, ValueError) as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        pass


def _print(summary: Summary) -> None:
    print(json.dumps(summary.to_json()), flush=True)
