"""The rule set of a room: every option of R7 as one immutable, validated value.

The standard rules are the default.  ``validate_for`` rejects combinations the
rules cannot play (V1 needs 4 players, V2 exactly 2, V7 at most 4), so a room
or a scenario with an impossible rule set fails before any card is dealt.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from .errors import RulesError

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class RuleSet:
    partnership: bool = False
    """V1: seats 0+2 against 1+3, partners' scores added (4 players only)."""
    single_pack: bool = False
    """V2: one 52-card pack, 2 players, 4/4 opening and packets of 4 (21 points)."""
    nordic: bool = False
    """V3: the 10 of diamonds scores 0 (36 points in a double pack)."""
    no_forced_sweep: bool = False
    """V4: R4.1 does not apply; a sweep is optional."""
    bordstabbe: bool = False
    """V5: a one-value opening table of 2+ cards costs the first player 5."""
    strict_capture: bool = False
    """V6: no creeping while any card in hand could capture."""
    four_card_deal: bool = False
    """V7: 4 cards each and 4 on the table, a short last packet (2-4 players)."""
    match_deals: int | None = None
    """V8: a fixed number of deals instead of one dealer rotation (R6.4)."""
    match_limit: int | None = None
    """V8: play until a total reaches this limit at the end of a deal."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "RuleSet":
        """Build from a JSON object; unknown keys and wrong types are errors."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise RulesError(f"unknown rule option: {key}")
            if key in ("match_deals", "match_limit"):
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                    raise RulesError(f"rule option {key} must be a whole number or null")
                if value is not None and not 1 <= value <= 1000:
                    raise RulesError(f"rule option {key} must be between 1 and 1000")
            elif not isinstance(value, bool):
                raise RulesError(f"rule option {key} must be true or false")
            values[key] = value
        rules = cls(**values)
        if rules.match_deals is not None and rules.match_limit is not None:
            raise RulesError("choose either match_deals or match_limit (V8), not both")
        return rules

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def validate_for(self, players: int) -> None:
        """Raise RulesError when this rule set cannot be played by ``players``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError("players must be a whole number")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"Krypkasino is for {MIN_PLAYERS} to {MAX_PLAYERS} players (R1.3)")
        if self.partnership and players != 4:
            raise RulesError("partnership (V1) needs exactly 4 players")
        if self.single_pack and players != 2:
            raise RulesError("single pack (V2) is for exactly 2 players")
        if self.four_card_deal and players > 4:
            raise RulesError("the four-card deal (V7) is for 2 to 4 players")

    @property
    def copies(self) -> int:
        """How many copies of each card the pack holds (R1.1, V2)."""
        return 1 if self.single_pack else 2

    @property
    def forced_sweep(self) -> bool:
        return not self.no_forced_sweep

    def opening_counts(self, players: int) -> tuple[tuple[int, ...], int]:
        """(hand batches, table cards) of the opening deal (R2.2, V2, V7)."""
        if self.single_pack or self.four_card_deal:
            return (2, 2), 4
        return {
            2: ((3, 3), 4),
            3: ((3, 2), 5),
            4: ((3, 2), 4),
            5: ((2, 2), 4),
            6: ((3, 2), 2),
        }[players]

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.partnership else None

    def team_of(self, seat: int) -> int:
        """Team index under V1 (seats 0+2 are team 0); the seat itself otherwise."""
        return seat % 2 if self.partnership else seat
