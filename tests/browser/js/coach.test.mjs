// Unit tests of reading the coach's analysis (static/js/ui/coachplays.js): which play
// a replay step shows, a seat's mistakes, and the verdict on a pick in "learn from
// your mistakes"; `node --test tests/browser/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { playOfStep, mistakesOf, sameMove, verdict, whyOf } from "../../../static/js/ui/coachplays.js";

const play = (index, seat, label, expected, best) => ({ index, seat, card: `${index + 2}H`, take: [], expected, label, loss: expected - best.expected, best });
const analysis = {
  status: "done",
  thresholds: { inaccuracy: 0.5, mistake: 1.5, blunder: 3 },
  plays: [
    play(0, 0, "none", 4, { card: "2H", take: [], expected: 4 }),
    play(1, 1, "mistake", 6, { card: "9S", take: ["4D", "5C"], expected: 4 }),
    play(2, 0, "blunder", 9, { card: "KS", take: [], expected: 5 }),
    play(3, 1, "inaccuracy", 5, { card: "QS", take: [], expected: 4.4 }),
    play(4, 1, "blunder", 8, { card: "JS", take: [], expected: 3 }),
  ],
};

test("step k shows the k-th play; step 0 (as dealt) and an analysis not done show none", () => {
  assert.equal(playOfStep(analysis, 0), null);
  for (let k = 1; k <= 5; k++) assert.equal(playOfStep(analysis, k).index, k - 1);
  assert.equal(playOfStep(analysis, 6), null);
  assert.equal(playOfStep({ status: "running", done: 1, total: 5 }, 1), null);
});

test("a seat's mistakes are its mistakes and blunders, in the order played, never another seat's", () => {
  assert.deepEqual(mistakesOf(analysis, 1).map((p) => p.index), [1, 4]);
  assert.deepEqual(mistakesOf(analysis, 0).map((p) => p.index), [2]);
  assert.deepEqual(mistakesOf(analysis, 2), []);
  assert.deepEqual(mistakesOf({ status: "queued" }, 1), []);
});

test("the same move whatever order its take is listed in", () => {
  assert.ok(sameMove({ card: "9S", take: ["5C", "4D"] }, { card: "9S", take: ["4D", "5C"] }));
  assert.ok(!sameMove({ card: "9S", take: ["4D"] }, { card: "9S", take: ["4D", "5C"] }));
  assert.ok(!sameMove({ card: "9C", take: [] }, { card: "9S", take: [] }));
});

test("verdict: the best move, or one within the mildest threshold of it, is as good as the best", () => {
  const p = analysis.plays[1];
  assert.equal(verdict(p, { card: "9S", take: ["5C", "4D"], expected: 4 }, analysis.thresholds), "best");
  assert.equal(verdict(p, { card: "3S", take: [], expected: 4.4 }, analysis.thresholds), "best");
  assert.equal(verdict(p, { card: "3S", take: [], expected: 4.5 }, analysis.thresholds), "better");
  assert.equal(verdict(p, { card: "3S", take: [], expected: 5.9 }, analysis.thresholds), "better");
  assert.equal(verdict(p, { card: "3S", take: [], expected: 6 }, analysis.thresholds), "not_better");
  assert.equal(verdict(p, { card: "3S", take: [], expected: 7 }, analysis.thresholds), "not_better");
});

const side = (odds, points, seat) => ({ odds, points, seat });
const why = (part, played, best, team = false) => ({ part, points: 3, played, best, team, line: [{ seat: 1, card: "7C", kind: "sweep", take: ["7H"], odds: 0.4 }] });

test("a play that lost points reads its reason: the text key, the figures of both moves, who", () => {
  const lost = { loss: 3.2, why: why("sweeps", side(0.41, 2.1, 0), side(0, 0, null)) };
  const w = whyOf(lost);
  assert.deepEqual([w.key, w.p, w.q, w.a, w.b, w.seat], ["coach_why_sweeps", 0.41, 0, 2.1, 0, 0]);
  assert.equal(w.line.length, 1);
  // a conceded sweep names the one who sweeps after the best play
  assert.equal(whyOf({ loss: 5, why: why("conceded", side(0, 0, null), side(1, -5, 1)) }).seat, 1);
  // a team's captures under V1 have their own text; a named sweeper needs none
  assert.equal(whyOf({ loss: 2, why: why("captures", side(0.5, 2, null), side(0.1, 0.3, null), true) }).key, "coach_why_captures_team");
  assert.equal(whyOf({ loss: 2, why: why("sweeps", side(0.5, 2, 2), side(0, 0, null), true) }).key, "coach_why_sweeps");
});

test("no reason for a play that lost nothing, an older analysis without reasons, or an unknown one", () => {
  assert.equal(whyOf({ loss: 0, why: null }), null);
  assert.equal(whyOf({ loss: 2 }), null);
  assert.equal(whyOf({ loss: 2, why: why("moonphase", side(1, 1, null), side(0, 0, null)) }), null);
});
