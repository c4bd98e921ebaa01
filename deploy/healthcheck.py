"""Container health check: exit 0 when GET /healthz on this server answers 200.

Used by the Dockerfile's HEALTHCHECK and by docker-compose.yml. The slim
image has no curl, so this uses only the standard library. The port is the
server's PORT (default 8000); HEALTHCHECK_URL overrides the whole address.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    url = os.environ.get("HEALTHCHECK_URL") or (
        f"http://127.0.0.1:{os.environ.get('PORT') or '8000'}/healthz"
    )
    try:
        with urllib.request.urlopen(url, timeout=4) as response:  # noqa: S310 (fixed local URL)
            status = response.status
    except (urllib.error.URLError, OSError, ValueError) as exc:
        print(f"healthcheck: {url}: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"healthcheck: {url}: HTTP {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
