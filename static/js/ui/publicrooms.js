// Finding a game (issue 12): "Play now against a bot" in one click, the public tables
// with free seats and the public games being played (GET /api/rooms/public, polled
// every few seconds while the lobby is open and visible), and the create form's
// options for them (list publicly, time bank).
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { navigate, ErrorNotice } from "./common.js";
import { shownName } from "./words.js";

const POLL_MS = 5000;
const PAGE = 6;
export const TIME_BANKS = [null, [300, 5], [600, 10]]; // [seconds, increment] choices

/** One click: two players, standard rules, a bot in the other seat. */
export function PlayNow({ store }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    const name = (session.getName() || "").trim() || t("player_default");
    try {
      const res = await api.createRoom({ players: 2, name, bots: 1, bot_level: "greedy", rules: {} });
      session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name });
      navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  return html`<div class="play-now">
    <button type="button" class="btn primary big" onClick=${go} disabled=${busy} data-testid="play-now">${t("play_now")}</button>
    <p class="hint">${t("play_now_hint")}</p>
    <${ErrorNotice} error=${error} />
  </div>`;
}

function rulesText(rules) {
  // Every on/off option of the rules is a variant with its own name (rule_<option>).
  const on = Object.keys(rules || {}).filter((k) => rules[k] === true).map((k) => t(`rule_${k}`));
  return on.length ? on.join(" · ") : t("rules_standard");
}

function RoomItem({ store, room }) {
  const taken = room.seats.filter((s) => s.name !== null);
  const mark = (s) => (s.bot ? ` (${t("bot")})` : s.outside_bot ? ` (${t("outside_bot")})` : "");
  const names = taken.map((s) => `${shownName(s)}${mark(s)}`).join(", ");
  const open = room.status === "waiting";
  const go = (watch) => navigate(store, `/r/${encodeURIComponent(room.room_id)}${watch ? "?watch=1" : ""}`);
  return html`<li class="public-room" data-testid="public-room" data-room=${room.room_id}>
    <div class="public-main">
      <strong class="public-names">${names}</strong>
      <span class="hint">${t("public_seats", { taken: taken.length, n: room.players })} · ${rulesText(room.rules)}
        ${room.deal_no ? html` · ${t("deal_n", { n: room.deal_no })}` : null}
        ${room.spectators ? html` · ${t("public_spectators", { n: room.spectators })}` : null}</span>
    </div>
    <div class="btn-row">
      ${open ? html`<button type="button" class="btn small primary" onClick=${() => go(false)} data-testid="public-join">${t("join")}</button>` : null}
      <button type="button" class="btn small" onClick=${() => go(true)} data-testid="public-watch">${t("watch")}</button>
    </div>
  </li>`;
}

function RoomList({ store, kind }) {
  const [rooms, setRooms] = useState(null);
  const [next, setNext] = useState(null);
  const [pages, setPages] = useState(1);
  const [error, setError] = useState(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    let timer = null;
    const load = async () => {
      if (document.visibilityState !== "hidden") {
        try {
          // Refresh every page shown so far, from the first: rooms fill up and start.
          let all = [];
          let cursor = null;
          for (let i = 0; i < pages; i += 1) {
            const q = new URLSearchParams({ kind, limit: String(PAGE) });
            if (cursor) q.set("cursor", cursor);
            const res = await fetch(`/api/rooms/public?${q}`);
            if (!res.ok) throw new Error(String(res.status));
            const body = await res.json();
            all = all.concat(body.rooms);
            cursor = body.next;
            if (!cursor) break;
          }
          if (!alive.current) return;
          setRooms(all);
          setNext(cursor);
          setError(null);
        } catch {
          if (alive.current) setError({ code: "network" });
        }
      }
      if (alive.current) timer = setTimeout(load, POLL_MS);
    };
    load();
    return () => {
      alive.current = false;
      clearTimeout(timer);
    };
  }, [kind, pages]);
  const id = `public-${kind}-title`;
  return html`<section class="panel public-list" aria-labelledby=${id} data-testid=${`public-${kind}`}>
    <h2 id=${id}>${t(kind === "open" ? "public_open_title" : "public_live_title")}</h2>
    <${ErrorNotice} error=${error} />
    ${rooms === null
      ? html`<p class="hint">${t("loading")}</p>`
      : rooms.length === 0
        ? html`<p class="hint">${t(kind === "open" ? "public_none_open" : "public_none_live")}</p>`
        : html`<ul class="public-rooms">${rooms.map((r) => html`<${RoomItem} key=${r.room_id} store=${store} room=${r} />`)}</ul>`}
    ${next ? html`<button type="button" class="btn small" onClick=${() => setPages(pages + 1)} data-testid=${`public-more-${kind}`}>${t("public_more")}</button>` : null}
  </section>`;
}

export function PublicRooms({ store }) {
  return html`<${RoomList} store=${store} kind="open" /><${RoomList} store=${store} kind="live" />`;
}

/** The create form's part for finding players and the clock: list publicly, time bank. */
export function TableOptions({ isPublic, setPublic, bank, setBank, noClock = false }) {
  return html`<div class="field-row table-options">
    <label class="check-line field">
      <input type="checkbox" name="public" checked=${isPublic} onChange=${(e) => setPublic(e.target.checked)} data-testid="create-public" />
      <span><strong>${t("public_room")}</strong> <span class="hint">${t("public_room_hint")}</span></span>
    </label>
    <div class="field">
      <label for="create-bank">${t("time_bank")}</label>
      <select id="create-bank" name="time_bank" value=${bank} disabled=${noClock} onChange=${(e) => setBank(Number(e.target.value))}>
        ${TIME_BANKS.map((b, i) => html`<option value=${i}>${b ? t("time_bank_value", { m: b[0] / 60, s: b[1] }) : t("time_bank_off")}</option>`)}
      </select>
    </div>
  </div>`;
}
