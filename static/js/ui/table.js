// The game screen: opponents, the felt, your hand, scores and log.
import { html, useState, useEffect, useMemo } from "../html.js";
import { t, cardName, signed } from "../i18n.js";
import { optionsFor, legalCards, isForcedSweep, isMyTurn } from "../play.js";
import * as session from "../session.js";
import { Header, ConnBadge, ErrorNotice, CopyField, roomUrl, AppLink, historyPath, replayPath } from "./common.js";
import { SeatBox, ClockChip, SeatBadges, SweepMarkers, seatOrder } from "./seats.js";
import { TableCards, Stock, SetAside, LastMove, Chooser, Hand } from "./board.js";
import { Scores, GameLog, dealTitle } from "./panels.js";
import { SummaryDialog, summaryOf, summaryId } from "./summary.js";
import { seatName } from "./words.js";
import { ReviewLayer, ReviewPicker, startReview } from "./review.js";
import { TransferButton } from "./transfer.js";
import { AssistBar } from "./assist.js";
import { PacketNotice, PlayEffects } from "./effects.js";
import { SweepCall } from "./sweepcall.js";
import { ChatPanel, ReactionBubble } from "./chat.js";
import { BetweenDeals, PlayedForNotice, BankChip, betweenDeals, iAmReady, SummaryCountdown, DealOverNotice, useDealShown } from "./pacing.js";
import { usePendingPlay, PendingNotice, ConfirmPlay, confirmWanted } from "./pending.js";
import { RematchPanel, MatchBegins } from "./rematch.js";
import { useTableKeys, useHandFocus, focusHand } from "./keys.js";
import { ShortcutsDialog } from "./shortcuts.js";
import { VacationBar } from "./correspondence.js";
import { DailyLink } from "./daily.js";
import { useAnnouncer } from "./announce.js";
import { answer } from "./ask.js";
import { sayNow } from "../speech.js";

/** Re-render every quarter second while a turn clock runs. */
function useNow(active) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now()); // a countdown that just appeared starts from the time it did
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

function StatusLine({ view, now, forced }) {
  let text;
  const mine = isMyTurn(view);
  if (view.closed) text = t("room_closed");
  else if (view.status === "finished") text = t("match_over");
  else if (view.deal_over) text = t("deal_over");
  else if (mine) text = t("your_turn");
  else if (view.to_move !== null && view.to_move !== undefined) text = t("their_turn_name", { name: seatName(view, view.to_move) });
  else text = t("between_deals");
  return html`<div class=${`status-line ${mine ? "mine" : ""}`} data-testid="status">
    <span class="status-text">${text}</span>
    ${view.to_move !== null && view.to_move !== undefined ? html`<${ClockChip} view=${view} seat=${view.to_move} now=${now} />` : null}
    ${mine && forced ? html`<span class="forced" data-testid="forced-sweep">${t("forced_sweep")}</span>` : null}
  </div>`;
}

/** Why a card in hand cannot be played now, in words. */
function whyNot(view, pending) {
  if (view.status === "finished") return t("why_match_over");
  if (view.deal_over) return t("why_deal_over");
  if (pending) return t("why_pending");
  if (view.to_move === null || view.to_move === undefined) return t("why_between_deals");
  return t("why_not_your_turn", { name: seatName(view, view.to_move) });
}

function ShareBox({ view, roomId }) {
  return html`<details class="share">
    <summary>${t("share")}</summary>
    <div class="share-body">
      <p>${t("room_code")}: <strong class="code">${view.code}</strong></p>
      <${CopyField} label=${t("spectate_link")} id="share-watch" value=${roomUrl(roomId, true)} />
    </div>
  </details>`;
}

