// Texts: one catalog per language in static/i18n/<lang>.json.
//
// A catalog is a flat object of keys to strings with {placeholders}.  Plurals
// use the suffixes of Intl.PluralRules ("cards_one", "cards_other").  A key a
// catalog lacks falls back to English, then to the key itself.
import { parseCard } from "./cards.js";
import * as session from "./session.js";

export const LANGS = [
  { code: "sv", name: "Svenska" },
  { code: "en", name: "English" },
  { code: "nb", name: "Norsk bokmål" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
  { code: "pt", name: "Português" },
];

const catalogs = {};
let current = "en";
let plural = new Intl.PluralRules("en");

/** The language to start with: the saved choice, else the browser's. */
export function pickLanguage(saved = session.getLang(), preferred = navigator.languages || [navigator.language]) {
  const known = LANGS.map((l) => l.code);
  if (saved && known.includes(saved)) return saved;
  for (const tag of preferred || []) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (base === "no" || base === "nn") return "nb";
    if (known.includes(base)) return base;
  }
  return "en";
}

const pageCatalogs = [];

/** Also load a page's own catalogs, static/i18n/<dir>/<lang>.json, over the main ones
 *  (call before setLanguage): the admin page's texts stay out of the players' download. */
export function addCatalogs(dir) {
  pageCatalogs.push(`${dir}/`);
}

async function fetchCatalog(lang) {
  if (!catalogs[lang]) {
    // Relative to this module, so the catalogs share its versioned /static/<version>/ URL.
    const parts = await Promise.all(["", ...pageCatalogs].map(async (dir) => {
      const res = await fetch(new URL(`../i18n/${dir}${lang}.json`, import.meta.url));
      if (!res.ok) throw new Error(`no catalog for ${lang}`);
      return res.json();
    }));
    catalogs[lang] = Object.assign({}, ...parts);
  }
  return catalogs[lang];
}

export async function setLanguage(lang) {
  await Promise.all([fetchCatalog("en"), fetchCatalog(lang)]);
  current = lang;
  plural = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  return lang;
}

export const language = () => current;

function lookup(key) {
  const cat = catalogs[current] || {};
  if (key in cat) return cat[key];
  const en = catalogs.en || {};
  if (key in en) return en[key];
  return null;
}

/** Translate `key`, filling {placeholders} from `vars`; `vars.n` picks a plural form. */
export function t(key, vars = {}) {
  let text = null;
  if (typeof vars.n === "number") text = lookup(`${key}_${plural.select(vars.n)}`) ?? lookup(`${key}_other`);
  if (text === null) text = lookup(key);
  if (text === null) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? (typeof vars[name] === "number" ? num(vars[name]) : String(vars[name])) : m));
}

export const has = (key) => lookup(key) !== null;

/** The card's spoken name: "ten of diamonds", "ruter tio". */
export function cardName(code) {
  const { rank, suit } = parseCard(code);
  return t("card_name", { rank: t(`rank_${rank}`), suit: t(`suit_${suit}`) });
}

/** A list in words: "A, B and C" (`type` "disjunction": "A, B or C"). */
export function listOf(items, type = "conjunction") {
  try {
    return new Intl.ListFormat(current, { style: "long", type }).format(items);
  } catch {
    return items.join(", ");
  }
}

const numberFormats = {};

/** The UI language's number format (decimal comma in sv, nb, es, fr, pt), kept per options. */
function numberFormat(digits) {
  const key = `${current}:${digits}`;
  if (!numberFormats[key]) {
    try {
      numberFormats[key] = new Intl.NumberFormat(current, { maximumFractionDigits: digits });
    } catch {
      numberFormats[key] = new Intl.NumberFormat("en", { maximumFractionDigits: digits });
    }
  }
  return numberFormats[key];
}

/**
 * A number for display in the UI language ("34,3" in Swedish, "34.3" in English), at
 * most `digits` decimals; a negative one with a true minus sign (U+2212), as "−5".
 */
export function num(n, digits = 3) {
  if (typeof n !== "number" || Number.isNaN(n)) return n === null || n === undefined ? "" : String(n);
  const text = numberFormat(digits).format(Math.abs(n));
  return n < 0 && text.replace(/[0.,\s\u00a0\u202f]/g, "") !== "" ? `\u2212${text}` : text;
}

/** A signed number for score columns: "+5", "−5", "0". */
export function signed(n) {
  if (n > 0) return `+${num(n)}`;
  if (n < 0) return num(n);
  return num(0);
}
