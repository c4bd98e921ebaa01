// The tutorial (/tutorial): one fixed deal against a bot, run in the browser
// alone (no server room), in guided steps that each explain a rule and wait
// for the right card; it ends by offering a real game.
//
// The deal and every play are static/tutorial/tutorial.json, which
// tests/engine/test_tutorial_script.py replays through the engine: every play
// there is legal and every stated result (kind, cards taken, running scores,
// packet, award, final scores) is the engine's.  This module only moves the
// cards as the script says (hands, table, the picture clean-up before a
// packet, the packet dealt two and two) and shows the script's scores.
import { html, useState, useEffect, useRef } from "../html.js";
import { t, cardName } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import * as settings from "../settings.js";
import { isPicture } from "../cards.js";
import { Header, navigate, ErrorNotice } from "./common.js";
import { TableCards, Stock, SetAside, LastMove, Hand } from "./board.js";
import { SeatBox } from "./seats.js";
import { GameLog } from "./panels.js";
import { Breakdown } from "./summary.js";
import { PacketNotice, PlayEffects } from "./effects.js";
import { useRuleTexts, usePageTitle } from "./rules.js";

const BOT_DELAY = { normal: 900, fast: 400, off: 0 }; // ms before the bot answers

let scriptPromise = null;
function loadScript() {
  if (!scriptPromise) {
    scriptPromise = fetch(new URL("../../tutorial/tutorial.json", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error("no tutorial");
      return r.json();
    });
  }
  return scriptPromise;
}

/** Pictures on the table go aside (R2.4): spades to the last capturer's pile, the others nowhere. */
function cleanTable(state) {
  const pictures = state.table.filter(isPicture);
  return {
    ...state,
    table: state.table.filter((c) => !isPicture(c)),
    spades: [...state.spades, ...pictures.filter((c) => c.endsWith("S"))],
    other: [...state.other, ...pictures.filter((c) => !c.endsWith("S"))],
  };
}

export function startState(script) {
  return cleanTable({
    hands: script.hands.map((h) => [...h]),
    table: [...script.table],
    stock: [...script.stock],
    spades: [],
    other: [],
    log: [],
    next: 0, // index of the next scripted move
    scores: script.players ? Array(script.players).fill(0) : [],
    award: null,
    packets: 0,
  });
}

const without = (cards, gone) => {
  const out = [...cards];
  for (const c of gone) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
};

/** The state after scripted move number state.next. */
export function applyNext(script, state) {
  const m = script.moves[state.next];
  const hands = state.hands.map((h, s) => (s === m.seat ? without(h, [m.card]) : h));
  const table = m.take.length ? without(state.table, m.take) : [...state.table, m.card];
  let next = {
    ...state,
    hands,
    table,
    next: state.next + 1,
    log: [...state.log, { seat: m.seat, card: m.card, kind: m.kind, taken: [...m.take] }],
    scores: m.scores,
    lastCapturer: m.take.length ? m.seat : state.lastCapturer,
  };
  if (hands.every((h) => !h.length)) {
    if (next.stock.length) {
      // A new packet (R2.5): pictures aside, then 2 + 2 to each from the dealer's left.
      next = cleanTable(next);
      const stock = [...next.stock];
      const dealt = next.hands.map((h) => [...h]);
      for (let round = 0; round < 2; round++) {
        for (let i = 1; i <= script.players; i++) dealt[(script.dealer + i) % script.players].push(...stock.splice(0, 2));
      }
      next = { ...next, hands: dealt, stock, packets: next.packets + 1 };
    } else {
      // The deal is over (R5.1): the script says who takes what is left.
      next = { ...next, award: script.end.award, table: [], spades: [] };
    }
  }
  return next;
}

/** The view-shaped object the table's components read. */
function viewOf(script, state, name) {
  const m = script.moves[state.next];
  return {
    players: script.players,
    opening_hand: script.hands[0].length,
    dealer: script.dealer,
    you: 0,
    to_move: m ? m.seat : null,
    status: "playing",
    deal_over: !m,
    hand: state.hands[0],
    hand_counts: state.hands.map((h) => h.length),
    table: state.table,
    stock_count: state.stock.length,
    last_packet: state.stock.length === 0,
    set_aside_spades: state.spades,
    set_aside_other: state.other,
    last_move: state.log[state.log.length - 1] || null,
    log: state.log,
    rules: script.rules,
    seats: [{ seat: 0, name }, { seat: 1, name: t("bot"), bot: true }],
    scores: state.scores.map((total) => ({ total })),
    legal: m && m.seat === 0 ? [{ card: m.card, take: m.take }] : [],
  };
}

