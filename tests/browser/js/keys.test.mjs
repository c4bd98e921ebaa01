// Unit tests of the table's key map (static/js/ui/keys.js): key -> action, given the
// hand, the chooser and the legal moves; `node --test tests/browser/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyLabel, indexOfKey, keyAction, onlyMove, isTyping } from "../../../static/js/ui/keys.js";
import { SHORTCUTS } from "../../../static/js/ui/shortcuts.js";

const press = (key, more = {}) => ({ key, code: "", ctrl: false, alt: false, meta: false, typing: false, dialog: false, onCard: false, free: true, ...more });

test("labels: 1-9, 0 for the tenth, then letters; each label names its own position", () => {
  assert.deepEqual([0, 1, 8, 9, 10, 11, 12].map(keyLabel), ["1", "2", "9", "0", "a", "b", "c"]);
  for (let i = 0; i < 36; i++) assert.equal(indexOfKey(keyLabel(i), ""), i);
  assert.equal(keyLabel(36), "");
});

test("the digit row by its physical key (a layout that needs Shift for digits) and the number pad", () => {
  assert.equal(indexOfKey("&", "Digit1"), 0); // French AZERTY, no Shift
  assert.equal(indexOfKey("à", "Digit0"), 9);
  assert.equal(indexOfKey("3", "Numpad3"), 2);
  assert.equal(indexOfKey("C", "KeyC"), 12);
  assert.equal(indexOfKey("Enter", "Enter"), -1);
  assert.equal(indexOfKey("é", "Quote"), -1);
});

test("a number selects the n-th card of the hand and never plays it", () => {
  const ctx = { hand: 6, options: 0, only: null };
  assert.deepEqual(keyAction(press("1"), ctx), { type: "select", index: 0 });
  assert.deepEqual(keyAction(press("6"), ctx), { type: "select", index: 5 });
  assert.equal(keyAction(press("7"), ctx), null); // no 7th card
  assert.equal(keyAction(press("0"), ctx), null);
  assert.deepEqual(keyAction(press("0"), { ...ctx, hand: 10 }), { type: "select", index: 9 });
  assert.deepEqual(keyAction(press("b"), { ...ctx, hand: 13 }), { type: "select", index: 11 });
  assert.equal(keyAction(press("b"), ctx), null);
});

test("with the chooser open a number plays that option; Esc closes it", () => {
  const ctx = { hand: 6, options: 3, only: null };
  assert.deepEqual(keyAction(press("2"), ctx), { type: "choose", index: 1 });
  assert.equal(keyAction(press("4"), ctx), null);
  assert.deepEqual(keyAction(press("Escape"), ctx), { type: "cancel" });
  assert.equal(keyAction(press("Escape"), { ...ctx, options: 0 }), null);
});

test("Enter: the focused button's own; else the single legal move; else back to the hand", () => {
  const one = { hand: 4, options: 0, only: "7H" };
  assert.equal(keyAction(press("Enter", { onCard: true }), one), null);
  assert.equal(keyAction(press("Enter", { onButton: true }), one), null);
  assert.deepEqual(keyAction(press("Enter"), one), { type: "play-only" });
  assert.deepEqual(keyAction(press("Enter"), { ...one, only: null }), { type: "focus" });
  assert.equal(keyAction(press("Enter"), { ...one, options: 2 }), null);
  assert.equal(keyAction(press("Enter", { free: false }), one), null); // e.g. on the chat's list
});

test("arrows move between cards, or bring the focus to the hand", () => {
  const ctx = { hand: 4, options: 0, only: null };
  assert.deepEqual(keyAction(press("ArrowRight", { onCard: true }), ctx), { type: "move", delta: 1 });
  assert.deepEqual(keyAction(press("ArrowUp", { onCard: true }), ctx), { type: "move", delta: -1 });
  assert.deepEqual(keyAction(press("ArrowLeft"), ctx), { type: "focus" });
  assert.equal(keyAction(press("ArrowDown", { free: false }), ctx), null); // scrolling the log or chat
  assert.equal(keyAction(press("ArrowDown", { onButton: true }), ctx), null);
});

test("? shows the shortcuts; nothing fires while typing, with a modifier or under a dialog", () => {
  const ctx = { hand: 4, options: 2, only: "7H" };
  assert.deepEqual(keyAction(press("?"), ctx), { type: "help" });
  for (const key of ["1", "?", "Enter", "Escape", "ArrowLeft", "a"]) {
    assert.equal(keyAction(press(key, { typing: true }), ctx), null, key);
    assert.equal(keyAction(press(key, { dialog: true }), ctx), null, key);
    assert.equal(keyAction(press(key, { ctrl: true }), ctx), null, key);
    assert.equal(keyAction(press(key, { meta: true }), ctx), null, key);
  }
});

test("the single legal move is read from the view's legal list, twins counted once", () => {
  assert.equal(onlyMove([]), null);
  assert.equal(onlyMove(undefined), null);
  assert.equal(onlyMove([{ card: "5S", take: [] }]), "5S");
  assert.equal(onlyMove([{ card: "5S", take: ["2H", "3H"] }, { card: "5S", take: ["3H", "2H"] }]), "5S");
  assert.equal(onlyMove([{ card: "5S", take: ["5H"] }, { card: "5S", take: [] }]), null);
  assert.equal(onlyMove([{ card: "5S", take: [] }, { card: "6S", take: [] }]), null);
});

test("what takes typed text", () => {
  const el = (tagName, type, isContentEditable = false) => ({ tagName, type, isContentEditable });
  assert.equal(isTyping(el("INPUT", "text")), true);
  assert.equal(isTyping(el("INPUT", "search")), true);
  assert.equal(isTyping(el("TEXTAREA")), true);
  assert.equal(isTyping(el("DIV", undefined, true)), true);
  assert.equal(isTyping(el("INPUT", "checkbox")), false);
  assert.equal(isTyping(el("BUTTON", "button")), false);
  assert.equal(isTyping(null), false);
});

test("the shortcuts dialog names every key the map knows", () => {
  const shown = SHORTCUTS.flatMap(([keys]) => keys).join(" ");
  for (const k of ["1–9", "0", "A", "←", "→", "Enter", "Esc", "?"]) assert.ok(shown.includes(k), k);
});
