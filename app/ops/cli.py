"""The operator's commands: ``purge``, ``rooms list|show|close``, ``admin-token``.

They work on DATABASE_URL directly (no server needed), except ``rooms close
--server URL``, which asks the running server to close the room so its
players see it at once (app/ops/closing.py says why).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from app.core.errors import ErrorCode, ServiceError

ROOM_ID = re.compile(r"^[0-9a-f]{32}$")
STATUS_CHOICES = ("waiting", "playing", "finished", "all")


class UsageError(Exception):
    """Bad arguments: printed on one line, exit status 2 (app/cli.py)."""


def parse_cutoff(text: str) -> datetime:
    """An ISO date (midnight UTC) or date and time (UTC unless it has an offset)."""
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"bad --finished-before {text!r}: give an ISO date like 2030-01-31 "
            "or a date and time like 2030-01-31T12:00:00"
        ) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _room_id(text: str) -> str:
    if not ROOM_ID.match(text):
        raise UsageError(f"bad room id {text!r}: a room id is 32 hex digits")
    return text


@asynccontextmanager
async def _repo() -> AsyncIterator[Any]:
    from app.config import get_settings
    from app.db.repository import RoomRepository
    from app.db.session import make_engine, make_sessionmaker, make_writer

    url = get_settings().database_url
    engine = make_engine(url)
    writer = make_writer(url)
    try:
        yield RoomRepository(make_sessionmaker(engine), writer)
    finally:
        if writer is not None:
            writer.close()
        await engine.dispose()


def _run(fn: Callable[[Any], Awaitable[int]]) -> int:
    async def main() -> int:
        async with _repo() as repo:
            return await fn(repo)

    try:
        return asyncio.run(main())
    except ServiceError as exc:
        print(f"krypkasino: {exc.message}", file=sys.stderr)
        return 1


def _when(d: datetime) -> str:
    return d.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


# ------------------------------------------------------------------- purge


def _purge(args: argparse.Namespace) -> int:
    from app.db.purge import purge, purgeable

    cutoff = parse_cutoff(args.finished_before)

    async def go(repo: Any) -> int:
        items = (
            await purgeable(repo, cutoff) if args.dry_run else await purge(repo, cutoff, "purge")
        )
        if args.json:
            print(
                json.dumps(
                    {
                        "dry_run": args.dry_run,
                        "finished_before": cutoff.isoformat(),
                        "rooms": [i.to_dict() for i in items],
                    }
                )
            )
            return 0
        verb = "would remove" if args.dry_run else "removed"
        print(
            f"{verb} {len(items)} finished room(s) last changed before {_when(cutoff)} UTC"
            + (":" if items else "")
        )
        for i in items:
            print(
                f"  {i.room_id}  {i.code:<6}  finished {_when(i.finished_at)}  "
                f"{i.seats} seats, {i.events} events, {i.deals} deals, {i.matches} matches"
            )
        if items:
            print(
                f"total: {sum(i.seats for i in items)} seats, {sum(i.events for i in items)} "
                f"events, {sum(i.deals for i in items)} deals, "
                f"{sum(i.matches for i in items)} matches"
            )
        return 0

    return _run(go)


# ------------------------------------------------------------------- rooms


def _rooms_list(args: argparse.Namespace) -> int:
    from app.db.queries import STATUSES, list_rooms

    wanted = args.status or ["waiting", "playing"]
    statuses = STATUSES if "all" in wanted else tuple(dict.fromkeys(wanted))

    async def go(repo: Any) -> int:
        rows = await list_rooms(repo, statuses, args.limit)
        if args.json:
            print(json.dumps({"rooms": [r.to_dict() for r in rows]}))
            return 0
        print(f"{'ID':<32}  {'CODE':<6}  {'STATUS':<8}  SEATS  LAST CHANGE (UTC)")
        for r in rows:
            seats = f"{r.seated}/{r.players}"
            print(f"{r.room_id}  {r.code:<6}  {r.status:<8}  {seats:<5}  {_when(r.updated_at)}")
        print(f"{len(rows)} room(s) {', '.join(statuses)}")
        return 0

    return _run(go)


def _rooms_show(args: argparse.Namespace) -> int:
    from app.db.queries import room_row

    room_id = _room_id(args.room)

    async def go(repo: Any) -> int:
        row = await room_row(repo, room_id)
        state = await repo.load_state(room_id)  # raises RoomPurged for a purged room
        if row is None or state is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no room {room_id}")
        summary = state.summary()
        deal = None
        if state.deal is not None:
            d = state.deal
            deal = {
                "deal_no": state.deal_no,
                "dealer": d.dealer,
                "to_move": state.to_move,
                "over": d.is_over,
                "hand_counts": [len(h) for h in d.hands],
                "table": len(d.table),
                "stock": len(d.stock),
                "commitment": state.commitment,
            }
        match = (
            None
            if state.match is None
            else {
                "match_no": state.match_no,
                "deals_played": state.match.deals_played,
                "deals_total": state.match.deals_total,
                "cumulative": state.match.cumulative,
                "winners": state.match.winners(),
            }
        )
        out = {"room": row.to_dict(), "summary": summary, "match": match, "deal": deal}
        if args.json:
            print(json.dumps(out))
            return 0
        print(
            f"room {row.room_id}  code {row.code}  status {row.status}  "
            f"{row.players} players  seq {row.seq}"
        )
        print(f"created {_when(row.created_at)} UTC, last change {_when(row.updated_at)} UTC")
        if state.closed:
            print(f"closed at {state.closed.get('at')}: {state.closed.get('reason')}")
        print(f"rules {json.dumps(summary['rules'])}")
        print(f"options {json.dumps(summary['options'])}")
        print("seats:")
        for s in summary["seats"]:
            print(f"  {s['seat']}  {s['name'] or '(free)'}{'  (bot)' if s['bot'] else ''}")
        if match:
            total = match["deals_total"] or "?"
            print(
                f"match {match['match_no']}: {match['deals_played']} of {total} deals played, "
                f"totals {match['cumulative']}"
                + (f", winners {match['winners']}" if match["winners"] else "")
            )
        if deal:
            print(
                f"deal {deal['deal_no']}: dealer {deal['dealer']}, to move {deal['to_move']}, "
                f"hands {deal['hand_counts']}, table {deal['table']} cards, "
                f"stock {deal['stock']}" + (" (over)" if deal["over"] else "")
            )
        return 0

    return _run(go)


def _reason(text: str) -> str:
    """--reason as the admin API takes it (app/text.py): at most 200 characters,
    none that a database could refuse (an argument may carry control characters, or
    lone surrogates standing for bytes that are not UTF-8)."""
    from app.text import refused_character

    reason = text.strip()
    problem = refused_character(reason)
    if problem is not None:
        raise UsageError(f"--reason {problem}")
    if len(reason) > 200:
        raise UsageError("--reason is limited to 200 characters")
    return reason or "closed by the administrator"


def _rooms_close(args: argparse.Namespace) -> int:
    from app.config import get_settings

    from .closing import ServerRefused, close_directly, close_via_server

    room_id = _room_id(args.room)
    reason = _reason(args.reason)
    if args.server:
        token = os.environ.get("ADMIN_TOKEN", "").strip()
        if not token:
            raise UsageError("--server needs the admin token in the ADMIN_TOKEN variable")
        try:
            close_via_server(args.server, token, room_id, reason)
        except ServerRefused as exc:
            print(f"krypkasino: {exc.message}", file=sys.stderr)
            return 1
        print(f"closed room {room_id} through {args.server}")
        return 0
    redis_url = get_settings().redis_url

    async def go(repo: Any) -> int:
        state = await close_directly(repo, room_id, reason, redis_url)
        print(f"closed room {room_id} (seq {state.seq}) in the database")
        if not redis_url:
            print(
                "note: a server running on this database shows it to its players at its "
                "next write to the room; close with --server URL to tell them at once"
            )
        return 0

    return _run(go)


# ------------------------------------------------------------- admin token


def _admin_token(args: argparse.Namespace) -> int:
    from app.limits.admin import token_hash

    token = secrets.token_urlsafe(32)
    print("Admin token (shown once, stored nowhere: keep it in your password manager):")
    print(f"  {token}")
    print("Put this line in the server's environment (e.g. .env) and restart it:")
    print(f"ADMIN_TOKEN_HASH={token_hash(token)}")
    return 0


# ------------------------------------------------------------------ parser


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from . import backups

    backups.add_parsers(sub)
    pg = sub.add_parser("purge", help="remove finished rooms last changed before a date")
    pg.add_argument(
        "--finished-before",
        required=True,
        metavar="DATE",
        help="ISO date (midnight UTC) or date and time, e.g. 2030-01-31",
    )
    pg.add_argument("--dry-run", action="store_true", help="only list what would go")
    pg.add_argument("--json", action="store_true", help="print JSON")
    pg.set_defaults(func=_purge)

    rooms = sub.add_parser("rooms", help="list, show or close rooms")
    rsub = rooms.add_subparsers(dest="rooms_command", required=True)
    ls = rsub.add_parser("list", help="rooms in the database (default: waiting and playing)")
    ls.add_argument(
        "--status",
        action="append",
        choices=STATUS_CHOICES,
        help="only these (repeatable; 'all' for every status)",
    )
    ls.add_argument("--limit", type=int, default=200)
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=_rooms_list)
    show = rsub.add_parser("show", help="one room: summary, seats, match, deal")
    show.add_argument("room", help="the room's id")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=_rooms_show)
    close = rsub.add_parser("close", help="end a room for everyone")
    close.add_argument("room", help="the room's id")
    close.add_argument("--reason", default="", help="shown to the players")
    close.add_argument(
        "--server",
        metavar="URL",
        help="close through this running server's admin API (token in "
        "ADMIN_TOKEN) so its players see it at once",
    )
    close.set_defaults(func=_rooms_close)

    tok = sub.add_parser("admin-token", help="make an admin token and its ADMIN_TOKEN_HASH line")
    tok.set_defaults(func=_admin_token)
