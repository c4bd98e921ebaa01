"""A room's settings that are not rules of the game, and what each seat is."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, get_args

from app.engine.moves import Move
from app.wire.view import Pace, RoomOptionsView, TakebackMode

TAKEBACK_MODES: tuple[str, ...] = get_args(TakebackMode)
PACES: tuple[str, ...] = get_args(Pace)
DAY_SECONDS = 86400.0
STAND_IN_LEVEL = "greedy"
"""The level of the bot that plays for a person's seat (away, or out of time)."""


@dataclass(slots=True)
class SeatState:
    name: str | None = None
    bot: bool = False
    """A bot seat from the room's creation."""
    outside_bot: bool = False
    """Taken by a bot account (issue 51): a program, not a person, plays it."""
    autoplay: bool = False
    """A bot plays for this (human) seat while its player is away or out of time."""

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass(frozen=True, slots=True)
class DealPreset:
    """The room's first deal fixed in advance instead of drawn (issue 32): the deal of
    the day, or a finished deal played again ("Play this deal yourself").

    Kept with the room's stored options, never in a view: ``seed`` decides the pack
    (R2) and ``bot_seed`` the bots' sampling, and neither may be seen before the deal
    is over (a view shows the deal's commitment, its record the seed)."""

    seed: str
    """The first deal's seed: its shuffled pack (app/engine/shuffle.py)."""
    dealer: int
    """The first deal's dealer (R2.1 not drawn)."""
    bot_seed: str | None = None
    """Set for a challenge (the deal of the day): every move the server chooses in the
    room (a bot's, a stand-in's) is seeded from it and the position, and the strong bot
    searches a fixed number of worlds instead of a time budget, so that identical plays
    meet identical answers; the person plays unaided (no take-back, no hint).  None:
    the bots play as in any room."""

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "dealer": self.dealer, "bot_seed": self.bot_seed}

    def move_seed(self, deal_seed: str, seat: int, moves: Iterable[Move]) -> str | None:
        """The seed of the server's move for ``seat`` after ``moves`` (the deal's plays so
        far) in a deal dealt from ``deal_seed``: SHA-256 over the bots' seed and that
        position, so the same plays meet the same answer in every room of the challenge
        (and a different position, different randomness).  None outside a challenge."""
        if self.bot_seed is None:
            return None
        played = ";".join(m.card + "." + ".".join(m.take) for m in moves)
        text = f"{self.bot_seed}|{deal_seed}|{seat}|{played}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class RoomOptions:
    """Room settings that are not rules of the game."""

    bot_level: str = "greedy"
    bot_delay: float = 0.8
    turn_clock: float | None = None
    grace: float = 60.0
    deal_pause: float = 0.0
    """Seconds the room waits between deals for everyone to press Continue (0: the next
    deal starts at once, as rooms made before this option did)."""
    time_bank: float | None = None
    time_increment: float = 0.0
    """A Fischer clock: seconds each player has for the whole match, plus the increment
    after each of their moves (None: no time bank; exclusive with ``turn_clock``)."""
    public: bool = False
    """Listed in the lobby (GET /api/rooms/public)."""
    spectator_chat: bool = True
    """Whether players see spectators' chat while the match is played (the host may
    change it: an ``option`` event)."""
    takeback: TakebackMode = "always"
    """When the one person at a table of bots may take back their last play (issue 33):
    by default always, the bots' replies undone with it (issue 47: "until the bot has
    played" left about 0.6 s at the default bot pace); rooms made before the option
    have the default."""
    hints: bool = True
    """The "tabbe på 9" call in the view (``sweep_call``, issue 31); off, nobody in the
    room gets it (rooms made before the option have it on)."""
    rated: bool = False
    """Each finished match updates the players' ratings (issue 34, app/ratings): every
    seat a signed-in account or a bot, checked when a seat is taken; set at creation."""
    pace: Pace = "live"
    """``correspondence``: played over days (issue 32, domain/correspondence.py); rooms
    made before the option are ``live``."""
    days_per_move: int | None = None
    """A correspondence room's days per move (1, 2, 3, 5 or 7); None in a live room."""
    day_seconds: float = DAY_SECONDS
    """The length of a correspondence room's "day": a day, except in tests (the
    DAY_SECONDS setting); stored with the room, never in the view."""

    preset: DealPreset | None = None
    """The first deal fixed in advance (issue 32; stored, never shown: ``to_stored``)."""
    club_id: str | None = None
    """A club-only room (issue 49): only members of this club take its seats (checked
    where a seat is asked for: app/api/club_rooms.py); stored, not in the view."""
    plays_unattended: bool = False
    """Its timers run with nobody connected (a ladder room, issue 51: the ladder waits
    for its deal, and an outside bot that never comes is played for by the stand-in
    after its grace); any other room pauses while everyone is away.  Set by the server
    only; stored with the options."""
    seat_levels: tuple[str, ...] | None = None
    """Per seat, the level of its bot where the bots of one room differ (a ladder table
    of an outside bot and two levels, issue 51); "" or None: ``bot_level``.  Set by the
    server only, never asked over the API; stored with the options."""

    def __post_init__(self) -> None:
        if self.takeback not in TAKEBACK_MODES:
            raise ValueError(f"takeback must be one of {', '.join(TAKEBACK_MODES)}")
        if self.pace not in PACES:
            raise ValueError(f"pace must be one of {', '.join(PACES)}")

    @property
    def correspondence(self) -> bool:
        return self.pace == "correspondence"

    @property
    def day_ms(self) -> int:
        return int(self.day_seconds * 1000)

    def level_of(self, seat: int, bot: bool) -> str:
        """The level that plays ``seat``: its own bot's (``bot``: a bot seat from the
        room's creation), or the stand-in's for a person's seat."""
        if not bot:
            return STAND_IN_LEVEL
        own = self.seat_levels[seat] if self.seat_levels and seat < len(self.seat_levels) else ""
        return own or self.bot_level

    @property
    def challenge(self) -> bool:
        """A challenge room (the deal of the day): seeded bots, played unaided."""
        return self.preset is not None and self.preset.bot_seed is not None

    def to_stored(self) -> dict[str, Any]:
        """The options as the room's row keeps them: the view's, a shortened day (tests)
        and the preset."""
        out: dict[str, Any] = dict(self.to_dict())
        if self.day_seconds != DAY_SECONDS:
            out["day_seconds"] = self.day_seconds
        if self.preset is not None:
            out["preset"] = self.preset.to_dict()
        if self.seat_levels is not None:
            out["seat_levels"] = list(self.seat_levels)
        if self.plays_unattended:
            out["plays_unattended"] = True
        if self.club_id is not None:
            out["club_id"] = self.club_id
        return out

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> RoomOptions:
        """The options from a room's row (``to_stored``; rows older than a key have its
        default)."""
        values = dict(stored)
        values.pop("challenge", None)  # the view's word for a preset with bot_seed
        preset = values.pop("preset", None)
        levels = values.pop("seat_levels", None)
        return cls(
            **values,
            preset=DealPreset(**preset) if preset is not None else None,
            seat_levels=tuple(levels) if levels is not None else None,
        )

    def to_dict(self) -> RoomOptionsView:
        return {
            "bot_level": self.bot_level,
            "bot_delay": self.bot_delay,
            "turn_clock": self.turn_clock,
            "grace": self.grace,
            "deal_pause": self.deal_pause,
            "time_bank": self.time_bank,
            "time_increment": self.time_increment,
            "public": self.public,
            "spectator_chat": self.spectator_chat,
            "takeback": self.takeback,
            "hints": self.hints,
            "rated": self.rated,
            "pace": self.pace,
            "days_per_move": self.days_per_move,
            "challenge": self.challenge,
        }
