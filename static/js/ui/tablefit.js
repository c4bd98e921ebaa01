// How the table's cards fit the felt (issue 47): the room's felt has the height the
// seats and the hand leave it, on a laptop, a phone and a phone held sideways, and the
// cards on it take the largest width (up to the stylesheet's --cw-table) at which
// all of them lie in that box in whole rows, so none is cut, scrolled away or covered
// by the last play beneath.  Only below MIN_CARD would they scroll inside the box.
import { useState, useLayoutEffect } from "../html.js";

/** The narrowest table card drawn: its rank and suit still read at a glance. */
export const MIN_CARD = 28;
/** A card's height for its width (the faces are 5:7). */
export const RATIO = 1.4;

/**
 * The widest card (whole px, from `max` down to `min`) at which `n` cards with `gap` px
 * between them fit `width` x `height` px in rows; `min` when none does.
 */
export function fitTable(n, width, height, max, gap, min = MIN_CARD) {
  const count = Math.max(1, n);
  for (let cw = Math.floor(max); cw > min; cw--) {
    const cols = Math.max(1, Math.floor((width + gap) / (cw + gap)));
    const rows = Math.ceil(count / cols);
    if (rows * cw * RATIO + (rows - 1) * gap <= height) return cw;
  }
  return min;
}

const px = (v, fallback) => {
  const x = parseFloat(v);
  return Number.isFinite(x) ? x : fallback;
};

/**
 * The card width for `n` cards in the list `ref` points at, measured before the
 * browser paints and again whenever the list's box changes size (a turned phone, a
 * notice under the last play, the pictures set aside above).  The list's box must not
 * depend on its cards (the stylesheet gives it the felt's leftover height), or the
 * cards would shrink it each time; null where the box has no height of its own.
 */
export function useTableFit(ref, n) {
  const [cw, setCw] = useState(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => {
      const cs = getComputedStyle(el);
      if (cs.getPropertyValue("--table-fit").trim() !== "1") {
        setCw(null);
        return;
      }
      const width = el.clientWidth - px(cs.paddingLeft, 0) - px(cs.paddingRight, 0);
      const height = el.clientHeight - px(cs.paddingTop, 0) - px(cs.paddingBottom, 0);
      const gap = px(cs.columnGap, 8);
      const max = px(cs.getPropertyValue("--cw-table"), 84);
      // A card a few px above its strict fit leaves room for a focus ring or a lift.
      setCw(fitTable(n, width, height - 8, max, gap));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return undefined;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref.current, n]);
  return cw;
}
