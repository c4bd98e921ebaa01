// The player key: who this browser's player is, across rooms and devices.
//
// Made on the first visit (32 random bytes, base64url) and kept in
// localStorage["krypkasino.player"] = {"key", "old": [keys]}.  It goes with every
// seat this browser takes (the server stores only its hash), finds the player's
// rooms for "My games", and takes a seat up again on a device without its token.
// "Continue on another device" hands it over sealed: XORed with a random pad that
// only the link carries (app/rooms/players.py).  A browser that receives another
// device's key keeps its own earlier keys in "old", so its "My games" still lists
// the rooms it played under them.

const STORE = "krypkasino.player";
const KEEP_OLD = 3;

export function toBase64url(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

export const randomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));
const newKey = () => toBase64url(randomBytes(32));

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE));
    if (saved && typeof saved.key === "string") return { key: saved.key, old: Array.isArray(saved.old) ? saved.old : [] };
  } catch {
    /* unreadable: make a new one */
  }
  return null;
}

function save(value) {
  try {
    localStorage.setItem(STORE, JSON.stringify(value));
  } catch {
    /* private mode: the key lasts as long as the page */
  }
  return value;
}

let memory = null; // when localStorage refuses

/** This browser's player key, made now if it has none. */
export function playerKey() {
  const saved = load() || memory;
  if (saved) return saved.key;
  memory = save({ key: newKey(), old: [] });
  return memory.key;
}

/** Every key this browser played under, the current one first (for "My games"). */
export function playerKeys() {
  const saved = load() || memory || { key: playerKey(), old: [] };
  return [saved.key, ...saved.old.filter((k) => k !== saved.key)].slice(0, KEEP_OLD + 1);
}

/** Take another device's key as this browser's (a transfer was claimed here). */
export function adoptKey(key) {
  const saved = load() || memory;
  const old = saved ? [saved.key, ...saved.old] : [];
  memory = save({ key, old: [...new Set(old.filter((k) => k !== key))].slice(0, KEEP_OLD) });
}

/** The key moved to another device: this browser starts afresh with a new one. */
export function dropKey(moved) {
  const saved = load() || memory;
  const old = saved ? saved.old.filter((k) => k !== moved) : [];
  memory = save({ key: newKey(), old });
}

/** The current key XOR `pad` (bytes), as hex: what the server may hold for a transfer. */
export function sealKey(pad) {
  const key = fromBase64url(playerKey());
  return Array.from(key, (b, i) => (b ^ pad[i]).toString(16).padStart(2, "0")).join("");
}

/** The key sealed by `sealKey`, opened with the pad (base64url) from the link. */
export function openKey(sealedHex, padText) {
  const pad = fromBase64url(padText);
  const bytes = new Uint8Array(sealedHex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(sealedHex.slice(2 * i, 2 * i + 2), 16) ^ pad[i];
  return toBase64url(bytes);
}
