"""The scenario exchange format (scenarios/FORMAT.md): input dict in, output dict out.

Pure: the command line wrapper in ``app.cli`` does the reading and printing.
The whole input is validated before any move is played, so malformed input
raises an EngineError (exit 2) and never yields a half-played result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from .cards import is_card
from .deal import Deal, Move
from .errors import MoveError, RulesError, SetupError
from .rules import OPTION_BY_NAME, RuleSet, check_option
from .scoring import team_totals
from .view_types import AwardJson, ScoreJson


class MoveErrorJson(TypedDict):
    """The first move of a scenario that the engine refused, and why."""

    move: int
    code: str
    message: str


class ScenarioOutput(TypedDict):
    """The output object of FORMAT.md."""

    name: object
    """The input's ``name``, echoed as it came (null when it has none)."""
    results: list[dict[str, object]]
    error: MoveErrorJson | None
    deal_over: bool
    state: dict[str, object]
    scores: list[ScoreJson]
    award: AwardJson | None
    team_totals: NotRequired[list[int]]
    """Only with partnership (V1)."""
    legal: NotRequired[list[dict[str, object]]]
    """Only when asked (``query: "legal"``) and the deal is not over."""


def _int(data: Mapping[str, Any], key: str, default: Any = ...) -> Any:
    value = data.get(key, default)
    if value is ...:
        raise SetupError(f"missing key: {key}")
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{key} must be a whole number")
    return value


def _list(data: Mapping[str, Any], key: str, required: bool) -> list[Any]:
    """A list-valued key: missing is [] when optional; null or any other type is malformed."""
    if key not in data:
        if required:
            raise SetupError(f"missing key: {key}")
        return []
    value = data[key]
    if not isinstance(value, list):
        raise SetupError(f"{key} must be a list, not {json_type(value)}")
    return value


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    return "a list" if isinstance(value, list) else type(value).__name__


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise SetupError(f"{where} must be a list of card codes, not {json_type(value)}")
    for card in value:
        if not is_card(card):
            raise SetupError(f"{where}: unknown card code: {card!r}")
    return value


def parse_moves(raw: Any) -> list[Move]:
    """Validate the ``moves`` list: objects with a card code and an optional take."""
    if not isinstance(raw, list):
        raise SetupError("moves must be a list")
    moves = []
    for i, m in enumerate(raw):
        if not isinstance(m, Mapping):
            raise SetupError(f"move {i} must be an object")
        card = m.get("card")
        if not isinstance(card, str) or not is_card(card):
            raise SetupError(f"move {i}: unknown card code: {card!r}")
        take = m.get("take")
        if take is None:  # FORMAT.md: a missing or null take is a creep
            take = []
        moves.append(Move(card, tuple(_cards(take, f"move {i}: take"))))
    return moves


def deal_rules(raw: Mapping[str, Any]) -> RuleSet:
    """The rule set a scenario's deal is played by (FORMAT.md ``rules``).

    The match-level options (``scope == "match"`` in the catalogue: V8's
    ``match_deals`` and ``match_limit``, V10's ``tie_break_deal``) change
    nothing in one deal, so they are accepted and ignored: a server's deal
    record, which carries its room's rules, replays as it is.  Their values
    must still be of the option's type (a whole number, or a boolean), but not
    in a room's range: FORMAT.md accepts any whole number, 0 included, as a
    generator of scenarios may write it.  Any other key is an unknown rule
    option.  Only a room's rule set refuses the pair of V8 options
    (``RuleSet.from_dict``); a scenario never plays a match.
    """
    for key, value in raw.items():
        option = OPTION_BY_NAME.get(key)
        if option is not None and option.scope == "match" and option.type == "integer":
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise RulesError(f"rule option {key} must be a whole number or null")
            continue
        check_option(key, value)
    return RuleSet.from_dict({k: v for k, v in raw.items() if OPTION_BY_NAME[k].scope != "match"})


def setup(data: Any) -> tuple[Deal, list[Move], bool]:
    """Build the deal, the moves and whether legal moves are asked for."""
    if not isinstance(data, Mapping):
        raise SetupError("a scenario must be a JSON object")
    raw_rules = data.get("rules", {})
    if not isinstance(raw_rules, Mapping):
        raise SetupError(f"rules must be an object, not {json_type(raw_rules)}")
    rules = deal_rules(raw_rules)
    players = _int(data, "players")
    rules.validate_for(players)
    dealer = _int(data, "dealer")
    to_move = _int(data, "to_move", None)
    hands = _list(data, "hands", required=True)
    if len(hands) != players:
        raise SetupError(f"hands must list {players} hands, one per seat")
    for seat, hand in enumerate(hands):
        _cards(hand, f"the hand of seat {seat}")
    table = _cards(_list(data, "table", required=True), "table")
    stock = _cards(_list(data, "stock", required=False), "stock")
    query = data.get("query")
    if query not in (None, "legal"):
        raise SetupError(f"unknown query: {query!r}")
    moves = parse_moves(_list(data, "moves", required=False))
    deal = Deal.from_position(rules, players, dealer, hands, table, stock, to_move)
    return deal, moves, query == "legal"


def run(data: Any) -> ScenarioOutput:
    """Play a scenario and return the output object of FORMAT.md."""
    deal, moves, want_legal = setup(data)
    error: MoveErrorJson | None = None
    for i, move in enumerate(moves):
        try:
            deal.apply(move.card, move.take)
        except MoveError as exc:
            error = {"move": i, "code": exc.code, "message": exc.message}
            break
    out: ScenarioOutput = {
        "name": data.get("name"),
        "results": [r.to_dict() for r in deal.results],
        "error": error,
        "deal_over": deal.is_over,
        "state": deal.state_dict(),
        "scores": deal.scores_list(),
        "award": deal.award.to_dict() if deal.award else None,
    }
    teams = team_totals(deal.totals(), deal.rules.partnership)
    if teams is not None:
        out["team_totals"] = teams
    if want_legal and not deal.is_over:
        out["legal"] = [m.to_dict() for m in deal.legal_moves()]
    return out
