#!/bin/sh
# The stand-in redis image's entrypoint (tests only): redis-server (or its
# options alone) runs as the redis user, reachable by the other containers.
set -eu
if [ "${1#-}" != "${1:-}" ]; then
    set -- redis-server "$@"
fi
if [ "${1:-}" = redis-server ]; then
    shift
    exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
