// "Find a game" (issue 34): choose the player count, the pace and when bots may fill
// free seats, then wait in the server's queue (POST /api/pairing) with the time waited
// shown and a Cancel button.  The ticket is polled as often as the server asks
// (poll_ms, about once a second); each poll keeps it alive, and once the server
// answers "matched" the seat is saved like any other and the room opens.  The ticket
// is kept for this tab (sessionStorage), so a reload goes on waiting.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { navigate, ErrorNotice } from "./common.js";

const COUNTS = [2, 3, 4, 5, 6];
export const BOTS_AFTER = [30, 60, 120, null]; // seconds; null: never
const TICKET = "krypkasino.pairing";

const saved = () => {
  try {
    return JSON.parse(sessionStorage.getItem(TICKET));
  } catch {
    return null;
  }
};
const keep = (value) => {
  try {
    if (value) sessionStorage.setItem(TICKET, JSON.stringify(value));
    else sessionStorage.removeItem(TICKET);
  } catch {
    /* private mode: the search lasts as long as the page */
  }
};

/** "1:05": minutes and seconds waited. */
export function waitedText(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const botsText = (s) => (s === null ? t("bots_after_never") : s < 60 ? t("seconds", { n: s }) : t("minutes", { n: s / 60 }));

function Waiting({ search, onCancel, busy }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const waited = now - search.since;
  const bots = search.botsAfter === null ? t("find_no_bots") : t("find_bots_at", { time: botsText(search.botsAfter) });
  return html`<div class="find-waiting" role="status" aria-live="polite" data-testid="find-waiting">
    <span class="spinner" aria-hidden="true"></span>
    <p><strong>${t("find_waiting", { n: search.players })}</strong></p>
    <p class="hint"><span>${t("find_waited")}</span> <time data-testid="find-elapsed">${waitedText(waited)}</time>${" · "}${bots}</p>
    <button type="button" class="btn" onClick=${onCancel} disabled=${busy} data-testid="find-cancel">${t("cancel")}</button>
  </div>`;
}

export function FindGame({ store }) {
  const [name, setName] = useState(session.getName());
  const [players, setPlayers] = useState(2);
  const [botsAfter, setBotsAfter] = useState(60);
  const [search, setSearch] = useState(saved); // {ticket, players, botsAfter, since}
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const live = useRef(true);
  useEffect(() => () => (live.current = false), []);

  const stop = (err = null) => {
    keep(null);
    setSearch(null);
    setBusy(false);
    setError(err);
  };

  // Poll the ticket while waiting; a seated one opens its room.
  useEffect(() => {
    if (!search) return undefined;
    let timer = null;
    const poll = async () => {
      let state;
      try {
        state = await api.pairingTicket(search.ticket);
      } catch (err) {
        if (!live.current) return;
        if (err.status === 404) return stop({ code: "pairing_lapsed" });
        timer = setTimeout(poll, 2000); // the server is away for a moment: keep trying
        return;
      }
      if (!live.current) return;
      if (state.status === "matched") {
        keep(null);
        const seatName = search.name || session.getName() || t("player_default");
        session.saveSeat(state.room_id, { token: state.token, seat: state.seat, name: seatName });
        navigate(store, `/r/${encodeURIComponent(state.room_id)}`);
        return;
      }
      timer = setTimeout(poll, state.poll_ms || 1000);
    };
    timer = setTimeout(poll, 300);
    return () => clearTimeout(timer);
  }, [search && search.ticket]);

  // Signed in (ui/account.js keeps the account in the store), the name may be left
  // empty: the server seats the account under its username.
  const account = store.get().account || null;
  const submit = async (ev) => {
    ev.preventDefault();
    const chosen = name.trim();
    if (!chosen && !account) return setError({ code: "name_needed" });
    setBusy(true);
    setError(null);
    try {
      const res = await api.findGame({ players, pace: "live", bots_after: botsAfter, ...(chosen ? { name: chosen } : {}) });
      if (chosen) session.saveName(chosen);
      const seatName = chosen || account.username;
      const next = { ticket: res.ticket, players, botsAfter, name: seatName, since: Date.now() - res.waited_ms };
      keep(next);
      setSearch(next);
    } catch (err) {
      setError({ code: err.code, message: err.message });
    }
    setBusy(false);
  };

  const cancel = async () => {
    setBusy(true);
    try {
      await api.leaveQueue(search.ticket);
      stop();
    } catch (err) {
      if (err.code === "already_matched") return setBusy(false); // the next poll opens the room
      stop(err.status === 404 ? null : { code: err.code, message: err.message });
    }
  };

  return html`<section class="panel find-game" aria-labelledby="find-title" data-testid="find-game">
    <h2 id="find-title">${t("find_title")}</h2>
    ${search
      ? html`<${Waiting} search=${search} onCancel=${cancel} busy=${busy} />`
      : html`<form onSubmit=${submit}>
          <p class="hint">${t("find_hint")}</p>
          <div class="field">
            <label for="find-name">${t("your_name")}</label>
            <input id="find-name" name="name" maxlength="24" autocomplete="nickname" value=${name}
              placeholder=${account ? account.username : ""}
              onInput=${(e) => setName(e.target.value)} data-testid="find-name" />
          </div>
          <fieldset class="field">
            <legend>${t("players")}</legend>
            <div class="segmented" role="radiogroup" aria-label=${t("players")}>
              ${COUNTS.map((n) => html`<label class=${players === n ? "on" : ""}>
                <input type="radio" name="find-players" value=${n} checked=${players === n} onChange=${() => setPlayers(n)} />
                <span>${n}</span>
              </label>`)}
            </div>
          </fieldset>
          <div class="field-row">
            <div class="field">
              <label for="find-pace">${t("find_pace")}</label>
              <select id="find-pace" name="pace" data-testid="find-pace">
                <option value="live">${t("find_pace_live")}</option>
                <option value="correspondence" disabled>${t("find_pace_correspondence")}</option>
              </select>
            </div>
            <div class="field">
              <label for="find-bots">${t("find_bots_after")}</label>
              <select id="find-bots" name="bots_after" data-testid="find-bots"
                value=${botsAfter === null ? "never" : botsAfter}
                onChange=${(e) => setBotsAfter(e.target.value === "never" ? null : Number(e.target.value))}>
                ${BOTS_AFTER.map((s) => html`<option value=${s === null ? "never" : s}>${botsText(s)}</option>`)}
              </select>
            </div>
          </div>
          <button type="submit" class="btn primary wide" disabled=${busy} data-testid="find-start">${t("find_start")}</button>
        </form>`}
    <${ErrorNotice} error=${error} />
  </section>`;
}
