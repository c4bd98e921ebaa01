# Stand-in for the official python:3.11-slim image, for the Docker tests on a
# machine that reaches no image registry (tests/deploy/docker_engine.py builds
# it; docs/deploy.md, "How the Docker files are tested", says how it differs).
# Debian bookworm's own Python 3.11, at /usr/local/bin/python as in the
# official image.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        python3 python3-venv python3-pip ca-certificates >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && ln -s /usr/bin/python3 /usr/local/bin/python
# The certificate authorities this machine trusts, so that pip inside a build
# reaches the package index exactly as the machine does.
COPY host-ca.crt /usr/local/share/krypkasino-standin/ca.crt
ENV LANG=C.UTF-8 \
    PIP_CERT=/usr/local/share/krypkasino-standin/ca.crt \
    SSL_CERT_FILE=/usr/local/share/krypkasino-standin/ca.crt
CMD ["python3"]
