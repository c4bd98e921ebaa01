// Web Push in the browser (issue 32): "tell me of my turn even when the page is
// closed".  Asked for only from the settings, after the player's click (never on
// page load): the browser's permission, then a subscription through the service
// worker (static/sw.js) with the server's VAPID key, kept by the server under this
// browser's player key.  The worker shows the notices.
import * as api from "./api.js";
import { askNotificationPermission } from "./alerts.js";

export const pushSupported = () =>
  typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof window.PushManager === "function" && window.isSecureContext;

/** The server's key (base64url) as the bytes `subscribe` wants. */
export function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * How long the browser's push service gets to answer a subscription.  Some browsers
 * never answer when they cannot reach it (Chromium without its push service, in a
 * normal profile); the toggle must not stay "asking" for ever.
 */
export const PUSH_ANSWER_MS = 15000;

const NO_ANSWER = Symbol("no answer");

/** ``promise``, or NO_ANSWER thrown once ``ms`` have passed without its answer. */
function withinTime(promise, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(NO_ANSWER), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function registration() {
  if (!navigator.serviceWorker.controller) await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

/**
 * Turn the notices on: "on", or why not: "unsupported", "denied" (the browser's
 * permission), "off" (the server has Web Push switched off), "failed" (the browser
 * could not subscribe, e.g. its push service is unreachable), "no_answer" (the
 * browser's push service did not answer within PUSH_ANSWER_MS).
 */
export async function enablePush(lang) {
  if (!pushSupported()) return "unsupported";
  const answer = await askNotificationPermission();
  if (answer !== "granted") return answer === "unsupported" ? "unsupported" : "denied";
  let key;
  try {
    key = (await api.pushKey()).public_key;
  } catch (err) {
    return err.code === "push_off" ? "off" : "failed";
  }
  let sub;
  try {
    sub = await withinTime(
      (async () => {
        const reg = await registration();
        const old = await reg.pushManager.getSubscription();
        return old || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      })(),
      PUSH_ANSWER_MS,
    );
  } catch (err) {
    return err === NO_ANSWER ? "no_answer" : "failed";
  }
  try {
    await api.pushSubscribe(sub.toJSON(), lang);
    return "on";
  } catch {
    return "failed";
  }
}

/** Turn the notices off: the browser's subscription and the server's copy go. */
export async function disablePush() {
  if (!pushSupported()) return;
  try {
    const reg = await navigator.serviceWorker.getRegistration();
    const sub = reg && (await reg.pushManager.getSubscription());
    if (!sub) return;
    await api.pushUnsubscribe(sub.endpoint).catch(() => {});
    await sub.unsubscribe();
  } catch {
    /* nothing to take back */
  }
}
