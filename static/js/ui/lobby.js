// The lobby: create a room, find a game with others waiting (ui/findgame.js), or join
// one by its code.
import { html, useState, useEffect } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import * as session from "../session.js";
import { loadCatalogue, loadDeals, dealRules } from "../rulefacts.js";
import { Header, navigate, ErrorNotice, AppLink } from "./common.js";
import { MyGames } from "./mygames.js";
import { AccountPanel } from "./account.js";
import { PlayNow, PublicRooms, TableOptions, TIME_BANKS } from "./publicrooms.js";
import { TakebackField, takebackChoice } from "./assist.js";
import { HintsField, hintsChoice } from "./sweepcall.js";
import { FindGame } from "./findgame.js";
import { ProviderReturn } from "./oidc.js";
import { PaceField, DAYS_PER_MOVE } from "./correspondence.js";
import { DailyPanel } from "./daily.js";

// The rule options come from the server's catalogue (GET /api/rules, built by
// the engine): which exist, the player counts each allows, the ranges of the
// match lengths, the bot levels.  The server validates every combination; this
// form only greys out what the catalogue says cannot be played, and shows the
// opening deal the server's engine names for the rules chosen.

/** The on/off options (variants) of a catalogue, each with the player counts it allows. */
export function variantsOf(cat) {
  return (cat ? cat.options : [])
    .filter((o) => o.type === "boolean")
    .map((o) => ({ key: o.name, text: o.text, allowed: (n) => o.players.includes(n) }));
}

const optionNamed = (cat, name) => (cat ? cat.options.find((o) => o.name === name) : null);

const BOT_PACE = { instant: 0, normal: 0.8, relaxed: 1.6 };
const CLOCKS = [0, 20, 45, 90];

/** The form's first choices: four players with three bots, or what was chosen last time
 * (session.js keeps it); a value that is not one the form offers falls back. */
export function lastChoices(saved = session.getCreateChoices()) {
  const pick = (key, ok, fallback) => (ok(saved[key]) ? saved[key] : fallback);
  const whole = (lo, hi) => (v) => Number.isInteger(v) && v >= lo && v <= hi;
  const players = pick("players", whole(2, 6), 4);
  return {
    players,
    bots: pick("bots", whole(0, players - 1), players - 1),
    isPublic: pick("isPublic", (v) => typeof v === "boolean", false),
    bank: pick("bank", whole(0, TIME_BANKS.length - 1), 0),
    botLevel: pick("botLevel", (v) => typeof v === "string", "greedy"),
    pace: pick("pace", (v) => typeof v === "string" && Object.hasOwn(BOT_PACE, v), "normal"),
    clock: pick("clock", (v) => CLOCKS.includes(v), 0),
    roomPace: pick("roomPace", (v) => v === "live" || v === "correspondence", "live"),
    days: pick("days", (v) => DAYS_PER_MOVE.includes(v), 3),
    rules: pick("rules", (v) => !!v && typeof v === "object" && !Array.isArray(v), {}),
    length: pick("length", (v) => ["rotation", "deals", "limit"].includes(v), "rotation"),
    matchDeals: pick("matchDeals", (v) => Number(v) >= 1, 6),
    matchLimit: pick("matchLimit", (v) => Number(v) >= 1, 100),
  };
}

