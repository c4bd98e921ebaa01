#!/bin/sh
# The stand-in postgres image's entrypoint (tests only): on an empty data
# directory, create the cluster with POSTGRES_USER and POSTGRES_PASSWORD
# (password logins over TCP, as the official image) and the database
# POSTGRES_DB, with a temporary server on the socket only, so that a TCP
# pg_isready says "ready" only once everything is made; then run PostgreSQL as
# the postgres user, listening on every address of the container.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"

if [ "${1:-}" != postgres ]; then
    exec "$@"
fi
shift

as_postgres() {
    setpriv --reuid=postgres --regid=postgres --init-groups "$@"
}

mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "stand-in postgres: POSTGRES_PASSWORD is not set" >&2
        exit 1
    fi
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    if [ "$POSTGRES_DB" != postgres ]; then
        as_postgres psql -v ON_ERROR_STOP=1 -q -U "$POSTGRES_USER" -d postgres \
            -c "CREATE DATABASE \"$POSTGRES_DB\""
    fi
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    echo "stand-in postgres: database $POSTGRES_DB made for $POSTGRES_USER"
fi

exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
