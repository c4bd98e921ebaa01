"""Dependency aliases: handlers stay a few lines long."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.rooms.players import Players
from app.rooms.service import RoomService


def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.service
    return service


ServiceDep = Annotated[RoomService, Depends(get_service)]


def get_players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


PlayersDep = Annotated[Players, Depends(get_players)]
