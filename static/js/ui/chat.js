// Talking at the table (docs/protocol.md, "Chat"): the room's chat, quick reactions,
// muting a participant for oneself, the host's switch for spectators' chat, and how
// many people watch.  Every line and name is rendered as text (htm text nodes), never
// as HTML.  Mutes are this browser's own (localStorage), per room.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as session from "../session.js";
import { seatName } from "./words.js";

export const EMOTES = ["👍", "👏", "😮", "😂", "😅", "🙏"];
/** Each emote's picture (static/img/reactions/): the same on every device, emoji font or not. */
const EMOTE_IMAGES = {
  "👍": "thumbs-up",
  "👏": "clapping",
  "😮": "surprised",
  "😂": "laughing",
  "😅": "sweat-smile",
  "🙏": "folded-hands",
};

/** An emote drawn as its picture (the words around it say what it is), or as text if unknown. */
export function Emote({ emote }) {
  const name = EMOTE_IMAGES[emote];
  if (!name) return html`<span aria-hidden="true">${emote}</span>`;
  const src = new URL(`../../img/reactions/${name}.svg`, import.meta.url).href;
  return html`<img class="emote-img" src=${src} alt="" aria-hidden="true" draggable="false" data-emote=${emote} />`;
}
const MAX_TEXT = 300;

