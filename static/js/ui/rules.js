// The rules page (/rules): the standard rules and every variant, in the
// reader's language, with small examples drawn with the table's own SVG cards.
//
// The page's shape lives here: the standard rules' sections in order (anchors
// the table's hint badges link to) and each example's cards, which no language
// changes.  The facts come from the server's engine (GET /api/rules): the
// variants, in RULES.md order, with the player counts each allows, and the
// opening deal and packets per player count, of the standard rules and of each
// variant that deals otherwise.  The words live in static/rules/<lang>.json:
// per section (a variant's section is named by the catalogue) a title and its
// paragraphs, per example a caption (tests/web/test_rules_texts.py checks that
// every language has them all).
import { html, useState, useEffect } from "../html.js";
import { t, cardName, language, num, listOf } from "../i18n.js";
import { loadCatalogue, packetsText } from "../rulefacts.js";
import { Header, AppLink, ErrorNotice } from "./common.js";
import { CardFace } from "./cardsvg.js";

/** The standard rules' sections in order, with the examples each one shows (RULES.md numbers in comments). */
export const SECTIONS = [
  { id: "aim", examples: [] }, // R6.4, the idea
  { id: "values", examples: ["ace"] }, // R1.4
  { id: "deal", examples: [] }, // R2.1-R2.3, R2.5-R2.6
  { id: "pictures", examples: ["pictures"] }, // R2.4, R2.5
  { id: "play", examples: ["creep", "sum"] }, // R3.1-R3.5
  { id: "maximal", examples: ["maximal", "choice"] }, // R3.3
  { id: "sweep", examples: ["forced"] }, // R4.1, R4.2, R4.4, R4.5
  { id: "double", examples: ["double"] }, // R4.3
  { id: "end", examples: ["last"] }, // R2.6, R5
  { id: "scoring", examples: ["scoring"] }, // R6.1-R6.3
  { id: "match", examples: [] }, // R6.4
  { id: "variants", examples: [] }, // R7: the variants' own sections follow, from the catalogue
];

/** Examples shown in a variant's section, by section (the catalogue names the sections). */
export const VARIANT_EXAMPLES = { v9: ["v9"] };

/**
 * The examples' cards: `table` as it lies, `hand` when the choice matters, the
 * card `play`ed, the table cards it `take`s, pictures set `aside`.
 */
export const EXAMPLES = {
  ace: { table: ["AC", "9H", "4D", "7S"], play: "AH", take: ["AC", "9H", "4D"] },
  pictures: { table: ["6C", "10H", "JS", "KH", "4D"], aside: ["JS", "KH"] },
  creep: { table: ["3H", "9C", "5D"], hand: ["2S", "8H"], play: "2S", take: [] },
  sum: { table: ["2H", "8D", "6C", "4S", "5C"], play: "10H", take: ["2H", "8D", "6C", "4S"] },
  maximal: { table: ["AH", "2C", "6D", "7H", "8S", "9C"], play: "8D", take: ["8S", "AH", "7H", "2C", "6D"] },
  choice: { table: ["2D", "3C", "4H", "5C", "8H", "10C"], play: "AD", take: ["10C", "4H"] },
  forced: { table: ["2H", "7S"], hand: ["9D", "4C"], play: "9D", take: ["2H", "7S"] },
  double: { table: ["3D"], play: "3D", take: ["3D"] },
  last: { table: ["5H", "8C"], aside: ["QS"], take: ["5H", "8C", "QS"] },
  v9: { table: ["QH", "5C", "7D"], play: "QS", take: ["QH"] },
};

/** The scoring example: card points and sweeps of two players, adding up to 42 (R6.3). */
export const SCORING = [
  { cards: 25, made: 5, conceded: 0 },
  { cards: 17, made: 0, conceded: -5 },
];

const texts = {};

async function loadTexts(lang) {
  if (!texts[lang]) {
    const res = await fetch(new URL(`../../rules/${lang}.json`, import.meta.url));
    if (!res.ok) throw new Error(`no rules for ${lang}`);
    texts[lang] = await res.json();
  }
  return texts[lang];
}

