// A card played but not yet answered (issue 33).  The connection keeps a play that
// could not reach the server and sends it again once it is back (connection.js); until
// then the card stays in the hand, so it is marked as waiting there, and said in words,
// rather than looking as if the click had been lost.
// And a play held for the player's Confirm before it is sent (issue 47): in a
// correspondence game on a touch screen by default (the "confirm" setting), as
// lichess offers, since a move made by a slip of the finger cannot be taken back.
import { html, useState, useEffect } from "../html.js";
import { t, cardName } from "../i18n.js";
import * as settings from "../settings.js";

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
  if (!pendingPlay || pendingPlay.held) return null; // a held play: ConfirmPlay says it
  const key = pendingPlay.offline ? "pending_offline" : "pending_slow";
  return html`<div class="notice pending-notice" role="status" data-testid="pending-notice">${t(key, { card: cardName(pendingPlay.card) })}</div>`;
}

/** On the waiting card in the hand: a badge (the card's label says it to screen readers). */
export function PendingBadge({ pendingPlay }) {
  const text = pendingPlay.held ? t("card_to_confirm") : pendingPlay.offline ? t("card_waiting") : t("card_sending");
  return html`<span class="pending-badge" data-testid="pending-card" data-held=${pendingPlay.held ? "yes" : "no"} aria-hidden="true">${text}</span>`;
}

const touchScreen = () =>
  (typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches) || (navigator.maxTouchPoints || 0) > 0;

/** Whether a play in this room waits for Confirm before it is sent (the "confirm" setting). */
export function confirmWanted(view, s = settings.get()) {
  if (!view || !view.options || view.options.pace !== "correspondence") return false;
  return s.confirm === "always" || (s.confirm === "touch" && touchScreen());
}

/**
 * The held play `{card, take}` with Confirm (sends it) and Cancel (drops it); the card
 * stays in the hand marked as waiting (`PendingBadge` with `held`) until then.
 */
export function ConfirmPlay({ held, onConfirm, onCancel }) {
  if (!held) return null;
  const what = held.take.length
    ? t("confirm_play_take", { card: cardName(held.card), n: held.take.length })
    : t("confirm_play", { card: cardName(held.card) });
  return html`<div class="notice confirm-play" role="group" aria-label=${what} data-testid="confirm-play" data-card=${held.card}>
    <span>${what}</span>
    <div class="btn-row">
      <button type="button" class="btn primary" onClick=${onConfirm} data-testid="confirm-play-send">${t("confirm_play_send")}</button>
      <button type="button" class="btn" onClick=${onCancel} data-testid="confirm-play-cancel">${t("cancel")}</button>
    </div>
  </div>`;
}
