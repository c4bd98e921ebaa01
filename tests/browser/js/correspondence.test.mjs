// Unit tests of a correspondence room's clock and vacations in the client
// (static/js/ui/correspondence.js, issue 32); `node --test tests/browser/js/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

// The English catalog, read from the file the page fetches.
globalThis.fetch = async (url) => ({ ok: true, json: async () => JSON.parse(await readFile(new URL(url), "utf8")) });
globalThis.document = { documentElement: {} };
const { setLanguage } = await import("../../../static/js/i18n.js");
const { daysHours, vacationOf, moveTimeLeft, isCorrespondence } = await import("../../../static/js/ui/correspondence.js");
await setLanguage("en");

const MIN = 60000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

test("time left in the two units that matter, never seconds", () => {
  assert.equal(daysHours(2 * DAY - 1000), "1 d 23 h");
  assert.equal(daysHours(3 * DAY + 5 * HOUR + 59 * MIN), "3 d 5 h");
  assert.equal(daysHours(5 * HOUR + 12 * MIN + 30000), "5 h 12 min");
  assert.equal(daysHours(90000), "2 min");
  assert.equal(daysHours(-5000), "0 min");
});

const view = (vacation, clock = { seat: 1, deadline: 10 * DAY }) => ({
  options: { pace: "correspondence", days_per_move: 3 },
  clock,
  vacation,
});

test("a seat's vacation runs down only while it is on", () => {
  const v = view([{ left: 5 * DAY, since: null }, { left: 4 * DAY, since: 1 * DAY }]);
  assert.deepEqual(vacationOf(v, 0, 2 * DAY), { on: false, left: 5 * DAY });
  assert.deepEqual(vacationOf(v, 1, 2 * DAY), { on: true, left: 3 * DAY });
  assert.deepEqual(vacationOf(v, 1, 9 * DAY), { on: false, left: 0 }, "run out: over");
  assert.equal(vacationOf({ vacation: null }, 0, 0), null, "a live room has none");
});

test("the mover's own time stands still while the mover is on vacation", () => {
  // The server's deadline counts the running vacation as if it runs to its end: a
  // turn from day 0 with 3 days a move, a vacation of 4 days from day 2: due on day 7.
  const away = view([{ left: 5 * DAY, since: null }, { left: 4 * DAY, since: 2 * DAY }], { seat: 1, deadline: 7 * DAY });
  assert.equal(moveTimeLeft(away, 2 * DAY), DAY);
  assert.equal(moveTimeLeft(away, 5 * DAY), DAY);
  assert.equal(moveTimeLeft(away, 6 * DAY + HOUR), DAY - HOUR, "the vacation ran out: it runs again");
  const here = view([{ left: 5 * DAY, since: null }, { left: 4 * DAY, since: null }]);
  assert.equal(moveTimeLeft(here, 3 * DAY), 7 * DAY);
  assert.equal(moveTimeLeft(here, 11 * DAY), 0);
  assert.equal(moveTimeLeft(view([], null), 0), null, "no move awaited");
  assert.ok(isCorrespondence(here) && !isCorrespondence({ options: { pace: "live" } }));
});
