// Short animations of what just happened at the table: a new packet, the
// cards a capture took, a sweep.  They are drawn over the felt, take no input
// (pointer-events: none) and hide nothing the player needs, so they never hold
// up play.  The stylesheet times them by the animation-speed setting
// (--anim, data-anim="off") and turns them off under prefers-reduced-motion.
import { html } from "../html.js";
import { t } from "../i18n.js";
import { CardFace } from "./cardsvg.js";
import { packetText } from "./panels.js";

/** "New packet dealt", while no card of it has been played yet. */
export function PacketNotice({ view }) {
  if (view.deal_over) return null;
  const marks = view.packets || []; // where the server's engine dealt them
  const last = marks[marks.length - 1];
  if (!last || last.after !== (view.log || []).length) return null;
  return html`<div class="packet-fx" aria-hidden="true" data-testid="new-packet" key=${`packet${last.after}`}>
    <strong>${t("packet_banner")}</strong> <span class="packet-detail">${packetText(last)}</span>
  </div>`;
}

/**
 * The last capture's cards gathering toward the capturer (down for you, up for
 * the others), and a flash of the felt's edge for a sweep.
 */
export function PlayEffects({ view }) {
  const m = view.last_move;
  if (!m || m.kind === "creep") return null;
  const n = (view.log || []).length;
  const mine = m.seat === view.you;
  const sweep = m.kind === "sweep" || m.kind === "double_sweep";
  return html`<div class="fx-layer" aria-hidden="true" key=${`fx${view.deal_no}.${n}`}>
    <div class=${`capture-fx ${mine ? "to-me" : "to-them"}`} data-testid="capture-fx">
      ${[m.card, ...(m.taken || [])].slice(0, 8).map((c) => html`<span class="mini"><${CardFace} code=${c} /></span>`)}
    </div>
    ${sweep ? html`<div class=${`sweep-fx ${m.kind}`} data-testid="sweep-fx"></div>` : null}
  </div>`;
}
