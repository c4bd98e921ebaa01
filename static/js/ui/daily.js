// The deal of the day (issue 32): the lobby's panel that starts it, the note in its room
// once it is over, and the results pages /daily (the days) and /daily/<date> (a day's
// results: your points, rank and percentile, the best with their replays, the coach).
import { html, useState, useEffect } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { Header, ErrorNotice, AppLink, navigate, replayPath } from "./common.js";
import { learnPath } from "./learn.js";

export const dailyPath = (date, players) => `/daily/${date}${players ? `?players=${players}` : ""}`;
const BEST = 10;

/** Start today's deal for `players`; one already played opens its results instead. */
async function startDaily(store, day, players, setError, setBusy) {
  setBusy(true);
  setError(null);
  const name = session.getName().trim();
  try {
    const res = await api.playDaily(players, name || undefined);
    session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: name || "Player" });
    session.saveDaily(res.room_id, { date: day.date, players });
    navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
  } catch (err) {
    setBusy(false);
    if (err.code === "already_played") navigate(store, dailyPath(day.date, players));
    else setError({ code: err.code, message: err.message });
  }
}

/**
 * This browser's plays of the day's deals (issue 47): {players: {roomId, you}}, `you`
 * its result row once finished (null while it is played).  Asked only for the counts
 * this browser started today, so a lobby that played nothing asks nothing more.
 */
function useMyPlays(day) {
  const [mine, setMine] = useState({});
  useEffect(() => {
    if (!day) return;
    const rooms = session.dailyRoomsOn(day.date);
    setMine(Object.fromEntries(Object.entries(rooms).map(([n, roomId]) => [n, { roomId, you: undefined }])));
    for (const [players, roomId] of Object.entries(rooms)) {
      api.dailyResults(day.date, Number(players)).then(
        (res) => setMine((m) => ({ ...m, [players]: { roomId, you: res.you } })),
        () => setMine((m) => ({ ...m, [players]: { roomId, you: null } })),
      );
    }
  }, [day && day.date]);
  return mine;
}

/** One count's way in: Play, or Continue while it is played, or its result once played. */
function DailyEntry({ store, day, players, mine, play, busy }) {
  if (mine && mine.you) {
    return html`<p class="daily-mine" data-testid=${`daily-mine-${players}`}>
      <span>${t("daily_you_played", { players, points: mine.you.points })}</span>
      ${" "}<${AppLink} store=${store} href=${dailyPath(day.date, players)} class="btn small primary"
        data-testid=${`daily-mine-results-${players}`}>${t("daily_see_results")}<//>
    </p>`;
  }
  if (mine && mine.you === null) {
    return html`<${AppLink} store=${store} href=${`/r/${encodeURIComponent(mine.roomId)}`} class="btn primary"
      data-testid=${`daily-continue-${players}`}>${t("daily_continue", { players })}<//>`;
  }
  const asking = !day || (mine && mine.you === undefined); // drawn at once, filled in when known
  return html`<button type="button" class="btn primary" disabled=${busy || asking} onClick=${() => play(players)}
    data-testid=${`daily-play-${players}`}>${t("daily_play", { players })}</button>`;
}

/**
 * The lobby's "Deal of the day": one button per player count, the day's counts.
 * Drawn at once with the counts this browser last saw (disabled, the numbers still
 * dots) and filled in when the day arrives: a panel appearing half a second after the
 * lobby would push everything under it down by its height (some 300 px) under a
 * finger about to tap "Find a game" or "Sign in".  Without a day (the server could
 * not say) it is gone again.
 */
