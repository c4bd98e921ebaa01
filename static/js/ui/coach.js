// The coach's analysis of a finished deal beside its replay (issue 31): each play's
// label and loss in the move list, and for the play at the current step its verdict,
// the best move drawn as a card with what it takes, and the best move in hindsight
// (every card known, marked as such); each seat's summary below.  The analysis is
// asked for when the replay opens and asked again until it is made (202), so the
// page updates by itself.  Nothing here rates a play: every number is the server's.
import { html, useState, useEffect } from "../html.js";
import { t, num } from "../i18n.js";
import * as api from "../api.js";
import { CardFace } from "./cardsvg.js";
import { CardRef, CardRefs, seatName } from "./words.js";

const POLL_MS = 2000;

/** The analysis (status done), its progress ({status, done, total}), or null. */
export function useAnalysis(roomId, match, deal) {
  const [analysis, setAnalysis] = useState(null);
  useEffect(() => {
    let stop = false;
    let timer = null;
    const ask = () =>
      api.dealAnalysis(roomId, match, deal).then(
        (a) => {
          if (stop) return;
          setAnalysis(a);
          if (a && a.status !== "done") timer = setTimeout(ask, POLL_MS);
        },
        (err) => {
          if (stop) return;
          // busy or the database away: ask again; a live or missing deal has none
          if (err.code === "busy" || err.code === "unavailable" || err.code === "network") timer = setTimeout(ask, POLL_MS * 3);
          else setAnalysis(null);
        },
      );
    ask();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [roomId, match, deal]);
  return analysis;
}

const sameMove = (a, b) => a.card === b.card && [...a.take].sort().join() === [...b.take].sort().join();
const loss = (p) => t("coach_loss", { n: num(p.loss) });

/** A play's label beside it in the move list (nothing for an unlabelled play). */
export function CoachMark({ analysis, step }) {
  if (!analysis || analysis.status !== "done" || step < 1) return null;
  const p = analysis.plays[step - 1];
  if (!p || p.label === "none") return null;
  return html`<span class=${`coach-mark ${p.label}`} data-testid="coach-mark" data-label=${p.label} title=${loss(p)}
    >${t(`coach_${p.label}`)} <span class="coach-loss">−${num(p.loss)}</span></span>`;
}

function Move({ card, take }) {
  return html`<span class="coach-move"><span class="coach-card"><${CardFace} code=${card} /></span>
    <span class="coach-move-text"><${CardRef} code=${card} />${take.length
      ? html` ${t("coach_takes")} <${CardRefs} cards=${take} />`
      : html` ${t("coach_creeps")}`}</span></span>`;
}

/** The verdict on the play that led to ``step``, and every seat's summary. */
export function CoachPanel({ analysis, record, step }) {
  if (!analysis) return null;
  if (analysis.status !== "done") {
    return html`<section class="panel coach-panel" aria-labelledby="coach-title" data-testid="coach-pending">
      <h2 id="coach-title">${t("coach_title")}</h2>
      <p role="status">${t("coach_pending", { done: num(analysis.done || 0), total: num(analysis.total || 0) })}</p>
    </section>`;
  }
  const view = { ...record, you: null };
  const p = step > 0 ? analysis.plays[step - 1] : null;
  const same = p && sameMove(p, p.best);
  return html`<section class="panel coach-panel" aria-labelledby="coach-title" data-testid="coach-panel">
    <h2 id="coach-title">${t("coach_title")}</h2>
    ${p
      ? html`<div class="coach-verdict" data-testid="coach-verdict" data-label=${p.label}>
          <p><strong>${seatName(view, p.seat)}</strong>: <span class=${`coach-label ${p.label}`}>${t(`coach_${p.label}`)}</span>
            ${p.loss > 0 ? html` · ${loss(p)}` : null}</p>
          <p class="coach-expected">${t("coach_expected", { n: num(p.expected) })}</p>
          ${same
            ? html`<p>${t("coach_was_best")}</p>`
            : html`<div class="coach-best" data-testid="coach-best"><span>${t("coach_best", { n: num(p.best.expected) })}</span>
                <${Move} card=${p.best.card} take=${p.best.take} /></div>`}
          <div class="coach-hindsight" data-testid="coach-hindsight"><span>${t("coach_hindsight", { n: num(p.hindsight.points) })}</span>
            <${Move} card=${p.hindsight.card} take=${p.hindsight.take} /></div>
        </div>`
      : html`<p>${t("coach_intro")}</p>`}
    <table class="score-table coach-seats" data-testid="coach-seats">
      <caption>${t("coach_seats")}</caption>
      <thead><tr><th scope="col">${t("player")}</th><th scope="col">${t("coach_points_lost")}</th>
        <th scope="col">${t("coach_inaccuracy")}</th><th scope="col">${t("coach_mistake")}</th><th scope="col">${t("coach_blunder")}</th></tr></thead>
      <tbody>${analysis.seats.map((s) => html`<tr><th scope="row">${seatName(view, s.seat)}</th>
        <td>${num(s.loss)}</td><td>${s.inaccuracies}</td><td>${s.mistakes}</td><td>${s.blunders}</td></tr>`)}</tbody>
    </table>
  </section>`;
}
