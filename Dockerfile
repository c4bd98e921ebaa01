# Krypkasino Online server image.
#
#   docker build -t krypkasino -t krypkasino:VERSION .      # VERSION: app/__init__.py
#   docker run -p 8000:8000 krypkasino                      # SQLite under /app/data
#   docker run -e DATABASE_URL=postgresql+asyncpg://... krypkasino
#   docker run --rm -e DATABASE_URL=... krypkasino migrate   # only apply migrations
#
# See docs/deploy.md (docker-compose.yml runs it with PostgreSQL and Redis).

# ---- build stage: the locked dependencies, hash-checked, and the project's wheel ----
FROM python:3.11-slim AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore

# The venv gets no pip or setuptools of its own (smaller, nothing to patch):
# the base image's pip installs into it.
RUN python -m venv --without-pip /opt/venv

# Every package and version comes from requirements.lock and must match its
# hash; wheels only, so nothing is compiled (the slim image has no compiler).
COPY requirements.lock requirements-build.lock /tmp/
RUN python -m pip --python /opt/venv/bin/python install --no-cache-dir --require-hashes \
        --only-binary=:all: -r /tmp/requirements.lock

# The build backend (setuptools, pinned and hash-checked like the rest) in a
# venv of its own that stays in this stage.
RUN python -m venv --without-pip /opt/build \
    && python -m pip --python /opt/build/bin/python install --no-cache-dir --require-hashes \
        --only-binary=:all: -r /tmp/requirements-build.lock

# The project, built as a wheel as any release is (setup.py puts static/ and
# migrations/ inside it), then installed without dependencies (all installed
# above) and without an index: nothing but the wheel just built.
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE CHANGELOG.md ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN python -m pip --python /opt/build/bin/python wheel --no-cache-dir --no-deps \
        --no-build-isolation --no-index --wheel-dir /tmp/wheels . \
    && python -m pip --python /opt/venv/bin/python install --no-cache-dir --no-deps --no-index \
        /tmp/wheels/krypkasino-*.whl

# ---- runtime stage: the venv, run as a non-root user ----
FROM python:3.11-slim AS runtime

LABEL org.opencontainers.image.title="Krypkasino Online" \
      org.opencontainers.image.description="Self-hostable multiplayer server for Krypkasino" \
      org.opencontainers.image.licenses="MIT"

RUN groupadd --system --gid 10001 krypkasino \
    && useradd --system --uid 10001 --gid krypkasino --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin krypkasino

# API_DOCS=false: no /docs page, whose script and styles come from a CDN (the
# schema stays at /openapi.json; see docs/deploy.md).
ENV PATH="/opt/venv/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    API_DOCS=false

COPY --from=build /opt/venv /opt/venv

WORKDIR /app
COPY deploy/entrypoint.sh deploy/healthcheck.py ./deploy/

# The default DATABASE_URL is SQLite under ./data: the only place the server
# writes. Mount a volume here when running without PostgreSQL (a folder of the
# host must belong to uid 10001).
# /app/backups: where docker-compose.yml keeps the backups taken before a
# migration (BACKUP_DIR); a new named volume takes this folder's owner.
RUN mkdir -p /app/data /app/backups && chown krypkasino:krypkasino /app/data /app/backups

USER 10001:10001

EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/deploy/healthcheck.py"]

ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["serve"]
