"""Every route that can make a room carries the rule of room-making routes (issue 46):
``MakesRoom`` or ``FormsRooms`` (app/api/rooms.py), each of which applies the access
mode's rule for making rooms first.  Read from the application's own route table, so
that a room-making route added later without the rule fails here.

A route "can make a room" when it answers a new room's seat (``RoomCreated``) or a
pairing ticket (``TicketAnswer``), or when its handler calls one of the services that
make rooms: the room service's ``execute`` of a ``NewRoom``, the deal of the day's
``play``, "Play this deal yourself"'s ``play_again``, or pairing's ``find`` and ``status``
(a poll forms tables).  The guest's 401 on each of them over a real server is in
tests/server/test_room_caps_hostile.py."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import get_dependant
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts

from app.api.pairing import TicketAnswer
from app.api.rooms import ROOM_RULES
from app.api.schemas import RoomCreated
from app.config import Settings
from app.engine.rules import RuleSet
from app.main import create_app
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.options import RoomOptions

ROOM_MAKERS = {
    "NewRoom": None,
    "play_again": None,
    "play": "daily",
    "find": "pairing",
    "status": "pairing",
}
"""Methods (or, for ``NewRoom``, the command) that make rooms, and the name their
receiver has in a handler (None: any)."""
EXPECTED = {
    "POST /api/rooms",
    "POST /api/daily/{players}",
    "POST /api/rooms/{room_id}/matches/{match_no}/deals/{deal_no}/solo",
    "POST /api/pairing",
    "GET /api/pairing/{ticket}",
    "POST /api/bot/challenges/{challenge_id}/accept",
}
"""The room-making routes today ("Play now" is POST /api/rooms)."""


def calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    """Every dependency a route (or a dependency) runs, however deep."""
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from calls(sub)


def calls_a_room_maker(endpoint: Callable[..., Any]) -> bool:
    """Whether the handler calls one of ROOM_MAKERS (read from its compiled code, which
    names every attribute it reads and every local it has)."""
    code = inspect.unwrap(endpoint).__code__
    return any(
        method in code.co_names and (receiver is None or receiver in code.co_varnames)
        for method, receiver in ROOM_MAKERS.items()
    )


def can_make_a_room(route: RouteContext) -> bool:
    return route.response_model in (RoomCreated, TicketAnswer) or calls_a_room_maker(route.endpoint)


def room_routes(app: FastAPI) -> tuple[set[str], set[str]]:
    """(routes that can make a room, routes that carry a room-making rule), over every
    HTTP route of the app, those of its included routers too (with their prefixes)."""
    makers: set[str] = set()
    marked: set[str] = set()
    for route in iter_route_contexts(app.routes):
        if not isinstance(route.original_route, APIRoute):
            continue
        names = {f"{method} {route.path}" for method in route.methods or ()}
        if can_make_a_room(route):
            makers |= names
        if set(calls(route.dependant)) & set(ROOM_RULES):
            marked |= names
    return makers, marked


def app_routes() -> FastAPI:
    return create_app(Settings(access="accounts"))


def test_every_route_that_can_make_a_room_carries_the_rule() -> None:
    makers, marked = room_routes(app_routes())
    assert makers, "the detection finds the room-making routes"
    assert makers - marked == set(), "room-making routes without MakesRoom or FormsRooms"
    assert marked == EXPECTED, "a new room-making route: add it here and to its tests"


def test_each_rule_applies_the_access_modes_rule_for_making_rooms_first() -> None:
    for rule in ROOM_RULES:
        first = [c.__name__ for c in calls(get_dependant(path="/", call=rule))]
        assert "access_create" in first, rule
        assert first.index("access_create") < min(
            (i for i, name in enumerate(first) if name.startswith("limit_")), default=len(first)
        ), "the access rule comes before the rate limit"


def test_a_room_making_route_without_the_rule_is_found() -> None:
    app = FastAPI()

    @app.post("/api/elsewhere", response_model=RoomCreated)
    async def elsewhere() -> dict[str, Any]:
        return {}

    @app.post("/api/quietly")
    async def quietly(service: Any = None) -> None:
        await service.execute(NewRoom(2, "Zed", RuleSet(), 0, RoomOptions()))

    makers, marked = room_routes(app)
    assert makers - marked == {"POST /api/elsewhere", "POST /api/quietly"}
