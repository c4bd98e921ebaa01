"""app/api/schemas.py: the HTTP body for rules must offer exactly the engine's options."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from app.api.schemas import Rules
from app.engine.rules import RuleSet


def test_rules_body_has_every_engine_option_with_the_same_default() -> None:
    engine = {f.name: f.default for f in dataclasses.fields(RuleSet)}
    api = {name: f.default for name, f in Rules.model_fields.items()}
    assert api == engine


def test_a_rules_body_becomes_the_rule_set_it_names() -> None:
    body = Rules.model_validate({"nordic": True, "match_deals": 2})
    assert RuleSet.from_dict(body.model_dump()) == RuleSet(nordic=True, match_deals=2)


@pytest.mark.parametrize("bad", [{"nordic": "yes"}, {"nordc": True}, {"match_deals": 0}])
def test_wrong_types_unknown_options_and_bounds_are_refused(bad: dict) -> None:
    with pytest.raises(ValidationError):
        Rules.model_validate(bad)