export function DailyPanel({ store }) {
  const [day, setDay] = useState(undefined); // undefined: asking; null: none to be had
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const mine = useMyPlays(day);
  useEffect(() => {
    api.daily().then(
      (d) => {
        session.saveDailyCounts(d.deals.map((x) => x.players));
        setDay(d);
      },
      () => setDay(null),
    );
  }, []);
  if (day === null) return null;
  const deals = day ? day.deals : session.getDailyCounts().map((players) => ({ players, played: null }));
  return html`<section class="panel daily" aria-labelledby="daily-title" aria-busy=${day ? "false" : "true"}
      data-testid="daily-panel" data-ready=${day ? "yes" : "no"}>
    <h2 id="daily-title">${t("daily_title")}</h2>
    <p class="hint">${t("daily_hint")}</p>
    <div class="btn-row">
      ${deals.map((d) => html`<${DailyEntry} key=${d.players} store=${store} day=${day} players=${d.players}
          mine=${mine[d.players]} busy=${busy} play=${(n) => startDaily(store, day, n, setError, setBusy)} />`)}
    </div>
    <ul class="daily-counts">
      ${deals.map((d) => html`<li key=${d.players}>${day
        ? html`<${AppLink} store=${store} href=${dailyPath(day.date, d.players)} data-testid=${`daily-results-${d.players}`}>
            ${t("daily_played", { players: d.players, count: d.played })}<//>`
        : html`<span class="pending">${t("daily_played", { players: d.players, count: "…" })}</span>`}</li>`)}
    </ul>
    <p><${AppLink} store=${store} href="/daily" data-testid="daily-days">${t("daily_days_title")}<//></p>
    <${ErrorNotice} error=${error} />
  </section>`;
}

/** In a room of the deal of the day, once it is over: the way to its results. */
export function DailyDone({ store, roomId, view }) {
  const daily = session.getDaily(roomId);
  if (!daily || !view || (view.status !== "finished" && !view.deal_over)) return null;
  return html`<div class="notice daily-done" role="status" data-testid="daily-done">
    <span>${t("daily_over")}</span>
    <${AppLink} store=${store} href=${dailyPath(daily.date, daily.players)} class="btn small primary" data-testid="daily-see-results">
      ${t("daily_see_results")}<//>
  </div>`;
}

/** The same way, as a button of the deal's summary (which covers the page). */
export function DailyLink({ store, roomId }) {
  const daily = session.getDaily(roomId);
  if (!daily) return null;
  return html`<${AppLink} store=${store} href=${dailyPath(daily.date, daily.players)} class="btn primary" data-testid="summary-daily">
    ${t("daily_see_results")}<//>`;
}

/** The coach's word on your own play of the day, once it is there (the request queues it). */
function CoachLink({ store, row }) {
  const [state, setState] = useState(null);
  useEffect(() => {
    api.dealAnalysis(row.room_id, 1, 1).then((a) => setState(a.status === "done" ? "done" : "running"), () => setState(null));
  }, [row.room_id]);
  if (state === "done") {
    return html`<${AppLink} store=${store} href=${learnPath(row.room_id, 1, 1, 0)} data-testid="daily-coach">${t("daily_coach")}<//>`;
  }
  if (state === "running") return html`<span class="hint" data-testid="daily-coach-running">${t("daily_coach_running")}</span>`;
  return null;
}

