// Every change at the table said once, in order, in the player's language (issue 50).
//
// The announcer follows the store itself (not the screen's renders, which may skip
// views that arrive together) and remembers what it has said, per room, in
// `heard`: the deal and how many of its log's plays, packets, the deal summary, the
// last chat line, the spectators... so a reconnect (a welcome with the whole view
// and the chat's last lines again) or a reload says nothing twice.  The first view
// of a room says only what a player sitting down needs: the plays since their own
// last play in this deal (a spectator: the last play), and whose turn it is.
import { useEffect } from "../html.js";
import { t, listOf } from "../i18n.js";
import { queueNews, sayNow, dropNews, installSpeech } from "../speech.js";
import { seatName, whoName, moveText } from "./words.js";
import { callText } from "./sweepcall.js";
import * as settings from "../settings.js";
import { packetText, dealTitle } from "./panels.js";
import { summaryOf, summaryId } from "./summary.js";
import { secondsLeft } from "./seats.js";
import { isCorrespondence } from "./correspondence.js";
import { cue } from "../sounds.js";

const mine = (view) => view.you !== null && view.you !== undefined;
const dealKey = (view) => `${view.match_no || 1}/${view.deal_no || 0}`;

/** Where to start in this deal's log for a player who just sat down. */
function startIndex(view) {
  const log = view.log || [];
  if (!mine(view)) return Math.max(0, log.length - 1);
  for (let i = log.length - 1; i >= 0; i -= 1) if (log[i].seat === view.you) return i + 1;
  return 0;
}

/** Scores of a finished deal in words: "Deal 2 is over. Ann 12, Bot 1 8." */
export function dealOverText(view, summary) {
  const parts = (summary.scores || []).map((s, seat) => t("say_score", { name: seatName(view, seat), n: s ? s.total : 0 }));
  return `${t("deal_over_n", { n: summary.deal_no })}. ${listOf(parts)}`;
}

function matchOverText(view) {
  const names = (view.winners || []).map((s) => seatName(view, s));
  const totals = (view.cumulative || []).map((n, seat) => t("say_score", { name: seatName(view, seat), n }));
  const others = (view.winners || []).filter((s) => s !== view.you).map((s) => seatName(view, s));
  let who = names.length === 1 ? t("winner", { name: names[0] }) : t("winners_shared", { names: listOf(names) });
  if (mine(view) && (view.winners || []).includes(view.you)) who = others.length ? t("winners_shared_you", { names: listOf(others) }) : t("winner_you");
  return `${t("match_over")}. ${names.length ? who : ""} ${listOf(totals)}`.trim();
}

/** Whose turn, in words, or null between deals. */
export function turnText(view) {
  if (view.deal_over || view.status !== "playing" || view.to_move === null || view.to_move === undefined) return null;
  return view.to_move === view.you ? t("your_turn") : t("their_turn_name", { name: seatName(view, view.to_move) });
}

/** What `heard` says was said already, for the first view of a room. */
function baseline(state) {
  const view = state.view;
  const chat = state.chat || [];
  return {
    deal: dealKey(view),
    count: startIndex(view),
    packets: (view.packets || []).filter((p) => p.after <= startIndex(view)).length,
    summary: summaryId(summaryOf(view)),
    finished: view.status === "finished" ? dealKey(view) : null,
    chat: chat.length ? chat[chat.length - 1].id : 0,
    chatSince: Date.now() - 5000, // older lines are the chat's history, sent on joining
    watching: state.watching ?? null,
    presence: state.presence || null,
    turn: null,
  };
}

/** The plays and packets of this deal not said yet. */
function plays(view, heard, out) {
  const log = view.log || [];
  const packets = view.packets || [];
  if (log.length < heard.count) heard.count = log.length; // a take-back: said again when replayed
  for (let i = heard.count; i < log.length; i += 1) {
    out.push(moveText(view, log[i]));
    heard.count = i + 1;
    while (heard.packets < packets.length && packets[heard.packets].after <= heard.count) {
      out.push(packetText(packets[heard.packets]));
      heard.packets += 1;
    }
  }
}

function social(state, heard, out) {
  const view = state.view;
  for (const line of state.chat || []) {
    if (!(line.id > heard.chat)) continue;
    heard.chat = line.id;
    if (line.at && heard.chatSince && line.at < heard.chatSince) continue;
    if (mine(view) && line.seat === view.you && !line.spectator) continue; // one's own line
    const name = line.spectator ? t("say_spectator_name", { name: line.name }) : line.name;
    out.push(t("say_chat", { name, text: line.text }));
  }
  if (Number.isInteger(state.watching)) {
    if (heard.watching !== null && state.watching > heard.watching) out.push(t("say_watching", { n: state.watching }));
    heard.watching = state.watching;
  }
  const presence = state.presence;
  if (Array.isArray(presence)) {
    const before = heard.presence;
    presence.forEach((on, seat) => {
      const s = (view.seats || [])[seat];
      if (!before || before[seat] === on || seat === view.you || !s || s.bot || !s.name) return;
      const name = s.outside_bot ? t("say_outside_bot_name", { name: seatName(view, seat) }) : seatName(view, seat);
      out.push(t(on ? "say_back" : "say_away", { name }));
    });
    heard.presence = presence;
  }
}

