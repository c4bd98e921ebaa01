// Reviewing a finished deal together, beside the live table (docs/client.md).
//
// The server holds one shared review per room and tells every connection of it
// ({"type": "review"}, kept in the store as `review`).  Joining shows the position
// its driver shows; the driver steps (buttons, slider, arrow keys, the move list)
// and may hand control to another participant; "Back to the table" leaves.  The
// game never waits: the turn clock runs on, and a player whose turn comes is told
// so in the review.  This tab's review key (sessionStorage) makes a reload the
// same participant, and the tab rejoins the review it was in by itself.
import { html, useState, useEffect, useLayoutEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { randomBytes, toBase64url } from "../player.js";
import { isMyTurn } from "../play.js";
import { ErrorNotice } from "./common.js";
import { PositionBoard, positionView, stepText } from "./position.js";
import { StepControls, MoveList, useStepKeys } from "./replay.js";
import { seatName } from "./words.js";
import { BranchButton, WhatIfPane } from "./whatif.js";
import { focusHand } from "./keys.js";

const KEY = "krypkasino.reviewkey";
// Refusals of review messages, shown in the review (the table's notice is beneath it).
const REVIEW_ERRORS = ["review_running", "no_review", "not_driver", "not_in_review", "deal_not_over", "unavailable", "busy", "rate_limited",
  // a what-if's move the server's engine refused
  "no_branch", "not_in_hand", "invalid_capture", "must_capture", "not_maximal", "must_sweep", "deal_over"];
const inReview = (roomId) => `krypkasino.review.${roomId}`;

function sessionGet(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function sessionSet(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    /* private mode */
  }
}

/** This tab's secret review key: the same participant after a reload. */
export function reviewKey() {
  let key = sessionGet(KEY);
  if (!key) {
    key = toBase64url(randomBytes(24));
    sessionSet(KEY, key);
  }
  return key;
}

const myName = () => session.getName() || undefined;

export function startReview(connection, matchNo, dealNo) {
  connection.send({ type: "review_start", match_no: matchNo, deal_no: dealNo, key: reviewKey(), name: myName() });
}

const joinReview = (connection) => connection.send({ type: "review_join", key: reviewKey(), name: myName() });

/** (review, am I in it, am I its driver) from the store's last review message. */
export function reviewState(msg) {
  const review = msg && msg.review;
  if (!review) return { review: null, joined: false, driving: false };
  const joined = !!msg.me && review.participants.some((p) => p.id === msg.me);
  return { review, joined, driving: joined && review.driver === msg.me };
}

const records = new Map(); // "room|m|n" -> the record with positions (a finished deal never changes)

function useRecord(roomId, m, n) {
  const id = `${roomId}|${m}|${n}`;
  const [record, setRecord] = useState(records.get(id) || null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (records.has(id)) {
      setRecord(records.get(id));
      return;
    }
    setRecord(null);
    api.dealPositions(roomId, m, n).then((r) => {
      records.set(id, r);
      setRecord(r);
    }, (err) => setError({ code: err.code, message: err.message }));
  }, [id]);
  return [record, error];
}

// Wide enough for the review beside the table (issue 47): the same width as in
// app.css's "the shared review's place"; narrower screens get a full-screen sheet.
const BESIDE = "(min-width: 1100px)";

/** Whether the review sits beside the table (a laptop) rather than over it (a phone). */
function useBeside() {
  const query = typeof matchMedia === "function" ? matchMedia(BESIDE) : null;
  const [beside, setBeside] = useState(!!(query && query.matches));
  useEffect(() => {
    if (!query) return undefined;
    const changed = () => setBeside(query.matches);
    query.addEventListener("change", changed);
    changed();
    return () => query.removeEventListener("change", changed);
  }, []);
  return beside;
}

/**
 * Focus into the review when it opens, and back where it was when it closes: the
 * control that opened it, or the same control drawn anew ("Join the review" comes
 * back with the bar), else the hand.  Only a focus the review held or lost is moved:
 * a player who went on at the table beside the review keeps their place.
 */
