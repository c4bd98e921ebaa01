// The keys that ask without moving (issue 50, static/js/ui/keys.js ASK_KEYS) and the
// capture options read as sums (static/js/ui/ask.js); `node --test tests/browser/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyAction, ASK_KEYS } from "../../../static/js/ui/keys.js";
import { SHORTCUTS } from "../../../static/js/ui/shortcuts.js";
import { groupsOf, handValue, tableValue } from "../../../static/js/ui/ask.js";

const press = (key, more = {}) => ({ key, code: "", ctrl: false, alt: false, meta: false, shift: false, typing: false, dialog: false, onCard: false, free: true, ...more });

test("Shift with H, T, S, L, D, W, O asks; the same letters without Shift still pick cards", () => {
  const ctx = { hand: 36, options: 0, only: null };
  for (const [letter, what] of Object.entries(ASK_KEYS)) {
    assert.deepEqual(keyAction(press(letter, { shift: true }), ctx), { type: "ask", what });
    assert.deepEqual(keyAction(press(letter, { shift: true, onCard: true }), ctx), { type: "ask", what });
    assert.notEqual(keyAction(press(letter.toLowerCase()), ctx).type, "ask");
  }
  assert.deepEqual(keyAction(press("O", { shift: true }), { ...ctx, options: 3 }), { type: "ask", what: "options" });
  // Never while typing, nor under a dialog, nor with Ctrl/Alt/Meta.
  assert.equal(keyAction(press("H", { shift: true, typing: true }), ctx), null);
  assert.equal(keyAction(press("H", { shift: true, dialog: true }), ctx), null);
  assert.equal(keyAction(press("H", { shift: true, ctrl: true }), ctx), null);
});

test("the shortcuts dialog lists every ask key", () => {
  const listed = SHORTCUTS.flatMap(([keys]) => keys);
  for (const letter of Object.keys(ASK_KEYS)) assert.ok(listed.includes(`Shift+${letter}`), letter);
});

test("capture options split into groups that add up to the card (RULES.md R1.4, R3.3)", () => {
  assert.equal(handValue("AS"), 14);
  assert.equal(tableValue("AS"), 1);
  assert.equal(handValue("KD"), 13);
  assert.deepEqual(groupsOf(8, ["8S", "AH", "7S", "2D", "6C"]), [["8S"], ["7S", "AH"], ["6C", "2D"]]);
  assert.deepEqual(groupsOf(14, ["10S", "4H"]), [["10S", "4H"]]);
  assert.deepEqual(groupsOf(14, ["8C", "4H", "2D"]), [["8C", "4H", "2D"]]);
  assert.equal(groupsOf(9, ["5S", "4H", "3C"]), null); // not a capture: read as a plain list
});
