// Watches the client's own start (a classic script, run before the modules): when a
// module of the app could not be fetched, the whole app does not start and the page
// stays blank.  Chromium drops every request in flight when the machine's network
// changes (net::ERR_NETWORK_CHANGED: a phone between Wi-Fi and mobile data, a laptop
// joining a VPN, a container started on the same host), and a server restarting
// between two of the page's requests does the same.  A failed module is remembered
// by the page, so only a reload fetches it again: this reloads the page, at most
// three times in a row (counted per tab in sessionStorage, cleared once the app has
// started), a little later each time, and then says so.
(function () {
  var KEY = "krypkasino-boot-reloads";
  var MAX = 3;
  // Said in the reader's language without the app's translations (they did not load).
  var SAID = {
    en: "Krypkasino could not load. Check the connection and reload the page.",
    sv: "Krypkasino kunde inte laddas. Kontrollera anslutningen och ladda om sidan.",
    nb: "Krypkasino kunne ikke lastes. Sjekk tilkoblingen og last inn siden på nytt.",
    es: "Krypkasino no se pudo cargar. Comprueba la conexión y vuelve a cargar la página.",
    fr: "Krypkasino n’a pas pu se charger. Vérifiez la connexion et rechargez la page.",
    pt: "Não foi possível carregar o Krypkasino. Verifique a ligação e recarregue a página.",
  };
  // Storage may be refused (a browser's strictest privacy settings): then no reload
  // is counted, and none is made, rather than risk reloading without end.
  var store = null;
  try {
    store = window.sessionStorage;
    store.getItem(KEY);
  } catch (e) {
    store = null;
  }
  if (!store) return;
  var tries = Number(store.getItem(KEY) || 0);
  window.addEventListener(
    "error",
    function (ev) {
      var el = ev.target;
      if (!el || el.tagName !== "SCRIPT" || el.type !== "module") return;
      if (tries < MAX) {
        store.setItem(KEY, String(tries + 1));
        setTimeout(function () { location.reload(); }, 300 * (tries + 1));
        return;
      }
      store.removeItem(KEY);
      var app = document.getElementById("app");
      var lang = String(navigator.language || "en").slice(0, 2);
      if (app) app.textContent = SAID[lang] || SAID.en;
    },
    true,
  );
  window.addEventListener("krypkasino:started", function () { store.removeItem(KEY); });
})();
