// Entry point: pick the language, read the route, render the app.
import { html, render } from "./html.js";
import { createStore } from "./store.js";
import { pickLanguage, setLanguage } from "./i18n.js";
import { parseRoute } from "./ui/common.js";
import { App } from "./ui/app.js";
import { playerKey } from "./player.js";
import * as settings from "./settings.js";
import { installTurnAlerts, record as alertRecord } from "./alerts.js";
import { followTurn } from "./title.js";

async function start() {
  playerKey(); // made on the first visit, kept in this browser (player.js)
  settings.apply(); // theme, suit colours, card back, animation speed (settings.js)
  settings.followOtherTabs();
  let lang = pickLanguage();
  try {
    await setLanguage(lang);
  } catch {
    lang = await setLanguage("en");
  }
  const store = createStore({
    lang,
    route: parseRoute(location),
    view: null, // the connection's view (docs/protocol.md, "The view")
    seq: null, // seq of that view
    presence: null,
    conn: null, // connecting | live | reconnecting | closed
    pending: null, // id of a play awaiting its answer
    pendingCard: null, // and its card (shown as waiting: ui/pending.js)
    error: null, // the last refusal {code, message}
    review: null, // the room's shared review, as the server last told it (ui/review.js)
  });
  installTurnAlerts(store);
  followTurn(store); // after the alerts: it puts "(1)" back on a title they restore
  window.addEventListener("popstate", () => store.set({ route: parseRoute(location) }));
  const root = document.getElementById("app");
  root.textContent = "";
  render(html`<${App} store=${store} />`, root);
  // For the browser tests and the curious: the store, read-only by convention.
  window.__krypkasino = { store, alerts: alertRecord };
  window.dispatchEvent(new Event("krypkasino:started")); // static/js/bootwatch.js: it started
}

/** The service worker (static/sw.js): the offline page, and an installable app. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    /* the game works without it */
  });
}

start();
registerServiceWorker();
