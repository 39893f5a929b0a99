# syntax=docker/dockerfile:1
# The club's site for production: gunicorn behind your proxy, PostgreSQL via DATABASE_URL.
# One image, three uses (docker-entrypoint.sh; docs/operating.md, The Docker image):
#   docker run … IMAGE release   the release step, once per release, before the new replicas
#   docker run … IMAGE web       the site (gunicorn; the default)
#   docker run … IMAGE worker    the task worker (manage.py db_worker)
# and any other manage.py command (createsuperuser, createcachetable, backup…).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# What both stages need: WeasyPrint's system libraries (Pango, HarfBuzz) and fonts with
# å, ä, ö for the PDFs. No gettext: the compiled catalogues (.mo) are in the repository.
FROM ${PYTHON_IMAGE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/venv/bin:$PATH
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# The runtime dependencies only, exactly as locked (requirements.txt: hashes, no test,
# type, lint or load tool), then the code, its static files (the release step's first part,
# manage.py release --static-only: `release` at run time finds them collected) and its
# bytecode.
FROM base AS build
RUN python -m venv /venv
COPY requirements.txt /tmp/requirements.txt
RUN pip install --require-hashes --no-deps -r /tmp/requirements.txt
WORKDIR /app
COPY . .
RUN python manage.py release --static-only \
    && python -m compileall -q /app

FROM base
# The runtime user owns nothing but the cache: the code is root's and read-only to it.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent club \
    && install -d -o club -g club -m 0750 /var/cache/club
COPY --from=build /venv /venv
COPY --from=build /app /app
WORKDIR /app
# Rendered PDFs and the rate limits' counts: one machine's file cache by default; several
# replicas share one with CACHE_URL=redis://… (docs/operating.md).
ENV CACHE_URL=filecache:///var/cache/club \
    PORT=8000
USER club
EXPOSE 8000
# /ping/ answers whatever the Host and without HTTPS (ops/health.py); a worker
# container is healthy while its worker runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/docker-entrypoint.sh", "healthcheck"]
ENTRYPOINT ["/app/docker-entrypoint.sh"]
CMD ["web"]
