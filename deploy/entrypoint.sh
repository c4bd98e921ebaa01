#!/bin/sh
# Start command of the Krypkasino image (and of any other installation that
# wants the same behaviour): apply pending database migrations, then serve.
#
#   entrypoint.sh [serve [EXTRA SERVE ARGS]]   migrate, then serve (default)
#   entrypoint.sh migrate                      only apply migrations, then exit
#   entrypoint.sh COMMAND [ARGS]               run COMMAND (e.g. krypkasino simulate, sh)
#
# Settings come from the environment: DATABASE_URL, REDIS_URL, HOST, PORT,
# LOG_LEVEL (see docs/deploy.md). `krypkasino serve` applies pending
# migrations as well; the explicit step first makes a failed migration stop
# the container with a clear error before anything listens.
set -eu

: "${HOST:=0.0.0.0}"
: "${PORT:=8000}"
export HOST PORT

if [ $# -eq 0 ]; then
    set -- serve
fi

case "$1" in
    serve)
        shift
        krypkasino migrate
        exec krypkasino serve --host "$HOST" --port "$PORT" "$@"
        ;;
    migrate)
        shift
        exec krypkasino migrate "$@"
        ;;
    *)
        exec "$@"
        ;;
esac
