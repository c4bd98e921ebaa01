// A card played but not yet answered (issue 33).  The connection keeps a play that
// could not reach the server and sends it again once it is back (connection.js); until
// then the card stays in the hand, so it is marked as waiting there, and said in words,
// rather than looking as if the click had been lost.
import { html, useState, useEffect } from "../html.js";
import { t, cardName } from "../i18n.js";

const SLOW = 600; // ms before an unanswered play on a live socket is shown as waiting

/**
 * The play to show as waiting: `{ card, offline }`, or null.  At once while the socket
 * is down (or the server said it cannot store plays now); else only once the answer is
 * late, so an ordinary play does not flicker.
 */
export function usePendingPlay(state) {
  const { pending, pendingCard, conn, error } = state;
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!pending) return undefined;
    const tm = setTimeout(() => setSlow(true), SLOW);
    return () => clearTimeout(tm);
  }, [pending]);
  if (!pending || !pendingCard) return null;
  const offline = conn !== "live" || !!(error && error.code === "unavailable");
  return slow || offline ? { card: pendingCard, offline } : null;
}

/** Above the hand: what happens to the waiting card. */
export function PendingNotice({ pendingPlay }) {
  if (!pendingPlay) return null;
  const key = pendingPlay.offline ? "pending_offline" : "pending_slow";
  return html`<div class="notice pending-notice" role="status" data-testid="pending-notice">${t(key, { card: cardName(pendingPlay.card) })}</div>`;
}

/** On the waiting card in the hand: a badge (the card's label says it to screen readers). */
export function PendingBadge({ pendingPlay }) {
  return html`<span class="pending-badge" data-testid="pending-card" aria-hidden="true">${pendingPlay.offline ? t("card_waiting") : t("card_sending")}</span>`;
}
