// "My games" in the lobby: the rooms and matches this browser's player sat in
// (GET /api/me/games with its player keys), with results and links to their
// histories and replays.  A room still in play is rejoined in one click: with the
// seat's token when this browser has it, else by taking the seat up again with
// the player key (the other device then watches).
import { html, useState, useEffect } from "../html.js";
import { t, listOf, num } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { navigate, ErrorNotice, AppLink, historyPath, replayPath } from "./common.js";
import { seatName, shownName } from "./words.js";

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const view = { seats: game.seats, players: game.players };
  const live = LIVE.includes(game.status);
  const rejoin = async () => {
    setBusy(true);
    setError(null);
    try {
      if (!session.getSeat(game.room_id)) {
        const res = await api.reclaimSeat(game.room_id);
        session.saveSeat(game.room_id, { token: res.token, seat: res.seat, name: (game.seats[res.seat] || {}).name || "" });
      }
      navigate(store, `/r/${encodeURIComponent(game.room_id)}`);
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  const others = game.seats.filter((s) => s.seat !== game.seat).map((s) => shownName(s) || t("free_seat"));
  const matches = [...game.matches].reverse();
  return html`<li class="game" data-testid="my-game" data-room=${game.room_id}>
    <div class="game-head">
      <span class="room-code">${game.code}</span>
      <span class=${`badge status-${game.status}`}>${t(`games_status_${game.status}`)}</span>
      <span class="hint">${when(game.updated_at)}</span>
    </div>
    <p class="game-people">${t("games_with", { names: listOf(others) })}</p>
    ${matches.length ? html`<ul class="game-matches">${matches.map((m) => html`<${MatchLine} key=${m.match_no} store=${store} game=${game} view=${view} match=${m} />`)}</ul>` : null}
    <${ErrorNotice} error=${error} />
    <div class="btn-row">
      ${live ? html`<button type="button" class="btn small primary" disabled=${busy} onClick=${rejoin} data-testid="rejoin">${t("games_rejoin")}</button>` : null}
      ${game.matches.length ? html`<${AppLink} store=${store} href=${historyPath(game.room_id)} class="btn small" data-testid="game-history">${t("history_title")}<//>` : null}
    </div>
  </li>`;
}

export function MyGames({ store }) {
  const [games, setGames] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api.myGames().then((r) => setGames(r.games), (err) => setError({ code: err.code, message: err.message }));
  }, []);
  return html`<section class="panel my-games" aria-labelledby="games-title" data-testid="my-games">
    <h2 id="games-title">${t("games_title")}</h2>
    <${ErrorNotice} error=${error} />
    ${games === null && !error ? html`<p class="loading" role="status">${t("loading")}</p>` : null}
    ${games && !games.length ? html`<p class="hint">${t("games_none")}</p>` : null}
    ${games && games.length ? html`<ul class="games">${games.map((g) => html`<${Game} key=${g.room_id} store=${store} game=${g} />`)}</ul>` : null}
  </section>`;
}
