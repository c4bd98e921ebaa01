# Krypkasino Online server image.
#
#   docker build -t krypkasino .
#   docker run -p 8000:8000 krypkasino                      # SQLite under /app/data
#   docker run -e DATABASE_URL=postgresql+asyncpg://... krypkasino
#   docker run --rm -e DATABASE_URL=... krypkasino migrate   # only apply migrations
#
# See docs/deploy.md (docker-compose.yml runs it with PostgreSQL and Redis).

# ---- build stage: the locked dependencies, hash-checked, into a venv ----
FROM python:3.11-slim AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore

# The venv gets no pip or setuptools of its own (smaller, nothing to patch):
# the base image's pip installs into it.
RUN python -m venv --without-pip /opt/venv

# Every package and version comes from requirements.lock and must match its
# hash; wheels only, so nothing is compiled (the slim image has no compiler).
COPY requirements.lock /tmp/requirements.lock
RUN python -m pip --python /opt/venv/bin/python install --no-cache-dir --require-hashes \
        --only-binary=:all: -r /tmp/requirements.lock

# The project itself is not installed as a wheel: the server finds
# alembic.ini, migrations/ and static/ next to its app/ folder, so the source
# tree's layout is kept at /app. A .pth file puts /app on the venv's path, and
# a small script is the `krypkasino` command that [project.scripts] defines
# (tests/deploy checks that the two agree).
RUN printf '%s\n' '#!/opt/venv/bin/python' 'import sys' 'from app.cli import main' \
        'sys.exit(main())' > /opt/venv/bin/krypkasino \
    && chmod 0755 /opt/venv/bin/krypkasino \
    && /opt/venv/bin/python -c 'import pathlib, sysconfig; pathlib.Path(sysconfig.get_path("purelib"), "krypkasino-app.pth").write_text("/app\n")'

# ---- runtime stage: the venv and the application, run as a non-root user ----
FROM python:3.11-slim AS runtime

LABEL org.opencontainers.image.title="Krypkasino Online" \
      org.opencontainers.image.description="Self-hostable multiplayer server for Krypkasino" \
      org.opencontainers.image.licenses="MIT"

RUN groupadd --system --gid 10001 krypkasino \
    && useradd --system --uid 10001 --gid krypkasino --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin krypkasino

ENV PATH="/opt/venv/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOST=0.0.0.0 \
    PORT=8000

COPY --from=build /opt/venv /opt/venv

WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static
COPY app ./app
COPY deploy/entrypoint.sh deploy/healthcheck.py ./deploy/

# The default DATABASE_URL is SQLite under ./data: the only place the server
# writes. Mount a volume here when running without PostgreSQL.
RUN mkdir -p /app/data && chown krypkasino:krypkasino /app/data

USER 10001:10001

EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/deploy/healthcheck.py"]

ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["serve"]
