// Card codes (RULES.md R1.2): rank A 2..10 J Q K followed by suit S H D C.
// Only presentation lives here; the server decides every rule.

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function parseCard(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export const isRed = (code) => {
  const s = code.slice(-1);
  return s === "H" || s === "D";
};

/** "10♦" */
export function shortName(code) {
  const { rank, suit } = parseCard(code);
  return rank + SUIT_SYMBOL[suit];
}

/**
 * Map the codes of `take` onto positions of `table` (twins are equal codes,
 * so each code claims the first free position holding it).
 */
export function tableIndexes(table, take) {
  const used = new Set();
  const out = [];
  for (const code of take) {
    const i = table.findIndex((c, j) => c === code && !used.has(j));
    if (i >= 0) {
      used.add(i);
      out.push(i);
    }
  }
  return out;
}