function RealGame({ store, texts }) {
  const [name, setName] = useState(session.getName());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const start = async (ev) => {
    ev.preventDefault();
    if (!name.trim()) return setError({ code: "name_needed" });
    setBusy(true);
    try {
      const res = await api.createRoom({ players: 2, name: name.trim(), rules: {}, bots: 1, bot_level: "greedy", bot_delay: 0.8, turn_clock: null });
      session.saveName(name.trim());
      session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: name.trim() });
      navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  return html`<form class="tutorial-real" onSubmit=${start}>
    <div class="field">
      <label for="tutorial-name">${t("your_name")}</label>
      <input id="tutorial-name" maxlength="24" autocomplete="nickname" value=${name} onInput=${(e) => setName(e.target.value)} />
    </div>
    <${ErrorNotice} error=${error} />
    <button type="submit" class="btn primary" disabled=${busy} data-testid="tutorial-real-game">${texts.play_real}</button>
  </form>`;
}

export function TutorialPage({ store }) {
  const words = useRuleTexts();
  const [script, setScript] = useState(null);
  const [state, setState] = useState(null);
  const [note, setNote] = useState(null);
  const [failed, setFailed] = useState(false);
  const panel = useRef(null);
  usePageTitle(words && words.tutorial.title);
  useEffect(() => {
    loadScript().then((s) => {
      setScript(s);
      setState(startState(s));
    }, () => setFailed(true));
  }, []);

  // The bot answers after a moment (none when animations are off).
  const botTurn = script && state && script.moves[state.next] && script.moves[state.next].seat !== 0;
  useEffect(() => {
    if (!botTurn) return undefined;
    const tm = setTimeout(() => setState((s) => applyNext(script, s)), BOT_DELAY[settings.get().anim] ?? 900);
    return () => clearTimeout(tm);
  }, [botTurn, state && state.next]);

  useEffect(() => {
    setNote(null);
  }, [state && state.next]);

  if (failed) return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><${ErrorNotice} error=${{ code: "network" }} /></main></div>`;
  if (!words || !script || !state) return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><p class="loading" role="status">${t("loading")}</p></main></div>`;

  const texts = words.tutorial;
  const view = viewOf(script, state, session.getName() || words.labels.players[0]);
  const move = script.moves[state.next];
  const steps = script.moves.filter((m) => m.seat === 0);
  const stepNo = move && move.seat === 0 ? steps.indexOf(move) + 1 : null;
  const over = !move;

  const play = (code) => {
    if (!move || move.seat !== 0) return setNote(texts.bot_thinking);
    if (code !== move.card) return setNote(texts.wrong.replace("{card}", cardName(move.card)));
    setState(applyNext(script, state));
  };
  const describe = () => null; // the step's text says what the card does
  const restart = () => setState(startState(script));

  const summary = over ? { scores: script.end.scores, award: script.end.award } : null;
  const endView = over ? { ...view, total_points: script.end.total_points } : null;

  return html`<div class="page game tutorial">
    <${Header} store=${store}><span class="deal-no">${texts.title}</span><//>
    <main id="main" class="game-grid">
      <div class="board">
        <div class="opponents n1" aria-label=${t("players_at_table")}>
          <${SeatBox} view=${view} seat=${1} presence=${null} now=${0} compact=${false} />
        </div>
        <div class="felt" aria-label=${t("table")}>
          <div class="felt-top">
            <${Stock} view=${view} />
            ${view.last_packet && !over ? html`<div class="last-packet" role="status">${t("last_packet")}</div>` : null}
            <${PacketNotice} view=${view} />
            <${SetAside} view=${view} />
          </div>
          <${TableCards} view=${view} choosing=${null} onPickTable=${() => {}} hoverTake=${null} />
          <${LastMove} view=${view} />
          <${PlayEffects} view=${view} />
        </div>
        <div class="me-area">
          <section class="tutorial-step panel" ref=${panel} aria-live="polite" data-testid="tutorial-step" data-step=${move && move.step ? move.step : over ? "done" : "bot"}>
            ${over
              ? html`<h2>${texts.done_title}</h2>`
              : html`<p class="step-no">${stepNo ? texts.step_n.replace("{n}", stepNo).replace("{total}", steps.length) : texts.bot_thinking}</p>`}
            ${state.next === 0 ? html`<p class="hint">${texts.intro}</p>` : null}
            ${move && move.seat === 0 ? html`<p class="step-text">${texts.steps[move.step]}</p>` : null}
            ${note ? html`<p class="notice" role="status" data-testid="tutorial-note">${note}</p>` : null}
            ${over
              ? html`<p>${texts.done}</p>
                  <${Breakdown} view=${endView} summary=${summary} />
                  <${RealGame} store=${store} texts=${texts} />
                  <p><button type="button" class="btn small" onClick=${restart} data-testid="tutorial-again">${texts.again}</button></p>`
              : null}
          </section>
          ${!over ? html`<${Hand} view=${view} legal=${new Set(move && move.seat === 0 ? [move.card] : [])} myTurn=${!!move && move.seat === 0}
              pending=${null} choosing=${null} describe=${describe} onPlay=${play} />` : null}
        </div>
      </div>
      <aside class="side">
        <${GameLog} view=${view} />
      </aside>
    </main>
  </div>`;
}
