// Ratings (issue 34): the leaderboard per player count (/leaderboard?players=N) and an
// account's profile (/players/<name>), from GET /api/leaderboard and
// GET /api/profiles/<name> (docs/protocol.md, "Profiles and ratings").  A rating is
// shown as mu with a "?" while provisional (ratingchange.js, issue 47); the cautious
// mu - 3 sigma the board ranks by has its own column there (only there).
import { html, useState, useEffect } from "../html.js";
import { t, num, signed } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink, replayPath, historyPath } from "./common.js";
import { ShownRating, ratingDelta } from "./ratingchange.js";

export const COUNTS = [2, 3, 4, 5, 6];
export const profilePath = (name) => `/players/${encodeURIComponent(name)}`;
export const leaderboardPath = (players) => `/leaderboard?players=${players}`;

/** A rating to one decimal, as each language writes it. */
const rating = (x) => (x === null || x === undefined ? "–" : num(x, 1));

function PageHead({ store, title, testid, board = false }) {
  return html`<div class="replay-head">
    <h1 data-testid=${testid}>${title}</h1>
    <nav class="replay-links" aria-label=${t("replay_links")}>
      ${board ? null : html`<${AppLink} store=${store} href=${leaderboardPath(2)}>${t("leaderboard_title")}<//>`}
      <${AppLink} store=${store} href="/">${t("back_to_lobby")}<//>
    </nav>
  </div>`;
}

function CountTabs({ store, players }) {
  return html`<nav class="count-tabs" aria-label=${t("leaderboard_choose")}>
    ${COUNTS.map((n) => html`<${AppLink} store=${store} href=${leaderboardPath(n)} class=${n === players ? "tab active" : "tab"}
      aria-current=${n === players ? "page" : undefined} data-testid="count-tab" data-players=${n}>${t("ratings_players_n", { n })}<//>`)}
  </nav>`;
}

export function LeaderboardPage({ store, route }) {
  const players = route.players;
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setBoard(null);
    setError(null);
    api.leaderboard(players).then(setBoard, (err) => setError({ code: err.code, message: err.message }));
  }, [players]);
  return html`<div class="page history">
    <${Header} store=${store} />
    <main id="main" class="history-main">
      <${PageHead} store=${store} title=${t("leaderboard_title")} testid="leaderboard-title" board=${true} />
      <${CountTabs} store=${store} players=${players} />
      <${ErrorNotice} error=${error} />
      ${board
        ? html`<section class="panel" aria-labelledby="board-title">
            <h2 id="board-title">${t("ratings_players_n", { n: players })}</h2>
            ${board.entries.length
              ? html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="board-title">
                  <table class="score-table leaderboard" data-testid="leaderboard">
                    <thead><tr>
                      <th scope="col">${t("leaderboard_rank")}</th>
                      <th scope="col">${t("player")}</th>
                      <th scope="col">${t("leaderboard_rating")}</th>
                      <th scope="col" class="greek">μ − 3σ</th><th scope="col" class="greek">σ</th>
                      <th scope="col">${t("leaderboard_matches")}</th>
                    </tr></thead>
                    <tbody>
                      ${board.entries.map((e) => html`<tr data-testid="leader-row" data-username=${e.username}>
                        <th scope="row">${e.rank}</th>
                        <td class="name"><${AppLink} store=${store} href=${profilePath(e.username)}>${e.username}<//></td>
                        <td class="strong" data-k="rating"><${ShownRating} r=${e} /></td>
                        <td data-k="cautious">${rating(e.rating)}</td><td>${rating(e.sigma)}</td>
                        <td data-k="matches">${e.matches}</td>
                      </tr>`)}
                    </tbody>
                  </table>
                </div>`
              : html`<p class="hint" data-testid="leaderboard-empty">${t("leaderboard_empty", { n: players, min: board.min_matches })}</p>`}
            <p class="hint">${t("leaderboard_hint", { min: board.min_matches })}</p>
          </section>`
        : error
          ? null
          : html`<p class="loading" role="status">${t("loading")}</p>`}
    </main>
  </div>`;
}

function Ratings({ ratings }) {
  const counts = COUNTS.filter((n) => ratings[String(n)]);
  if (!counts.length) return html`<p class="hint" data-testid="no-ratings">${t("profile_no_ratings")}</p>`;
  return html`<table class="score-table" data-testid="profile-ratings">
    <thead><tr><th scope="col">${t("profile_count")}</th><th scope="col">${t("leaderboard_rating")}</th>
      <th scope="col" class="greek">σ</th><th scope="col">${t("leaderboard_matches")}</th></tr></thead>
    <tbody>${counts.map((n) => {
      const r = ratings[String(n)];
      return html`<tr data-players=${n}><th scope="row">${t("ratings_players_n", { n })}</th>
        <td class="strong" data-k="rating"><${ShownRating} r=${r} /></td><td>${rating(r.sigma)}</td><td>${r.matches}</td></tr>`;
    })}</tbody>
  </table>`;
}

