// The rule facts the client shows, as the server's engine works them out
// (docs/protocol.md, HTTP): the catalogue of rule options with the variants,
// the bot levels and the standard opening deal (GET /api/rules), the opening
// deal and packets of any rule set (GET /api/rules/deal), the tutorial's deal
// (GET /api/tutorial).  Nothing here knows a rule; each answer is fetched once
// per page load and kept (a failed fetch is tried again next time).
import * as api from "./api.js";

const kept = {};

function once(key, load) {
  if (!kept[key]) {
    kept[key] = load().catch((err) => {
      delete kept[key];
      throw err;
    });
  }
  return kept[key];
}

/** The catalogue of GET /api/rules. */
export const loadCatalogue = () => once("catalogue", api.getRules);

/** GET /api/rules/deal for these rule options: {rules, deals: [{players, hand, table, packets, ...}]}. */
export function loadDeals(rules = {}) {
  const chosen = Object.keys(rules)
    .filter((k) => rules[k] !== null && rules[k] !== undefined && rules[k] !== false)
    .sort()
    .map((k) => [k, String(rules[k])]);
  return once(`deal?${new URLSearchParams(chosen)}`, () => api.getDealFacts(chosen));
}

/** The tutorial of GET /api/tutorial. */
export const loadTutorial = () => once("tutorial", api.getTutorial);

/** The deal-scope options of `rules` that the catalogue allows for `players` (what shapes a deal). */
export function dealRules(cat, rules, players) {
  const out = {};
  for (const o of cat ? cat.options : []) {
    const value = rules[o.name];
    if (o.scope === "deal" && value !== undefined && value !== null && value !== false && o.players.includes(players)) out[o.name] = value;
  }
  return out;
}

/** Packet sizes in short: [8, 8, 8, 4] -> "3 × 8 + 4". */
export function packetsText(sizes) {
  const runs = [];
  for (const s of sizes || []) {
    const last = runs[runs.length - 1];
    if (last && last.size === s) last.count += 1;
    else runs.push({ size: s, count: 1 });
  }
  return runs.map((r) => (r.count > 1 ? `${r.count} × ${r.size}` : String(r.size))).join(" + ");
}
