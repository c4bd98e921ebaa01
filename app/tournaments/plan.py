"""An event's plan: what its organiser chose, one immutable value, checked once.

Stored with the event as JSON (``to_json``/``from_json``) and shown on its page.  A
plan fixes the format and everything that seats and scores it; nothing in it
changes once the event exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict, get_args

from app.engine.errors import RulesError
from app.engine.rules import RuleSet, RuleValues

from .errors import TournamentCode, TournamentRefused
from .standings import Scoring

Format = Literal["swiss", "duplicate", "arena"]
Pace = Literal["live", "correspondence"]
Entry = Literal["open", "club", "invite"]
FORMATS: tuple[str, ...] = get_args(Format)
SCORINGS: tuple[str, ...] = get_args(Scoring)
ROUNDS_MAX = 15
BOARDS_MAX = 36
CAP_MAX = 120
"""Entrants an event takes at most (the organiser may set fewer)."""
MINUTES_MIN = 5
MINUTES_MAX = 720
ROUND_MINUTES_MAX = 14 * 24 * 60
"""Swiss rounds at set times: at most a fortnight apart (a correspondence league)."""
LEVELS = ("random", "greedy", "strong")
DAYS_PER_MOVE = (1, 2, 3, 5, 7)


class PlanJson(TypedDict):
    format: str
    players: int
    rules: RuleValues
    rounds: int
    boards: int
    minutes: int
    scoring: str
    bot_level: str
    pace: str
    turn_clock: float | None
    days_per_move: int | None
    rated: bool
    entry: str
    invited: list[str]
    cap: int
    round_minutes: int | None


def refuse(message: str) -> TournamentRefused:
    return TournamentRefused(TournamentCode.BAD_TOURNAMENT, message)


@dataclass(frozen=True, slots=True)
class EventPlan:
    format: Format
    players: int
    """Seats at each table, 2 to 6."""
    rules: RuleSet = field(default_factory=RuleSet)
    rounds: int = 3
    """Swiss: the number of rounds."""
    boards: int = 2
    """Duplicate: the number of boards (one deal each)."""
    minutes: int = 30
    """Arena: how long tables are seated for (then the last ones play out)."""
    scoring: Scoring = "matchpoints"
    """Duplicate: matchpoints, or the points difference from the field."""
    bot_level: str = "greedy"
    """The level of the bots that fill tables the field does not."""
    pace: Pace = "live"
    turn_clock: float | None = 60.0
    """Live: seconds per move before the stand-in plays (None: no clock)."""
    days_per_move: int | None = None
    """Correspondence: days per move."""
    rated: bool = False
    """Each table's match changes its players' ratings, as a rated room's does (bots
    in a table are the ratings' anchors)."""
    entry: Entry = "open"
    """``open``: any signed-in person; ``club``: the club's members; ``invite``: the
    people ``invited`` names."""
    invited: tuple[str, ...] = ()
    """``invite``: the usernames that may register (any case; at most ``cap``)."""
    cap: int = 32
    round_minutes: int | None = None
    """Swiss: rounds at set times, this many minutes apart from the event's start
    (round k at the start plus (k - 1) times it), a round never starting before the
    one before has finished; None: each round as soon as the one before finishes."""

    def check(self, club_id: str | None) -> None:
        """Refuse a plan that cannot be run (TournamentRefused ``bad_tournament``)."""
        if self.format not in FORMATS:
            raise refuse(f"format must be one of {', '.join(FORMATS)}")
        try:
            self.rules.validate_for(self.players)
        except RulesError as exc:
            raise refuse(str(exc)) from exc
        if not 1 <= self.rounds <= ROUNDS_MAX:
            raise refuse(f"rounds must be 1..{ROUNDS_MAX}")
        if not 1 <= self.boards <= BOARDS_MAX:
            raise refuse(f"boards must be 1..{BOARDS_MAX}")
        if not MINUTES_MIN <= self.minutes <= MINUTES_MAX:
            raise refuse(f"minutes must be {MINUTES_MIN}..{MINUTES_MAX}")
        if self.scoring not in SCORINGS:
            raise refuse(f"scoring must be one of {', '.join(SCORINGS)}")
        if self.bot_level not in LEVELS:
            raise refuse(f"bot_level must be one of {', '.join(LEVELS)}")
        if not 2 <= self.cap <= CAP_MAX:
            raise refuse(f"cap must be 2..{CAP_MAX}")
        if self.entry not in get_args(Entry) or (self.entry == "club" and club_id is None):
            raise refuse("entry is open, club for a club's event, or invite")
        if (self.entry == "invite") != bool(self.invited) or len(self.invited) > self.cap:
            raise refuse("invited names the people of an invite-only event, at most its cap")
        if self.round_minutes is not None and (
            self.format != "swiss" or not MINUTES_MIN <= self.round_minutes <= ROUND_MINUTES_MAX
        ):
            raise refuse(f"round_minutes is for Swiss events, {MINUTES_MIN}..{ROUND_MINUTES_MAX}")
        self._check_pace()

    def _check_pace(self) -> None:
        if self.pace == "live":
            if self.days_per_move is not None:
                raise refuse("days_per_move is for correspondence events")
            if self.turn_clock is not None and not 10 <= self.turn_clock <= 600:
                raise refuse("turn_clock must be 10..600 seconds")
        elif self.pace == "correspondence":
            if self.format == "arena":
                raise refuse("an arena is played live")
            if self.days_per_move not in DAY_CHOICES:
                raise refuse("days_per_move must be one of 1, 2, 3, 5, 7")
        else:
            raise refuse("pace is live or correspondence")

    @property
    def stages(self) -> int:
        """Rounds (Swiss) or boards (duplicate)."""
        return self.rounds if self.format == "swiss" else self.boards

    def to_json(self) -> PlanJson:
        return {
            "format": self.format,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "rounds": self.rounds,
            "boards": self.boards,
            "minutes": self.minutes,
            "scoring": self.scoring,
            "bot_level": self.bot_level,
            "pace": self.pace,
            "turn_clock": self.turn_clock,
            "days_per_move": self.days_per_move,
            "rated": self.rated,
            "entry": self.entry,
            "invited": list(self.invited),
            "cap": self.cap,
            "round_minutes": self.round_minutes,
        }

    @classmethod
    def from_json(cls, data: object) -> EventPlan:
        """The plan from its JSON (stored, or a request's body made plain)."""
        if not isinstance(data, dict):
            raise refuse("a plan is an object")
        values = dict(data)
        rules: RuleValues | None = values.pop("rules", None)
        invited = tuple(str(name).lower() for name in values.pop("invited", ()) or ())
        try:
            return cls(rules=RuleSet.from_dict(rules), invited=invited, **values)
        except (TypeError, RulesError) as exc:
            raise refuse(str(exc)) from exc


DAY_CHOICES: frozenset[int | None] = frozenset(DAYS_PER_MOVE)
