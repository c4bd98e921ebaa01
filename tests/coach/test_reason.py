"""Why the coach rates a play as it does (issue 47, app/coach/reason.py): the
consequence a player can check, with its odds over the sampled worlds, and the
likely continuation; the same for two deals that differ only in cards the player
could not see; and as the analysis serves it."""

from __future__ import annotations

import json
import random
import statistics

from app.coach import worlds
from app.coach.rating import Settings, rate_play, sample_values
from app.coach.reason import PARTS, outcome, side_of
from app.coach.report import analyse, opening, play_json
from app.engine.deal import Deal
from tests.bots.helpers import position, twin_deals

from .helpers import bot_deal

QUICK = Settings(samples=16, max_samples=32, prune_after=4, prune_every=2)


def creep(deal: Deal, card: str):  # noqa: ANN201 - a LegalMove
    return next(m for m in deal.legal() if m.card == card and not m.take)


def test_a_creep_onto_an_empty_table_that_leads_to_a_sweep_says_so_with_its_odds() -> None:
    # Last packet (no stock), the table empty: seat 0 creeps a seven while holding the
    # other seven, so whenever the others leave that seven alone it must sweep it on
    # its next turn (R4.1, +5 to it, R4.2).  Creeping the king sweeps nothing.
    deal = position([["7H", "7S", "KD"], ["3C", "4D", "9H"], ["2C", "5D", "8S"]], [])
    rating = rate_play(deal, 0, creep(deal, "7H"), "1", QUICK)
    assert rating.best.card == "KD" and rating.loss > 0
    why = rating.why
    assert why is not None and why.part == "sweeps"
    assert why.played.odds > 0 and why.played.seat == 0 and why.played.points > 0
    assert why.best.odds == 0 and why.best.points == 0 and why.best.seat is None
    # the parts add up to the loss: the one that differs most is at least their mean
    assert why.points >= rating.loss / len(PARTS) - 0.01
    # the likely continuation: the next two seats, then seat 0's own next play
    assert [s.seat for s in why.line][:1] == [1]
    assert all(0 < s.odds <= 1 for s in why.line)
    assert [s.odds for s in why.line] == sorted((s.odds for s in why.line), reverse=True)
    # the better move, played, lost nothing: no reason to give
    assert rate_play(deal, 0, creep(deal, "KD"), "1", QUICK).why is None


def test_the_parts_of_a_reason_add_up_to_each_playouts_value() -> None:
    """Sweeps made, sweeps conceded, captures, the end award and the share of what is
    still in play: together the value the coach reckons for the move, world by world."""
    deal = bot_position()
    k = worlds.knowledge(deal.information_set(deal.to_move))
    moves = list(deal.legal())
    traces: dict = {m: [] for m in moves}
    plain = Settings(samples=8, max_samples=8, prune_after=100)
    means, _ = sample_values(k, moves, None, random.Random(3), plain, None, traces)
    side = side_of(deal.rules, deal.players, k.me)
    assert any(outcome(t, k.me, side).parts[-1] != 0 for t in traces[moves[0]])
    for m in moves:
        assert len(traces[m]) == 8
        total = statistics.fmean(sum(outcome(t, k.me, side).parts) for t in traces[m])
        assert abs(total - means[m]) < 1e-9


def bot_position() -> Deal:
    """A mid-deal position of four greedy bots (two rounds of the table: playouts stop
    early, so the share of what is still in play counts)."""
    stored = bot_deal(["greedy"] * 4, seed=2)
    deal = opening(stored)
    for move in stored["moves"][:9]:
        deal.apply(move["card"], move["take"])
    return deal


def test_the_best_play_that_lets_the_next_player_sweep_is_named_with_its_odds() -> None:
    # Two players, an empty table in the last packet: creeping the seven lets seat 1
    # (its only other card is a seven, as every world seat 0 can imagine holds) sweep
    # right after seat 0, which scores -5 for seat 0 (R4.2): that is the best play,
    # and creeping the five gives it up.
    deal = position([["7H", "5S"], ["7C", "4D"]], [])
    rating = rate_play(deal, 0, creep(deal, "5S"), "1", QUICK)
    assert rating.best.card == "7H" and rating.label == "blunder"
    why = rating.why
    assert why is not None and why.part == "conceded"
    assert why.best.odds == 1.0 and why.best.seat == 1 and why.best.points == -5
    assert why.played.odds == 0 and why.played.seat is None
    assert why.line and why.line[0].seat == 1


def test_two_deals_that_differ_only_in_hidden_cards_get_the_same_verdicts_and_reasons() -> None:
    """Every legal move of seat 1, rated in two deals with the same public history whose
    other hands and stock differ: everything but the hindsight (which is the real
    cards' by design) is the same, reasons and continuations included."""
    deal_a, deal_b = twin_deals("coach-reason-hidden", 1, 6)
    assert deal_a.information_set(1) == deal_b.information_set(1)
    assert deal_a.hands != deal_b.hands or deal_a.stock != deal_b.stock
    index = len(deal_a.results)
    reasons = 0
    for move in deal_a.legal():
        a = play_json(rate_play(deal_a, index, move, "4", QUICK))
        b = play_json(rate_play(deal_b, index, move, "4", QUICK))
        a.pop("hindsight")
        b.pop("hindsight")
        assert a == b
        reasons += a["why"] is not None
    assert reasons > 0, "some move lost points: its reason was compared"


def test_the_analysis_serves_a_reason_with_every_play_that_lost_points() -> None:
    stored = bot_deal(["random", "greedy"], seed=11)
    result = analyse(stored, "1", QUICK)
    body = json.loads(json.dumps(result))  # the JSON the API serves
    assert body == result
    players = stored["players"]
    explained = 0
    for play in body["plays"]:
        why = play["why"]
        if play["loss"] == 0:
            assert why is None
            continue
        explained += 1
        assert set(why) == {"part", "points", "played", "best", "team", "line"}
        assert why["part"] in PARTS and why["team"] is False
        assert why["points"] >= play["loss"] / len(PARTS) - 0.02  # the parts sum to the loss
        for side in (why["played"], why["best"]):
            assert set(side) == {"odds", "points", "seat"}
            assert 0 <= side["odds"] <= 1
            assert side["seat"] is None or 0 <= side["seat"] < players
        for step in why["line"]:
            assert set(step) == {"seat", "card", "kind", "take", "odds"}
            assert 0 <= step["seat"] < players and 0 < step["odds"] <= 1
            assert step["kind"] in ("creep", "capture", "sweep", "double_sweep")
            assert isinstance(step["take"], list)
    assert explained > 0, "random play loses points somewhere"
