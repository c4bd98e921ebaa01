"""The coach's rating of plays: one entry per play, losses >= 0, labels by the loss,
an obvious blunder caught, and the same answer for the same seed."""

from __future__ import annotations

from app.coach.labels import THRESHOLDS, label
from app.coach.rating import Settings, rate_play, side_points
from app.coach.report import analyse, opening, rate_range
from app.engine.deal import Deal
from app.engine.rules import RuleSet

from .helpers import bot_deal

QUICK = Settings(samples=8, max_samples=16, prune_after=4, prune_every=2)
ORDER = ["none", "inaccuracy", "mistake", "blunder"]


def test_plays_and_records_line_up_one_to_one() -> None:
    stored = bot_deal(["greedy", "random", "greedy"], seed=3)
    result = analyse(stored, "7", QUICK)
    plays = result["plays"]
    assert len(plays) == len(stored["moves"])
    deal = Deal.from_pack(
        RuleSet.from_dict(stored["rules"]), stored["players"], stored["dealer"], stored["pack"]
    )
    for i, (play, move) in enumerate(zip(plays, stored["moves"], strict=True)):
        assert play["index"] == i
        assert play["seat"] == deal.to_move
        assert (play["card"], sorted(play["take"])) == (move["card"], sorted(move["take"]))
        deal.apply(move["card"], move["take"])
    assert [s["plays"] for s in result["seats"]] == [
        sum(1 for p in plays if p["seat"] == seat) for seat in range(3)
    ]


def test_losses_are_never_negative_and_labels_grow_with_the_loss() -> None:
    stored = bot_deal(["random", "random"], seed=5)
    plays = analyse(stored, "1", QUICK)["plays"]
    assert all(p["loss"] >= 0 for p in plays)
    assert all(
        p["expected"] - p["best"]["expected"] == p["loss"]
        or abs(p["expected"] - p["best"]["expected"] - p["loss"]) < 0.011
        for p in plays
    )
    ranked = sorted(plays, key=lambda p: p["loss"])
    ranks = [ORDER.index(p["label"]) for p in ranked]
    assert ranks == sorted(ranks), "a larger loss never has a milder label"
    assert any(p["label"] != "none" for p in plays), "random play makes mistakes"


def test_the_label_never_falls_as_the_loss_grows() -> None:
    losses = [x / 100 for x in range(0, 1200)]
    ranks = [ORDER.index(label(x)) for x in losses]
    assert ranks == sorted(ranks)
    assert label(0.0) == "none"
    assert label(THRESHOLDS["inaccuracy"]) == "inaccuracy"
    assert label(THRESHOLDS["blunder"]) == "blunder"


def test_sweeping_when_a_safe_creep_was_allowed_is_labelled() -> None:
    # V4 (no forced sweep): seat 0 may sweep 4+5 with its nine (+5 to it, R4.2) or
    # creep the king; the nine then only captures 4+5 from a fuller table, no sweep.
    rules = RuleSet(no_forced_sweep=True)
    deal = Deal.resume(rules, 2, 1, [["9S", "KD"], ["QC", "JC"]], ["4C", "5H"], [], 0)
    skipped = next(m for m in deal.legal() if m.kind == "sweep")
    rating = rate_play(deal, 0, skipped, "1", QUICK)
    assert rating.best.card == "KD"
    assert rating.loss >= THRESHOLDS["mistake"]
    assert rating.label in ("mistake", "blunder")
    safe = next(m for m in deal.legal() if m.card == "KD")
    assert rate_play(deal, 0, safe, "1", QUICK).label == "none"


def test_a_double_sweep_chosen_over_an_ordinary_one_is_labelled() -> None:
    # R4.1, R4.3: the lone 7H must be swept; by its twin it is a double (+10), by the
    # seven of spades an ordinary sweep (+5).
    deal = Deal.resume(RuleSet(), 2, 1, [["7H", "7S"], ["QC", "JC"]], ["7H"], [], 0)
    double = next(m for m in deal.legal() if m.card == "7H")
    rating = rate_play(deal, 0, double, "1", QUICK)
    assert rating.best.card == "7S"
    assert rating.label == "blunder"


def test_the_same_seed_gives_the_same_analysis_however_it_is_chunked() -> None:
    stored = bot_deal(["greedy", "strong"], seed=8)
    whole = rate_range(stored, 0, len(stored["moves"]), "3", QUICK)
    parts = rate_range(stored, 0, 10, "3", QUICK) + rate_range(
        stored, 10, len(stored["moves"]), "3", QUICK
    )
    assert whole == parts


def test_hindsight_is_the_best_move_with_every_card_known() -> None:
    rules = RuleSet(no_forced_sweep=True)
    deal = Deal.resume(rules, 2, 1, [["9S", "KD"], ["QC", "JC"]], ["4C", "5H"], [], 0)
    played = next(m for m in deal.legal() if m.kind == "sweep")
    rating = rate_play(deal, 0, played, "1", QUICK)
    assert (rating.hindsight.card, rating.hindsight.take) == ("KD", ())


def test_expected_points_count_the_points_the_seat_already_has() -> None:
    """A sampled world's deal starts at 0 points: the seat's points so far are added
    once, so at the deal's last play (nothing left hidden) the expected points of the
    move played are the seat's final score, and so are the hindsight's."""
    stored = bot_deal(["greedy", "random", "greedy", "greedy"], seed=5)
    last = rate_range(stored, len(stored["moves"]) - 1, len(stored["moves"]), "1", QUICK)[0]
    before = opening(stored)
    for move in stored["moves"][:-1]:
        before.apply(move["card"], move["take"])
    assert side_points(before, last["seat"]) != 0, "a position where the points so far matter"
    assert last["expected"] == stored["totals"][last["seat"]]
    assert last["hindsight"]["points"] == stored["totals"][last["seat"]]


def test_worlds_weighed_by_the_others_plays_still_give_points_and_the_same_answer() -> None:
    """``belief_weighting`` (an experiment of issue 31): each world counts as much as the
    others' latest plays are likely in it. The numbers are still points (the last play's
    are the final score: nothing is hidden then, every world alike), the same for a seed
    however the deal is split, and the weights change what the coach expects somewhere."""
    weighted = Settings(samples=8, max_samples=8, belief_weighting=0.5)
    plain = Settings(samples=8, max_samples=8, prune_after=10**6)
    stored = bot_deal(["greedy", "greedy", "greedy", "greedy"], seed=6)
    n = len(stored["moves"])
    whole = rate_range(stored, 0, n, "2", weighted)
    assert whole == rate_range(stored, 0, 30, "2", weighted) + rate_range(
        stored, 30, n, "2", weighted
    )
    end = opening(stored)
    for move in stored["moves"]:
        end.apply(move["card"], move["take"])
    assert whole[-1]["expected"] == side_points(end, whole[-1]["seat"])
    unweighted = rate_range(stored, 0, n, "2", plain)
    assert any(a["expected"] != b["expected"] for a, b in zip(whole, unweighted, strict=True))
    assert all(p["loss"] >= 0 for p in whole)
