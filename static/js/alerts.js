// Turn alerts: when the turn comes to this seat while the tab is hidden, the
// page title changes (and is put back once the tab is seen again), a short
// tone plays if the player turned sound on, and a browser notification shows
// if the player turned notifications on and the browser allowed them.
//
// It watches the store, so no screen has to call it, and alerts once per turn:
// when view.to_move becomes view.you.
import { t } from "./i18n.js";
import * as settings from "./settings.js";

const TITLE_MARK = "\u25CF "; // "● " in front of the title while a turn waits

/** What happened, for the browser tests (window.__krypkasino.alerts). */
export const record = { turns: 0, tones: 0, notifications: 0 };

let flaggedFrom = null; // the title before we changed it
let audio = null;

const hidden = () => document.visibilityState === "hidden" || document.hidden === true;

function flagTitle() {
  if (flaggedFrom === null) flaggedFrom = document.title;
  document.title = `${TITLE_MARK}${t("alert_title")}`;
}

function restoreTitle() {
  if (flaggedFrom === null) return;
  document.title = flaggedFrom;
  flaggedFrom = null;
}

/** A short two-note chime made with Web Audio (no sound file). Returns true when it was started. */
export function playTone() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + i * 0.13;
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.13);
    });
    record.tones += 1;
    return true;
  } catch {
    return false;
  }
}

export const notificationsSupported = () => typeof window.Notification === "function";

/** Ask the browser for permission; resolves to "granted", "denied", "default" or "unsupported". */
export async function askNotificationPermission() {
  if (!notificationsSupported()) return "unsupported";
  if (Notification.permission !== "default") return Notification.permission;
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

function notify(view) {
  if (!notificationsSupported() || Notification.permission !== "granted") return;
  try {
    const n = new Notification(t("alert_notify_title"), { body: t("alert_notify_body", { code: view.code || "" }), tag: "krypkasino-turn" });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    record.notifications += 1;
  } catch {
    /* some browsers allow notifications only from a service worker */
  }
}

function onTurn(view) {
  record.turns += 1;
  if (!hidden()) return;
  flagTitle();
  const s = settings.get();
  if (s.sound) playTone();
  if (s.notify) notify(view);
}

const myTurn = (v) => !!v && v.status === "playing" && !v.deal_over && v.you !== null && v.you !== undefined && v.to_move === v.you;

/** Watch `store` for turns coming to this seat. */
export function installTurnAlerts(store) {
  let wasMine = false;
  store.subscribe((state) => {
    const mine = myTurn(state.view);
    if (mine && !wasMine) onTurn(state.view);
    wasMine = mine;
  });
  document.addEventListener("visibilitychange", () => {
    if (!hidden()) restoreTitle();
  });
  window.addEventListener("focus", restoreTitle);
}
