"""Draw the installed app's PNG icons from their SVG sources with Chromium.

    .venv/bin/python tools/make_icons.py

static/img/icon.svg gives icon-192.png and icon-512.png; icon-maskable.svg (the card
inside the safe circle a launcher may crop to) gives icon-maskable-512.png.  The PNGs
are committed: the server needs no image library, and they change only with the SVGs.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parent.parent / "static" / "img"
ICONS = [
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
]


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        for source, target, size in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = base64.b64encode((IMG / source).read_bytes()).decode()
            page.set_content(
                f'<body style="margin:0;background:transparent">'
                f'<img src="data:image/svg+xml;base64,{svg}" '
                f'width="{size}" height="{size}" style="display:block"></body>'
            )
            page.screenshot(path=str(IMG / target), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
