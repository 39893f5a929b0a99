"""The task worker that keeps going: ``manage.py db_worker`` (docs/operating.md, "The task
worker keeps itself going").

django-tasks' database worker takes a task, runs it and marks it done; it stops for good
at the first error reaching the database, and a task it was running when killed stays
RUNNING for ever. This worker is that one with three things added:

- **It waits for the database.** An outage of any length (a restart, a failover, a
  network cut) is met by closing the connections and trying again after 0.5 s, then
  twice as long each time up to ``OUTAGE_WAIT_LAST`` s; the first failure and the
  return are logged, not every try. A task the outage made fail is run again
  (``ops.reruns``).
- **It beats.** A thread of its own (with its own connection) writes the worker's
  ``WorkerBeat`` every ``BEAT_SECONDS``, naming the task it runs, so that a worker
  that died is told from one running a long task, by anyone who reads the database.
- **It sweeps.** When it starts and every ``SWEEP_SECONDS`` it runs again the tasks
  that lost workers left RUNNING (``ops.reruns.sweep``), and makes the calls owed that
  a change's own process did not make after its commit (``ops.outbox.deliver``).

What it cannot survive (a bug that raises outside a task, the process killed) ends the
process: whatever started it starts it again (``make serve``, systemd's
``Restart=always``, a container's restart policy).
"""

from __future__ import annotations

import logging
import os
import random
import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection, connections
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from core.outages import is_database_outage
from ops import outbox
from ops.models import TaskRerun, WorkerBeat
from ops.reruns import failed_for_the_database, run_again, sweep

logger = logging.getLogger(__name__)

OUTAGE_WAIT_FIRST = 0.5
OUTAGE_WAIT_LAST = 10.0
# While the database stays away, say so again this often (seconds).
OUTAGE_REMINDER = 60.0


def worker_setting(name: str) -> float:
    return float(settings.TASK_WORKER[name])


class Heart(threading.Thread):
    """Writes the worker's beat every ``BEAT_SECONDS``, whatever the worker is doing."""

    def __init__(self, worker_id: str) -> None:
        super().__init__(name=f"heart-{worker_id}", daemon=True)
        self.worker_id = worker_id
        self.task_id: Any = None
        self.stopping = threading.Event()
        self.failing = False

    def run(self) -> None:
        try:
            while not self.stopping.wait(worker_setting("BEAT_SECONDS")):
                self.beat()
        finally:
            connection.close()

    def beat(self) -> None:
        try:
            updated = WorkerBeat.objects.filter(pk=self.worker_id).update(
                seen_at=timezone.now(), task_id=self.task_id
            )
            if not updated:  # the row was deleted (a restore, an old-beats sweep)
                begin(self.worker_id)
            self.failing = False
        except DatabaseError:
            self.failing = True
            connection.close()  # the next beat opens a new connection

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=worker_setting("BEAT_SECONDS") + 5)


def begin(worker_id: str) -> None:
    """The worker's beat, written when it starts."""
    now = timezone.now()
    WorkerBeat.objects.update_or_create(
        worker_id=worker_id,
        defaults={
            "host": socket.gethostname()[:255],
            "pid": os.getpid(),
            "started_at": now,
            "seen_at": now,
            "task_id": None,
            "stopped_at": None,
        },
    )


class Outage:
    """The worker's wait for the database: a pause that grows, logged once a minute."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.pause = OUTAGE_WAIT_FIRST
        self.told = 0.0

    def wait(self, error: BaseException) -> None:
        now = time.monotonic()
        if self.since is None:
            self.since = self.told = now
            logger.error("The database cannot be reached (%s): waiting for it", error)
        elif now - self.told >= OUTAGE_REMINDER:
            self.told = now
            logger.error("Still waiting for the database (%.0f s): %s", now - self.since, error)
        connections.close_all()
        time.sleep(self.pause)
        self.pause = min(self.pause * 2, OUTAGE_WAIT_LAST)

    def over(self) -> None:
        """The database answers again (a connection was made since the outage began)."""
        if self.since is None:
            return
        logger.warning("The database is back after %.1f s", time.monotonic() - self.since)
        self.since = None
        self.pause = OUTAGE_WAIT_FIRST


class SupervisedWorker(Worker):
    """django-tasks-db's worker, which waits out database outages, beats and sweeps."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.heart = Heart(self.worker_id)
        self.outage = Outage()
        self.next_sweep = 0.0
        self.started = False
        self.since = timezone.now()

    def run(self) -> None:
        logger.info("Starting worker worker_id=%s queues=%s", self.worker_id, self.queue_names)
        if self.startup_delay and self.interval:
            time.sleep(random.random())  # noqa: S311 - workers started together spread out
        try:
            self._loop()
        finally:
            self._stop()

    def _loop(self) -> None:
        while self.running:
            try:
                if not self.started:
                    begin(self.worker_id)
                    self.heart.start()
                    self.started = True
                if self.outage.since is not None:
                    connection.ensure_connection()  # raises while the database is away
                    self.outage.over()
                    self._rerun_own()
                self._sweep_when_due()
                task_result = self._take()
                if task_result is not None:
                    self.run_task(task_result)
            except Exception as error:
                if not is_database_outage(error):
                    raise
                self.outage.wait(error)
                continue
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                return
            if task_result is not None:
                continue  # the next task at once
            if self.batch:
                return
            if self.running:
                time.sleep(self.interval)

    def _take(self) -> DBTaskResult[..., object] | None:
        """The next task due, claimed for this worker; None when none is."""
        close_old_connections()
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        try:
            with exclusive_transaction(tasks.db):
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
                return task_result
        except OperationalError as error:
            if is_locked_database_exception(error):  # SQLite, busy: later
                return None
            raise

    def run_task(self, db_task_result: DBTaskResult[..., object]) -> None:
        self.heart.task_id = db_task_result.pk
        try:
            super().run_task(db_task_result)
        finally:
            self.heart.task_id = None
        if failed_for_the_database(db_task_result):
            run_again(db_task_result, reason=TaskRerun.Reason.DATABASE)

    def _sweep_when_due(self) -> None:
        if time.monotonic() < self.next_sweep:
            return
        sweep()
        outbox.deliver(failed_too=True)  # what failed, or a process did not make
        self.next_sweep = time.monotonic() + worker_setting("SWEEP_SECONDS")

    def _rerun_own(self) -> None:
        """The tasks an outage cut short that this worker could not mark or queue again.

        The worker runs one task at a time, so when it looks for the next one, a task still
        RUNNING in its name, or failed for the database and not yet run again, is one the
        outage cut short. (Worker ids are new for each process: these are this one's.)
        """
        rows = DBTaskResult.objects.filter(
            status__in=[TaskResultStatus.RUNNING, TaskResultStatus.FAILED],
            started_at__gte=self.since,
        ).exclude(pk__in=TaskRerun.objects.values("original_id"))
        for row in rows:
            ours = bool(row.worker_ids) and row.worker_ids[-1] == self.worker_id
            if ours and (row.status == TaskResultStatus.RUNNING or failed_for_the_database(row)):
                run_again(
                    row,
                    reason=TaskRerun.Reason.DATABASE,
                    note="The database could not be reached while this task ran.",
                )

    def _stop(self) -> None:
        if not self.started:
            return
        self.heart.stop()
        try:
            WorkerBeat.objects.filter(pk=self.worker_id).update(
                stopped_at=timezone.now(), task_id=None
            )
        except DatabaseError:
            logger.warning("Could not record that worker %s stopped", self.worker_id)
