// The HTTP half of docs/protocol.md.  Every failure is thrown as an ApiError
// carrying the server's {"code", "message"} (or "network" when unreachable).
import { playerKey, playerKeys } from "./player.js";

export class ApiError extends Error {
  constructor(status, code, message, data = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.data = data; // the whole error body (a 410 "purged" carries its dates)
  }
}

// Signed in, every request that changes something carries the session's CSRF token,
// read from the kk_csrf cookie (app/accounts/tokens.py); a request without it is refused.
function csrfHeader(method) {
  if (method === "GET" || method === "HEAD") return {};
  const m = /(?:^|;\s*)kk_csrf=([^;]+)/.exec(document.cookie);
  return m ? { "X-CSRF-Token": decodeURIComponent(m[1]) } : {};
}

/** Waits before a GET is tried again after a network error (a dropped request: the
 * network changed under the page, or the server restarted between two requests). */
const GET_RETRIES_MS = [300, 1000];

async function call(method, path, body, headers = {}) {
  let res;
  headers = { ...csrfHeader(method), ...headers };
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(path, {
        method,
        headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      break;
    } catch (err) {
      // Only a read is asked again: a write that was lost may still have been done.
      if (method !== "GET" || attempt >= GET_RETRIES_MS.length) {
        throw new ApiError(0, "network", String(err && err.message ? err.message : err));
      }
      await new Promise((resolve) => setTimeout(resolve, GET_RETRIES_MS[attempt]));
    }
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && typeof data === "object" ? data : {};
    // FastAPI's own 422 body is {"detail": [...]}; the project's is {"code", "message"}.
    const message = detail.message || (Array.isArray(detail.detail) ? detail.detail.map((d) => d.msg).join("; ") : detail.detail);
    throw new ApiError(res.status, detail.code || `http_${res.status}`, message || res.statusText, detail);
  }
  return data;
}

