// End of a deal and of the match: the per-deal breakdown, the points check,
// the deals so far, the winners and the rematch offer (ui/rematch.js).
import { html, useEffect, useRef } from "../html.js";
import { t, signed, listOf, num } from "../i18n.js";
import { dealRecordUrl, matchDealUrl } from "../api.js";
import { CardFace } from "./cardsvg.js";
import { seatName } from "./words.js";
import { replayPath } from "./common.js";
import { SeeHowYouPlayed } from "./coach.js";
import { RatingChange } from "./ratingchange.js";
import { cardName } from "../i18n.js";

/**
 * The deal to sum up: the current one once it is over, else view.previous_deal.
 * Returns null when there is nothing to show.
 */
export function summaryOf(view) {
  if (!view) return null;
  const prev = view.previous_deal;
  if (view.deal_over && view.scores && view.scores.length) {
    const same = prev && prev.deal_no === view.deal_no;
    return {
      deal_no: view.deal_no,
      scores: view.scores,
      award: view.award || (same ? prev.award : null),
      seed: same ? prev.seed : null,
      commitment: view.commitment || (same ? prev.commitment : null),
    };
  }
  if (prev && prev.scores) return prev;
  return null;
}

export const summaryId = (s) => (s ? `${s.commitment || ""}:${s.deal_no}` : null);

export function Breakdown({ view, summary }) {
  const n = view.players;
  const seats = Array.from({ length: n }, (_, i) => i);
  const scores = summary.scores || [];
  const bord = scores.some((s) => s && s.bordstabbe);
  // what the sweeps are worth comes from the server's scores (R6.2), not from here
  const made = (s) => s.sweeps_made_points || 0;
  const conceded = (s) => s.sweeps_conceded_points || 0;
  const sum = (f) => scores.reduce((a, s) => a + (s ? f(s) : 0), 0);
  const cardSum = sum((s) => s.card_points);
  const transferSum = sum((s) => s.sweep_transfer);
  const totalSum = sum((s) => s.total);
  const bordSum = sum((s) => s.bordstabbe || 0);
  const cardsOk = !view.total_points || cardSum === view.total_points;
  const sweepDetail = (s) =>
    [s.sweeps ? t("n_tabbe", { n: s.sweeps }) : null, s.double_sweeps ? t("n_dubbeltabbe", { n: s.double_sweeps }) : null]
      .filter(Boolean)
      .join(", ");
  const concededDetail = (s) =>
    [s.sweeps_conceded ? t("n_tabbe", { n: s.sweeps_conceded }) : null, s.double_sweeps_conceded ? t("n_dubbeltabbe", { n: s.double_sweeps_conceded }) : null]
      .filter(Boolean)
      .join(", ");
  return html`<table class="score-table breakdown" data-testid="breakdown">
      <caption class="sr-only">${t("breakdown")}</caption>
      <thead><tr>
        <th scope="col">${t("player")}</th>
        <th scope="col">${t("card_points")}</th>
        <th scope="col">${t("sweeps_made")}</th>
        <th scope="col">${t("sweeps_conceded")}</th>
        ${bord ? html`<th scope="col">${t("bordstabbe_short")}</th>` : null}
        <th scope="col">${t("deal_score")}</th>
      </tr></thead>
      <tbody>
        ${seats.map((i) => {
          const s = scores[i];
          if (!s) return null;
          return html`<tr class=${i === view.you ? "me" : ""}>
            <th scope="row">${seatName(view, i)}</th>
            <td>${s.card_points}</td>
            <td title=${sweepDetail(s)}>${signed(made(s))}${sweepDetail(s) ? html`<span class="detail">${sweepDetail(s)}</span>` : null}</td>
            <td title=${concededDetail(s)}>${signed(conceded(s))}${concededDetail(s) ? html`<span class="detail">${concededDetail(s)}</span>` : null}</td>
            ${bord ? html`<td>${signed(s.bordstabbe || 0)}</td>` : null}
            <td class="strong">${num(s.total)}</td>
          </tr>`;
        })}
      </tbody>
      <tfoot><tr>
        <th scope="row">${t("sum")}</th>
        <td data-testid="card-sum">${cardSum}</td>
        <td data-testid="made-sum">${signed(sum(made))}</td>
        <td data-testid="conceded-sum">${signed(sum(conceded))}</td>
        ${bord ? html`<td>${signed(bordSum)}</td>` : null}
        <td class="strong" data-testid="total-sum">${num(totalSum)}</td>
      </tr></tfoot>
    </table>
    <p class=${`points-check ${cardsOk && transferSum === 0 ? "ok" : "bad"}`} data-testid="points-check">
      ${cardsOk && transferSum === 0 ? html`<span aria-hidden="true">✓ </span>` : html`<span aria-hidden="true">⚠ </span>`}
      ${t("points_check", { cards: cardSum, total: view.total_points || cardSum, sum: totalSum })}
      ${bordSum ? ` ${t("points_check_bord", { n: signed(bordSum) })}` : ""}
    </p>`;
}

