// Keys for every move (issue 33): the table's key map and the hooks that apply it.
//
// The scheme, also shown by the shortcuts dialog (ui/shortcuts.js):
//   1-9, 0      select the 1st-9th, 10th card of the hand (focus it); past ten
//               cards the letters a, b, c... go on (11th, 12th, 13th...)
//   ← →         move between the hand's cards (↑ ↓ too; in the chooser, its options)
//   Enter/Space play the selected card: at once when it has one legal move, else
//               the capture chooser opens with its options numbered the same way
//   1-9, 0...   in the chooser, play that option at once
//   Enter       with nothing selected and exactly one legal move in the position,
//               plays it: focus is on that card already after each play, so a
//               single legal move is always one key
//   Esc         closes the chooser
//   ?           the shortcuts
//   Shift+H, T, S, L, D, W, O   ask without moving (issue 50, ui/ask.js): my hand,
//               the table by value, the scores, the last plays, the stock ("deck"),
//               whose turn and the time left, the chooser's options; the answer
//               is spoken at once (speech.js).  Shift: plain letters pick cards.
// A number only selects: playing always takes Enter, so a slip of the finger
// never plays a card.  Keys do nothing while the player types (chat, any input)
// nor while a dialog is open (the chooser is not a dialog).  The client decides no
// rule: which cards can be played and how comes from the view's `legal` moves.
import { useEffect, useLayoutEffect, useRef } from "../html.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Shift + these letters ask (ui/ask.js's `answer`); the shortcuts dialog lists them. */
export const ASK_KEYS = { H: "hand", T: "table", S: "scores", L: "plays", D: "stock", W: "turn", O: "options" };

/** The key that picks the i-th (0-based) card or option: "1".."9", "0", then "a", "b"... */
export function keyLabel(i) {
  if (i < 9) return String(i + 1);
  if (i === 9) return "0";
  return i - 10 < LETTERS.length ? LETTERS[i - 10] : "";
}

/**
 * The 0-based position a key names, or -1.  `code` (the physical key) lets the
 * digit row work where digits need Shift (the French layout's top row gives
 * "&", "é"...); the number pad sends its digit as `key`.
 */
export function indexOfKey(key, code) {
  let digit = /^[0-9]$/.test(key) ? key : null;
  if (digit === null && /^Digit[0-9]$/.test(code || "")) digit = code.slice(5);
  if (digit !== null) return digit === "0" ? 9 : Number(digit) - 1;
  if (typeof key === "string" && key.length === 1) {
    const at = LETTERS.indexOf(key.toLowerCase());
    if (at >= 0) return 10 + at;
  }
  return -1;
}

/**
 * What a key press means at the table, as plain data (no DOM), or null when the
 * key is not the table's.
 *
 * ev:  {key, code, ctrl, alt, meta, typing (the target takes text), dialog (a modal
 *      dialog is open), onCard (the focus is on a hand card or chooser option),
 *      onButton (on any other button or link), free (the focus is nowhere, or on the
 *      board: arrows and Enter are not taken from the chat's list or the side column)}
 * ctx: {hand (cards in hand), options (the chooser's options, 0 when closed),
 *      only (the card of the position's single legal move, else null)}
 *
 * Actions: {type: "select", index} focus a hand card; {type: "choose", index} play
 * a chooser option; {type: "move", delta} the next/previous card or option;
 * {type: "play-only"} play the single legal move; {type: "focus"} bring the
 * focus to the hand; {type: "cancel"} close the chooser; {type: "help"}; {type: "ask", what}
 * say an answer (ev.shift: Shift is held).
 */
export function keyAction(ev, ctx) {
  if (ev.ctrl || ev.alt || ev.meta || ev.typing || ev.dialog) return null;
  const { key } = ev;
  const options = ctx.options || 0;
  if (key === "?") return { type: "help" };
  if (ev.shift && typeof key === "string" && ASK_KEYS[key.toUpperCase()]) return { type: "ask", what: ASK_KEYS[key.toUpperCase()] };
  if (key === "Escape") return options ? { type: "cancel" } : null;
  const arrow = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[key];
  if (arrow) {
    if (ev.onCard) return { type: "move", delta: arrow };
    return ev.free && !ev.onButton ? { type: "focus" } : null;
  }
  if (key === "Enter") {
    if (ev.onCard || ev.onButton || !ev.free) return null; // a focused button plays, as a click would
    if (ctx.only && !options) return { type: "play-only" };
    return options ? null : { type: "focus" };
  }
  const index = indexOfKey(key, ev.code);
  if (index < 0) return null;
  if (options) return index < options ? { type: "choose", index } : null;
  return index < (ctx.hand || 0) ? { type: "select", index } : null;
}

/** The single legal move's card when the position has exactly one distinct move, else null. */
export function onlyMove(legal) {
  const moves = new Set((legal || []).map((m) => `${m.card}|${[...(m.take || [])].sort().join(",")}`));
  return moves.size === 1 ? legal[0].card : null;
}

