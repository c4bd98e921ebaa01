// A fair clock at the table (issue 12): between deals the next deal waits for every
// player's Continue (or the room's pause); a returning player is told which cards the
// clock or a stand-in bot played for them; a time bank's remaining time per seat.
// The end-of-deal summary counts down to the next deal itself and closes when it starts
// (issue 33): no clock ever runs on a deal hidden behind it. Once a deal is in view
// the page says so (`deal_shown`, issue 47): a seat that had not pressed Continue has
// its first turn timed from then, never from a deal it could not see.
import { html, useState, useRef, useEffect } from "../html.js";
import { t, cardName, listOf } from "../i18n.js";
import { seatName } from "./words.js";

export const betweenDeals = (view) => !!(view && view.between && view.status === "playing");
export const iAmReady = (view) => betweenDeals(view) && (view.between.ready || []).includes(view.you);

/** The bar under the table between deals: Continue, or whom the next deal waits for. */
export function BetweenDeals({ view, connection, now }) {
  if (!betweenDeals(view)) return null;
  const spectator = view.you === null || view.you === undefined;
  const ready = view.between.ready || [];
  const left = Math.max(0, Math.ceil((view.between.deadline - now) / 1000));
  const waiting = (view.seats || [])
    .filter((s) => !s.bot && !s.autoplay && !ready.includes(s.seat) && s.seat !== view.you)
    .map((s) => seatName(view, s.seat));
  return html`<div class="between-deals notice" role="status" data-testid="between-deals">
    ${!spectator && !ready.includes(view.you)
      ? html`<button type="button" class="btn primary" data-testid="continue-deal" onClick=${() => connection && connection.continueDeal()}>${t("next_deal")}</button>`
      : null}
    <span>${waiting.length ? t("waiting_for_names", { names: listOf(waiting) }) : t("next_deal_soon")}</span>
    <span class="hint" data-testid="next-deal-in">${t("next_deal_in", { n: left })}</span>
  </div>`;
}

/**
 * Inside the end-of-deal summary while the room waits: when the next deal starts at the
 * latest, and who has pressed Continue.  A timer, not a live region: a screen reader
 * is not told every second.
 */
/**
 * Tell the server, once per deal, that this page shows the deal in play: seated, the
 * socket live, the page visible, nothing of ours over the table (`covered`: the
 * summary). Said again after a reconnect (the server ignores what it knows already).
 */
export function useDealShown(view, connection, conn, covered) {
  const sent = useRef("");
  const [visible, setVisible] = useState(() => typeof document === "undefined" || document.visibilityState !== "hidden");
  useEffect(() => {
    const look = () => setVisible(document.visibilityState !== "hidden");
    document.addEventListener("visibilitychange", look);
    return () => document.removeEventListener("visibilitychange", look);
  }, []);
  useEffect(() => {
    if (conn !== "live") sent.current = "";
  }, [conn]);
  const opts = view.options || {};
  const timed = !!(opts.turn_clock || opts.time_bank) && opts.pace !== "correspondence";
  const seated = view.you !== null && view.you !== undefined;
  const key = `${view.match_no}:${view.deal_no}`;
  const showing = timed && seated && !!connection && conn === "live" && view.status === "playing"
    && view.deal_no > 0 && !view.deal_over && !view.between && !covered && visible;
  useEffect(() => {
    if (!showing || sent.current === key) return;
    if (connection.dealShown(view.match_no, view.deal_no)) sent.current = key;
  }, [showing, key]);
}

