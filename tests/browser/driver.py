"""Driving the browser client the way a person does: forms, links and clicks.

The tests read the client's store (``window.__krypkasino.store``) only to know
when to act and to check results; every action goes through the page: a click
on a card, on a capture option, on a button.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.waits import WAIT_MS

STATE_JS = """() => {
  const k = window.__krypkasino;
  if (!k) return null;
  const s = k.store.get();
  return {view: s.view, seq: s.seq, pending: s.pending, conn: s.conn, error: s.error};
}"""

# 'summary' once a deal summary is on screen, 'turn' when this seat may play
# (with the view and seq, to save a round trip).
READY_JS = """() => {
  if (document.querySelector('[data-testid=deal-summary]')) return {ready: 'summary'};
  const k = window.__krypkasino;
  if (!k) return false;
  const s = k.store.get(), v = s.view;
  if (v && v.status === 'playing' && !v.deal_over && v.to_move === v.you && v.legal.length && !s.pending
      && document.querySelector('.hand li.legal')) return {ready: 'turn', view: v, seq: s.seq};
  return false;
}"""


# In a room with a short turn clock the clock may play for the seat at any moment,
# also between the test's look at the hand and its click.  These check and act in one
# step of the page's own loop, where no server message can come between the two:
# they click the card (or the chooser's first option) only if the position is still
# the one the test chose from (its seq), and otherwise say the turn has passed.
CLICK_UNLESS_PASSED_JS = """([selector, seq]) => {
  if (window.__krypkasino.store.get().seq !== seq) return {passed: true};
  const el = document.querySelector(selector);
  if (!el) return false;
  const take = el.dataset.take;
  el.click();
  return {clicked: true, take: take === undefined ? null : take};
}"""

# After a play sent in such a room: the play is in the deal's log as the seat's own
# (unmarked: no ``by``), or the server refused it.  Not "the seq moved": the clock's
# play moves it too, and answers the client's pending mark before the refusal comes.
PLAYED_OR_REFUSED_JS = """([plays, card]) => {
  const s = window.__krypkasino.store.get(), v = s.view;
  if (s.error) return {error: s.error};
  const mine = v && v.log.slice(plays).some((m) => m.seat === v.you && !m.by && m.card === card);
  return mine ? {played: true} : false;
}"""

# The clock (or a stand-in) played for this seat after the first ``plays`` plays of the
# deal the test chose in: a refusal of the test's own play is then the race it lost.
SERVER_PLAYED_FOR_ME_JS = """([dealNo, plays]) => {
  const v = window.__krypkasino.store.get().view;
  if (!v) return false;
  if (v.deal_no !== dealNo) return true;
  return v.log.slice(plays).some((m) => m.seat === v.you && m.by);
}"""


def press(page: Any, selector: str) -> None:
    """Activate a button or link with the keyboard (focus, then Enter), as a keyboard
    user does.  For the lobby's side column: its panels (the deal of the day, public
    rooms, "My games") fill in as their answers come and move what is below them, and
    a click aimed before such a move lands elsewhere (loaded runs waited a minute for
    the sign-up form and for the rules page after one)."""
    page.focus(selector)
    page.keyboard.press("Enter")


def open_create_form(page: Any) -> None:
    """Until the lobby's create form shows: on a phone it opens behind its button."""
    page.wait_for_selector("[data-testid=play-now]")
    toggle = page.locator("[data-testid=create-toggle]")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.wait_for_selector("[data-testid=create-form]")


def create_room(
    page: Any,
    name: str = "Ann",
    players: int = 2,
    bots: int = 1,
    *,
    rules: tuple[str, ...] = (),
    match_deals: int | None = None,
    bot_level: str = "greedy",
    days_per_move: int | None = None,
) -> None:
    """Fill in the lobby form and create a room; returns on the room page.  With
    ``days_per_move``, a correspondence room (issue 32); else a live one."""
    page.goto("/")
    open_create_form(page)
    page.fill("#create-name", name)
    page.check(f"input[name=players][value='{players}']")
    page.select_option("#create-bots", str(bots))
    if bots:
        page.select_option("#create-bot-level", bot_level)
        page.select_option("#create-bot-pace", "instant")  # bot_delay 0
    page.check(f"input[name=room_pace][value={'correspondence' if days_per_move else 'live'}]")
    if days_per_move:
        page.select_option("#create-days", str(days_per_move))
    for rule in rules:
        page.check(f"input[name={rule}]")
    if match_deals is not None:
        page.locator("input[name=length]").nth(1).check()
        page.locator(".match-length input[type=number]").first.fill(str(match_deals))
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")


