"""Rooms: the only place that changes a room (seats, turns, bots, fan-out)."""
