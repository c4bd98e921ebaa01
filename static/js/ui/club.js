// Clubs (issue 49): the signed-in person's clubs and a form to make one (/clubs),
// joining through an invite link (/clubs/join#<token>), and a club's page
// (/clubs/<id>): its description, its open rooms and a form to make a club-only room
// (for members), its tournaments (clubevents.js), members and roles, its members'
// leaderboard, and for its owner and organisers the invite link and the join
// requests.  Everything shown is text (never HTML): names and descriptions are
// people's words.
import { html, useState, useEffect } from "../html.js";
import { t, num } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { Header, ErrorNotice, AppLink, CopyField, navigate } from "./common.js";
import { COUNTS, profilePath } from "./ratings.js";
import { ClubEvents } from "./clubevents.js";

export const clubPath = (id) => `/clubs/${encodeURIComponent(id)}`;
const shown = (err) => ({ code: err.code, message: err.message });

function Page({ store, title, testid, children }) {
  return html`<div class="page history">
    <${Header} store=${store} />
    <main id="main" class="history-main">
      <div class="replay-head">
        <h1 data-testid=${testid}>${title}</h1>
        <nav class="replay-links" aria-label=${t("replay_links")}>
          <${AppLink} store=${store} href="/clubs">${t("clubs_title")}<//>${" · "}
          <${AppLink} store=${store} href="/">${t("back_to_lobby")}<//>
        </nav>
      </div>
      ${children}
    </main>
  </div>`;
}

/** /clubs: my clubs, and making one. */
export function ClubsPage({ store }) {
  const [clubs, setClubs] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  useEffect(() => {
    api.myClubs().then((r) => setClubs(r.clubs), (err) => setError(shown(err)));
  }, []);
  const make = async (ev) => {
    ev.preventDefault();
    setError(null);
    try {
      const club = await api.makeClub(name, description);
      navigate(store, clubPath(club.id));
    } catch (err) {
      setError(shown(err));
    }
  };
  return html`<${Page} store=${store} title=${t("clubs_title")} testid="clubs-title">
    <${ErrorNotice} error=${error} />
    ${clubs === null
      ? error ? null : html`<p class="loading" role="status">${t("loading")}</p>`
      : html`<section class="panel" aria-labelledby="my-clubs">
          <h2 id="my-clubs">${t("clubs_mine")}</h2>
          ${clubs.length
            ? html`<ul data-testid="my-clubs">${clubs.map((c) => html`<li data-club=${c.id}>
                <${AppLink} store=${store} href=${clubPath(c.id)}>${c.name}<//>
                ${" · "}${t(`club_role_${c.role}`)} · ${t("club_members_n", { n: c.member_count })}
                ${c.closed ? html` · <span class="badge">${t("club_closed_badge")}</span>` : null}
              </li>`)}</ul>`
            : html`<p class="hint" data-testid="my-clubs-empty">${t("clubs_none")}</p>`}
        </section>
        <${FindClub} store=${store} />
        <section class="panel" aria-labelledby="new-club">
          <h2 id="new-club">${t("club_make")}</h2>
          <form onSubmit=${make} data-testid="club-form">
            <label for="club-name">${t("club_name")}</label>
            <input id="club-name" data-testid="club-name" required minlength="3" maxlength="40"
              value=${name} onInput=${(e) => setName(e.target.value)} />
            <label for="club-description">${t("club_description")}</label>
            <textarea id="club-description" data-testid="club-description" maxlength="500" rows="3"
              value=${description} onInput=${(e) => setDescription(e.target.value)}></textarea>
            <button type="submit" class="btn primary" data-testid="club-make">${t("club_make")}</button>
          </form>
        </section>`}
  <//>`;
}

