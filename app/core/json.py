"""JSON as a type: what ``json.loads`` gives and ``json.dumps`` takes.

A dict of ``Any`` says nothing and lets every use through unchecked; these say
"some JSON, look before you use it".  Where a shape is known (a wire message, an
API answer, a stored record) it has its own ``TypedDict`` or dataclass; these are
for what truly arrives opaque (a provider's discovery document, a column of JSON,
a document read back from an archive) and is narrowed with ``isinstance`` before
any of it is trusted.  ``Mapping[str, object]`` is the read-only face for a
function that only reads.

``TypeAliasType`` makes the recursive alias a real object at run time too, which
pydantic reads (as it does its own ``pydantic.JsonValue``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypeAlias, TypedDict

from typing_extensions import TypeAliasType

if TYPE_CHECKING:
    JsonValue: TypeAlias = (
        None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
    )
    JsonObject: TypeAlias = dict[str, JsonValue]
else:
    JsonValue = TypeAliasType(
        "JsonValue",
        None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"],
    )
    JsonObject = TypeAliasType("JsonObject", dict[str, JsonValue])
"""``JsonValue``: any JSON value.  ``JsonObject``: a JSON object, keys strings, values
any JSON."""


class PatchOp(TypedDict):
    """One RFC 6902 operation as this server makes them (app/realtime/jsondiff.py):
    ``value`` with add and replace, none with remove."""

    op: Literal["add", "remove", "replace"]
    path: str
    value: NotRequired[JsonValue]


__all__ = ["JsonObject", "JsonValue", "PatchOp"]
