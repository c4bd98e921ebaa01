// The players around the table: name, cards in hand, dealer, turn, clock, sweeps.
import { html } from "../html.js";
import { t, signed } from "../i18n.js";
import { CardBack, CardFace } from "./cardsvg.js";
import { seatName } from "./words.js";
import { cardName } from "../i18n.js";
import { isCorrespondence, DaysClock, VacationChip } from "./correspondence.js";

export function secondsLeft(clock, now, limit = null) {
  if (!clock || !clock.deadline) return null;
  const left = Math.max(0, Math.ceil((clock.deadline - now) / 1000));
  // A browser clock behind the server's must not show more than the turn clock.
  return limit ? Math.min(left, Math.ceil(limit)) : left;
}

export function ClockChip({ view, seat, now }) {
  const clock = view.clock;
  if (!clock || clock.seat !== seat) return null;
  if (isCorrespondence(view)) return html`<${DaysClock} view=${view} seat=${seat} now=${now} />`;
  const left = secondsLeft(clock, now, view.options && view.options.turn_clock);
  const urgent = left !== null && left <= 10;
  return html`<span class=${`clock ${urgent ? "urgent" : ""}`} data-testid="clock">
    <svg class="clock-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="9" r="6" /><path d="M8 9V5.5M6.5 1.5h3" /></svg>
    ${t("seconds_left", { n: left })}
  </span>`;
}

/** The order to show seats in: starting with `first`, clockwise. */
export function seatOrder(players, first) {
  return Array.from({ length: players }, (_, i) => (first + i) % players);
}

function Backs({ count }) {
  const shown = Math.min(count, 6);
  return html`<div class="backs" aria-hidden="true" style=${`--n:${shown}`}>
    ${Array.from({ length: shown }, (_, i) => html`<span class="back-card" style=${`--i:${i}`}><${CardBack} /></span>`)}
  </div>`;
}

export function SweepMarkers({ cards }) {
  if (!cards || !cards.length) return null;
  return html`<div class="markers" title=${t("sweep_markers")}>
    <span class="sr-only">${t("sweep_markers")}: ${cards.map(cardName).join(", ")}</span>
    ${cards.map((c) => html`<span class="marker" aria-hidden="true"><${CardFace} code=${c} /></span>`)}
  </div>`;
}

export function SeatBadges({ view, seat, presence }) {
  const info = (view.seats || [])[seat] || {};
  const online = presence ? presence[seat] : null;
  // who sits with whom (V1) is the server's: view.partners[seat] is that seat's partner
  const partner = view.you !== null && view.you !== undefined && (view.partners || [])[view.you] === seat;
  return html`<span class="badges">
    ${seat === view.dealer ? html`<span class="badge dealer" title=${t("dealer")}>${t("dealer_short")}<span class="sr-only"> (${t("dealer")})</span></span>` : null}
    ${info.bot ? html`<span class="badge bot"><span class="sr-only">, </span>${t("bot")}</span>` : null}
    ${info.outside_bot ? html`<span class="badge outside-bot" title=${t("outside_bot_help")} data-testid="outside-bot"><span class="sr-only">, </span>${t("outside_bot")}</span>` : null}
    ${info.autoplay && !info.bot ? html`<span class="badge auto" title=${t("autoplay_help")}>${t("autoplay")}</span>` : null}
    ${partner ? html`<span class="badge partner">${t("partner")}</span>` : null}
    ${online === false && !info.bot ? html`<span class="badge away">${t("offline")}</span>` : null}
  </span>`;
}

export function SeatBox({ view, seat, presence, now, compact }) {
  const toMove = view.to_move === seat;
  const count = (view.hand_counts || [])[seat] || 0;
  const score = (view.scores || [])[seat];
  const name = seatName(view, seat);
  return html`<section class=${`seat ${toMove ? "to-move" : ""} ${compact ? "compact" : ""}`}
      aria-label=${t("seat_label", { name, n: count })} data-testid="seat" data-seat=${seat}>
    <div class="seat-head">
      ${toMove ? html`<span class="turn-dot" aria-hidden="true"></span>` : null}
      <span class="seat-name">${name}</span>
      <${SeatBadges} view=${view} seat=${seat} presence=${presence} />
    </div>
    <div class="seat-body">
      <${Backs} count=${count} />
      <span class="count" aria-hidden="true">${count}</span>
      ${toMove ? html`<span class="sr-only">${t("their_turn")}</span>` : null}
    </div>
    <div class="seat-foot">
      ${score ? html`<span class="seat-score" title=${t("deal_score")}>${t("pts_short", { n: score.total })}</span>` : null}
      ${score && score.sweep_transfer ? html`<span class="seat-sweep">${t("tabbe")} ${signed(score.sweep_transfer)}</span>` : null}
      <${ClockChip} view=${view} seat=${seat} now=${now} />
      <${VacationChip} view=${view} seat=${seat} now=${now} />
    </div>
    <${SweepMarkers} cards=${(view.sweep_markers || [])[seat]} />
  </section>`;
}
