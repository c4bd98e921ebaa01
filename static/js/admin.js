// The admin page (/admin): sign in with the admin token, watch this server
// process's connections and bot load, find any room of the database (by code,
// id or player name, page by page), close a room.  Plain DOM and an external
// module only (the pages run under a Content-Security-Policy without
// 'unsafe-inline'); every text from the server goes in as text.  Texts come from
// static/i18n/admin/<lang>.json, in the language the game's pages use.
import { LANGS, addCatalogs, language, pickLanguage, setLanguage, t } from "./i18n.js";
import * as session from "./session.js";

const KEY = "krypkasino.admin-token";
const REFRESH_MS = 5000;
const PAGE = 50;
const SEARCH_DELAY_MS = 300;
const $ = (id) => document.getElementById(id);

let timer = null;
let searchTimer = null;
let openClose = null; // the room id whose close form is open (kept across refreshes)
let offset = 0;
let lastStats = null;
let lastRooms = null;

const token = () => sessionStorage.getItem(KEY);

class AdminError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: { Authorization: `Bearer ${token() || ""}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new AdminError(0, "network", t("admin_unreachable", { detail: err.message || String(err) }));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new AdminError(res.status, (data && data.code) || `http_${res.status}`, (data && data.message) || res.statusText);
  return data;
}

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// ------------------------------------------------------------------ texts

/** Put the page's own texts (data-i18n, data-i18n-placeholder) in the current language. */
function translatePage() {
  document.title = t("admin_title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
  // "{command}" in the hint is the command's name, shown as code.
  const [before, after = ""] = t("admin_token_hint").split("{command}");
  $("token-hint").replaceChildren(before, el("code", {}, "krypkasino admin-token"), after);
}

async function chooseLanguage(lang) {
  try {
    await setLanguage(lang);
  } catch {
    await setLanguage("en");
  }
  $("lang").value = language();
  translatePage();
  if (lastStats) renderStats(lastStats);
  if (lastRooms) renderRooms(lastRooms);
}

const statusWord = (status) => t(`admin_status_${status}`);

function when(iso) {
  const d = new Date(iso);
  try {
    return new Intl.DateTimeFormat(language(), { dateStyle: "short", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

// ------------------------------------------------------------------ sign in and out

function signedOut(message) {
  sessionStorage.removeItem(KEY);
  clearInterval(timer);
  timer = null;
  lastStats = lastRooms = null;
  $("panel").hidden = true;
  $("logout").hidden = true;
  $("login").hidden = false;
  $("rooms").replaceChildren();
  showError(message);
  $("token").focus();
}

function fail(err) {
  if (err.status === 401) signedOut(t("admin_bad_token"));
  else if (err.status === 404) signedOut(t("admin_off"));
  else showError(err.message);
}

function signedIn() {
  $("login").hidden = true;
  $("panel").hidden = false;
  $("logout").hidden = false;
  clearInterval(timer);
  timer = setInterval(() => {
    if (!openClose) refresh(); // do not rebuild a form someone is typing in
  }, REFRESH_MS);
  return refresh();
}

// ------------------------------------------------------------------ rendering

function counts(obj) {
  return Object.entries(obj).map(([k, v]) => `${k === "purged" ? t("admin_purged") : statusWord(k)} ${v}`).join(", ");
}

function renderStats(s) {
  lastStats = s;
  const rows = [
    ["admin_stat_process", t("admin_stat_process_value", { pid: String(s.process.pid), seconds: Math.round(s.process.uptime_seconds) })],
    ["admin_stat_rooms_in_memory", counts(s.rooms_in_memory)],
    ["admin_stat_connections", s.connections],
    ["admin_stat_bots_thinking", s.bots.thinking_total],
    ["admin_stat_strong_queued", s.bots.strong_queued],
    ["admin_stat_bot_moves", Object.entries(s.bots.moves).map(([k, v]) => `${k} ${v}`).join(", ") || "0"],
    ["admin_stat_moves", s.moves_committed],
    ["admin_stat_database", counts(s.database)],
    ["admin_stat_retention", s.retention_days ? t("admin_retention_days", { n: s.retention_days }) : t("admin_retention_forever")],
  ];
  $("stats").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, t(k)), el("dd", {}, v)]));
}

function players(room) {
  const live = room.live ? room.live.seats : null;
  return room.seats
    .map((s, i) => {
      if (!s.name) return t("admin_free_seat");
      const auto = live && live[i] && live[i].autoplay;
      const mark = s.bot ? ` (${t("admin_bot")})` : s.outside_bot ? ` (${t("admin_bot_account")})` : auto ? ` (${t("admin_auto")})` : "";
      return `${s.name}${mark}${live && live[i] && live[i].connections ? " •" : ""}`;
    })
    .join(", ");
}

function memoryCell(room) {
  if (!room.live) return el("td", { "data-testid": "room-memory" }, t("admin_not_loaded"));
  const live = room.live;
  const parts = [t("admin_connections", { n: live.connections })];
  if (live.spectators) parts.push(t("admin_watching", { n: live.spectators }));
  if (live.bot_turn) parts.push(t("admin_bot_thinking"));
  parts.push(t("admin_idle", { seconds: Math.round(live.idle_seconds) }));
  return el("td", { "data-testid": "room-memory" }, parts.join(" · "));
}

function closeCell(room) {
  if (room.closed) return el("td", {}, t("admin_closed_because", { reason: room.closed.reason }));
  if (openClose !== room.room_id) {
    return el("td", {}, el("button", {
      type: "button", "data-testid": "close-room", "aria-label": t("admin_close_label", { code: room.code }),
      onclick: () => { openClose = room.room_id; renderRooms(lastRooms); },
    }, t("admin_close")));
  }
  const input = el("input", { type: "text", maxlength: 200, placeholder: t("admin_close_reason"), "aria-label": t("admin_close_reason"), "data-testid": "close-reason" });
  const form = el("form", { class: "close-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/api/admin/rooms/${room.room_id}/close`, { reason: input.value });
      openClose = null;
      showError("");
      await refresh();
    } catch (err) {
      if (err.status === 401) fail(err);
      else showError(err.message); // a 404 here is the room, not the admin API
    }
  } }, input,
  el("button", { type: "submit", class: "danger", "data-testid": "confirm-close" }, t("admin_close_confirm")),
  el("button", { type: "button", onclick: () => { openClose = null; refresh(); } }, t("admin_cancel")));
  setTimeout(() => input.focus(), 0);
  return el("td", {}, form);
}

