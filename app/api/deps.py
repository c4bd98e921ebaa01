"""Dependency aliases: handlers stay a few lines long."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.rooms.players import Players
from app.rooms.service import RoomService


def get_service(request: Request) -> RoomService:
    return request.app.state.service


ServiceDep = Annotated[RoomService, Depends(get_service)]


def get_players(request: Request) -> Players:
    return request.app.state.players


PlayersDep = Annotated[Players, Depends(get_players)]
