"""Setting up a deal: from a shuffled pack (R2.2, R2.3) or from a position.

A deal starts either from a complete pack, dealt by R2.2, or from a position
(FORMAT.md scenarios; search resuming in the middle of a deal).  Either way
the input is checked in full first and rejected with a ``SetupError``, then
the opening rules are applied once: pictures leave the table (R2.4) and V5
(bordstabbe) is charged.  None of this is needed again once the deal runs,
so it lives apart from ``Deal`` (deal.py).

The functions here return a ``Start``, the checked position with the opening
rules applied, and know nothing of ``Deal``.  ``DealSetup``, the base class of
``Deal``, holds the constructors (``Deal.from_pack``, ``Deal.from_position``,
``Deal.resume``, ``Deal.from_information_set``): each makes a ``Start`` and
lets the class build itself from it (``_begin``, deal.py), the way
python-chess's ``BaseBoard.empty`` builds whatever board class it is called
on.  So deal.py imports this module and never the other way round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple, Self

from .cards import ALL_CODES, Card, is_card, table_value
from .errors import SetupError
from .infoset import InformationSet
from .moves import ORDER_KEY
from .position import check_position
from .results import Opening
from .rules import RuleSet
from .turns import deal_opening, packet_leader, set_aside

_FULL_PACK: dict[int, dict[Card, int]] = {n: {c: n for c in ALL_CODES} for n in (1, 2)}
"""What a complete pack holds, compared as plain dicts (Counter's == is slow Python)."""


class Start(NamedTuple):
    """A valid position a deal starts from, the opening rules applied (R2.4, V5).

    Fresh lists throughout: the deal built from it owns them.  A NamedTuple,
    not a frozen dataclass: one is made for every deal a simulation plays, and
    a tuple is made several times faster.
    """

    rules: RuleSet
    players: int
    dealer: int
    opening: Opening
    """The position as given, before any cleaning: what a record replays from."""
    hands: list[list[Card]]
    """Each hand in canonical order, so that legal moves come out in that order."""
    table: list[Card]
    stock: list[Card]
    """Undealt cards, top first."""
    to_move: int
    last_capturer: int | None
    set_aside_spades: list[Card]
    set_aside_other: list[Card]
    bordstabbe_seat: int | None
    """V5: the seat charged -5 before play began, if any."""


def start_from_pack(rules: RuleSet, players: int, dealer: int, pack: Sequence[Card]) -> Start:
    """Deal a shuffled pack (top first) per R2.2, R2.3 (V2, V7)."""
    rules.validate_for(players)
    expected = 52 * rules.copies
    try:
        complete = len(pack) == expected and dict.__eq__(Counter(pack), _FULL_PACK[rules.copies])
    except TypeError:  # an unhashable "card"
        complete = False
    if not complete:
        raise SetupError(
            f"a pack for these rules holds {expected} cards, each {rules.copies} time(s)"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise SetupError("the dealer must be one of the seats")
    hands, table, stock = deal_opening(pack, players, dealer, rules.opening_counts(players))
    # A complete pack dealt by R2.2 is a valid position: no need to check it again.
    return _start(
        rules, players, dealer, hands, table, stock, packet_leader(players, dealer), True, None
    )


def start_from_position(
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card] = (),
    to_move: int | None = None,
    *,
    opening: bool = True,
    last_capturer: int | None = None,
    set_aside_spades: Sequence[Card] = (),
    set_aside_other: Sequence[Card] = (),
) -> Start:
    """A position (FORMAT.md), validated in full first.

    ``opening`` (the default) treats the table as just dealt: pictures are
    set aside (R2.4) and V5 is checked.  Search code that resumes a deal in
    the middle passes ``opening=False``: the table is kept as it lies
    (crept pictures included), ``last_capturer`` is carried over and the
    pictures set aside earlier are given (they join the end award, R5.1).
    """
    to_move = check_position(rules, players, dealer, hands, table, stock, to_move, last_capturer)
    if set_aside_spades or set_aside_other:  # only a resumed deal has any
        for part, name in (
            (set_aside_spades, "set_aside_spades"),
            (set_aside_other, "set_aside_other"),
        ):
            if not all(is_card(c) for c in part):
                raise SetupError(f"{name} must hold card codes")
    return _start(
        rules,
        players,
        dealer,
        hands,
        table,
        stock,
        to_move,
        opening,
        last_capturer,
        set_aside_spades,
        set_aside_other,
    )


def _start(
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    table: Sequence[Card],
    stock: Sequence[Card],
    to_move: int,
    opening: bool,
    last_capturer: int | None,
    spades: Sequence[Card] = (),
    other: Sequence[Card] = (),
) -> Start:
    """The start of a position already known to be valid."""
    if opening:
        kept, spades_now, other_now = set_aside(table, rules)
        spades_now[:0] = spades
        other_now[:0] = other
    else:
        kept, spades_now, other_now = list(table), list(spades), list(other)
    return Start(
        rules,
        players,
        dealer,
        Opening([list(h) for h in hands], list(table), list(stock), to_move),
        [sorted(h, key=ORDER_KEY) for h in hands],
        kept,
        list(stock),
        to_move,
        last_capturer,
        spades_now,
        other_now,
        bordstabbe_seat(rules, players, dealer, kept) if opening else None,
    )


def bordstabbe_seat(rules: RuleSet, players: int, dealer: int, table: Sequence[Card]) -> int | None:
    """V5: the first player when the cleaned opening table is 2+ cards of one value."""
    if not rules.bordstabbe or len(table) < 2:
        return None
    if len({table_value(c) for c in table}) == 1:
        return packet_leader(players, dealer)
    return None


class DealSetup:
    """The ways a deal starts: the constructors of ``Deal``, which implements ``_begin``."""

    __slots__ = ()

    @classmethod
    def _begin(cls, start: Start) -> Self:
        """The deal of a checked start (deal.py)."""
        raise NotImplementedError

    @classmethod
    def from_pack(cls, rules: RuleSet, players: int, dealer: int, pack: Sequence[Card]) -> Self:
        """Deal a shuffled pack (top first) per R2.2, R2.3 (V2, V7)."""
        return cls._begin(start_from_pack(rules, players, dealer, pack))

    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        players: int,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        table: Sequence[Card],
        stock: Sequence[Card] = (),
        to_move: int | None = None,
        *,
        opening: bool = True,
        last_capturer: int | None = None,
    ) -> Self:
        """Set up a deal from a position (FORMAT.md), validating all of it first.

        ``opening`` (the default) treats the table as just dealt: pictures are
        set aside (R2.4) and V5 is checked.  Search code that resumes a deal in
        the middle passes ``opening=False``: the table is kept as it lies
        (crept pictures included) and ``last_capturer`` is carried over.
        """
        start = start_from_position(
            rules,
            players,
            dealer,
            hands,
            table,
            stock,
            to_move,
            opening=opening,
            last_capturer=last_capturer,
        )
        return cls._begin(start)

    @classmethod
    def resume(
        cls,
        rules: RuleSet,
        players: int,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        table: Sequence[Card],
        stock: Sequence[Card],
        to_move: int,
        *,
        last_capturer: int | None = None,
        set_aside_spades: Sequence[Card] = (),
        set_aside_other: Sequence[Card] = (),
    ) -> Self:
        """Resume a deal from a position in its middle (what search needs).

        The table is kept as it lies (crept pictures included, R2.5 cleans
        them only before the next packet), the last capturer is carried over
        (R5.1) and the set-aside pictures join the end award as in the real
        deal.  The position is validated like a scenario's.
        """
        start = start_from_position(
            rules,
            players,
            dealer,
            hands,
            table,
            stock,
            to_move,
            opening=False,
            last_capturer=last_capturer,
            set_aside_spades=set_aside_spades,
            set_aside_other=set_aside_other,
        )
        return cls._begin(start)

    @classmethod
    def from_information_set(
        cls, info: InformationSet, hands: Sequence[Sequence[Card]], stock: Sequence[Card]
    ) -> Self:
        """The deal of one world sampled from ``info`` (``InformationSet.sample_hidden``).

        Its seat is to move; the table, the last capturer and the set-aside
        pictures are as the seat knows them, the hidden cards as sampled.
        """
        return cls.resume(
            info.rules,
            info.players,
            info.dealer,
            hands,
            info.table,
            stock,
            info.seat,
            last_capturer=info.last_capturer,
            set_aside_spades=info.set_aside_spades,
            set_aside_other=info.set_aside_other,
        )
