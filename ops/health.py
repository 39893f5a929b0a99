"""``/ping/``: the cheapest page of the stack, for health checks and the load test;
``/health/bare/``: the cheapest page behind the whole middleware, the baseline of the
benchmarks; and ``/health/``: what a monitor watches, the database, the cache and the
task worker.

"ok" says that this process answers, not that the database does (a page that needs the
database says so with its own 503). It reads nothing.

``PingMiddleware``, first in ``MIDDLEWARE``, answers ``/ping/`` before any other
middleware: before the HTTPS redirect (a probe inside the container speaks plain HTTP;
``SECURE_REDIRECT_EXEMPT`` says the same) and before the host is checked against
``ALLOWED_HOSTS`` (a probe asks for ``localhost`` or the container's address, not the
club's name). The image's HEALTHCHECK asks it (docs/operating.md, The Docker image).

``/health/bare/`` is a view that does nothing (it answers "ok") reached as every page
is: through every middleware of ``MIDDLEWARE`` (the log line, security headers, the
session, the language, CSRF, authentication, messages, the CSP...). It reads nothing
from the database, and neither does the middleware for it: the session and the user are
loaded only when something asks for them, and nothing does. What a page costs beyond it
is the page's own work (``benchmarks/revalidation.py`` measures the pages against it;
``/ping/``, answered before the middleware, is beside it, not the baseline).

``/health/`` answers JSON, 200 when everything works and 503 when anything does not,
so a monitor needs only the status code (docs/operating.md, "What to watch"): the
database answers a query, the cache keeps and gives back a value, and (with the
database queue) a task worker has been seen within a minute and no task has waited two,
and no call owed after a commit (``ops.outbox``) has failed and is still owed.
It says counts and ages only: no names, no errors' texts, nothing private.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from ops import outbox
from ops.status import failed_tasks, uses_worker, worker_status

PING_PATH = "/ping/"


@never_cache
@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def bare(request: HttpRequest) -> HttpResponse:
    """Nothing but the middleware's own work: the baseline a page is measured against."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


class PingMiddleware:
    """Answers ``/ping/`` at once, whatever the Host and the scheme."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PING_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        response = HttpResponse("ok", content_type="text/plain; charset=utf-8")
        add_never_cache_headers(response)
        return response


def _timed(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    start = time.perf_counter()
    answer = check()
    return {**answer, "ms": round((time.perf_counter() - start) * 1000, 1)}


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True}
    except DatabaseError:
        connection.close()
        return {"ok": False}


def _cache() -> dict[str, Any]:
    """A value kept and read back: a cache that fails quietly (a miss) fails here."""
    key, value = f"health:{uuid.uuid4().hex}", uuid.uuid4().hex
    try:
        cache.set(key, value, 10)
        kept = cache.get(key) == value
        cache.delete(key)
    except Exception:  # any backend's error: the answer is "not working"
        kept = False
    return {"ok": kept}


def _worker(database_ok: bool) -> dict[str, Any]:
    if not uses_worker():
        return {"ok": True, "queue": "none: tasks run when they are queued"}
    if not database_ok:
        return {"ok": False, "queue": "database", "reason": "the database cannot be reached"}
    status = worker_status()
    unseen = status.unseen_for
    wait = status.oldest_wait
    return {
        "ok": not status.warns,
        "queue": "database",
        "last_seen": status.last_seen.isoformat() if status.last_seen else None,
        "seconds_unseen": None if unseen is None else round(unseen.total_seconds(), 1),
        "live_workers": status.live_workers,
        "waiting_tasks": status.waiting,
        "oldest_wait_seconds": None if wait is None else round(wait.total_seconds(), 1),
        "failed_tasks_last_hour": status.failed_recently,
        "tasks_run_again_last_hour": status.rerun_recently,
        "failed_last_day": [
            {
                "task": failed.task_path,
                "failed_at": failed.failed_at.isoformat(),
                "reason": failed.failure.value,
                "run_again": failed.rerun_status,
            }
            for failed in failed_tasks()
        ],
    }


def _announcements(database_ok: bool) -> dict[str, Any]:
    """The calls owed after commits (ops.outbox): one that keeps failing is an operator's."""
    if not database_ok:
        return {"ok": False, "reason": "the database cannot be reached"}
    failing = outbox.failing()
    return {"ok": failing == 0, "owed": outbox.owed(), "failing": failing}


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    database = _timed(_database)
    checks = {
        "database": database,
        "cache": _timed(_cache),
        "worker": _timed(lambda: _worker(database["ok"])),
        "announcements": _timed(lambda: _announcements(database["ok"])),
    }
    ok = all(check["ok"] for check in checks.values())
    response = JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)
    # A monitor asks every minute: a 503 here is its news, not an error to mail.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
