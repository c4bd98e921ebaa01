// Where the new packets came in a deal, read from the view (RULES.md R2.2, R2.5).
//
// The view's log lists plays only; a packet is dealt each time every hand is
// empty and stock remains.  The opening hands hold h cards each (R2.2; 4 under
// V2 single pack and V7 four-card deal), so with n players the first packet
// comes after n*h plays and each later one after as many plays as it dealt
// cards.  The cards dealt from packets so far are the plays made plus the
// cards now in hand minus the opening hands; that fixes each packet's size
// and what was left in the stock after it.  Presentation only: the server
// deals, this only says where it did.

const OPENING_HAND = { 2: 6, 3: 5, 4: 5, 5: 4, 6: 5 };
const PACKET = 4; // cards a player per packet (R2.5)

export function openingHand(players, rules = {}) {
  if (rules.single_pack || rules.four_card_deal) return 4;
  return OPENING_HAND[players] || 4;
}

/**
 * The packets dealt so far: [{after, size, left, last}], `after` being the
 * number of plays made before it was dealt, `size` the cards it dealt, `left`
 * the stock after it and `last` whether it emptied the stock.
 */
export function packetMarks(view) {
  const n = view.players || 0;
  const log = view.log || [];
  if (!n) return [];
  const inHands = (view.hand_counts || []).reduce((a, b) => a + b, 0);
  const opening = n * (view.opening_hand || openingHand(n, view.rules || {})); // opening_hand: the tutorial's short deal
  let fromPackets = log.length + inHands - opening;
  const marks = [];
  let after = opening;
  while (fromPackets > 0 && after <= log.length) {
    const size = Math.min(PACKET * n, fromPackets);
    fromPackets -= size;
    const left = (view.stock_count || 0) + fromPackets;
    marks.push({ after, size, left, last: left === 0 });
    after += size;
  }
  return marks;
}