/** True when the element takes typed text: the keys are the typist's then. */
export function isTyping(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag !== "input") return false;
  return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"].includes(el.type);
}

const modalOpen = () => !!document.querySelector("[aria-modal=true]");
const handButtons = () => [...document.querySelectorAll("[data-testid=hand] button.card-btn")];
const optionButtons = () => [...document.querySelectorAll("[data-testid=chooser] button.option")];

/** Whether the focus may be taken for the hand: lost (the page itself) or in the hand already. */
function focusIsFree() {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement || !el.isConnected) return true;
  return !!el.closest("[data-testid=hand]");
}

/**
 * Focus the hand: the focused card if fitting, else the first legal one (on my
 * turn), else the card at `at`.  `quiet`: without scrolling (a focus given back
 * by itself must not scroll a phone's page away from what its player reads).
 */
export function focusHand(at = 0, quiet = false) {
  const buttons = handButtons();
  if (!buttons.length) return;
  const current = buttons.indexOf(document.activeElement);
  const legal = buttons.filter((b) => b.closest("li.legal"));
  let target;
  if (legal.length) target = legal.includes(buttons[current]) ? buttons[current] : legal[0];
  else target = current >= 0 ? buttons[current] : buttons[Math.max(0, Math.min(at, buttons.length - 1))];
  if (target !== document.activeElement) target.focus({ preventScroll: quiet });
}

/**
 * Marks <html data-kbd> from the first key press until the next pointer press:
 * the cards' and options' key badges show only to someone using the keyboard.
 */
function useKeyboardMark() {
  useEffect(() => {
    const root = document.documentElement;
    const onKey = (e) => {
      if (!["Shift", "Control", "Alt", "Meta"].includes(e.key)) root.setAttribute("data-kbd", "");
    };
    const onPointer = () => root.removeAttribute("data-kbd");
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onPointer, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onPointer, true);
    };
  }, []);
}

/**
 * The table's keys: one document listener that reads the latest props through a
 * ref.  `props`: {view, choosing, onPlay(card), onChoose(option), onCancel(), onHelp(), onAsk(what)}.
 */
export function useTableKeys(props) {
  const latest = useRef(props);
  latest.current = props;
  useKeyboardMark();
  useEffect(() => {
    const onKey = (e) => {
      if (e.defaultPrevented) return;
      const { view, choosing, onPlay, onChoose, onCancel, onHelp, onAsk } = latest.current;
      const target = e.target;
      const onCard = !!(target && target.closest && target.closest("[data-testid=hand] button.card-btn, [data-testid=chooser] button.option"));
      const onButton = !!(target && target.closest && target.closest("button, a[href], summary"));
      const ev = {
        key: e.key, code: e.code, ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey, shift: e.shiftKey,
        typing: isTyping(target), dialog: modalOpen(), onCard, onButton,
        free: !target || target === document.body || target === document.documentElement || !!(target.closest && target.closest(".board")),
      };
      const ctx = { hand: (view.hand || []).length, options: choosing ? choosing.visible.length : 0, only: onlyMove(view.legal) };
      const action = keyAction(ev, ctx);
      if (!action) return;
      e.preventDefault();
      if (action.type === "help") onHelp();
      else if (action.type === "ask") onAsk(action.what);
      else if (action.type === "cancel") onCancel();
      else if (action.type === "choose") onChoose(choosing.visible[action.index]);
      else if (action.type === "play-only") onPlay(ctx.only);
      else if (action.type === "focus") focusHand();
      else if (action.type === "select") {
        const b = handButtons()[action.index];
        if (b) b.focus();
      } else if (action.type === "move") {
        const list = target.closest("[data-testid=chooser]") ? optionButtons() : handButtons();
        const i = list.indexOf(target.closest("button"));
        if (i >= 0 && list.length) list[(i + action.delta + list.length) % list.length].focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

/**
 * Brings the focus back to the hand after each play, each new packet and each
 * dialog that closes, and onto a playable card when the turn comes, but only
 * when the focus is lost (the played card's button is gone) or in the hand
 * already: never from the chat's input or any other control the player is on.
 * `stamp` changes whenever that may be due (the view's seq, the chooser, a dialog).
 */
export function useHandFocus(stamp, enabled) {
  const last = useRef(0);
  // In the commit itself, so that no key pressed the moment the turn comes finds the
  // focus still on a card that was playable a turn ago.
  useLayoutEffect(() => {
    if (!enabled || modalOpen()) return;
    if (document.querySelector("[data-testid=chooser]")) return; // the chooser keeps its own focus
    if (!focusIsFree()) return;
    const buttons = handButtons();
    const i = buttons.indexOf(document.activeElement);
    if (i >= 0) last.current = i;
    focusHand(last.current, true);
  }, [stamp, enabled]);
}
