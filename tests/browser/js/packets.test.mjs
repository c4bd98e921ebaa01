// Unit tests of static/js/packets.js and the true minus sign: `node --test tests/browser/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { packetMarks, openingHand } from "../../../static/js/packets.js";
import { num } from "../../../static/js/i18n.js";

const plays = (k) => Array.from({ length: k }, () => ({ kind: "creep" }));

test("no packet during the opening round", () => {
  assert.deepEqual(packetMarks({ players: 4, log: plays(19), hand_counts: [1, 0, 0, 0], stock_count: 80 }), []);
});

test("four players: five packets of 16 after the opening 20 plays (R2.6)", () => {
  const marks = packetMarks({ players: 4, log: plays(100), hand_counts: [0, 0, 0, 0], stock_count: 0 });
  assert.deepEqual(marks.map((m) => m.after), [20, 36, 52, 68, 84]);
  assert.deepEqual(marks.map((m) => m.left), [64, 48, 32, 16, 0]);
  assert.deepEqual(marks.map((m) => m.last), [false, false, false, false, true]);
});

test("a packet just dealt is known before its first card is played", () => {
  const marks = packetMarks({ players: 2, log: plays(12), hand_counts: [4, 4], stock_count: 80 });
  assert.deepEqual(marks, [{ after: 12, size: 8, left: 80, last: false }]);
});

test("four-card deal (V7) with a short last packet", () => {
  assert.equal(openingHand(3, { four_card_deal: true }), 4);
  // 3 players: 12 in hands, 4 on the table, 88 in the stock = 7 packets of 12 and one of 4.
  const marks = packetMarks({ players: 3, rules: { four_card_deal: true }, log: plays(100), hand_counts: [0, 0, 0], stock_count: 0 });
  assert.deepEqual(marks.map((m) => m.size), [12, 12, 12, 12, 12, 12, 12, 4]);
  assert.equal(marks[7].after, 96);
});

test("negative numbers get a true minus sign", () => {
  assert.equal(num(-5), "\u22125");
  assert.equal(num(5), "5");
  assert.equal(num(0), "0");
});
