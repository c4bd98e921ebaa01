// The bot ladder (issue 51): the standings with their 95% intervals, from
// GET /api/ladder, and links to the published packs (GET /api/ladder/packs), from
// which anyone can recompute them (docs/bots.md, "The bot ladder").
import { html, useState, useEffect } from "../html.js";
import { t, num } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink } from "./common.js";

const fig = (x) => (x === null || x === undefined ? "–" : num(x, 2));

export function LadderPage({ store }) {
  const [ladder, setLadder] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api.ladder().then(setLadder, (err) => setError({ code: err.code, message: err.message }));
  }, []);
  return html`<div class="page history">
    <${Header} store=${store} />
    <main id="main" class="history-main">
      <div class="replay-head">
        <h1 data-testid="ladder-title">${t("ladder_title")}</h1>
        <nav class="replay-links" aria-label=${t("replay_links")}>
          <${AppLink} store=${store} href="/">${t("back_to_lobby")}<//>
        </nav>
      </div>
      <${ErrorNotice} error=${error} />
      ${ladder
        ? html`<section class="panel" aria-labelledby="ladder-table-title">
            <h2 id="ladder-table-title">${t("ratings_players_n", { n: ladder.players })}</h2>
            ${ladder.standings.length
              ? html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="ladder-table-title">
                  <table class="score-table leaderboard" data-testid="ladder">
                    <thead><tr>
                      <th scope="col">${t("ladder_entrant")}</th>
                      <th scope="col">${t("ladder_packs")}</th>
                      <th scope="col">${t("ladder_deals")}</th>
                      <th scope="col">${t("ladder_mean")}</th>
                      <th scope="col">${t("ladder_relative")}</th>
                      <th scope="col">${t("ladder_interval")}</th>
                      <th scope="col">${t("ladder_rating")}</th>
                    </tr></thead>
                    <tbody>
                      ${ladder.standings.map((s) => html`<tr data-testid="ladder-row" data-entrant=${s.entrant}>
                        <th scope="row">${s.entrant}</th>
                        <td>${s.packs}</td><td>${s.deals}</td><td>${fig(s.mean)}</td>
                        <td class="strong">${fig(s.relative_mean)}</td>
                        <td>${s.low === null ? "–" : `${fig(s.low)} … ${fig(s.high)}`}</td>
                        <td data-testid="ladder-rating">${fig(s.rating)}${s.rating_low === null
                          ? ""
                          : html` <span class="hint">(${fig(s.rating_low)} … ${fig(s.rating_high)})</span>`}</td>
                      </tr>`)}
                    </tbody>
                  </table>
                </div>`
              : html`<p class="hint" data-testid="ladder-empty">${t("ladder_empty")}</p>`}
            <p class="hint">${t("ladder_hint", { packs: ladder.packs })}</p>
            <p class="hint">${t("ladder_rating_hint")}</p>
            <p><a href="/api/ladder/packs?limit=100" data-testid="ladder-packs">${t("ladder_published")}</a></p>
          </section>`
        : error
          ? null
          : html`<p class="loading" role="status">${t("loading")}</p>`}
    </main>
  </div>`;
}
