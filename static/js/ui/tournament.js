// A tournament's page (issue 49): /tournaments/<id>.  Its name, format, state and
// organiser, the plan in words, the entrants, and for a signed-in person the buttons
// to register or withdraw (its organiser's to start or cancel it while it registers);
// a link to "Your table" while the reader has one to play; a duplicate event's
// boards (each seed's hash from the start, the seed once every table has played the
// board); the tables of each round or board with their seats; the standings; and
// the results as CSV.  While the event registers or runs the server pushes each change
// (/ws/tournaments/<id>), so the standings follow the play.  Everything shown is
// text (never HTML): names are people's words.
import { html, useState, useEffect, useRef } from "../html.js";
import { t, has, num, language } from "../i18n.js";
import * as api from "../api.js";
import { Header, ErrorNotice, AppLink } from "./common.js";
import { profilePath } from "./ratings.js";

export const tournamentPath = (id) => `/tournaments/${encodeURIComponent(id)}`;
const POLL_MS = 3000;
const LIVE = new Set(["registering", "running"]);
const shown = (err) => ({ code: err.code, message: err.message });
const when = (ms) => new Date(ms).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
/** A format's or a state's name; a value this client has no words for shows as it is. */
const named = (prefix, value) => (has(`${prefix}${value}`) ? t(`${prefix}${value}`) : value);
export const formatName = (format) => named("tournament_format_", format);
export const stateName = (state) => named("tournament_state_", state);
const roomPath = (roomId, watch = false) => `/r/${encodeURIComponent(roomId)}${watch ? "?watch=1" : ""}`;

/** The plan in words: one line per choice its organiser made. */
/** "every 30 minutes", "every 7 days": a Swiss event's rounds at set times. */
export function roundEvery(minutes) {
  return minutes % 1440 === 0
    ? t("tournament_round_days", { n: minutes / 1440 })
    : t("tournament_round_minutes", { n: minutes });
}

function planLines(ev) {
  const p = ev.plan;
  const duplicate = p.format === "duplicate";
  const lines = [formatName(p.format), t("tournament_plan_players", { n: p.players })];
  if (duplicate) lines.push(t("tournament_plan_boards", { n: p.boards }), t(`tournament_plan_scoring_${p.scoring}`));
  else if (p.format === "swiss") lines.push(t("tournament_plan_rounds", { n: p.rounds }));
  if (p.round_minutes) {
    const days = p.round_minutes % 1440 === 0;
    lines.push(t(days ? "tournament_plan_round_days" : "tournament_plan_round_minutes", { n: days ? p.round_minutes / 1440 : p.round_minutes }));
  }
  else if (p.format === "arena") lines.push(t("tournament_plan_minutes", { n: p.minutes }));
  if (p.rated) lines.push(t("tournament_plan_rated"));
  lines.push(t("tournament_plan_bots", { level: t(`bot_${p.bot_level}`) }));
  if (p.pace === "correspondence") lines.push(t("tournament_plan_correspondence", { n: p.days_per_move || 1 }));
  else if (p.turn_clock) lines.push(t("tournament_plan_live", { clock: t("seconds", { n: Math.round(p.turn_clock) }) }));
  else lines.push(t("tournament_plan_live_unclocked"));
  lines.push(t(`tournament_entry_${p.entry}`));
  lines.push(t("tournament_plan_cap", { n: p.cap }));
  return lines;
}

