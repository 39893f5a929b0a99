"""Tasks run again: those a lost worker left RUNNING, and those the database failed.

A task left RUNNING by a worker that is gone (killed, its machine stopped) would stay so
for ever: django-tasks' database backend hands a task to one worker and never looks at
it again. The *sweep* finds such rows by the workers' beats (``ops.models``), marks each
failed with the reason, and queues it again as a new row. A task that failed because the
database could not be reached is queued again the same way. Every task of the site is
safe to run twice (docs/operating.md, "Nothing lost, nothing stuck"), and a task is run
again at most ``MAX_RUNS`` times in all, so one that kills its worker every time (a
document too big for the machine's memory) ends as a failure someone can see.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max
from django_tasks_db.utils import exclusive_transaction

from ops.models import TaskRerun, WorkerBeat

logger = logging.getLogger(__name__)

MAX_RUNS = 3
# A task the database failed waits a little longer each time before it runs again.
DATABASE_RETRY_SECONDS = 5

WORKER_LOST = "ops.reruns.WorkerLost"


class WorkerLost(Exception):  # noqa: N818 - the name is what an operator reads
    """The reason recorded for a task whose worker stopped while running it."""


def lease() -> datetime.timedelta:
    """How long a worker may go unseen before it is taken for lost (settings: TASK_WORKER)."""
    return datetime.timedelta(seconds=settings.TASK_WORKER["LEASE_SECONDS"])


def failed_for_the_database(row: DBTaskResult[..., object]) -> bool:
    """True when ``row`` failed because the database could not be reached."""
    if row.status != TaskResultStatus.FAILED or not row.exception_class_path:
        return False
    try:
        error = import_string(row.exception_class_path)
    except ImportError:
        return False
    return isinstance(error, type) and issubclass(error, OperationalError | InterfaceError)


def run_again(
    row: DBTaskResult[..., object], *, reason: TaskRerun.Reason, note: str = ""
) -> TaskRerun | None:
    """Mark ``row`` failed for ``reason`` (if it is still RUNNING) and queue it again,
    unless it has run ``MAX_RUNS`` times (an organiser may always ask for one run more);
    None when it was run again already."""
    now = timezone.now()
    with transaction.atomic():
        if TaskRerun.objects.filter(original_id=row.pk).exists():
            return None
        earlier = TaskRerun.objects.filter(rerun_id=row.pk).first()
        attempt = earlier.attempt + 1 if earlier else 1
        if row.status == TaskResultStatus.RUNNING:
            row.status = TaskResultStatus.FAILED
            row.finished_at = now
            row.exception_class_path = WORKER_LOST
            row.traceback = note
            row.save(update_fields=["status", "finished_at", "exception_class_path", "traceback"])
        rerun = None
        if attempt < MAX_RUNS or reason == TaskRerun.Reason.ASKED:
            run_after = (
                now + datetime.timedelta(seconds=DATABASE_RETRY_SECONDS * attempt)
                if reason == TaskRerun.Reason.DATABASE
                else get_date_max()
            )
            rerun = DBTaskResult.objects.create(
                args_kwargs=row.args_kwargs,
                priority=row.priority,
                task_path=row.task_path,
                queue_name=row.queue_name,
                backend_name=row.backend_name,
                run_after=run_after,
            )
        record = TaskRerun.objects.create(
            original_id=row.pk,
            rerun_id=rerun.pk if rerun else None,
            task_path=row.task_path,
            reason=reason,
            attempt=attempt,
            at=now,
        )
    if rerun is None:
        logger.error(
            "Task %s (%s) not run again: it failed %d times (%s)",
            row.pk,
            row.task_path,
            attempt,
            reason.label,
        )
    else:
        logger.warning(
            "Task %s (%s) run again as %s: %s", row.pk, row.task_path, rerun.pk, reason.label
        )
    return record


def sweep(*, now: datetime.datetime | None = None) -> list[TaskRerun]:
    """Run again every task left RUNNING by a lost worker; the reruns made.

    A worker is lost when its beat is older than the lease. A RUNNING row of a worker
    that never beat (one of a release before the beats) gets the lease from its start.
    """
    now = now or timezone.now()
    cutoff = now - lease()
    beats = {beat.worker_id: beat for beat in WorkerBeat.objects.all()}
    made = []
    with exclusive_transaction(DBTaskResult.objects.db):
        for row in DBTaskResult.objects.running().select_for_update(skip_locked=True):
            worker_id = row.worker_ids[-1] if row.worker_ids else ""
            beat = beats.get(worker_id)
            last_seen = beat.seen_at if beat else row.started_at
            if beat is not None:
                lost = beat.stopped_at is not None or beat.seen_at < cutoff
            else:
                lost = last_seen is None or last_seen < cutoff
            if not lost:
                continue
            where = f"{beat.host}, process {beat.pid}" if beat else "unknown"
            seen = last_seen.isoformat() if last_seen else "never"
            note = (
                f"The worker {worker_id} ({where}) was last seen at {seen} while running "
                "this task: it was killed, or its machine stopped. The task was queued again."
            )
            record = run_again(row, reason=TaskRerun.Reason.WORKER_LOST, note=note)
            if record is not None:
                made.append(record)
        # Beats of workers gone for a day are history nobody reads.
        WorkerBeat.objects.filter(seen_at__lt=now - datetime.timedelta(days=1)).delete()
    return made
