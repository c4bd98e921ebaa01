// Unit tests of static/js/rulefacts.js (presentation of the server's rule facts) and
// the true minus sign: `node --test tests/browser/js/`.  The facts themselves are the
// server's (GET /api/rules, /api/rules/deal; app/engine/facts.py), checked there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { packetsText, dealRules } from "../../../static/js/rulefacts.js";
import { num } from "../../../static/js/i18n.js";

test("packet sizes in short", () => {
  assert.equal(packetsText([16, 16, 16, 16, 16]), "5 × 16");
  assert.equal(packetsText([12, 12, 12, 12, 12, 12, 12, 4]), "7 × 12 + 4");
  assert.equal(packetsText([8]), "8");
  assert.equal(packetsText([]), "");
});

test("the deal-scope options the catalogue allows for the player count", () => {
  const cat = {
    options: [
      { name: "single_pack", type: "boolean", scope: "deal", players: [2] },
      { name: "four_card_deal", type: "boolean", scope: "deal", players: [2, 3, 4] },
      { name: "tie_break_deal", type: "boolean", scope: "match", players: [2, 3, 4, 5, 6] },
      { name: "match_deals", type: "integer", scope: "match", players: [2, 3, 4, 5, 6] },
    ],
  };
  const ticked = { single_pack: true, four_card_deal: true, tie_break_deal: true, match_deals: 6, nordic: false };
  assert.deepEqual(dealRules(cat, ticked, 3), { four_card_deal: true });
  assert.deepEqual(dealRules(cat, ticked, 2), { single_pack: true, four_card_deal: true });
  assert.deepEqual(dealRules(null, ticked, 2), {});
});

test("negative numbers get a true minus sign", () => {
  assert.equal(num(-5), "\u22125");
  assert.equal(num(5), "5");
  assert.equal(num(0), "0");
});
