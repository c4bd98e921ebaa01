// Correspondence rooms (issue 32): a room played over days.  The person to move has
// until a deadline days away (view.clock, the same field as a live room's turn clock),
// so the time left is told in days and hours, not counted down in seconds; each seat
// has vacation days that stop its clock (view.vacation[seat] = {left, since}), which
// its player turns on and off with a `vacation` message.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";

export const DAYS_PER_MOVE = [1, 2, 3, 5, 7];
const MINUTE = 60000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const isCorrespondence = (view) => !!(view && view.options && view.options.pace === "correspondence");

/** "2 d 5 h", "5 h 12 min", "12 min": a span of days in the two units that matter. */
export function daysHours(ms) {
  const left = Math.max(0, ms);
  if (left >= DAY) return t("left_dh", { d: Math.floor(left / DAY), h: Math.floor((left % DAY) / HOUR) });
  if (left >= HOUR) return t("left_hm", { h: Math.floor(left / HOUR), m: Math.floor((left % HOUR) / MINUTE) });
  return t("left_m", { m: Math.ceil(left / MINUTE) });
}

/** When a seat's running vacation runs out (Unix ms), or null when it is not on one. */
function vacationEnds(view, seat) {
  const v = view && view.vacation ? view.vacation[seat] : null;
  return v && v.since !== null && v.since !== undefined ? v.since + v.left : null;
}

/**
 * A seat's vacation: {left (ms, now), on}, or null in a live room or for no such seat.
 * `left` is what was left when it was last switched; a vacation that ran out is over.
 */
export function vacationOf(view, seat, now) {
  const v = view && view.vacation ? view.vacation[seat] : null;
  if (!v) return null;
  const ends = vacationEnds(view, seat);
  if (ends === null) return { on: false, left: Math.max(0, v.left) };
  const left = Math.max(0, Math.min(v.left, ends - now));
  return { on: left > 0, left };
}

/**
 * The time the person to move has of their own.  The server's deadline counts a
 * running vacation as if it runs to its end (app/rooms/domain/correspondence.py), so
 * while the mover is on vacation their own time stands still at what the deadline
 * leaves after the vacation; once it has run out, the clock runs again.
 */
export function moveTimeLeft(view, now) {
  const clock = view.clock;
  if (!clock || !clock.deadline) return null;
  const ends = vacationEnds(view, clock.seat);
  return Math.max(0, clock.deadline - Math.max(now, ends === null ? now : ends));
}

/** The mover's clock in a correspondence room: days and hours, not seconds. */
export function DaysClock({ view, seat, now }) {
  const left = moveTimeLeft(view, now);
  if (left === null) return null;
  const away = vacationOf(view, seat, now);
  const urgent = left < 12 * HOUR && !(away && away.on);
  return html`<span class=${`clock days ${urgent ? "urgent" : ""}`} data-testid="days-clock" data-left=${left}
      title=${t("days_clock_title", { n: view.options.days_per_move || 0 })}>
    <svg class="clock-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="9" r="6" /><path d="M8 9V5.5M6.5 1.5h3" /></svg>
    ${away && away.on ? t("clock_on_vacation", { time: daysHours(left) }) : t("time_left", { time: daysHours(left) })}
  </span>`;
}

/** A seat's vacation left, and whether it is on vacation now (beside its name). */
export function VacationChip({ view, seat, now }) {
  const v = vacationOf(view, seat, now);
  const info = (view.seats || [])[seat] || {};
  if (!v || info.bot) return null;
  return html`<span class=${`vacation-chip ${v.on ? "on" : ""}`} data-testid="vacation-chip" data-seat=${seat}
      data-on=${v.on ? "yes" : "no"} data-left=${v.left}>
    ${v.on ? t("vacation_on_left", { time: daysHours(v.left) }) : t("vacation_left", { time: daysHours(v.left) })}
  </span>`;
}

/**
 * The player's own vacation: the days left and the button that turns it on or off.
 * Starting one asks first (issue 47: one tap stopped the clock for days); ending it
 * does not (the clock simply runs again).
 */
export function VacationBar({ view, connection, now }) {
  const [asking, setAsking] = useState(false);
  const on = !!(view && view.vacation && view.you !== null && view.you !== undefined && view.vacation[view.you] && view.vacation[view.you].since !== null);
  useEffect(() => setAsking(false), [on]); // started (here or on another device): nothing to ask
  const yes = useRef(null);
  useEffect(() => {
    if (asking && yes.current) yes.current.focus(); // the button pressed is gone: focus moves on
  }, [asking]);
  if (!isCorrespondence(view) || view.you === null || view.you === undefined || !connection) return null;
  if (view.status === "finished" || view.closed) return null;
  const v = vacationOf(view, view.you, now);
  if (!v) return null;
  const toggle = () => (v.on ? connection.vacation(false) : setAsking(true));
  const start = () => {
    setAsking(false);
    connection.vacation(true);
  };
  return html`<div class="vacation-bar" role="group" aria-label=${t("vacation")} data-testid="vacation">
    ${asking && !v.on
      ? html`<div class="vacation-confirm" role="group" aria-label=${t("vacation_start")} data-testid="vacation-confirm">
          <span>${t("vacation_confirm", { time: daysHours(v.left) })}</span>
          <button type="button" class="btn small primary" ref=${yes} onClick=${start} data-testid="vacation-confirm-yes">${t("vacation_confirm_yes")}</button>
          <button type="button" class="btn small" onClick=${() => setAsking(false)} data-testid="vacation-confirm-no">${t("cancel")}</button>
        </div>`
      : html`<button type="button" class="btn small" aria-pressed=${v.on} disabled=${!v.on && v.left <= 0}
          data-testid="vacation-toggle" onClick=${toggle}>${v.on ? t("vacation_end") : t("vacation_start")}</button>`}
    <span class="hint" data-testid="vacation-left" data-left=${v.left}>${v.on ? t("vacation_on_left", { time: daysHours(v.left) }) : t("vacation_left", { time: daysHours(v.left) })}</span>
    <span class="sr-only">${t("vacation_help")}</span>
  </div>`;
}

/** The create form's part: live or correspondence, and the days a move may take. */
export function PaceField({ pace, setPace, days, setDays }) {
  const corr = pace === "correspondence";
  return html`<fieldset class="field room-pace" data-testid="room-pace">
    <legend>${t("room_pace")}</legend>
    <div class="segmented" role="radiogroup" aria-label=${t("room_pace")}>
      ${["live", "correspondence"].map(
        (p) => html`<label class=${pace === p ? "on" : ""}>
          <input type="radio" name="room_pace" value=${p} checked=${pace === p} onChange=${() => setPace(p)} />
          <span>${t(`room_pace_${p}`)}</span>
        </label>`,
      )}
    </div>
    <p class="hint">${corr ? t("room_pace_correspondence_hint") : t("room_pace_live_hint")}</p>
    ${corr
      ? html`<div class="field">
          <label for="create-days">${t("days_per_move")}</label>
          <select id="create-days" name="days_per_move" value=${days} onChange=${(e) => setDays(Number(e.target.value))}>
            ${DAYS_PER_MOVE.map((d) => html`<option value=${d}>${t("days_n", { n: d })}</option>`)}
          </select>
        </div>`
      : null}
  </fieldset>`;
}
