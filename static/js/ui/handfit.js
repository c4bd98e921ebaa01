// How the player's hand fits the width it is given (issue 33): side by side
// when there is room, else overlapped like a held fan, each card keeping a
// strip wide enough to tap (MIN_STRIP px), else in as few overlapped rows as
// that allows.  The stylesheet sets the card width and the gap (--cw-hand,
// --hand-gap, plain px); this module only computes the columns and the step.
import { useState, useLayoutEffect } from "../html.js";

/** The narrowest part of a card left uncovered: a comfortable finger's width. */
export const MIN_STRIP = 44;

/**
 * The layout of `n` cards of width `cw` in `width` px with `gap` px between
 * cards that do not overlap: `cols` cards a row, `rows` rows, `step` px from
 * one card's left edge to the next one's, and `hit`, the width of a card's
 * part that is its own (the whole card when nothing overlaps).
 */
export function fitHand(n, width, cw, gap, minStrip = MIN_STRIP) {
  const count = Math.max(1, n);
  const room = Math.max(width, cw);
  for (let rows = 1; rows <= count; rows++) {
    const cols = Math.ceil(count / rows);
    if (cols === 1) break;
    const step = Math.min(cw + gap, (room - cw) / (cols - 1));
    if (step >= minStrip) return layout(count, cols, Math.floor(step * 100) / 100, cw);
  }
  return layout(count, 1, cw + gap, cw);
}

function layout(n, cols, step, cw) {
  return { cols, rows: Math.ceil(n / cols), step, hit: Math.min(step, cw), cw };
}

/** Where card `i` sits: its row, and how far a short last row is moved to stay centred. */
export function cardPlace(fit, n, i) {
  const row = Math.floor(i / fit.cols);
  const inLast = n - (fit.rows - 1) * fit.cols;
  const shift = row === fit.rows - 1 && inLast < fit.cols ? ((fit.cols - inLast) * fit.step) / 2 : 0;
  return { row, shift };
}

const px = (el, name, fallback) => {
  const v = parseFloat(getComputedStyle(el).getPropertyValue(name));
  return Number.isFinite(v) ? v : fallback;
};

/**
 * The fit of an `n`-card hand in the element `ref` points at, measured before
 * the browser paints and again whenever the element's width changes (a turned
 * phone, the capture chooser opening beside the hand).
 */
export function useHandFit(ref, n) {
  const [fit, setFit] = useState(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => {
      const cs = getComputedStyle(el);
      const width = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const next = fitHand(n, width, px(el, "--cw-hand", 62), px(el, "--hand-gap", 8));
      setFit((old) => (old && old.cols === next.cols && old.step === next.step && old.cw === next.cw ? old : next));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return undefined;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref.current, n]);
  return fit;
}
