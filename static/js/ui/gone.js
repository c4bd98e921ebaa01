// A room that was purged (krypkasino purge, or the server's RETENTION_DAYS):
// say so, with the date and how long after its last game, in the reader's
// language, instead of a bare "not found"; and an address with no page at all.
import { html, useState, useEffect } from "../html.js";
import { t, language } from "../i18n.js";
import * as api from "../api.js";
import { Header, navigate } from "./common.js";

function when(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return d.toLocaleDateString(language(), { year: "numeric", month: "long", day: "numeric" });
  } catch {
    return d.toISOString().slice(0, 10);
  }
}

export function Purged({ store, roomId }) {
  const [info, setInfo] = useState(null);
  useEffect(() => {
    // GET /api/rooms/{id} answers 410 with {"purged_at", "finished_at", "days"}.
    api.getRoom(roomId).then(
      () => {},
      (err) => {
        if (err.data && err.data.purged_at) setInfo(err.data);
      },
    );
  }, [roomId]);
  return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><section class="panel" data-testid="room-purged">
    <h1>${t("room_purged")}</h1>
    <div class="notice" role="alert"><span>${t("err_purged")}</span></div>
    ${info ? html`<p data-testid="purged-detail">${t("purged_detail", { n: info.days, date: when(info.purged_at) })}</p>` : null}
    <p><a href="/" onClick=${(e) => { e.preventDefault(); navigate(store, "/"); }}>${t("back_to_lobby")}</a></p>
  </section></main></div>`;
}

/** An address the app has no page for (the server answered it with 404 and this page). */
export function NotFound({ store }) {
  return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><section class="panel" data-testid="not-found">
    <h1>${t("page_not_found")}</h1>
    <p>${t("page_not_found_text")}</p>
    <p><a href="/" class="btn primary" onClick=${(e) => { e.preventDefault(); navigate(store, "/"); }} data-testid="not-found-lobby">${t("back_to_lobby")}</a></p>
  </section></main></div>`;
}
