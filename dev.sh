#!/bin/sh
# Set up the Python environment from the lock files (once, and again when a
# lock file changes) and then run the server or the test suite.
#
#   ./dev.sh serve [--host H] [--port P]   run the server on SQLite (./data/)
#   ./dev.sh test [pytest args]            run the whole test suite
#   ./dev.sh env                           only set up .venv
set -eu
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
VENV=.venv

need_python() {
    if ! command -v "$PYTHON" >/dev/null 2>&1; then
        echo "dev.sh: $PYTHON not found; install Python 3.11 or newer" >&2
        exit 1
    fi
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "dev.sh: Python 3.11 or newer is needed ($("$PYTHON" --version))" >&2
        exit 1
    }
}

make_venv() {
    if "$PYTHON" -m venv "$VENV" 2>/dev/null; then
        return
    fi
    rm -rf "$VENV"
    # Debian ships venv/ensurepip separately; install it when we may.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "dev.sh: installing python3-venv with apt-get" >&2
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        "$PYTHON" -m venv "$VENV"
    else
        echo "dev.sh: '$PYTHON -m venv' failed; on Debian run: sudo apt-get install python3-venv" >&2
        exit 1
    fi
}

ensure_env() {
    lock=$1
    need_python
    [ -x "$VENV/bin/python" ] || make_venv
    stamp="$VENV/.installed-$(basename "$lock")"
    want=$(cat "$lock" pyproject.toml | "$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        "$VENV/bin/python" -m pip install -q --upgrade pip
        "$VENV/bin/python" -m pip install -q --require-hashes -r "$lock"
        "$VENV/bin/python" -m pip install -q --no-deps -e .
        rm -f "$VENV"/.installed-*
        echo "$want" > "$stamp"
    fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
    serve)
        ensure_env requirements.lock
        # The API pages (/docs) load from a CDN: on for development, off by default.
        API_DOCS=${API_DOCS:-true}
        export API_DOCS
        exec "$VENV/bin/krypkasino" serve "$@"
        ;;
    test)
        ensure_env requirements-dev.lock
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    env)
        ensure_env requirements-dev.lock
        ;;
    *)
        echo "usage: ./dev.sh serve|test|env [args]" >&2
        exit 2
        ;;
esac
