"""One log line a request and one a task, with what it took and how it ended.

Each line is a sentence for a person reading the console (``LOG_FORMAT=text``, the
default) and carries its facts as fields for a machine (``LOG_FORMAT=json``: one JSON
object a line, for journald or a log shipper; settings ``LOGGING``):
- a request (logger ``club.requests``): ``method``, ``path``, ``status``, ``duration_ms``;
- a task (logger ``club.tasks``): ``task_id``, ``task``, ``outcome``, ``duration_ms`` and
  ``subject``, what it worked on (a tournament's id, a game's, a document's name).

Never a private key: a path's private parts (a private link's key, an invitation's or a
password reset's token) are written ``…``, and a task's subject keeps only ids and
names of documents, never a letter's text, a cache key or an address.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django_tasks_db.compat import TaskResultStatus

requests_log = logging.getLogger("club.requests")
tasks_log = logging.getLogger("club.tasks")

# The URL arguments that are secrets of their own: shown as "…".
PRIVATE_ARGUMENTS = frozenset({"key", "token", "uidb64"})
# The task arguments worth a line: what the task worked on, never what it carried.
SUBJECT_NAMES = frozenset({"kind", "pk", "builder", "language", "attempt", "number"})


def logged_path(request: HttpRequest) -> str:
    """The request's path with its private parts written ``…``."""
    path = request.path
    match = getattr(request, "resolver_match", None)
    if match is not None:
        for name, value in match.kwargs.items():
            if name in PRIVATE_ARGUMENTS and value:
                path = path.replace(str(value), "…")
    return path


class RequestLogMiddleware:
    """Logs each request once it is answered: the outermost middleware but ``/ping/``'s."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        response = self.get_response(request)
        duration = round((time.perf_counter() - start) * 1000, 1)
        path = logged_path(request)
        requests_log.info(
            "%s %s %s %.1f ms",
            request.method,
            path,
            response.status_code,
            duration,
            extra={
                "method": request.method,
                "path": path,
                "status": response.status_code,
                "duration_ms": duration,
            },
        )
        return response


def subject(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """What a task worked on, from its keyword arguments: ids and names only."""
    found: dict[str, Any] = {}
    for name, value in arguments.items():
        if isinstance(value, Mapping):
            found.update(subject(value))
        elif isinstance(value, str | int) and (name in SUBJECT_NAMES or name.endswith("_id")):
            found[name] = value
    return found


def task_finished(sender: object, task_result: Any, **kwargs: Any) -> None:
    """The line of a task that ended, in the worker (django-tasks' ``task_finished``)."""
    started, finished = task_result.started_at, task_result.finished_at
    duration = (
        round((finished - started).total_seconds() * 1000, 1) if started and finished else None
    )
    status = task_result.status
    name = task_result.task.module_path
    about = subject(task_result.kwargs)
    level = logging.INFO if status == TaskResultStatus.SUCCESSFUL else logging.WARNING
    tasks_log.log(
        level,
        "Task %s %s %s in %s ms (%s)",
        name,
        task_result.id,
        status,
        duration,
        ", ".join(f"{key}={value}" for key, value in about.items()) or "-",
        extra={
            "task_id": str(task_result.id),
            "task": name,
            "outcome": str(status),
            "duration_ms": duration,
            "subject": about,
        },
    )
