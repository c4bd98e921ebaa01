// The page title counts the games waiting for this player's move (issue 32), the way
// mail and chat tabs count what is unread: "(2) Krypkasino".  The count is put in
// front of whatever title the page has and taken off again, so that the hidden-tab
// turn alert (alerts.js), which saves and restores the title, keeps it.
const COUNT = /^\(\d+\) /;

/** Show `n` in front of the title (nothing for 0). */
export function showWaiting(n) {
  const base = document.title.replace(COUNT, "");
  const next = n > 0 ? `(${n}) ${base}` : base;
  if (document.title !== next) document.title = next;
}
