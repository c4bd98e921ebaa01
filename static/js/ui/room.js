// A room: take a seat (invite link), wait for the others, then play or watch.
import { html, useState, useEffect, useRef } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { Connection } from "../connection.js";
import { useStore } from "../store.js";
import { Header, CopyField, ErrorNotice, ConnBadge, navigate, parseRoute, roomUrl } from "./common.js";
import { GameScreen } from "./table.js";
import { SeatBadges } from "./seats.js";
import { Purged } from "./gone.js";
import { SignInFirst } from "./account.js";
import { shownName } from "./words.js";
import { dropKey, playerKey } from "../player.js";
import { DailyDone } from "./daily.js";
import { SitOffer } from "./ownseat.js";

function RulesList({ rules }) {
  if (!rules) return null;
  const on = Object.keys(rules).filter((k) => rules[k] === true).map((k) => t(`rule_${k}`));
  if (rules.match_deals) on.push(t("length_deals_n", { n: rules.match_deals }));
  if (rules.match_limit) on.push(t("length_limit_n", { n: rules.match_limit }));
  return html`<p class="rules-list"><strong>${t("rules")}:</strong> ${on.length ? on.join(" · ") : t("rules_standard")}</p>`;
}

/** Someone opened an invite link without a seat: ask for a name and take one. */
function JoinRoom({ store, roomId, onSeated, onMissing, notice }) {
  const [summary, setSummary] = useState(null);
  const [error, setError] = useState(notice ? { code: notice } : null);
  const [name, setName] = useState(session.getName());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.getRoom(roomId).then(setSummary, (err) => {
      // 404 for an unknown room; a malformed room id is refused with 422; 410 once purged.
      if (err.status === 410) onMissing("purged");
      else if (err.code === "sign_in_required") onMissing(err.code); // a members-only server
      else if (err.status === 404 || err.status === 422) onMissing("not_found");
      else setError({ code: err.code, message: err.message });
    });
  }, [roomId]);
  const free = summary ? summary.seats.filter((s) => s.name === null).length : 0;
  const seatless = !!summary && (free === 0 || summary.status !== "waiting");
  useEffect(() => {
    // No seat to take (full, or the game began): a link to the room is a link to watch
    // it, so open the table as a spectator at once, in place of this page in history.
    if (!seatless || notice) return;
    const path = `/r/${encodeURIComponent(roomId)}?watch=1`;
    history.replaceState({}, "", path);
    store.set({ route: parseRoute(new URL(path, location.href)) });
  }, [seatless]);
  const submit = async (ev) => {
    ev.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.takeSeat(roomId, name.trim());
      session.saveName(name.trim());
      const seat = { token: res.token, seat: res.seat, name: name.trim() };
      session.saveSeat(roomId, seat);
      onSeated(seat);
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
      api.getRoom(roomId).then(setSummary, () => {});
    }
  };
  const watch = () => navigate(store, `/r/${encodeURIComponent(roomId)}?watch=1`);
  return html`<div class="page join-room">
    <${Header} store=${store} />
    <main id="main" class="narrow">
      <section class="panel" aria-labelledby="joinroom-title">
        <h1 id="joinroom-title">${t("join_room_title")}</h1>
        ${summary
          ? html`<p>${t("room_info", { code: summary.code, players: summary.players })}</p>
              <${RulesList} rules=${summary.rules} />
              <ul class="seat-list">
                ${summary.seats.map((s) => html`<li class=${s.name ? "taken" : "free"}>
                  <span class="seat-no">${s.seat + 1}</span>
                  <span>${shownName(s) || t("free_seat")}</span>
                  ${s.bot ? html`<span class="badge bot">${t("bot")}</span>` : null}
                  ${s.outside_bot ? html`<span class="badge outside-bot" title=${t("outside_bot_help")}>${t("outside_bot")}</span>` : null}
                </li>`)}
              </ul>`
          : null}
        <${ErrorNotice} error=${error} />
        ${summary && free > 0 && summary.status === "waiting"
          ? html`<form onSubmit=${submit} class="join-form" data-testid="join-form">
              <div class="field">
                <label for="join-name">${t("your_name")}</label>
                <input id="join-name" maxlength="24" autocomplete="nickname" required value=${name} onInput=${(e) => setName(e.target.value)} />
              </div>
              <div class="btn-row">
                <button type="submit" class="btn primary" disabled=${busy} data-testid="take-seat">${t("take_seat")}</button>
                <button type="button" class="btn" onClick=${watch}>${t("watch_instead")}</button>
              </div>
            </form>`
          : summary
            ? html`<p>${t("room_full_watch")}</p><div class="btn-row"><button type="button" class="btn primary" onClick=${watch}>${t("watch")}</button></div>`
            : null}
      </section>
    </main>
  </div>`;
}

