"""The rule facts a client shows, worked out by the engine's own code.

A client (the browser, a bot, a third-party program) must not keep a copy of
a rule: everything it shows about how the game goes comes from here, and
everything here is computed by the functions a deal is played with.

* ``deal_facts``: the opening deal and the packets of a rule set for a player
  count (R2.2, R2.5, R2.6, V2, V7), by ``RuleSet.opening_counts`` and the
  dealing functions of turns.py run on a pack;
* ``packet_marks``: where the packets came in a deal being played (the view's
  ``packets``, views.py);
* ``PICTURE_RANKS``: the cards set aside by R2.4 (and kept by V9);
* ``rules_catalogue``: the catalogue of rule options (rules.py) with what the
  rules page needs: each option's section, and the variants in RULES.md order.

The tutorial's deal, played through ``Deal``, is tutorial.py's.

Pure functions of their arguments; the results are cached where the server
asks often (a view is built after every move).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import PICTURES, RANKS, pack
from .catalogue_types import DealFacts, RulesCatalogue, VariantJson
from .deal import Deal
from .errors import RulesError
from .rules import ALL_PLAYER_COUNTS, OPTION_BY_NAME, RULE_OPTIONS, RuleSet, catalogue
from .turns import PACKET_BATCH, PACKET_SIZE, deal_opening, deal_packet
from .view_types import PacketMark

PICTURE_RANKS: tuple[str, ...] = tuple(r for r in RANKS if r in PICTURES)
"""R2.4: the ranks set aside from the table (J, Q, K), in rank order."""


# --------------------------------------------------------------------- packets


@lru_cache(maxsize=256)
def packet_sizes(players: int, stock: int) -> tuple[int, ...]:
    """The cards each packet deals from a stock of ``stock`` cards (R2.5, V7).

    Dealt by ``turns.deal_packet``, the function a deal uses: full packets of
    4 a player while the stock has them, then (V7) one short packet of the rest.
    """
    sizes: list[int] = []
    left = stock
    while left > 0:
        _, used = deal_packet(["AS"] * left, players, 0)
        if used <= 0:  # cannot happen: deal_packet always deals what it can
            raise AssertionError("a packet dealt no card")
        sizes.append(used)
        left -= used
    return tuple(sizes)


@lru_cache(maxsize=1024)
def _marks(in_hands: int, stock: int, players: int, dealt: int) -> list[PacketMark]:
    marks: list[PacketMark] = []
    after, left = in_hands, stock
    for size in packet_sizes(players, stock)[:dealt]:
        left -= size
        marks.append({"after": after, "size": size, "left": left, "last": left == 0})
        after += size
    return marks


def packet_marks(deal: Deal) -> list[PacketMark]:
    """The packets dealt so far in ``deal``: ``[{"after", "size", "left", "last"}]``.

    ``after`` is the number of plays made before the packet came (a packet comes
    when every hand is empty, so after the opening hands' cards and those of the
    earlier packets), ``size`` the cards it dealt, ``left`` the stock after it and
    ``last`` whether it emptied the stock (R2.6).  The list is shared between
    calls with the same counts (the view is built after every move): do not
    change it.
    """
    opening = deal.opening
    return _marks(
        sum(len(h) for h in opening.hands), len(opening.stock), deal.players, deal.packets_dealt
    )


# ------------------------------------------------------------------ dealing


def deal_facts(rules: RuleSet, players: int) -> DealFacts:
    """The opening deal and the packets of ``rules`` for ``players`` (R2.2-R2.6, V2, V7).

    ``{"players", "cards", "hand", "batches", "table", "stock", "packet",
    "packet_batch", "packets"}``: the pack's size, the cards in each opening
    hand and the batches they are dealt in, the table cards, the stock after
    the opening deal, the cards a player gets in a full packet and in each
    batch of it, and the size of every packet (the last one may be short, V7).
    Raises RulesError when the rule set cannot be played by ``players``.
    """
    facts = _deal_facts(rules, players)
    return {**facts, "batches": list(facts["batches"]), "packets": list(facts["packets"])}


@lru_cache(maxsize=256)
def _deal_facts(rules: RuleSet, players: int) -> DealFacts:
    rules.validate_for(players)
    cards = pack(rules.copies)
    counts = rules.opening_counts(players)
    hands, table, stock = deal_opening(cards, players, 0, counts)
    return {
        "players": players,
        "cards": len(cards),
        "hand": len(hands[0]),
        "batches": list(counts[0]),
        "table": len(table),
        "stock": len(stock),
        "packet": PACKET_SIZE,
        "packet_batch": PACKET_BATCH,
        "packets": list(packet_sizes(players, len(stock))),
    }


def playable_counts(rules: RuleSet) -> list[int]:
    """The player counts ``rules`` can be played with (R1.3 and every option's)."""
    counts: list[int] = []
    for n in ALL_PLAYER_COUNTS:
        try:
            rules.validate_for(n)
        except RulesError:
            continue
        counts.append(n)
    return counts


# ---------------------------------------------------------------- catalogue


def _variant_number(variant: str) -> int:
    return int(variant.lstrip("V"))


def section_of(variant: str) -> str:
    """The rules page's section (and anchor) that explains a variant: ``V7`` -> ``v7``."""
    return variant.lower()


def variants() -> list[VariantJson]:
    """The variants of R7 in RULES.md order, each with the options that implement it.

    ``[{"variant", "section", "label", "options", "players", "scope"}]``:
    ``options`` are the option names (V8 has two), ``players`` the player
    counts every one of them allows, ``label`` the first option's English name.
    """
    by_variant: dict[str, list[str]] = {}
    for option in RULE_OPTIONS:
        by_variant.setdefault(option.variant, []).append(option.name)
    out: list[VariantJson] = []
    for variant in sorted(by_variant, key=_variant_number):
        names = by_variant[variant]
        options = [OPTION_BY_NAME[n] for n in names]
        allowed = set(options[0].players)
        for o in options[1:]:
            allowed &= set(o.players)
        out.append(
            {
                "variant": variant,
                "section": section_of(variant),
                "label": options[0].label,
                "options": names,
                "players": sorted(allowed),
                "scope": options[0].scope,
            }
        )
    return out


def standard_deals() -> list[DealFacts]:
    """``deal_facts`` of the standard rules for every player count (R2.2)."""
    return [deal_facts(RuleSet(), n) for n in ALL_PLAYER_COUNTS]


def variant_deals(names: Sequence[str]) -> list[DealFacts] | None:
    """``deal_facts`` under a variant switched on alone, for every player count it
    allows, when they differ from the standard rules' for some count (V2, V7);
    None for a variant that deals as the standard rules do, or is no on/off option."""
    options = [OPTION_BY_NAME[n] for n in names]
    if any(o.type != "boolean" for o in options):
        return None
    rules = RuleSet.from_dict({n: True for n in names})
    deals = [deal_facts(rules, n) for n in playable_counts(rules)]
    if all(d == deal_facts(RuleSet(), d["players"]) for d in deals):
        return None
    return deals


def rules_catalogue() -> RulesCatalogue:
    """``GET /api/rules``: the catalogue of rule options (rules.py) and the facts
    the rules page and the lobby show with it.

    Adds to every option ``section`` (the rules page's section of its variant)
    and ``text`` (the key its name and help are translated by); beside the
    options ``variants`` (``variants()``, each with ``deals``: its opening deal
    per player count when it changes the standard one, else null), ``deals``
    (the standard rules' opening deal per player count) and ``pictures``
    (``PICTURE_RANKS``).
    """
    base = catalogue()
    for option in base["options"]:
        option["section"] = section_of(option["variant"])
        option["text"] = f"rule_{option['name']}"
    return {
        "players": base["players"],
        "options": base["options"],
        "variants": [{**v, "deals": variant_deals(v["options"])} for v in variants()],
        "deals": standard_deals(),
        "pictures": list(PICTURE_RANKS),
    }


def rules_from_query(values: Sequence[tuple[str, str]]) -> RuleSet:
    """A rule set from query parameters (``four_card_deal=true``, ``match_deals=6``).

    Booleans are ``true``/``false`` (or 1/0), whole numbers are digits (empty or
    ``null``: not set).  Unknown options and bad values raise RulesError, as the
    catalogue says (``RuleSet.from_dict``).
    """
    data: dict[str, object] = {}
    for name, raw in values:
        option = OPTION_BY_NAME.get(name)
        text = raw.strip().lower()
        value: object = raw
        if option is not None and option.type == "boolean":
            if text in ("true", "1"):
                value = True
            elif text in ("false", "0"):
                value = False
        elif option is not None and option.type == "integer":
            if text in ("", "null"):
                value = None
            elif text.lstrip("-").isdigit() and len(text) <= 12:
                value = int(text)
        data[name] = value
    return RuleSet.from_dict(data)