function DealResults({ store, date, players }) {
  const [res, setRes] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api.dailyResults(date, players).then(setRes, (err) => setError({ code: err.code, message: err.message }));
  }, [date, players]);
  if (error) return html`<${ErrorNotice} error=${error} />`;
  if (!res) return html`<p class="loading" role="status">${t("loading")}</p>`;
  const you = res.you;
  const best = res.results.slice(0, BEST);
  // Nobody else in the results: a percentile of "the others" would be of no one (issue 47).
  const others = res.results.filter((r) => !r.you).length;
  return html`<section class="panel daily-results" aria-labelledby=${`daily-${players}`} data-testid=${`daily-results-panel-${players}`}>
    <h2 id=${`daily-${players}`}>${t("daily_players_deal", { players })}</h2>
    ${you
      ? html`<p class="daily-you" data-testid="daily-you" data-points=${you.points} data-rank=${you.rank} data-percentile=${you.percentile}>
          ${others
            ? t("daily_your_result", { points: you.points, rank: you.rank, count: res.results.length, percentile: you.percentile })
            : t("daily_your_result_alone", { points: you.points })}
          ${" "}<${AppLink} store=${store} href=${replayPath(you.room_id, 1, 1)} data-testid="daily-your-replay">${t("daily_replay")}<//>
          ${" "}<${CoachLink} store=${store} row=${you} />
        </p>`
      : null}
    ${best.length
      ? html`<div class="daily-table-box"><table class="daily-table" data-testid="daily-table">
          <thead><tr><th>${t("daily_rank")}</th><th>${t("daily_name")}</th><th>${t("daily_points")}</th><th>${t("daily_percentile")}</th></tr></thead>
          <tbody>
            ${best.map((r, i) => html`<tr key=${i} class=${r.you ? "you" : ""} data-testid="daily-row">
              <td>${r.rank}</td>
              <td>${r.name}${r.room_id ? html` <${AppLink} store=${store} href=${replayPath(r.room_id, 1, 1)} class="daily-row-replay" data-testid="daily-row-replay">${t("daily_replay")}<//>` : null}</td>
              <td>${r.points}</td><td>${r.percentile}</td>
            </tr>`)}
          </tbody>
        </table></div>`
      : html`<p class="hint">${t("daily_nobody")}</p>`}
    <p class="hint daily-proof">
      ${t("daily_commitment")}: <code data-testid="daily-commitment">${res.commitment}</code><br />
      ${res.seed
        ? html`${t("daily_seed")}: <code data-testid="daily-seed">${res.seed}</code>`
        : t("daily_seed_later")}
    </p>
  </section>`;
}

function DayList({ store }) {
  const [today, setToday] = useState(null);
  const [days, setDays] = useState([]);
  useEffect(() => {
    api.daily().then(setToday, () => setToday(null));
    api.dailyDays().then((d) => setDays(d.days), () => setDays([]));
  }, []);
  const all = today ? [today, ...days] : days;
  return html`<section class="panel" data-testid="daily-days-list">
    <ul class="daily-days">
      ${all.map((d) => html`<li key=${d.date}>
        <strong>${d.date}</strong>
        ${d.deals.map((x) => html` <${AppLink} store=${store} href=${dailyPath(d.date, x.players)} data-testid="daily-day-link">
          ${t("daily_played", { players: x.players, count: x.played })}<//>`)}
      </li>`)}
    </ul>
  </section>`;
}

/** /daily: the days; /daily/<date>[?players=n]: that day's results. */
export function DailyPage({ store, route }) {
  const { date, players } = route;
  const counts = players ? [players] : [3, 4];
  const title = date ? t("daily_day_title", { date }) : t("daily_days_title");
  return html`<div class="page daily-page">
    <${Header} store=${store} />
    <main id="main" class="narrow">
      <h1>${title}</h1>
      <p class="hint">${t("daily_fairness")}</p>
      ${date ? counts.map((n) => html`<${DealResults} key=${`${date}|${n}`} store=${store} date=${date} players=${n} />`) : html`<${DayList} store=${store} />`}
      <p>${date ? html`<${AppLink} store=${store} href="/daily">${t("daily_days_title")}<//> · ` : null}
        <a href="/" onClick=${(e) => { e.preventDefault(); navigate(store, "/"); }}>${t("back_to_lobby")}</a></p>
    </main>
  </div>`;
}

/** "Play this deal yourself" on a replay: the same pack, dealer and seat, against bots. */
export function PlayYourself({ store, roomId, match, deal }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    setError(null);
    const name = session.getName().trim();
    try {
      const res = await api.playYourself(roomId, match, deal, name || undefined);
      session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: name || "Player" });
      navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
    } catch (err) {
      setBusy(false);
      setError({ code: err.code, message: err.message });
    }
  };
  return html`<span class="play-yourself">
    <button type="button" class="btn small" disabled=${busy} onClick=${go} data-testid="play-yourself">${t("play_yourself")}</button>
    <${ErrorNotice} error=${error} />
  </span>`;
}
