"""The rule set of a room: every option of R7 as one immutable, validated value.

The standard rules are the default.  ``validate_for`` rejects combinations the
rules cannot play (V1 needs 4 players, V2 exactly 2, V7 at most 4), so a room
or a scenario with an impossible rule set fails before any card is dealt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .catalogue_types import Catalogue, OptionJson
from .errors import RulesError

RuleValues = dict[str, bool | int | None]
"""A rule set as JSON: each option of RULE_OPTIONS by name (a flag, a number, or
null for a number not chosen)."""

MIN_PLAYERS = 2
MAX_PLAYERS = 6
ALL_PLAYER_COUNTS: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
MATCH_NUMBER_MAX = 1000
"""The largest ``match_deals`` / ``match_limit`` (V8) any room may ask for."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One room option of R7, as the catalogue (``GET /api/rules``) describes it.

    The catalogue is the single source of what an option is called, what
    values it takes, for how many players it works and what it excludes:
    ``RuleSet`` validates with it, the API builds its request model from it,
    and the lobby builds its form from the served copy.
    """

    name: str
    variant: str
    """The RULES.md number, V1..V10."""
    label: str
    """The variant's English name, for messages (clients translate by ``name``)."""
    type: Literal["boolean", "integer"]
    default: bool | int | None
    scope: Literal["deal", "match"]
    """``deal``: changes how a deal is played; ``match``: only how a match ends."""
    players: tuple[int, ...] = ALL_PLAYER_COUNTS
    """Player counts the option can be played with (R1.3 otherwise)."""
    incompatible: tuple[str, ...] = ()
    """Options that cannot be chosen together with this one."""
    minimum: int | None = None
    maximum: int | None = None
    """Range of an integer option (null means "not set")."""

    def to_dict(self) -> OptionJson:
        out: OptionJson = {
            "name": self.name,
            "variant": self.variant,
            "label": self.label,
            "type": self.type,
            "default": self.default,
            "scope": self.scope,
            "players": list(self.players),
            "incompatible": list(self.incompatible),
        }
        if self.type == "integer":
            out["minimum"] = self.minimum
            out["maximum"] = self.maximum
            out["nullable"] = True
        return out


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("partnership", "V1", "partnership", "boolean", False, "deal", players=(4,)),
    RuleOption("single_pack", "V2", "single pack", "boolean", False, "deal", players=(2,)),
    RuleOption("nordic", "V3", "Nordic Cassino", "boolean", False, "deal"),
    RuleOption("no_forced_sweep", "V4", "no forced sweep", "boolean", False, "deal"),
    RuleOption("bordstabbe", "V5", "bordstabbe", "boolean", False, "deal"),
    RuleOption("strict_capture", "V6", "strict capture", "boolean", False, "deal"),
    RuleOption(
        "four_card_deal", "V7", "four-card deal", "boolean", False, "deal", players=(2, 3, 4)
    ),
    RuleOption("picture_pairs", "V9", "picture pairs", "boolean", False, "deal"),
    RuleOption(
        "match_deals",
        "V8",
        "match length in deals",
        "integer",
        None,
        "match",
        incompatible=("match_limit",),
        minimum=1,
        maximum=MATCH_NUMBER_MAX,
    ),
    RuleOption(
        "match_limit",
        "V8",
        "match points limit",
        "integer",
        None,
        "match",
        incompatible=("match_deals",),
        minimum=1,
        maximum=MATCH_NUMBER_MAX,
    ),
    RuleOption("tie_break_deal", "V10", "tie-break deal", "boolean", False, "match"),
)
"""Every rule option of R7, in the order RULES.md lists the variants."""
OPTION_BY_NAME: dict[str, RuleOption] = {o.name: o for o in RULE_OPTIONS}


def catalogue() -> Catalogue:
    """The rule options as JSON (``GET /api/rules``): what a client may choose."""
    return {
        "players": {"minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
        "options": [o.to_dict() for o in RULE_OPTIONS],
    }


def check_option(name: str, value: Any) -> None:
    """Raise RulesError unless ``value`` is a valid value of option ``name`` (catalogue)."""
    option = OPTION_BY_NAME.get(name)
    if option is None:
        raise RulesError(f"unknown rule option: {name}")
    if option.type == "integer":
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"rule option {name} must be a whole number or null")
        low, high = option.minimum, option.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            raise RulesError(f"rule option {name} must be between {low} and {high}")
    elif not isinstance(value, bool):
        raise RulesError(f"rule option {name} must be true or false")


_AS_DICT: dict[RuleSet, RuleValues] = {}
"""RuleSet.to_dict's results (rule sets are few: the defaults and what rooms chose)."""


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
    picture_pairs: bool = False
    """V9: J, Q, K take only their own rank; pictures are never set aside."""
    tie_break_deal: bool = False
    """V10: a tie on the lowest total is broken by one more deal."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RuleSet:
        """Build from a JSON object; unknown keys and wrong types are errors."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        values: dict[str, Any] = {}  # the fields, each checked: booleans and numbers
        for key, value in data.items():
            check_option(key, value)
            values[key] = value
        rules = cls(**values)
        for key in values:
            for other in OPTION_BY_NAME[key].incompatible:
                if values[key] not in (None, False) and values.get(other) not in (None, False):
                    raise RulesError(
                        f"choose either {key} or {other} ({OPTION_BY_NAME[key].variant}), not both"
                    )
        return rules

    def to_dict(self) -> RuleValues:
        """The options as JSON (every field is a scalar, so a shallow copy is a copy).

        Memoized: a room's view carries its rules after every move, and
        ``asdict`` (a deep copy) cost more than the rest of the rules' part."""
        found = _AS_DICT.get(self)
        if found is None:
            if len(_AS_DICT) >= 4096:  # bounded, whatever rooms choose
                _AS_DICT.clear()
            found = _AS_DICT[self] = asdict(self)
        return dict(found)

    def validate_for(self, players: int) -> None:
        """Raise RulesError when this rule set cannot be played by ``players``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError("players must be a whole number")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"Krypkasino is for {MIN_PLAYERS} to {MAX_PLAYERS} players (R1.3)")
        for option in RULE_OPTIONS:
            if getattr(self, option.name) and players not in option.players:
                raise RulesError(
                    f"the {option.label} ({option.variant}) is for "
                    f"{_counts_text(option.players)} players, not {players}"
                )

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


def _counts_text(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return f"exactly {counts[0]}"
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


def rules_from_text(text: str | None, players: int) -> RuleSet:
    """Rule options given as JSON text (a command's ``--rules``), checked for ``players``.

    Raises RulesError, also for text that is not JSON, so every caller reports
    one kind of error.
    """
    import json

    try:
        data = json.loads(text) if text else None
    except json.JSONDecodeError as exc:
        raise RulesError(f"not valid JSON: {exc}") from None
    rules = RuleSet.from_dict(data)
    rules.validate_for(players)
    return rules
