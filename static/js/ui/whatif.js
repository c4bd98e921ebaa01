// What-ifs in a shared review (docs/client.md, "What-ifs in a review"): the driver
// branches off the real deal at the step shown, plays other legal moves and returns.
// The branch is the review message's `branch` (the server's engine checks every
// move; each legal move comes with the points its player is expected to end the deal
// with), so followers see exactly what the driver sees.  Nothing here knows a rule.
import { html } from "../html.js";
import { t, num } from "../i18n.js";
import { PositionBoard } from "./position.js";
import { CardRef, CardRefs, seatName } from "./words.js";

/** A record whose positions run along the branch: the real ones up to its step, then
 * the branch's position (the board reads the step shown and the moves before it). */
export function branchRecord(record, branch) {
  const step = branch.at + branch.moves.length;
  const stubs = branch.moves.map((m, i) => (i === branch.moves.length - 1 ? branch.position : { ...branch.position, move: { ...branch.position.move, card: m.card, taken: m.take } }));
  return { ...record, positions: [...record.positions.slice(0, branch.at + 1), ...stubs], branchStep: step };
}

/** The driver's way in: "What if…" at the step shown. */
export function BranchButton({ connection, disabled }) {
  return html`<button type="button" class="btn small" disabled=${disabled} data-testid="review-branch"
    onClick=${() => connection.send({ type: "review_branch" })}>${t("review_whatif")}</button>`;
}

function LegalMoves({ view, branch, driving, connection }) {
  const legal = branch.legal || [];
  if (!legal.length) return null;
  const best = Math.min(...legal.map((m) => m.expected));
  const mover = branch.position.to_move;
  return html`<section class="panel whatif-moves" aria-labelledby="whatif-moves-title">
    <h3 id="whatif-moves-title">${t("review_whatif_moves", { name: seatName(view, mover) })}</h3>
    <p class="hint">${t("review_whatif_hint")}</p>
    <ol class="whatif-list">
      ${legal.map((m) => {
        const isBest = m.expected === best;
        return html`<li key=${`${m.card}|${m.take.join(" ")}`}>
          <button type="button" class=${`move-btn ${isBest ? "best" : ""}`} disabled=${!driving} data-testid="whatif-move"
              data-card=${m.card} data-take=${m.take.join(" ")} data-expected=${m.expected}
              onClick=${() => connection.send({ type: "review_branch_play", card: m.card, take: m.take })}>
            <${CardRef} code=${m.card} />${m.take.length ? html` ${t("review_whatif_takes")} <${CardRefs} cards=${m.take} />` : html` ${t("review_whatif_creeps")}`}
            <span class="whatif-expected">${t("review_whatif_expected", { n: num(m.expected, 1) })}${isBest ? html` <span class="badge">${t("review_whatif_best")}</span>` : null}</span>
          </button>
        </li>`;
      })}
    </ol>
  </section>`;
}

/** The review's board and controls while a what-if is open. */
export function WhatIfPane({ view, record, branch, driving, connection }) {
  const shown = branchRecord(record, branch);
  return html`<div class="whatif" data-testid="whatif" data-at=${branch.at} data-moves=${branch.moves.length}>
    <div class="whatif-head">
      <strong>${t("review_whatif_title", { n: branch.at })}</strong>
      <span class="hint">${t("review_whatif_played", { n: branch.moves.length })}</span>
      ${driving
        ? html`<button type="button" class="btn small" disabled=${!branch.moves.length} data-testid="whatif-back"
              onClick=${() => connection.send({ type: "review_branch_back" })}>${t("review_whatif_back")}</button>
            <button type="button" class="btn small primary" data-testid="whatif-return"
              onClick=${() => connection.send({ type: "review_return" })}>${t("review_whatif_return")}</button>`
        : null}
    </div>
    <div class="review-grid">
      <${PositionBoard} record=${shown} step=${shown.branchStep} />
      <div class="review-side">
        <${LegalMoves} view=${view} branch=${branch} driving=${driving} connection=${connection} />
      </div>
    </div>
  </div>`;
}
