# Stand-in for the official redis:7-alpine image, for the Docker tests on a
# machine that reaches no image registry: Debian bookworm's Redis 7.0, run as
# the redis user in /data, answering other containers (protected mode off, as
# the official image builds it). docs/deploy.md says how it differs.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        redis-server redis-tools >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["redis-server"]
