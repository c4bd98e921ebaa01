// The tutorial (/tutorial): one fixed deal against a bot, in guided steps that
// each explain a rule and wait for the right card; it ends by offering a real
// game.  No server room: the page plays the deal alone.
//
// The deal is the server's (GET /api/tutorial, made by the engine's tutorial
// module): the engine plays the scripted deal through and sends every position
// as the game's own view of the learner's seat (hands, table, pictures set
// aside, packets, log, scores, award), with each next play and what it does.  This module only steps
// from one position to the next, when the learner plays the step's card or the
// bot's turn comes; it works out no rule.  The step texts are
// static/rules/<lang>.json's `tutorial`.
import { html, useState, useEffect, useRef } from "../html.js";
import { t, cardName } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import * as settings from "../settings.js";
import { loadTutorial } from "../rulefacts.js";
import { Header, navigate, ErrorNotice } from "./common.js";
import { TableCards, Stock, SetAside, LastMove, Hand } from "./board.js";
import { SeatBox } from "./seats.js";
import { GameLog } from "./panels.js";
import { Breakdown } from "./summary.js";
import { PacketNotice, PlayEffects } from "./effects.js";
import { useRuleTexts, usePageTitle } from "./rules.js";

const BOT_DELAY = { normal: 900, fast: 400, off: 0 }; // ms before the bot answers

/** The seats as the table's components name them: the learner, and bots. */
function seatsOf(tutorial, name) {
  return Array.from({ length: tutorial.players }, (_, seat) =>
    seat === tutorial.you ? { seat, name } : { seat, name: t("bot"), bot: true },
  );
}

/**
 * The view the table's components read at position `k`: the engine's view of the
 * learner's seat as the server sent it, with the seats' names and the rules.
 */
export function frameView(tutorial, k, name) {
  return {
    ...tutorial.frames[k].view,
    status: "playing",
    rules: tutorial.rules,
    seats: seatsOf(tutorial, name),
  };
}

/** The play made from position `k` ({seat, card, take, kind, step, ...}), or null at the end. */
export const nextMove = (tutorial, k) => (tutorial.frames[k] ? tutorial.frames[k].move : null);

/** The position after the learner plays `code` at position `k`: k + 1, or k with why not. */
export function afterPlay(tutorial, k, code) {
  const move = nextMove(tutorial, k);
  if (!move || move.seat !== tutorial.you) return { k, refused: "bot_thinking" };
  if (code !== move.card) return { k, refused: "wrong" };
  return { k: k + 1, refused: null };
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
  const [tutorial, setTutorial] = useState(null);
  const [k, setK] = useState(0); // the position shown: frames[k]
  const [note, setNote] = useState(null);
  const [failed, setFailed] = useState(false);
  const panel = useRef(null);
  usePageTitle(words && words.tutorial.title);
  useEffect(() => {
    loadTutorial().then((tut) => {
      setTutorial(tut);
      setK(0);
    }, () => setFailed(true));
  }, []);

  // The bot answers after a moment (none when animations are off).
  const move = tutorial ? nextMove(tutorial, k) : null;
  const botTurn = !!move && move.seat !== tutorial.you;
  useEffect(() => {
    if (!botTurn) return undefined;
    const tm = setTimeout(() => setK((x) => x + 1), BOT_DELAY[settings.get().anim] ?? 900);
    return () => clearTimeout(tm);
  }, [botTurn, k]);

  useEffect(() => {
    setNote(null);
  }, [k]);

  if (failed) return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><${ErrorNotice} error=${{ code: "network" }} /></main></div>`;
  if (!words || !tutorial) return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><p class="loading" role="status">${t("loading")}</p></main></div>`;

  const texts = words.tutorial;
  const view = frameView(tutorial, k, session.getName() || words.labels.players[0]);
  const mine = !!move && move.seat === tutorial.you;
  const stepNo = mine ? tutorial.steps.indexOf(move.step) + 1 : null;
  const over = !move;
  const others = view.seats.filter((s) => s.seat !== tutorial.you);

  const play = (code) => {
    const next = afterPlay(tutorial, k, code);
    if (next.refused === "bot_thinking") return setNote(texts.bot_thinking);
    if (next.refused === "wrong") return setNote(texts.wrong.replace("{card}", cardName(move.card)));
    setK(next.k);
  };
  const describe = () => null; // the step's text says what the card does
  const restart = () => setK(0);

  const summary = over ? { scores: view.scores, award: view.award } : null;

  return html`<div class="page game tutorial">
    <${Header} store=${store}><span class="deal-no">${texts.title}</span><//>
    <main id="main" class="game-grid">
      <div class="board">
        <div class=${`opponents n${others.length}`} aria-label=${t("players_at_table")}>
          ${others.map((s) => html`<${SeatBox} key=${s.seat} view=${view} seat=${s.seat} presence=${null} now=${0} compact=${false} />`)}
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
          <section class="tutorial-step panel" ref=${panel} aria-live="polite" data-testid="tutorial-step" data-step=${mine ? move.step : over ? "done" : "bot"}>
            ${over
              ? html`<h2>${texts.done_title}</h2>`
              : html`<p class="step-no">${stepNo ? texts.step_n.replace("{n}", stepNo).replace("{total}", tutorial.steps.length) : texts.bot_thinking}</p>`}
            ${k === 0 ? html`<p class="hint">${texts.intro}</p>` : null}
            ${mine ? html`<p class="step-text">${texts.steps[move.step]}</p>` : null}
            ${note ? html`<p class="notice" role="status" data-testid="tutorial-note">${note}</p>` : null}
            ${over
              ? html`<p>${texts.done}</p>
                  <${Breakdown} view=${view} summary=${summary} />
                  <${RealGame} store=${store} texts=${texts} />
                  <p><button type="button" class="btn small" onClick=${restart} data-testid="tutorial-again">${texts.again}</button></p>`
              : null}
          </section>
          ${!over ? html`<${Hand} view=${view} legal=${new Set((view.legal || []).map((m) => m.card))} myTurn=${mine}
              pending=${null} choosing=${null} describe=${describe} onPlay=${play} />` : null}
        </div>
      </div>
      <aside class="side">
        <${GameLog} view=${view} />
      </aside>
    </main>
  </div>`;
}
