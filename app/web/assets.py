"""The browser client's files, read once at start-up, each with its gzip form and one
version for the whole tree.

Why in memory: ``static/`` is about 250 KB, so holding it costs little and makes every
request a dictionary lookup; each text file is gzipped once here (level 9) instead of on
every request (a first visit to the lobby transfers about 62 KB instead of 154 KB:
docs/deploy.md).

Why one version for the whole tree, and not one per file: the client is ES modules that
import each other by relative URLs. When the page loads ``/static/<version>/js/main.js``,
every module it imports resolves under the same ``/static/<version>/`` prefix by itself,
with no build step and no rewriting of ``import`` lines. The version is a hash of every
file's path and content, so any change anywhere gives every URL a new version, and a
browser may keep what it fetched under one version for good (``immutable``).
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from pathlib import Path

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    "": "text/plain; charset=utf-8",  # the vendored LICENSE-* files
}
"""Spelled out rather than taken from the mimetypes module, whose answers depend on the
machine's /etc/mime.types: a module script served with any other type does not run."""

COMPRESSIBLE = frozenset(CONTENT_TYPES.values())
"""All of the above are text. Anything else (images, fonts) is sent as it is."""

CONTENT_TYPES[".png"] = "image/png"  # the installed app's icons; not compressible

SKIPPED = frozenset({"__pycache__", "node_modules", ".DS_Store"})

VERSION_LENGTH = 12
"""Hex digits of the tree's hash in URLs: 48 bits, plenty to tell releases apart."""


@dataclass(frozen=True)
class Asset:
    """One file as the server sends it."""

    body: bytes
    content_type: str
    gzipped: bytes | None
    """The gzip form, or None when the file is not text or gzip does not make it smaller."""
    etag: str
    """Strong validator of ``body``; the gzip form's is ``gzip_etag`` (RFC 9110 wants
    different representations to have different strong validators)."""

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gz"'


def make_asset(body: bytes, content_type: str) -> Asset:
    """An Asset with its ETag and, for text, its gzip form if that is smaller."""
    digest = hashlib.sha256(body).hexdigest()
    gzipped = None
    if content_type in COMPRESSIBLE:
        # mtime=0: the same bytes on every start, so the gzip ETag is stable too.
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(packed) < len(body):
            gzipped = packed
    return Asset(body=body, content_type=content_type, gzipped=gzipped, etag=f'"{digest[:32]}"')


def content_type(path: str) -> str:
    return CONTENT_TYPES.get(Path(path).suffix.lower(), "application/octet-stream")


@dataclass(frozen=True)
class AssetTable:
    """Every file under one folder, by its relative POSIX path, and the tree's version."""

    files: dict[str, Asset]
    version: str

    @classmethod
    def load(cls, root: Path) -> AssetTable:
        files: dict[str, Asset] = {}
        tree = hashlib.sha256()
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if not path.is_file() or SKIPPED.intersection(rel.parts) or path.suffix == ".pyc":
                continue
            name = rel.as_posix()
            body = path.read_bytes()
            files[name] = make_asset(body, content_type(name))
            tree.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        return cls(files=files, version=tree.hexdigest()[:VERSION_LENGTH])

    def get(self, name: str) -> Asset | None:
        return self.files.get(name)


def looks_like_version(segment: str) -> bool:
    """Whether a URL's first segment under /static/ is a version (of this or another build)."""
    return len(segment) == VERSION_LENGTH and all(c in "0123456789abcdef" for c in segment)
