"""app/api/schemas.py: the HTTP body for rules must offer exactly the engine's options."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from app.api.schemas import Rules
from app.engine.rules import RULE_OPTIONS, RuleSet


def test_rules_body_has_every_engine_option_with_the_same_default() -> None:
    engine = {f.name: f.default for f in dataclasses.fields(RuleSet)}
    api = {name: f.default for name, f in Rules.model_fields.items()}
    assert api == engine


def test_a_rules_body_becomes_the_rule_set_it_names() -> None:
    body = Rules.model_validate({"nordic": True, "match_deals": 2})
    assert RuleSet.from_dict(body.model_dump()) == RuleSet(nordic=True, match_deals=2)


def test_rules_body_takes_its_ranges_from_the_catalogue() -> None:
    """One source: the API's bounds are the engine's (it once capped match_deals at 100)."""
    for option in RULE_OPTIONS:
        if option.type == "integer":
            Rules.model_validate({option.name: option.maximum})
            with pytest.raises(ValidationError):
                Rules.model_validate({option.name: option.maximum + 1})


@pytest.mark.parametrize(
    "bad",
    [
        {"nordic": "yes"},
        {"nordc": True},
        {"match_deals": 0},
        {"picture_pairs": 1},
        {"match_deals": 1001},
    ],
)
def test_wrong_types_unknown_options_and_bounds_are_refused(bad: dict) -> None:
    with pytest.raises(ValidationError):
        Rules.model_validate(bad)


def test_the_hints_room_option_is_a_flag_on_by_default() -> None:
    """Issue 31: ``hints`` (the "tabbe på 9" call) is on unless a room is made without."""
    from app.api.schemas import CreateRoom

    assert CreateRoom.model_validate({"players": 2, "name": "Ann"}).hints is True
    assert CreateRoom.model_validate({"players": 2, "name": "Ann", "hints": False}).hints is False
    with pytest.raises(ValidationError):
        CreateRoom.model_validate({"players": 2, "name": "Ann", "hints": "no"})
