// The "tabbe på 9" call (docs/client.md, "Sweep calls"): when a creep, or the
// dealer's set-aside of pictures, leaves a table that one card value would take
// whole, the view's `sweep_call` names the values (from the server's engine) and
// who says it; the felt shows it as they would say it aloud ("Tabbe på 9!",
// "Sweep on 9!"), for players and spectators alike.  The player's setting
// `hints` turns it off in this browser; a room made with hints off never sends it.
import { html } from "../html.js";
import { t, num, listOf } from "../i18n.js";
import { useSettings } from "./settings.js";
import { whoName } from "./words.js";

const PICTURE = { 11: "J", 12: "Q", 13: "K", 14: "A" };

/** A hand value as said aloud: numerals as numbers, pictures and the ace by name. */
export function valueWord(v) {
  return PICTURE[v] ? t(`rank_${PICTURE[v]}`) : num(v);
}

/** The call's words: "Tabbe på 9!" */
export function callText(call) {
  return t("sweep_call", { values: listOf(call.values.map(valueWord), "disjunction") });
}

export function SweepCall({ view }) {
  const s = useSettings();
  const call = view.sweep_call;
  if (!call || !s.hints || view.deal_over || view.status !== "playing") return null;
  const who = whoName(view, call.seat);
  return html`<div class="sweep-call" data-testid="sweep-call" data-values=${call.values.join(",")}
      key=${`${(view.log || []).length}|${call.values.join(",")}`}>
    ${t("sweep_call_said", { who, call: callText(call) })}
  </div>`;
}

/** The create form's room option: the call for everyone, or for nobody (`hints`). */
export function HintsField() {
  return html`<label class="check-line field">
    <input type="checkbox" name="hints" checked data-testid="create-hints" />
    <span><strong>${t("hints_option")}</strong> <span class="hint">${t("hints_option_hint")}</span></span>
  </label>`;
}

/** `{hints: false}` for the create request when the box was unticked. */
export function hintsChoice(form) {
  const el = form && form.elements ? form.elements.namedItem("hints") : null;
  return el && el.checked === false ? { hints: false } : {};
}