function useFocusInAndBack(pane) {
  // Taken while rendering, before the side column that holds "Review a deal together" is
  // hidden by the review beside the table (a hidden control loses the focus).
  const from = useRef(null);
  if (from.current === null) from.current = document.activeElement || document.body;
  useLayoutEffect(() => {
    const opener = from.current;
    const testid = opener && opener.dataset ? opener.dataset.testid : null;
    if (pane.current && !pane.current.contains(document.activeElement)) pane.current.focus({ preventScroll: true });
    return () => {
      setTimeout(() => {
        const now = document.activeElement;
        if (now && now !== document.body && now.isConnected) return;
        let back = opener && opener !== document.body && opener.isConnected ? opener : null;
        if (!back && testid) back = document.querySelector(`[data-testid="${testid}"]`);
        if (back) back.focus();
        else focusHand();
      }, 0);
    };
  }, []);
}

function participantName(view, p) {
  if (p.name) return p.name;
  return p.seat !== null && p.seat !== undefined ? seatName(view, p.seat) : t("review_spectator");
}

function ReviewPane({ state, connection, roomId, msg }) {
  const { view } = state;
  const { review, driving } = reviewState(msg);
  const [record, error] = useRecord(roomId, review.match_no, review.deal_no);
  const last = review.steps;
  // The driver sees each step at once (several key presses in a row count), the
  // server's echo confirms it; followers see what the server says.
  const pending = useRef(null);
  const [, redraw] = useState(0);
  useEffect(() => {
    if (pending.current === review.step) pending.current = null;
  }, [review.step, msg.version]);
  useEffect(() => {
    pending.current = null;
  }, [driving]);
  const step = Math.min(driving && pending.current !== null ? pending.current : review.step, last);
  const setStep = (k) => {
    if (!driving || k === step) return;
    pending.current = k;
    redraw((n) => n + 1);
    connection.send({ type: "review_step", step: k });
  };
  useStepKeys(step, last, setStep, driving && !!record && !review.branch);
  const leave = () => {
    sessionSet(inReview(roomId), null);
    connection.send({ type: "review_leave" });
  };
  const driver = review.participants.find((p) => p.id === review.driver);
  const label = (k) => (record ? `${t("replay_step_of", { n: k, total: last })}: ${stepText(positionView(record, k), k)}` : "");
  // A laptop keeps the live table in view and in play beside the review (not modal);
  // a phone shows the review as a full-screen sheet over it (modal).
  const beside = useBeside();
  const pane = useRef(null);
  useFocusInAndBack(pane);
  return html`<div class=${beside ? "review-dock" : "overlay review-overlay review-sheet"} onKeyDown=${(e) => e.key === "Escape" && leave()}>
    <div class=${`review-pane ${beside ? "beside" : "dialog sheet"}`} role="dialog" aria-modal=${beside ? "false" : "true"}
        aria-labelledby="review-title" data-testid="review-pane" data-mode=${beside ? "beside" : "sheet"} tabindex="-1" ref=${pane}
        data-step=${step} data-driving=${driving ? "yes" : "no"}>
      <div class="review-head">
        <h2 id="review-title">${t("review_title", { m: review.match_no, n: review.deal_no })}</h2>
        <button type="button" class="btn small primary" onClick=${leave} data-testid="leave-review">${t("review_leave")}</button>
      </div>
      ${isMyTurn(view) && !view.deal_over ? html`<p class="notice turn-notice" role="alert" data-testid="review-your-turn">${t("review_your_turn")}</p>` : null}
      <p class="review-driver" data-testid="review-driver">${driving ? t("review_you_drive") : t("review_following", { name: driver ? participantName(view, driver) : "" })}</p>
      <${ErrorNotice} error=${error || (state.error && REVIEW_ERRORS.includes(state.error.code) ? state.error : null)} />
      ${record && review.branch
        ? html`<${WhatIfPane} view=${view} record=${record} branch=${review.branch} driving=${driving} connection=${connection} />`
        : record
        ? html`<div class="review-steps"><${StepControls} step=${step} last=${last} setStep=${setStep} disabled=${!driving} label=${label} />
            ${driving ? html`<${BranchButton} connection=${connection} disabled=${step >= last} />` : null}</div>
            <div class="review-grid">
              <${PositionBoard} record=${record} step=${step} />
              <div class="review-side">
                <${Participants} view=${view} review=${review} me=${msg.me} driving=${driving} connection=${connection} />
                <${MoveList} record=${record} step=${step} setStep=${setStep} disabled=${!driving} />
              </div>
            </div>`
        : html`<p class="loading" role="status">${t("loading")}</p>`}
    </div>
  </div>`;
}