/** The rules' texts in the current language (English while it loads or when it is missing). */
export function useRuleTexts() {
  const lang = language();
  const [loaded, setLoaded] = useState(texts[lang] || null);
  useEffect(() => {
    let live = true;
    loadTexts(lang).catch(() => loadTexts("en")).then((x) => live && setLoaded(x), () => {});
    return () => {
      live = false;
    };
  }, [lang]);
  return loaded;
}

function Cards({ cards, mark = {}, label }) {
  return html`<span class="ex-cards" role="list" aria-label=${label}>
    ${cards.map((c) => html`<span role="listitem" class=${`ex-card ${mark[c] || ""}`}><${CardFace} code=${c} label=${cardName(c)} /></span>`)}
  </span>`;
}

/** One drawn example: the table (taken cards marked), the hand or the card played, and the caption. */
export function Example({ id, words }) {
  const ex = EXAMPLES[id];
  const L = words.labels;
  const mark = {};
  for (const c of ex.take || []) mark[c] = "taken";
  for (const c of ex.aside || []) mark[c] = ex.table.includes(c) ? "aside" : "taken";
  const asideOnly = (ex.aside || []).filter((c) => !ex.table.includes(c));
  return html`<figure class="rule-example" id=${`ex-${id}`} data-testid="rule-example" data-example=${id}>
    <div class="ex-row">
      <div class="ex-part">
        <span class="ex-label">${L.table}</span>
        <${Cards} cards=${ex.table} mark=${mark} label=${L.table} />
      </div>
      ${ex.hand
        ? html`<div class="ex-part"><span class="ex-label">${L.hand}</span>
            <${Cards} cards=${ex.hand} mark=${{ [ex.play]: "played" }} label=${L.hand} /></div>`
        : ex.play
          ? html`<div class="ex-part"><span class="ex-label">${L.played}</span>
              <${Cards} cards=${[ex.play]} mark=${{ [ex.play]: "played" }} label=${L.played} /></div>`
          : null}
      ${asideOnly.length
        ? html`<div class="ex-part"><span class="ex-label">${L.aside}</span>
            <${Cards} cards=${asideOnly} mark=${mark} label=${L.aside} /></div>`
        : null}
    </div>
    <figcaption>${words.examples[id]}</figcaption>
  </figure>`;
}

