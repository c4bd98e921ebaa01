"""Whole deals at every size (issue 47): at 360x740, 740x360 and 1366x768, for 2, 4 and 6
players, after every play every card on the felt and in the hand is at least 90% in
sight and uncovered, the page is exactly one screen (it neither grows with the log nor
scrolls sideways; the room's own inner areas scroll instead), and the log's entries stay
in their box. The replay and the coach's page fit the screen's width at each size too.

One room plays a whole deal; whenever the table is fuller than it has been the
viewport takes each size in turn, and at each other turn one size in rotation (two
turns at each, the second seen as the play left it, with no resize), so a single deal
checks all three. The seat prefers creeps, which keeps the table full (the
worst case), and the standard rules set pictures aside on the felt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from tests.browser.conftest import Server
from tests.browser.driver import Player, create_room
from tests.browser.waits import SETTLED_JS, WAIT_MS, wait_still
from tests.server.harness import WAITS_FOR_ANALYSES

pytestmark = pytest.mark.browser

SIZES = {
    "phone": {"width": 360, "height": 740},
    "sideways": {"width": 740, "height": 360},
    "laptop": {"width": 1366, "height": 768},
}
SEEN = 0.9  # the least share of a card that must be in sight and uncovered
GRID = 8  # sample points a side: a card is tested at GRID x GRID points

# For each card (on the felt, in the hand): the share of GRID x GRID points spread over
# its box where the card itself is what the screen shows, i.e. inside the viewport, not
# clipped away by a scroll box and not covered by anything drawn over it. A card of the
# hand is its own strip (the button): overlapped hands cover the rest by design.
# Then the page's own size, and the log's list inside the log's panel.
FIT_JS = """([grid, seen]) => {
    const out = [];
    const share = (box, owner) => {
        let hit = 0;
        for (let i = 0; i < grid; i++) for (let j = 0; j < grid; j++) {
            const x = box.left + (i + 0.5) * box.width / grid;
            const y = box.top + (j + 0.5) * box.height / grid;
            if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
            const top = document.elementFromPoint(x, y);
            if (top && owner.contains(top)) hit++;
        }
        return hit / (grid * grid);
    };
    const check = (what, owner, box) => {
        const s = share(box, owner);
        if (s < seen) {
            const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            const over = top ? `${top.tagName}.${top.className.baseVal ?? top.className}` : 'nothing';
            out.push(`${what} ${Math.round(s * 100)}% seen at ` +
                `${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}` +
                ` (its middle shows ${over})`);
        }
    };
    for (const li of document.querySelectorAll('[data-testid=table] li.tcard'))
        check(`table ${li.dataset.card || li.querySelector('[data-card]')?.dataset.card}`, li,
              li.getBoundingClientRect());
    for (const li of document.querySelectorAll('[data-testid=hand] li')) {
        const btn = li.querySelector('button.card-btn');
        check(`hand ${btn.dataset.card}`, li, btn.getBoundingClientRect());
    }
    const doc = document.documentElement;
    if (doc.scrollHeight > innerHeight) out.push(`the page grows: ${doc.scrollHeight} > ${innerHeight}`);
    if (doc.scrollWidth > innerWidth) out.push(`the page scrolls sideways: ${doc.scrollWidth} > ${innerWidth}`);
    const log = document.querySelector('[data-testid=log]');
    const list = log && log.querySelector('.log-list');
    if (list) {
        const p = log.getBoundingClientRect(), l = list.getBoundingClientRect();
        if (l.top < p.top - 0.5 || l.bottom > p.bottom + 0.5 || l.left < p.left - 0.5 || l.right > p.right + 0.5)
            out.push(`the log's list ${Math.round(l.top)}..${Math.round(l.bottom)} leaves its panel ` +
                     `${Math.round(p.top)}..${Math.round(p.bottom)}`);
        if (log.scrollHeight > log.clientHeight + 1) out.push(`the log's panel overflows: ${log.scrollHeight} > ${log.clientHeight}`);
        if (list.scrollWidth > list.clientWidth + 1) out.push("the log's entries overflow sideways");
    }
    return out;
}"""


def in_turn(names: list[str], page: Any, last: str | None = None) -> list[str]:
    """``names`` in the order that needs the fewest resizes: the size the page is at
    first (measured as it is, with no resize), ``last`` (the size wanted next) last."""
    at = next((n for n in names if SIZES[n] == page.viewport_size), None)
    rest = [n for n in names if n not in (at, last)]
    return ([at] if at else []) + rest + ([last] if last in names and last != at else [])


def check_sizes(
    page: Any,
    label: str,
    shots: Path | None = None,
    names: list[str] | None = None,
    pictures: Callable[[str], Path] | None = None,
) -> dict[str, list[str]]:
    """Each size in turn (of ``names``, or all): the problems seen there (none when all
    fits); with `shots`, a screenshot of each size's first problem, named after it; with
    `pictures` (a size's name to a file), a screenshot at each size."""
    found: dict[str, list[str]] = {}
    for name in names or list(SIZES):
        if page.viewport_size != SIZES[name]:  # else measured as the page stands
            page.set_viewport_size(SIZES[name])
        wait_still(page)  # at least three frames: the resize is applied and fitted
        problems = page.evaluate(FIT_JS, [GRID, SEEN])
        if problems:
            found[name] = [f"{label}: {p}" for p in problems]
            if (
                shots is not None
                and not (shot := shots.with_name(f"{shots.name}-{name}.png")).exists()
            ):
                page.screenshot(path=str(shot))
        if pictures is not None:
            page.screenshot(path=str(pictures(name)))
    return found


def rotation(turn: int) -> str:
    """The one size a turn that is no fuller than the ones before it is seen at: each
    size two turns in a row, then the next (each size a third of the turns, spread
    over the whole deal; the second of the two measured as the play left the page,
    with no resize between)."""
    return list(SIZES)[turn // 2 % len(SIZES)]


MANY_MARKERS_JS = """() => { const s = window.__krypkasino.store; const v = s.get().view;
    const mine = ['2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', '10C', '2D', '3D', '4D', '5D'];
    const markers = (v.seats || [{}, {}]).map((_, i) => i === v.you ? mine : []);
    const scores = (v.scores || []).map((x, i) => i === v.you ? {...x, total: 57, sweep_transfer: 40} : x);
    s.set({view: {...v, dealer: v.you, sweep_markers: markers, scores, table: ['AS', '9H', '3S', 'JC', '5C'],
                  set_aside_spades: ['JS', 'JS'], set_aside_other: ['JH', 'QH', 'QD', 'QS', 'KH', 'KC', 'KS']}}); }"""


def test_thirteen_sweep_markers_leave_the_table_whole_held_sideways(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    """The seat's own sweep markers by its name, with five cards on the table, pictures set
    aside above them and the last play below.  A loaded run's whole deal once came to this
    (thirteen markers for Ann, the dealer, with 57 points and a sweep transfer on her
    name's line): held sideways the markers took a line of their own, the
    felt lost that height, the table's cards went down to the narrowest and the last play
    covered their lower edge.  They now lie fanned on the name's line."""
    page = new_page(SIZES["sideways"])
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_view()
    assert me.wait_ready(timeout=WAIT_MS) == "turn"
    me.play_turn(prefer_creep=True)  # a last play to show under the table
    assert me.wait_ready(timeout=WAIT_MS) == "turn"
    page.wait_for_selector("[data-testid=last-move]")
    page.evaluate(MANY_MARKERS_JS)
    page.wait_for_function("() => document.querySelectorAll('.me-head .marker').length === 13")
    problems = check_sizes(page, "13 markers", screenshots / "fit-problem-markers", ["sideways"])
    assert problems == {}, problems
    head = page.evaluate(
        """() => { const h = document.querySelector('.me-head'); const m = h.querySelector('.markers');
        const n = h.querySelector('.seat-name');
        return {name: n.getBoundingClientRect().top, markers: m.getBoundingClientRect().top,
                markersBottom: m.getBoundingClientRect().bottom, nameBottom: n.getBoundingClientRect().bottom}; }"""
    )
    assert head["markers"] < head["nameBottom"] and head["name"] < head["markersBottom"], (
        f"the markers take a line of their own: {head}"
    )
    assert not page.errors


TABLE_JS = "() => window.__krypkasino.store.get().view.table.length"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_card_is_in_sight_at_every_size_through_a_whole_deal(
    new_page: Callable[..., Any], screenshots: Path, players: int
) -> None:
    page = new_page(SIZES["laptop"])
    create_room(page, "Ann", players=players, bots=players - 1)
    me = Player(page)
    me.wait_view()
    problems: dict[str, list[str]] = {}
    shots = screenshots / f"fit-problem-{players}p"
    for old in screenshots.glob(f"{shots.name}-*.png"):
        old.unlink()
    turns = 0
    most = 0  # the most cards seen on the table at one turn, for the screenshots
    while me.wait_ready(timeout=WAIT_MS) == "turn":
        table = page.evaluate(TABLE_JS)
        fuller = table > most
        # Every size at the fullest table so far (the worst case), and at each other turn
        # one size in rotation, so each size sees a third of them (every size at every
        # turn was the suite's slowest browser file).  The sizes in the order that needs
        # the fewest resizes: the one the page is at, then ending at the next turn's.
        names = in_turn(list(SIZES), page, rotation(turns + 1)) if fuller else [rotation(turns)]
        label = f"turn {turns + 1}, {table} on the table"
        # a picture of the fullest table so far at each size (not of every equal one),
        # taken as it is measured
        pictures = (lambda size: screenshots / f"table-{size}-{players}p.png") if fuller else None
        for size, found in check_sizes(page, label, shots, names, pictures).items():
            problems.setdefault(size, []).extend(found)
        if fuller:
            most = table
        me.play_turn(prefer_creep=True)
        turns += 1
    assert turns >= 10, f"a whole deal has more turns than {turns}"
    assert problems == {}, "\n".join(p for found in problems.values() for p in found[:12])
    assert not page.errors


# Everything drawn on the page lies within the screen's width, unless a box that
# scrolls sideways holds it (a wide table in its .table-scroll); text cut by its own
# box (an ellipsis, a clipped label) counts too. Hidden text for screen readers aside.
WIDTH_JS = """() => {
    const out = [];
    const scrolls = (x) => {
        for (let a = x.parentElement; a; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX === 'auto' || s.overflowX === 'scroll') return a !== document.documentElement && a !== document.body;
        }
        return false;
    };
    const name = (x) => `${x.tagName}.${x.className.baseVal ?? x.className}`;
    for (const x of document.querySelectorAll('#main *')) {
        const r = x.getBoundingClientRect();
        if (x.closest('.sr-only') || scrolls(x) || (r.width <= 1 && r.height <= 1)) continue;
        if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5))
            out.push(`${name(x)} ${Math.round(r.left)}..${Math.round(r.right)}`);
        const s = getComputedStyle(x);
        if (x.children.length === 0 && x.textContent.trim() && s.overflowX !== 'visible'
            && x.scrollWidth > x.clientWidth + 1)
            out.push(`${name(x)} "${x.textContent.trim()}" cut: ${x.scrollWidth} > ${x.clientWidth}`);
    }
    const doc = document.documentElement;
    if (doc.scrollWidth > innerWidth) out.push(`the page scrolls sideways: ${doc.scrollWidth} > ${innerWidth}`);
    return out.slice(0, 12);
}"""


@pytest.fixture
def coach_server(chromium: Path, tmp_path: Path) -> Iterator[Server]:
    """A server whose coach analyses each deal as it ends, with few sampled worlds."""
    srv = Server(
        tmp_path, env={"COACH_SAMPLES": "2", "COACH_ON_DEAL_END": "true", **WAITS_FOR_ANALYSES}
    )
    yield srv
    srv.stop()


def test_the_replay_and_the_coach_fit_every_size(
    browser: Any, coach_server: Server, screenshots: Path
) -> None:
    """The first page the coach sends a new player to: at each size (every step of a
    whole deal at one of them in rotation, the first and last at all) nothing lies past
    the screen's right edge, no label is cut, and the page does not scroll sideways
    (before: 1,428 px wide at 1366, 460 px on a phone)."""
    ctx = browser.new_context(
        viewport=SIZES["laptop"], base_url=coach_server.url, locale="en-GB", reduced_motion="reduce"
    )
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    create_room(page, players=2, bots=1, rules=("single_pack",), match_deals=1)
    me = Player(page)
    me.wait_view()
    me.play_until_summary()
    href = page.locator("[data-testid=deal-summary] [data-testid=coach-link]").get_attribute("href")
    page.goto(href)
    page.wait_for_selector("[data-testid=coach-panel]", timeout=120000)
    page.wait_for_selector("[data-testid=coach-seats]")
    steps = page.locator("[data-testid=move-item]").count()
    assert page.evaluate("() => document.documentElement.lang") == "en"
    problems: dict[str, list[str]] = {}

    def measure(name: str, label: str) -> None:
        if page.viewport_size != SIZES[name]:  # else measured as the page stands
            page.set_viewport_size(SIZES[name])
        page.evaluate(SETTLED_JS)
        found = page.evaluate(WIDTH_JS)
        if found and not problems.get(name):
            page.screenshot(
                path=str(screenshots / f"fit-problem-replay-{name}.png"), full_page=True
            )
        problems.setdefault(name, []).extend(f"{label}: {p}" for p in found)

    for step in range(steps):
        if step:
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "(k) => new URL(location.href).searchParams.get('step') === String(k)", arg=step
            )
        # the first and last steps at every size, the others at one size in rotation
        # (each size two steps in a row: the second measured with no resize between)
        if step in (0, steps - 1):
            for name in in_turn(list(SIZES), page, rotation(step + 1)):
                measure(name, f"step {step}")
                if step == steps - 1:  # in English, as the coach's page opens
                    page.screenshot(path=str(screenshots / f"replay-coach-{name}.png"))
        else:
            measure(rotation(step), f"step {step}")
    from tests.browser.test_table_fit import LANGS, set_language

    # The coach's headings are longest in sv and nb: the last step at every size in each
    # other language (English was measured at every size at the last step, just above).
    for lang in LANGS:
        if lang != "en":
            set_language(page, lang)
            for name in in_turn(list(SIZES), page):
                measure(name, lang)
    problems = {k: v for k, v in problems.items() if v}
    assert problems == {}, "\n".join(p for found in problems.values() for p in found[:12])
    assert not page.errors
    ctx.close()


# A hand of six (the most a deal gives, R2.2) whose every card can capture in two ways:
# each card's badge reads "2 choices" in the reader's language.
TWO_WAYS = """(hand) => { const s = window.__krypkasino.store; const v = s.get().view;
    s.set({view: {...v, hand, to_move: v.you, deal_over: false, table: ['2C', '3D', '5H'],
        legal: hand.flatMap((c) => [{card: c, take: ['2C']}, {card: c, take: ['3D']}])}}); }"""

# Each badge: its words whole (nothing cut by an ellipsis) and inside its own card's
# strip, so it covers no neighbour.
BADGES_JS = """() => [...document.querySelectorAll('[data-testid=hand] li')].flatMap((li) => {
    const badge = li.querySelector('[data-testid=hint-badge]');
    if (!badge) return [`${li.querySelector('[data-card]').dataset.card}: no badge`];
    const b = badge.getBoundingClientRect(), strip = li.querySelector('.card-btn').getBoundingClientRect();
    const out = [];
    if (badge.scrollWidth > badge.clientWidth + 1) out.push(`"${badge.textContent}" cut: ${badge.scrollWidth} > ${badge.clientWidth}`);
    if (b.left < strip.left - 0.5 || b.right > strip.right + 0.5)
        out.push(`"${badge.textContent}" ${Math.round(b.left)}..${Math.round(b.right)} leaves its strip ${Math.round(strip.left)}..${Math.round(strip.right)}`);
    return out;
})"""


@pytest.mark.parametrize("size", ["phone", "sideways"])
def test_choice_badges_are_whole_on_a_phone_in_every_language(
    new_page: Callable[..., Any], screenshots: Path, size: str
) -> None:
    """ "2 choices" was cut to "2 choi…" under an overlapped hand on a 360 px phone."""
    from tests.browser.test_table_fit import LANGS, set_language

    page = new_page(SIZES[size])
    create_room(page, "Ann", players=2, bots=1)
    me = Player(page)
    me.wait_ready()
    page.evaluate(TWO_WAYS, ["AS", "4H", "7C", "8D", "9S", "10H"])
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=hint-badge]').length === 6"
    )
    for lang in LANGS:
        set_language(page, lang)
        page.evaluate(SETTLED_JS)
        assert page.evaluate(BADGES_JS) == [], lang
    page.locator("[data-testid=hand]").screenshot(path=str(screenshots / f"badges-{size}.png"))