// Seats go with the player key, so that they appear in "My games" (only its hash is kept).
export const createRoom = (body) => call("POST", "/api/rooms", { ...body, player: playerKey() });
export const takeSeat = (roomId, name) => call("POST", `/api/rooms/${encodeURIComponent(roomId)}/seats`, { name, player: playerKey() });
export const getRules = () => call("GET", "/api/rules");
/** `options`: [[name, value], ...] of rule options (docs/protocol.md, GET /api/rules/deal). */
export const getDealFacts = (options = []) => {
  const query = new URLSearchParams(options).toString();
  return call("GET", `/api/rules/deal${query ? `?${query}` : ""}`);
};
export const getTutorial = () => call("GET", "/api/tutorial");
export const getRoom = (roomId) => call("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
export const lookupCode = (code) => call("GET", `/api/codes/${encodeURIComponent(code.trim())}`);
export const dealRecordUrl = (roomId, n) => `/api/rooms/${encodeURIComponent(roomId)}/deals/${n}`;

// Ratings (issue 34): the leaderboard per player count and an account's profile.
export const ladder = () => call("GET", "/api/ladder"); // the bot ladder (issue 51)
export const leaderboard = (players) => call("GET", `/api/leaderboard?players=${encodeURIComponent(players)}`);
export const profile = (username) => call("GET", `/api/profiles/${encodeURIComponent(username)}`);
export const matchRating = (roomId, m) => call("GET", `/api/rooms/${encodeURIComponent(roomId)}/matches/${m}/rating?pending=true`);

// History, replays, "My games" and moving a seat between devices.
const room = (roomId) => `/api/rooms/${encodeURIComponent(roomId)}`;
export const roomMatches = (roomId) => call("GET", `${room(roomId)}/matches`);
// A deal of the day's room is its player's until the day is over: the keys say who asks.
export const dealPositions = (roomId, m, n) =>
  call("GET", `${room(roomId)}/matches/${m}/deals/${n}?positions=true`, undefined, keyHeader());
export const matchRecordUrl = (roomId, m) => `${room(roomId)}/matches/${m}?download=true`;
export const dealAnalysis = (roomId, m, n) =>
  call("GET", `${room(roomId)}/matches/${m}/deals/${n}/analysis`, undefined, keyHeader());
export const matchDealUrl = (roomId, m, n) => `${room(roomId)}/matches/${m}/deals/${n}`;
const keyHeader = () => ({ "X-Player-Key": playerKeys().join(",") });
export const pushKey = () => call("GET", "/api/push/key");
export const pushSubscribe = (subscription, lang) =>
  call("POST", "/api/push/subscriptions", { subscription, lang }, keyHeader());
export const pushUnsubscribe = (endpoint) => call("DELETE", "/api/push/subscriptions", { endpoint }, keyHeader());
// Notices (issue 32): which events notify, and the address the daily digest goes to.
const ownKey = () => ({ "X-Player-Key": playerKey() });
export const noticeSettings = () => call("GET", "/api/notifications/settings", undefined, ownKey());
export const saveNoticeSettings = (chosen) => call("PUT", "/api/notifications/settings", chosen, ownKey());
export const giveEmail = (address, lang) => call("POST", "/api/notifications/email", { address, lang }, ownKey());
export const forgetEmail = () => call("DELETE", "/api/notifications/email", undefined, ownKey());
export const myGames = () => call("GET", "/api/me/games", undefined, keyHeader());
// The deal of the day and "Play this deal yourself" (issue 32).
export const daily = () => call("GET", "/api/daily");
export const dailyDays = () => call("GET", "/api/daily/days");
export const playDaily = (players, name) => call("POST", `/api/daily/${players}`, name ? { name } : {}, keyHeader());
export const dailyResults = (date, players) =>
  call("GET", `/api/daily/${encodeURIComponent(date)}/${players}/results`, undefined, keyHeader());
export const playYourself = (roomId, m, n, name) =>
  call("POST", `${room(roomId)}/matches/${m}/deals/${n}/solo`, name ? { name } : {}, keyHeader());
export const reclaimSeat = (roomId) => call("POST", `${room(roomId)}/seats/reclaim`, undefined, keyHeader());
// Which seat of the room is this player's (the signed-in account's, or a key's), if any:
// nothing is taken or moved (issue 47).
export const mySeat = (roomId) => call("GET", `${room(roomId)}/seats/mine`, undefined, keyHeader());
export const makeTransfer = (roomId, token, sealed) =>
  call("POST", `${room(roomId)}/transfers`, { token, sealed }, { "X-Player-Key": playerKey() });
export const claimTransfer = (code) => call("POST", "/api/transfers/claim", { code });

// Quick pairing (issue 34): a ticket in the server's queue, polled until it is seated.
const pairingKey = () => ({ "X-Player-Key": playerKey() });
export const findGame = (body) => call("POST", "/api/pairing", body, pairingKey());
export const pairingTicket = (ticket) => call("GET", `/api/pairing/${encodeURIComponent(ticket)}`, undefined, pairingKey());
export const leaveQueue = (ticket) => call("DELETE", `/api/pairing/${encodeURIComponent(ticket)}`, undefined, pairingKey());

// Optional accounts (issue 34): the session is an HttpOnly cookie the browser keeps;
// signing up or in hands the server this browser's player keys, whose rooms become the
// account's.
export const authOptions = () => call("GET", "/api/auth/options");
/** The signed-in person, or null: GET /api/session answers 200 either way, so that a
 * signed-out page logs no failed request (GET /api/me is 401 then). */
export const me = () => call("GET", "/api/session").then((s) => s.account);
export const takeOverKeys = () => call("POST", "/api/me/keys", undefined, keyHeader());
export const register = (username, password) => call("POST", "/api/auth/register", { username, password }, keyHeader());
export const login = (username, password) => call("POST", "/api/auth/login", { username, password }, keyHeader());
export const logout = () => call("POST", "/api/auth/logout");
export const logoutAll = () => call("POST", "/api/auth/logout-all");
export const deleteAccount = () => call("DELETE", "/api/me");
export const EXPORT_URL = "/api/me/export";

// Clubs (issue 49; docs/protocol.md, "Clubs"): signed in, by the session cookie.
const clubUrl = (id, rest = "") => `/api/clubs/${encodeURIComponent(id)}${rest}`;
export const myClubs = () => call("GET", "/api/clubs?mine=1");
export const findClubs = (q) => call("GET", `/api/clubs?q=${encodeURIComponent(q)}`);
export const makeClub = (name, description) => call("POST", "/api/clubs", { name, description });
export const getClub = (id, players = 2) => call("GET", clubUrl(id, `?players=${players}`));
export const joinClub = (invite) => call("POST", "/api/clubs/join", { invite });
export const renewClubInvite = (id) => call("POST", clubUrl(id, "/invite"));
export const revokeClubInvite = (id) => call("DELETE", clubUrl(id, "/invite"));
export const askToJoinClub = (id) => call("POST", clubUrl(id, "/requests"));
export const answerClubRequest = (id, name, verdict) =>
  call("POST", clubUrl(id, `/requests/${encodeURIComponent(name)}/${verdict}`));
export const removeClubMember = (id, name) => call("DELETE", clubUrl(id, `/members/${encodeURIComponent(name)}`));
export const setClubRole = (id, name, role) => call("PUT", clubUrl(id, `/members/${encodeURIComponent(name)}`), { role });
export const closeClub = (id) => call("DELETE", clubUrl(id));

// Tournaments (issue 49; docs/protocol.md, "Tournaments"): anyone reads an event's
// page; changing one is for a signed-in person, by the session cookie.
const eventUrl = (id, rest = "") => `/api/tournaments/${encodeURIComponent(id)}${rest}`;
/** `body`: {name, format, players, rounds, boards, scoring, entry, club_id, ...}; answers {id}. */
export const makeTournament = (body) => call("POST", "/api/tournaments", body);
export const getTournament = (id) => call("GET", eventUrl(id));
export const registerForTournament = (id) => call("POST", eventUrl(id, "/registrations"));
export const withdrawFromTournament = (id) => call("DELETE", eventUrl(id, "/registrations"));
export const startTournament = (id) => call("POST", eventUrl(id, "/start"));
export const cancelTournament = (id) => call("POST", eventUrl(id, "/cancel"));
export const endArena = (id) => call("POST", eventUrl(id, "/end"));
export const tournamentCsvUrl = (id) => eventUrl(id, "/results.csv");
