// A room's history: /r/<room>/history.  Every match with its deals and totals, each
// deal linking to its replay, a download of each match as one JSON file, and per
// player figures over the whole room (deals played, matches won, mean deal score,
// sweeps made and conceded), all from GET /api/rooms/<room>/matches.
import { html, useState, useEffect } from "../html.js";
import { t, listOf, num } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink, replayPath } from "./common.js";
import { markedName, seatName } from "./words.js";
import { HistoryChat } from "./chat.js";

/** Per seat: deals played, matches won, mean deal score, sweeps made and conceded. */
export function playerFigures(matches, players) {
  return Array.from({ length: players }, (_, seat) => {
    let deals = 0;
    let total = 0;
    let sweeps = 0;
    let conceded = 0;
    let won = 0;
    for (const m of matches) {
      if (m.status === "finished" && m.winners.includes(seat)) won += 1;
      for (const d of m.deals) {
        const s = d.scores[seat];
        deals += 1;
        total += d.totals[seat];
        sweeps += s.sweeps + s.double_sweeps;
        conceded += s.sweeps_conceded + s.double_sweeps_conceded;
      }
    }
    return { seat, deals, won, mean: deals ? total / deals : null, sweeps, conceded };
  });
}

/** A mean to one decimal in the UI language: "34,3" in Swedish, "−2.5" in English. */
const mean = (x) => (x === null ? "–" : num(x, 1));

function Figures({ view, matches }) {
  const rows = playerFigures(matches, view.players);
  return html`<section class="panel" aria-labelledby="figures-title">
    <h2 id="figures-title">${t("history_players")}</h2>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="figures-title">
      <table class="score-table figures" data-testid="figures">
        <thead><tr>
          <th scope="col">${t("player")}</th>
          <th scope="col">${t("history_deals_played")}</th>
          <th scope="col">${t("history_matches_won")}</th>
          <th scope="col">${t("history_mean_score")}</th>
          <th scope="col">${t("sweeps_made")}</th>
          <th scope="col">${t("sweeps_conceded")}</th>
        </tr></thead>
        <tbody>
          ${rows.map((r) => html`<tr data-testid="figure-row" data-seat=${r.seat}>
            <th scope="row">${seatName(view, r.seat)}</th>
            <td data-k="deals">${r.deals}</td><td data-k="won">${r.won}</td><td data-k="mean">${mean(r.mean)}</td>
            <td data-k="sweeps">${r.sweeps}</td><td data-k="conceded">${r.conceded}</td>
          </tr>`)}
        </tbody>
      </table>
    </div>
    <p class="hint">${t("history_figures_hint")}</p>
  </section>`;
}

function MatchSection({ store, roomId, view, match }) {
  const seats = Array.from({ length: view.players }, (_, i) => i);
  const winners = match.winners.map((s) => seatName(view, s));
  return html`<section class="panel match-history" aria-labelledby=${`match-${match.match_no}`} data-testid="match-history" data-match=${match.match_no}>
    <h2 id=${`match-${match.match_no}`}>${t("match_n", { n: match.match_no })} <span class="sub">${t(`match_status_${match.status}`)}</span></h2>
    ${winners.length ? html`<p class="match-winners">${winners.length > 1 ? t("winners_shared", { names: listOf(winners) }) : t("winner", { name: winners[0] })}</p>` : null}
    ${match.deals.length
      ? html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby=${`match-${match.match_no}`}><table class="score-table deals">
          <caption class="sr-only">${t("match_n", { n: match.match_no })}</caption>
          <thead><tr><th scope="col">${t("deal")}</th>${seats.map((s) => html`<th scope="col" data-testid="history-seat" data-seat=${s}>${markedName(view, s)}</th>`)}<th scope="col"><span class="sr-only">${t("replay")}</span></th></tr></thead>
          <tbody>
            ${match.deals.map((d) => html`<tr>
              <th scope="row">${d.deal_no}</th>
              ${seats.map((s) => html`<td>${num(d.totals[s])}</td>`)}
              <td><${AppLink} store=${store} href=${replayPath(roomId, match.match_no, d.deal_no)} data-testid="replay-link"
                >${t("replay")}<span class="sr-only">: ${t("replay_title", { m: match.match_no, n: d.deal_no })}</span><//></td>
            </tr>`)}
          </tbody>
          <tfoot><tr><th scope="row">${t("match_total")}</th>${seats.map((s) => html`<td class="strong">${num(match.cumulative[s])}</td>`)}<td></td></tr></tfoot>
        </table></div>`
      : html`<p class="hint">${t("history_no_deals")}</p>`}
    <p class="match-links">
      ${match.status === "playing" && match.deals_total && match.deals_played
        ? html`<span class="hint" data-testid="deals-finished">${t("history_deals_finished", { n: match.deals_played, total: match.deals_total })} · </span>`
        : null}
      <a href=${api.matchRecordUrl(roomId, match.match_no)} download=${`krypkasino-${view.code}-match-${match.match_no}.json`} data-testid="download-match">${t("history_download")}</a>
    </p>
  </section>`;
}

export function HistoryPage({ store, route }) {
  const { roomId } = route;
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    Promise.all([api.getRoom(roomId), api.roomMatches(roomId)]).then(
      ([room, matches]) => setData({ room, matches }),
      (err) => setError({ code: err.code, message: err.message }),
    );
  }, [roomId]);
  const view = data ? { players: data.room.players, seats: data.room.seats, code: data.room.code } : null;
  return html`<div class="page history">
    <${Header} store=${store}>${view ? html`<span class="room-code">${view.code}</span>` : null}<//>
    <main id="main" class="history-main">
      <div class="replay-head">
        <h1>${t("history_title")}</h1>
        <nav class="replay-links" aria-label=${t("replay_links")}>
          <${AppLink} store=${store} href=${`/r/${encodeURIComponent(roomId)}`}>${t("back_to_room")}<//>
          <${AppLink} store=${store} href="/">${t("back_to_lobby")}<//>
        </nav>
      </div>
      <${ErrorNotice} error=${error} />
      ${data
        ? html`${data.matches.length ? html`<${Figures} view=${view} matches=${data.matches} />` : html`<p class="hint">${t("history_empty")}</p>`}
            ${data.matches.map((m) => html`<${MatchSection} key=${m.match_no} store=${store} roomId=${roomId} view=${view} match=${m} />`)}
            <${HistoryChat} roomId=${roomId} view=${view} />`
        : error
          ? null
          : html`<p class="loading" role="status">${t("loading")}</p>`}
    </main>
  </div>`;
}
