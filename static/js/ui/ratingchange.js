// Ratings as people see them (issue 47): the number shown is the estimate mu, one
// decimal, marked "?" while it is provisional (sigma still high: a new player starts at
// 25?, never at the cautious mu - 3 sigma of 0 or below), and the match result's
// rating change (±) once the server has rated the match.  A match is rated just after
// its last play is committed, by the process that committed it, so the result first
// says "updating ratings" and asks GET .../rating?pending=true again (backing off)
// until the rating is there.  Used by the summary (summary.js), the profile and the
// leaderboard (ratings.js): one way of showing a rating everywhere.
import { html, useState, useEffect } from "../html.js";
import { t, num } from "../i18n.js";
import * as api from "../api.js";
import { seatName } from "./words.js";

const FIRST_MS = 300;
const MAX_MS = 5000;
const GIVE_UP_MS = 120000;

/** A shown rating: `{mu, provisional}` as every rating answer carries it. */
export function ShownRating({ r }) {
  if (!r || typeof r.mu !== "number") return "–";
  return html`<span class="shown-rating" data-provisional=${r.provisional ? "true" : "false"}>${num(r.mu, 1)}${r.provisional
    ? html`<abbr class="provisional" title=${t("rating_provisional")} aria-label=${t("rating_provisional")}>?</abbr>`
    : null}</span>`;
}

/** A change of a shown rating to one decimal: "+3.3", "−1.2", "±0". */
export function ratingDelta(change) {
  const d = Math.round((change || 0) * 10) / 10;
  return d > 0 ? `+${num(d, 1)}` : d < 0 ? num(d, 1) : `±${num(0, 1)}`;
}

/** The match's rating, asked again while it is pending: null while loading, then the
 * answer (`pending`, `rated`, `seats`), or `{failed: true}` when the server never gave
 * one within GIVE_UP_MS. */
function useMatchRating(roomId, match, enabled) {
  const [found, setFound] = useState(null);
  useEffect(() => {
    setFound(null);
    if (!enabled) return undefined;
    let stopped = false;
    let timer = null;
    let wait = FIRST_MS;
    const started = Date.now();
    const again = () => {
      if (Date.now() - started > GIVE_UP_MS) return setFound({ failed: true });
      timer = setTimeout(ask, wait);
      wait = Math.min(MAX_MS, wait * 2);
      return undefined;
    };
    function ask() {
      api.matchRating(roomId, match).then(
        (r) => {
          if (stopped) return;
          setFound(r);
          if (r.pending) again();
        },
        () => !stopped && again(),
      );
    }
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [roomId, match, enabled]);
  return found;
}

/** The result's rating change of a finished rated match, every person's seat (bots keep
 * their fixed ratings: not listed), this browser's own first. */
export function RatingChange({ view, roomId }) {
  // a room an operator closed before the end is not rated (docs/ratings.md)
  const on = !!(view && view.status === "finished" && !view.closed && view.options && view.options.rated && view.match_no);
  const found = useMatchRating(roomId, view ? view.match_no : null, on);
  if (!on) return null;
  if (!found || found.pending || found.failed) {
    return html`<p class="rating-change pending" role="status" data-testid="rating-pending">${found && found.failed ? t("rating_later") : t("rating_pending")}</p>`;
  }
  if (!found.rated) return html`<p class="rating-change" role="status" data-testid="rating-void">${t("rating_void")}</p>`;
  const people = found.seats.filter((s) => !s.bot_level);
  const mine = (s) => s.seat === view.you;
  people.sort((a, b) => Number(mine(b)) - Number(mine(a)) || a.seat - b.seat);
  return html`<div class="rating-change" role="status" data-testid="rating-result">
    <h3>${t("leaderboard_rating")}</h3>
    <ul>
      ${people.map((s) => html`<li class=${mine(s) ? "me" : ""} data-testid="rating-seat" data-seat=${s.seat}>
        <span class="who">${seatName(view, s.seat)}</span>
        <strong data-k="after"><${ShownRating} r=${s.after} /></strong>
        <span class=${`delta ${s.change > 0 ? "up" : s.change < 0 ? "down" : ""}`} data-k="change">${ratingDelta(s.change)}</span>
      </li>`)}
    </ul>
  </div>`;
}
