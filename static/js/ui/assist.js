// Against bots (issue 33): "Take back" and "Hint" for the one person at a table of
// bots.  The server says what may be asked now (view.assist, for the person's seat);
// a hint comes back to this connection only (connection.js keeps it as state.hint)
// and stands until the next play: its card in hand and the table cards it takes are
// marked on the board.  A room of two or more people has no assist: nothing shows.
import { html, useEffect } from "../html.js";
import { t, cardName } from "../i18n.js";

/** The assist of this connection's own seat, or null (a spectator, another seat, a room
 * of people). */
export function assistFor(view) {
  const a = view && view.assist;
  const you = view ? view.you : null;
  return a && you !== null && you !== undefined && a.seat === you ? a : null;
}

/** The hint still standing for this view: given at this deal and play, and still legal. */
export function standingHint(state) {
  const { hint, view } = state;
  if (!hint || !view || !assistFor(view) || !view.assist.hint) return null;
  if (hint.deal !== view.deal_no || hint.plays !== (view.log || []).length) return null;
  const same = (m) => m.card === hint.card && m.take.length === hint.take.length && m.take.every((c, i) => c === hint.take[i]);
  return (view.legal || []).some(same) ? hint : null;
}

const MARK = "data-hinted";

/** Mark the hint on the board: its card in hand, and each table card it takes (twins:
 * as many of that code as it takes).  Attributes Preact does not manage, set again
 * after every render of the table. */
function markBoard(hint) {
  for (const el of document.querySelectorAll(`[${MARK}]`)) el.removeAttribute(MARK);
  if (!hint) return;
  const card = document.querySelector(`[data-testid="hand"] button[data-card="${hint.card}"]`);
  if (card) card.setAttribute(MARK, "play");
  const need = {};
  for (const c of hint.take) need[c] = (need[c] || 0) + 1;
  for (const [code, n] of Object.entries(need)) {
    const found = [...document.querySelectorAll(`[data-testid="table"] [data-card="${code}"]`)];
    for (const el of found.slice(0, n)) el.setAttribute(MARK, "take");
  }
}

function hintText(hint) {
  const card = cardName(hint.card);
  return hint.take.length ? t("hint_take", { card, cards: hint.take.map(cardName).join(", ") }) : t("hint_play", { card });
}

/** The two buttons and the standing hint, under the person's own seat. */
export function AssistBar({ state, connection }) {
  const view = state.view;
  const assist = assistFor(view);
  const hint = assist ? standingHint(state) : null;
  useEffect(() => markBoard(hint));
  useEffect(() => () => markBoard(null), []);
  if (!assist || !connection) return null;
  return html`<div class="assist-bar" role="group" aria-label=${t("assist_label")} data-testid="assist">
    <button type="button" class="btn small" data-testid="assist-takeback" disabled=${!assist.takeback}
      title=${t("take_back_title")} onClick=${() => connection.takeBack()}>${t("take_back")}</button>
    <button type="button" class="btn small" data-testid="assist-hint" disabled=${!assist.hint || !!hint}
      title=${t("hint_title")} onClick=${() => connection.askHint()}>${t("ask_hint")}</button>
    ${hint ? html`<span class="assist-hint" role="status" data-testid="assist-hint-text">${hintText(hint)}</span>` : null}
  </div>`;
}

/** The create form's choice of when one person against bots may take back (the room
 * option `takeback`; "always", the server's default, first: issue 47), shown only when
 * every other seat is a bot.  Uncontrolled: the
 * form reads it when it is sent (`takebackChoice`). */
export function TakebackField({ players, bots }) {
  if (bots !== players - 1) return null;
  return html`<div class="field">
    <label for="create-takeback">${t("takeback_option")}</label>
    <select id="create-takeback" name="takeback" data-testid="create-takeback">
      ${["always", "until_bot", "off"].map((m) => html`<option value=${m}>${t(`takeback_${m}`)}</option>`)}
    </select>
  </div>`;
}

/** `{takeback}` for the create request, when the form shows the choice. */
export function takebackChoice(form) {
  const el = form && form.elements ? form.elements.namedItem("takeback") : null;
  return el && el.value ? { takeback: el.value } : {};
}
