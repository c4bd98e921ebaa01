// Reading the coach's analysis of a deal (issue 31): which play a replay step shows,
// a seat's mistakes, how a pick in "learn from your mistakes" compares.  Pure
// functions over the server's analysis object, no DOM (tests/browser/js/coach.test.mjs).

/** The labels, mildest first (the server's names). */
export const LABELS = ["inaccuracy", "mistake", "blunder"];
/** What "learn from your mistakes" goes through. */
export const LEARN_LABELS = ["mistake", "blunder"];

/** The analysed play that step `step` of the replay shows (step k is the k-th play). */
export const playOfStep = (analysis, step) =>
  analysis && analysis.status === "done" && step > 0 ? analysis.plays.find((p) => p.index === step - 1) || null : null;

/** A seat's plays the coach labelled a mistake or a blunder, in the order played. */
export const mistakesOf = (analysis, seat) =>
  analysis && analysis.status === "done" ? analysis.plays.filter((p) => p.seat === seat && LEARN_LABELS.includes(p.label)) : [];

const takeKey = (m) => [...(m.take || [])].sort().join(" ");

/** The same card and the same take (in any order). */
export const sameMove = (a, b) => a.card === b.card && takeKey(a) === takeKey(b);

/**
 * How a pick compares with the play made: "best" when it is the best move or loses
 * less than the mildest label's threshold against it (the coach would not mark it),
 * "better" when it still beats the play made, else "not_better".
 */
export function verdict(play, pick, thresholds) {
  const slack = (thresholds && thresholds.inaccuracy) || 0;
  if (sameMove(pick, play.best) || pick.expected - play.best.expected < slack) return "best";
  if (pick.expected < play.expected) return "better";
  return "not_better";
}

/** The reasons the server gives (app/coach/reason.py), each with its text key. */
export const WHY_PARTS = ["sweeps", "conceded", "captures", "award", "later"];
const TEAM_PARTS = ["captures", "award", "later"];

/**
 * What the verdict of a play that lost points says about why (issue 47): the text key
 * of its reason, the figures after the play made (`p` the share of the deals tried,
 * `a` the mean points) and after the best one (`q`, `b`), the seat the reason names
 * (the sweeper for a sweep; else null: the player), and the likely continuation.
 * Null for a play that lost nothing, an analysis made before reasons were given, or a
 * reason this client does not know.
 */
export function whyOf(play) {
  const w = play && play.why;
  if (!w || !(play.loss > 0) || !WHY_PARTS.includes(w.part)) return null;
  const team = !!w.team && TEAM_PARTS.includes(w.part);
  const first = w.part === "conceded" ? [w.best.seat, w.played.seat] : [w.played.seat, w.best.seat];
  const seat = first.find((s) => Number.isInteger(s));
  return {
    part: w.part,
    key: `coach_why_${w.part}${team ? "_team" : ""}`,
    p: w.played.odds,
    q: w.best.odds,
    a: w.played.points,
    b: w.best.points,
    seat: seat === undefined ? null : seat,
    line: w.line || [],
  };
}
