"""The rules page's texts (static/rules/<lang>.json): every language has every section
of static/js/ui/rules.js and of the variants the server's catalogue names
(app/engine/facts.py), a caption for every drawn example and the labels of the deal
tables, and the examples' card codes are real cards (RULES.md R1.2)."""

from __future__ import annotations

import json
import re

import pytest

from app.engine.cards import is_card
from app.engine.facts import variants
from app.resources import static_dir

LANGS = ("en", "sv", "nb", "fr", "es", "pt")
RULES_JS = (static_dir() / "js" / "ui" / "rules.js").read_text(encoding="utf-8")
VARIANT_SECTIONS = [v["section"] for v in variants()]
"""The variants' sections: the page makes one for each variant of the catalogue."""
_VARIANT_EXAMPLES_JS = re.findall(r"VARIANT_EXAMPLES = \{([^}]*)\}", RULES_JS)
VARIANT_EXAMPLES = re.findall(r"(\w+): \[([^\]]*)\]", "".join(_VARIANT_EXAMPLES_JS))
SECTIONS = re.findall(r'\{ id: "(\w+)", examples: \[([^\]]*)\] \}', RULES_JS) + [
    (v, dict(VARIANT_EXAMPLES).get(v, "")) for v in VARIANT_SECTIONS
]
EXAMPLES = {e.strip().strip('"') for _, ex in SECTIONS for e in ex.split(",") if e.strip()}


def texts(lang: str) -> dict:
    return json.loads((static_dir() / "rules" / f"{lang}.json").read_text(encoding="utf-8"))


def test_the_page_layout_was_read() -> None:
    assert len(SECTIONS) == 22 and "v10" in dict(SECTIONS) and "variants" in dict(SECTIONS)
    assert [f"v{i}" for i in range(1, 11)] == VARIANT_SECTIONS
    assert {v for v, _ in VARIANT_EXAMPLES} <= set(VARIANT_SECTIONS)
    wanted = {"creep", "sum", "ace", "maximal", "forced", "double", "pictures", "last", "scoring"}
    assert len(_VARIANT_EXAMPLES_JS) == 1 and "v9" in EXAMPLES
    assert wanted <= EXAMPLES


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_section_and_caption(lang: str) -> None:
    t = texts(lang)
    assert t["title"] and t["intro"] and t["toc"]
    assert set(t["sections"]) == {s for s, _ in SECTIONS}
    for sid, section in t["sections"].items():
        assert section["title"].strip(), sid
        assert section["text"] and all(p.strip() for p in section["text"]), sid
    assert set(t["examples"]) == EXAMPLES
    assert all(c.strip() for c in t["examples"].values())
    assert {"table", "hand", "played", "aside"} <= set(t["labels"])
    deal_labels = ("deal_caption", "deal_players", "deal_hand", "deal_table", "deal_packets")
    assert all(t["labels"][k].strip() for k in deal_labels)
    assert "{players}" in t["labels"]["variant_players"]
    assert len(t["labels"]["players"]) == 2
    assert "-5" not in json.dumps(t, ensure_ascii=False), "a minus sign is U+2212"


def test_the_examples_show_real_cards() -> None:
    codes = re.findall(r'"((?:[2-9]|10|[AJQK])[SHDC])"', RULES_JS)
    assert len(codes) > 40 and all(is_card(c) for c in codes)


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_client_catalog_has_the_same_keys_and_placeholders(lang: str) -> None:
    """Client text exists in all six catalogs (static/i18n/), with the same {placeholders}."""

    def load(code: str) -> dict[str, str]:
        return json.loads((static_dir() / "i18n" / f"{code}.json").read_text(encoding="utf-8"))

    en, other = load("en"), load(lang)
    # Plural forms differ by language (_one, _other, ...): compare the keys' stems.
    stem = re.compile(r"_(zero|one|two|few|many|other)$")
    assert {stem.sub("", k) for k in other} == {stem.sub("", k) for k in en}
    holes = re.compile(r"\{(\w+)\}")
    for key, text in other.items():
        base = en.get(key) or en.get(stem.sub("_other", key)) or ""
        assert set(holes.findall(text)) <= set(holes.findall(base)) | {"n"}, (lang, key)
