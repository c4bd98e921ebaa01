// What a screen reader says (issue 50): two live regions kept outside Preact, and
// the grouping that turns a burst of events into one announcement.
//
// - "news" (role=log, polite): what happened at the table — plays, packets, whose
//   turn, the end of a deal, chat lines, someone coming or going.  Polite: it waits
//   for the reader to finish what it is saying, so nothing the player is reading is
//   cut off by a bot's play.
// - "answers" (assertive): the answer to a key the player pressed to ask (ui/ask.js)
//   and the clock's last seconds.  Assertive: the player asked and waits for it, or
//   time is running out; it must not queue behind a long list of plays.
//
// Each announcement is a new paragraph appended to its region (a region announces
// additions), so the same words said twice are heard twice, and nothing is said by
// re-rendering.  The regions live in <body>, made once, before anything is said:
// a region added together with its text is often not read.
const KEEP = 30; // paragraphs kept in each region (old ones are removed silently)
const QUIET_MS = 180; // events this close together are said as one
const MAX_WAIT_MS = 900; // ... but a steady stream is still said this often

let regions = null;

function region(label, live, role) {
  const el = document.createElement("div");
  el.className = "sr-only";
  el.setAttribute("aria-live", live);
  el.setAttribute("aria-label", label);
  if (role) el.setAttribute("role", role);
  el.setAttribute("aria-relevant", "additions");
  document.body.appendChild(el);
  return el;
}

/** Make the regions (once); `labels` their accessible names in the page's language. */
export function installSpeech(labels = { news: "Announcements", answers: "Answers" }) {
  if (regions) {
    regions.news.setAttribute("aria-label", labels.news);
    regions.answers.setAttribute("aria-label", labels.answers);
    return;
  }
  regions = { news: region(labels.news, "polite", "log"), answers: region(labels.answers, "assertive", "log") };
}

function append(el, text) {
  const p = document.createElement("p");
  p.textContent = text;
  el.appendChild(p);
  while (el.childNodes.length > KEEP) el.removeChild(el.firstChild);
}

/** Say `text` now in the assertive region (an answer, a clock warning). */
export function sayNow(text) {
  if (!text) return;
  installSpeech();
  append(regions.answers, text);
}

let lines = [];
let turn = null;
let quietTimer = null;
let firstAt = 0;

function flush() {
  clearTimeout(quietTimer);
  quietTimer = null;
  const all = turn ? [...lines, turn] : lines;
  lines = [];
  turn = null;
  if (!all.length) return;
  installSpeech();
  append(regions.news, all.map((l) => (/[.!?…»”"]$/.test(l) ? l : `${l}.`)).join(" "));
}

/**
 * Queue news lines (in order) and whose turn it is (`newTurn`: a text, null when
 * nobody's turn is to be said any more, undefined when unchanged).  Lines arriving
 * within QUIET_MS of each other are said as one paragraph; only the latest turn of
 * a group is said, at its end ("Bot 1 creeps... Bot 2 takes... Your turn").
 */
export function queueNews(newLines, newTurn = undefined) {
  if (newTurn === null) turn = null;
  if (!newLines.length && !newTurn) return;
  if (!quietTimer) firstAt = Date.now();
  lines.push(...newLines);
  if (newTurn) turn = newTurn;
  clearTimeout(quietTimer);
  const wait = Math.max(0, Math.min(QUIET_MS, firstAt + MAX_WAIT_MS - Date.now()));
  quietTimer = setTimeout(flush, wait);
}

/** Drop what is queued (leaving a room: its news are not the next page's). */
export function dropNews() {
  clearTimeout(quietTimer);
  quietTimer = null;
  lines = [];
  turn = null;
}
