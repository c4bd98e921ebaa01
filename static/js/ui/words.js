// Turning view data into words: names, log lines, score details.
import { html } from "../html.js";
import { t, cardName, listOf } from "../i18n.js";
import { shortName, isRed } from "../cards.js";

/**
 * A seat's name as shown ({name, bot} of a view, a room summary or a game list), or
 * null for a free seat.  The server names bots "Bot 1", "Bot 2" in no language; shown
 * in the reader's ("Dator 1").  A name a person typed is shown as typed.
 */
export function shownName(s) {
  if (!s || !s.name) return null;
  const bot = s.bot ? /^Bot (\d+)$/.exec(s.name) : null;
  return bot ? t("bot_n", { n: Number(bot[1]) }) : s.name;
}

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return "";
  const s = (view.seats || [])[seat];
  if (s && s.name) return shownName(s);
  return t("seat_n", { n: seat + 1 });
}

/**
 * ``seatName`` with "(Bot account)" after it when a bot account holds the seat (issue
 * 51): for table heads and lists, where no badge stands beside the name.
 */
export function markedName(view, seat) {
  const s = (view.seats || [])[seat];
  const name = seatName(view, seat);
  return s && s.outside_bot ? `${name} (${t("outside_bot")})` : name;
}

export function whoName(view, seat) {
  return seat === view.you ? t("you") : seatName(view, seat);
}

/** A card written short for the eye ("10♦") with its full name for screen readers. */
export function CardRef({ code }) {
  return html`<span class=${`cardref ${isRed(code) ? "red" : "black"} s-${code.slice(-1)}`}><span aria-hidden="true">${shortName(code)}</span><span class="sr-only">${cardName(code)}</span></span>`;
}

export function CardRefs({ cards }) {
  const out = [];
  cards.forEach((c, i) => {
    if (i) out.push(html`<span class="sr-only">,</span> `); // said "two of clubs, three of clubs", not run together
    out.push(html`<${CardRef} code=${c} />`);
  });
  return out;
}

/** One play in words, as plain text (for live regions and titles). */
export function moveText(view, move) {
  if (!move) return "";
  const who = seatName(view, move.seat);
  const card = cardName(move.card);
  const taken = listOf((move.taken || []).map(cardName));
  const line = t(`log_${move.kind}`, { who, card, taken, n: (move.taken || []).length });
  return move.by ? `${line} (${t(`by_${move.by}`)})` : line;
}

/** The mark of a play the clock or a stand-in bot made for its seat. */
export function ByMark({ move }) {
  if (!move || !move.by) return null;
  return html` <span class=${`by-mark by-${move.by}`} data-testid="by-mark">${t(`by_${move.by}`)}</span>`;
}

/** One play in words, with the cards drawn short. */
export function MoveLine({ view, move }) {
  const who = seatName(view, move.seat);
  const key = `log_${move.kind}`;
  // Split the catalog text around {card} and {taken} to put card marks there.
  const text = t(key, { who, n: (move.taken || []).length, card: "\u0001", taken: "\u0002" });
  const parts = text.split(/(\u0001|\u0002)/);
  const out = parts.map((p) => {
    if (p === "\u0001") return html`<${CardRef} code=${move.card} />`;
    if (p === "\u0002") return html`<${CardRefs} cards=${move.taken || []} />`;
    return p;
  });
  if (move.by) out.push(html`<${ByMark} move=${move} />`);
  return out;
}