/** Finding a club by its name (the directory of open clubs), to open its page and ask to join. */
function FindClub({ store }) {
  const [q, setQ] = useState("");
  const [found, setFound] = useState(null);
  const [error, setError] = useState(null);
  const search = async (ev) => {
    ev.preventDefault();
    setError(null);
    try {
      setFound((await api.findClubs(q)).clubs);
    } catch (err) {
      setError(shown(err));
    }
  };
  return html`<section class="panel" aria-labelledby="find-club">
    <h2 id="find-club">${t("club_find")}</h2>
    <form onSubmit=${search} role="search" data-testid="club-find-form">
      <label for="club-find">${t("club_find_label")}</label>
      <input id="club-find" type="search" data-testid="club-find" maxlength="40" value=${q} onInput=${(e) => setQ(e.target.value)} />
      <button type="submit" class="btn" data-testid="club-find-go">${t("club_find_go")}</button>
    </form>
    <${ErrorNotice} error=${error} />
    ${found === null
      ? null
      : found.length
        ? html`<ul data-testid="club-found" aria-live="polite">${found.map((c) => html`<li data-club=${c.id}>
            <${AppLink} store=${store} href=${clubPath(c.id)}>${c.name}<//>${" · "}${t("club_members_n", { n: c.member_count })}
          </li>`)}</ul>`
        : html`<p class="hint" data-testid="club-found-none" aria-live="polite">${t("club_found_none")}</p>`}
  </section>`;
}

