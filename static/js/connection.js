// The WebSocket half of docs/protocol.md: one connection to one room.
//
// It keeps the room's view in the store: `snapshot` replaces it, `patch`
// applies an RFC 6902 patch when its seq is the next one.  A gap, a patch that
// does not apply, a lost network or a server restart all end the same way:
// connect again and say hello with the last good seq, so the server sends only
// what was missed (or a snapshot when it no longer holds those patches).
import { applyPatch } from "./jsonpatch.js";
import * as session from "./session.js";
import { playerKeys } from "./player.js";

const PING_EVERY = 20000; // ms between pings while the socket is quiet
const DEAD_AFTER = 45000; // ms without any message before the socket counts as dead
const MAX_BACKOFF = 8000;
const RETRY_FIRST = 1000; // ms before a play refused as `unavailable` is sent again ...
const RETRY_MAX = 8000; // ... doubling up to this
const CHAT_KEEP = 200; // chat lines held in memory
const REACTION_SHOWN = 3000; // ms a reaction stays over its seat
const SOCIAL_ERRORS = ["chat_rate_limited", "reaction_rate_limited", "not_host", "name_reserved"];

function clientId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Connection {
  /**
   * @param {object} opts
   * @param {string} opts.roomId
   * @param {string|null} opts.token  the seat token; null to spectate
   * @param {boolean} [opts.own]       without a token: sit in the seat this player holds
   *                                   (signed-in account or player key), if any (issue 47)
   * @param {string} opts.who          "seat3" or "watch": the key of the saved view
   * @param {object} opts.store        receives view, seq, presence, conn, pending, error
   * @param {(code: string) => void} [opts.onFatal]  a refusal that reconnecting cannot cure
   */
  constructor({ roomId, token, who, store, onFatal, own = false }) {
    Object.assign(this, { roomId, token, who, store, onFatal, own });
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timers = {};
    this.lastHeard = 0;
    this.pending = null; // the play message awaiting its answer
    this.retries = 0; // times the pending play was refused as `unavailable`
    const saved = session.loadView(roomId, who);
    this.seq = saved && Number.isInteger(saved.seq) ? saved.seq : null;
    if (saved && saved.view) store.set({ view: saved.view, seq: this.seq });
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  open() {
    if (this.closed) return;
    this.store.set({ conn: this.attempt ? "reconnecting" : "connecting" });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const own = !this.token && this.own ? { own: true, keys: playerKeys() } : {};
      ws.send(JSON.stringify({ type: "hello", token: this.token, last_seq: this.seq, ...own }));
      this.startPing();
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.stopPing();
      if (!this.closed) this.scheduleReconnect();
    };
    ws.onerror = () => {}; // onclose follows
  }

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        // The answer to hello.  When nothing happened since last_seq nothing
        // else follows: the saved view is current, so we are live already.
        this.attempt = 0;
        // Seated by the account or the player key (issue 47): its views are the seat's.
        if (!this.token && Number.isInteger(msg.you)) this.who = `seat${msg.you}`;
        if (this.store.get().view && this.seq !== null && msg.seq === this.seq) this.store.set({ conn: "live" });
        this.store.set({ review: null }); // a review in progress is told right after
        break;
      case "snapshot":
        this.accept(msg.seq, msg.view);
        break;
      case "patch": {
        if (this.seq !== null && msg.seq <= this.seq) break; // already have it
        const view = this.store.get().view;
        if (this.seq === null || msg.seq !== this.seq + 1 || !view) {
          this.resync();
          break;
        }
        let next;
        try {
          next = applyPatch(view, msg.ops);
        } catch {
          this.resync();
          break;
        }
        this.accept(msg.seq, next);
        break;
      }
      case "presence":
        this.store.set({
          presence: Array.isArray(msg.connected) ? msg.connected : null,
          watching: Number.isInteger(msg.watching) ? msg.watching : null,
        });
        break;
      case "chat_history":
      case "chat":
      case "reaction":
        // Talking at the table (ui/chat.js): never part of the view, never a seq.
        this.onSocial(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "ack":
        // The play is committed; its patch came already, or follows and
        // answers the play then.
        if (this.pending && msg.id === this.pending.id && this.seq !== null && this.seq >= msg.seq) {
          this.pending = null;
          this.store.set({ pending: null, pendingCard: null });
        }
        break;
      case "review":
        // A shared review of a finished deal (ui/review.js): never part of the view.
        this.store.set({ review: msg });
        break;
      case "hint": {
        // Against bots (ui/assist.js): for this connection only, about the position
        // in view now (its patch came first); it stands until the next play.
        const view = this.store.get().view;
        this.store.set({ hint: { ...msg, plays: view && view.log ? view.log.length : -1, deal: view ? view.deal_no : null } });
        break;
      }
      case "reconnect":
        this.reconnectNow(300 + Math.random() * 700);
        break;
      default:
        break; // pong and anything newer
    }
  }

  accept(seq, view) {
    this.seq = seq;
    this.attempt = 0;
    const wasPending = this.pending;
    // Any new state answers a pending play: either it went through or the
    // position moved on; the screen re-reads view.legal either way.
    this.pending = null;
    this.store.set({ view, seq, conn: "live", pending: null, pendingCard: null, ...(wasPending ? { error: null } : {}) });
    session.saveView(this.roomId, this.who, seq, view);
  }

  onSocial(msg) {
    const st = this.store.get();
    if (msg.type === "chat_history") {
      const lines = Array.isArray(msg.messages) ? msg.messages : [];
      this.store.set({ chat: lines.slice(-CHAT_KEEP) });
    } else if (msg.type === "chat") {
      const had = st.chat || [];
      if (had.some((m) => m.id === msg.id)) return;
      this.store.set({ chat: [...had, msg].slice(-CHAT_KEEP) });
    } else {
      const until = Date.now() + REACTION_SHOWN;
      const now = Date.now();
      const live = (st.reactions || []).filter((r) => r.until > now && r.seat !== msg.seat);
      this.store.set({ reactions: [...live, { seat: msg.seat, emote: msg.emote, until, key: `${msg.seat}:${now}` }] });
      setTimeout(() => {
        const left = (this.store.get().reactions || []).filter((r) => r.until > Date.now());
        this.store.set({ reactions: left });
      }, REACTION_SHOWN + 50);
    }
  }

  onError(msg) {
    if (SOCIAL_ERRORS.includes(msg.code) && !msg.id) {
      // A refused chat line or reaction: said beside the chat, not over the table.
      this.store.set({ chatError: { code: msg.code, message: msg.message, at: Date.now() } });
      return;
    }
    const fatal = ["unauthorized", "not_found", "purged", "seat_moved", "sign_in_required"].includes(msg.code) && !msg.id;
    if (msg.code === "unavailable" && this.pending && msg.id === this.pending.id) {
      // The server could not store the play (its database is away): nothing was
      // played.  Send the same id again later; it is never played twice.
      this.retryPending();
      this.store.set({ error: { code: msg.code, message: msg.message, at: Date.now() } });
      return;
    }
    if (this.pending && (msg.id === this.pending.id || msg.id == null)) this.pending = null;
    this.store.set({ pending: this.pending ? this.pending.id : null, pendingCard: this.pending ? this.pending.card : null, error: { code: msg.code, message: msg.message, at: Date.now() } });
    if (fatal) {
      this.close();
      if (this.onFatal) this.onFatal(msg.code, msg);
    }
  }

  retryPending() {
    const msg = this.pending;
    this.retries = this.retries + 1;
    const wait = Math.min(RETRY_MAX, RETRY_FIRST * 2 ** (this.retries - 1));
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => {
      if (this.pending === msg) this.send(msg);
    }, wait);
  }

  /** Play `card` taking `take` (empty: creep).  Returns the client id. */
  play(card, take) {
    const msg = { type: "play", id: clientId(), card, take: take || [] };
    clearTimeout(this.timers.retry);
    this.retries = 0;
    this.pending = msg;
    this.store.set({ pending: msg.id, pendingCard: card, error: null }); // shown by ui/pending.js
    this.send(msg);
    return msg.id;
  }

  /** Once the match is over: offer a rematch, or accept the offer that is open. */
  rematch() {
    this.send({ type: "rematch" });
  }

  /** Against bots (issue 33): take back my last play; ask the strong bot for a hint. */
  takeBack() {
    this.store.set({ hint: null });
    return this.send({ type: "takeback" });
  }

  askHint() {
    return this.send({ type: "hint" });
  }

  /** Decline the open rematch offer (its offerer: withdraw it). */
  rematchDecline() {
    this.send({ type: "rematch_decline" });
  }

  /** Between deals: I have seen the deal's end (the next deal waits for everyone). */
  continueDeal() {
    this.send({ type: "continue" });
  }

  /** This page shows the deal in play (issue 47): my first turn of it is timed from now. */
  dealShown(matchNo, dealNo) {
    return this.send({ type: "deal_shown", match_no: matchNo, deal_no: dealNo });
  }

  /** A chat line; `name` is a spectator's (a player speaks under the seat's name). */
  chat(text, name) {
    this.store.set({ chatError: null });
    return this.send(name ? { type: "chat", text, name } : { type: "chat", text });
  }

  react(emote) {
    return this.send({ type: "react", emote });
  }

  /** The host shows or hides spectators' chat to the players. */
  /** Start or end this seat's vacation in a correspondence room (issue 32). */
  vacation(on) {
    return this.send({ type: "vacation", on: !!on });
  }

  setSpectatorChat(on) {
    this.send({ type: "spectator_chat", on });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    // Not connected: a pending play is sent again after the next hello (the
    // same id never plays twice), anything else is dropped.
    return false;
  }

  startPing() {
    this.stopPing();
    this.timers.ping = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > DEAD_AFTER) {
        this.reconnectNow();
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY);
    // A pending play that lost its socket is resent once we are back.
    if (this.pending) {
      const msg = this.pending;
      this.timers.resend = setTimeout(() => {
        if (this.pending === msg) this.send(msg);
      }, 50);
    }
  }

  stopPing() {
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.resend);
  }

  resync() {
    // Drop this socket and say hello again with the last good seq.
    this.reconnectNow(0);
  }

  reconnectNow(delay = 0) {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    this.stopPing();
    if (ws) {
      ws.onclose = null;
      try {
        ws.close(4000, "resync");
      } catch {
        /* already closed */
      }
    }
    clearTimeout(this.timers.reconnect);
    this.timers.reconnect = setTimeout(() => this.open(), delay);
  }

  scheduleReconnect() {
    this.attempt += 1;
    this.store.set({ conn: "reconnecting" });
    const base = Math.min(MAX_BACKOFF, 250 * 2 ** Math.min(this.attempt, 6));
    clearTimeout(this.timers.reconnect);
    this.timers.reconnect = setTimeout(() => this.open(), base / 2 + Math.random() * (base / 2));
  }

  close() {
    this.closed = true;
    this.stopPing();
    clearTimeout(this.timers.retry);
    clearTimeout(this.timers.reconnect);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      try {
        ws.close(1000, "bye");
      } catch {
        /* already closed */
      }
    }
    this.store.set({ conn: "closed" });
  }
}