function renderRooms(page) {
  lastRooms = page;
  const rooms = page.rooms;
  $("no-rooms").hidden = rooms.length > 0;
  $("rooms").replaceChildren(...rooms.map((r) => el("tr", { class: r.status === "closed" ? "closed" : "", "data-room": r.room_id },
    el("td", { class: "code" }, r.code),
    el("td", { "data-testid": "room-status" }, statusWord(r.status)),
    el("td", { "data-testid": "room-players" }, players(r)),
    el("td", { class: "num" }, r.match_no ? t("admin_match_deal", { match: r.match_no, deal: r.deal_no }) : t("admin_not_started")),
    el("td", { class: "num", title: r.updated_at }, when(r.updated_at)),
    memoryCell(r),
    el("td", { class: "id" }, r.room_id),
    closeCell(r))));
  const shown = rooms.length;
  $("range").textContent = shown ? t("admin_page_range", { from: page.offset + 1, to: page.offset + shown, total: page.total }) : "";
  $("prev").disabled = page.offset === 0;
  $("next").disabled = page.next_offset === null;
}

async function refresh() {
  if (!token()) return;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  const q = $("search").value.trim();
  if (q) params.set("q", q);
  if ($("status-filter").value) params.set("status", $("status-filter").value);
  try {
    const [stats, page] = await Promise.all([
      api("GET", "/api/admin/stats"),
      api("GET", `/api/admin/rooms?${params}`),
    ]);
    if (!token()) return; // signed out meanwhile
    renderStats(stats);
    if (page.rooms.length === 0 && page.offset > 0 && page.total > 0) {
      offset = 0; // the rooms moved on under an old page: back to the first
      return refresh();
    }
    renderRooms(page);
    $("updated").textContent = t("admin_updated", { time: new Date().toLocaleTimeString(language()) });
    if (document.activeElement && document.activeElement.dataset.testid !== "close-reason") showError("");
  } catch (err) {
    fail(err);
  }
}

function newSearch() {
  offset = 0;
  openClose = null;
  refresh();
}

// ------------------------------------------------------------------ wiring

$("login").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(KEY, $("token").value.trim());
  $("token").value = "";
  try {
    await api("GET", "/api/admin/stats");
  } catch (err) {
    fail(err);
    return;
  }
  showError("");
  signedIn();
});
$("logout").addEventListener("click", () => signedOut(""));
$("refresh").addEventListener("click", () => refresh());
$("filters").addEventListener("submit", (ev) => {
  ev.preventDefault();
  clearTimeout(searchTimer);
  newSearch();
});
$("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(newSearch, SEARCH_DELAY_MS);
});
$("status-filter").addEventListener("change", newSearch);
$("prev").addEventListener("click", () => {
  offset = Math.max(0, offset - PAGE);
  refresh();
});
$("next").addEventListener("click", () => {
  if (lastRooms && lastRooms.next_offset !== null) offset = lastRooms.next_offset;
  refresh();
});
$("lang").replaceChildren(...LANGS.map((l) => el("option", { value: l.code, lang: l.code }, l.name)));
$("lang").addEventListener("change", () => {
  session.saveLang($("lang").value); // the same choice as the game's pages
  chooseLanguage($("lang").value);
});

async function start() {
  addCatalogs("admin");
  await chooseLanguage(pickLanguage());
  if (token()) signedIn();
  else signedOut("");
  document.body.dataset.ready = "true"; // for the browser tests: texts are in
}

start();
