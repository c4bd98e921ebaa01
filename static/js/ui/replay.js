// The replay viewer: /r/<room>/replay/<match>/<deal>[?step=k], a stable link to any
// finished deal.  First / previous / next / last, a slider, the arrow keys (Home and
// End too) and a clickable move list step through the positions the server's
// engine replayed; the step is kept in the URL, so a position can be shared too.
import { html, useState, useEffect, useRef, useLayoutEffect } from "../html.js";
import { t, cardName } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink, historyPath, replayPath } from "./common.js";
import { PositionBoard, RunningScores, StepMove, positionView, stepText } from "./position.js";
import { MoveLine, seatName } from "./words.js";
import { useAnalysis, playOfStep, mistakesOf, CoachStep, CoachPanel, LabelBadge } from "./coach.js";
import { useOwnSeat } from "./ownseat.js";
import { learnPath } from "./learn.js";
import { PlayYourself } from "./daily.js";

const ICONS = {
  first: "M3 3h2v10H3zM13 3v10L6 8z",
  prev: "M11 3v10L4 8z",
  next: "M5 3v10l7-5z",
  last: "M11 3h2v10h-2zM3 3v10l7-5z",
};

/** First / previous / next / last and a slider; `disabled` for those who follow a driver. */
export function StepControls({ step, last, setStep, disabled, label }) {
  const btn = (to, icon) => html`<button type="button" class="btn small step-btn" disabled=${disabled || to === step}
      onClick=${() => setStep(to)} data-testid=${`step-${icon}`} aria-label=${t(`replay_${icon}`)} title=${t(`replay_${icon}`)}>
      <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d=${ICONS[icon]} /></svg></button>`;
  return html`<div class="step-controls" role="group" aria-label=${t("replay_controls")}>
    ${btn(0, "first")}
    ${btn(Math.max(0, step - 1), "prev")}
    <span class="step-count" data-testid="step-count">${t("replay_step_of", { n: step, total: last })}</span>
    ${btn(Math.min(last, step + 1), "next")}
    ${btn(last, "last")}
    <input type="range" class="step-slider" min="0" max=${last} value=${step} disabled=${disabled}
      aria-label=${t("replay_slider")} aria-valuetext=${label ? label(step) : String(step)}
      onInput=${(e) => setStep(Number(e.target.value))} data-testid="step-slider" />
  </div>`;
}

/** The take-backs and hints of a deal against bots (issue 33) at a step: the record's
 * `assists` whose `index` (the moves that stood then) is this step. */
export function AssistMarks({ record, step, testid = "assist-mark" }) {
  const marks = (record.assists || []).filter((m) => m.index === step);
  if (!marks.length) return null;
  const text = (m) =>
    m.kind === "takeback"
      ? t("replay_taken_back", { cards: (m.moves || []).map((x) => cardName(x.card)).join(", ") })
      : t("replay_hint", { card: cardName(m.card) });
  return html`<ul class="assist-marks">
    ${marks.map((m, i) => html`<li key=${i} class=${`assist-mark ${m.kind}`} data-testid=${testid} data-kind=${m.kind}>${text(m)}</li>`)}
  </ul>`;
}

/** Every move of the deal as a button; the current step is marked, and so is each play
 * the coach labelled once its `analysis` is there. */