function Field({ label, hint, children, id }) {
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${children}
    ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}
  </div>`;
}

/** "5 cards each and 5 on the table, then 7 more packets": the deal the server names. */
function OpeningDeal({ cat, rules, players }) {
  const chosen = dealRules(cat, rules, players);
  const key = JSON.stringify(chosen);
  const [deals, setDeals] = useState(null);
  useEffect(() => {
    if (!cat) return undefined;
    let live = true;
    loadDeals(chosen).then((d) => live && setDeals(d), () => live && setDeals(null));
    return () => {
      live = false;
    };
  }, [cat, key]);
  const deal = deals && JSON.stringify(dealRules(cat, deals.rules, players)) === key
    ? deals.deals.find((d) => d.players === players)
    : null;
  if (!deal) return null;
  return html`<p class="hint opening-deal" data-testid="opening-deal" data-hand=${deal.hand} data-table=${deal.table}
      data-packets=${deal.packets.length}>${t("opening_deal", { hand: deal.hand, table: deal.table, n: deal.packets.length })}</p>`;
}

function CreateForm({ store }) {
  const [cat, setCat] = useState(null);
  useEffect(() => {
    loadCatalogue().then(setCat, () => setCat(null));
  }, []);
  const variants = variantsOf(cat);
  const levels = cat ? cat.bot_levels : [];
  const counts = cat ? Array.from({ length: cat.players.maximum - cat.players.minimum + 1 }, (_, i) => cat.players.minimum + i) : [2, 3, 4, 5, 6];
  const dealsOption = optionNamed(cat, "match_deals");
  const limitOption = optionNamed(cat, "match_limit");
  const [name, setName] = useState(session.getName());
  const [last] = useState(lastChoices); // what was chosen for the last room made here
  const [players, setPlayers] = useState(last.players);
  // A room with nobody else in it gets bots in its free seats (issue 12): fewer bots
  // leave seats for friends.
  const [bots, setBots] = useState(last.bots);
  const [isPublic, setPublic] = useState(last.isPublic);
  const [bank, setBank] = useState(last.bank);
  const [botLevel, setBotLevel] = useState(last.botLevel);
  const level = levels.includes(botLevel) || !levels.length ? botLevel : levels[0]; // the levels the server serves
  const [pace, setPace] = useState(last.pace);
  const [clock, setClock] = useState(last.clock);
  // Live, or played over days (issue 32): a correspondence room has no seconds clock nor
  // time bank, its clock is the days a move may take.
  const [roomPace, setRoomPace] = useState(last.roomPace);
  const [days, setDays] = useState(last.days);
  const corr = roomPace === "correspondence";
  const [rules, setRules] = useState(last.rules);
  const [length, setLength] = useState(last.length);
  const [matchDeals, setMatchDeals] = useState(last.matchDeals);
  const [matchLimit, setMatchLimit] = useState(last.matchLimit);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);

  const setPlayerCount = (n) => {
    setPlayers(n);
    if (bots > n - 1 || bots === players - 1) setBots(n - 1); // "all free seats" stays so
  };

  const submit = async (ev) => {
    ev.preventDefault();
    if (!name.trim()) {
      setError({ code: "name_needed" });
      return;
    }
    const chosen = {};
    for (const v of variants) if (rules[v.key] && v.allowed(players)) chosen[v.key] = true;
    if (length === "deals") chosen.match_deals = Number(matchDeals);
    if (length === "limit") chosen.match_limit = Number(matchLimit);
    const body = {
      players,
      name: name.trim(),
      rules: chosen,
      bots,
      bot_level: level,
      bot_delay: BOT_PACE[pace],
      turn_clock: clock && !TIME_BANKS[bank] && !corr ? clock : null,
      public: isPublic,
      ...(TIME_BANKS[bank] && !corr ? { time_bank: TIME_BANKS[bank][0], time_increment: TIME_BANKS[bank][1] } : {}),
      ...(corr ? { pace: "correspondence", days_per_move: days } : {}),
      ...takebackChoice(ev.target),
      ...hintsChoice(ev.target),
      ...(ev.target.rated && ev.target.rated.checked ? { rated: true } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      const res = await api.createRoom(body);
      session.saveName(name.trim());
      session.saveCreateChoices({ players, bots, isPublic, bank, botLevel: level, pace, clock, roomPace, days, rules, length, matchDeals, matchLimit });
      session.saveSeat(res.room_id, { token: res.token, seat: res.seat, name: name.trim() });
      navigate(store, `/r/${encodeURIComponent(res.room_id)}`);
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };

  return html`<form class="panel create" id="create-form" onSubmit=${submit} aria-labelledby="create-title" data-testid="create-form">
    <h2 id="create-title">${t("create_title")}</h2>
    <${Field} label=${t("your_name")} id="create-name">
      <input id="create-name" name="name" maxlength="24" autocomplete="nickname" required
        value=${name} onInput=${(e) => setName(e.target.value)} />
    <//>
    <fieldset class="field">
      <legend>${t("players")}</legend>
      <div class="segmented" role="radiogroup" aria-label=${t("players")}>
        ${counts.map(
          (n) => html`<label class=${players === n ? "on" : ""}>
            <input type="radio" name="players" value=${n} checked=${players === n} onChange=${() => setPlayerCount(n)} />
            <span>${n}</span>
          </label>`,
        )}
      </div>
      <${OpeningDeal} cat=${cat} rules=${rules} players=${players} />
    </fieldset>
    <div class="field-row">
      <${Field} label=${t("bots")} id="create-bots">
        <select id="create-bots" name="bots" value=${bots} onChange=${(e) => setBots(Number(e.target.value))}>
          ${Array.from({ length: players }, (_, i) => html`<option value=${i}>${i}</option>`)}
        </select>
        <p class="hint" data-testid="bots-hint">${t("bots_fill_hint")}</p>
      <//>
      <${Field} label=${t("bot_level")} id="create-bot-level">
        <select id="create-bot-level" name="bot_level" value=${level} disabled=${bots === 0}
          onChange=${(e) => setBotLevel(e.target.value)}>
          ${levels.map((l) => html`<option value=${l}>${t(`bot_${l}`)}</option>`)}
        </select>
      <//>
      <${Field} label=${t("bot_pace")} id="create-bot-pace">
        <select id="create-bot-pace" name="bot_pace" value=${pace} disabled=${bots === 0}
          onChange=${(e) => setPace(e.target.value)}>
          ${Object.keys(BOT_PACE).map((p) => html`<option value=${p}>${t(`pace_${p}`)}</option>`)}
        </select>
      <//>
      <${TakebackField} players=${players} bots=${bots} />
      <${Field} label=${t("turn_clock")} id="create-clock">
        <select id="create-clock" name="turn_clock" value=${clock} disabled=${!!TIME_BANKS[bank] || corr} onChange=${(e) => setClock(Number(e.target.value))}>
          ${CLOCKS.map((c) => html`<option value=${c}>${c ? t("seconds", { n: c }) : t("clock_off")}</option>`)}
        </select>
      <//>
    </div>
    <${PaceField} pace=${roomPace} setPace=${setRoomPace} days=${days} setDays=${setDays} />
    <${TableOptions} isPublic=${isPublic} setPublic=${setPublic} bank=${bank} setBank=${setBank} noClock=${corr} />
    <${HintsField} />
    <label class="check-line field">
      <input type="checkbox" name="rated" data-testid="create-rated" />
      <span><strong>${t("rated_room")}</strong> <span class="hint">${t("rated_room_hint")}</span></span>
    </label>
    <fieldset class="field variants">
      <legend>${t("variants")}</legend>
      <p class="hint">${t("variants_hint")}</p>
      ${variants.map((v) => {
        const ok = v.allowed(players);
        return html`<label class=${`variant ${ok ? "" : "disabled"}`}>
          <input type="checkbox" name=${v.key} checked=${!!rules[v.key] && ok} disabled=${!ok}
            onChange=${(e) => setRules({ ...rules, [v.key]: e.target.checked })} />
          <span class="variant-text">
            <strong>${t(v.text)}</strong>
            <span class="hint">${t(`${v.text}_help`)}</span>
          </span>
        </label>`;
      })}
    </fieldset>
    <fieldset class="field match-length">
      <legend>${t("match_length")}</legend>
      <label class="radio-line"><input type="radio" name="length" checked=${length === "rotation"} onChange=${() => setLength("rotation")} />
        <span>${t("length_rotation", { n: players })}</span></label>
      <label class="radio-line"><input type="radio" name="length" checked=${length === "deals"} onChange=${() => setLength("deals")} />
        <span>${t("length_deals")}</span>
        <input type="number" min=${dealsOption ? dealsOption.minimum : 1} max=${dealsOption ? dealsOption.maximum : null}
          class="num" aria-label=${t("length_deals")} value=${matchDeals}
          disabled=${length !== "deals"} onInput=${(e) => setMatchDeals(e.target.value)} /></label>
      <label class="radio-line"><input type="radio" name="length" checked=${length === "limit"} onChange=${() => setLength("limit")} />
        <span>${t("length_limit")}</span>
        <input type="number" min=${limitOption ? limitOption.minimum : 1} max=${limitOption ? limitOption.maximum : null}
          class="num" aria-label=${t("length_limit")} value=${matchLimit}
          disabled=${length !== "limit"} onInput=${(e) => setMatchLimit(e.target.value)} /></label>
    </fieldset>
    <${ErrorNotice} error=${error} />
    <button type="submit" class="btn primary wide" disabled=${busy} data-testid="create-room">${busy ? t("creating") : t("create_room")}</button>
  </form>`;
}

function JoinForm({ store }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const go = async (watch) => {
    if (!code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { room_id: roomId } = await api.lookupCode(code);
      navigate(store, `/r/${encodeURIComponent(roomId)}${watch ? "?watch=1" : ""}`);
    } catch (err) {
      setError({ code: err.code === "not_found" ? "code_unknown" : err.code, message: err.message });
      setBusy(false);
    }
  };
  return html`<form class="panel join" onSubmit=${(e) => { e.preventDefault(); go(false); }} aria-labelledby="join-title">
    <h2 id="join-title">${t("join_title")}</h2>
    <p class="hint">${t("join_hint")}</p>
    <div class="field">
      <label for="join-code">${t("room_code")}</label>
      <input id="join-code" name="code" class="code-input" autocomplete="off" autocapitalize="characters" spellcheck="false"
        maxlength="16" value=${code} onInput=${(e) => setCode(e.target.value)} data-testid="join-code" />
    </div>
    <${ErrorNotice} error=${error} />
    <div class="btn-row">
      <button type="submit" class="btn primary" disabled=${busy} data-testid="join-by-code">${t("join")}</button>
      <button type="button" class="btn" disabled=${busy} onClick=${() => go(true)}>${t("watch")}</button>
    </div>
  </form>`;
}

function RulesInBrief({ store }) {
  return html`<div class="panel learn" data-testid="learn">
    <details class="brief">
      <summary><h2>${t("brief_title")}</h2></summary>
      <ul>
        ${[1, 2, 3, 4, 5, 6].map((i) => html`<li>${t(`brief_${i}`)}</li>`)}
      </ul>
    </details>
    <p class="btn-row learn-links">
      <${AppLink} store=${store} href="/rules" class="btn small" data-testid="lobby-rules">${t("rules_full")}<//>
      <${AppLink} store=${store} href="/tutorial" class="btn small" data-testid="lobby-tutorial">${t("tutorial_link")}<//>
    </p>
  </div>`;
}

/**
 * The create form; on a phone it starts folded behind a "Create a room" button, so that
 * the first screen offers Play now, joining by code and creating (the CSS folds it).
 */
function CreateBlock({ store }) {
  const [open, setOpen] = useState(false);
  return html`<div class=${`lobby-create ${open ? "open" : ""}`}>
    <button type="button" class="btn wide create-toggle" aria-expanded=${open} aria-controls="create-form"
      onClick=${() => setOpen(!open)} data-testid="create-toggle">${t("create_title")}</button>
    <${CreateForm} store=${store} />
  </div>`;
}

export function Lobby({ store }) {
  const { account } = store.get(); // "My games" lists the account's rooms once signed in
  return html`<div class="page lobby">
    <${Header} store=${store} />
    <main id="main" class="lobby-main">
      <section class="hero">
        <h1>${t("tagline")}</h1>
        <p>${t("intro")}</p>
        <${PlayNow} store=${store} />
        <p class="hero-links">
          <${AppLink} store=${store} href="/leaderboard?players=2" data-testid="leaderboard-link">${t("leaderboard_title")}<//>
          ${" · "}<${AppLink} store=${store} href="/clubs" data-testid="clubs-link">${t("clubs_title")}<//>
          ${" · "}<${AppLink} store=${store} href="/ladder" data-testid="ladder-link">${t("ladder_title")}<//>
        </p>
      </section>
      <div class="lobby-grid">
        <${CreateBlock} store=${store} />
        <div class="lobby-side">
          <${DailyPanel} store=${store} />
          <${FindGame} store=${store} />
          <${ProviderReturn} store=${store} />
          <${JoinForm} store=${store} />
          <${PublicRooms} store=${store} />
          <${AccountPanel} store=${store} />
          <${MyGames} key=${`games-${account ? account.username : ""}`} store=${store} />
          <${RulesInBrief} store=${store} />
        </div>
      </div>
    </main>
  </div>`;
}
