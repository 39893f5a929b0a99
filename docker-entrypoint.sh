#!/bin/sh
# The image's entrance (docs/operating.md, The Docker image):
#   release                  the release step, once per release before the new replicas:
#                            manage.py release (make release's; the static files were
#                            collected when the image was built, so it migrates)
#   web [gunicorn options]   the site on $PORT, $WEB_CONCURRENCY workers (2 × cores + 1)
#   worker [options]         the task worker: manage.py db_worker
#   healthcheck              what the image's HEALTHCHECK runs
#   anything else            a manage.py command: createsuperuser, check --deploy, backup…
set -eu

case "${1:-web}" in
    release)
        shift
        exec python manage.py release "$@"
        ;;
    web)
        [ "$#" -gt 0 ] && shift
        # ASGI workers (a game's event stream holds a connection, not a worker), each
        # with a pool of database connections (docs/operating.md, "Moves pushed").
        export DATABASE_POOL="${DATABASE_POOL:-10}"
        exec gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker \
            --bind "0.0.0.0:${PORT:-8000}" --workers "${WEB_CONCURRENCY:-$((2 * $(nproc) + 1))}" "$@"
        ;;
    worker)
        shift
        exec python manage.py db_worker "$@"
        ;;
    healthcheck)
        # The worker serves no page: it is healthy while it runs (it is process 1).
        if tr '\0' ' ' </proc/1/cmdline | grep -q db_worker; then
            exit 0
        fi
        exec python -c 'import os, urllib.request
url = "http://127.0.0.1:%s/ping/" % os.environ.get("PORT", "8000")
with urllib.request.urlopen(url, timeout=4) as response:
    raise SystemExit(0 if response.read() == b"ok" else 1)'
        ;;
    *)
        exec python manage.py "$@"
        ;;
esac