class Player:
    """One browser page seated at (or watching) a table."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def state(self) -> dict[str, Any]:
        return self.page.evaluate(STATE_JS)

    @property
    def view(self) -> dict[str, Any]:
        return self.state()["view"]

    def wait_view(self, timeout: float = WAIT_MS) -> dict[str, Any]:
        self.page.wait_for_function(
            "() => window.__krypkasino && window.__krypkasino.store.get().view", timeout=timeout
        )
        return self.view

    def wait_ready(self, timeout: float = WAIT_MS) -> str:
        """Wait until this seat may play ('turn') or a summary shows ('summary')."""
        self._ready = self.page.wait_for_function(READY_JS, timeout=timeout).json_value()
        return self._ready["ready"]

    def ready(self) -> str | bool:
        self._ready = self.page.evaluate(READY_JS)
        return self._ready["ready"] if self._ready else False

    def wait_seq_after(self, seq: int, timeout: float = WAIT_MS) -> None:
        res = self.page.wait_for_function(
            """(seq) => { const s = window.__krypkasino.store.get();
                          return s.error ? {error: s.error} : (s.seq !== null && s.seq > seq) && {ok: true}; }""",
            arg=seq,
            timeout=timeout,
        ).json_value()
        assert "error" not in res, f"the server refused a play: {res['error']}"

    def options(self, view: dict[str, Any], card: str) -> list[list[str]]:
        seen: list[list[str]] = []
        for m in view["legal"]:
            take = sorted(m.get("take") or [])
            if m["card"] == card and take not in seen:
                seen.append(take)
        return seen

    def click_card(self, card: str) -> None:
        self.page.locator(f'.hand li.legal button[data-card="{card}"]').first.click()

    def _turn_position(self) -> tuple[dict[str, Any], int, list[str]]:
        """The position this turn is played from (the one wait_ready() or ready() saw,
        else read now), its seq, and its playable cards in order, each once."""
        ready = getattr(self, "_ready", None)
        if not ready or ready.get("ready") != "turn":
            ready = self.state()
        self._ready = None
        view = ready["view"]
        cards = list(dict.fromkeys(m["card"] for m in view["legal"]))
        return view, ready["seq"], cards

    def play_one(self, prefer_creep: bool = False, *, clock: bool = False) -> bool:
        """Play this seat's turn; whether the seat played it itself (with ``clock``, the
        room's clock may have played it first: ``play_turn_against_the_clock``)."""
        if clock:
            return self.play_turn_against_the_clock(prefer_creep) is not None
        self.play_turn(prefer_creep)
        return True

    def play_turn(self, prefer_creep: bool = False) -> dict[str, Any]:
        """Play one card by clicking; returns what was picked ({card, take}).

        Call right after wait_ready() or ready() returned 'turn'.
        """
        view, seq, cards = self._turn_position()
        card = cards[0]
        if prefer_creep:
            creeps = [c for c in cards if self.options(view, c) == [[]]]
            if creeps:
                card = creeps[0]
        opts = self.options(view, card)
        self.click_card(card)
        take: list[str] = opts[0]
        if len(opts) > 1:
            self.page.wait_for_selector("[data-testid=chooser]")
            option = self.page.locator("[data-testid=option]").first
            take = sorted((option.get_attribute("data-take") or "").split())
            option.click()
        self.wait_seq_after(seq)
        return {"card": card, "take": take}

    def play_turn_against_the_clock(self, prefer_creep: bool = False) -> dict[str, Any] | None:
        """Play one card as ``play_turn`` does, in a room whose turn clock may run out
        first: returns what was picked, or None when the clock (or anything else) moved
        the position on before the play was sent or reached the server.  Waits on the
        events themselves, never on the clock's length: a loaded machine may take
        longer than a short clock between two clicks.

        The card is one with a single way to play it where there is one (no chooser
        to race); the click is the page's own ``click()`` on the button, made in the
        same step as the check that the position is still the one chosen from.
        """
        view, seq, cards = self._turn_position()
        single = [c for c in cards if len(self.options(view, c)) == 1]
        creeps = [c for c in single if self.options(view, c) == [[]]]
        card = (creeps if prefer_creep and creeps else single or cards)[0]
        button = f'.hand li.legal button[data-card="{card}"]'
        clicked = self._click_unless_passed(button, seq)
        if clicked is None:
            return None
        opts = self.options(view, card)
        take: list[str] = opts[0]
        if len(opts) > 1:
            option = self._click_unless_passed("[data-testid=chooser] [data-testid=option]", seq)
            if option is None:
                return None
            take = sorted((option.get("take") or "").split())
        res = self.page.wait_for_function(
            PLAYED_OR_REFUSED_JS, arg=[len(view["log"]), card]
        ).json_value()
        if "error" in res:
            try:
                self.page.wait_for_function(
                    SERVER_PLAYED_FOR_ME_JS, arg=[view["deal_no"], len(view["log"])]
                )
            except PlaywrightTimeout as exc:  # a refusal the clock does not explain
                raise AssertionError(f"the server refused a play: {res['error']}") from exc
            return None
        return {"card": card, "take": take}

    def _click_unless_passed(self, selector: str, seq: int) -> dict[str, Any] | None:
        done = self.page.wait_for_function(CLICK_UNLESS_PASSED_JS, arg=[selector, seq])
        answer: dict[str, Any] = done.json_value()
        return None if answer.get("passed") else answer

    def play_until_summary(
        self, prefer_creep: bool = False, limit: int = 200, *, clock: bool = False
    ) -> int:
        """Play every turn of this seat until a deal summary shows; returns the plays
        the seat made itself.  With ``clock``, in a room whose short turn clock may
        play for the seat meanwhile (``play_turn_against_the_clock``)."""
        plays = 0
        for _ in range(limit):
            if self.wait_ready() == "summary":
                return plays
            plays += self.play_one(prefer_creep, clock=clock)
        raise AssertionError(f"no deal summary after {limit} turns")


def play_together(players: list[Player], timeout: float = 120, *, clock: bool = False) -> int:
    """Several people at one table: whoever is to move plays, until a summary shows.
    With ``clock``, in a room whose turn clock may play for them meanwhile."""
    plays = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [p.ready() for p in players]
        if all(s == "summary" for s in states):
            return plays
        acted = False
        for p, s in zip(players, states):
            if s == "turn":
                plays += p.play_one(clock=clock)
                acted = True
        if not acted:
            time.sleep(0.02)
    raise AssertionError("the deal did not end in time")
