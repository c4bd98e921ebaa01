// The felt (table cards, stock, set-aside pictures, last play) and the
// player's own hand with the choice among several captures.
import { optionText } from "./ask.js";
import { html, useRef, useEffect } from "../html.js";
import { t, cardName, signed } from "../i18n.js";
import { tableIndexes } from "../cards.js";
import { CardFace, CardBack } from "./cardsvg.js";
import { MoveLine } from "./words.js";
import { optionsFor } from "../play.js";
import { ruleAnchor } from "./rules.js";
import { useHandFit, cardPlace } from "./handfit.js";
import { useTableFit } from "./tablefit.js";
import { PendingBadge } from "./pending.js";
import { keyLabel } from "./keys.js";

/** The key that picks a card or an option (ui/keys.js), shown while a keyboard is in use. */
function KeyBadge({ i }) {
  const label = keyLabel(i);
  return label ? html`<kbd class="key-badge" aria-hidden="true" data-testid="key-badge">${label.toUpperCase()}</kbd>` : null;
}

/** Keys for a list of codes that stay put when twins come and go. */
function keyed(cards) {
  const seen = {};
  return cards.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return `${c}#${seen[c]}`;
  });
}

/**
 * The cards on the table.  While the player chooses among captures the cards
 * become buttons: picking one narrows the options to those that take it.
 */
export function TableCards({ view, choosing, onPickTable, hoverTake }) {
  const table = view.table || [];
  const keys = keyed(table);
  let involved = new Set();
  let picked = new Set();
  let preview = new Set();
  if (choosing) {
    for (const o of choosing.options) for (const i of tableIndexes(table, o.take)) involved.add(i);
    picked = new Set(choosing.picked);
    if (choosing.visible.length === 1) preview = new Set(tableIndexes(table, choosing.visible[0].take));
  }
  if (hoverTake) preview = new Set(tableIndexes(table, hoverTake));
  const lastCreep = view.last_move && view.last_move.kind === "creep" ? view.last_move.card : null;
  const ref = useRef(null);
  const cw = useTableFit(ref, table.length);
  return html`<ul class=${`table-cards n${Math.min(table.length, 20)}`} ref=${ref} style=${cw ? { "--cw-fit": `${cw}px` } : null}
    aria-label=${t("table_cards", { n: table.length })} data-testid="table">
    ${table.length === 0 ? html`<li class="empty-table">${t("table_empty")}</li>` : null}
    ${table.map((code, i) => {
      const cls = ["tcard"];
      if (choosing) cls.push(involved.has(i) ? "involved" : "dim");
      if (picked.has(i)) cls.push("picked");
      if (preview.has(i)) cls.push("preview");
      if (code === lastCreep && i === table.length - 1) cls.push("just-laid");
      const label = cardName(code);
      if (choosing && involved.has(i)) {
        return html`<li key=${keys[i]} class=${cls.join(" ")}>
          <button type="button" class="card-btn" aria-pressed=${picked.has(i) ? "true" : "false"}
            data-card=${code} data-index=${i} onClick=${() => onPickTable(i)}>
            <${CardFace} code=${code} />
            <span class="sr-only">${label}</span>
          </button>
        </li>`;
      }
      return html`<li key=${keys[i]} class=${cls.join(" ")} data-card=${code}><${CardFace} code=${code} label=${label} /></li>`;
    })}
  </ul>`;
}

export function Stock({ view }) {
  const n = view.stock_count || 0;
  return html`<div class="stock" data-testid="stock">
    <div class="pile" aria-hidden="true">
      ${n > 0 ? html`<span class="back-card"><${CardBack} /></span>` : html`<span class="pile-empty"></span>`}
    </div>
    <div class="pile-text">
      <span class="big" aria-hidden="true">${n}</span> <span aria-hidden="true">${t("stock_left", { n })}</span>
      <span class="sr-only">${n} ${t("stock_left", { n })}</span>
    </div>
  </div>`;
}

export function SetAside({ view }) {
  const spades = view.set_aside_spades || [];
  const other = view.set_aside_other || [];
  if (!spades.length && !other.length) return null;
  const pile = (cards, title, cls) =>
    html`<div class=${`aside ${cls}`} title=${title}>
      <span class="aside-title">${title}</span>
      <span class="aside-cards">
        ${cards.map((c) => html`<span class="mini"><${CardFace} code=${c} /></span>`)}
      </span>
      <span class="sr-only">: ${cards.map(cardName).join(", ")}</span>
    </div>`;
  return html`<div class="set-aside" aria-label=${t("set_aside")}>
    ${spades.length ? pile(spades, t("set_aside_spades", { n: spades.length }), "spades") : null}
    ${other.length ? pile(other, t("set_aside_other", { n: other.length }), "other") : null}
  </div>`;
}

export function LastMove({ view }) {
  const m = view.last_move;
  if (!m) return null;
  const big = m.kind === "sweep" || m.kind === "double_sweep";
  return html`<div class=${`last-move ${m.kind} ${big ? "big" : ""}`} key=${`${(view.log || []).length}`} data-testid="last-move">
    <${MoveLine} view=${view} move=${m} />
  </div>`;
}

