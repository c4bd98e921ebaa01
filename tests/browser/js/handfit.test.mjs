// Unit tests of static/js/ui/handfit.js, the hand's fit to its width (issue 33):
// `node --test tests/browser/js/`.  The browser tests (test_one_screen.py) measure the
// same on screen, with taps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitHand, cardPlace, MIN_STRIP } from "../../../static/js/ui/handfit.js";

test("cards that fit side by side do not overlap", () => {
  const fit = fitHand(6, 980, 96, 10);
  assert.deepEqual(fit, { cols: 6, rows: 1, step: 106, hit: 96, cw: 96 });
});

test("the default phone hand overlaps in one row, each strip at least 44 px", () => {
  const fit = fitHand(6, 345, 62, 6);
  assert.equal(fit.rows, 1);
  assert.ok(fit.step >= MIN_STRIP && fit.step < 62, fit.step);
  assert.ok((fit.cols - 1) * fit.step + fit.cw <= 345);
});

test("every hand from 1 to 13 cards fits 300 to 1000 px with strips of 44 px or more", () => {
  for (let width = 300; width <= 1000; width += 7) {
    for (let n = 1; n <= 13; n++) {
      const fit = fitHand(n, width, 62, 6);
      assert.ok(fit.cols * fit.rows >= n, `${n} in ${width}`);
      assert.ok(fit.hit >= MIN_STRIP, `${n} in ${width}: ${fit.hit}`);
      if (fit.cols > 1) assert.ok((fit.cols - 1) * fit.step + fit.cw <= width + 1e-9, `${n} in ${width}`);
      // As few rows as the strips allow: one row fewer would need narrower strips.
      if (fit.rows > 1) {
        const fewer = Math.ceil(n / (fit.rows - 1));
        assert.ok((width - 62) / (fewer - 1) < MIN_STRIP, `${n} in ${width}: ${fit.rows} rows`);
      }
    }
  }
});

test("thirteen cards on a phone take two rows, the shorter one centred", () => {
  const fit = fitHand(13, 345, 62, 6);
  assert.equal(fit.rows, 2);
  assert.equal(fit.cols, 7);
  assert.equal(cardPlace(fit, 13, 0).shift, 0);
  assert.equal(cardPlace(fit, 13, 7).row, 1);
  assert.equal(cardPlace(fit, 13, 7).shift, fit.step / 2);
});

test("a width narrower than one card gives one card a row", () => {
  const fit = fitHand(3, 40, 62, 6);
  assert.equal(fit.cols, 1);
  assert.equal(fit.rows, 3);
});
