// Small shared pieces: the header, language switch, copy fields, notices.
import { html, useState, useEffect } from "../html.js";
import { t, LANGS, language, setLanguage } from "../i18n.js";
import * as session from "../session.js";
import { SettingsButton } from "./settings.js";

export function navigate(store, path) {
  if (location.pathname + location.search !== path) history.pushState({}, "", path);
  store.set({ route: parseRoute(new URL(path, location.href)) });
}

export function parseRoute(loc) {
  const h = /^\/r\/([^/?#]+)\/history\/?$/.exec(loc.pathname);
  if (h) return { name: "history", roomId: decodeURIComponent(h[1]) };
  const r = /^\/r\/([^/?#]+)\/replay\/(\d+)\/(\d+)\/?$/.exec(loc.pathname);
  if (r) {
    const step = Number(new URLSearchParams(loc.search).get("step"));
    return { name: "replay", roomId: decodeURIComponent(r[1]), match: Number(r[2]), deal: Number(r[3]), step: Number.isInteger(step) && step > 0 ? step : 0 };
  }
  const l = /^\/r\/([^/?#]+)\/learn\/(\d+)\/(\d+)\/?$/.exec(loc.pathname);
  if (l) {
    const raw = new URLSearchParams(loc.search).get("seat");
    const seat = raw === null ? null : Number(raw);
    return { name: "learn", roomId: decodeURIComponent(l[1]), match: Number(l[2]), deal: Number(l[3]), seat: Number.isInteger(seat) && seat >= 0 ? seat : null };
  }
  const d = /^\/daily(?:\/(\d{4}-\d{2}-\d{2}))?\/?$/.exec(loc.pathname);
  if (d) {
    const n = Number(new URLSearchParams(loc.search).get("players"));
    return { name: "daily", date: d[1] || null, players: Number.isInteger(n) && n >= 2 && n <= 6 ? n : null };
  }
  if (/^\/continue\/?$/.test(loc.pathname)) return { name: "continue" };
  if (/^\/rules\/?$/.test(loc.pathname)) return { name: "rules" };
  if (/^\/tutorial\/?$/.test(loc.pathname)) return { name: "tutorial" };
  if (/^\/leaderboard\/?$/.test(loc.pathname)) {
    const n = Number(new URLSearchParams(loc.search).get("players"));
    return { name: "leaderboard", players: Number.isInteger(n) && n >= 2 && n <= 6 ? n : 2 };
  }
  if (/^\/ladder\/?$/.test(loc.pathname)) return { name: "ladder" };
  if (/^\/clubs\/?$/.test(loc.pathname)) return { name: "clubs" };
  if (/^\/clubs\/join\/?$/.test(loc.pathname)) return { name: "club_join" };
  const c = /^\/clubs\/([0-9a-f]{1,32})\/?$/.exec(loc.pathname);
  if (c) return { name: "club", clubId: c[1] };
  const ev = /^\/tournaments\/([0-9a-f]{1,32})\/?$/.exec(loc.pathname);
  if (ev) return { name: "tournament", eventId: ev[1] };
  const p = /^\/players\/([^/?#]+)\/?$/.exec(loc.pathname);
  if (p) return { name: "profile", username: decodeURIComponent(p[1]) };
  const m = /^\/r\/([^/?#]+)\/?$/.exec(loc.pathname);
  if (m) {
    const watch = new URLSearchParams(loc.search).get("watch");
    return { name: "room", roomId: decodeURIComponent(m[1]), watch: watch === "1" || watch === "true" };
  }
  if (/^\/?$/.test(loc.pathname)) return { name: "lobby" };
  return { name: "not_found" }; // the server answered this address with 404 and the page

}

export const historyPath = (roomId) => `/r/${encodeURIComponent(roomId)}/history`;
export const replayPath = (roomId, m, n) => `/r/${encodeURIComponent(roomId)}/replay/${m}/${n}`;

/** A link inside the app: followed without reloading the page. */
export function AppLink({ store, href, children, ...rest }) {
  const go = (ev) => {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    navigate(store, href);
  };
  return html`<a href=${href} onClick=${go} ...${rest}>${children}</a>`;
}

export const roomUrl = (roomId, watch = false) =>
  `${location.origin}/r/${encodeURIComponent(roomId)}${watch ? "?watch=1" : ""}`;

export function LangSwitch({ store }) {
  const onChange = async (ev) => {
    const lang = ev.target.value;
    session.saveLang(lang);
    await setLanguage(lang);
    store.set({ lang });
  };
  // On a phone the stylesheet shows the short code ("PT") over the (transparent) select,
  // which still opens with every language's whole name.
  return html`<label class="lang-switch">
    <span class="sr-only">${t("language")}</span>
    <span class="lang-code" aria-hidden="true">${language().toUpperCase()}</span>
    <select value=${language()} onChange=${onChange} aria-label=${t("language")}>
      ${LANGS.map((l) => html`<option value=${l.code} lang=${l.code}>${l.name}</option>`)}
    </select>
  </label>`;
}

export function Header({ store, children }) {
  const home = (ev) => {
    ev.preventDefault();
    navigate(store, "/");
  };
  return html`<header class="app-header">
    <a href="/" class="brand" onClick=${home}><span class="brand-suit" aria-hidden="true">♠</span> Krypkasino</a>
    <div class="header-extra">${children}</div>
    <${SettingsButton} />
    <${LangSwitch} store=${store} />
  </header>`;
}

export function CopyField({ label, value, id, testid }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const tm = setTimeout(() => setCopied(false), 1600);
    return () => clearTimeout(tm);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const el = document.getElementById(id);
      if (el) {
        el.select();
        document.execCommand && document.execCommand("copy");
      }
    }
    setCopied(true);
  };
  return html`<div class="copy-field">
    <label for=${id}>${label}</label>
    <div class="copy-row">
      <input id=${id} readonly value=${value} data-testid=${testid} onFocus=${(e) => e.target.select()} />
      <button type="button" class="btn small" onClick=${copy}>${copied ? t("copied") : t("copy")}</button>
    </div>
  </div>`;
}

/** The words for a server error: the catalog's text for its code, else the server's message. */
export function errorText(err) {
  if (!err) return "";
  const key = `err_${err.code}`;
  const text = t(key);
  return text === key ? err.message || err.code : text;
}

export function ErrorNotice({ error, onClose }) {
  if (!error) return null;
  return html`<div class="notice error" role="alert" data-testid="error">
    <span>${errorText(error)}</span>
    ${onClose ? html`<button type="button" class="btn-x" aria-label=${t("close")} onClick=${onClose}>×</button>` : null}
  </div>`;
}

export function ConnBadge({ conn }) {
  if (!conn || conn === "live") return html`<span class="conn live" title=${t("conn_live")}><span class="dot"></span><span class="sr-only">${t("conn_live")}</span></span>`;
  return html`<span class="conn ${conn}" role="status"><span class="dot"></span>${t(`conn_${conn}`)}</span>`;
}
