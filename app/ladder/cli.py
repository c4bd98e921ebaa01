"""``krypkasino ladder run --packs N`` (play packs now, on DATABASE_URL, in a worker
thread) and ``krypkasino ladder standings`` (print them).  The options override the
LADDER_* settings for this run only; app/cli.py hands in the store.

An outside bot plays in a server's rooms, which this command has none of: with
``--server URL`` (and the admin token in ADMIN_TOKEN, as ``krypkasino rooms close
--server``) it asks that server to play the packs (``POST /api/admin/ladder/run``)
and returns at once; without, an outside entrant is refused."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

import httpx

from .config import LadderSettings, build_ladder
from .entrants import level_entrants
from .published import LadderJson
from .service import Ladder
from .store import LadderStore

Opener = Callable[[], tuple[LadderSettings, AbstractAsyncContextManager[LadderStore]]]
"""The settings, and the store on DATABASE_URL (migrated first)."""
MAX_PACKS = 100_000


@dataclass(frozen=True, slots=True)
class Overridden:
    """LADDER_* settings with the command's options over them."""

    ladder_players: int
    ladder_rules: str | None
    ladder_entrants: str
    ladder_strong_worlds: int
    ladder_packs_per_hour: float = 0.0


def format_standings(found: LadderJson) -> str:
    lines = [
        f"ladder: {found['players']} players, {found['packs']} packs",
        f"{'entrant':<24} {'packs':>5} {'deals':>6} {'mean':>8} {'relative':>9}  "
        f"{'95% interval':<16} {'rating':>7}",
    ]
    for s in found["standings"]:
        ci = f"[{s['low']:.2f}, {s['high']:.2f}]" if s["low"] is not None else "(n/a)"
        rating = f"{s['rating']:.2f}" if s["rating"] is not None else "(n/a)"
        lines.append(
            f"{s['entrant']:<24} {s['packs']:>5} {s['deals']:>6} {s['mean']:>8.2f} "
            f"{s['relative_mean']:>9.2f}  {ci:<16} {rating:>7}"
        )
    lines.append("lower is better; relative: minus the table's mean on the same deals;")
    lines.append("rating: against the levels' average, fixed by the levels' own packs")
    return "\n".join(lines)


def _settings(args: argparse.Namespace, base: LadderSettings) -> Overridden:
    return Overridden(
        ladder_players=args.players or base.ladder_players,
        ladder_rules=args.rules if args.rules is not None else base.ladder_rules,
        ladder_entrants=args.entrants if args.entrants is not None else base.ladder_entrants,
        ladder_strong_worlds=args.worlds or base.ladder_strong_worlds,
    )


def _main(args: argparse.Namespace, opener: Opener) -> int:
    if args.server:
        return _ask_server(args)
    if args.entrants and "outside" in _kinds(args.entrants):
        print(
            "krypkasino: outside bots play in a server's rooms: give --server URL "
            "(and the admin token in ADMIN_TOKEN)",
            file=sys.stderr,
        )
        return 2
    base, opened = opener()  # before the loop: migrating runs one of its own
    return asyncio.run(_command(args, base, opened))


def _kinds(text: str) -> set[str]:
    try:
        return {e.kind for e in level_entrants(text)}
    except ValueError:
        return set()  # said as the command's error once the settings are read


def _ask_server(args: argparse.Namespace) -> int:
    """``run --server URL``: the server plays the packs (its rooms seat outside bots)."""
    token = os.environ.get("ADMIN_TOKEN", "").strip()
    if args.action != "run" or not token or args.players or args.rules or args.worlds:
        print(
            "krypkasino: --server is for run, with ADMIN_TOKEN set; the server's "
            "table size, rules and worlds apply",
            file=sys.stderr,
        )
        return 2
    body: dict[str, object] = {"packs": args.packs}
    if args.entrants is not None:
        body["entrants"] = args.entrants
    url = args.server.rstrip("/") + "/api/admin/ladder/run"
    try:
        answer = httpx.post(url, json=body, headers={"Authorization": f"Bearer {token}"})
    except httpx.HTTPError as exc:
        print(f"krypkasino: {url}: {exc}", file=sys.stderr)
        return 1
    print(answer.text, flush=True)
    return 0 if answer.status_code == 202 and answer.json().get("started") else 1


async def _command(
    args: argparse.Namespace,
    base: LadderSettings,
    opened: AbstractAsyncContextManager[LadderStore],
) -> int:
    try:
        settings = _settings(args, base)
        async with opened as store:
            owner = "cli-" + secrets.token_hex(8)
            ladder: Ladder = build_ladder(store, asyncio.to_thread, owner, settings)
            if args.action == "run":
                assert ladder.runner is not None
                done = await ladder.runner.run_packs(
                    args.packs, lambda pack_id: print(f"pack {pack_id} stored", flush=True)
                )
                print(f"{done} of {args.packs} packs stored", flush=True)
            found = await ladder.standings()
    except ValueError as exc:
        print(f"krypkasino: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(found, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_standings(found))
    return 0


def _count(most: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        n = int(text)
        if not 1 <= n <= most:
            raise argparse.ArgumentTypeError(f"give a number from 1 to {most}")
        return n

    return parse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], opener: Opener) -> None:
    p = sub.add_parser("ladder", help="the bot ladder: play packs, show the standings")
    p.add_argument("action", choices=("run", "standings"))
    p.add_argument("--packs", type=_count(MAX_PACKS), default=1, help="packs to play (run)")
    p.add_argument("--players", type=int, choices=range(2, 7), help="table size (LADDER_PLAYERS)")
    p.add_argument("--entrants", help="comma-separated bot levels (LADDER_ENTRANTS)")
    p.add_argument("--rules", help="rule options as JSON (LADDER_RULES)")
    p.add_argument("--worlds", type=_count(10000), help="the strong level's worlds per move")
    p.add_argument("--json", action="store_true", help="print the standings as JSON")
    p.add_argument(
        "--server",
        help="run: ask this server to play the packs (outside bots; ADMIN_TOKEN set)",
    )
    p.set_defaults(func=lambda args: _main(args, opener))
