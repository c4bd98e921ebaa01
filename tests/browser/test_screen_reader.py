"""A whole deal played the way a screen-reader user plays it (issue 50).

Everything the test does goes through the accessibility tree: form fields found by
their labels, buttons by role and name, the hand as the list named "Your hand",
keys pressed on the keyboard, and what the page says read from its live regions
(every text added under an ``aria-live`` region, collected by a MutationObserver
installed before the page's own scripts).  No CSS selector, no look at the
client's store.  At the end the deal record (over HTTP) is compared with what was
said: every play announced exactly once, in order, in the page's language.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests import fetch
from tests.browser.conftest import ROOT
from tests.browser.waits import WAIT_MS

pytestmark = pytest.mark.browser

# Every text added to a live region, in order, with the region's politeness.
HEARD_JS = """(() => {
  // Kept over a reload (sessionStorage): what was said before it counts too.
  window.__heard = JSON.parse(sessionStorage.getItem('test.heard') || '[]');
  const live = (node) => node && node.closest && node.closest('[aria-live]');
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      const el = n.nodeType === 1 ? n : n.parentElement;
      const region = live(el);
      if (region && (n.textContent || '').trim()) window.__heard.push(
        {live: region.getAttribute('aria-live'), label: region.getAttribute('aria-label'), text: n.textContent.trim()});
    }
    sessionStorage.setItem('test.heard', JSON.stringify(window.__heard));
  }).observe(document, {childList: true, subtree: true, characterData: false});
})();"""


def catalog(lang: str) -> dict[str, str]:
    """The page's texts (the test finds labels by the words the player hears)."""
    out: dict[str, str] = json.loads((ROOT / "static/i18n/en.json").read_text("utf-8"))
    out.update(json.loads((ROOT / f"static/i18n/{lang}.json").read_text("utf-8")))
    return out


