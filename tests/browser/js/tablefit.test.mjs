// Unit tests of static/js/ui/tablefit.js, the table cards' fit to the felt (issue 47):
// `node --test tests/browser/js/`.  The browser test (test_fit_whole_deals.py) measures
// the same on screen through whole deals at three sizes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitTable, MIN_CARD, RATIO } from "../../../static/js/ui/tablefit.js";

/** Whether `n` cards `cw` wide lie in `width` x `height` in whole rows. */
function fits(n, cw, width, height, gap) {
  const cols = Math.max(1, Math.floor((width + gap) / (cw + gap)));
  const rows = Math.ceil(n / cols);
  return rows * cw * RATIO + (rows - 1) * gap <= height;
}

test("a roomy felt keeps the stylesheet's card", () => {
  assert.equal(fitTable(6, 960, 300, 84, 9), 84);
});

test("a low felt shrinks the cards to one row's height", () => {
  const cw = fitTable(4, 960, 100, 84, 9);
  assert.ok(cw < 84 && fits(4, cw, 960, 100, 9), cw);
  assert.ok(!fits(4, cw + 1, 960, 100, 9), "the widest card that fits");
});

test("every table of 1 to 20 cards gets the widest card that fits, 120 to 400 px high", () => {
  for (let height = 120; height <= 400; height += 13) {
    for (const width of [330, 520, 960]) {
      for (let n = 1; n <= 20; n++) {
        const cw = fitTable(n, width, height, 84, 6);
        assert.ok(cw >= MIN_CARD && cw <= 84, `${n} in ${width}x${height}: ${cw}`);
        if (cw > MIN_CARD) assert.ok(fits(n, cw, width, height, 6), `${n} in ${width}x${height}: ${cw}`);
        if (cw < 84) assert.ok(!fits(n, cw + 1, width, height, 6), `${n} in ${width}x${height}: ${cw} is not the widest`);
      }
    }
  }
});

test("no room at all gives the narrowest card, never less", () => {
  assert.equal(fitTable(20, 100, 10, 84, 6), MIN_CARD);
});
