// The keyboard shortcuts dialog (`?` at the table, or the side column's "Keys"
// button): the key map of ui/keys.js in words, so the two must change together.
import { html, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";

/** The rows shown: the keys (each drawn as a <kbd>) and what they do. */
export const SHORTCUTS = [
  [["1–9", "0"], "keys_select"],
  [["A", "B", "C"], "keys_select_more"],
  [["←", "→"], "keys_move"],
  [["Enter", "Space"], "keys_play"],
  [["1–9"], "keys_choose"],
  [["Enter"], "keys_only"],
  [["Esc"], "keys_cancel"],
  [["?"], "keys_help"],
  [["Shift+H"], "keys_ask_hand"],
  [["Shift+T"], "keys_ask_table"],
  [["Shift+S"], "keys_ask_scores"],
  [["Shift+L"], "keys_ask_plays"],
  [["Shift+D"], "keys_ask_stock"],
  [["Shift+W"], "keys_ask_turn"],
  [["Shift+O"], "keys_ask_options"],
];

export function ShortcutsDialog({ onClose }) {
  const ref = useRef(null);
  useEffect(() => {
    const close = ref.current && ref.current.querySelector("[data-autofocus]");
    if (close) close.focus();
  }, []);
  const onKeyDown = (e) => {
    if (e.key === "Escape" || e.key === "?") {
      e.preventDefault();
      onClose();
    }
  };
  return html`<div class="overlay" onKeyDown=${onKeyDown} onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <div class="dialog shortcuts-dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" ref=${ref} data-testid="shortcuts">
      <div class="dialog-head">
        <h2 id="shortcuts-title">${t("keys_title")}</h2>
        <button type="button" class="btn-x" aria-label=${t("close")} onClick=${onClose}>×</button>
      </div>
      <table class="shortcuts-table">
        <tbody>
          ${SHORTCUTS.map(
            ([keys, what]) => html`<tr>
              <th scope="row">${keys.map((k, i) => html`${i ? " " : ""}<kbd>${k === "Space" ? t("keys_space") : k}</kbd>`)}</th>
              <td>${t(what)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      <p class="hint">${t("keys_note")}</p>
      <p class="hint">${t("keys_ask_note")}</p>
      <div class="btn-row">
        <button type="button" class="btn primary" data-autofocus onClick=${onClose} data-testid="shortcuts-close">${t("close")}</button>
      </div>
    </div>
  </div>`;
}
