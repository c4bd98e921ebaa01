// Side panels: running scores and the game log.
import { html } from "../html.js";
import { t, signed, num } from "../i18n.js";
import { seatName, MoveLine } from "./words.js";

export function Scores({ view }) {
  const n = view.players || 0;
  const scores = view.scores || [];
  const cum = view.cumulative || [];
  const seats = Array.from({ length: n }, (_, i) => i);
  const sumCards = scores.reduce((s, x) => s + (x ? x.card_points : 0), 0);
  const team = view.rules && view.rules.partnership;
  const bord = view.rules && view.rules.bordstabbe;
  return html`<section class="panel scores" aria-labelledby="scores-title" data-testid="scores">
    <h2 id="scores-title">${t("scores")} <span class="sub">${dealTitle(view)}</span></h2>
    <table class="score-table">
      <thead>
        <tr>
          <th scope="col">${t("player")}</th>
          <th scope="col" title=${t("card_points_help")}>${t("card_points")}</th>
          <th scope="col" title=${t("sweep_transfer_help")}>${t("tabbe")}</th>
          ${bord ? html`<th scope="col" title=${t("rule_bordstabbe_help")}>${t("bordstabbe_short")}</th>` : null}
          <th scope="col">${t("deal")}</th>
          <th scope="col" title=${t("match_total_help")}>${t("match")}</th>
        </tr>
      </thead>
      <tbody>
        ${seats.map((s) => {
          const sc = scores[s];
          return html`<tr class=${s === view.you ? "me" : ""}>
            <th scope="row">${seatName(view, s)}</th>
            <td>${sc ? sc.card_points : "–"}</td>
            <td>${sc ? signed(sc.sweep_transfer) : "–"}</td>
            ${bord ? html`<td>${sc ? signed(sc.bordstabbe || 0) : "–"}</td>` : null}
            <td class="strong">${sc ? num(sc.total) : "–"}</td>
            <td>${num(cum[s] ?? 0)}</td>
          </tr>`;
        })}
      </tbody>
      ${team && view.team_scores
        ? html`<tbody class="teams">
            ${[0, 1].map(
              (tm) => html`<tr>
                <th scope="row">${t("team_n", { a: seatName(view, tm), b: seatName(view, tm + 2) })}</th>
                <td></td><td></td>${bord ? html`<td></td>` : null}
                <td class="strong">${num(view.team_scores[tm])}</td>
                <td>${num((view.team_cumulative || [])[tm] ?? 0)}</td>
              </tr>`,
            )}
          </tbody>`
        : null}
    </table>
    ${view.total_points
      ? html`<p class="hint">${t("points_in_play", { got: sumCards, total: view.total_points })}</p>`
      : null}
  </section>`;
}

export function dealTitle(view) {
  if (!view.deal_no) return "";
  if (view.deals_total) return t("deal_of", { n: view.deal_no, total: view.deals_total });
  if (view.match_limit) return t("deal_limit", { n: view.deal_no, limit: view.match_limit });
  return t("deal_n", { n: view.deal_no });
}

/** A packet dealt, in words. */
export const packetText = (p) => t(p.last ? "packet_last" : "packet_new", { size: p.size, left: p.left });

/** The log's plays with the packets dealt between them (the view's `packets`), in order. */
function logEntries(view) {
  const marks = view.packets || [];
  const out = [];
  (view.log || []).forEach((move, index) => {
    out.push({ move, index });
    for (const p of marks) if (p.after === index + 1) out.push({ packet: p });
  });
  return out;
}

export function GameLog({ view }) {
  const log = view.log || [];
  return html`<section class="panel log" aria-labelledby="log-title" data-testid="log">
    <h2 id="log-title">${t("log")}</h2>
    ${log.length === 0 ? html`<p class="hint">${t("log_empty")}</p>` : null}
    <ol class="log-list" reversed tabindex="0" aria-label=${t("log")}>
      ${logEntries(view).reverse().map((e) => (e.packet
        ? html`<li key=${`p${e.packet.after}`} class="log-packet" data-testid="log-packet">${packetText(e.packet)}</li>`
        : html`<li key=${e.index + 1} class=${`log-${e.move.kind}`}><${MoveLine} view=${view} move=${e.move} /></li>`))}
    </ol>
  </section>`;
}
