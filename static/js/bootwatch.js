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
  var tries = Number(sessionStorage.getItem(KEY) || 0);
  window.addEventListener(
    "error",
    function (ev) {
      var el = ev.target;
      if (!el || el.tagName !== "SCRIPT" || el.type !== "module") return;
      if (tries < MAX) {
        sessionStorage.setItem(KEY, String(tries + 1));
        setTimeout(function () { location.reload(); }, 300 * (tries + 1));
        return;
      }
      sessionStorage.removeItem(KEY);
      var app = document.getElementById("app");
      if (app) app.textContent = "Krypkasino could not load. Check the connection and reload the page.";
    },
    true,
  );
  window.addEventListener("krypkasino:started", function () { sessionStorage.removeItem(KEY); });
})();
