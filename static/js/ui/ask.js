// Answers to the keys that ask without moving (issue 50): my hand, the table by
// value, the scores, the last plays, the stock, whose turn and the time left; and
// a capture option as sums a player can follow.  Each answer is plain text, said
// by speech.js's assertive region: the player asked and waits for it.
//
// The values below are only for reading sums aloud (RULES.md R1.4: numerals as
// printed, J 11, Q 12, K 13, an ace 14 from hand and 1 on the table); which cards
// may be taken is still the server's `legal` moves, never worked out here.
import { t, cardName, listOf, signed } from "../i18n.js";
import { parseCard } from "../cards.js";
import { seatName, moveText } from "./words.js";
import { turnText } from "./announce.js";
import { secondsLeft } from "./seats.js";
import { isCorrespondence } from "./correspondence.js";

const PICTURES = { J: 11, Q: 12, K: 13 };

export function tableValue(code) {
  const { rank } = parseCard(code);
  return rank === "A" ? 1 : PICTURES[rank] || Number(rank);
}

export function handValue(code) {
  const { rank } = parseCard(code);
  return rank === "A" ? 14 : PICTURES[rank] || Number(rank);
}

/** Split `take` into groups that each add up to `value` (a search over a few cards), or null. */
export function groupsOf(value, take) {
  const cards = [...take].sort((a, b) => tableValue(b) - tableValue(a));
  const groups = [];
  const used = new Array(cards.length).fill(false);
  const fill = (group, sum, from) => {
    if (sum === value) {
      groups.push(group);
      if (next()) return true;
      groups.pop();
      return false;
    }
    for (let i = from; i < cards.length; i += 1) {
      if (used[i] || sum + tableValue(cards[i]) > value) continue;
      used[i] = true;
      if (fill([...group, cards[i]], sum + tableValue(cards[i]), i + 1)) return true;
      used[i] = false;
    }
    return false;
  };
  const next = () => {
    const first = used.indexOf(false);
    if (first < 0) return true;
    used[first] = true;
    const ok = fill([cards[first]], tableValue(cards[first]), first + 1);
    if (!ok) used[first] = false;
    return ok;
  };
  return next() ? groups : null;
}

/** One capture option in words: "takes the eight of clubs; the ace of hearts and the seven of spades, 1 + 7 = 8: 2 points". */
export function optionText(card, option) {
  const value = handValue(card);
  const groups = groupsOf(value, option.take);
  const parts = groups
    ? groups.map((g) => (g.length > 1 ? `${listOf(g.map(cardName))}, ${g.map(tableValue).join(" + ")} = ${value}` : cardName(g[0])))
    : [listOf(option.take.map(cardName))];
  const sweep = option.sweep ? `, ${t(option.kind)} ${signed(option.sweep)}` : "";
  return `${t("say_takes", { what: parts.join("; ") })}: ${t("say_points", { n: option.points })}${sweep}`;
}

export function handText(view) {
  const hand = view.hand || [];
  if (!hand.length) return t("say_hand_empty");
  return t("say_hand", { n: hand.length, cards: listOf(hand.map(cardName)) });
}

/** The table grouped by table value, with the count of each: "three sevens: ...". */
export function tableText(view) {
  const table = view.table || [];
  if (!table.length) return t("say_table_empty");
  const byValue = new Map();
  for (const c of table) {
    const v = tableValue(c);
    if (!byValue.has(v)) byValue.set(v, []);
    byValue.get(v).push(c);
  }
  const parts = [...byValue.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([v, cards]) => t("say_value_group", { n: cards.length, value: v, cards: listOf(cards.map(cardName)) }));
  return `${t("say_table", { n: table.length })} ${parts.join("; ")}`;
}

export function scoresText(view) {
  const n = view.players || 0;
  const parts = [];
  for (let s = 0; s < n; s += 1) {
    const sc = (view.scores || [])[s];
    parts.push(t("say_score_line", { name: seatName(view, s), n: sc ? sc.total : 0, total: (view.cumulative || [])[s] ?? 0 }));
  }
  return `${t("scores")}: ${parts.join("; ")}`;
}

export function lastPlaysText(view, count = 3) {
  const log = view.log || [];
  if (!log.length) return t("log_empty");
  return log.slice(-count).map((m) => moveText(view, m)).join(". ");
}

export function stockText(view) {
  return view.last_packet || !view.stock_count ? t("say_stock_empty") : t("say_stock", { n: view.stock_count });
}

export function turnTimeText(view, now = Date.now()) {
  const turn = turnText(view) || (view.deal_over ? t("deal_over") : t("between_deals"));
  const clock = view.clock;
  if (!clock || isCorrespondence(view)) return turn;
  const left = secondsLeft(clock, now, view.options && view.options.turn_clock);
  return `${turn}. ${t("say_seconds_left", { n: left })}`;
}

/** The answer to an ask key's `what` (see ui/keys.js ASK_KEYS). */
export function answer(what, view, choosing) {
  if (what === "hand") return handText(view);
  if (what === "table") return tableText(view);
  if (what === "scores") return scoresText(view);
  if (what === "plays") return lastPlaysText(view);
  if (what === "stock") return stockText(view);
  if (what === "turn") return turnTimeText(view);
  if (what === "options") {
    if (!choosing) return t("say_no_choice");
    const list = choosing.visible.map((o, i) => `${i + 1}: ${optionText(choosing.card, o)}`);
    return `${t("choose_take", { card: cardName(choosing.card) })} ${list.join(". ")}`;
  }
  return "";
}
