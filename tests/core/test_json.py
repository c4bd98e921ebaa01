"""app/core/json.py: the JSON types are real types at run time too, and pydantic reads
them as JSON: every JSON value through unchanged (a whole number stays one), anything
else refused, and a schema that says what a JSON value is."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from app.core.json import JsonObject, JsonValue


class Holder(BaseModel):
    body: JsonObject
    value: JsonValue = None


def test_json_goes_through_a_model_unchanged() -> None:
    body: JsonObject = {"n": 60, "x": 60.0, "ok": True, "none": None, "list": [1, "a", {"b": []}]}
    held = Holder(body=body, value=[1, 2.5])
    assert held.body == body and held.value == [1, 2.5]
    assert held.model_dump_json() == (
        '{"body":{"n":60,"x":60.0,"ok":true,"none":null,"list":[1,"a",{"b":[]}]},"value":[1,2.5]}'
    )
    assert type(held.body["n"]) is int and type(held.body["ok"]) is bool


@pytest.mark.parametrize("bad", [{"c": 1j}, {"o": object()}, [1, 2]])
def test_what_is_not_json_is_refused(bad: object) -> None:
    with pytest.raises(ValidationError):
        Holder.model_validate({"body": bad})


def test_the_schema_names_a_json_value() -> None:
    schema = Holder.model_json_schema()
    assert schema["properties"]["body"] == {"$ref": "#/$defs/JsonObject"}
    kinds = schema["$defs"]["JsonValue"]["anyOf"]
    assert {k.get("type") for k in kinds} == {
        "boolean",
        "integer",
        "number",
        "string",
        "array",
        "object",
        "null",
    }
