"""JSON as the type checker sees it, and typed reads of its fields.

Everything the server sends is JSON; these aliases let the rest of the package say
so without ``Any``, and the readers turn a field into the type it must have, or
raise ``ProtocolError`` naming the field, so a malformed message fails loudly in one
place instead of as an ``AttributeError`` deep in a bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = dict[str, JsonValue]
JsonMap: TypeAlias = Mapping[str, JsonValue]


class ProtocolError(ValueError):
    """The server sent something the protocol does not allow (a field missing or of
    the wrong type)."""


def obj(value: JsonValue, what: str) -> JsonMap:
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is not an object")
    return value


def field(data: JsonMap, key: str) -> JsonValue:
    if key not in data:
        raise ProtocolError(f"{key!r} is missing")
    return data[key]


def as_int(data: JsonMap, key: str) -> int:
    value = field(data, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{key!r} is not a whole number")
    return value


def as_opt_int(data: JsonMap, key: str) -> int | None:
    return None if data.get(key) is None else as_int(data, key)


def as_str(data: JsonMap, key: str) -> str:
    value = field(data, key)
    if not isinstance(value, str):
        raise ProtocolError(f"{key!r} is not a string")
    return value


def as_opt_str(data: JsonMap, key: str) -> str | None:
    return None if data.get(key) is None else as_str(data, key)


def as_bool(data: JsonMap, key: str) -> bool:
    value = field(data, key)
    if not isinstance(value, bool):
        raise ProtocolError(f"{key!r} is not a boolean")
    return value


def as_list(data: JsonMap, key: str) -> list[JsonValue]:
    value = field(data, key)
    if not isinstance(value, list):
        raise ProtocolError(f"{key!r} is not a list")
    return value


def as_opt_list(data: JsonMap, key: str) -> list[JsonValue]:
    """A list, or an empty one for null or a missing key."""
    return [] if data.get(key) is None else as_list(data, key)


def as_objects(data: JsonMap, key: str) -> list[JsonMap]:
    return [obj(item, f"an entry of {key!r}") for item in as_list(data, key)]


def as_strs(data: JsonMap, key: str) -> tuple[str, ...]:
    items = as_opt_list(data, key)
    if not all(isinstance(item, str) for item in items):
        raise ProtocolError(f"{key!r} holds something other than strings")
    return tuple(str(item) for item in items)


def as_ints(data: JsonMap, key: str) -> tuple[int, ...]:
    items = as_opt_list(data, key)
    out: list[int] = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int):
            raise ProtocolError(f"{key!r} holds something other than whole numbers")
        out.append(item)
    return tuple(out)