export function GameScreen({ store, state, connection, roomId, offer = null }) {
  const { view, presence, conn, pending, error } = state;
  const myTurn = isMyTurn(view) && !view.deal_over;
  const legal = useMemo(() => legalCards(view), [view.legal]);
  const forced = myTurn && isForcedSweep(view);
  const [choosing, setChoosing] = useState(null);
  const [hoverTake, setHoverTake] = useState(null);
  const [closedSummaries, setClosed] = useState(() => session.getDismissed(roomId));
  const [forceSummary, setForceSummary] = useState(false);
  const [localNote, setLocalNote] = useState(null);
  const now = useNow(!!view.clock || !!view.between);
  const [held, setHeld] = useState(null); // a play waiting for Confirm (ui/pending.js)
  const heldNow = held && myTurn && !pending && (view.hand || []).includes(held.card) ? held : null;
  const pendingPlay = usePendingPlay(state) || (heldNow && { card: heldNow.card, offline: false, held: true });
  const [keysOpen, setKeysOpen] = useState(false);

  // A new position ends any choice in progress.
  useEffect(() => {
    setChoosing(null);
    setHoverTake(null);
  }, [state.seq]);
  // A new deal or a new match closes a summary opened by hand, on every screen (issue 33).
  useEffect(() => {
    setForceSummary(false);
  }, [view.match_no, view.deal_no]);
  useEffect(() => {
    if (!localNote) return undefined;
    const tm = setTimeout(() => setLocalNote(null), 2500);
    return () => clearTimeout(tm);
  }, [localNote]);

  const describe = (code) => {
    const opts = optionsFor(view, code);
    if (!opts.length) return null;
    if (opts.length > 1) return { short: t("n_options", { n: opts.length }), long: t("n_options", { n: opts.length }) };
    const o = opts[0];
    if (o.kind === "creep") return { short: t("creep"), long: t("creep") };
    if (o.sweep) {
      const text = `${t(o.kind)} · ${t("pts_short", { n: o.points })}`;
      return { short: text, long: text };
    }
    return { short: t("pts_short", { n: o.points }), long: t("takes_pts", { n: o.take.length, p: o.points }) };
  };

  // Sent at once, or held for Confirm in a correspondence game (the "confirm" setting).
  const send = (card, take) => {
    if (confirmWanted(view)) setHeld({ card, take });
    else connection.play(card, take);
  };
  const confirmHeld = () => {
    setHeld(null);
    if (heldNow) connection.play(heldNow.card, heldNow.take);
  };

  const play = (code) => {
    if (heldNow) setHeld(null); // another card tapped: the held play is dropped
    if (!myTurn || pending) {
      setLocalNote(whyNot(view, pending)); // a click is never silently ignored
      return;
    }
    const opts = optionsFor(view, code);
    if (!opts.length) {
      setLocalNote(forced ? t("must_sweep_hint") : t("cannot_play_hint", { card: cardName(code) }));
      return;
    }
    if (opts.length === 1) {
      setChoosing(null);
      send(code, opts[0].take);
      return;
    }
    if (choosing && choosing.card === code) {
      setChoosing(null);
      return;
    }
    setChoosing({ card: code, options: opts, visible: opts, picked: [] });
  };

  const pickTable = (index) => {
    if (!choosing) return;
    const picked = choosing.picked.includes(index) ? choosing.picked.filter((i) => i !== index) : [...choosing.picked, index];
    const table = view.table;
    const need = {};
    for (const i of picked) need[table[i]] = (need[table[i]] || 0) + 1;
    const visible = choosing.options.filter((o) => {
      const have = {};
      for (const c of o.take) have[c] = (have[c] || 0) + 1;
      return Object.entries(need).every(([c, k]) => (have[c] || 0) >= k);
    });
    setChoosing({ ...choosing, picked, visible: visible.length ? visible : choosing.options });
  };

  const choose = (option) => {
    setChoosing(null);
    setHoverTake(null);
    send(option.card, option.take);
  };

  const cancel = () => {
    const card = choosing && choosing.card;
    setChoosing(null);
    setHoverTake(null);
    if (card) {
      const el = document.querySelector(`.hand button[data-card="${card}"]`);
      if (el) el.focus();
    }
  };

  useAnnouncer(store, roomId);
  const ask = (what) => sayNow(answer(what, view, choosing));
  useTableKeys({ view, choosing, onPlay: play, onChoose: choose, onCancel: cancel, onHelp: () => setKeysOpen(true), onAsk: ask });
  const closeKeys = () => {
    setKeysOpen(false);
    setTimeout(() => focusHand(), 0); // once the dialog is gone
  };

  const summary = summaryOf(view);
  const sid = summaryId(summary);
  const finished = view.status === "finished";
  // A deal's summary opens by itself only while that deal is the one at the table: when
  // the next one starts it closes on its own, and the scores stay one click away (issue
  // 33: no clock runs behind it).  A room with neither a pause nor a clock goes on to the
  // next deal at once and times nobody: there the summary still opens over it.
  const opts = view.options || {};
  const untimed = !opts.deal_pause && !opts.turn_clock && !opts.time_bank;
  const autoSummary = summary && (view.deal_over || untimed) && !closedSummaries.includes(sid);
  const showSummary = forceSummary || (finished ? !closedSummaries.includes(`match:${sid}`) : autoSummary);
  const missedSummary = !finished && !showSummary && summary && !view.deal_over && !closedSummaries.includes(sid);
  const dismissMissed = () => {
    const next = [...closedSummaries, sid];
    setClosed(next);
    session.saveDismissed(roomId, next);
  };
  const closeSummary = () => {
    const id = finished ? `match:${sid}` : sid;
    const next = [...closedSummaries, id, sid];
    setClosed(next);
    session.saveDismissed(roomId, next);
    setForceSummary(false);
    // Closing the deal's summary is this player's Continue: the next deal waits for it.
    if (betweenDeals(view) && !iAmReady(view) && connection) connection.continueDeal();
  };

  useDealShown(view, connection, conn, showSummary);
  const spectator = view.you === null || view.you === undefined;
  useHandFocus(`${state.seq}|${choosing ? choosing.card : ""}|${showSummary}|${keysOpen}`, !spectator);
  const bottom = spectator ? 0 : view.you;
  const others = seatOrder(view.players, bottom).slice(spectator ? 0 : 1);
  // The notices (a refusal, "it is Bob's turn", between deals, played for you) sit in
  // the felt's foot under the last play: they never cover it, nor move the hand.
  return html`<div class=${`page game ${spectator ? "spectating" : ""}`}>
    <${Header} store=${store}>
      <span class="room-code" title=${t("room_code")}><span class="sr-only">${t("room_code")}: </span>${view.code}</span>
      <span class="deal-no">${dealTitle(view)}</span>
      ${view.options && view.options.rated ? html`<span class="badge rated" data-testid="rated-badge">${t("rated_room")}</span>` : null}
      ${view.options && view.options.pace === "correspondence"
        ? html`<span class="badge correspondence" data-testid="pace-badge">${t("room_pace_correspondence")}</span>`
        : null}
      ${spectator ? html`<span class="badge watching" data-testid="watching">${t("watching")}</span>` : null}
      ${spectator ? offer : null}
      <${ConnBadge} conn=${conn} />
    <//>
    <main id="main" class="game-grid">
      <div class="board">
        <div class=${`opponents n${others.length}`} aria-label=${t("players_at_table")}>
          ${others.map((s) => html`<div class="seat-wrap" key=${s}>
            <${SeatBox} view=${view} seat=${s} presence=${presence} now=${now} compact=${others.length > 3} />
            <${BankChip} view=${view} seat=${s} now=${now} />
            <${ReactionBubble} state=${state} seat=${s} view=${view} />
          </div>`)}
        </div>
        <div class="felt" aria-label=${t("table")}>
          <div class="felt-top">
            <${Stock} view=${view} />
            ${view.last_packet && !view.deal_over ? html`<div class="last-packet" data-testid="last-packet">${t("last_packet")}</div>` : null}
            <${PacketNotice} view=${view} />
            <${SweepCall} view=${view} />
            <${SetAside} view=${view} />
          </div>
          <${TableCards} view=${view} choosing=${choosing} onPickTable=${pickTable} hoverTake=${hoverTake} />
          <${PlayEffects} view=${view} />
          <div class="felt-foot">
            <${LastMove} view=${view} />
            <div class="me-notes">
            ${view.closed
              ? html`<div class="notice closed-notice" role="status" data-testid="room-closed">
                  <strong>${t("room_closed")}</strong>${view.closed.reason ? html` ${t("room_closed_reason", { reason: view.closed.reason })}` : null}
                </div>`
              : null}
            <${ErrorNotice} error=${error} onClose=${() => store.set({ error: null })} />
            <${BetweenDeals} view=${view} connection=${connection} now=${now} />
            <${PlayedForNotice} view=${view} />
            ${missedSummary ? html`<${DealOverNotice} dealNo=${summary.deal_no} onOpen=${() => setForceSummary(true)} onDismiss=${dismissMissed} />` : null}
            <${PendingNotice} pendingPlay=${pendingPlay} />
            ${showSummary && (summary || finished) ? null : html`<${RematchPanel} view=${view} connection=${connection} bar=${true} />`}
            ${localNote ? html`<div class="notice" role="status" data-testid="local-note">${localNote}</div>` : null}
            </div>
          </div>
        </div>
        <div class="me-area">
          <${StatusLine} view=${view} now=${now} forced=${forced} />
          <${AssistBar} state=${state} connection=${connection} />
          <${VacationBar} view=${view} connection=${connection} now=${now} />
          ${!spectator
            ? html`<div class="me-head">
                <span class="seat-name">${seatName(view, view.you)} <span class="hint">(${t("you")})</span></span>
                <${SeatBadges} view=${view} seat=${view.you} presence=${presence} />
                ${view.scores && view.scores[view.you] ? html`<span class="seat-score">${t("pts_short", { n: view.scores[view.you].total })}${view.scores[view.you].sweep_transfer ? ` · ${t("tabbe")} ${signed(view.scores[view.you].sweep_transfer)}` : ""}</span>` : null}
                <${SweepMarkers} cards=${(view.sweep_markers || [])[view.you]} />
                <${BankChip} view=${view} seat=${view.you} now=${now} />
                <${ReactionBubble} state=${state} seat=${view.you} view=${view} />
              </div>`
            : null}
          ${choosing
            ? html`<${Chooser} view=${view} choosing=${choosing} onChoose=${choose} onCancel=${cancel} onHover=${setHoverTake} />`
            : null}
          <${ConfirmPlay} held=${heldNow} onConfirm=${confirmHeld} onCancel=${() => setHeld(null)} />
          ${!spectator
            ? html`<${Hand} view=${view} legal=${legal} myTurn=${myTurn} pending=${pending} choosing=${choosing} describe=${describe} onPlay=${play} pendingPlay=${pendingPlay} />`
            : html`<p class="hint spectator-note">${t("spectator_note")}</p>`}
        </div>
      </div>
      <aside class="side">
        <${Scores} view=${view} />
        <div class="side-actions">
          ${summary ? html`<button type="button" class="btn small" onClick=${() => setForceSummary(true)} data-testid="open-summary">${t("last_deal")}</button>` : null}
          <${ShareBox} view=${view} roomId=${roomId} />
          <${ReviewPicker} roomId=${roomId} connection=${connection} matchNo=${view.match_no} />
          ${!spectator && !view.closed ? html`<${TransferButton} roomId=${roomId} />` : null}
          <${AppLink} store=${store} href=${historyPath(roomId)} class="btn small" data-testid="open-history">${t("history_title")}<//>
          <a href="/rules" class="btn small" target="_blank" rel="noopener" data-testid="open-rules">${t("rules_link")}</a>
          <button type="button" class="btn small" aria-haspopup="dialog" aria-keyshortcuts="?" onClick=${() => setKeysOpen(true)}
            data-testid="open-shortcuts">${t("keys_button")}</button>
        </div>
        <${GameLog} view=${view} />
        <${ChatPanel} view=${view} state=${state} connection=${connection} roomId=${roomId} />
      </aside>
      <${ReviewLayer} state=${state} connection=${connection} roomId=${roomId} />
    </main>
    ${keysOpen ? html`<${ShortcutsDialog} onClose=${closeKeys} />` : null}
    ${showSummary && (summary || finished)
      ? html`<${SummaryDialog} view=${view} summary=${summary} roomId=${roomId} onClose=${closeSummary}
          countdown=${html`<${SummaryCountdown} view=${view} now=${now} />`}
          rematch=${html`<${RematchPanel} view=${view} connection=${connection} />`}>
          ${summary
            ? html`<${AppLink} store=${store} href=${replayPath(roomId, view.match_no, summary.deal_no)} class="btn" data-testid="summary-replay">${t("replay")}<//>
                <button type="button" class="btn" data-testid="summary-review"
                  onClick=${() => { closeSummary(); startReview(connection, view.match_no, summary.deal_no); }}>${t("review_together")}</button>`
            : null}
          ${finished ? html`<${AppLink} store=${store} href=${historyPath(roomId)} class="btn" data-testid="summary-history">${t("history_title")}<//>` : null}
          ${finished ? html`<${DailyLink} store=${store} roomId=${roomId} />` : null}
        <//>`
      : null}
    <${MatchBegins} view=${view} />
  </div>`;
}
