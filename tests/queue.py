"""The task queue as the worker sees it, for tests of queued behaviour.

The test settings run every task at once (ImmediateBackend); a test of what waits in
the queue switches to the database backend (``DATABASE_TASKS``) and then runs the
worker's work itself with ``run_queue``: every task due now, one at a time, as
``manage.py db_worker`` would.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def waiting(task_path: str = "") -> list[DBTaskResult[..., object]]:
    """The tasks waiting in the queue (of ``task_path`` only, when given), due or not."""
    tasks = DBTaskResult.objects.filter(status="READY").order_by("enqueued_at")
    return list(tasks.filter(task_path=task_path) if task_path else tasks)


def run_queue(worker_id: str = "tests") -> int:
    """Run every task that is due, as the worker would (each claimed under a row lock, so
    workers in several threads take each task once); the number run."""
    worker = Worker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
    done = 0
    while True:
        with transaction.atomic():
            task = DBTaskResult.objects.ready().get_locked()
            if task is None:
                return done
            task.claim(worker_id)
        worker.run_task(task)
        done += 1


def make_due() -> None:
    """Every deferred task is due now (as if its wait had passed)."""
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
