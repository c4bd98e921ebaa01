# Stand-in for the official postgres:16-alpine image, for the Docker tests on a
# machine that reaches no image registry: Debian bookworm's PostgreSQL 15 with
# an entrypoint that honours the settings docker-compose.yml uses
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, the data directory, and
# pg_isready on the PATH). docs/deploy.md says how it differs.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        postgresql-common >/dev/null \
    && echo "create_main_cluster = false" >> /etc/postgresql-common/createcluster.conf \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        postgresql-15 >/dev/null \
    && rm -rf /var/lib/apt/lists/*
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data \
    LANG=C.UTF-8
VOLUME /var/lib/postgresql/data
# As the official image: SIGINT is PostgreSQL's fast shutdown.
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
