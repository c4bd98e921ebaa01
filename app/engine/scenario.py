"""The scenario exchange format (scenarios/FORMAT.md): input dict in, output dict out.

Pure: the command line wrapper in ``app.cli`` does the reading and printing.
The whole input is validated before any move is played, so malformed input
raises an EngineError (exit 2) and never yields a half-played result.
"""

from __future__ import annotations

from typing import Any, Mapping

from .cards import is_card
from .deal import Deal, Move
from .errors import MoveError, SetupError
from .rules import RuleSet
from .scoring import team_totals


def _int(data: Mapping[str, Any], key: str, default: Any = ...) -> Any:
    value = data.get(key, default)
    if value is ...:
        raise SetupError(f"missing key: {key}")
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{key} must be a whole number")
    return value


def parse_moves(raw: Any) -> list[Move]:
    """Validate the ``moves`` list: objects with a card code and an optional take."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise SetupError("moves must be a list")
    moves = []
    for i, m in enumerate(raw):
        if not isinstance(m, Mapping):
            raise SetupError(f"move {i} must be an object")
        card = m.get("card")
        if not is_card(card):
            raise SetupError(f"move {i}: unknown card code: {card!r}")
        take = m.get("take")
        if take is None:
            take = []
        if not isinstance(take, list):
            raise SetupError(f"move {i}: take must be a list of card codes")
        for c in take:
            if not is_card(c):
                raise SetupError(f"move {i}: unknown card code: {c!r}")
        moves.append(Move(card, tuple(take)))
    return moves


def setup(data: Any) -> tuple[Deal, list[Move], bool]:
    """Build the deal, the moves and whether legal moves are asked for."""
    if not isinstance(data, Mapping):
        raise SetupError("a scenario must be a JSON object")
    rules = RuleSet.from_dict(data.get("rules"))
    players = _int(data, "players")
    rules.validate_for(players)
    dealer = _int(data, "dealer")
    to_move = _int(data, "to_move", None)
    stock = data.get("stock")
    query = data.get("query")
    if query not in (None, "legal"):
        raise SetupError(f"unknown query: {query!r}")
    moves = parse_moves(data.get("moves"))
    deal = Deal.from_position(rules, players, dealer, data.get("hands"),
                              data.get("table"), [] if stock is None else stock, to_move)
    return deal, moves, query == "legal"


def run(data: Any) -> dict[str, Any]:
    """Play a scenario and return the output object of FORMAT.md."""
    deal, moves, want_legal = setup(data)
    error = None
    for i, move in enumerate(moves):
        try:
            deal.apply(move.card, move.take)
        except MoveError as exc:
            error = {"move": i, "code": exc.code, "message": exc.message}
            break
    out: dict[str, Any] = {
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