# The header's room line: every item (the code, the deal, the badges, the connection's
# dot) on one line, none past the screen's edge.
HEADER_JS = """() => {
    const items = [...document.querySelectorAll('.header-extra > *')].filter((x) => !x.classList.contains('sr-only') && x.getBoundingClientRect().height > 0);
    const rows = new Set(items.map((x) => { const r = x.getBoundingClientRect(); return Math.round((r.top + r.bottom) / 2 / 8); }));
    const out = rows.size > 1 ? [`the header's items lie on ${rows.size} lines`] : [];
    for (const x of [...items, ...document.querySelectorAll('.app-header > *')]) {
        const r = x.getBoundingClientRect();
        if (r.right > innerWidth + 0.5) out.push(`${x.className} ends at ${Math.round(r.right)}`);
    }
    return out;
}"""


@pytest.mark.parametrize("width", [740, 640])
def test_the_connection_dot_stays_beside_the_badges_held_sideways(
    new_page: Callable[..., Any], width: int
) -> None:
    """A rated room watched (RATED and WATCHING badges) on a phone held sideways: the
    connection's dot wrapped to a second line of the header."""
    page = new_page({"width": width, "height": 360})
    create_room(page, "Ann", players=4, bots=3)
    me = Player(page)
    me.wait_ready()
    page.evaluate("""() => { const s = window.__krypkasino.store; const v = s.get().view;
        s.set({view: {...v, you: null, legal: [], options: {...v.options, rated: true}}}); }""")
    page.wait_for_selector("[data-testid=watching]")
    page.wait_for_selector("[data-testid=rated-badge]")
    page.evaluate(SETTLED_JS)
    assert page.evaluate(HEADER_JS) == []


