"""What the task workers leave behind them: their heartbeats and the tasks run again.

Terms:
- A *worker* is one ``manage.py db_worker`` process. Its *beat* is one row it updates
  every few seconds while it lives (``WorkerBeat.seen_at``), naming the task it runs.
- A worker is *lost* when its beat is older than the lease (``ops.worker.LEASE``): it
  was killed, its machine stopped, or it cannot reach the database. A worker that stops
  when asked says so (``stopped_at``).
- A *rerun* is a task run again: its first row was left RUNNING by a lost worker, or
  failed because the database could not be reached. The first row is marked failed
  with the reason; the rerun is a new row of the queue, and ``TaskRerun`` links the two.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerBeat(models.Model):
    worker_id = models.CharField(_("worker"), max_length=64, primary_key=True)
    host = models.CharField(_("host"), max_length=255)
    pid = models.PositiveIntegerField(_("process id"))
    started_at = models.DateTimeField(_("started at"))
    seen_at = models.DateTimeField(_("last seen at"), db_index=True)
    task_id = models.UUIDField(_("running task"), null=True, blank=True)
    stopped_at = models.DateTimeField(_("stopped at"), null=True, blank=True)

    class Meta:
        verbose_name = _("task worker")
        verbose_name_plural = _("task workers")

    def __str__(self) -> str:
        return f"{self.host}:{self.pid} ({self.worker_id})"


class TaskRerun(models.Model):
    class Reason(models.TextChoices):
        WORKER_LOST = "worker-lost", _("its worker stopped while running it")
        DATABASE = "database", _("the database could not be reached")
        ASKED = "asked", _("an organiser ran it again")

    original_id = models.UUIDField(_("task"), unique=True)
    rerun_id = models.UUIDField(_("run again as"), null=True, blank=True, unique=True)
    task_path = models.TextField(_("task"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    attempt = models.PositiveSmallIntegerField(_("attempt"))
    at = models.DateTimeField(_("at"), db_index=True)

    class Meta:
        verbose_name = _("task run again")
        verbose_name_plural = _("tasks run again")
        constraints = [
            models.CheckConstraint(condition=models.Q(attempt__gte=1), name="rerun_attempt_gte_1")
        ]

    def __str__(self) -> str:
        return f"{self.task_path} {self.original_id} → {self.rerun_id}"


class Announcement(models.Model):
    """A call a change asked for once it is saved (``ops.outbox``): written in the change's
    transaction, deleted in the call's, so it is there exactly while the call is owed."""

    call = models.CharField(_("call"), max_length=200)
    payload = models.JSONField(_("payload"), default=dict)
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)
    tries = models.PositiveIntegerField(_("failed tries"), default=0)
    error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return f"{self.call}({self.payload})"
