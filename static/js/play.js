// What the player may pick, read from view.legal (the server's list of every
// legal move).  Nothing here decides legality: it groups the server's moves
// by card and describes each one (creep, capture, sweep, its card points) so
// the screen can show the choice.
import { cardPoints } from "./cards.js";

/** Describe one legal move: kind and the card points it would bring. */
export function describeMove(view, move) {
  const take = move.take || [];
  const table = view.table || [];
  let kind = "creep";
  if (take.length) {
    kind = take.length === table.length ? "sweep" : "capture";
    if (kind === "sweep" && table.length === 1 && take[0] === move.card && !move.card.startsWith("A")) {
      kind = "double_sweep";
    }
  }
  const nordic = !!(view.rules && view.rules.nordic);
  const points = take.length ? [move.card, ...take].reduce((s, c) => s + cardPoints(c, nordic), 0) : 0;
  const sweep = kind === "sweep" ? 5 : kind === "double_sweep" ? 10 : 0;
  return { card: move.card, take, kind, points, sweep };
}

/** The distinct legal moves of one card (twins in hand give equal moves). */
export function optionsFor(view, card) {
  const seen = new Set();
  const out = [];
  for (const move of view.legal || []) {
    if (move.card !== card) continue;
    const key = [...(move.take || [])].sort().join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(describeMove(view, move));
  }
  // Cheapest first: that is the order a careful player reads them in.
  out.sort((a, b) => a.points + a.sweep - (b.points + b.sweep) || a.take.length - b.take.length);
  return out;
}

/** Card codes that may be played now. */
export function legalCards(view) {
  return new Set((view.legal || []).map((m) => m.card));
}

/** True when every legal move takes the whole table: a forced sweep (R4.1). */
export function isForcedSweep(view) {
  const legal = view.legal || [];
  const table = view.table || [];
  if (!legal.length || !table.length) return false;
  return legal.every((m) => (m.take || []).length === table.length);
}

export const isMyTurn = (view) => view && view.you !== null && view.you !== undefined && view.to_move === view.you;
