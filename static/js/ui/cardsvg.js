// Playing cards drawn as SVG by our own code (no card images).
//
// Every card is a 100 x 140 viewBox.  The four suits are <symbol>s defined
// once per page (SvgDefs) and placed with <use>, so a card is a handful of
// elements.  A card carries two layouts: the classic one (corner indices and
// pips) and a "jumbo" one (one large rank and suit) that the stylesheet shows
// instead on narrow screens, where pips would be too small to read.
import { html } from "../html.js";
import { parseCard, isRed } from "../cards.js";

const SUIT_PATHS = {
  H: html`<path d="M50 90 C22 68 5 50 5 31 C5 16 16 6 29 6 C39 6 46 12 50 21 C54 12 61 6 71 6 C84 6 95 16 95 31 C95 50 78 68 50 90 Z" />`,
  D: html`<path d="M50 3 L87 50 L50 97 L13 50 Z" />`,
  S: html`<path d="M50 4 C40 20 6 38 6 60 C6 74 17 83 29 83 C37 83 43 79 46 73 C45 83 41 90 33 96 L67 96 C59 90 55 83 54 73 C57 79 63 83 71 83 C83 83 94 74 94 60 C94 38 60 20 50 4 Z" />`,
  C: html`<g><circle cx="50" cy="27" r="19" /><circle cx="27" cy="59" r="19" /><circle cx="73" cy="59" r="19" /><path d="M46 50 L54 50 C55 74 59 86 67 96 L33 96 C41 86 45 74 46 50 Z" /></g>`,
};

/** Hidden <svg> with the suit symbols and the card-back pattern: render once per page. */
export function SvgDefs() {
  return html`<svg class="svg-defs" width="0" height="0" aria-hidden="true" focusable="false">
    <defs>
      ${Object.entries(SUIT_PATHS).map(
        ([s, p]) => html`<symbol id=${`suit-${s}`} viewBox="0 0 100 100">${p}</symbol>`,
      )}
      <pattern id="card-back-pattern" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="12" height="12" fill="var(--back-a)" />
        <rect width="6" height="6" fill="var(--back-b)" />
        <rect x="6" y="6" width="6" height="6" fill="var(--back-b)" />
      </pattern>
    </defs>
  </svg>`;
}

const pip = (suit, x, y, size, flip = false) =>
  html`<use href=${`#suit-${suit}`} x=${x - size / 2} y=${y - size / 2} width=${size} height=${size}
    transform=${flip ? `rotate(180 ${x} ${y})` : undefined} />`;

// Pip positions of the numerals: [x, y]; pips below the middle are turned.
const L = 31, C = 50, R = 69;
const ROWS4 = [27, 57, 83, 113];
const PIPS = {
  2: [[C, 27], [C, 113]],
  3: [[C, 27], [C, 70], [C, 113]],
  4: [[L, 27], [R, 27], [L, 113], [R, 113]],
  5: [[L, 27], [R, 27], [C, 70], [L, 113], [R, 113]],
  6: [[L, 27], [R, 27], [L, 70], [R, 70], [L, 113], [R, 113]],
  7: [[L, 27], [R, 27], [C, 48], [L, 70], [R, 70], [L, 113], [R, 113]],
  8: [[L, 27], [R, 27], [C, 48], [L, 70], [R, 70], [C, 92], [L, 113], [R, 113]],
  9: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 70]],
  10: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 42], [C, 98]],
};

function centre(rank, suit) {
  if (rank === "A") {
    const size = suit === "S" ? 50 : 40;
    return html`<g class="pips">${pip(suit, 50, 70, size)}</g>`;
  }
  if (PIPS[rank]) {
    return html`<g class="pips">${PIPS[rank].map(([x, y]) => pip(suit, x, y, 17, y > 70))}</g>`;
  }
  // J Q K: a framed picture panel with the letter and a crown, hat or cap.
  const deco = {
    K: html`<path d="M36 52 L40 38 L46 47 L50 34 L54 47 L60 38 L64 52 Z" class="ink" />`,
    Q: html`<path d="M38 52 Q42 38 50 36 Q58 38 62 52 Z M50 30 a4 4 0 1 0 0.1 0" class="ink" />`,
    J: html`<path d="M38 52 L44 38 L62 42 L58 52 Z" class="ink" />`,
  }[rank];
  return html`<g class="pips">
    <rect x="21" y="22" width="58" height="96" rx="4" class="panel" />
    ${deco}
    <text x="50" y="90" text-anchor="middle" class="face-letter">${rank}</text>
    ${pip(suit, 30, 108, 12)} ${pip(suit, 70, 108, 12)}
  </g>`;
}

/** The face of `code` as an <svg>.  Give `label` to expose it as an image. */
export function CardFace({ code, label }) {
  const { rank, suit } = parseCard(code);
  const colour = isRed(code) ? "red" : "black";
  const a11y = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  const narrowRank = rank === "10" ? { textLength: 19, lengthAdjust: "spacingAndGlyphs" } : {};
  return html`<svg class=${`card-svg face ${colour} s-${suit}`} viewBox="0 0 100 140" focusable="false" ...${a11y}>
    <rect x="1.5" y="1.5" width="97" height="137" rx="8" class="card-bg" />
    <g class="classic">
      <text x="12" y="24" text-anchor="middle" class="idx" ...${narrowRank}>${rank}</text>
      ${pip(suit, 12, 34, 12)}
      <g transform="rotate(180 50 70)">
        <text x="12" y="24" text-anchor="middle" class="idx" ...${narrowRank}>${rank}</text>
        ${pip(suit, 12, 34, 12)}
      </g>
      ${centre(rank, suit)}
    </g>
    <g class="jumbo">
      <text x="8" y="50" class="jumbo-rank" ...${rank === "10" ? { textLength: 62, lengthAdjust: "spacingAndGlyphs" } : {}}>${rank}</text>
      ${pip(suit, 66, 100, 52)}
    </g>
  </svg>`;
}

/** The back of a card. */
export function CardBack({ label }) {
  const a11y = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return html`<svg class="card-svg back" viewBox="0 0 100 140" focusable="false" ...${a11y}>
    <rect x="1.5" y="1.5" width="97" height="137" rx="8" class="card-bg" />
    <rect x="8" y="8" width="84" height="124" rx="5" fill="url(#card-back-pattern)" class="back-field" />
    <rect x="8" y="8" width="84" height="124" rx="5" class="back-frame" />
    <use href="#suit-S" x="38" y="58" width="24" height="24" class="back-pip" />
  </svg>`;
}
