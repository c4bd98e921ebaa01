"""The client's turn planner (clients/python/src/krypkasino_client/turns.py): one move
per turn, the same play (same id) again after a lost connection, a refused move asked
for again a few times and then the first legal move, and never a loop."""

from __future__ import annotations

from typing import Any

from krypkasino_client import LegalMove, Move, View
from krypkasino_client.turns import Planner

LEGAL = [
    {"card": "9D", "take": ["2H", "7S"], "kind": "capture", "points": 0, "sweep": 0},
    {"card": "4C", "take": [], "kind": "creep", "points": 0, "sweep": 0},
]


def view(plays: int = 0, *, to_move: int = 1, between: Any = None, **extra: Any) -> View:
    """A seat's view with what the planner reads (seat 1, match 1, deal 1)."""
    return View(
        {
            "you": 1,
            "status": "playing",
            "to_move": to_move,
            "match_no": 1,
            "deal_no": 1,
            "log": [{"seat": 0, "card": "2C", "kind": "creep", "taken": []}] * plays,
            "legal": LEGAL if to_move == 1 else [],
            "between": between,
            **extra,
        }
    )


def test_one_play_per_turn_and_the_same_one_again_after_a_reconnect() -> None:
    asked: list[View] = []

    def choose(v: View) -> Move:
        asked.append(v)
        return Move("4C")

    planner = Planner(choose)
    first = planner.play(view())
    assert first is not None and first.move == Move("4C")
    assert planner.play(view()) is None, "sent already: nothing more for this turn"
    planner.new_connection()
    again = planner.play(view())
    assert again is not None and (again.id, again.move) == (first.id, first.move)
    planner.acked(first.id)
    planner.acked(first.id)
    assert planner.committed == 1, "an ack counts once"
    planner.new_connection()
    assert planner.play(view()) is None, "acknowledged: not sent again"
    nxt = planner.play(view(plays=3))
    assert nxt is not None and nxt.id != first.id
    assert len(asked) == 2
    assert planner.play(view(plays=4, to_move=0)) is None, "not this seat's turn"


def test_a_refused_move_is_chosen_again_a_few_times_then_the_first_legal_then_nothing() -> None:
    planner = Planner(lambda v: Move("4C"), max_refusals=2)
    ids = []
    for _ in range(2):
        pending = planner.play(view())
        assert pending is not None and pending.move == Move("4C")
        ids.append(pending.id)
        assert planner.refused(pending.id, "must_capture") == "rechoose"
    fallback = planner.play(view())
    assert fallback is not None and fallback.move == Move("9D", ("2H", "7S"))
    assert planner.fallbacks == 1
    assert planner.refused(fallback.id, "not_your_turn") == "rechoose"
    assert planner.play(view()) is None, "the turn is left to the server's clock"
    assert len({*ids, fallback.id}) == 3, "every new move has a new id"
    assert planner.refused("someone-else", "must_capture") is None
    assert planner.play(view(plays=1)) is not None, "the next turn is played again"


def test_nothing_happened_errors_send_the_same_play_again_a_few_times() -> None:
    planner = Planner(lambda v: Move("4C"), max_resends=2)
    pending = planner.play(view())
    assert pending is not None
    for code in ("unavailable", "rate_limited"):
        assert planner.refused(pending.id, code) == "resend"
        again = planner.play(view())
        assert again is not None and again.id == pending.id
    assert planner.refused(pending.id, "busy") == "rechoose", "not for ever"


def test_a_bot_that_fails_or_answers_an_illegal_move_still_plays_a_legal_one() -> None:
    def broken(v: View) -> Move:
        raise RuntimeError("bug in the bot")

    pending = Planner(broken).play(view())
    assert pending is not None and pending.move == Move("9D", ("2H", "7S"))
    pending = Planner(lambda v: Move("AS")).play(view())
    assert pending is not None and pending.move == Move("9D", ("2H", "7S"))
    legal_in_another_order = Planner(lambda v: Move("9D", ("7S", "2H"))).play(view())
    assert legal_in_another_order is not None
    assert legal_in_another_order.move == Move("9D", ("7S", "2H")), "takes in any order"
    first = LegalMove.from_json(LEGAL[0])
    from_legal = Planner(lambda v: first).play(view())
    assert from_legal is not None and from_legal.move == first.move


def test_continue_between_deals_once_and_deal_shown_once_per_connection() -> None:
    planner = Planner(lambda v: Move("4C"))
    waiting = view(to_move=0, between={"ready": [0], "deadline": 1})
    waiting = View({**waiting.raw, "to_move": None})
    assert planner.prompts(waiting) == [{"type": "continue"}]
    assert planner.prompts(waiting) == []
    ready = View({**waiting.raw, "between": {"ready": [0, 1], "deadline": 1}})
    assert planner.prompts(ready) == []
    dealt = view(to_move=0, deal_no=2)
    shown = {"type": "deal_shown", "match_no": 1, "deal_no": 2}
    assert planner.prompts(dealt) == [shown]
    assert planner.prompts(dealt) == []
    planner.new_connection()
    assert planner.prompts(dealt) == [shown]
    assert planner.prompts(View({**dealt.raw, "status": "finished"})) == []


def test_a_play_seen_in_the_view_before_its_ack_counts_once() -> None:
    planner = Planner(lambda v: Move("4C"))
    pending = planner.play(view(plays=2))
    assert pending is not None
    mine = {"seat": 1, "card": "4C", "kind": "creep", "taken": []}
    other = {"seat": 0, "card": "2C", "kind": "creep", "taken": []}
    planner.seen(View({**view(plays=2).raw, "log": [other, other, other], "to_move": 0}))
    assert planner.committed == 0, "someone else's play"
    planner.seen(View({**view(plays=2).raw, "log": [other, other, mine], "to_move": 0}))
    planner.acked(pending.id)
    assert planner.committed == 1