/** The options panel when the chosen card can capture in more than one way. */
export function Chooser({ view, choosing, onChoose, onCancel, onHover }) {
  const first = useRef(null);
  useEffect(() => {
    if (first.current) first.current.focus();
  }, [choosing.card]);
  return html`<div class="chooser" role="group" aria-labelledby="chooser-title" data-testid="chooser"
      onKeyDown=${(e) => { if (e.key === "Escape") { e.preventDefault(); onCancel(); } }}>
    <p id="chooser-title" class="chooser-title">
      ${t("choose_take", { card: cardName(choosing.card) })}
      ${choosing.picked.length ? html` <span class="hint">${t("choose_narrowed", { n: choosing.visible.length })}</span>` : html` <span class="hint">${t("choose_hint")}</span>`}
    </p>
    <ul class="options">
      ${choosing.visible.map(
        (o, i) => html`<li>
          <button type="button" class="option" ref=${i === 0 ? first : null} data-testid="option" data-take=${o.take.join(" ")}
            aria-keyshortcuts=${keyLabel(i) || undefined}
            onClick=${() => onChoose(o)} onMouseEnter=${() => onHover(o.take)} onMouseLeave=${() => onHover(null)}
            onFocus=${() => onHover(o.take)} onBlur=${() => onHover(null)}>
            <span class="sr-only">${optionText(choosing.card, o)}</span>
            <${KeyBadge} i=${i} />
            <span class="option-cards" aria-hidden="true">
              ${o.take.map((c) => html`<span class="mini"><${CardFace} code=${c} /></span>`)}
            </span>
            <span class="option-cost" aria-hidden="true">
              <strong>${t("pts_short", { n: o.points })}</strong>
              ${o.sweep ? html`<span class="sweep-tag">${t(o.kind)} ${signed(o.sweep)}</span>` : null}
            </span>
          </button>
        </li>`,
      )}
    </ul>
    <button type="button" class="btn small" onClick=${onCancel} data-testid="cancel-choice">${t("cancel")}</button>
  </div>`;
}

/**
 * The badge under a playable card (krypa, its points, tabbe, "2 choices"): a
 * link to the rule it is about, opened beside the game.  Mouse only: the
 * card's own label already says all of it to keyboards and screen readers.
 */
function HintBadge({ view, code, text }) {
  const opts = optionsFor(view, code);
  const kind = opts.length ? opts[0].kind : "creep";
  return html`<a class=${`play-hint ${kind === "creep" && opts.length === 1 ? "creep" : ""}`} href=${`/rules#${ruleAnchor(kind, opts.length)}`}
    target="_blank" rel="noopener" tabindex="-1" aria-hidden="true" data-testid="hint-badge" title=${t("rules_link")}>${text}</a>`;
}

/** The hand's columns and card strips as the fit computed them (none before the first measure). */
function handStyle(fit) {
  if (!fit) return null;
  const cols = fit.cols > 1 ? `repeat(${fit.cols - 1}, ${fit.step}px) ${fit.cw}px` : `${fit.cw}px`;
  return { gridTemplateColumns: cols, "--hit": `${fit.hit}px`, "--cw": `${fit.cw}px` };
}

/**
 * The player's own hand.  Legal cards are highlighted; Enter or a click plays.
 * `pendingPlay` ({card, offline}, ui/pending.js): a played card still waiting for the server.
 */
export function Hand({ view, legal, myTurn, pending, choosing, describe, onPlay, pendingPlay }) {
  const hand = view.hand || [];
  const keys = keyed(hand);
  const waitingAt = pendingPlay ? hand.indexOf(pendingPlay.card) : -1;
  const ref = useRef(null);
  const onKeyDown = (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const buttons = [...ref.current.querySelectorAll("button.card-btn")];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    e.preventDefault();
    const next = buttons[(i + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    next.focus();
  };
  const fit = useHandFit(ref, hand.length);
  if (!hand.length) return html`<div class="hand empty" data-testid="hand"><span class="hint">${t("hand_empty")}</span></div>`;
  return html`<ul class=${`hand ${fit && fit.step < fit.cw ? "overlap" : ""}`} ref=${ref} onKeyDown=${onKeyDown}
    style=${handStyle(fit)} aria-label=${t("your_hand", { n: hand.length })} data-testid="hand">
    ${hand.map((code, i) => {
      const can = myTurn && legal.has(code);
      const info = can ? describe(code) : null;
      const cls = ["hcard"];
      if (myTurn) cls.push(can ? "legal" : "illegal");
      if (choosing && choosing.card === code) cls.push("chosen");
      const waiting = i === waitingAt;
      if (waiting) cls.push("pending");
      let label = cardName(code);
      if (waiting) label += `, ${t("card_pending_sr")}`;
      else if (myTurn && !can) label += `, ${t("cannot_play")}`;
      if (info && !waiting) label += `, ${info.long}`;
      const shift = fit ? cardPlace(fit, hand.length, i).shift : 0;
      return html`<li key=${keys[i]} class=${cls.join(" ")} style=${shift ? { left: `${shift}px` } : null}>
        <button type="button" class="card-btn" data-card=${code} aria-keyshortcuts=${keyLabel(i) || undefined}
          aria-disabled=${!can || pending ? "true" : "false"} onClick=${() => onPlay(code)}>
          <${CardFace} code=${code} />
          <${KeyBadge} i=${i} />
          <span class="sr-only">${label}</span>
        </button>
        ${waiting ? html`<${PendingBadge} pendingPlay=${pendingPlay} />` : can && info ? html`<${HintBadge} view=${view} code=${code} text=${info.short} />` : null}
      </li>`;
    })}
  </ul>`;
}