def fill(template: str, **values: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def heard(page: Any, live: str = "polite") -> list[str]:
    return [h["text"] for h in page.evaluate("() => window.__heard") if h["live"] == live]


def create_room(page: Any, cat: dict[str, str], players: int = 3, clock: int = 0) -> None:
    """The lobby's form, by labels and roles: ``players`` with instant bots in every
    other seat, one deal."""
    page.goto("/")
    page.get_by_role("button", name=cat["play_now"]).wait_for()
    form = page.get_by_role("form", name=cat["create_title"])
    if not form.is_visible():  # a phone keeps the form behind a button
        page.get_by_role("button", name=cat["create_title"], exact=True).click()
    form.get_by_label(cat["your_name"], exact=True).fill("Anna")
    form.get_by_role("radiogroup", name=cat["players"]).get_by_role(
        "radio", name=str(players)
    ).check()
    form.get_by_label(cat["bots"], exact=True).select_option(str(players - 1))
    form.get_by_label(cat["bot_pace"], exact=True).select_option(label=cat["pace_instant"])
    if clock:
        form.get_by_label(cat["turn_clock"], exact=True).select_option(str(clock))
    form.get_by_role("radio", name=cat["length_deals"]).check()
    form.get_by_role("spinbutton", name=cat["length_deals"]).fill("1")
    form.get_by_role("button", name=cat["create_room"]).click()
    page.wait_for_url("**/r/*")


def hand_named(cat: dict[str, str], counts: list[int]) -> re.Pattern[str]:
    """The hand list's accessible name for any of these card counts."""
    names = [fill(cat["your_hand_one" if n == 1 else "your_hand_other"], n=n) for n in counts]
    return re.compile("^(" + "|".join(re.escape(n) for n in names) + ")$")


CHOSEN: list[
    str
] = []  # the chooser's options as read, over the run (it opens when a deal has a choice)


def play_my_turn(page: Any, cat: dict[str, str]) -> None:
    """Find a playable card by its accessible state, pick it by its key, press Enter;
    in the capture chooser, 1.  Returns once the hand has one card fewer."""
    hand = page.get_by_role("list", name=hand_named(cat, list(range(1, 11))))
    count = hand.get_by_role("button").count()
    playable = hand.get_by_role("button", disabled=False).first
    key = playable.get_attribute("aria-keyshortcuts")
    assert key, "every card says its key"
    page.keyboard.press(key)
    page.keyboard.press("Enter")
    title = ".+".join(re.escape(part) for part in cat["choose_take"].split("{card}"))
    chooser = page.get_by_role("group", name=re.compile(title))
    others = [n for n in range(0, 11) if n != count]
    done = page.get_by_role("list", name=hand_named(cat, others)).or_(
        page.get_by_text(cat["hand_empty"])
    )
    chooser.or_(done).first.wait_for()
    if chooser.count():
        # Shift+O reads the options, each as what it takes, numbered as their keys.
        said = ask(page, "Shift+O")
        assert said.startswith(cat["choose_take"].split("{")[0]), said
        CHOSEN.append(said)
        assert "1: " in said and "2: " in said, said
        page.keyboard.press("1")
        done.first.wait_for()


WAIT_NEWS = """([turns, over]) => {
  const said = window.__heard.filter((h) => h.live === 'polite').map((h) => h.text).join(' ');
  if (said.includes(over)) return 'over';
  return said.split(turns[0]).length - 1 > turns[1] ? 'turn' : false;
}"""


def expected_lines(page: Any, record: dict[str, Any], cat: dict[str, str], lang: str) -> list[str]:
    """Each play of the deal record in the words the page must say (static/i18n)."""
    names = {}
    for s in record["seats"]:
        bot = re.fullmatch(r"Bot (\d+)", s["name"] or "") if s.get("bot") else None
        names[s["seat"]] = fill(cat["bot_n"], n=bot.group(1)) if bot else s["name"]

    def card(code: str) -> str:
        rank, suit = code[:-1], code[-1]
        return fill(cat["card_name"], rank=cat[f"rank_{rank}"], suit=cat[f"suit_{suit}"])

    lists = page.evaluate(
        """([lang, items]) => items.map((x) => new Intl.ListFormat(lang, {style: 'long', type: 'conjunction'}).format(x))""",
        [lang, [[card(c) for c in m.get("taken") or []] for m in record["plays"]]],
    )
    out = []
    for move, taken, played in zip(record["plays"], lists, record["moves"], strict=True):
        line = fill(
            cat[f"log_{move['kind']}"],
            who=names[move["seat"]],
            card=card(move["card"]),
            taken=taken,
        )
        out.append(f"{line} ({cat['by_' + played['by']]})" if played.get("by") else line)
    return out


def play_a_deal(
    new_page: Any, server: Any, lang: str, locale: str, reload_at: int | None = None
) -> None:
    """Play a deal; with ``reload_at``, the page is reloaded on that turn of mine
    (a reconnect with the whole view and the chat again): nothing is said twice."""
    cat = catalog(lang)
    page = new_page(locale=locale)
    page.add_init_script(HEARD_JS)
    create_room(page, cat)
    room_id = page.url.split("/r/")[1].split("?")[0]
    over = fill(cat["deal_over_n"], n=1)
    turns = 0
    started = time.monotonic()
    while True:
        got = page.wait_for_function(
            WAIT_NEWS, arg=[[cat["your_turn"], turns], over], timeout=WAIT_MS
        ).json_value()
        if got == "over":
            break
        turns += 1
        if turns == reload_at:
            page.reload()
            page.get_by_role("list", name=hand_named(cat, list(range(1, 11)))).wait_for()
        play_my_turn(page, cat)
    assert time.monotonic() - started < 150, "a deal by keyboard should take under two minutes"
    record = fetch.get(
        f"{server.url}/api/rooms/{room_id}/matches/1/deals/1?positions=true", timeout=10
    ).json()
    record["plays"] = [p["move"] for p in record["positions"][1:]]
    assert len(record["moves"]) > 60
    said = " ".join(heard(page))
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / f"test-artifacts/screen-reader-{lang}.txt").write_text(
        "\n".join(heard(page) + ["", "Answers:"] + answers(page)), "utf-8"
    )
    lines = expected_lines(page, record, cat, lang)
    at = 0
    for i, line in enumerate(lines):
        # Twin cards (two packs) make some lines alike: each is said as often as played.
        assert said.count(line) == lines.count(line), (
            f"play {i} said {said.count(line)} times: {line!r}"
        )
        found = said.find(line, at)
        assert found >= 0, f"play {i} said out of order: {line!r}"
        at = found + len(line)
    # Plays arriving together were grouped: fewer announcements than plays.
    assert len(heard(page)) < len(lines)
    # The deal's end, with the scores, after the last play; my turns were each said once.
    assert said.find(over, at) >= 0
    assert said.count(cat["your_turn"]) == turns
    assert not page.errors


def test_a_whole_deal_by_screen_reader_in_english(new_page, server):
    play_a_deal(new_page, server, "en", "en-GB", reload_at=4)


def test_a_whole_deal_by_screen_reader_in_swedish(new_page, server):
    play_a_deal(new_page, server, "sv", "sv-SE")


def answers(page: Any) -> list[str]:
    return heard(page, "assertive")


def ask(page: Any, key: str) -> str:
    """Press an ask key; the answer is the next text of the assertive region."""
    before = len(answers(page))
    page.keyboard.press(key)
    page.wait_for_function(
        "(n) => window.__heard.filter((h) => h.live === 'assertive').length > n", arg=before
    )
    return answers(page)[before]