/** /clubs/join#<token>: join through an invite link, when the person says so. */
export function ClubJoinPage({ store }) {
  const invite = decodeURIComponent(location.hash.replace(/^#/, ""));
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const join = async () => {
    setBusy(true);
    setError(null);
    try {
      const club = await api.joinClub(invite);
      navigate(store, clubPath(club.id));
    } catch (err) {
      setError(shown(err));
      setBusy(false);
    }
  };
  return html`<${Page} store=${store} title=${t("club_join_title")} testid="club-join-title">
    <${ErrorNotice} error=${error} />
    ${invite
      ? html`<p>${t("club_join_text")}</p>
        <button type="button" class="btn primary" disabled=${busy} onClick=${join} data-testid="club-join">${t("club_join")}</button>`
      : html`<p class="hint">${t("err_bad_invite")}</p>`}
  <//>`;
}

function Members({ club, act }) {
  const owner = club.you === "owner";
  const organiser = owner || club.you === "organiser";
  return html`<table class="score-table" data-testid="club-members">
    <thead><tr><th scope="col">${t("club_member")}</th><th scope="col">${t("club_role")}</th>
      ${organiser && !club.closed ? html`<th scope="col"><span class="sr-only">${t("club_actions")}</span></th>` : null}</tr></thead>
    <tbody>${club.members.map((m) => html`<tr data-testid="club-member" data-username=${m.username} data-role=${m.role}>
      <th scope="row">${m.username}</th>
      <td>${owner && m.role !== "owner" && !club.closed
        ? html`<select aria-label=${t("club_role_of", { name: m.username })} value=${m.role}
            onChange=${(e) => act(() => api.setClubRole(club.id, m.username, e.target.value), e.target.value === "owner" ? t("club_hand_over_confirm", { name: m.username }) : null)}>
            ${["member", "organiser", "owner"].map((r) => html`<option value=${r}>${t(`club_role_${r}`)}</option>`)}
          </select>`
        : t(`club_role_${m.role}`)}</td>
      ${organiser && !club.closed ? html`<td>${m.role !== "owner" && (owner || m.role === "member")
        ? html`<button type="button" class="btn small" data-testid="club-remove"
            onClick=${() => act(() => api.removeClubMember(club.id, m.username), t("club_remove_confirm", { name: m.username }))}>${t("club_remove")}</button>`
        : null}</td>` : null}
    </tr>`)}</tbody>
  </table>
  ${club.member_count > club.members.length ? html`<p class="hint">${t("club_members_n", { n: club.member_count })}</p>` : null}`;
}

function Leaderboard({ club, players, setPlayers }) {
  const rows = club.leaderboard.rows;
  return html`<label for="club-players">${t("club_players")}</label>
    <select id="club-players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
      ${COUNTS.map((n) => html`<option value=${n}>${t("ratings_players_n", { n })}</option>`)}
    </select>
    ${rows.length
      ? html`<table class="score-table leaderboard" data-testid="club-leaderboard">
          <thead><tr><th scope="col">#</th><th scope="col">${t("club_member")}</th>
            <th scope="col">${t("leaderboard_rating")}</th><th scope="col">${t("leaderboard_matches")}</th></tr></thead>
          <tbody>${rows.map((r, i) => html`<tr data-username=${r.username}>
            <th scope="row">${i + 1}</th><td><a href=${profilePath(r.username)}>${r.username}</a></td>
            <td>${num(r.mu, 1)}${r.provisional ? "?" : ""}</td><td>${r.matches}</td>
          </tr>`)}</tbody>
        </table>`
      : html`<p class="hint" data-testid="club-leaderboard-empty">${t("club_leaderboard_empty")}</p>`}`;
}

function Organising({ club, act, link, setLink }) {
  const renew = () => act(async () => setLink(await api.renewClubInvite(club.id)));
  const full = link ? `${location.origin}${link.url}` : "";
  return html`<section class="panel" aria-labelledby="club-invite">
    <h2 id="club-invite">${t("club_invite")}</h2>
    ${link
      ? html`<${CopyField} label=${t("club_invite_link")} value=${full} id="club-invite-link" testid="club-invite-link" />`
      : html`<p class="hint">${club.invite_expires_ms ? t("club_invite_active") : t("club_invite_none")}</p>`}
    <button type="button" class="btn" onClick=${renew} data-testid="club-invite-new">${t("club_invite_new")}</button>
    ${club.invite_expires_ms ? html` <button type="button" class="btn" data-testid="club-invite-revoke"
      onClick=${() => act(async () => { await api.revokeClubInvite(club.id); setLink(null); })}>${t("club_invite_revoke")}</button>` : null}
    <h2>${t("club_requests")}</h2>
    ${club.requests.length
      ? html`<ul data-testid="club-requests">${club.requests.map((r) => html`<li data-username=${r.username}>
          ${r.username}${" "}
          <button type="button" class="btn small" onClick=${() => act(() => api.answerClubRequest(club.id, r.username, "accept"))}>${t("club_accept")}</button>
          <button type="button" class="btn small" onClick=${() => act(() => api.answerClubRequest(club.id, r.username, "refuse"))}>${t("club_refuse")}</button>
        </li>`)}</ul>`
      : html`<p class="hint">${t("club_requests_none")}</p>`}
  </section>`;
}

/**
 * A club's open rooms (its members see them) and a form to make one: a club-only
 * room, whose seats only the club's members take (the server checks).
 */
function ClubRooms({ store, club, myName }) {
  const [players, setPlayers] = useState(4);
  const [bots, setBots] = useState(0);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const make = async (ev) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api.createRoom({ players, name: myName, bots: Math.min(bots, players - 1), bot_level: "greedy", rules: {}, club_id: club.id });
      session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: myName });
      navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
    } catch (err) {
      setError(shown(err));
      setBusy(false);
    }
  };
  return html`<section class="panel" aria-labelledby="club-rooms-title">
    <h2 id="club-rooms-title">${t("club_rooms")}</h2>
    ${club.rooms.length
      ? html`<ul class="club-rooms" data-testid="club-rooms">${club.rooms.map((r) => html`<li data-testid="club-room" data-room=${r.room_id}>
          <${AppLink} store=${store} href=${`/r/${encodeURIComponent(r.room_id)}`}>${r.names.map((n) => n || t("free_seat")).join(", ")}<//>
          ${" · "}${t("public_seats", { taken: r.names.filter((n) => n).length, n: r.players })}
        </li>`)}</ul>`
      : html`<p class="hint" data-testid="club-rooms-none">${t("club_rooms_none")}</p>`}
    <form class="club-room-form" onSubmit=${make} data-testid="club-room-form">
      <label>${t("players")} <select data-testid="club-room-players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
        ${[2, 3, 4, 5, 6].map((n) => html`<option value=${n}>${n}</option>`)}
      </select></label>
      <label>${t("bots")} <select data-testid="club-room-bots" value=${bots} onChange=${(e) => setBots(Number(e.target.value))}>
        ${[0, 1, 2, 3, 4, 5].filter((n) => n < players).map((n) => html`<option value=${n}>${n}</option>`)}
      </select></label>
      <button type="submit" class="btn primary" disabled=${busy || !myName} data-testid="club-room-make">${t("club_room_make")}</button>
    </form>
    <p class="hint">${t("club_rooms_hint")}</p>
    <${ErrorNotice} error=${error} />
  </section>`;
}

