"""Soft inference: a world's regret is how badly it explains the others' latest plays."""

from __future__ import annotations

import random

import pytest

from app.bots import greedy
from app.bots.belief import belief_of, believed_world
from app.bots.knowledge import knowledge_of
from app.engine.deal import Deal
from app.engine.fork import fork
from app.engine.rules import RuleSet
from app.engine.shuffle import shuffled_pack


def greedy_positions(players: int, options: dict[str, bool], seed: str):  # type: ignore[no-untyped-def]
    """Every position of a deal the greedy bot plays for every seat, before each play."""
    rules = RuleSet.from_dict(options)
    deal = Deal.from_pack(rules, players, 0, shuffled_pack(seed, rules.copies))
    while not deal.is_over:
        yield deal
        info = deal.information_set(deal.to_move)
        move = greedy.choose(info, deal.legal())
        deal.play_legal(move.move, move.kind)


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (3, {"nordic": True}), (4, {"partnership": True}), (2, {"picture_pairs": True})],
)
def test_the_true_hands_explain_greedy_plays_and_sampled_ones_often_do_not(players, options):
    """Greedy bots play the greedy cost's best move, so in the real deal every one of
    their plays has regret 0; hands drawn at random often make a play look worse."""
    rng = random.Random(players)
    judged = worse = 0
    for deal in greedy_positions(players, options, f"belief:{players}"):
        k = knowledge_of(deal.information_set(deal.to_move))
        belief = belief_of(k)
        if belief is None:
            continue
        assert any(p.seat != k.me for p in belief.plays), "only others' plays are judged"
        truth = belief.regret([list(h) for h in deal.hands], list(deal.stock))
        assert truth == pytest.approx(0.0, abs=1e-9), "the real deal explains greedy's plays"
        hands, stock = k.info.sample_hidden(rng, k.lacks)
        r = belief.regret(hands, stock)
        assert r >= 0.0
        judged += 1
        worse += r > 0
    assert judged > 10
    assert worse > 0, "some sampled world explains a play worse than the real one"


def test_no_belief_before_anyone_played_from_the_current_hands():
    rules = RuleSet()
    deal = Deal.from_pack(rules, 4, 0, shuffled_pack("belief:start", rules.copies))
    assert belief_of(knowledge_of(deal.information_set(deal.to_move))) is None


def test_believed_worlds_prefer_the_worlds_that_explain_the_plays():
    """With a cold temperature a world is kept only if it explains every play (regret
    0), else the least-regret one of its tries is: on the whole the kept worlds
    explain the plays better than worlds drawn plainly."""
    positions = [
        fork(d) for i, d in enumerate(greedy_positions(4, {}, "belief:kept")) if i % 7 == 3
    ]
    plain_total = kept_total = 0.0
    for n, deal in enumerate(positions):
        k = knowledge_of(deal.information_set(deal.to_move))
        belief = belief_of(k)
        if belief is None:
            continue
        rng = random.Random(n)
        plain = [belief.regret(*k.info.sample_hidden(rng, k.lacks)) for _ in range(8)]
        rng = random.Random(n)
        kept = believed_world(k, belief, rng, temperature=1e-6, tries=8)
        kept_regret = belief.regret(*kept)
        # the first world drawn is the same; the kept one explains the plays at least as well
        assert kept_regret <= plain[0] + 1e-9
        plain_total += sum(plain) / len(plain)
        kept_total += kept_regret
        again = believed_world(k, belief, random.Random(n), temperature=1e-6, tries=8)
        assert again == kept, "deterministic for a seeded rng"
    assert kept_total < plain_total


def test_the_true_hands_make_greedy_plays_likelier_than_sampled_worlds_do():
    """The likelihood counts each play's alternatives (a softmax of the greedy cost, the
    mover judging traps by the cards it could not see then): greedy bots' real hands
    make their plays likelier than hands drawn at random, on the whole and at most
    positions, and no world makes them likelier than certain."""
    rng = random.Random(5)
    judged = truer = 0
    margin = 0.0
    for deal in greedy_positions(4, {}, "belief:likely"):
        k = knowledge_of(deal.information_set(deal.to_move))
        belief = belief_of(k)
        if belief is None:
            continue
        truth = belief.log_likelihood([list(h) for h in deal.hands], list(deal.stock), 0.5)
        drawn = [belief.log_likelihood(*k.info.sample_hidden(rng, k.lacks), 0.5) for _ in range(8)]
        assert truth <= 1e-9 and max(drawn) <= 1e-9, "a probability is at most 1"
        judged += 1
        truer += truth >= sum(drawn) / len(drawn)
        margin += truth - sum(drawn) / len(drawn)
    assert judged > 20
    assert truer > judged * 0.6, (truer, judged)
    assert margin / judged > 0.5, margin / judged


def test_a_colder_temperature_makes_the_evidence_sharper():
    """At a lower temperature the softmax is sharper: the real hands of greedy bots
    stand further above a random world's (greedy plays the cheapest move)."""
    deals = [fork(d) for i, d in enumerate(greedy_positions(4, {}, "belief:cold")) if i % 5 == 2]
    gaps: dict[float, float] = {}
    for temperature in (0.25, 2.0):
        rng = random.Random(9)
        total = 0.0
        for deal in deals:
            k = knowledge_of(deal.information_set(deal.to_move))
            belief = belief_of(k)
            if belief is None:
                continue
            truth = belief.log_likelihood(
                [list(h) for h in deal.hands], list(deal.stock), temperature
            )
            total += truth - belief.log_likelihood(*k.info.sample_hidden(rng, k.lacks), temperature)
        gaps[temperature] = total
    assert gaps[0.25] > gaps[2.0] > 0, gaps
