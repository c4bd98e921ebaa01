// A club's tournaments on its page (issue 49): the list of its events, each a link to
// its page (/tournaments/<id>), and for the club's owner and organisers a form to
// make one (POST /api/tournaments with the club's id), which then opens the event.
import { html, useState } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import { ErrorNotice, AppLink, navigate } from "./common.js";
import { tournamentPath, formatName, stateName, roundEvery } from "./tournament.js";

const ROUNDS_MAX = 15; // app/tournaments/plan.py
const BOARDS_MAX = 36;
const MINUTES_MAX = 720;
const ROUND_EVERY = [15, 30, 60, 1440, 10080]; // Swiss rounds at set times: minutes apart

function EventForm({ store, club }) {
  const [name, setName] = useState("");
  const [format, setFormat] = useState("swiss");
  const [players, setPlayers] = useState(2);
  const [count, setCount] = useState(3); // rounds (Swiss), boards (duplicate) or minutes (arena)
  const [deals, setDeals] = useState(""); // deals per table's match ("": the rules' own)
  const [onePack, setOnePack] = useState(false); // V2: two players, one pack
  const [entry, setEntry] = useState("club");
  const [every, setEvery] = useState(""); // Swiss: minutes between rounds' set times ("": none)
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const duplicate = format === "duplicate";
  const arena = format === "arena";
  const make = async (ev) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { name, format, players, entry, club_id: club.id };
      if (duplicate) body.boards = count;
      else if (arena) body.minutes = count;
      else {
        body.rounds = count;
        if (every) body.round_minutes = Number(every);
      }
      const rules = {};
      if (deals && !duplicate) rules.match_deals = Number(deals);
      if (onePack && players === 2) rules.single_pack = true;
      if (Object.keys(rules).length) body.rules = rules;
      const made = await api.makeTournament(body);
      navigate(store, tournamentPath(made.id));
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  const most = duplicate ? BOARDS_MAX : arena ? MINUTES_MAX : ROUNDS_MAX;
  const countWord = duplicate ? t("tournament_boards") : arena ? t("tournament_minutes") : t("tournament_rounds");
  return html`<form class="club-room-form" onSubmit=${make} data-testid="club-event-form" aria-labelledby="club-event-make">
    <h3 id="club-event-make" style=${{ flexBasis: "100%", margin: 0 }}>${t("club_event_make")}</h3>
    <label>${t("tournament_name")} <input data-testid="club-event-name" required minlength="3" maxlength="60"
      value=${name} onInput=${(e) => setName(e.target.value)} /></label>
    <label>${t("tournament_format")} <select data-testid="club-event-format" value=${format} onChange=${(e) => setFormat(e.target.value)}>
      <option value="swiss">${t("tournament_format_swiss")}</option>
      <option value="duplicate">${t("tournament_format_duplicate")}</option>
      <option value="arena">${t("tournament_format_arena")}</option>
    </select></label>
    <label>${t("tournament_players")} <select data-testid="club-event-players" value=${players} onChange=${(e) => setPlayers(Number(e.target.value))}>
      ${[2, 3, 4, 5, 6].map((n) => html`<option value=${n}>${n}</option>`)}
    </select></label>
    ${players === 2
      ? html`<label><input type="checkbox" data-testid="club-event-one-pack" checked=${onePack}
          onChange=${(e) => setOnePack(e.target.checked)} /> ${t("tournament_one_pack")}</label>`
      : null}
    <label>${countWord} <input type="number" data-testid="club-event-count"
      min=${arena ? 5 : 1} max=${most} required value=${count} onInput=${(e) => setCount(Number(e.target.value))} /></label>
    ${format === "swiss"
      ? html`<label>${t("tournament_round_when")} <select data-testid="club-event-round-minutes" value=${every} onChange=${(e) => setEvery(e.target.value)}>
          <option value="">${t("tournament_round_asap")}</option>
          ${ROUND_EVERY.map((n) => html`<option value=${n}>${roundEvery(n)}</option>`)}
        </select></label>`
      : null}
    ${duplicate
      ? null
      : html`<label>${t("tournament_deals")} <select data-testid="club-event-deals" value=${deals} onChange=${(e) => setDeals(e.target.value)}>
          <option value="">${t("tournament_deals_rules")}</option>
          ${[1, 2, 3, 4, 5].map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>`}
    <label>${t("tournament_entry")} <select data-testid="club-event-entry" value=${entry} onChange=${(e) => setEntry(e.target.value)}>
      <option value="club">${t("tournament_entry_club")}</option>
      <option value="open">${t("tournament_entry_open")}</option>
    </select></label>
    <button type="submit" class="btn primary" disabled=${busy} data-testid="club-event-make">${t("club_event_make")}</button>
    <${ErrorNotice} error=${error} />
  </form>`;
}

/** The club's events, newest first, and (its owner and organisers) the form to make one. */
export function ClubEvents({ store, club }) {
  const events = club.events || [];
  const organiser = (club.you === "owner" || club.you === "organiser") && !club.closed;
  return html`<section class="panel" aria-labelledby="club-events-title">
    <h2 id="club-events-title">${t("club_events")}</h2>
    ${events.length
      ? html`<ul data-testid="club-events">${events.map((e) => html`<li data-testid="club-event" data-event=${e.id} data-state=${e.state}>
          <${AppLink} store=${store} href=${tournamentPath(e.id)}>${e.name}<//>
          ${" · "}${formatName(e.format)} · ${stateName(e.state)}
          ${e.winners && e.winners.length
            ? html`${" · "}<span data-testid="club-event-winners">${t("club_event_winners", { names: e.winners.join(", ") })}</span>`
            : null}
        </li>`)}</ul>`
      : html`<p class="hint" data-testid="club-events-none">${t("club_events_none")}</p>`}
    ${organiser ? html`<${EventForm} store=${store} club=${club} />` : null}
  </section>`;
}