/**
 * What changed since `heard`, in words: {lines, turn, heard}.  Pure but for the
 * catalog: `heard` is updated in place and returned.
 */
export function newsOf(state, heard) {
  const view = state.view;
  const out = [];
  const cues = [];
  const summary = summaryOf(view);
  const sid = summaryId(summary);
  if (heard.deal !== dealKey(view)) {
    // The old deal's end first (its summary is the view's previous_deal by now), then the new one.
    if (sid && sid !== heard.summary) out.push(dealOverText(view, summary));
    heard.summary = sid;
    heard.deal = dealKey(view);
    heard.count = 0;
    heard.packets = 0;
    if (view.deal_no) out.push(`${dealTitle(view)}`);
  }
  const before = heard.count;
  plays(view, heard, out);
  for (const m of (view.log || []).slice(before)) {
    if (m.kind === "sweep" || m.kind === "double_sweep") cues.push("sweep");
    else if (m.kind === "capture") cues.push("capture");
  }
  if (sid && sid !== heard.summary) {
    out.push(dealOverText(view, summary));
    heard.summary = sid;
  }
  if (view.status === "finished" && heard.finished !== dealKey(view)) {
    heard.finished = dealKey(view);
    out.push(matchOverText(view));
  }
  const call = view.sweep_call;
  const callKey = call ? `${heard.deal}/${(view.log || []).length}/${call.values.join(",")}` : null;
  if (call && callKey !== heard.call && settings.get().hints && !view.deal_over && view.status === "playing") {
    out.push(t("sweep_call_said", { who: whoName(view, call.seat), call: callText(call) }));
  }
  heard.call = callKey;
  social(state, heard, out);
  const turn = turnText(view);
  const turnKey = `${heard.deal}/${(view.log || []).length}/${view.to_move}`;
  let newTurn = turn && turnKey !== heard.turn ? turn : undefined;
  if (!turn) newTurn = null; // a turn queued a moment ago is over: not said
  if (turn) heard.turn = turnKey;
  if (newTurn && view.to_move === view.you) cues.push("turn");
  return { lines: out, turn: newTurn, cues, heard };
}

const memory = {}; // roomId -> heard (also in sessionStorage: a reload says nothing twice)

function recall(roomId) {
  if (memory[roomId]) return memory[roomId];
  try {
    const saved = JSON.parse(sessionStorage.getItem(`krypkasino.heard.${roomId}`) || "null");
    if (saved && typeof saved === "object") memory[roomId] = saved;
  } catch {
    // no storage: this page's memory only
  }
  return memory[roomId] || null;
}

function keep(roomId, heard) {
  memory[roomId] = heard;
  try {
    sessionStorage.setItem(`krypkasino.heard.${roomId}`, JSON.stringify(heard));
  } catch {
    // storage full or refused: memory only
  }
}

/** The clock's warnings for my own turn: at 10 and 5 seconds left, said at once. */
function clockWarnings(store, warned) {
  const { view } = store.get();
  if (!view || !view.clock || view.clock.seat !== view.you || isCorrespondence(view)) return;
  const left = secondsLeft(view.clock, Date.now(), view.options && view.options.turn_clock);
  for (const at of [10, 5]) {
    const key = `${view.clock.deadline}:${at}`;
    if (left !== null && left <= at && left > 0 && !warned.has(key)) {
      warned.add(key);
      sayNow(t("say_seconds_left", { n: left }));
      cue("clock");
      return;
    }
  }
}

/** Follow the store and say every change at the table (see the module's comment). */
export function useAnnouncer(store, roomId) {
  useEffect(() => {
    installSpeech({ news: t("say_news_label"), answers: t("say_answers_label") });
    const onState = (state) => {
      if (!state.view || state.view.room_id !== roomId) return;
      const heard = recall(roomId) || baseline(state);
      const { lines, turn, cues } = newsOf(state, heard);
      keep(roomId, heard);
      queueNews(lines, turn);
      for (const c of new Set(cues)) cue(c);
    };
    onState(store.get());
    const off = store.subscribe(onState);
    const warned = new Set();
    const timer = setInterval(() => clockWarnings(store, warned), 250);
    return () => {
      off();
      clearInterval(timer);
      dropNews();
    };
  }, [store, roomId]);
}
