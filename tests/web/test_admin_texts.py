"""The admin page's texts (static/i18n/admin/<lang>.json): one catalogue for each
language of the game's pages, each with English's keys and placeholders, and no key
that would shadow one of the game's own catalogues (the two are merged)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
LANGS = ("en", "sv", "nb", "fr", "es", "pt")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _catalog(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_there_is_an_admin_catalogue_for_each_language_and_no_other() -> None:
    assert sorted(p.stem for p in (STATIC / "i18n" / "admin").glob("*.json")) == sorted(LANGS)
    assert sorted(p.stem for p in (STATIC / "i18n").glob("*.json")) == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalogue_has_the_english_keys_and_placeholders(lang: str) -> None:
    en = _catalog(STATIC / "i18n" / "admin" / "en.json")
    texts = _catalog(STATIC / "i18n" / "admin" / f"{lang}.json")
    assert list(texts) == list(en), "the same keys in the same order"
    for key, text in texts.items():
        assert key.startswith("admin_") and text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), key
    shadowed = set(texts) & set(_catalog(STATIC / "i18n" / f"{lang}.json"))
    assert not shadowed, f"keys of the game's catalogue: {sorted(shadowed)}"


def test_every_key_the_page_names_is_in_a_catalogue() -> None:
    page = (STATIC / "admin.html").read_text(encoding="utf-8")
    script = (STATIC / "js" / "admin.js").read_text(encoding="utf-8")
    named = set(re.findall(r'data-i18n(?:-placeholder)?="(\w+)"', page))
    named |= set(re.findall(r'\bt\("(\w+)"', script))
    named |= set(re.findall(r"\"(admin_\w+)\"", script))
    known = set(_catalog(STATIC / "i18n" / "admin" / "en.json"))
    known |= set(_catalog(STATIC / "i18n" / "en.json"))
    plural = {k.rsplit("_", 1)[0] for k in known if k.endswith(("_one", "_other"))}
    assert named and named <= known | plural, sorted(named - known - plural)