/** /clubs/<id>: a club's page. */
export function ClubPage({ store, route }) {
  const [club, setClub] = useState(null);
  const [error, setError] = useState(null);
  const [players, setPlayers] = useState(2);
  const [link, setLink] = useState(null);
  const [myName, setMyName] = useState(null);
  useEffect(() => {
    api.me().then((a) => setMyName(a ? a.username : null), () => setMyName(null));
  }, []);
  const load = () => api.getClub(route.clubId, players).then(setClub, (err) => setError(shown(err)));
  useEffect(() => {
    load();
  }, [route.clubId, players]);
  const act = async (fn, confirmText = null) => {
    if (confirmText && !window.confirm(confirmText)) return;
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(shown(err));
    }
    await load();
  };
  const you = club && club.you;
  return html`<${Page} store=${store} title=${club ? club.name : t("club_title")} testid="club-title">
    <${ErrorNotice} error=${error} onClose=${() => setError(null)} />
    ${club === null
      ? error ? null : html`<p class="loading" role="status">${t("loading")}</p>`
      : html`${club.closed ? html`<p class="notice" role="status" data-testid="club-closed">${t("club_closed")}</p>` : null}
        ${club.description ? html`<p class="club-description" style=${{ whiteSpace: "pre-wrap" }} data-testid="club-description">${club.description}</p>` : null}
        <p data-testid="club-you">${you ? t("club_you_are", { role: t(`club_role_${you}`) }) : t("club_not_member")}</p>
        ${!club.closed && !you
          ? club.requested
            ? html`<p class="hint" data-testid="club-requested">${t("club_requested")}</p>`
            : html`<button type="button" class="btn primary" data-testid="club-ask" onClick=${() => act(() => api.askToJoinClub(club.id))}>${t("club_ask")}</button>`
          : null}
        ${you && !club.closed ? html`<${ClubRooms} store=${store} club=${club} myName=${myName} />` : null}
        <${ClubEvents} store=${store} club=${club} />
        <section class="panel" aria-labelledby="club-members-title">
          <h2 id="club-members-title">${t("club_members")}</h2>
          <${Members} club=${club} act=${act} />
        </section>
        <section class="panel" aria-labelledby="club-board-title">
          <h2 id="club-board-title">${t("club_leaderboard")}</h2>
          <${Leaderboard} club=${club} players=${players} setPlayers=${setPlayers} />
        </section>
        ${(you === "owner" || you === "organiser") && !club.closed ? html`<${Organising} club=${club} act=${act} link=${link} setLink=${setLink} />` : null}
        ${you && myName && !club.closed
          ? html`<p>${you !== "owner"
              ? html`<button type="button" class="btn" data-testid="club-leave" onClick=${() => act(() => api.removeClubMember(club.id, myName), t("club_leave_confirm"))}>${t("club_leave")}</button>`
              : html`<button type="button" class="btn danger" data-testid="club-close" onClick=${() => act(() => api.closeClub(club.id), t("club_close_confirm"))}>${t("club_close")}</button>`}</p>`
          : null}`}
  <//>`;
}
