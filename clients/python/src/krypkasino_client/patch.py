"""RFC 6902 JSON Patch: how a client keeps its view from the server's ``patch``es.

The server sends ``add``, ``remove`` and ``replace`` (its diff, app/realtime/jsondiff.py
in the server's repository); ``move``, ``copy`` and ``test`` are here too, so any RFC
6902 patch applies.  ``apply_patch`` never changes the document it is given: it
returns a new one, so a view handed to a bot's ``choose`` stays as it was while the
next patch arrives, and a patch that fails half-way leaves the last good view intact
(the client then asks the server again: docs/protocol.md, "Server to client").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping

from .jsontypes import JsonValue

__all__ = ["PatchError", "apply_patch", "parse_pointer"]


class PatchError(ValueError):
    """A patch that does not apply to the document (a path that is not there, a
    failed ``test``, an unknown op): the document is left as it was."""


def parse_pointer(pointer: str) -> list[str]:
    """The reference tokens of an RFC 6901 JSON Pointer ("" is the whole document)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"a JSON pointer starts with '/': {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def apply_patch(document: JsonValue, ops: Iterable[Mapping[str, JsonValue]]) -> JsonValue:
    """The document after every operation of ``ops`` in order (RFC 6902: all or
    nothing); ``document`` itself is not changed."""
    result = copy.deepcopy(document)
    for op in ops:
        result = _apply(result, op)
    return result


def _apply(doc: JsonValue, op: Mapping[str, JsonValue]) -> JsonValue:
    name = op.get("op")
    path = _pointer(op, "path")
    if name == "add":
        return _add(doc, path, copy.deepcopy(_value(op)))
    if name == "remove":
        return _remove(doc, path)[0]
    if name == "replace":
        doc, _ = _remove(doc, path)
        return _add(doc, path, copy.deepcopy(_value(op)))
    if name == "move":
        source = _pointer(op, "from")
        if path[: len(source)] == source and len(path) > len(source):
            raise PatchError("a value cannot be moved into one of its own children")
        doc, value = _remove(doc, source)
        return _add(doc, path, value)
    if name == "copy":
        return _add(doc, path, copy.deepcopy(_get(doc, _pointer(op, "from"))))
    if name == "test":
        if _get(doc, path) != _value(op):
            raise PatchError(f"test failed at {op.get('path')!r}")
        return doc
    raise PatchError(f"unknown op {name!r}")


def _pointer(op: Mapping[str, JsonValue], key: str) -> list[str]:
    pointer = op.get(key)
    if not isinstance(pointer, str):
        raise PatchError(f"an op's {key!r} must be a string")
    return parse_pointer(pointer)


def _value(op: Mapping[str, JsonValue]) -> JsonValue:
    if "value" not in op:
        raise PatchError(f"op {op.get('op')!r} needs a value")
    return op["value"]


def _index(container: list[JsonValue], token: str, *, append: bool) -> int:
    """A list index of RFC 6901: digits without a leading zero, or "-" (one past the
    end) where a value is added; an index past the end is an error."""
    if append and token == "-":
        return len(container)
    if not token.isdigit() or (token != "0" and token.startswith("0")) or not token.isascii():
        raise PatchError(f"not a list index: {token!r}")
    index = int(token)
    if index > len(container) or (index == len(container) and not append):
        raise PatchError(f"list index {index} out of range (length {len(container)})")
    return index


def _child(parent: JsonValue, token: str) -> JsonValue:
    if isinstance(parent, dict):
        if token not in parent:
            raise PatchError(f"no key {token!r}")
        return parent[token]
    if isinstance(parent, list):
        return parent[_index(parent, token, append=False)]
    raise PatchError(f"cannot descend into a {type(parent).__name__} at {token!r}")


def _get(doc: JsonValue, path: list[str]) -> JsonValue:
    for token in path:
        doc = _child(doc, token)
    return doc


def _add(doc: JsonValue, path: list[str], value: JsonValue) -> JsonValue:
    if not path:
        return value
    parent = _get(doc, path[:-1])
    last = path[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_index(parent, last, append=True), value)
    else:
        raise PatchError(f"cannot add into a {type(parent).__name__}")
    return doc


def _remove(doc: JsonValue, path: list[str]) -> tuple[JsonValue, JsonValue]:
    """(the document without the value at ``path``, that value)."""
    if not path:
        return None, doc
    parent = _get(doc, path[:-1])
    last = path[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError(f"no key {last!r} to remove")
        return doc, parent.pop(last)
    if isinstance(parent, list):
        return doc, parent.pop(_index(parent, last, append=False))
    raise PatchError(f"cannot remove from a {type(parent).__name__}")