def test_keys_ask_without_moving_and_the_room_is_heard(new_page, server):
    """Shift+H, T, S, D, W, L answer at once (assertive) and play nothing; the
    shortcuts list them; a spectator coming and their chat line are said (polite)."""
    cat = catalog("en")
    page = new_page()
    page.add_init_script(HEARD_JS)
    create_room(page, cat, players=2)
    room_id = page.url.split("/r/")[1].split("?")[0]
    page.wait_for_function(WAIT_NEWS, arg=[[cat["your_turn"], 0], "never"])
    hand = page.get_by_role("list", name=hand_named(cat, list(range(1, 11))))
    count = hand.get_by_role("button").count()
    said = ask(page, "Shift+H")
    assert said.startswith(fill(cat["your_hand_other"], n=count)), said
    assert said.count(" of ") == count, said  # every card named, "seven of hearts"
    table = ask(page, "Shift+T")  # empty when the deal set every table card aside
    assert table.startswith("The table, ") or table == cat["say_table_empty"], table
    scores = ask(page, "Shift+S")  # a deal may score before the first play (cards set aside)
    view = page.evaluate("() => window.__krypkasino.store.get().view")
    deal = [(sc or {"total": 0})["total"] for sc in (view["scores"] or [None, None])]
    match = [(view.get("cumulative") or [0, 0])[s] for s in range(2)]
    said_numbers = re.fullmatch(
        r"Scores: Anna (\S+) this deal, (\S+) in the match; Bot 1 (\S+) this deal, (\S+) in the match",
        scores,
    )
    assert said_numbers, scores
    numbers = [int(n.replace("\u2212", "-")) for n in said_numbers.groups()]
    assert numbers == [deal[0], match[0], deal[1], match[1]], (scores, view["scores"])
    assert "cards left in the stock" in ask(page, "Shift+D")
    assert ask(page, "Shift+W") == cat["your_turn"]
    ask(page, "Shift+L")
    assert ask(page, "Shift+O") == cat["say_no_choice"]
    # Asking played nothing: the hand is as it was, and it is still my turn.
    assert hand.get_by_role("button").count() == count
    assert heard(page)[-1].endswith(cat["your_turn"] + "."), heard(page)

    # The shortcuts list the ask keys.
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name=cat["keys_title"])
    for key in ["Shift+H", "Shift+T", "Shift+S", "Shift+L", "Shift+D", "Shift+W", "Shift+O"]:
        assert dialog.get_by_text(key, exact=True).count() == 1, key
    assert dialog.get_by_text(cat["keys_ask_table"]).count() == 1
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")

    # Someone comes to watch and says hello: both are said at the table.
    watcher = new_page()
    watcher.goto(f"/r/{room_id}?watch=1")
    waiting = "(t) => window.__heard.some((h) => h.live === 'polite' && h.text.includes(t))"
    page.wait_for_function(waiting, arg=cat["say_watching_one"])
    watcher.get_by_label(cat["chat_your_name"]).fill("Zoe")
    watcher.get_by_label(cat["chat_say"]).fill("good luck")
    watcher.get_by_label(cat["chat_say"]).press("Enter")
    line = fill(cat["say_chat"], name=fill(cat["say_spectator_name"], name="Zoe"), text="good luck")
    page.wait_for_function(waiting, arg=line)
    assert " ".join(heard(page)).count(line) == 1
    # A line made to look like markup is said as the words typed, and makes no element.
    hostile = '<img src=x onerror="window.__owned=1">'
    watcher.get_by_label(cat["chat_say"]).fill(hostile)
    watcher.get_by_label(cat["chat_say"]).press("Enter")
    page.wait_for_function(waiting, arg=hostile)
    assert page.evaluate("() => window.__owned") is None
    assert page.get_by_role("img", name="x", exact=True).count() == 0
    assert not page.errors


def test_the_clock_warns_in_the_last_seconds(new_page):
    """With a turn clock, my turn's last 10 and 5 seconds are said at once (assertive)."""
    cat = catalog("en")
    page = new_page()
    page.add_init_script(HEARD_JS)
    create_room(page, cat, players=2, clock=20)
    page.wait_for_function(WAIT_NEWS, arg=[[cat["your_turn"], 0], "never"])
    for n in (10, 5):
        text = fill(cat["say_seconds_left_other"], n=n)
        page.wait_for_function(
            "(t) => window.__heard.some((h) => h.live === 'assertive' && h.text === t)",
            arg=text,
            timeout=40000,
        )
    assert len([a for a in answers(page) if "seconds left" in a]) == 2


NODE_SUMS = """
import { groupsOf, handValue, optionText } from "./static/js/ui/ask.js";
console.log(JSON.stringify({
  eight: groupsOf(handValue("8C"), ["8S", "AH", "7S", "2D", "6C"]),
  ace: groupsOf(handValue("AC"), ["10S", "4H"]),
  none: groupsOf(9, ["5S", "4H", "3C"]),
}));
"""


def test_capture_options_are_read_as_sums():
    """The chooser's options are said as groups that add up to the card played
    (RULES.md R3.3's example: an 8 takes 8, A+7 and 2+6; an ace from hand is 14)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if not node:
        pytest.skip("no Node")
    out = subprocess.run(
        [node, "--input-type=module", "-e", NODE_SUMS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    got = json.loads(out.stdout)
    assert got["eight"] == [["8S"], ["7S", "AH"], ["6C", "2D"]]
    assert got["ace"] == [["10S", "4H"]]
    assert got["none"] is None
