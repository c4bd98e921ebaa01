"""A fast RFC 6902 diff for views.

Why not jsonpatch.make_patch: it searches lists for moved runs and costs
about 13 ms per view diff here, which would make fan-out the bottleneck of
the whole server.  Views change in simple ways (a card appended to the log,
cards leaving the table or a hand, a few numbers), so this diff trims the
common head and tail of lists, recurses into same-length middles and
otherwise removes and adds.  The patches are plain RFC 6902 (add, remove,
replace); the tests apply them with the jsonpatch library and check that
they turn the old view into the new one.
"""

from __future__ import annotations

from typing import Any

from app.core.json import JsonValue, PatchOp

_ESCAPED: dict[str, str] = {}
"""Keys as they appear in a path (RFC 6901), per key: views use a few dozen keys."""


def _key_path(path: str, key: str) -> str:
    escaped = _ESCAPED.get(key)
    if escaped is None:
        escaped = key.replace("~", "~0").replace("/", "~1")
        if len(_ESCAPED) < 4096:
            _ESCAPED[key] = escaped
    return f"{path}/{escaped}"


def make_patch(old: Any, new: Any) -> list[PatchOp]:
    ops: list[PatchOp] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[PatchOp]) -> None:
    if old is new:
        return
    kind = type(old)
    if kind is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict:
        _diff_dict(old, new, path, ops)
    elif kind is list:
        _diff_list(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(
    old: dict[str, JsonValue], new: dict[str, JsonValue], path: str, ops: list[PatchOp]
) -> None:
    # The keys that changed, each compared once (an identical value by one check).
    changed = [
        key
        for key, value in new.items()
        if key not in old or (old[key] is not value and old[key] != value)
    ]
    added = [key for key in changed if key not in old]
    # Every key of old is still in new unless old has more than new kept from it.
    removed = [key for key in old if key not in new] if len(old) + len(added) > len(new) else []
    if path and len(new) <= 8 and (len(changed) + len(removed)) * 2 > len(new):
        # most of a small object changed: one replace is shorter
        ops.append({"op": "replace", "path": path, "value": new})
        return
    for key in removed:
        ops.append({"op": "remove", "path": _key_path(path, key)})
    for key in changed:
        if key in old:
            _diff(old[key], new[key], _key_path(path, key), ops)
        else:
            ops.append({"op": "add", "path": _key_path(path, key), "value": new[key]})


def _diff_list(old: list[JsonValue], new: list[JsonValue], path: str, ops: list[PatchOp]) -> None:
    if old == new:
        return
    n_old, n_new = len(old), len(new)
    if (n_old == 0 and n_new > 1) or (n_new == 0 and n_old > 1):
        # Filled from empty or emptied (a seat's legal moves when its turn comes and
        # when it has played, after every move): one replace, not an operation each.
        ops.append({"op": "replace", "path": path, "value": new})
        return
    # The usual changes first, each found by one comparison in C: entries added at
    # the end (the log, the table) or taken from the end.
    if n_new > n_old and new[:n_old] == old:
        for i in range(n_old, n_new):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
        return
    if n_new < n_old and n_old - n_new <= max(8, n_new) and old[:n_new] == new:
        for i in range(n_old - 1, n_new - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{i}"})
        return
    head = 0
    limit = min(n_old, n_new)
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[n_old - 1 - tail] == new[n_new - 1 - tail]:
        tail += 1
    old_mid = n_old - head - tail
    new_mid = n_new - head - tail
    if old_mid == new_mid:
        for i in range(head, head + old_mid):
            _diff(old[i], new[i], f"{path}/{i}", ops)
        return
    if old_mid + new_mid > max(8, n_new):  # a rewrite: one replace is smaller
        ops.append({"op": "replace", "path": path, "value": new})
        return
    for i in range(head + old_mid - 1, head - 1, -1):  # remove from the end: indexes stay valid
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(head, head + new_mid):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
