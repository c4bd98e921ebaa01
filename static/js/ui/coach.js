// The coach's reading of a finished deal (issue 31, docs/bots.md "The coach"): each
// play's label and loss, the best move drawn as a card and its take, the hindsight
// move (every card known, marked as such), a line chart of a seat's expected points
// over the deal and each seat's summary.  The analysis is computed by the server in
// the background; until it is done the endpoint answers 202 with its progress, and
// this module asks again by itself, so the page fills in without a reload.
import { html, useState, useEffect } from "../html.js";
import { t, cardName, num } from "../i18n.js";
import * as api from "../api.js";
import { CardFace } from "./cardsvg.js";
import * as session from "../session.js";
import { seatName, moveText } from "./words.js";
import { LABELS, playOfStep, whyOf } from "./coachplays.js";

export { playOfStep, mistakesOf } from "./coachplays.js";

const POLL_MS = 1500;
/**
 * The analysis of deal n of match m, asked again every POLL_MS while it is queued or
 * running (and after a network failure); `{status: "unavailable", code}` when the
 * server will not give one (the deal is not over, or there is no such deal).
 */
export function useAnalysis(roomId, match, deal, enabled = true) {
  const [state, setState] = useState({ status: "loading" });
  useEffect(() => {
    if (!enabled) return undefined;
    let stopped = false;
    let timer = null;
    const again = (ms) => {
      timer = setTimeout(ask, ms);
    };
    function ask() {
      api.dealAnalysis(roomId, match, deal).then(
        (a) => {
          if (stopped) return;
          setState(a);
          if (a.status !== "done") again(POLL_MS);
        },
        (err) => {
          if (stopped) return;
          if (err.code === "network" || err.status >= 500) again(POLL_MS * 2);
          else setState({ status: "unavailable", code: err.code, message: err.message });
        },
      );
    }
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [roomId, match, deal, enabled]);
  return state;
}

/** This browser's seat in the room (kept when it took the seat), or null. */
export function mySeatIn(roomId) {
  const s = session.getSeat(roomId);
  return s && Number.isInteger(s.seat) ? s.seat : null;
}

/** Points as the coach reckons them, to two decimals in the reader's numbers. */
export const points = (x) => num(Math.round(x * 100) / 100, 2);

/** A play's label as a coloured mark (nothing for a play the coach found fine). */
export function LabelBadge({ play, withLoss = false, testid = "coach-label" }) {
  if (!play || !play.label || play.label === "none") return null;
  return html`<span class=${`coach-label ${play.label}`} data-testid=${testid} data-label=${play.label}
      title=${t("coach_loss", { n: points(play.loss) })}>${t(`coach_${play.label}`)}${withLoss ? html` <span class="coach-loss">${t("coach_loss", { n: points(play.loss) })}</span>` : null}</span>`;
}

/** A move drawn: its card, and what it takes (or that it creeps). */
export function MoveDrawn({ move, testid }) {
  const take = move.take || [];
  const mini = (c) => html`<span class="mini" title=${cardName(c)}><${CardFace} code=${c} label=${cardName(c)} /></span>`;
  return html`<span class="coach-move" data-testid=${testid} data-card=${move.card} data-take=${take.join(" ")}>
    ${mini(move.card)}
    ${take.length
      ? html`<span class="coach-takes">${t("coach_takes")}</span>${take.map(mini)}`
      : html`<span class="coach-takes">${t("coach_creeps")}</span>`}
  </span>`;
}

/** A share of the deals the coach tried, as a percentage in the reader's numbers. */
const odds = (x) => t("coach_odds", { p: num(Math.round(x * 100), 0) });

/**
 * Why a play lost points (issue 47): the consequence the coach found over the deals it
 * tried, with its odds after this play and after the best one, and the likely
 * continuation after this play, each step with the share of the deals that went so.
 */
export function CoachWhy({ view, play }) {
  const why = whyOf(play);
  if (!why) return null;
  const who = seatName(view, play.seat);
  const name = why.seat === null ? who : seatName(view, why.seat);
  const text = t(why.key, { who, name, p: odds(why.p), q: odds(why.q), a: points(why.a), b: points(why.b) });
  return html`<div class="coach-why" data-testid="coach-why" data-part=${why.part}>
    <p data-testid="coach-reason">${text}</p>
    ${why.line.length
      ? html`<p class="hint">${t("coach_line")}</p>
          <ol class="coach-line" data-testid="coach-line">
            ${why.line.map((s, i) => html`<li key=${i} data-testid="coach-line-step" data-seat=${s.seat} data-card=${s.card} data-kind=${s.kind}>
              ${moveText(view, { seat: s.seat, card: s.card, kind: s.kind, taken: s.take })} <span class="hint">(${odds(s.odds)})</span></li>`)}
          </ol>`
      : null}
  </div>`;
}

/** The coach's word on the play of this step: label, loss, best move and why, hindsight. */
export function CoachStep({ record, analysis, step }) {
  const play = playOfStep(analysis, step);
  if (!play) return null;
  const view = { seats: record.seats };
  const best = play.best;
  const isBest = !play.loss || play.loss <= 0;
  return html`<section class="coach-step" data-testid="coach-verdict" data-index=${play.index} data-label=${play.label || "none"}>
    <p>
      <strong>${seatName(view, play.seat)}</strong>: ${t("coach_expected", { n: points(play.expected) })}
      ${" "}<${LabelBadge} play=${play} withLoss=${true} />
      ${isBest ? html` <span class="coach-best-mark" data-testid="coach-was-best">${t("coach_was_best")}</span>` : null}
    </p>
    ${isBest
      ? null
      : html`<p class="coach-best">${t("coach_best")}: <${MoveDrawn} move=${best} testid="coach-best" />
          <span class="hint">${t("coach_expected", { n: points(best.expected) })}</span></p>
          <${CoachWhy} view=${view} play=${play} />`}
    ${play.hindsight
      ? html`<p class="coach-hindsight hint" data-testid="coach-hindsight">${t("coach_hindsight")}:
          <${MoveDrawn} move=${play.hindsight} testid="coach-hindsight-move" /> ${t("coach_points", { n: points(play.hindsight.points) })}</p>`
      : null}
  </section>`;
}

/** Each seat's plays, total loss and counts of labels. */
export function CoachSeats({ record, analysis }) {
  const view = { seats: record.seats };
  return html`<table class="score-table coach-seats" data-testid="coach-seats">
    <thead><tr>
      <th scope="col">${t("player")}</th>
      <th scope="col">${t("coach_plays")}</th>
      <th scope="col">${t("coach_total_loss")}</th>
      ${LABELS.map((l) => html`<th scope="col">${t(`coach_${l}_plural`)}</th>`)}
    </tr></thead>
    <tbody>
      ${analysis.seats.map((s) => html`<tr key=${s.seat} data-testid="coach-seat" data-seat=${s.seat}>
        <th scope="row">${seatName(view, s.seat)}</th>
        <td>${s.plays}</td><td>${points(s.loss)}</td>
        <td>${s.inaccuracies}</td><td>${s.mistakes}</td><td>${s.blunders}</td>
      </tr>`)}
    </tbody>
  </table>`;
}

const CHART = { w: 320, h: 140, pad: 24 };

/**
 * A seat's expected final points after each of its plays (what the play chose, as
 * the coach reckoned it), as a line; the best move's figure is drawn faintly under
 * it, so the gap between the two lines is what the seat gave away.
 */
export function ExpectedChart({ record, analysis, seat, step }) {
  const mine = analysis.plays.filter((p) => p.seat === seat);
  if (!mine.length) return null;
  const total = Math.max(1, analysis.plays.length);
  const values = mine.flatMap((p) => [p.expected, p.best.expected]);
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  const x = (p) => CHART.pad + (p.index / Math.max(1, total - 1)) * (CHART.w - 2 * CHART.pad);
  const y = (v) => CHART.h - CHART.pad - ((v - lo) / (hi - lo)) * (CHART.h - 2 * CHART.pad);
  const line = (f) => mine.map((p) => `${x(p).toFixed(1)},${y(f(p)).toFixed(1)}`).join(" ");
  const current = playOfStep(analysis, step);
  const view = { seats: record.seats };
  return html`<figure class="coach-chart" data-testid="coach-chart" data-seat=${seat} data-points=${mine.length}>
    <svg viewBox=${`0 0 ${CHART.w} ${CHART.h}`} role="img" aria-label=${t("coach_chart_of", { name: seatName(view, seat) })}>
      <line class="axis" x1=${CHART.pad} y1=${CHART.h - CHART.pad} x2=${CHART.w - CHART.pad} y2=${CHART.h - CHART.pad} />
      <text class="tick" x="2" y=${y(hi) + 4}>${points(hi)}</text>
      <text class="tick" x="2" y=${y(lo) + 4}>${points(lo)}</text>
      <polyline class="best-line" points=${line((p) => p.best.expected)} />
      <polyline class="played-line" points=${line((p) => p.expected)} />
      ${mine.map((p) => html`<circle class=${`dot ${p.label || "none"} ${current && current.index === p.index ? "here" : ""}`}
          cx=${x(p)} cy=${y(p.expected)} r=${current && current.index === p.index ? 5 : 3}><title>${t("coach_expected", { n: points(p.expected) })}</title></circle>`)}
    </svg>
    <figcaption class="hint">${t("coach_chart_caption")}</figcaption>
  </figure>`;
}

/** The coach's side panel: progress while it works, then the chart and the seats. */
export function CoachPanel({ record, analysis, step, seat, setSeat, learnHref }) {
  if (analysis.status === "unavailable") return null;
  const done = analysis.status === "done";
  return html`<section class="panel coach-panel" aria-labelledby="coach-title" data-testid=${done ? "coach-panel" : "coach-pending"} data-status=${analysis.status}>
    <h2 id="coach-title">${t("coach_title")}</h2>
    ${done
      ? html`
          <label class="coach-seat-pick">${t("coach_chart_seat")}
            <select value=${seat} onChange=${(e) => setSeat(Number(e.target.value))} data-testid="coach-seat-pick">
              ${analysis.seats.map((s) => html`<option value=${s.seat}>${seatName({ seats: record.seats }, s.seat)}</option>`)}
            </select>
          </label>
          <${ExpectedChart} record=${record} analysis=${analysis} seat=${seat} step=${step} />
          <${CoachSeats} record=${record} analysis=${analysis} />
          <p class="hint">${t("coach_method", { n: analysis.samples })}</p>
          ${learnHref ? html`<p><a class="btn small" href=${learnHref} data-testid="learn-link">${t("learn_title")}</a></p>` : null}`
      : html`<p role="status" data-testid="coach-progress">${analysis.status === "loading"
          ? t("loading")
          : t("coach_working", { done: analysis.done || 0, total: analysis.total || 0 })}</p>`}
  </section>`;
}

/** "See how you played", in the end-of-deal summary: the replay with the coach's
 * marks, in a new tab (the table and its clock stay where they are); while the
 * analysis is made, its progress beside the link (the replay fills in by itself). */
export function SeeHowYouPlayed({ roomId, match, deal, href }) {
  const analysis = useAnalysis(roomId, match, deal, !!match && !!deal);
  if (analysis.status === "unavailable") return null;
  const working = analysis.status === "queued" || analysis.status === "running";
  return html`<p class="coach-link"><a href=${href} target="_blank" rel="noopener" data-testid="coach-link">${t("coach_see_how")}</a>
    ${working
      ? html` <span class="hint" role="status" data-testid="see-how-pending">${t("coach_working", { done: analysis.done || 0, total: analysis.total || 0 })}</span>`
      : null}</p>`;
}