function Participants({ view, review, me, driving, connection }) {
  return html`<section class="panel" aria-labelledby="people-title">
    <h3 id="people-title">${t("review_people", { n: review.participants.length })}</h3>
    <ul class="review-people" data-testid="review-people">
      ${review.participants.map((p) => html`<li key=${p.id} data-testid="review-person">
        <span class="seat-name">${participantName(view, p)}</span>
        ${p.id === me ? html` <span class="hint">(${t("you")})</span>` : null}
        ${p.id === review.driver ? html` <span class="badge dealer">${t("review_driver")}</span>` : null}
        ${driving && p.id !== me
          ? html` <button type="button" class="btn small" onClick=${() => connection.send({ type: "review_pass", to: p.id })}
              data-testid="hand-over">${t("review_hand_over")}<span class="sr-only"> ${participantName(view, p)}</span></button>`
          : null}
      </li>`)}
    </ul>
  </section>`;
}

/** The review as the game screen shows it: an invitation, or the shared position. */
export function ReviewLayer({ state, connection, roomId }) {
  const msg = state.review;
  const { review, joined } = reviewState(msg);
  // Remember the review this tab is in, and rejoin it after a reload.
  useEffect(() => {
    if (!review || !connection) return;
    if (joined) sessionSet(inReview(roomId), review.id);
    else if (sessionGet(inReview(roomId)) === review.id) joinReview(connection);
  }, [review && review.id, joined, connection]);
  if (!review || !connection) return null;
  if (joined) return html`<${ReviewPane} state=${state} connection=${connection} roomId=${roomId} msg=${msg} />`;
  const driver = review.participants.find((p) => p.id === review.driver);
  return html`<div class="notice review-banner" role="status" data-testid="review-banner">
    <span>${t("review_running", { m: review.match_no, n: review.deal_no, name: driver ? participantName(state.view, driver) : "", count: review.participants.length })}</span>
    <button type="button" class="btn small primary" onClick=${() => joinReview(connection)} data-testid="join-review">${t("review_join")}</button>
  </div>`;
}

/** The side panel's "Review a deal together": every finished deal of the room. */
export function ReviewPicker({ roomId, connection, matchNo }) {
  const [matches, setMatches] = useState(null);
  const load = (ev) => {
    if (ev.target.open && matches === null) api.roomMatches(roomId).then(setMatches, () => setMatches([]));
  };
  const deals = (matches || []).flatMap((m) => m.deals.map((d) => ({ m: m.match_no, n: d.deal_no })));
  return html`<details class="share review-picker" onToggle=${load} data-testid="review-picker">
    <summary>${t("review_start")}</summary>
    <div class="share-body">
      ${matches === null ? html`<p class="loading">${t("loading")}</p>` : null}
      ${matches && !deals.length ? html`<p class="hint">${t("review_nothing")}</p>` : null}
      <ul class="review-deals">
        ${deals.map((d) => html`<li><button type="button" class="btn small" onClick=${() => startReview(connection, d.m, d.n)} data-testid="start-review"
          data-match=${d.m} data-deal=${d.n}>${d.m === matchNo ? t("deal_n", { n: d.n }) : t("replay_title", { m: d.m, n: d.n })}</button></li>`)}
      </ul>
    </div>
  </details>`;
}
