"""The client's page: versioned asset URLs, the version, and nothing a strict CSP blocks."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from app import __version__
from app.resources import static_dir
from app.web.pages import PLACEHOLDER, VERSION_META, index_page, render_index

TEMPLATE = (static_dir() / "index.html").read_text(encoding="utf-8")


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if self.tags and self.tags[-1][0] in ("script", "style"):
            self.script_text += data.strip()


def _parse(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    return parser


def test_every_static_url_of_the_page_carries_the_version() -> None:
    page = render_index(TEMPLATE, "/static/0123456789ab/", "1.2.3")
    urls = [
        a.get("src") or a.get("href") for _, a in _parse(page).tags if a.get("src") or a.get("href")
    ]
    assert urls and all(u.startswith("/static/0123456789ab/") for u in urls), urls
    assert "/static/0123456789ab/js/main.js" in urls and "/static/0123456789ab/css/app.css" in urls


def test_the_page_carries_the_version_escaped() -> None:
    metas = [
        a
        for tag, a in _parse(render_index(TEMPLATE, "/static/v/", '1.0"><x')).tags
        if tag == "meta" and a.get("name") == "krypkasino-version"
    ]
    assert metas == [{"name": "krypkasino-version", "content": '1.0"><x'}]


def test_the_page_has_no_inline_script_style_or_handler() -> None:
    tags = _parse(TEMPLATE)
    assert not tags.script_text, "inline <script> or <style> content"
    for tag, attrs in tags.tags:
        assert tag != "style", "a <style> element"
        assert "style" not in attrs, f"style attribute on <{tag}>"
        assert not [a for a in attrs if a.startswith("on")], f"event handler on <{tag}>"
        if tag == "script":
            assert attrs.get("src", "").startswith("/static/"), attrs


def test_a_changed_page_fails_at_start_up_not_in_the_browser() -> None:
    with pytest.raises(ValueError, match="krypkasino-version"):
        render_index(TEMPLATE.replace(VERSION_META, ""), "/static/v/", __version__)
    with pytest.raises(ValueError, match="/static/"):
        render_index(VERSION_META, "/static/v/", __version__)


def test_without_a_client_the_placeholder_is_served() -> None:
    assert index_page(None, "/static/", __version__).body.decode() == PLACEHOLDER
