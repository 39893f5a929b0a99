"""How the background work is doing, as ``/health/`` and the organiser's desk tell it.

Terms:
- A worker is *live* when its beat is within the lease (``ops.reruns.lease``).
- A task *waits* from when it became due (queued, or its ``run_after`` passed) until a
  worker takes it.
- The desk *warns* when no worker has been seen for ``UNSEEN_WARNING`` or a task has
  waited longer than ``WAIT_WARNING``: PDFs, the rating list and e-mail then wait too.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from ops.models import TaskRerun, WorkerBeat
from ops.reruns import WORKER_LOST, failed_for_the_database, lease

UNSEEN_WARNING = datetime.timedelta(minutes=1)
WAIT_WARNING = datetime.timedelta(minutes=2)
RECENT = datetime.timedelta(hours=1)
FAILED_SHOWN = datetime.timedelta(days=1)
DATABASE_QUEUE = "django_tasks_db.DatabaseBackend"


@dataclass(frozen=True)
class WorkerStatus:
    """The task workers and their queue at ``now``."""

    now: datetime.datetime
    last_seen: datetime.datetime | None
    live_workers: int
    oldest_wait: datetime.timedelta | None
    waiting: int
    failed_recently: int
    rerun_recently: int

    @property
    def unseen_for(self) -> datetime.timedelta | None:
        return None if self.last_seen is None else self.now - self.last_seen

    @property
    def worker_missing(self) -> bool:
        unseen = self.unseen_for
        return unseen is None or unseen > UNSEEN_WARNING

    @property
    def queue_stuck(self) -> bool:
        return self.oldest_wait is not None and self.oldest_wait > WAIT_WARNING

    @property
    def warns(self) -> bool:
        return self.worker_missing or self.queue_stuck

    @property
    def unseen_minutes(self) -> int | None:
        unseen = self.unseen_for
        return None if unseen is None else int(unseen.total_seconds() // 60)

    @property
    def wait_minutes(self) -> int:
        return 0 if self.oldest_wait is None else int(self.oldest_wait.total_seconds() // 60)


def uses_worker() -> bool:
    """True when tasks wait for a worker (the database queue); False when they run at once."""
    return bool(settings.TASKS["default"]["BACKEND"] == DATABASE_QUEUE)


def worker_status(*, now: datetime.datetime | None = None) -> WorkerStatus:
    now = now or timezone.now()
    beats = WorkerBeat.objects.filter(stopped_at__isnull=True)
    ready = DBTaskResult.objects.ready()
    queued_at = ready.filter(run_after=get_date_max()).aggregate(at=Min("enqueued_at"))["at"]
    deferred_at = ready.exclude(run_after=get_date_max()).aggregate(at=Min("run_after"))["at"]
    due_since = min((at for at in (queued_at, deferred_at) if at is not None), default=None)
    recent = now - RECENT
    return WorkerStatus(
        now=now,
        last_seen=WorkerBeat.objects.aggregate(at=Max("seen_at"))["at"],
        live_workers=beats.filter(seen_at__gte=now - lease()).count(),
        oldest_wait=None if due_since is None else max(now - due_since, datetime.timedelta()),
        waiting=ready.count(),
        failed_recently=DBTaskResult.objects.filter(
            status=TaskResultStatus.FAILED, finished_at__gte=recent
        ).count(),
        rerun_recently=TaskRerun.objects.filter(at__gte=recent).count(),
    )


@dataclass(frozen=True)
class DeskNotice:
    """What the organiser's desk says of the background work: the worker when it warns,
    and the tasks failed in the last day."""

    worker: WorkerStatus | None
    failed: int


def desk_notice() -> DeskNotice | None:
    """None when there is nothing to say, or no worker is wanted (tasks run at once)."""
    if not uses_worker():
        return None
    status = worker_status()
    failed = DBTaskResult.objects.filter(
        status=TaskResultStatus.FAILED, finished_at__gte=status.now - FAILED_SHOWN
    ).count()
    if not status.warns and not failed:
        return None
    return DeskNotice(worker=status if status.warns else None, failed=failed)


# What each task is, in words, registered by the app that defines it (``label_task``).
TASK_LABELS: dict[str, Any] = {}


def label_task(task: Any, label: Any) -> None:
    """Name ``task`` (a django-tasks task) for the organiser's list of failed work."""
    TASK_LABELS[task.module_path] = label


class Failure(models.TextChoices):
    WORKER_LOST = (
        "worker-lost",
        _("Its worker stopped while running it (killed, or its machine stopped)."),
    )
    DATABASE = "database", _("The database could not be reached.")
    ERROR = "error", _("An error in the site; whoever runs the server has the details.")


@dataclass(frozen=True)
class FailedTask:
    """A task that failed, and what became of it."""

    id: Any
    task_path: str
    failed_at: datetime.datetime
    failure: Failure
    error: str
    rerun_status: str | None

    @property
    def label(self) -> Any:
        return TASK_LABELS.get(self.task_path, self.task_path.rsplit(".", 1)[-1])

    @property
    def can_run_again(self) -> bool:
        return self.rerun_status is None


def failure_of(row: DBTaskResult[..., object]) -> Failure:
    if row.exception_class_path == WORKER_LOST:
        return Failure.WORKER_LOST
    if failed_for_the_database(row):
        return Failure.DATABASE
    return Failure.ERROR


def _rerun_status(reruns: dict[Any, Any], statuses: dict[Any, str], pk: Any) -> str | None:
    """None when ``pk`` was not run again; else its rerun's status ("" when there was none:
    it had run too often)."""
    if pk not in reruns:
        return None
    rerun = reruns[pk]
    return statuses.get(rerun, "") if rerun is not None else ""


def failed_tasks(*, since: datetime.timedelta = FAILED_SHOWN, limit: int = 50) -> list[FailedTask]:
    """The tasks that failed in the last ``since``, the latest first, with their reruns."""
    rows = list(
        DBTaskResult.objects.filter(
            status=TaskResultStatus.FAILED, finished_at__gte=timezone.now() - since
        ).order_by("-finished_at")[:limit]
    )
    reruns = dict(
        TaskRerun.objects.filter(original_id__in=[row.pk for row in rows]).values_list(
            "original_id", "rerun_id"
        )
    )
    statuses = dict(
        DBTaskResult.objects.filter(pk__in=[pk for pk in reruns.values() if pk]).values_list(
            "pk", "status"
        )
    )
    return [
        FailedTask(
            id=row.pk,
            task_path=row.task_path,
            failed_at=row.finished_at or row.enqueued_at,
            failure=failure_of(row),
            error=row.exception_class_path.rsplit(".", 1)[-1],
            rerun_status=_rerun_status(reruns, statuses, row.pk),
        )
        for row in rows
    ]
