// What the player may pick, read from view.legal (the server's list of every
// legal move).  Nothing here decides a rule: the server lists each move with
// what it does (kind: creep, capture, sweep, double_sweep), the card points
// it takes and its sweep credit; this groups them by card for the screen.

/** One legal move as the server describes it (kind, points and sweep credit included). */
export function describeMove(move) {
  return {
    card: move.card,
    take: move.take || [],
    kind: move.kind || "creep",
    points: move.points || 0,
    sweep: move.sweep || 0,
  };
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
    out.push(describeMove(move));
  }
  // Cheapest first: that is the order a careful player reads them in.
  out.sort((a, b) => a.points + a.sweep - (b.points + b.sweep) || a.take.length - b.take.length);
  return out;
}

/** Card codes that may be played now. */
export function legalCards(view) {
  return new Set((view.legal || []).map((m) => m.card));
}

/** True when every legal move is a sweep (the server says so): a forced sweep (R4.1). */
export function isForcedSweep(view) {
  const legal = view.legal || [];
  return legal.length > 0 && legal.every((m) => m.kind === "sweep" || m.kind === "double_sweep");
}

export const isMyTurn = (view) => view && view.you !== null && view.you !== undefined && view.to_move === view.you;
