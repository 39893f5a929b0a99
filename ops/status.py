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

from django.conf import settings
from django.db.models import Max, Min
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from ops.models import TaskRerun, WorkerBeat
from ops.reruns import lease

UNSEEN_WARNING = datetime.timedelta(minutes=1)
WAIT_WARNING = datetime.timedelta(minutes=2)
RECENT = datetime.timedelta(hours=1)
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


def worker_warning() -> WorkerStatus | None:
    """The status when the desk should warn of it; None when all is well or no worker is
    wanted (tasks run at once)."""
    if not uses_worker():
        return None
    status = worker_status()
    return status if status.warns else None