/** Register or withdraw (a signed-in person), start or cancel (its organiser, while it registers). */
function Actions({ ev, signedIn, act, busy }) {
  const you = ev.you;
  const registering = ev.state === "registering";
  const open = registering || (ev.state === "running" && ev.format !== "duplicate");
  const arenaOn = ev.format === "arena" && ev.state === "running" && ev.ends_ms && ev.ends_ms > Date.now();
  if (signedIn === null) return null;
  if (!signedIn) {
    return LIVE.has(ev.state) ? html`<p class="hint" data-testid="tournament-sign-in">${t("tournament_sign_in")}</p>` : null;
  }
  return html`<div class="tournament-actions">
    ${you.registered ? html`<p data-testid="tournament-registered">${t("tournament_registered")}</p>` : null}
    <p>
      ${!you.registered && open
        ? html`<button type="button" class="btn primary" disabled=${busy} data-testid="tournament-register"
            onClick=${() => act(() => api.registerForTournament(ev.id))}>${t("tournament_register")}</button>`
        : null}
      ${you.registered && LIVE.has(ev.state)
        ? html`<button type="button" class="btn" disabled=${busy} data-testid="tournament-withdraw"
            onClick=${() => act(() => api.withdrawFromTournament(ev.id), registering ? null : t("tournament_withdraw_confirm"))}>${t("tournament_withdraw")}</button>`
        : null}
      ${you.organiser && registering
        ? html`${" "}<button type="button" class="btn primary" disabled=${busy} data-testid="tournament-start"
            onClick=${() => act(() => api.startTournament(ev.id))}>${t("tournament_start")}</button>
          ${" "}<button type="button" class="btn danger" disabled=${busy} data-testid="tournament-cancel"
            onClick=${() => act(() => api.cancelTournament(ev.id), t("tournament_cancel_confirm"))}>${t("tournament_cancel")}</button>`
        : null}
      ${you.organiser && arenaOn
        ? html`${" "}<button type="button" class="btn" disabled=${busy} data-testid="tournament-end"
            onClick=${() => act(() => api.endArena(ev.id), t("tournament_end_confirm"))}>${t("tournament_end")}</button>`
        : null}
    </p>
  </div>`;
}

function Entrants({ store, ev }) {
  return html`<section class="panel" aria-labelledby="tournament-entrants-title">
    <h2 id="tournament-entrants-title">${t("tournament_entrants")} (${ev.entrants.filter((e) => !e.withdrawn).length})</h2>
    ${ev.entrants.length
      ? html`<ul data-testid="tournament-entrants">${ev.entrants.map((e) => html`<li data-username=${e.username}>
          <${AppLink} store=${store} href=${profilePath(e.username)}>${e.username}<//>
          ${e.withdrawn ? html` <span class="badge">${t("tournament_withdrawn")}</span>` : null}
        </li>`)}</ul>`
      : html`<p class="hint" data-testid="tournament-entrants-none">${t("tournament_entrants_none")}</p>`}
  </section>`;
}

function Boards({ store, ev }) {
  return html`<section class="panel" aria-labelledby="tournament-boards-title">
    <h2 id="tournament-boards-title">${t("tournament_boards")}</h2>
    <p class="hint">${t("tournament_boards_hint")}</p>
    <ul data-testid="tournament-boards">${ev.boards.map((b) => html`<li data-board=${b.board} data-complete=${b.complete ? "true" : "false"}>
      <strong>${t("tournament_board_n", { n: b.board })}</strong>:
      ${" "}${t("tournament_seed_hash")} <code style=${{ wordBreak: "break-all" }}>${b.seed_hash}</code>
      ${b.seed
        ? html`; ${t("tournament_seed")} <code style=${{ wordBreak: "break-all" }} data-testid="tournament-seed">${b.seed}</code>`
        : html` <span class="hint">(${t("tournament_seed_sealed")})</span>`}
    </li>`)}</ul>
    ${ev.boards.filter((b) => b.field && b.field.length).map((b) => html`<${BoardField} store=${store} board=${b} />`)}
  </section>`;
}

/** A complete board's published performance: each seat's result against everyone who
 * held the same cards (matchpoints and points difference). */
