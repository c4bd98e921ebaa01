// A rematch is offered and accepted, not imposed (issue 33). Once the match is over a
// player's Rematch offers the others a new match; they accept or decline, with the
// offer's countdown in view; a decline or the deadline withdraws it, and when the last
// person accepts every screen is told that the next match began. The server keeps the
// offer in view.rematch ({by, accepted, deadline}) and how the last one ended in
// view.rematch_ended ({by, reason, seat}); this module only shows them and answers.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import { seatName } from "./words.js";

const isSeated = (view) => view.you !== null && view.you !== undefined;

/** The seats whose person is asked: everyone a bot does not play for, and whoever accepted. */
const asked = (view, offer) =>
  (view.seats || []).filter((s) => (!s.bot && !s.autoplay) || offer.accepted.includes(s.seat)).length;

const mmss = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** Re-render every half second while `active` (an offer's countdown). */
function useTick(active) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

/** How the latest offer went without a new match, in words (null: nothing to say). */
function endedLine(view) {
  const e = view.rematch_ended;
  if (!e) return null;
  if (e.reason === "expired") return t("rematch_lapsed");
  const me = e.seat === view.you;
  if (e.seat === e.by) return me ? t("rematch_withdrawn_you") : t("rematch_withdrawn", { name: seatName(view, e.seat) });
  return me ? t("rematch_declined_you") : t("rematch_declined", { name: seatName(view, e.seat) });
}

/**
 * The rematch part of a finished match: the Rematch button, or the open offer with
 * Accept / Decline (or "waiting for the others (k of n)") and its countdown, and how
 * the last offer ended. In the final scores, and under the table once they are closed
 * (`bar`). Nothing in a closed room or while the match is played.
 */
export function RematchPanel({ view, connection, bar }) {
  const offer = view.rematch || null;
  const [sent, setSent] = useState(false);
  // An answer is on its way until the view changes because of it.
  useEffect(() => setSent(false), [offer ? offer.accepted.join() : "", offer && offer.by, view.rematch_ended, view.match_no]);
  useEffect(() => {
    if (!sent) return undefined;
    const tm = setTimeout(() => setSent(false), 5000); // refused or lost: the buttons come back
    return () => clearTimeout(tm);
  }, [sent]);
  const now = useTick(!!offer);
  // The deal of the day (a challenge) is played once: no rematch (the server refuses one).
  if (view.status !== "finished" || view.closed || (view.options && view.options.challenge)) return null;
  const me = view.you;
  const seated = isSeated(view);
  const send = (answer) => {
    setSent(true);
    answer();
  };
  const cls = `rematch-panel ${bar ? "notice" : ""}`;
  if (!offer) {
    const ended = endedLine(view);
    if (!seated && !ended) return null;
    return html`<div class=${cls} data-testid="rematch-panel">
      ${ended ? html`<p class="rematch-ended" role="status" data-testid="rematch-ended">${ended}</p>` : null}
      ${seated
        ? html`<button type="button" class="btn primary" data-autofocus onClick=${() => send(() => connection.rematch())}
            disabled=${sent} data-testid="rematch">${sent ? t("rematch_sending") : t("rematch")}</button>`
        : null}
    </div>`;
  }
  const mine = offer.by === me;
  const accepted = seated && offer.accepted.includes(me);
  const who = mine ? t("rematch_you_offered") : t("rematch_offered_by", { name: seatName(view, offer.by) });
  return html`<div class=${`${cls} open`} role="group" aria-label=${who} data-testid="rematch-offer" data-by=${offer.by}>
    <p class="rematch-who"><strong data-testid="rematch-who">${who}</strong></p>
    ${accepted || !seated
      ? html`<p data-testid="rematch-waiting">${t("rematch_waiting", { k: offer.accepted.length, n: asked(view, offer) })}</p>`
      : null}
    <p class="hint" data-testid="rematch-countdown">${t("rematch_open_for", { time: mmss(offer.deadline - now) })}</p>
    ${seated
      ? html`<div class="btn-row">
          ${accepted
            ? null
            : html`<button type="button" class="btn primary" data-autofocus disabled=${sent}
                onClick=${() => send(() => connection.rematch())} data-testid="rematch-accept">${t("rematch_accept")}</button>`}
          <button type="button" class="btn" disabled=${sent} onClick=${() => send(() => connection.rematchDecline())}
            data-testid="rematch-decline">${mine ? t("rematch_withdraw") : t("rematch_decline")}</button>
        </div>`
      : null}
  </div>`;
}

/**
 * "Match 2 begins": shown on every screen for a few seconds when the next match
 * starts (the final scores close by themselves: the new match has none yet).
 */
export function MatchBegins({ view }) {
  const last = useRef(view.match_no);
  const [shown, setShown] = useState(null);
  useEffect(() => {
    if (last.current > 0 && view.match_no > last.current) setShown(view.match_no);
    last.current = view.match_no;
  }, [view.match_no]);
  useEffect(() => {
    if (!shown) return undefined;
    const tm = setTimeout(() => setShown(null), 6000);
    return () => clearTimeout(tm);
  }, [shown]);
  if (!shown) return null;
  return html`<div class="toast match-begins" role="status" data-testid="match-begins">
    <strong>${t("match_begins", { n: shown })}</strong>
    <button type="button" class="btn small" onClick=${() => setShown(null)} aria-label=${t("close")}>×</button>
  </div>`;
}