function Games({ profile }) {
  if (!profile.games.length) return html`<p class="hint">${t("profile_recent_empty")}</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="games-title">
    <table class="score-table" data-testid="profile-games">
      <thead><tr>
        <th scope="col">${t("profile_count")}</th><th scope="col">${t("profile_matches")}</th>
        <th scope="col">${t("history_matches_won")}</th><th scope="col">${t("history_deals_played")}</th>
        <th scope="col">${t("profile_vs_share_col")}</th>
      </tr></thead>
      <tbody>${profile.games.map((g) => html`<tr data-testid="games-row" data-players=${g.players}>
        <th scope="row">${t("ratings_players_n", { n: g.players })}</th>
        <td data-k="matches">${g.matches}</td><td data-k="wins">${g.wins}</td><td data-k="deals">${g.deals}</td>
        <td data-k="vs_share">${g.mean_vs_share === null ? "–" : signed(Math.round(g.mean_vs_share * 10) / 10)}</td>
      </tr>`)}</tbody>
    </table>
  </div>`;
}

function seatLabel(s) {
  if (s.deleted) return t("profile_deleted_player");
  if (s.bot) return s.name || t("bot");
  return s.username || s.name || "–";
}

function Recent({ store, profile }) {
  if (!profile.recent.length) return html`<p class="hint">${t("profile_recent_empty")}</p>`;
  return html`<ul class="recent-matches" data-testid="recent-matches">
    ${profile.recent.map((m) => html`<li data-testid="recent-match" data-room=${m.room_id} data-match=${m.match_no}>
      <span class="strong">${t(m.won ? "profile_won" : "profile_place", { place: m.place, n: m.players })}</span>
      ${m.left ? html` <span class="badge" data-testid="left-badge">${t("profile_left")}</span>` : null}
      <span> · ${t("profile_total", { total: m.total })}</span>
      ${m.rating ? html`<span data-testid="rating-change"> · ${t("leaderboard_rating")} <${ShownRating} r=${{ mu: m.rating.mu_after, provisional: m.rating.provisional }} />${" "}<span
        class="delta" data-k="change">(${ratingDelta(m.rating.change)})</span></span>` : null}
      <span class="table-names"> · ${m.seats.filter((s) => s.seat !== m.seat).map((s, i) => html`${i ? ", " : ""}${!s.deleted && s.username && !s.bot
        ? html`<${AppLink} store=${store} href=${profilePath(s.username)}>${seatLabel(s)}<//>`
        : html`<span class=${s.deleted ? "deleted" : ""}>${seatLabel(s)}</span>`}`)}</span>
      <span class="match-links">${" · "}<${AppLink} store=${store} href=${replayPath(m.room_id, m.match_no, 1)} data-testid="recent-replay">${t("replay")}<//>${" · "}<${AppLink} store=${store} href=${historyPath(m.room_id)}>${t("history_title")}<//></span>
    </li>`)}
  </ul>`;
}

export function ProfilePage({ store, route }) {
  const { username } = route;
  const [profile, setProfile] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setProfile(null);
    setError(null);
    api.profile(username).then(setProfile, (err) =>
      setError(err.status === 404 ? { code: "profile_not_found", message: t("profile_not_found") } : { code: err.code, message: err.message }));
  }, [username]);
  const p = profile;
  return html`<div class="page history profile">
    <${Header} store=${store} />
    <main id="main" class="history-main">
      <${PageHead} store=${store} title=${p ? p.username : username} testid="profile-title" />
      <${ErrorNotice} error=${error} />
      ${p
        ? html`<section class="panel" aria-labelledby="ratings-title">
              <h2 id="ratings-title">${t("profile_ratings")}</h2>
              <${Ratings} ratings=${p.ratings} />
            </section>
            <section class="panel" aria-labelledby="games-title">
              <h2 id="games-title">${t("profile_games")}</h2>
              <${Games} profile=${p} />
              <p class="figures-line" data-testid="profile-figures">
                <span>${t("profile_vs_share")}: <strong data-k="vs_share">${p.mean_vs_share === null ? "–" : signed(Math.round(p.mean_vs_share * 10) / 10)}</strong></span>
                <span> · ${t("sweeps_made")}: <strong data-k="sweeps_made">${p.sweeps.made + p.sweeps.doubles_made}</strong></span>
                <span> · ${t("sweeps_conceded")}: <strong data-k="sweeps_conceded">${p.sweeps.conceded + p.sweeps.doubles_conceded}</strong></span>
                <span> · ${t("profile_coach")}: <strong data-k="coach">${p.coach === null ? t("profile_coach_none") : `${num(p.coach.accuracy * 100, 0)} %`}</strong></span>
              </p>
              <p class="hint">${t("profile_vs_share_hint")}</p>
            </section>
            <section class="panel" aria-labelledby="recent-title">
              <h2 id="recent-title">${t("profile_recent")}</h2>
              <${Recent} store=${store} profile=${p} />
            </section>`
        : error
          ? null
          : html`<p class="loading" role="status">${t("loading")}</p>`}
    </main>
  </div>`;
}
