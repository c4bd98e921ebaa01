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

async function call(method, path, body, headers = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
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

// History, replays, "My games" and moving a seat between devices.
const room = (roomId) => `/api/rooms/${encodeURIComponent(roomId)}`;
export const roomMatches = (roomId) => call("GET", `${room(roomId)}/matches`);
export const dealPositions = (roomId, m, n) => call("GET", `${room(roomId)}/matches/${m}/deals/${n}?positions=true`);
export const matchRecordUrl = (roomId, m) => `${room(roomId)}/matches/${m}?download=true`;
export const dealAnalysis = (roomId, m, n) => call("GET", `${room(roomId)}/matches/${m}/deals/${n}/analysis`);
export const matchDealUrl = (roomId, m, n) => `${room(roomId)}/matches/${m}/deals/${n}`;
const keyHeader = () => ({ "X-Player-Key": playerKeys().join(",") });
export const myGames = () => call("GET", "/api/me/games", undefined, keyHeader());
export const reclaimSeat = (roomId) => call("POST", `${room(roomId)}/seats/reclaim`, undefined, keyHeader());
export const makeTransfer = (roomId, token, sealed) =>
  call("POST", `${room(roomId)}/transfers`, { token, sealed }, { "X-Player-Key": playerKey() });
export const claimTransfer = (code) => call("POST", "/api/transfers/claim", { code });