function BoardField({ store, board }) {
  return html`<div class="table-scroll"><table class="score-table" data-testid="tournament-board-field" data-board=${board.board}>
    <caption>${t("tournament_field", { n: board.board })}</caption>
    <thead><tr>
      <th scope="col">${t("tournament_seat")}</th><th scope="col">${t("tournament_table")}</th>
      <th scope="col">${t("tournament_player")}</th><th scope="col">${t("tournament_total")}</th>
      <th scope="col">${t("tournament_matchpoints")}</th><th scope="col">${t("tournament_difference")}</th>
    </tr></thead>
    <tbody>${board.field.map((f) => html`<tr data-seat=${f.seat} data-username=${f.username || ""} data-matchpoints=${f.matchpoints}>
      <td>${f.seat + 1}</td><td>${f.table}</td>
      <th scope="row">${f.username === null
        ? html`<span class="badge bot">${t("bot")}</span>`
        : html`<${AppLink} store=${store} href=${profilePath(f.username)}>${f.username}<//>`}</th>
      <td>${num(f.total)}</td><td>${num(f.matchpoints, 1)}</td><td>${num(f.difference, 1)}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

function SeatCell({ store, seat }) {
  const who = seat.bot
    ? html`<span class="badge bot">${t("bot")}</span>`
    : html`<${AppLink} store=${store} href=${profilePath(seat.username)}>${seat.username}<//>`;
  return html`<td data-seat=${seat.seat} data-username=${seat.username || ""} data-bot=${seat.bot ? "true" : "false"}>
    ${who}${seat.total === null || seat.total === undefined ? null : html` <strong data-testid="tournament-total">${num(seat.total)}</strong>`}
    ${seat.left ? html` <span class="badge" data-testid="tournament-left">${t("tournament_left")}</span>` : null}
  </td>`;
}

/** One round's (Swiss) or board's (duplicate) tables: a table each, with its seats. */
function Stage({ store, ev, stage, tables }) {
  const duplicate = ev.format === "duplicate";
  const board = duplicate ? ev.boards.find((b) => b.board === stage) : null;
  const watchable = !duplicate || (board && board.complete);
  const seats = Math.max(...tables.map((x) => x.seats.length));
  const title = duplicate ? t("tournament_board_n", { n: stage }) : t("tournament_round_n", { n: stage });
  return html`<div class="table-scroll">
    <table class="score-table" data-testid="tournament-stage" data-stage=${stage}>
      <caption>${title}</caption>
      <thead><tr>
        <th scope="col">${t("tournament_table")}</th>
        ${Array.from({ length: seats }, (_, i) => html`<th scope="col">${t("seat_n", { n: i + 1 })}</th>`)}
        <th scope="col">${t("tournament_status")}</th>
      </tr></thead>
      <tbody>${tables.map((x) => html`<tr data-testid="tournament-table" data-table=${x.table} data-room=${x.room_id || ""}>
        <th scope="row">${x.room_id && watchable
          ? html`<${AppLink} store=${store} href=${roomPath(x.room_id, true)}>${t("tournament_table_n", { n: x.table })}<//>`
          : t("tournament_table_n", { n: x.table })}</th>
        ${x.seats.map((s) => html`<${SeatCell} store=${store} seat=${s} />`)}
        <td>${x.done ? t("tournament_table_done") : x.room_id ? t("tournament_table_playing") : t("tournament_table_waiting")}</td>
      </tr>`)}</tbody>
    </table>
  </div>`;
}

function Tables({ store, ev }) {
  const stages = [...new Set(ev.tables.map((x) => x.stage))].sort((a, b) => a - b);
  return html`<section class="panel" aria-labelledby="tournament-tables-title" data-testid="tournament-tables">
    <h2 id="tournament-tables-title">${t("tournament_tables")}</h2>
    ${stages.length
      ? stages.map((s) => html`<${Stage} store=${store} ev=${ev} stage=${s} tables=${ev.tables.filter((x) => x.stage === s)} />`)
      : html`<p class="hint" data-testid="tournament-tables-none">${t("tournament_tables_none")}</p>`}
  </section>`;
}

function Standings({ store, ev }) {
  return html`<section class="panel" aria-labelledby="tournament-standings-title">
    <h2 id="tournament-standings-title">${t("tournament_standings")}</h2>
    <div aria-live="polite">
      ${ev.standings.length
        ? html`<div class="table-scroll"><table class="score-table leaderboard" data-testid="tournament-standings">
            <caption class="sr-only">${t("tournament_standings")}</caption>
            <thead><tr>
              <th scope="col">${t("tournament_place")}</th><th scope="col">${t("tournament_player")}</th>
              <th scope="col">${t("tournament_score")}</th><th scope="col">${t("tournament_tiebreak")}</th>
              <th scope="col">${t("tournament_played")}</th>
            </tr></thead>
            <tbody>${ev.standings.map((s) => html`<tr data-testid="tournament-standing" data-username=${s.username} data-score=${s.score}>
              <td>${s.place}</td>
              <th scope="row"><${AppLink} store=${store} href=${profilePath(s.username)}>${s.username}<//></th>
              <td>${num(s.score, 1)}</td><td>${num(s.tiebreak, 1)}</td><td>${s.played}</td>
            </tr>`)}</tbody>
          </table></div>`
        : html`<p class="hint" data-testid="tournament-standings-none">${t("tournament_standings_none")}</p>`}
    </div>
    <p><a href=${api.tournamentCsvUrl(ev.id)} download data-testid="tournament-csv">${t("tournament_results_csv")}</a></p>
  </section>`;
}

/** /tournaments/<id>: a tournament's page, asked again every few seconds while it is live. */
export function TournamentPage({ store, route }) {
  const id = route.eventId;
  const [ev, setEv] = useState(null);
  const [error, setError] = useState(null); // an action refused
  const [loadError, setLoadError] = useState(null); // the page not read (polling: the last time)
  const [busy, setBusy] = useState(false);
  const [signedIn, setSignedIn] = useState(null); // null: not known yet
  const alive = useRef(true);
  const load = () =>
    api.getTournament(id).then(
      (e) => {
        if (!alive.current) return;
        setEv(e);
        setLoadError(null);
      },
      (err) => {
        if (alive.current) setLoadError(shown(err));
      },
    );
  useEffect(() => {
    alive.current = true;
    api.me().then((a) => alive.current && setSignedIn(!!a), () => alive.current && setSignedIn(false));
    load();
    return () => {
      alive.current = false;
    };
  }, [id]);
  const live = !!ev && LIVE.has(ev.state);
  useEffect(() => {
    // The server pushes the event each time it changes (/ws/tournaments/<id>); each push
    // reloads the page's copy (with what concerns the reader).  Should the socket fail
    // or close, the page asks every POLL_MS instead.
    if (!live) return undefined;
    let timer = null;
    let stopped = false;
    const tick = async () => {
      if (!document.hidden) await load();
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    let socket = null;
    try {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(id)}`);
      socket.onmessage = (msg) => {
        if (!stopped && JSON.parse(msg.data).type === "event") load();
      };
      socket.onclose = () => {
        if (!stopped && timer === null) timer = setTimeout(tick, POLL_MS);
      };
    } catch (err) {
      timer = setTimeout(tick, POLL_MS);
    }
    return () => {
      stopped = true;
      clearTimeout(timer);
      if (socket) socket.close();
    };
  }, [id, live]);
  const act = async (fn, confirmText = null) => {
    if (confirmText && !window.confirm(confirmText)) return;
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(shown(err));
    }
    await load();
    if (alive.current) setBusy(false);
  };
  const title = ev ? ev.name : t("tournament_title");
  return html`<div class="page history">
    <${Header} store=${store} />
    <main id="main" class="history-main">
      <div class="replay-head">
        <h1 data-testid="tournament-name">${title}</h1>
        <nav class="replay-links" aria-label=${t("replay_links")}>
          ${ev && ev.club_id ? html`<${AppLink} store=${store} href=${`/clubs/${encodeURIComponent(ev.club_id)}`}>${t("tournament_club_link")}<//>${" · "}` : null}
          <${AppLink} store=${store} href="/">${t("back_to_lobby")}<//>
        </nav>
      </div>
      <${ErrorNotice} error=${error} onClose=${() => setError(null)} />
      <${ErrorNotice} error=${loadError} />
      ${ev === null
        ? loadError ? null : html`<p class="loading" role="status">${t("loading")}</p>`
        : html`<p>
            <span data-testid="tournament-format">${formatName(ev.format)}</span>${" · "}
            <span class="badge" data-testid="tournament-state" data-state=${ev.state}>${stateName(ev.state)}</span>
          </p>
          <p data-testid="tournament-organiser">${t("tournament_organiser", { name: ev.organiser })}</p>
          ${ev.state === "registering" && ev.starts_ms ? html`<p class="hint">${t("tournament_starts", { time: when(ev.starts_ms) })}</p>` : null}
          ${ev.next_round_ms
            ? html`<p class="hint" data-testid="tournament-next-round">${t("tournament_next_round", { n: ev.stage + 1, time: when(ev.next_round_ms) })}</p>`
            : null}
          ${ev.you.room_id
            ? html`<p><${AppLink} store=${store} href=${roomPath(ev.you.room_id)} class="btn primary" data-testid="tournament-your-table">${t("tournament_your_table")}<//></p>`
            : null}
          <${Actions} ev=${ev} signedIn=${signedIn} act=${act} busy=${busy} />
          <section class="panel" aria-labelledby="tournament-plan-title">
            <h2 id="tournament-plan-title">${t("tournament_plan")}</h2>
            <ul data-testid="tournament-plan">${planLines(ev).map((line) => html`<li>${line}</li>`)}</ul>
          </section>
          <${Standings} store=${store} ev=${ev} />
          <${Tables} store=${store} ev=${ev} />
          ${ev.format === "duplicate" && ev.boards.length ? html`<${Boards} store=${store} ev=${ev} />` : null}
          <${Entrants} store=${store} ev=${ev} />`}
    </main>
  </div>`;
}
