// What the browser remembers.
//
// localStorage (kept across reloads and restarts):
//   krypkasino.seat.<room_id>  {"token", "seat", "name"}: the seat's secret, so a
//                              reload or a new tab keeps the seat
//   krypkasino.name            the name last typed in
//   krypkasino.lang            the chosen language
//   krypkasino.daily.<room_id> {"date", "players"}: a room of the deal of the day
//   krypkasino.create          the create form's last choices (players, bots, clock,
//                              variants, match length...), offered again next time
//   krypkasino.dailycounts     the player counts the deal of the day had last time
//                              here, so the lobby keeps their room while it asks
// sessionStorage (this tab only):
//   krypkasino.view.<room_id>.<seat|watch>  {"seq", "view"}: the last good view,
//                              so a reload resumes with last_seq from there
//   krypkasino.dismissed.<room_id>          deal summaries already closed

const safe = (fn, fallback = null) => {
  try {
    return fn();
  } catch {
    return fallback;
  }
};

const read = (storage, key) => safe(() => JSON.parse(storage.getItem(key)));
const write = (storage, key, value) =>
  safe(() => (value === null ? storage.removeItem(key) : storage.setItem(key, JSON.stringify(value))));

export const seatKey = (roomId) => `krypkasino.seat.${roomId}`;

export function getSeat(roomId) {
  const s = read(localStorage, seatKey(roomId));
  return s && typeof s.token === "string" ? s : null;
}
export const saveSeat = (roomId, seat) => write(localStorage, seatKey(roomId), seat);
export const forgetSeat = (roomId) => write(localStorage, seatKey(roomId), null);

// The rooms of the deal of the day played here: {"date", "players"} (the way to the results).
const dailyKey = (roomId) => `krypkasino.daily.${roomId}`;
export const getDaily = (roomId) => read(localStorage, dailyKey(roomId));
export const saveDaily = (roomId, daily) => write(localStorage, dailyKey(roomId), daily);
/** This browser's plays of a day's deals: {players: roomId} (the lobby says they are played). */
export function dailyRoomsOn(date) {
  const found = {};
  const keys = safe(() => Object.keys(localStorage), []);
  for (const key of keys) {
    if (!key.startsWith("krypkasino.daily.")) continue;
    const d = read(localStorage, key);
    if (d && d.date === date && Number.isInteger(d.players)) found[d.players] = key.slice("krypkasino.daily.".length);
  }
  return found;
}
// The server's default counts (KRYPKASINO_DAILY_PLAYERS) until this browser has seen the host's.
export function getDailyCounts() {
  const c = read(localStorage, "krypkasino.dailycounts");
  return Array.isArray(c) && c.length && c.every((n) => Number.isInteger(n)) ? c : [3, 4];
}
export const saveDailyCounts = (counts) => write(localStorage, "krypkasino.dailycounts", counts);

export const getName = () => safe(() => localStorage.getItem("krypkasino.name"), "") || "";
export const saveName = (name) => safe(() => localStorage.setItem("krypkasino.name", name));

export const getLang = () => safe(() => localStorage.getItem("krypkasino.lang"));
export const saveLang = (lang) => safe(() => localStorage.setItem("krypkasino.lang", lang));

/** The create form's choices of the last room made here ({} when none or unreadable). */
export function getCreateChoices() {
  const c = read(localStorage, "krypkasino.create");
  return c && typeof c === "object" && !Array.isArray(c) ? c : {};
}
export const saveCreateChoices = (choices) => write(localStorage, "krypkasino.create", choices);

const viewKey = (roomId, who) => `krypkasino.view.${roomId}.${who}`;
export const loadView = (roomId, who) => read(sessionStorage, viewKey(roomId, who));
export const saveView = (roomId, who, seq, view) => write(sessionStorage, viewKey(roomId, who), { seq, view });
export const clearView = (roomId, who) => write(sessionStorage, viewKey(roomId, who), null);

const dismissedKey = (roomId) => `krypkasino.dismissed.${roomId}`;
export const getDismissed = (roomId) => read(sessionStorage, dismissedKey(roomId)) || [];
export const saveDismissed = (roomId, list) => write(sessionStorage, dismissedKey(roomId), list.slice(-50));
