// "Learn from your mistakes" (issue 31): /r/<room>/learn/<match>/<deal>[?seat=k].
// Steps through the plays of one seat that the coach labelled a mistake or a
// blunder.  Each shows the position as that seat saw it — its own hand, the table,
// how many cards the others held, never their cards — and asks for a better play
// among the legal ones the server listed (the client decides no rule); then says
// whether the pick was as good as the best, and shows the best.
import { html, useState, useEffect, useRef } from "../html.js";
import { t, cardName } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink, replayPath } from "./common.js";
import { positionView } from "./position.js";
import { TableCards } from "./board.js";
import { CardFace } from "./cardsvg.js";
import { seatName } from "./words.js";
import { useAnalysis, MoveDrawn, LabelBadge, points } from "./coach.js";
import { useOwnSeat } from "./ownseat.js";
import { mistakesOf, sameMove, verdict } from "./coachplays.js";

export const learnPath = (roomId, m, n, seat) =>
  `/r/${encodeURIComponent(roomId)}/learn/${m}/${n}${seat === null || seat === undefined ? "" : `?seat=${seat}`}`;

/** The position before the play: the seat's own hand and the table; the others as counts. */
function SeenPosition({ record, play }) {
  const view = positionView(record, play.index);
  const hand = view.hands[play.seat] || [];
  return html`<div class="learn-position" data-testid="learn-position">
    <ul class="learn-others">
      ${Array.from({ length: record.players }, (_, s) => s)
        .filter((s) => s !== play.seat)
        .map((s) => html`<li key=${s} data-testid="learn-other" data-seat=${s} data-count=${(view.hands[s] || []).length}>
          ${seatName(view, s)}: ${t("learn_cards", { n: (view.hands[s] || []).length })}</li>`)}
    </ul>
    <div class="felt replay-felt" aria-label=${t("table")}>
      <${TableCards} view=${view} choosing=${null} onPickTable=${() => {}} hoverTake=${null} />
    </div>
    <div class="learn-hand" data-testid="learn-hand" data-cards=${hand.join(" ")} aria-label=${t("your_hand", { n: hand.length })}>
      ${hand.map((c) => html`<span class="mini" title=${cardName(c)}><${CardFace} code=${c} label=${cardName(c)} /></span>`)}
    </div>
  </div>`;
}

function Exercise({ record, analysis, play, onNext, last, next }) {
  const [pick, setPick] = useState(null);
  const moves = play.moves || [play, play.best];
  const result = pick ? verdict(play, pick, analysis.thresholds) : null;
  const box = useRef(null);
  const said = useRef(null);
  // Come by "Next": the keyboard's focus starts on the first move to choose.
  useEffect(() => {
    if (next && box.current) box.current.querySelector("[data-testid=learn-choice]").focus({ preventScroll: true });
  }, []);
  // Once a move is picked its button is disabled, so the focus would fall to the page:
  // it goes to "Next", and the verdict is brought into sight (on a phone, held
  // sideways above all, it opens below the fold).
  useEffect(() => {
    if (!pick || !said.current) return;
    said.current.querySelector("[data-testid=learn-next]").focus({ preventScroll: true });
    said.current.scrollIntoView({ block: "nearest" });
  }, [pick]);
  return html`<section class="panel learn-exercise" ref=${box} data-testid="learn-exercise" data-index=${play.index}>
    <h2>${t("learn_which")} <${LabelBadge} play=${play} /></h2>
    <${SeenPosition} record=${record} play=${play} />
    <ul class="learn-choices" aria-label=${t("learn_choices")}>
      ${moves.map((m, i) => html`<li key=${i}>
        <button type="button" class=${`btn learn-choice ${pick && sameMove(pick, m) ? "picked" : ""}`} disabled=${!!pick}
          onClick=${() => setPick(m)} data-testid="learn-choice" data-card=${m.card} data-take=${(m.take || []).join(" ")}>
          <${MoveDrawn} move=${m} />
        </button></li>`)}
    </ul>
    ${pick
      ? html`<div class=${`learn-verdict ${result}`} role="status" ref=${said} data-testid="learn-verdict" data-verdict=${result}>
          <p><strong>${t(`learn_${result}`)}</strong></p>
          <p>${t("learn_you_played")}: <${MoveDrawn} move=${play} testid="learn-played" /> (${t("coach_expected", { n: points(play.expected) })})</p>
          <p>${t("coach_best")}: <${MoveDrawn} move=${play.best} testid="learn-best" /> (${t("coach_expected", { n: points(play.best.expected) })})</p>
          <button type="button" class="btn primary" onClick=${onNext} data-testid="learn-next">${last ? t("learn_finish") : t("learn_next")}</button>
        </div>`
      : null}
  </section>`;
}

export function LearnPage({ store, route }) {
  const { roomId, match, deal } = route;
  const given = route.seat !== null && route.seat !== undefined;
  const own = useOwnSeat(roomId, !given); // on any device of the player (issue 47)
  const seat = given ? route.seat : own;
  const [record, setRecord] = useState(null);
  const [error, setError] = useState(null);
  const [at, setAt] = useState(0);
  useEffect(() => {
    api.dealPositions(roomId, match, deal).then(setRecord, (err) =>
      setError({ code: err.code === "not_found" ? "replay_missing" : err.code, message: err.message }),
    );
  }, [roomId, match, deal]);
  const analysis = useAnalysis(roomId, match, deal, !!record);
  const list = seat === null || seat === undefined ? [] : mistakesOf(analysis, seat);
  const title = t("learn_title");
  let body;
  if (!record || analysis.status === "loading") body = error ? null : html`<p class="loading" role="status">${t("loading")}</p>`;
  else if (analysis.status !== "done")
    body = html`<p role="status" data-testid="coach-progress">${analysis.status === "unavailable" ? t("coach_unavailable") : t("coach_working", { done: analysis.done || 0, total: analysis.total || 0 })}</p>`;
  else if (seat === null || seat === undefined) body = html`<p data-testid="learn-no-seat">${t("learn_no_seat")}</p>`;
  else if (!list.length) body = html`<p data-testid="learn-none">${t("learn_none")}</p>`;
  else if (at >= list.length) body = html`<p data-testid="learn-done">${t("learn_done", { n: list.length })}</p>`;
  else
    body = html`<p class="hint" data-testid="learn-count">${t("learn_n_of", { n: at + 1, total: list.length })}</p>
      <${Exercise} key=${list[at].index} record=${record} analysis=${analysis} play=${list[at]} last=${at === list.length - 1} next=${at > 0}
        onNext=${() => {
          setAt(at + 1);
          window.scrollTo(0, 0); // the next question from its top: its count, its position
        }} />`;
  return html`<div class="page learn">
    <${Header} store=${store}><span class="deal-no">${t("replay_title", { m: match, n: deal })}</span><//>
    <main id="main" class="learn-main">
      <div class="replay-head">
        <h1>${title}</h1>
        <nav class="replay-links" aria-label=${t("replay_links")}>
          <${AppLink} store=${store} href=${replayPath(roomId, match, deal)} data-testid="to-replay">${t("replay_title", { m: match, n: deal })}<//>
        </nav>
      </div>
      <${ErrorNotice} error=${error} />
      ${body}
    </main>
  </div>`;
}