function WaitingRoom({ store, state, roomId, offer }) {
  const { view, presence, conn } = state;
  const seats = view.seats || [];
  const missing = seats.filter((s) => !s.name).length;
  return html`<div class="page waiting">
    <${Header} store=${store}><${ConnBadge} conn=${conn} /><//>
    <main id="main" class="narrow">
      <section class="panel" aria-labelledby="wait-title" data-testid="waiting-room">
        <h1 id="wait-title">${t("waiting_title")}</h1>
        <p class="big-code" aria-label=${`${t("room_code")}: ${view.code}`}>
          <span class="code-label">${t("room_code")}</span>
          <span class="code" data-testid="room-code">${view.code}</span>
        </p>
        <${CopyField} label=${t("invite_link")} id="invite-link" testid="invite-link" value=${roomUrl(roomId)} />
        <${CopyField} label=${t("spectate_link")} id="spectate-link" testid="spectate-link" value=${roomUrl(roomId, true)} />
        ${view.options && view.options.rated ? html`<p class="rated-note" data-testid="rated-note"><span class="badge rated">${t("rated_room")}</span> <span class="hint">${t("rated_room_hint")}</span></p>` : null}
        <${RulesList} rules=${view.rules} />
        <h2>${t("seats")}</h2>
        <ul class="seat-list" data-testid="seat-list">
          ${seats.map((s) => html`<li class=${s.name ? "taken" : "free"}>
            <span class="seat-no">${s.seat + 1}</span>
            <span class="seat-name">${shownName(s) || t("free_seat")}${s.seat === view.you ? html` <span class="hint">(${t("you")})</span>` : null}</span>
            ${s.name ? html`<${SeatBadges} view=${view} seat=${s.seat} presence=${presence} />` : null}
          </li>`)}
        </ul>
        <p class="waiting-note" role="status">${missing ? t("waiting_for", { n: missing }) : t("starting")}</p>
        ${view.you === null || view.you === undefined ? html`<p class="badge watching" data-testid="watching">${t("watching")}</p>` : null}
        ${offer}
      </section>
    </main>
  </div>`;
}

export function Room({ store, route }) {
  const { roomId, watch } = route;
  const state = useStore(store);
  const [mode, setMode] = useState(null);
  const connRef = useRef(null);

  useEffect(() => {
    // A seat this browser took is sat in, even from the link to watch; without its
    // token, the server seats a player whose account or player key holds a seat
    // (`own`, issue 47), so a seated player never gets the form to take another one.
    const seat = session.getSeat(roomId);
    if (seat || watch) {
      setMode(seat ? { kind: "play", seat } : { kind: "watch" });
      return undefined;
    }
    let alive = true;
    setMode(null);
    api.mySeat(roomId).then(
      (r) => alive && setMode({ kind: Number.isInteger(r.seat) ? "watch" : "join" }),
      () => alive && setMode({ kind: "join" }),
    );
    return () => {
      alive = false;
    };
  }, [roomId, watch]);

  useEffect(() => {
    if (!mode || (mode.kind !== "play" && mode.kind !== "watch")) return undefined;
    const play = mode.kind === "play";
    store.set({ view: null, seq: null, presence: null, conn: "connecting", pending: null, pendingCard: null, error: null, chat: [], reactions: [], watching: null, chatError: null });
    const c = new Connection({
      roomId,
      token: play ? mode.seat.token : null,
      own: !play && mode.own !== false,
      who: play ? `seat${mode.seat.seat}` : "watch",
      store,
      onFatal: (code, msg) => {
        if (code === "seat_moved") {
          // The seat continues on another device: watch from here, and say why (the
          // player may take it up again: SitOffer).
          if (play) session.forgetSeat(roomId);
          if (play && msg && msg.reason === "transfer") dropKey(playerKey());
          setMode({ kind: "watch", own: false, notice: `seat_moved_${msg && msg.reason === "reclaim" ? "reclaim" : "transfer"}` });
        } else if (code === "unauthorized" && play) {
          session.forgetSeat(roomId);
          setMode({ kind: "join", notice: "seat_lost" });
        } else setMode({ kind: "missing", code });
      },
    });
    connRef.current = c;
    if (mode.notice && mode.kind === "watch") store.set({ error: { code: mode.notice } });
    if (window.__krypkasino) window.__krypkasino.connection = c; // a handle for the browser tests
    return () => {
      c.close();
      connRef.current = null;
      store.set({ view: null, seq: null, presence: null, pending: null, pendingCard: null, error: null, review: null, chat: [], reactions: [] });
    };
  }, [mode, roomId]);

  if (!mode) {
    return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><p class="loading" role="status">${t("connecting")}</p></main></div>`;
  }
  if (mode.kind === "join") {
    return html`<${JoinRoom} store=${store} roomId=${roomId} notice=${mode.notice}
      onSeated=${(seat) => setMode({ kind: "play", seat })} onMissing=${(code) => setMode({ kind: "missing", code })} />`;
  }
  if (mode.kind === "missing" && mode.code === "purged") return html`<${Purged} store=${store} roomId=${roomId} />`;
  if (mode.kind === "missing" && mode.code === "sign_in_required") return html`<${SignInFirst} store=${store} />`;
  if (mode.kind === "missing") {
    return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><section class="panel">
      <h1>${t("room_missing")}</h1><${ErrorNotice} error=${{ code: mode.code }} />
      <p><a href="/" onClick=${(e) => { e.preventDefault(); navigate(store, "/"); }}>${t("back_to_lobby")}</a></p>
    </section></main></div>`;
  }
  const view = state.view;
  if (!view) {
    return html`<div class="page"><${Header} store=${store}><${ConnBadge} conn=${state.conn} /><//>
      <main id="main" class="narrow"><p class="loading" role="status">${t("connecting")}</p></main></div>`;
  }
  // A spectator who could sit is offered it: its own seat, or a free one while the room waits.
  const offer = html`<${SitOffer} roomId=${roomId} view=${view}
    onOwn=${() => setMode({ kind: "watch", own: true })} onFree=${() => {
      history.replaceState({}, "", `/r/${encodeURIComponent(roomId)}`); // the invite link, not the one to watch
      setMode({ kind: "join" });
    }} />`;
  if (view.status === "waiting") return html`<${WaitingRoom} store=${store} state=${state} roomId=${roomId} offer=${offer} />`;
  return html`<${GameScreen} store=${store} state=${state} connection=${connRef.current} roomId=${roomId} offer=${offer} />
    <${DailyDone} store=${store} roomId=${roomId} view=${view} />`;
}
