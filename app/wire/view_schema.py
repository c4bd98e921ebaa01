"""JSON Schema of the view's ``TypedDict``s (app/wire/view.py, app/engine/view_types.py).

The view is built as plain dicts on the hot path (a typed model per move would cost
more than the move), so it is not a pydantic model; its types are ``TypedDict``s that
the type checker holds the code to.  This module reads those same annotations and
writes the schema the protocol publishes, so the schema and the code cannot drift:
every key required (or ``NotRequired``), no key beyond them.
"""

from __future__ import annotations

import types
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypeGuard,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from app.core.json import JsonObject, JsonValue


def _is_typed_dict(tp: object) -> TypeGuard[type]:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def type_schema(tp: object, defs: JsonObject) -> JsonObject:
    """The schema of one annotation; ``TypedDict``s go into ``defs`` by name."""
    if tp is Any:
        return {}
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if _is_typed_dict(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder: a type that refers to itself
            defs[name] = typed_dict_schema(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Annotated:  # Annotated[str, Literal[...]]: the schema takes the Literal
        narrower = [a for a in args[1:] if get_origin(a) is Literal]
        return type_schema(narrower[0] if narrower else args[0], defs)
    if origin is Literal:
        values: list[JsonValue] = list(args)
        return {"enum": values}
    if origin in (Union, types.UnionType):
        return {"anyOf": [type_schema(a, defs) for a in args]}
    if origin is list:
        return {"type": "array", "items": type_schema(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": type_schema(args[1], defs)}
    if origin is NotRequired:
        return type_schema(args[0], defs)
    raise TypeError(f"no JSON Schema for {tp!r}")


def typed_dict_schema(td: type, defs: JsonObject) -> JsonObject:
    hints = get_type_hints(td, include_extras=True)
    # Not ``__required_keys__``: with postponed annotations Python 3.11 cannot see a
    # ``NotRequired`` there; the evaluated hints say it.
    required: list[JsonValue] = [
        *sorted(key for key, tp in hints.items() if get_origin(tp) is not NotRequired)
    ]
    properties: JsonObject = {key: type_schema(tp, defs) for key, tp in hints.items()}
    schema: JsonObject = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    doc = td.__doc__
    if doc and not doc.startswith(td.__name__ + "("):
        schema["description"] = " ".join(doc.split())
    return schema