function ScoringExample({ words }) {
  const L = words.labels;
  const rows = SCORING.map((r, i) => ({ ...r, name: L.players[i], total: r.cards + r.made + r.conceded }));
  const sum = (f) => rows.reduce((a, r) => a + f(r), 0);
  return html`<figure class="rule-example" id="ex-scoring" data-testid="rule-example" data-example="scoring">
    <table class="score-table rule-scores">
      <thead><tr><th scope="col">${t("player")}</th><th scope="col">${t("card_points")}</th>
        <th scope="col">${t("sweeps_made")}</th><th scope="col">${t("sweeps_conceded")}</th><th scope="col">${t("deal_score")}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><th scope="row">${r.name}</th><td>${r.cards}</td><td>${r.made ? `+${r.made}` : "0"}</td>
        <td>${num(r.conceded)}</td><td class="strong">${num(r.total)}</td></tr>`)}</tbody>
      <tfoot><tr><th scope="row">${t("sum")}</th><td>${sum((r) => r.cards)}</td><td colspan="2">${num(sum((r) => r.made + r.conceded))}</td>
        <td class="strong">${sum((r) => r.total)}</td></tr></tfoot>
    </table>
    <figcaption>${words.examples.scoring}</figcaption>
  </figure>`;
}

/** The opening deal and the packets per player count, as the server's engine deals them. */
export function DealTable({ deals, words, id }) {
  const L = words.labels;
  return html`<table class="score-table deal-table" data-testid="deal-table" data-for=${id}>
    <caption class="sr-only">${L.deal_caption}</caption>
    <thead><tr><th scope="col">${L.deal_players}</th><th scope="col">${L.deal_hand}</th>
      <th scope="col">${L.deal_table}</th><th scope="col">${L.deal_packets}</th></tr></thead>
    <tbody>${deals.map((d) => html`<tr data-players=${d.players}><th scope="row">${d.players}</th>
      <td data-testid="deal-hand">${d.hand}</td><td data-testid="deal-on-table">${d.table}</td>
      <td data-testid="deal-packets">${packetsText(d.packets)}</td></tr>`)}</tbody>
  </table>`;
}

function Section({ id, words, examples, title, deals = null, facts = null }) {
  const s = words.sections[id];
  return html`<section class=${`rule-section ${title ? "variant" : ""}`} id=${id} aria-labelledby=${`${id}-title`} data-testid="rule-section">
    <h2 id=${`${id}-title`}>${title ? html`<span class="v-no">${title}</span> ` : null}${s.title}</h2>
    ${facts ? html`<p class="v-facts" data-testid="variant-facts">${facts}</p>` : null}
    ${s.text.map((p) => html`<p>${p}</p>`)}
    ${deals ? html`<${DealTable} deals=${deals} words=${words} id=${id} />` : null}
    ${examples.map((e) => (e === "scoring" ? html`<${ScoringExample} words=${words} />` : html`<${Example} id=${e} words=${words} />`))}
  </section>`;
}

/** "For 2, 3 and 4 players": the player counts a variant allows (all counts: nothing to say). */
function variantFacts(v, cat, words) {
  const all = cat.players.maximum - cat.players.minimum + 1;
  if (v.players.length === all) return null;
  return words.labels.variant_players.replace("{players}", listOf(v.players.map(String)));
}

/** The catalogue of GET /api/rules, or an error; null while it loads. */
function useCatalogue() {
  const [state, setState] = useState({ cat: null, error: null });
  useEffect(() => {
    let live = true;
    loadCatalogue().then((cat) => live && setState({ cat, error: null }), (err) => live && setState({ cat: null, error: err }));
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** The tab's title while a page is open ("How to play Krypkasino — Krypkasino"). */
export function usePageTitle(title) {
  useEffect(() => {
    if (!title) return undefined;
    const before = document.title;
    document.title = `${title} — Krypkasino`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

export function RulesPage({ store }) {
  const words = useRuleTexts();
  const { cat, error } = useCatalogue();
  usePageTitle(words && words.title);
  const ready = !!words && (!!cat || !!error);
  useEffect(() => {
    // Arriving with #section (from a hint badge): show that section once the texts are in.
    if (!ready || !location.hash) return;
    const el = document.getElementById(location.hash.slice(1));
    if (el) el.scrollIntoView();
  }, [ready]);
  if (!ready) return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow"><p class="loading" role="status">${t("loading")}</p></main></div>`;
  const variants = cat ? cat.variants.filter((v) => words.sections[v.section]) : [];
  const toc = [
    ...SECTIONS.map((s) => ({ id: s.id, label: words.sections[s.id].title })),
    ...variants.map((v) => ({ id: v.section, label: `${v.variant} ${words.sections[v.section].title}` })),
  ];
  return html`<div class="page rules-page">
    <${Header} store=${store} />
    <main id="main" class="rules-main" data-testid="rules-page">
      <h1>${words.title}</h1>
      <p class="rules-intro">${words.intro}</p>
      <p class="btn-row"><${AppLink} store=${store} href="/tutorial" class="btn primary" data-testid="rules-tutorial">${t("tutorial_link")}<//></p>
      <nav class="rules-toc panel" aria-labelledby="toc-title">
        <h2 id="toc-title">${words.toc}</h2>
        <ol>${toc.map((s) => html`<li><a href=${`#${s.id}`}>${s.label}</a></li>`)}</ol>
      </nav>
      ${SECTIONS.map((s) => html`<${Section} key=${s.id} id=${s.id} words=${words} examples=${s.examples}
        deals=${s.id === "deal" && cat ? cat.deals : null} />`)}
      ${error ? html`<${ErrorNotice} error=${{ code: error.code || "network", message: error.message }} />` : null}
      ${variants.map((v) => html`<${Section} key=${v.section} id=${v.section} words=${words} title=${v.variant}
        examples=${VARIANT_EXAMPLES[v.section] || []} deals=${v.deals} facts=${variantFacts(v, cat, words)} />`)}
    </main>
  </div>`;
}

/** The rules section a move of this kind is about (the hint badges link there). */
export function ruleAnchor(kind, choices = 1) {
  if (choices > 1) return "maximal";
  if (kind === "sweep") return "sweep";
  if (kind === "double_sweep") return "double";
  return "play";
}
