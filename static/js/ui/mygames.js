// "My games" in the lobby: the rooms and matches this browser's player sat in
// (GET /api/me/games with its player keys), with results and links to their
// histories and replays.  A room still in play is rejoined in one click: its page
// seats this player with the seat's token when this browser has it, else by the
// signed-in account or the player key (issue 47), and the other devices keep the
// seat too.
//
// Correspondence rooms (issue 32): the server lists the games waiting for this
// player's move first, the soonest deadline first; each says the time left, and the
// page title counts them ("(2) Krypkasino"), refreshed every minute and whenever the
// tab is seen again.
import { html, useState, useEffect } from "../html.js";
import { t, listOf, num } from "../i18n.js";
import * as api from "../api.js";
import { navigate, ErrorNotice, AppLink, historyPath, replayPath } from "./common.js";
import { seatName, shownName } from "./words.js";
import { daysHours } from "./correspondence.js";
import { showWaiting } from "../title.js";

const REFRESH = 60000; // ms between two looks at My games while the lobby is open

const LIVE = ["waiting", "playing"];

function when(iso) {
  try {
    return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return iso;
  }
}

function MatchLine({ store, game, view, match }) {
  const standing = match.cumulative.map((c, s) => `${seatName(view, s)} ${num(c)}`).join(" · ");
  const winners = match.winners.map((s) => (s === game.seat ? t("you") : seatName(view, s)));
  let result = t(`match_status_${match.status}`);
  if (winners.length) result = match.winners.includes(game.seat) ? t("games_you_won") : t("games_won_by", { names: listOf(winners) });
  return html`<li class="game-match" data-testid="game-match" data-match=${match.match_no}>
    <span class="game-match-title">${t("match_n", { n: match.match_no })}:</span> <span class="game-result">${result}</span>
    ${match.deals.length ? html`<span class="hint"> (${standing})</span>` : null}
    ${match.deals.length
      ? html`<span class="game-replays"> ${t("replay")}:
          ${match.deals.map((d) => html` <${AppLink} store=${store} href=${replayPath(game.room_id, match.match_no, d.deal_no)}
            data-testid="game-replay"><span class="sr-only">${t("match_n", { n: match.match_no })}, ${t("deal")} </span>${d.deal_no}<//>`)}</span>`
      : null}
  </li>`;
}

function Game({ store, game }) {
  const view = { seats: game.seats, players: game.players };
  const live = LIVE.includes(game.status);
  const rejoin = () => navigate(store, `/r/${encodeURIComponent(game.room_id)}`);
  const others = game.seats.filter((s) => s.seat !== game.seat).map((s) => shownName(s) || t("free_seat"));
  const matches = [...game.matches].reverse();
  const corr = game.pace === "correspondence";
  return html`<li class=${`game ${game.to_move ? "my-turn" : ""}`} data-testid="my-game" data-room=${game.room_id}
      data-to-move=${game.to_move ? "yes" : "no"}>
    <div class="game-head">
      <span class="room-code">${game.code}</span>
      ${game.to_move ? html`<span class="badge your-turn" data-testid="game-your-turn">${t("your_turn")}</span>` : null}
      <span class=${`badge status-${game.status}`}>${t(`games_status_${game.status}`)}</span>
      ${corr ? html`<span class="badge correspondence">${t("room_pace_correspondence")}</span>` : null}
      <span class="hint">${when(game.updated_at)}</span>
    </div>
    ${corr && game.deadline
      ? html`<p class=${`game-deadline ${game.to_move ? "mine" : ""}`} data-testid="game-deadline" data-deadline=${game.deadline}>
          ${game.to_move ? t("games_you_have", { time: daysHours(game.deadline - Date.now()) }) : t("games_they_have", { time: daysHours(game.deadline - Date.now()) })}
        </p>`
      : null}
    <p class="game-people">${t("games_with", { names: listOf(others) })}</p>
    ${matches.length ? html`<ul class="game-matches">${matches.map((m) => html`<${MatchLine} key=${m.match_no} store=${store} game=${game} view=${view} match=${m} />`)}</ul>` : null}
    <div class="btn-row">
      ${live ? html`<button type="button" class="btn small primary" onClick=${rejoin} data-testid="rejoin">${t("games_rejoin")}</button>` : null}
      ${game.matches.length ? html`<${AppLink} store=${store} href=${historyPath(game.room_id)} class="btn small" data-testid="game-history">${t("history_title")}<//>` : null}
    </div>
  </li>`;
}

export function MyGames({ store }) {
  const [games, setGames] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      api.myGames().then(
        (r) => {
          if (!alive) return;
          setGames(r.games);
          setError(null);
          showWaiting(r.games.filter((g) => g.to_move).length);
        },
        (err) => alive && setError({ code: err.code, message: err.message }),
      );
    load();
    const timer = setInterval(load, REFRESH);
    const seen = () => document.visibilityState === "visible" && load();
    document.addEventListener("visibilitychange", seen);
    return () => {
      alive = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", seen);
      showWaiting(0); // the count is the lobby's: a room's page does not keep a stale one
    };
  }, []);
  return html`<section class="panel my-games" aria-labelledby="games-title" data-testid="my-games">
    <h2 id="games-title">${t("games_title")}</h2>
    <${ErrorNotice} error=${error} />
    ${games === null && !error ? html`<p class="loading" role="status">${t("loading")}</p>` : null}
    ${games && !games.length ? html`<p class="hint">${t("games_none")}</p>` : null}
    ${games && games.length ? html`<ul class="games">${games.map((g) => html`<${Game} key=${g.room_id} store=${store} game=${g} />`)}</ul>` : null}
  </section>`;
}