function DealsTable({ view }) {
  const rows = view.deal_totals || [];
  if (!rows.length) return null;
  const seats = Array.from({ length: view.players }, (_, i) => i);
  return html`<table class="score-table deals" data-testid="deals-table">
    <caption>${t("deals_so_far")}</caption>
    <thead><tr><th scope="col">${t("deal")}</th>${seats.map((s) => html`<th scope="col">${seatName(view, s)}</th>`)}</tr></thead>
    <tbody>
      ${rows.map((r, i) => html`<tr><th scope="row">${i + 1}</th>${seats.map((s) => html`<td>${num(r[s])}</td>`)}</tr>`)}
    </tbody>
    <tfoot><tr><th scope="row">${t("match_total")}</th>${seats.map((s) => html`<td class="strong">${num((view.cumulative || [])[s])}</td>`)}</tr></tfoot>
  </table>`;
}

function Winners({ view }) {
  const w = view.winners || [];
  if (view.status !== "finished" || !w.length) return null;
  const team = view.rules && view.rules.partnership;
  const iWon = view.you !== null && view.you !== undefined && w.includes(view.you);
  // Each language says "you win" with the player as the subject (winner_you,
  // winners_shared_you), never "{name} wins" filled with the word for "you".
  const names = team
    ? [...new Set(w.map((s) => s % 2))].map((tm) => t("team_n", { a: seatName(view, tm), b: seatName(view, tm + 2) }))
    : w.filter((s) => s !== view.you).map((s) => seatName(view, s));
  let line;
  if (iWon && !team) line = names.length ? t("winners_shared_you", { names: listOf(names) }) : t("winner_you");
  else line = names.length > 1 ? t("winners_shared", { names: listOf(names) }) : t("winner", { name: names[0] });
  return html`<div class="winners" data-testid="winners">
    <svg class="trophy" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path d="M18 6h28v6h10c0 12-6 19-14 20-2 5-5 8-8 9v7h8v6H22v-6h8v-7c-3-1-6-4-8-9C14 31 8 24 8 12h10V6zm0 12h-4c1 5 3 8 6 10-1-3-2-6-2-10zm28 0c0 4-1 7-2 10 3-2 5-5 6-10h-4z" />
    </svg>
    <p data-testid="winner-line">${line}</p>
    ${iWon ? html`<p class="hint">${t("you_won")}</p>` : null}
  </div>`;
}

// The title with the countdown to the next deal (`countdown`) stays at the top of the
// dialog and its foot (the rematch offer, Continue) at the bottom while the scores
// scroll between them (issue 47: on a phone the dialog opens scrolled down to Continue).
export function SummaryDialog({ view, summary, roomId, onClose, rematch, children, countdown }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current && ref.current.querySelector("[data-autofocus]");
    if (el) el.focus();
  }, [summary && summary.deal_no, view.status]);
  const finished = view.status === "finished";
  const award = summary && summary.award;
  const seated = view.you !== null && view.you !== undefined && !view.closed; // a closed room has no rematch
  return html`<div class="overlay" onKeyDown=${(e) => e.key === "Escape" && onClose()}>
    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="summary-title" ref=${ref} data-testid="deal-summary">
      <div class=${countdown ? "summary-head" : ""}>
      <h2 id="summary-title">${view.closed ? t("room_closed") : finished ? t("match_over") : t("deal_over_n", { n: summary ? summary.deal_no : view.deal_no })}</h2>
      ${countdown || null}
      </div>
      <${Winners} view=${view} />
      <${RatingChange} view=${view} roomId=${roomId} />
      ${summary
        ? html`
          ${award
            ? html`<div class="award">
                <p>${award.cards && award.cards.length ? t("award", { name: seatName(view, award.seat), n: award.cards.length }) : t("award_none", { name: seatName(view, award.seat) })}</p>
                <div class="award-cards">${(award.cards || []).map((c) => html`<span class="mini" title=${cardName(c)}><${CardFace} code=${c} label=${cardName(c)} /></span>`)}</div>
              </div>`
            : null}
          <${Breakdown} view=${view} summary=${summary} />
          ${view.match_no && (view.deal_over || summary.deal_no < view.deal_no)
            ? html`<${SeeHowYouPlayed} key=${`${view.match_no}|${summary.deal_no}`} roomId=${roomId} match=${view.match_no} deal=${summary.deal_no}
                href=${replayPath(roomId, view.match_no, summary.deal_no)} />`
            : null}`
        : null}
      <${DealsTable} view=${view} />
      ${summary && (summary.seed || summary.commitment)
        ? html`<details class="fairness">
            <summary>${t("fairness")}</summary>
            <p class="hint">${t("fairness_help")}</p>
            ${summary.commitment ? html`<p class="mono"><span>${t("commitment")}:</span> ${summary.commitment}</p>` : null}
            ${summary.seed ? html`<p class="mono"><span>${t("seed")}:</span> ${summary.seed}</p>` : null}
            <p><a href=${view.match_no ? matchDealUrl(roomId, view.match_no, summary.deal_no) : dealRecordUrl(roomId, summary.deal_no)}
              target="_blank" rel="noopener">${t("deal_record")}</a></p>
          </details>`
        : null}
      <div class="summary-foot" data-testid="summary-foot">
      ${finished ? rematch : null}
      <div class="btn-row">
        <button type="button" class=${`btn ${finished && seated ? "" : "primary"}`} data-autofocus=${finished && seated ? undefined : true}
          onClick=${onClose} data-testid="close-summary">${finished ? t("see_table") : t("continue")}</button>
      </div>
      </div>
      ${children ? html`<div class="btn-row summary-more">${children}</div>` : null}
    </div>
  </div>`;
}
