// The page title counts the games waiting for this player's move (issue 32), the way
// mail and chat tabs count what is unread: "(2) Krypkasino" in the lobby, and "(1)"
// in a room while it is this player's turn (issue 47).  The count is put in front of
// whatever title the page has and taken off again, so that the hidden-tab turn alert
// (alerts.js), which saves and restores the title, keeps it.
const COUNT = /^\(\d+\) /;

/** Show `n` in front of the title (nothing for 0). */
export function showWaiting(n) {
  const base = document.title.replace(COUNT, "");
  const next = n > 0 ? `(${n}) ${base}` : base;
  if (document.title !== next) document.title = next;
}

const myTurn = (v) => !!v && v.status === "playing" && !v.deal_over && v.you !== null && v.you !== undefined && v.to_move === v.you;

/**
 * In a room, "(1)" in front of the title while it is this seat's turn, as the lobby
 * counts the games waiting for a move: a glance at the tab tells.  Applied again when
 * the tab is seen (after alerts.js puts back the title it saved when the turn came).
 */
export function followTurn(store) {
  let shown = false;
  const apply = () => {
    const { route, view } = store.get();
    const mine = !!route && route.name === "room" && myTurn(view);
    if (mine || shown) showWaiting(mine ? 1 : 0);
    shown = mine;
  };
  store.subscribe(apply);
  document.addEventListener("visibilitychange", apply);
  window.addEventListener("focus", apply);
}
