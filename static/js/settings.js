// The player's settings, kept in this browser: localStorage["krypkasino.settings"].
//
// Each one takes effect at once and on every page: `apply` writes them as data
// attributes on <html> (data-theme, data-suits, data-back, data-anim), which
// the stylesheet reads, so no component needs to know about most of them.
// Sound and notifications are read by the turn alerts (alerts.js).

const KEY = "krypkasino.settings";

/** Every setting with its allowed values; the first value is the default. */
export const CHOICES = {
  sound: [false, true], // a short tone when the turn comes in a hidden tab
  cues: [false, true], // sound cues at the table: my turn, a capture, a sweep, the clock (sounds.js)
  contrast: ["normal", "high"], // high-contrast colours (css/a11y.css), in light and dark
  print: ["normal", "large"], // card faces: the usual picture, or rank and suit only, as large as fits
  notify: [false, true], // a browser notification then (needs the browser's permission)
  push: [false, true], // a Web Push notice of my turn even with the page closed (push.js)
  anim: ["normal", "fast", "off"], // speed of the play, capture and sweep animations
  theme: ["auto", "light", "dark"], // auto follows the system (prefers-color-scheme)
  suits: ["two", "four"], // four colours: spades black, hearts red, diamonds blue, clubs green
  back: ["red", "blue", "green"], // the pattern colour of card backs
  hints: [true, false], // the "tabbe på 9" call on the table (js/ui/sweepcall.js)
  // Confirm a play before it is sent, in correspondence games (js/ui/pending.js): on a
  // touch screen (a slip of the finger cannot be taken back), always, or never.
  confirm: ["touch", "always", "never"],
};

export const DEFAULTS = Object.fromEntries(Object.entries(CHOICES).map(([k, v]) => [k, v[0]]));

const listeners = new Set();
let current = null;

/** The saved settings, each one checked against CHOICES (unknown values fall back to the default). */
export function load() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    saved = {};
  }
  const out = { ...DEFAULTS };
  for (const [k, allowed] of Object.entries(CHOICES)) if (allowed.includes(saved[k])) out[k] = saved[k];
  return out;
}

export function get() {
  if (!current) current = load();
  return current;
}

/** Change some settings: saved, applied to the page, and told to the listeners. */
export function update(partial) {
  const next = { ...get() };
  for (const [k, v] of Object.entries(partial)) if (CHOICES[k] && CHOICES[k].includes(v)) next[k] = v;
  current = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    /* private mode: the settings last as long as the page */
  }
  apply(next);
  for (const fn of [...listeners]) fn(next);
  return next;
}

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Put the settings on <html> for the stylesheet. */
export function apply(s = get(), root = document.documentElement) {
  root.dataset.theme = s.theme;
  root.dataset.suits = s.suits;
  root.dataset.back = s.back;
  root.dataset.anim = s.anim;
  // Only when chosen (no attribute for the usual faces and contrast: css/a11y.css).
  for (const [name, usual] of [["print", "normal"], ["contrast", "normal"]]) {
    if (s[name] === usual) delete root.dataset[name];
    else root.dataset[name] = s[name];
  }
  const meta = document.querySelector('meta[name="color-scheme"]');
  if (meta) meta.content = s.theme === "auto" ? "light dark" : s.theme;
}

/** Settings changed in another tab of this browser take effect here too. */
export function followOtherTabs() {
  window.addEventListener("storage", (ev) => {
    if (ev.key !== KEY) return;
    current = load();
    apply(current);
    for (const fn of [...listeners]) fn(current);
  });
}
