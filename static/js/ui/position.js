// One position of a finished deal, as the server's engine replayed it: every hand
// (the deal is over, nothing is hidden any more), the table, the stock, the
// set-aside pictures, sweep markers, what the move did and the running scores;
// the last position adds the award and the score summary.  Shared by the replay
// viewer (replay.js) and the shared review (review.js).  Nothing here knows a
// rule: the positions come with the deal's record (?positions=true).
import { html } from "../html.js";
import { t, cardName, signed, num } from "../i18n.js";
import { CardFace } from "./cardsvg.js";
import { TableCards, Stock, SetAside, LastMove } from "./board.js";
import { SweepMarkers } from "./seats.js";
import { Breakdown } from "./summary.js";
import { seatName, moveText } from "./words.js";

/** The view-shaped object the board's components read, for position `step`. */
export function positionView(record, step) {
  const pos = record.positions[step];
  const moves = record.positions.slice(1, step + 1).map((p) => p.move);
  return {
    ...pos,
    you: null,
    players: record.players,
    dealer: record.dealer,
    rules: record.rules,
    seats: (record.seats || []).map((s) => ({ ...s, autoplay: false })),
    last_move: pos.move,
    log: moves,
  };
}

/** What the move of this step did, in words. */
export function stepText(view, step) {
  if (!step) return t("replay_as_dealt");
  const m = view.move;
  let text = moveText(view, m);
  if (m.conceded_by !== null && m.conceded_by !== undefined) text += `. ${t("replay_conceded", { name: seatName(view, m.conceded_by) })}`;
  if (m.packet_dealt) text += `. ${t("replay_packet")}`;
  return text;
}

function HandRow({ view, seat }) {
  const hand = view.hands[seat] || [];
  const score = (view.scores || [])[seat];
  const toMove = view.to_move === seat;
  const markers = (view.sweep_markers || [])[seat] || [];
  return html`<li class=${`replay-seat ${toMove ? "to-move" : ""}`} data-testid="replay-hand" data-seat=${seat} data-cards=${hand.join(" ")}
      data-markers=${markers.join(" ")}>
    <div class="replay-seat-head">
      ${toMove ? html`<span class="turn-dot" aria-hidden="true"></span>` : null}
      <span class="seat-name">${seatName(view, seat)}</span>
      ${(view.seats || [])[seat]?.outside_bot ? html`<span class="badge outside-bot" title=${t("outside_bot_help")} data-testid="outside-bot"><span class="sr-only">, </span>${t("outside_bot")}</span>` : null}
      ${seat === view.dealer ? html`<span class="badge dealer" title=${t("dealer")}>${t("dealer_short")}<span class="sr-only"> (${t("dealer")})</span></span>` : null}
      ${toMove ? html`<span class="sr-only">${t("their_turn")}</span>` : null}
      ${score ? html`<span class="seat-score">${t("pts_short", { n: score.total })}${score.sweep_transfer ? ` · ${t("tabbe")} ${signed(score.sweep_transfer)}` : ""}</span>` : null}
    </div>
    <div class="replay-cards" aria-label=${t("replay_hand_of", { name: seatName(view, seat), n: hand.length })}>
      ${hand.length
        ? hand.map((c) => html`<span class="mini" title=${cardName(c)}><${CardFace} code=${c} label=${cardName(c)} /></span>`)
        : html`<span class="hint">${t("hand_empty")}</span>`}
    </div>
    <${SweepMarkers} cards=${markers} />
  </li>`;
}

/** What the step did, in words ("Ann sweeps with ..."); "As dealt" at step 0. */
export function StepMove({ record, step }) {
  const view = positionView(record, step);
  return html`<p class=${`replay-move ${view.move ? view.move.kind : "deal"}`} data-testid="replay-move" data-kind=${view.move ? view.move.kind : ""}
      aria-live="polite">${stepText(view, step)}</p>`;
}

/** The position after `step`: the move in words (unless `move` is false: a page that
 *  places it apart, as the replay held sideways does), the table, every hand, the end. */
export function PositionBoard({ record, step, move = true }) {
  const view = positionView(record, step);
  const last = step === record.positions.length - 1;
  const award = view.award;
  return html`<div class="replay-board" data-testid="replay-board" data-step=${step}>
    ${move ? html`<${StepMove} record=${record} step=${step} />` : null}
    <div class="felt replay-felt" aria-label=${t("table")}>
      <div class="felt-top">
        <${Stock} view=${view} />
        ${view.last_packet && !view.deal_over ? html`<div class="last-packet" data-testid="last-packet">${t("last_packet")}</div>` : null}
        <${SetAside} view=${view} />
      </div>
      <${TableCards} view=${view} choosing=${null} onPickTable=${() => {}} hoverTake=${null} />
      <${LastMove} view=${view} />
    </div>
    <ul class="replay-hands" aria-label=${t("replay_hands")}>
      ${Array.from({ length: record.players }, (_, s) => html`<${HandRow} key=${s} view=${view} seat=${s} />`)}
    </ul>
    ${last && award
      ? html`<section class="replay-end" data-testid="replay-end" aria-labelledby="replay-end-title">
          <h3 id="replay-end-title">${t("deal_over_n", { n: record.deal_no })}</h3>
          <div class="award">
            <p>${award.cards.length ? t("award", { name: seatName(view, award.seat), n: award.cards.length }) : t("award_none", { name: seatName(view, award.seat) })}</p>
            <div class="award-cards">${award.cards.map((c) => html`<span class="mini" title=${cardName(c)}><${CardFace} code=${c} label=${cardName(c)} /></span>`)}</div>
          </div>
          <${Breakdown} view=${view} summary=${{ scores: record.scores }} />
        </section>`
      : null}
  </div>`;
}

/** The deal's running scores at this step (as the engine counted them). */
export function RunningScores({ record, step }) {
  const view = positionView(record, step);
  const scores = view.scores || [];
  return html`<section class="panel" aria-labelledby="running-title" data-testid="running-scores">
    <h2 id="running-title">${t("scores")}</h2>
    <table class="score-table">
      <thead><tr>
        <th scope="col">${t("player")}</th>
        <th scope="col" title=${t("card_points_help")}>${t("card_points")}</th>
        <th scope="col" title=${t("sweep_transfer_help")}>${t("tabbe")}</th>
        <th scope="col">${t("deal")}</th>
      </tr></thead>
      <tbody>
        ${scores.map((s, i) => html`<tr key=${i}>
          <th scope="row">${seatName(view, i)}</th>
          <td>${s.card_points}</td><td>${signed(s.sweep_transfer)}</td><td class="strong" data-testid="running-total">${num(s.total)}</td>
        </tr>`)}
      </tbody>
    </table>
    <p class="hint">${t("points_in_play", { got: scores.reduce((a, s) => a + s.card_points, 0), total: view.total_points })}</p>
  </section>`;
}
