// The admin page (/admin): sign in with the admin token, watch this server
// process's rooms, connections and bot load, close a room.  Plain DOM and an
// external module only (the pages run under a Content-Security-Policy
// without 'unsafe-inline'); every text from the server goes in as text.
const KEY = "krypkasino.admin-token";
const REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);

let timer = null;
let openClose = null; // the room id whose close form is open (kept across refreshes)

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
    throw new AdminError(0, "network", `the server cannot be reached (${err.message || err})`);
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
  const el = $("error");
  el.textContent = text || "";
  el.hidden = !text;
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

function signedOut(message) {
  sessionStorage.removeItem(KEY);
  clearInterval(timer);
  timer = null;
  $("panel").hidden = true;
  $("logout").hidden = true;
  $("login").hidden = false;
  showError(message);
  $("token").focus();
}

function fail(err) {
  if (err.status === 401) signedOut("That admin token is not valid.");
  else if (err.status === 404) signedOut("The admin API is off on this server (ADMIN_TOKEN_HASH is not set).");
  else showError(err.message);
}

function renderStats(s) {
  const rows = [
    ["Process", `pid ${s.process.pid}, up ${Math.round(s.process.uptime_seconds)} s`],
    ["Rooms in memory", Object.entries(s.rooms_in_memory).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["Connections", s.connections],
    ["Bots thinking", s.bots.thinking_total],
    ["Strong-bot moves queued", s.bots.strong_queued],
    ["Bot moves chosen", Object.entries(s.bots.moves).map(([k, v]) => `${k} ${v}`).join(", ") || "0"],
    ["Moves committed", s.moves_committed],
    ["Database", Object.entries(s.database).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["Retention", s.retention_days ? `${s.retention_days} days` : "keep forever"],
  ];
  $("stats").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function players(room) {
  return room.seats
    .map((s) => (s.name ? `${s.name}${s.bot ? " (bot)" : s.autoplay ? " (auto)" : ""}${s.connections ? " •" : ""}` : "(free)"))
    .join(", ");
}

function closeCell(room) {
  if (room.closed) return el("td", {}, `closed: ${room.closed.reason}`);
  if (openClose !== room.room_id) {
    return el("td", {}, el("button", {
      type: "button", "data-testid": "close-room", "aria-label": `Close room ${room.code}`,
      onclick: () => { openClose = room.room_id; refresh(); },
    }, "Close…"));
  }
  const input = el("input", { type: "text", maxlength: 200, placeholder: "Reason shown to players", "aria-label": "Reason", "data-testid": "close-reason" });
  const form = el("form", { class: "close-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/api/admin/rooms/${room.room_id}/close`, { reason: input.value });
      openClose = null;
      showError("");
      await refresh();
    } catch (err) {
      fail(err);
    }
  } }, input,
  el("button", { type: "submit", class: "danger", "data-testid": "confirm-close" }, "Close room"),
  el("button", { type: "button", onclick: () => { openClose = null; refresh(); } }, "Cancel"));
  setTimeout(() => input.focus(), 0);
  return el("td", {}, form);
}

function renderRooms(rooms) {
  $("no-rooms").hidden = rooms.length > 0;
  $("rooms").replaceChildren(...rooms.map((r) => el("tr", { class: r.closed ? "closed" : "", "data-room": r.room_id },
    el("td", {}, r.code),
    el("td", { "data-testid": "room-status" }, r.closed ? "closed" : r.status),
    el("td", {}, players(r)),
    el("td", { class: "num" }, `${r.connections}${r.spectators ? ` (${r.spectators} watching)` : ""}`),
    el("td", {}, r.bot_turn ? "thinking" : ""),
    el("td", { class: "num" }, `${Math.round(r.idle_seconds)} s`),
    el("td", { class: "id" }, r.room_id),
    closeCell(r))));
}

async function refresh() {
  if (!token()) return;
  const status = $("status-filter").value;
  try {
    const [stats, rooms] = await Promise.all([
      api("GET", "/api/admin/stats"),
      api("GET", `/api/admin/rooms${status ? `?status=${status}` : ""}`),
    ]);
    if (!token()) return; // signed out meanwhile
    renderStats(stats);
    renderRooms(rooms.rooms);
    $("updated").textContent = `updated ${new Date().toLocaleTimeString()}`;
    if (document.activeElement && document.activeElement.dataset.testid !== "close-reason") showError("");
  } catch (err) {
    fail(err);
  }
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
$("status-filter").addEventListener("change", () => refresh());

if (token()) signedIn();
else signedOut("");