export function MoveList({ record, step, setStep, disabled, analysis = null }) {
  const box = useRef(null);
  useEffect(() => {
    const list = box.current;
    const el = list && list.querySelector("[aria-current=step]");
    if (!el) return;
    if (el.offsetTop < list.scrollTop) list.scrollTop = el.offsetTop;
    else if (el.offsetTop + el.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = el.offsetTop + el.offsetHeight - list.clientHeight;
  }, [step]);
  const view = positionView(record, record.positions.length - 1);
  const item = (k, content) => html`<li key=${k}>
    <button type="button" class="move-btn" aria-current=${k === step ? "step" : undefined} disabled=${disabled}
      onClick=${() => setStep(k)} data-testid="move-item" data-step=${k}>
      <span class="move-no">${k}.</span> ${content}${analysis ? html` <${LabelBadge} play=${playOfStep(analysis, k)} testid="coach-mark" />` : null}
    </button><${AssistMarks} record=${record} step=${k} /></li>`;
  return html`<section class="panel move-list-panel" aria-labelledby="moves-title">
    <h2 id="moves-title">${t("replay_moves")}</h2>
    <ol class="move-list" ref=${box}>
      ${item(0, t("replay_as_dealt"))}
      ${record.positions.slice(1).map((p, i) => item(i + 1, html`<${MoveLine} view=${view} move=${p.move} />`))}
    </ol>
  </section>`;
}

/** Arrow keys (and Home / End) step while `active` and no text field or slider has the
 * focus.  One document listener from the first render on, reading the latest step and
 * `active` from a ref: key presses come faster than effects run, and a listener attached
 * only once `active` turned true would miss a key pressed the moment control arrives
 * (a review handed over: the pane says "you drive" a frame before an effect would run). */
export function useStepKeys(step, last, setStep, active = true) {
  const now = useRef(null);
  now.current = { step, last, setStep, active };
  useLayoutEffect(() => {
    const onKey = (e) => {
      const cur = now.current;
      // defaultPrevented: the key was the live table's (a review beside it, issue 47)
      if (!cur.active || e.defaultPrevented) return;
      const tag = e.target && e.target.tagName;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = { ArrowLeft: cur.step - 1, ArrowRight: cur.step + 1, Home: 0, End: cur.last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      cur.setStep(Math.max(0, Math.min(cur.last, to)));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

export function ReplayPage({ store, route }) {
  const { roomId, match, deal } = route;
  const [record, setRecord] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStepNow] = useState(route.step || 0);
  useEffect(() => {
    api.dealPositions(roomId, match, deal).then(
      (r) => {
        setRecord(r);
        setStepNow((s) => Math.min(s, r.positions.length - 1));
      },
      (err) => setError({ code: err.code === "not_found" ? "replay_missing" : err.code, message: err.message }),
    );
  }, [roomId, match, deal]);
  const last = record ? record.positions.length - 1 : 0;
  const setStep = (k) => {
    setStepNow(k);
    history.replaceState(history.state, "", `${replayPath(roomId, match, deal)}${k ? `?step=${k}` : ""}`);
  };
  useStepKeys(step, last, setStep, !!record);
  const analysis = useAnalysis(roomId, match, deal, !!record);
  const mySeat = useOwnSeat(roomId); // on any device of the player (issue 47)
  const [coachSeat, setCoachSeat] = useState(mySeat === null || mySeat === undefined ? 0 : mySeat);
  useEffect(() => {
    if (mySeat !== null) setCoachSeat(mySeat); // known once the server answered
  }, [mySeat]);
  const learnHref = mySeat !== null && mySeat !== undefined && mistakesOf(analysis, mySeat).length ? learnPath(roomId, match, deal, mySeat) : null;
  const title = t("replay_title", { m: match, n: deal });
  const label = (k) => (record ? `${t("replay_step_of", { n: k, total: last })}: ${stepText(positionView(record, k), k)}` : "");
  return html`<div class="page replay">
    <${Header} store=${store}><span class="deal-no">${title}</span><//>
    <main id="main" class="replay-main">
      <div class="replay-head">
        <h1>${title}</h1>
        ${record && mySeat !== null ? html`<p class="hint replay-you" data-testid="replay-you" data-seat=${mySeat}>${t("replay_your_seat", { name: seatName({ seats: record.seats }, mySeat) })}</p>` : null}
        <nav class="replay-links" aria-label=${t("replay_links")}>
          <${AppLink} store=${store} href=${historyPath(roomId)} data-testid="to-history">${t("history_title")}<//>
          <${AppLink} store=${store} href=${`/r/${encodeURIComponent(roomId)}?watch=1`}>${t("back_to_room")}<//>
          <a href=${api.matchDealUrl(roomId, match, deal)} target="_blank" rel="noopener">${t("deal_record")}</a>
          ${record ? html`<${PlayYourself} store=${store} roomId=${roomId} match=${match} deal=${deal} />` : null}
        </nav>
      </div>
      <${ErrorNotice} error=${error} />
      ${record
        ? html`<div class="replay-grid">
            <div class="replay-left">
              <${StepControls} step=${step} last=${last} setStep=${setStep} label=${label} />
              <${AssistMarks} record=${record} step=${step} testid="assist-mark-here" />
              <${CoachStep} record=${record} analysis=${analysis} step=${step} />
              <${StepMove} record=${record} step=${step} />
              <${PositionBoard} record=${record} step=${step} move=${false} />
            </div>
            <aside class="replay-side">
              <${RunningScores} record=${record} step=${step} />
              <${CoachPanel} record=${record} analysis=${analysis} step=${step} seat=${coachSeat} setSeat=${setCoachSeat} learnHref=${learnHref} />
              <${MoveList} record=${record} step=${step} setStep=${setStep} analysis=${analysis} />
            </aside>
          </div>`
        : error
          ? null
          : html`<p class="loading" role="status">${t("loading")}</p>`}
    </main>
  </div>`;
}