const muteKey = (roomId) => `krypkasino.muted.${roomId}`;
function loadMuted(roomId) {
  try {
    const v = JSON.parse(localStorage.getItem(muteKey(roomId)));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
function saveMuted(roomId, list) {
  try {
    localStorage.setItem(muteKey(roomId), JSON.stringify(list.slice(-100)));
  } catch {
    /* private mode: mutes last this page only */
  }
}

/** Whether a line was said by someone watching: the server marks it (issue 34); an
 * older server's line tells by its empty seat. */
export const bySpectator = (m) => (m.spectator !== undefined ? Boolean(m.spectator) : m.seat === null || m.seat === undefined);

/** Who a line is from, as a mute key: a seat, or a spectator by the name they gave. */
export const speaker = (m) => (m.seat !== null && m.seat !== undefined ? `seat:${m.seat}` : `rail:${m.name || ""}`);

function lineName(view, m) {
  if (m.seat !== null && m.seat !== undefined) return m.name || seatName(view, m.seat);
  return m.name || t("chat_spectator");
}

const NOTICE_MS = 5000; // a refused line's notice clears itself after this

/**
 * The refusal to show beside the chat (state.chatError), or null: it clears itself
 * after a few seconds, and as soon as a line of mine gets through.
 */
function useChatNotice(error, lines, mine) {
  const [cleared, setCleared] = useState(null); // the `at` of the refusal no longer shown
  const at = error ? error.at : null;
  useEffect(() => {
    if (at === null) return undefined;
    const tm = setTimeout(() => setCleared(at), NOTICE_MS);
    return () => clearTimeout(tm);
  }, [at]);
  const last = lines.length ? lines[lines.length - 1] : null;
  useEffect(() => {
    if (at !== null && last && mine(last)) setCleared(at);
  }, [last && last.id]);
  return error && error.at !== cleared ? error : null;
}

const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

export function ChatPanel({ view, state, connection, roomId }) {
  const lines = state.chat || [];
  const spectator = view.you === null || view.you === undefined;
  const [text, setText] = useState("");
  const [name, setName] = useState(session.getName());
  const [muted, setMuted] = useState(() => loadMuted(roomId));
  const listRef = useRef(null);
  const shown = lines.filter((m) => !muted.includes(speaker(m)));
  const mine = (m) => (spectator ? (m.seat === null || m.seat === undefined) && !!name.trim() && m.name === name.trim() : m.seat === view.you);
  const notice = useChatNotice(state.chatError, lines, mine);
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [shown.length]);

  const toggleMute = (key) => {
    const next = muted.includes(key) ? muted.filter((k) => k !== key) : [...muted, key];
    setMuted(next);
    saveMuted(roomId, next);
  };
  const send = (ev) => {
    ev.preventDefault();
    const line = text.trim();
    if (!line || !connection) return;
    const sent = connection.chat(line.slice(0, MAX_TEXT), spectator && name.trim() ? name.trim().slice(0, 40) : null);
    if (sent) setText("");
  };
  // Everyone who spoke, for the mute list (muted people stay listed to unmute them).
  const people = [];
  for (const m of lines) {
    const key = speaker(m);
    if (view.you !== null && view.you !== undefined && key === `seat:${view.you}`) continue;
    if (!people.some((p) => p.key === key)) people.push({ key, name: lineName(view, m) });
  }
  const host = view.you === 0;
  const railHidden = view.options && view.options.spectator_chat === false;
  return html`<section class="panel chat" aria-labelledby="chat-title" data-testid="chat">
    <h2 id="chat-title">${t("chat_title")}
      ${state.watching ? html` <span class="sub watching-count" data-testid="watching-count">${t("watching_n", { n: state.watching })}</span>` : null}
    </h2>
    ${railHidden ? html`<p class="hint" data-testid="rail-hidden">${t("chat_rail_hidden")}</p>` : null}
    <ol class="chat-list" ref=${listRef} tabindex="0" aria-label=${t("chat_title")} data-testid="chat-list">
      ${shown.length === 0 ? html`<li class="hint">${t("chat_empty")}</li>` : null}
      ${shown.map((m) => html`<li key=${m.id} class=${`chat-line ${bySpectator(m) ? "rail" : ""}`} data-testid="chat-line">
        <span class="chat-time">${clock(m.at)}</span>
        <strong class="chat-name">${lineName(view, m)}</strong>${bySpectator(m) ? html` <span class="badge watching" data-testid="chat-spectator">${t("chat_spectator")}</span>` : null}${" "}
        <span class="chat-text">${m.text}</span>
      </li>`)}
    </ol>
    ${notice ? html`<p class="notice error" role="alert" data-testid="chat-error">${t(`err_${notice.code}`)}</p>` : null}
    <form class="chat-form" onSubmit=${send}>
      ${spectator
        ? html`<label class="sr-only" for="chat-name">${t("chat_your_name")}</label>
            <input id="chat-name" class="chat-name-input" maxlength="40" autocomplete="nickname" placeholder=${t("chat_your_name")}
              value=${name} onInput=${(e) => setName(e.target.value)} data-testid="chat-name" />`
        : null}
      <label class="sr-only" for="chat-input">${t("chat_say")}</label>
      <input id="chat-input" maxlength=${MAX_TEXT} autocomplete="off" placeholder=${t("chat_say")}
        value=${text} onInput=${(e) => setText(e.target.value)} data-testid="chat-input" />
      <button type="submit" class="btn small" data-testid="chat-send">${t("chat_send")}</button>
    </form>
    ${!spectator
      ? html`<div class="reactions" role="group" aria-label=${t("react")}>
          ${EMOTES.map((e) => html`<button type="button" class="btn small emote" onClick=${() => connection && connection.react(e)}
            aria-label=${`${t("react")} ${e}`} data-testid="react"><${Emote} emote=${e} /></button>`)}
        </div>`
      : null}
    ${host
      ? html`<label class="check-line"><input type="checkbox" checked=${!railHidden} data-testid="rail-toggle"
          onChange=${(e) => connection && connection.setSpectatorChat(e.target.checked)} /> ${t("chat_rail_to_players")}</label>`
      : null}
    ${people.length
      ? html`<details class="mutes"><summary>${t("chat_mute_title")}</summary>
          <ul>${people.map((p) => html`<li><label class="check-line"><input type="checkbox" checked=${muted.includes(p.key)}
            onChange=${() => toggleMute(p.key)} data-testid="mute" data-who=${p.key} /> ${p.name}</label></li>`)}</ul>
        </details>`
      : null}
  </section>`;
}

/** A reaction shown over a seat for a moment (aria-live: it is said, too). */
export function ReactionBubble({ state, seat, view }) {
  const now = Date.now();
  const r = (state.reactions || []).find((x) => x.seat === seat && x.until > now);
  if (!r) return null;
  return html`<span class="reaction-bubble" key=${r.key} role="status" data-testid="reaction" data-seat=${seat}>
    <${Emote} emote=${r.emote} /><span class="sr-only">${t("reacted", { name: seatName(view, seat), emote: r.emote })}</span>
  </span>`;
}

/** The room's chat on its history page: every line, oldest first (spectators' lines the
 * players were not shown during play are marked). */
export function HistoryChat({ roomId, view }) {
  const [lines, setLines] = useState(null);
  useEffect(() => {
    fetch(`/api/rooms/${encodeURIComponent(roomId)}/chat?limit=500`)
      .then((r) => (r.ok ? r.json() : { messages: [] }))
      .then((body) => setLines(body.messages || []), () => setLines([]));
  }, [roomId]);
  if (lines === null) return null;
  return html`<section class="panel chat history-chat" aria-labelledby="history-chat-title" data-testid="history-chat">
    <h2 id="history-chat-title">${t("history_chat")}</h2>
    ${lines.length === 0
      ? html`<p class="hint">${t("history_chat_empty")}</p>`
      : html`<ol class="chat-list" tabindex="0" aria-labelledby="history-chat-title">
          ${lines.map((m) => html`<li key=${m.id} class="chat-line" data-testid="chat-line">
            <span class="chat-time">${clock(m.at)}</span>
            <strong class="chat-name">${lineName(view, m)}</strong>${bySpectator(m) ? html` <span class="badge watching" data-testid="chat-spectator">${t("chat_spectator")}</span>` : null}
            ${m.hidden ? html` <span class="hint">(${t("chat_hidden_mark")})</span>` : null}
            <span class="chat-text">${m.text}</span>
          </li>`)}
        </ol>`}
  </section>`;
}
