// "Continue on another device": a one-time link and its QR code (drawn here, by
// qr.js) that move this seat, and the player key with it, to another device; and
// the /continue page that claims such a link.  The link is
//   <origin>/continue#<code>.<pad>
// where the code is the server's (one time, five minutes) and the pad is this
// browser's random bytes: the server holds the player key only XORed with the pad,
// and the fragment after # never reaches any server.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { encode, pathOf } from "../qr.js";
import { randomBytes, sealKey, toBase64url, adoptKey, openKey } from "../player.js";
import { Header, CopyField, ErrorNotice, navigate, AppLink } from "./common.js";

const QUIET = 4;

export function QrCode({ text, label }) {
  const qr = encode(text);
  const size = qr.size + 2 * QUIET;
  return html`<svg class="qr" viewBox=${`0 0 ${size} ${size}`} role="img" aria-label=${label} data-testid="qr" data-size=${qr.size}
      shape-rendering="crispEdges">
    <rect width=${size} height=${size} fill="#ffffff" />
    <path d=${pathOf(qr, QUIET)} fill="#000000" />
  </svg>`;
}

function useSecondsLeft(deadline) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!deadline) return undefined;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [deadline]);
  return deadline ? Math.max(0, Math.ceil((deadline - now) / 1000)) : null;
}

const clock = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

function TransferDialog({ roomId, onClose }) {
  const [made, setMade] = useState(null);
  const [error, setError] = useState(null);
  const ref = useRef(null);
  const make = async () => {
    setError(null);
    const seat = session.getSeat(roomId);
    if (!seat) {
      setError({ code: "seat_lost" });
      return;
    }
    try {
      const pad = randomBytes(32);
      const res = await api.makeTransfer(roomId, seat.token, sealKey(pad));
      setMade({ link: `${location.origin}/continue#${res.code}.${toBase64url(pad)}`, deadline: Date.now() + res.seconds * 1000 });
    } catch (err) {
      setError({ code: err.code, message: err.message });
    }
  };
  useEffect(() => {
    make();
    const first = ref.current && ref.current.querySelector("button");
    if (first) first.focus();
  }, []);
  const left = useSecondsLeft(made && made.deadline);
  const expired = made && left === 0;
  return html`<div class="overlay" onKeyDown=${(e) => e.key === "Escape" && onClose()}>
    <div class="dialog transfer" role="dialog" aria-modal="true" aria-labelledby="transfer-title" ref=${ref} data-testid="transfer-dialog">
      <h2 id="transfer-title">${t("transfer_title")}</h2>
      <p>${t("transfer_help")}</p>
      <${ErrorNotice} error=${error} />
      ${made && !expired
        ? html`<div class="transfer-body">
            <${QrCode} text=${made.link} label=${t("transfer_qr")} />
            <div class="transfer-link">
              <${CopyField} label=${t("transfer_link")} id="transfer-link" testid="transfer-link" value=${made.link} />
              <p class="hint" role="timer" data-testid="transfer-left">${t("transfer_left", { time: clock(left) })}</p>
              <p class="hint">${t("transfer_after")}</p>
            </div>
          </div>`
        : null}
      ${expired ? html`<p class="notice" role="status">${t("transfer_expired_here")}</p>` : null}
      <div class="btn-row">
        ${expired ? html`<button type="button" class="btn primary" onClick=${make}>${t("transfer_new")}</button>` : null}
        <button type="button" class="btn" onClick=${onClose} data-testid="close-transfer">${t("close")}</button>
      </div>
    </div>
  </div>`;
}

/** The side panel's button for a seated player.  Only where this browser holds the seat's
 * token (the proof a transfer needs): a device seated by its account or player key
 * (issue 47) has the seat already, as has every other device of the player. */
export function TransferButton({ roomId }) {
  const [open, setOpen] = useState(false);
  if (!session.getSeat(roomId)) return null;
  return html`<button type="button" class="btn small" onClick=${() => setOpen(true)} data-testid="open-transfer">${t("transfer_open")}</button>
    ${open ? html`<${TransferDialog} roomId=${roomId} onClose=${() => setOpen(false)} />` : null}`;
}

/** /continue#<code>.<pad>: claim the seat here, open the key, go to the room. */
export function ContinuePage({ store }) {
  const [error, setError] = useState(null);
  useEffect(() => {
    const [code, pad] = location.hash.slice(1).split(".");
    history.replaceState(history.state, "", "/continue"); // the code leaves the address bar
    if (!code || !pad) {
      setError({ code: "transfer_bad_link" });
      return;
    }
    api.claimTransfer(code).then(
      (res) => {
        if (res.sealed) adoptKey(openKey(res.sealed, pad));
        session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: "" });
        navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
      },
      (err) => setError({ code: err.code === "not_found" ? "transfer_unknown" : err.code, message: err.message }),
    );
  }, []);
  return html`<div class="page">
    <${Header} store=${store} />
    <main id="main" class="narrow">
      <section class="panel" aria-labelledby="continue-title">
        <h1 id="continue-title">${t("transfer_title")}</h1>
        ${error
          ? html`<${ErrorNotice} error=${error} /><p><${AppLink} store=${store} href="/">${t("back_to_lobby")}<//></p>`
          : html`<p class="loading" role="status" data-testid="continuing">${t("transfer_claiming")}</p>`}
      </section>
    </main>
  </div>`;
}