# The tutorial's card to play and the step's words, as the page opens (no scrolling).
TUTORIAL_JS = """(card) => {
    const out = [];
    const whole = (what, el) => {
        const r = el.getBoundingClientRect();
        if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5)
            out.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`);
    };
    const btn = document.querySelector(`[data-testid=hand] li.legal button[data-card="${card}"]`);
    whole(`the card to play, ${card},`, btn);
    const words = document.querySelector('[data-testid=tutorial-step] .step-text');
    if (words) whole("the step's words", words);
    if (scrollY) out.push(`the page opened scrolled by ${scrollY}`);
    return out;
}"""


def test_the_tutorials_card_to_play_and_its_words_are_on_a_phones_first_screen(
    new_page: Callable[..., Any], screenshots: Path
) -> None:
    """Before, the first card to play sat at the phone's lower edge, cut, under the
    step's long text."""
    from tests.browser.test_tutorial import TUT, learner_moves

    page = new_page(SIZES["phone"])
    page.goto("/tutorial")
    for step in learner_moves(cast(dict[str, Any], TUT)):
        page.wait_for_selector(f"[data-testid=tutorial-step][data-step={step['step']}]")
        page.evaluate(SETTLED_JS)
        assert page.evaluate(TUTORIAL_JS, step["card"]) == [], step["step"]
        if step["step"] == "creep":
            page.screenshot(path=str(screenshots / "phone-tutorial-first-step.png"))
        page.locator(f'[data-testid=hand] li.legal button[data-card="{step["card"]}"]').click()
    page.wait_for_selector("[data-testid=tutorial-step][data-step=done]")
    assert not page.errors
