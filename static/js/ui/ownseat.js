// A player's own seat, wherever they are (issue 47).
//
// The server seats a room's player on every device: a connection without the seat's
// token says hello with `own`, and the server looks at the signed-in account and the
// player keys (app/api/own_seat.py).  The pages that only show a room's past (the
// replay, "learn from your mistakes") ask GET /api/rooms/<id>/seats/mine the same
// question, so they too know whose deal it was on a device that never took the seat.
// A spectator who could sit (a free seat while the room waits, or the seat its player
// holds after it moved elsewhere) is offered it by `SitOffer`.
import { html, useState, useEffect } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";

/** This player's seat in the room: the one this browser took (its token), else the one
 * the server says the account or a player key holds; null while unknown or none. */
export function useOwnSeat(roomId, enabled = true) {
  const saved = session.getSeat(roomId);
  const local = saved && Number.isInteger(saved.seat) ? saved.seat : null;
  const [asked, setAsked] = useState(null);
  useEffect(() => {
    setAsked(null);
    if (local !== null || !enabled) return undefined;
    let alive = true;
    api.mySeat(roomId).then(
      (r) => alive && setAsked(Number.isInteger(r.seat) ? r.seat : null),
      () => {}, // no answer: the page stays as for a spectator
    );
    return () => {
      alive = false;
    };
  }, [roomId, local, enabled]);
  return local !== null ? local : asked;
}

/** For a spectator: "Take your seat" when the server says a seat of the room is this
 * player's, "Take a seat" when the room waits with a seat free; nothing otherwise.
 * `onOwn` sits down in the player's seat, `onFree` opens the form that takes a free one. */
export function SitOffer({ roomId, view, onOwn, onFree }) {
  const spectator = !!view && (view.you === null || view.you === undefined);
  const mine = useOwnSeat(roomId, spectator);
  if (!spectator) return null;
  if (mine !== null && (view.seats || []).some((s) => s.seat === mine)) {
    return html`<button type="button" class="btn small primary sit-offer" onClick=${onOwn} data-testid="take-own-seat"
      data-seat=${mine}>${t("take_your_seat")}</button>`;
  }
  const free = (view.seats || []).some((s) => !s.name);
  if (view.status === "waiting" && free) {
    return html`<button type="button" class="btn small primary sit-offer" onClick=${onFree} data-testid="sit-down">${t("take_seat")}</button>`;
  }
  return null;
}
