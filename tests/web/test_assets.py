"""The in-memory static files: one version for the whole tree, gzip forms, content types."""

from __future__ import annotations

import gzip
from pathlib import Path

from app.resources import static_dir
from app.web.assets import VERSION_LENGTH, AssetTable, looks_like_version, make_asset


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    return root


def test_any_change_to_any_file_changes_the_version(tmp_path: Path) -> None:
    files = {"index.html": b"<p>hi</p>", "js/a.js": b"export const a = 1;\n"}
    base = AssetTable.load(_tree(tmp_path / "a", files)).version
    assert looks_like_version(base) and len(base) == VERSION_LENGTH
    assert AssetTable.load(_tree(tmp_path / "b", files)).version == base, "same tree, same version"
    edited = AssetTable.load(_tree(tmp_path / "c", {**files, "js/a.js": b"export const a = 2;\n"}))
    assert edited.version != base
    renamed = AssetTable.load(
        _tree(tmp_path / "d", {"index.html": files["index.html"], "js/b.js": files["js/a.js"]})
    )
    assert renamed.version != base
    added = AssetTable.load(_tree(tmp_path / "e", {**files, "x.css": b""}))
    assert added.version != base


def test_caches_are_not_served_and_do_not_change_the_version(tmp_path: Path) -> None:
    files = {"index.html": b"<p>hi</p>"}
    clean = AssetTable.load(_tree(tmp_path / "a", files))
    messy = AssetTable.load(
        _tree(
            tmp_path / "b", {**files, "__pycache__/x.pyc": b"\0", "node_modules/m/index.js": b"x"}
        )
    )
    assert set(messy.files) == {"index.html"} and messy.version == clean.version


def test_text_is_gzipped_once_and_decompresses_to_the_file() -> None:
    body = b"export const text = '" + b"krypkasino " * 200 + b"';\n"
    asset = make_asset(body, "text/javascript; charset=utf-8")
    assert asset.gzipped is not None and len(asset.gzipped) < len(body) / 5
    assert gzip.decompress(asset.gzipped) == body
    assert make_asset(body, "text/javascript; charset=utf-8").gzipped == asset.gzipped, (
        "the same bytes every start (no timestamp), so the gzip ETag holds across restarts"
    )
    assert asset.gzip_etag != asset.etag


def test_binary_and_incompressible_files_are_sent_as_they_are() -> None:
    assert make_asset(bytes(range(256)) * 4, "image/png").gzipped is None
    assert make_asset(b"{}", "application/json").gzipped is None, "gzip would be larger"


def test_the_clients_files_get_types_a_browser_runs() -> None:
    table = AssetTable.load(static_dir())
    types = {
        name.rsplit(".", 1)[-1]: asset.content_type
        for name, asset in table.files.items()
        if "." in name
    }
    assert types["js"] == types["mjs"] == "text/javascript; charset=utf-8"
    assert types["css"] == "text/css; charset=utf-8"
    assert types["json"] == "application/json" and types["svg"] == "image/svg+xml"
    # Every text file of the client has a smaller gzip form.
    for name in ("index.html", "js/main.js", "css/app.css", "i18n/en.json", "vendor/preact.mjs"):
        assert table.files[name].gzipped is not None, name
