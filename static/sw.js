// The service worker (served at /sw.js so that its scope is the whole site).
//
// Two jobs.  When the server cannot be reached, a page the browser opens (the
// lobby, a room, a replay) shows the offline page instead of the browser's error,
// and that page comes back to the game by itself once the server answers; nothing
// else is cached (the client's files are versioned by the server and must never be
// served stale from here).  And it shows the server's Web Push notices ("your turn
// in room ABC", issue 32; "24 h left in room ABC" before a correspondence deadline),
// worded in the language the player subscribed in; a click opens the room, or brings
// its open tab forward.
const CACHE = "krypkasino-offline-1";
const OFFLINE_PAGE = "/offline";
const OFFLINE_FILES = [OFFLINE_PAGE, "/static/css/offline.css", "/static/js/offline.js", "/static/img/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(OFFLINE_FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("krypkasino-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_PAGE)));
  } else if (OFFLINE_FILES.includes(url.pathname)) {
    // the offline page's own files: fresh when the server answers, else the copy
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname)));
  }
});

// The notices' words, per language (the page's catalogs are not loaded here).
const TURN = {
  en: ["Your turn", "It is your turn in Krypkasino."],
  sv: ["Din tur", "Det är din tur i Krypkasino."],
  nb: ["Din tur", "Det er din tur i Krypkasino."],
  es: ["Tu turno", "Te toca jugar en Krypkasino."],
  fr: ["À vous", "C'est votre tour au Krypkasino."],
  pt: ["A sua vez", "É a sua vez no Krypkasino."],
};

// A deadline warning: {h} hours left, {room} the room's code.
const DEADLINE = {
  en: ["{h} h left", "{h} h left for your move in room {room}."],
  sv: ["{h} h kvar", "{h} h kvar för ditt drag i rum {room}."],
  nb: ["{h} t igjen", "{h} t igjen til trekket ditt i rom {room}."],
  es: ["Quedan {h} h", "Quedan {h} h para tu jugada en la sala {room}."],
  fr: ["{h} h restantes", "Il vous reste {h} h pour jouer dans la salle {room}."],
  pt: ["Faltam {h} h", "Faltam {h} h para a sua jogada na sala {room}."],
};

function fill(text, data) {
  return text.replace("{h}", String(Number(data.hours) || "")).replace("{room}", String(data.code || ""));
}

function words(data) {
  if (data.kind === "deadline") return (DEADLINE[data.lang] || DEADLINE.en).map((w) => fill(w, data));
  return TURN[data.lang] || TURN.en;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const [title, body] = words(data);
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag: `krypkasino-${data.room || "turn"}`,
      renotify: true,
      icon: "/static/img/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const tab = open.find((c) => c.url === url);
      return tab ? tab.focus() : self.clients.openWindow(url);
    }),
  );
});
