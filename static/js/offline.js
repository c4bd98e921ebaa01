// The offline page: its words in the reader's language, and back to the game as soon
// as the server answers (it asks every few seconds, and when the browser says it is
// online again).  Self-contained: the service worker keeps a copy of this file.
const TEXTS = {
  en: ["The server cannot be reached", "Your games are safe on the server. This page goes back to the game by itself as soon as the server answers.", "Try again"],
  sv: ["Servern går inte att nå", "Dina spel är i säkerhet på servern. Sidan går tillbaka till spelet av sig själv så snart servern svarar.", "Försök igen"],
  nb: ["Serveren kan ikke nås", "Spillene dine er trygge på serveren. Siden går tilbake til spillet av seg selv så snart serveren svarer.", "Prøv igjen"],
  es: ["No se puede conectar con el servidor", "Tus partidas están a salvo en el servidor. Esta página vuelve al juego sola en cuanto el servidor responda.", "Reintentar"],
  fr: ["Le serveur est injoignable", "Vos parties sont en sécurité sur le serveur. Cette page revient au jeu d'elle-même dès que le serveur répond.", "Réessayer"],
  pt: ["Não é possível contactar o servidor", "Os seus jogos estão seguros no servidor. Esta página volta ao jogo sozinha assim que o servidor responder.", "Tentar de novo"],
};
const RETRY_MS = 5000;

function language() {
  let saved = null;
  try {
    saved = localStorage.getItem("krypkasino.lang");
  } catch {
    /* storage off */
  }
  const wanted = [saved, ...(navigator.languages || [navigator.language])].filter(Boolean);
  for (const tag of wanted) {
    const base = tag.toLowerCase().split("-")[0];
    if (base in TEXTS) return base;
    if (base === "no" || base === "nn") return "nb";
  }
  return "en";
}

function show() {
  const lang = language();
  const [title, text, retry] = TEXTS[lang];
  document.documentElement.lang = lang;
  document.title = `Krypkasino — ${title}`;
  document.getElementById("offline-title").textContent = title;
  document.getElementById("offline-text").textContent = text;
  document.getElementById("offline-retry").textContent = retry;
}

async function serverAnswers() {
  try {
    const res = await fetch("/healthz", { cache: "no-store" });
    return res.ok;
  } catch {
    return false;
  }
}

async function tryAgain() {
  if (await serverAnswers()) location.reload();
}

show();
document.getElementById("offline-retry").addEventListener("click", tryAgain);
window.addEventListener("online", tryAgain);
setInterval(tryAgain, RETRY_MS);
