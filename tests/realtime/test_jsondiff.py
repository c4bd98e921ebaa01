"""The view diff makes RFC 6902 patches that the jsonpatch library applies exactly."""

from __future__ import annotations

import copy

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.jsondiff import make_patch

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from(["AS", "10D", "KH", "2C", "a/b", "t~x", ""]),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(
            st.sampled_from(["hand", "table", "log", "a/b", "~", "x"]), children, max_size=5
        ),
    ),
    max_leaves=30,
)


@settings(max_examples=250, deadline=None)
@given(json_values, json_values)
def test_patch_turns_old_into_new(old, new):
    before = copy.deepcopy(old)
    ops = make_patch(old, new)
    assert old == before, "the diff does not touch its input"
    assert jsonpatch.apply_patch(old, ops) == new


@settings(max_examples=150, deadline=None)
@given(st.lists(scalars, max_size=12), st.data())
def test_list_edits_give_small_patches(items, data):
    """One element appended or removed is one op (what a play does to a view)."""
    extra = data.draw(scalars)
    assert len(make_patch({"log": items}, {"log": items + [extra]})) == 1
    if items:
        i = data.draw(st.integers(0, len(items) - 1))
        ops = make_patch({"table": items}, {"table": items[:i] + items[i + 1 :]})
        assert len(ops) == 1 and ops[0]["op"] == "remove"


def test_equal_values_give_no_ops():
    view = {"hand": ["AS", "2H"], "scores": [{"total": 1}], "x": None}
    assert make_patch(view, copy.deepcopy(view)) == []


def test_keys_with_slash_and_tilde_are_escaped():
    ops = make_patch({"a/b": 1, "~": 2}, {"a/b": 3, "~": 2})
    assert ops == [{"op": "replace", "path": "/a~1b", "value": 3}]


def test_entries_added_or_taken_at_the_end_cost_one_operation_each() -> None:
    log = [{"seat": i % 4, "card": "7H", "taken": ["2C"] * (i % 3)} for i in range(40)]
    grown = log + [{"seat": 0, "card": "KS", "taken": []}]
    assert make_patch({"log": log}, {"log": grown}) == [
        {"op": "add", "path": "/log/40", "value": grown[40]}
    ]
    table = [f"{n}H" for n in range(2, 10)] * 2
    assert make_patch({"table": table}, {"table": table[:-2]}) == [
        {"op": "remove", "path": "/table/15"},
        {"op": "remove", "path": "/table/14"},
    ]
    assert make_patch({"table": table}, {"table": []}) == [
        {"op": "replace", "path": "/table", "value": []}
    ], "a cleared table is one replace, not sixteen removes"


def test_a_list_filled_from_empty_or_emptied_is_one_replace() -> None:
    """After every move the seat now to move gets its legal moves and the mover's go:
    one operation each, however many moves there are."""
    legal = [{"card": c, "take": [], "kind": "creep"} for c in ("2C", "5H", "9S", "KD")]
    assert make_patch({"legal": []}, {"legal": legal}) == [
        {"op": "replace", "path": "/legal", "value": legal}
    ]
    assert make_patch({"legal": legal}, {"legal": []}) == [
        {"op": "replace", "path": "/legal", "value": []}
    ]
    assert make_patch({"log": []}, {"log": ["7H"]}) == [
        {"op": "add", "path": "/log/0", "value": "7H"}
    ], "a single entry stays an add"