export function SummaryCountdown({ view, now }) {
  if (!betweenDeals(view)) return null;
  const ready = view.between.ready || [];
  // never more than the pause: `now` may be a tick (250 ms) old when the deal ends
  const pause = (view.options && view.options.deal_pause) || Infinity;
  const left = Math.min(pause, Math.max(0, Math.ceil((view.between.deadline - now) / 1000)));
  const people = (view.seats || []).filter((s) => !s.bot && !s.autoplay);
  return html`<div class="summary-countdown" data-testid="summary-countdown">
    <p class="countdown" role="timer" data-testid="summary-next-in" data-left=${left}>${t("summary_next_in", { n: left })}</p>
    <p class="hint">${t("summary_next_hint")}</p>
    <ul class="ready-list" aria-label=${t("summary_ready_list")}>
      ${people.map((s) => {
        const done = ready.includes(s.seat);
        return html`<li class=${done ? "ready" : ""} data-testid="ready-seat" data-seat=${s.seat} data-ready=${done ? "yes" : "no"}>
          <span aria-hidden="true">${done ? "✓" : "…"}</span> ${seatName(view, s.seat)}${s.seat === view.you ? ` (${t("you")})` : ""}: ${done ? t("seat_ready") : t("seat_reading")}
        </li>`;
      })}
    </ul>
  </div>`;
}

/**
 * After the next deal began while the last one's summary was never closed here (the
 * pause ran out, a room without a pause, a player who came back): the scores stay one
 * click away.
 */
export function DealOverNotice({ dealNo, onOpen, onDismiss }) {
  return html`<div class="notice deal-over-notice" role="status" data-testid="deal-over-notice">
    <span>${t("deal_over_notice", { n: dealNo })}</span>
    <span class="btn-row">
      <button type="button" class="btn small" data-testid="notice-open-summary" onClick=${onOpen}>${t("last_deal")}</button>
      <button type="button" class="btn small" data-testid="notice-dismiss" onClick=${onDismiss}>${t("played_for_ok")}</button>
    </span>
  </div>`;
}

/** "While you were away": the cards the clock or a stand-in bot played for me. */
export function PlayedForNotice({ view }) {
  const mine = view.you !== null && view.you !== undefined ? ((view.seats || [])[view.you] || {}).played_for || [] : [];
  const key = mine.length ? `${mine.length}:${mine[mine.length - 1].card}:${mine[mine.length - 1].deal_no}` : "";
  const [seen, setSeen] = useState("");
  // A deal this page never showed before the clock played in it (the player came back,
  // or the tab was hidden when it started) is named, so that the clock's move is not
  // the first thing they learn of it.
  const dealKey = `${view.match_no}:${view.deal_no}`;
  const playedHere = mine.some((m) => m.deal_no === view.deal_no);
  const seenDeals = useRef(new Set());
  useEffect(() => {
    const shown = typeof document === "undefined" || document.visibilityState !== "hidden";
    if (shown && !view.deal_over && !playedHere) seenDeals.current.add(dealKey);
  });
  if (!mine.length || seen === key) return null;
  const byClock = mine.filter((m) => m.by === "clock").map((m) => cardName(m.card));
  const byBot = mine.filter((m) => m.by === "standin").map((m) => cardName(m.card));
  const unseen = playedHere && !seenDeals.current.has(dealKey);
  const clockKey = unseen ? "played_for_clock_new_deal" : "played_for_clock";
  return html`<div class="notice played-for" role="status" data-testid="played-for">
    <span>
      ${byClock.length ? t(clockKey, { cards: listOf(byClock), n: view.deal_no }) : null}
      ${byClock.length && byBot.length ? " " : null}
      ${byBot.length ? t("played_for_standin", { cards: listOf(byBot) }) : null}
    </span>
    <button type="button" class="btn small" onClick=${() => setSeen(key)}>${t("played_for_ok")}</button>
  </div>`;
}

const mmss = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** A seat's time bank: running down for the seat to move, standing still for the others. */
export function BankChip({ view, seat, now }) {
  if (!view.banks) return null;
  const moving = view.clock && view.clock.seat === seat;
  // never more than the bank: a first turn's clock may not have started yet (issue 47)
  const left = moving ? Math.min(view.clock.deadline - now, view.banks[seat]) : view.banks[seat];
  return html`<span class=${`bank ${moving ? "running" : ""} ${moving && left < 10000 ? "urgent" : ""}`} data-testid="bank" data-seat=${seat}
    title=${t("time_bank")}><span class="sr-only">${t("time_bank")}: </span>${mmss(left)}</span>`;
}
